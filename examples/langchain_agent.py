"""A LangChain agent with memory, offline: a scripted model and a throwaway config stand in for yours."""

import tempfile
from pathlib import Path

from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langgraph.checkpoint.memory import InMemorySaver

from tact_memory.adapters.langchain import MemoryAgentMiddleware

SCAN = {"operation": "scan", "query": "commonware release tags"}
PUT = {"operation": "put", "content": "In the `commonware` repository, release tags use vX.Y.Z."}


def call(arguments: dict, id: str) -> AIMessage:  # a model message that calls the memory tool
    return AIMessage("", tool_calls=[{"name": "memory", "args": arguments, "id": id}])


SCRIPT = [call(SCAN, "1"), AIMessage("Nothing stored yet."), call(SCAN, "2"), call(PUT, "3"), AIMessage("Noted.")]


class ScriptedModel(GenericFakeChatModel):
    def bind_tools(self, tools, **kwargs):  # the script ignores the tool definitions
        return self


with tempfile.TemporaryDirectory() as home:
    Path(home, "config.toml").write_text("[memory]\nenabled = true\n")
    memory = MemoryAgentMiddleware.from_config(Path(home, "config.toml"))
    agent = create_agent(ScriptedModel(messages=iter(SCRIPT)), middleware=[memory], checkpointer=InMemorySaver())
    thread = {"configurable": {"thread_id": "demo"}}
    agent.invoke({"messages": [("user", "How are release tags named in commonware?")]}, thread)
    state = agent.invoke({"messages": [("user", "They are vX.Y.Z; remember that.")]}, thread)
    # The model's copy of turn 2's message ended with the checkpoint; the state keeps it as typed.
    print("transcript:", [m.content for m in state["messages"] if m.type == "human"])
    for record in memory.store.list_records():
        print(f"stored #{record.key.id}: {record.content}")
    memory.close()
