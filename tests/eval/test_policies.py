"""Policy names, and the pydantic-ai adapter wired to a FunctionModel (no network)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from pydantic_ai import messages as pm
from pydantic_ai.models.function import AgentInfo, FunctionModel

from tact_memory.eval.policies import PydanticAIPolicy, resolve_policy, to_pydantic_ai
from tact_memory.eval.runner import run_pair
from tact_memory.eval.scenarios import EvalError
from tact_memory.eval.scripted import ScriptedPolicy
from tact_memory.eval.summary import arm_outcomes
from tact_memory.runtime.messages import Message, ModelRequest, Part, ToolCall
from tact_memory.screening.checkpoint import CHECKPOINT_MARKER, CHECKPOINT_TEXT

from .helpers import scenario

STORED = "In the `billing-api` repository, the local Postgres listens on port 5433."


def test_policy_names() -> None:
    assert isinstance(resolve_policy("scripted", options={"min_overlap": 3}), ScriptedPolicy)
    assert resolve_policy("pydantic-ai:test").name == "pydantic-ai:test"
    with pytest.raises(EvalError, match="unknown policy"):
        resolve_policy("gpt")
    with pytest.raises(EvalError, match="unknown policy"):
        resolve_policy("pydantic-ai:")


def test_requests_translate_to_grouped_pydantic_ai_messages() -> None:
    call = ToolCall("c1", "memory", {"operation": "scan", "query": "port"})
    request = ModelRequest(
        system="system text",
        tools=(),
        messages=(
            Message("user", "user", (Part("hi"), Part(CHECKPOINT_TEXT, control=True))),
            Message("assistant", "tool_call", (Part("memory(...)"),), tool_call=call),
            Message("tool", "tool_result", (Part('{"candidates": []}'),), tool_call_id="c1"),
            Message("assistant", "assistant", (Part("done"),)),
        ),
    )
    out = to_pydantic_ai(request)
    assert [type(m).__name__ for m in out] == ["ModelRequest", "ModelResponse", "ModelRequest", "ModelResponse"]
    first = out[0].parts
    assert isinstance(first[0], pm.SystemPromptPart) and first[0].content == "system text"
    assert isinstance(first[1], pm.UserPromptPart) and CHECKPOINT_MARKER in str(first[1].content)
    ret = out[2].parts[0]
    assert isinstance(ret, pm.ToolReturnPart) and ret.tool_name == "memory" and ret.tool_call_id == "c1"


def _agent(messages: list[pm.ModelMessage], info: AgentInfo) -> pm.ModelResponse:
    """A tiny rule-based model: store the correction at the checkpoint, look it up for the task."""
    tools = {t.name for t in info.function_tools}
    last = messages[-1]
    returns = [p for p in last.parts if isinstance(p, pm.ToolReturnPart)]
    prompts = [p for m in messages if isinstance(m, pm.ModelRequest) for p in m.parts if isinstance(p, pm.UserPromptPart)]
    text = str(prompts[-1].content) if prompts else ""
    if returns:
        result = json.loads(str(returns[0].content))
        if returns[0].tool_name == "workspace":
            if "memory" not in tools:
                return pm.ModelResponse(parts=[pm.TextPart("I would use the default settings.")])
            if CHECKPOINT_MARKER in text and "5433" in text:
                return _call("memory", {"operation": "scan", "query": "billing-api postgres port"})
            if "Seed" in text:
                return _call("memory", {"operation": "scan", "query": "billing-api postgres port"})
            return pm.ModelResponse(parts=[pm.TextPart("Done.")])
        if result.get("operation") == "scan" and CHECKPOINT_MARKER in text:
            return _call("memory", {"operation": "put", "content": STORED})
        if result.get("operation") == "scan" and result["candidates"]:
            return _call("memory", {"operation": "read", "ids": [result["candidates"][0]["key"]["id"]]})
        if result.get("operation") == "read":
            return pm.ModelResponse(parts=[pm.TextPart(" ".join(m["content"] for m in result["memories"]))])
        return pm.ModelResponse(parts=[pm.TextPart("Nothing stored applies.")])
    return _call("workspace", {})


_ids = iter(range(1, 10_000))


def _call(name: str, args: dict[str, Any]) -> pm.ModelResponse:
    return pm.ModelResponse(parts=[pm.ToolCallPart(tool_name=name, args=args, tool_call_id=f"fm{next(_ids)}")])


def test_a_function_model_plays_both_arms_through_the_adapter() -> None:
    with PydanticAIPolicy(FunctionModel(_agent)) as policy:
        assert policy.name == "pydantic-ai:FunctionModel"
        p = run_pair(scenario(), policy, index=0)
    assert [c.operation for c in p.on.calls] == ["scan", "put", "scan", "read"]
    assert [o.passed for o in arm_outcomes(p, p.on)] == [True]
    assert [o.passed for o in arm_outcomes(p, p.off)] == [False]
    assert p.off.calls == []


def test_importing_the_library_loads_neither_the_eval_package_nor_matplotlib() -> None:
    code = "import json, sys, tact_memory, tact_memory.cli.app; print(json.dumps(sorted(sys.modules)))"
    loaded = set(json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout))
    assert not any(name.startswith("tact_memory.eval") for name in loaded)
    assert "matplotlib" not in loaded and "pydantic_ai" not in loaded


def test_the_eval_package_does_not_load_pydantic_ai_or_matplotlib_until_needed() -> None:
    code = "import json, sys, tact_memory.eval; print(json.dumps(sorted(sys.modules)))"
    loaded = set(json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout))
    assert "matplotlib" not in loaded and "pydantic_ai" not in loaded


def test_a_passing_provider_failure_is_sent_again_and_a_lasting_one_is_raised() -> None:
    """A dropped connection or a busy provider (HTTP 429, 5xx) is retried after 1, 2 and 4 seconds;
    a fourth failure, or an error that will not pass (HTTP 400), is raised at once."""
    from pydantic_ai.exceptions import ModelHTTPError

    failures: list[BaseException] = [ConnectionError("reset"), ModelHTTPError(429, "m"), ModelHTTPError(503, "m")]

    def flaky(messages: list[pm.ModelMessage], info: Any) -> pm.ModelResponse:
        if failures:
            raise failures.pop(0)
        return pm.ModelResponse(parts=[pm.TextPart("answered")])

    slept: list[float] = []
    with PydanticAIPolicy(FunctionModel(flaky), settings={"temperature": 0}) as policy:
        policy._sleep = slept.append
        request = ModelRequest(system="s", tools=(), messages=(Message("user", "user", (Part("hi"),)),))
        assert policy.model(scenario().brief())(request).text == "answered"
        assert slept == [1.0, 2.0, 4.0] and policy.retries == 3 and policy.settings == {"temperature": 0}
        failures.extend([ConnectionError("down")] * 4)
        with pytest.raises(ConnectionError):
            policy.model(scenario().brief())(request)
        failures[:] = [ModelHTTPError(400, "m")]
        slept.clear()
        with pytest.raises(ModelHTTPError):
            policy.model(scenario().brief())(request)
        assert slept == []
