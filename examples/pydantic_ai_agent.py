"""A pydantic-ai agent with memory, offline: FunctionModel and a throwaway config stand in for yours."""

import asyncio
import tempfile
from pathlib import Path

from pydantic_ai import Agent
from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import FunctionModel

from tact_memory.adapters.pydantic_ai import MemoryCapability, is_checkpoint

NOTE = "In the `commonware` repository, release tags use vX.Y.Z."
SCRIPT = [  # what the stand-in model answers, one response per request
    ToolCallPart("memory", {"operation": "scan", "query": "commonware release tags"}),
    TextPart("Nothing stored about that yet."),
    ToolCallPart("memory", {"operation": "scan", "query": "commonware release tags"}),
    ToolCallPart("memory", {"operation": "put", "content": NOTE}),
    TextPart("Noted for next time."),
]


async def main(home: str) -> None:
    Path(home, "config.toml").write_text("[memory]\nenabled = true\n")
    memory = MemoryCapability.from_config(Path(home, "config.toml"))
    model = FunctionModel(lambda messages, info: ModelResponse(parts=[SCRIPT.pop(0)]))
    agent = Agent(model, capabilities=[memory])
    first = await agent.run("How are release tags named in commonware?")
    second = await agent.run("They are vX.Y.Z; remember that.", message_history=first.all_messages())
    print("turn 2 ends with the checkpoint:", is_checkpoint(second.new_messages()[0].parts[-1]))
    for record in memory.store.list_records():
        print(f"stored #{record.key.id}: {record.content}")
    memory.close()


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as home:
        asyncio.run(main(home))
