"""An OpenAI Agents SDK agent with memory, offline: a scripted model and a throwaway config stand in for yours."""

import asyncio
import json
import tempfile
from pathlib import Path

from agents import Agent, ModelResponse, SQLiteSession, Usage, set_tracing_disabled
from agents.models.interface import Model
from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText

from tact_memory.adapters.openai_agents import MemoryForAgents, is_checkpoint

NOTE = "In the `commonware` repository, release tags use vX.Y.Z."


def memory_call(n: int, arguments: dict) -> ResponseFunctionToolCall:
    return ResponseFunctionToolCall(id=f"c{n}", call_id=f"c{n}", type="function_call", name="memory", arguments=json.dumps(arguments))


def reply(text: str) -> ResponseOutputMessage:
    content = [ResponseOutputText(type="output_text", text=text, annotations=[])]
    return ResponseOutputMessage(id="m", type="message", role="assistant", status="completed", content=content)


SCRIPT = [  # what the stand-in model answers, one item per model call
    memory_call(1, {"operation": "scan", "query": "commonware release tags"}),
    reply("Nothing stored about that yet."),
    memory_call(2, {"operation": "scan", "query": "commonware release tags"}),
    memory_call(3, {"operation": "put", "content": NOTE}),
    reply("Noted for next time."),
]


class ScriptedModel(Model):
    def __init__(self) -> None:
        self.last_input: list = []

    async def get_response(self, system_instructions, input, *args, **kwargs) -> ModelResponse:
        self.last_input = list(input)
        return ModelResponse(output=[SCRIPT.pop(0)], usage=Usage(), response_id=None)

    def stream_response(self, *args, **kwargs):
        raise NotImplementedError


async def main(home: str) -> None:
    set_tracing_disabled(True)  # offline: nothing to export traces to
    Path(home, "config.toml").write_text("[memory]\nenabled = true\n")
    memory = MemoryForAgents.from_config(Path(home, "config.toml"))
    model = ScriptedModel()
    agent = Agent(name="assistant", instructions="Be brief.", model=model, tools=[*memory.tools])
    session = SQLiteSession("demo")  # in memory; any Session works
    await memory.run(agent, "How are release tags named in commonware?", session=session)
    await memory.run(agent, "They are vX.Y.Z; remember that.", session=session)
    turn_two = [item for item in model.last_input if item.get("role") == "user"][-1]
    print("turn 2 was sent with the checkpoint:", is_checkpoint(turn_two["content"][-1]))
    print("the session keeps:", [item["content"] for item in await session.get_items() if item.get("role") == "user"])
    for record in memory.store.list_records():
        print(f"stored #{record.key.id}: {record.content}")
    session.close()
    memory.close()


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as home:
        asyncio.run(main(home))
