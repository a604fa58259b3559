"""Every adapter uses the runtime's one checkpoint rule, one role record and one store rule, and
imports only the public tool, runtime and config layers."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage

from ..conftest import NO_PYDANTIC_AI

pytest.importorskip("pydantic_ai", reason=NO_PYDANTIC_AI)

from pydantic_ai import Agent  # noqa: E402

import tact_memory  # noqa: E402
import tact_memory.adapters.langchain as langchain_adapter  # noqa: E402
import tact_memory.adapters.openai_agents as openai_agents_adapter  # noqa: E402
import tact_memory.adapters.pydantic_ai as pydantic_ai_adapter  # noqa: E402
from tact_memory.adapters.langchain import MemoryAgentMiddleware, with_checkpoints  # noqa: E402
from tact_memory.adapters.openai_agents import with_checkpoints as agents_with_checkpoints  # noqa: E402
from tact_memory.adapters.pydantic_ai import MemoryCapability, is_checkpoint  # noqa: E402
from tact_memory.runtime import checkpoint_rule, roles  # noqa: E402
from tact_memory.screening.checkpoint import CHECKPOINT_TEXT  # noqa: E402
from tact_memory.store.sqlite import MemoryStore  # noqa: E402

from ..runtime.test_checkpoint_rule import Event, spec_says  # noqa: E402

pytestmark = pytest.mark.anyio

PACKAGE = Path(tact_memory.__file__).parent
ADAPTERS_MAY_IMPORT = {"config", "tool", "runtime", "records", "backend", "errors", "limits"}


def own_imports(path: Path, *, module_level_only: bool = False) -> set[str]:
    """The top-level ``tact_memory`` packages or modules that ``path`` imports (relative imports)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = tree.body if module_level_only else list(ast.walk(tree))
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.ImportFrom) and node.level >= 1:
            depth = len(path.relative_to(PACKAGE).parts) - 1  # how many levels below tact_memory
            if node.level <= depth:
                continue  # within its own package
            if node.module:
                found.add(node.module.partition(".")[0])
            else:
                found.update(alias.name for alias in node.names)
    return found


@pytest.mark.parametrize("module", ["__init__", "mcp", "pydantic_ai", "langchain", "openai_agents"])
def test_adapters_import_only_the_public_layers(module: str) -> None:
    assert own_imports(PACKAGE / "adapters" / f"{module}.py") <= ADAPTERS_MAY_IMPORT


def test_the_runtime_opens_the_store_only_lazily_and_the_store_never_imports_the_runtime() -> None:
    for path in sorted((PACKAGE / "runtime").glob("*.py")):
        assert "store" not in own_imports(path, module_level_only=True), path.name
    for path in sorted((PACKAGE / "store").glob("*.py")):
        assert own_imports(path) & {"runtime", "tool", "adapters", "cli", "browser", "eval"} == set(), path.name


def test_adapters_share_the_one_rule_and_the_one_role_record() -> None:
    for adapter in (langchain_adapter, pydantic_ai_adapter, openai_agents_adapter):
        assert adapter.checkpoint_due is checkpoint_rule.checkpoint_due
        assert adapter.decide_role is roles.decide_role and adapter.running is roles.running


@st.composite
def threads(draw: st.DrawFn) -> list[Event]:
    """A LangChain thread's events: it opens with the user's message (``invoke`` with a human message)."""
    rest: list[Event] = draw(st.lists(st.sampled_from(["user", "steer", "end"]), max_size=10))
    return ["user", *rest]


@given(script=threads())
def test_langchain_checkpoints_follow_the_specification(script: list[Event]) -> None:
    thread: list[AnyMessage] = []
    for index, event in enumerate(script):
        if event == "end":
            thread.append(AIMessage("done", id=f"a{index}"))
        else:
            thread.append(HumanMessage(f"{event} {index}", id=f"h{index}"))
    sent = with_checkpoints(thread, thread)
    got = [isinstance(m.content, list) and m.content[-1] == {"type": "text", "text": CHECKPOINT_TEXT} for m in sent if isinstance(m, HumanMessage)]
    assert got == spec_says("new", script)
    assert [m.content for m in thread if isinstance(m, HumanMessage)] == [f"{e} {i}" for i, e in enumerate(script) if e != "end"]


@given(script=threads())
def test_openai_agents_checkpoints_follow_the_specification(script: list[Event]) -> None:
    # The SDK has no steers: each user message is the input of a run, which is a turn.
    runs: list[Event] = [e for e in script if e != "steer"]
    items: list[dict[str, Any]] = []
    for index, event in enumerate(runs):
        if event == "end":
            items.append({"type": "function_call_output", "call_id": str(index), "output": "{}"})
        else:
            items.append({"role": "user", "content": f"user {index}"})
            items.append({"role": "assistant", "content": "ok"})
    sent = agents_with_checkpoints(items)
    got = [isinstance(i["content"], list) and i["content"][-1]["text"] == CHECKPOINT_TEXT for i in sent if i.get("role") == "user"]
    turns: list[Event] = [step for e in runs if e == "user" for step in ("user", "end")]  # one run each
    assert got == spec_says("new", turns)
    assert [i["content"] for i in items if i.get("role") == "user"] == [f"user {i}" for i, e in enumerate(runs) if e == "user"]


def test_the_langchain_adapter_decides_through_the_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    thread: list[AnyMessage] = [HumanMessage("first", id="1")]
    monkeypatch.setattr(langchain_adapter, "checkpoint_due", lambda kind, **_: True)
    assert with_checkpoints(thread, thread)[0].content == [{"type": "text", "text": "first"}, {"type": "text", "text": CHECKPOINT_TEXT}]


async def test_the_pydantic_ai_adapter_decides_through_the_rule(
    config_path: Path, seeded: MemoryStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[Any, ...]] = []

    def never(kind: str, *, earlier_turns: int, continued: bool = False) -> bool:
        calls.append((kind, earlier_turns))
        return False

    monkeypatch.setattr(pydantic_ai_adapter, "checkpoint_due", never)
    agent = Agent("test", capabilities=[MemoryCapability.from_config(config_path, store=seeded)])
    first = await agent.run("one")
    second = await agent.run("two", message_history=first.all_messages())
    assert not any(is_checkpoint(p) for m in second.all_messages() for p in m.parts)
    assert ("user", 0) in calls and ("user", 1) in calls


def test_the_old_langchain_name_warns_and_is_the_same_class() -> None:
    with pytest.warns(DeprecationWarning, match="MemoryAgentMiddleware"):
        from tact_memory.adapters.langchain import MemoryMiddleware
    assert MemoryMiddleware is MemoryAgentMiddleware
    assert "MemoryMiddleware" not in langchain_adapter.__all__
    assert MemoryAgentMiddleware(None).name == "MemoryMiddleware"  # graph nodes of saved threads keep their names
