"""Policy names, and the pydantic-ai adapter wired to a FunctionModel (no network)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from ..conftest import NO_PYDANTIC_AI

pytest.importorskip("pydantic_ai", reason=NO_PYDANTIC_AI)

from pydantic_ai import messages as pm  # noqa: E402
from pydantic_ai.models.function import AgentInfo, FunctionModel  # noqa: E402

from tact_memory.eval.policies import PydanticAIPolicy, refused, resolve_policy, to_pydantic_ai  # noqa: E402
from tact_memory.eval.runner import run_pair, run_pairs  # noqa: E402
from tact_memory.eval.scenarios import EvalError  # noqa: E402
from tact_memory.eval.scripted import ScriptedPolicy  # noqa: E402
from tact_memory.eval.summary import arm_outcomes  # noqa: E402
from tact_memory.runtime.messages import Message, ModelRequest, Part, ToolCall  # noqa: E402
from tact_memory.screening.checkpoint import CHECKPOINT_MARKER, CHECKPOINT_TEXT  # noqa: E402

from .helpers import scenario  # noqa: E402

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


def _ask(policy: PydanticAIPolicy) -> str | None:
    request = ModelRequest(system="s", tools=(), messages=(Message("user", "user", (Part("hi"),)),))
    return policy.model(scenario().brief())(request).text


@pytest.mark.parametrize("transport", ["httpx", "httpx2"])
def test_pydantic_ai_connection_and_timeout_errors_are_sent_again(transport: str) -> None:
    """pydantic-ai raises its own errors for a dropped connection or a timeout, with no status code,
    and an error it does not sort may carry the transport's own (httpx or httpx2) as its cause."""
    from pydantic_ai.exceptions import ModelAPIError, ModelConnectionError, ModelTimeoutError

    module = pytest.importorskip(transport)
    stream = ModelAPIError("m", "the stream ended early")
    stream.__cause__ = module.ReadError("connection reset by peer")
    failures: list[BaseException] = [
        ModelConnectionError("m", "connection reset", phase="read"),
        ModelTimeoutError("m", "timed out", phase="read"),
        stream,
    ]

    def flaky(messages: list[pm.ModelMessage], info: Any) -> pm.ModelResponse:
        if failures:
            raise failures.pop(0)
        return pm.ModelResponse(parts=[pm.TextPart("answered")])

    slept: list[float] = []
    with PydanticAIPolicy(FunctionModel(flaky)) as policy:
        policy._sleep = slept.append
        assert _ask(policy) == "answered"
    assert slept == [1.0, 2.0, 4.0] and policy.retries == 3


def test_a_request_the_provider_will_not_take_is_raised_at_once() -> None:
    """A malformed or too long request (HTTP 400) and an exhausted quota (which OpenAI sends as a
    429) come back the same however long one waits."""
    from pydantic_ai.exceptions import ModelHTTPError, ModelQuotaExceededError

    quota = ModelHTTPError.for_category(ModelQuotaExceededError, status_code=429, model_name="m")
    for error in (ModelHTTPError(400, "m", body="prompt is too long"), quota):

        def lasting(messages: list[pm.ModelMessage], info: Any, error: Exception = error) -> pm.ModelResponse:
            raise error

        slept: list[float] = []
        with PydanticAIPolicy(FunctionModel(lasting)) as policy:
            policy._sleep = slept.append
            with pytest.raises(type(error)):
                _ask(policy)
        assert slept == [] and policy.retries == 0


def test_only_a_refusal_of_the_request_itself_counts_against_an_arm() -> None:
    from pydantic_ai.exceptions import (
        ContentFilterError,
        ModelAuthenticationError,
        ModelContextWindowExceededError,
        ModelHTTPError,
        ModelQuotaExceededError,
        ModelTimeoutError,
    )

    def http(category: Any, status: int) -> ModelHTTPError:
        return ModelHTTPError.for_category(category, status_code=status, model_name="m")

    assert refused(ModelHTTPError(400, "m")) and refused(ModelHTTPError(413, "m"))
    assert refused(http(ModelContextWindowExceededError, 400)) and refused(ContentFilterError("filtered"))
    # the account, the model name, or a failure of the moment: nothing the arm's request did
    assert not refused(http(ModelQuotaExceededError, 400)) and not refused(http(ModelAuthenticationError, 401))
    assert not refused(ModelHTTPError(404, "m")) and not refused(ModelHTTPError(429, "m"))
    assert not refused(ModelTimeoutError("m", "timed out")) and not refused(ValueError("a bug"))


def test_a_request_refused_in_the_memory_on_arm_only_fails_that_arm() -> None:
    """Memory results can push a request past what the provider takes (HTTP 400, prompt too long)
    where the memory-off arm never goes: that is memory on failing its tasks, not a scenario that
    could not be run."""
    from pydantic_ai.exceptions import ModelHTTPError

    def crowded(messages: list[pm.ModelMessage], info: AgentInfo) -> pm.ModelResponse:
        returns = [p for p in messages[-1].parts if isinstance(p, pm.ToolReturnPart)]
        if any(r.tool_name == "memory" and '"operation": "read"' in str(r.content) for r in returns):
            raise ModelHTTPError(400, "m", body="prompt is too long")
        return _agent(messages, info)

    dropped: list[tuple[str, str]] = []
    with PydanticAIPolicy(FunctionModel(crowded)) as policy:
        [p] = run_pairs([scenario()], policy, dropped=dropped)
    assert dropped == [] and policy.retries == 0
    assert [c.operation for c in p.on.calls] == ["scan", "put", "scan", "read"]
    assert p.on.error is not None and p.on.error.startswith("ModelHTTPError: status_code: 400")
    assert p.on.failures == [f"session 2 turn 1: {p.on.error}"] and len(p.on.sessions) == 2
    assert p.on.tasks == []  # the refusal came before the answer
    assert [(o.task, o.passed, o.missing) for o in arm_outcomes(p, p.on)] == [("seed", False, ("5433",))]
    assert p.off.error is None and p.off.failures == [] and len(p.off.tasks) == 1


def test_a_scenario_both_arms_could_not_run_is_left_out_and_named() -> None:
    """Refused in both arms, or failing for the moment after every retry: there is nothing to compare."""
    from pydantic_ai.exceptions import ModelConnectionError, ModelHTTPError

    for error, named in ((ModelHTTPError(400, "m", body="bad request"), "ModelHTTPError: status_code: 400"),
                         (ModelConnectionError("m", "connection refused"), "ModelConnectionError: connection refused")):  # fmt: skip

        def down(messages: list[pm.ModelMessage], info: Any, error: Exception = error) -> pm.ModelResponse:
            raise error

        dropped: list[tuple[str, str]] = []
        with PydanticAIPolicy(FunctionModel(down)) as policy:
            policy._sleep = lambda seconds: None
            assert run_pairs([scenario()], policy, dropped=dropped) == []
        assert [id_ for id_, _ in dropped] == ["tiny"] and dropped[0][1].startswith(named)
