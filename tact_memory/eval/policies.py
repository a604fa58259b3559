"""Agent policies: who plays the model in an evaluation run.

A :class:`Policy` has one job: given what it may know about a scenario (a
:class:`~tact_memory.eval.scenarios.Brief`), return a :data:`~tact_memory.runtime.session.Model`, the
callable from one :class:`~tact_memory.runtime.messages.ModelRequest` to one
:class:`~tact_memory.runtime.messages.ModelResponse`. The runner calls it through the real runtime and
middleware for both arms, so a policy sees exactly what any agent loop would show a model: the
memory tool and paragraph only when memory is on, the review checkpoint on qualifying messages,
and memory content only in the results of its own ``scan`` and ``read`` calls.

Two policies ship:

* :class:`~tact_memory.eval.scripted.ScriptedPolicy` (``scripted``), deterministic and offline, so
  CI runs every scenario;
* :class:`PydanticAIPolicy` (``pydantic-ai:MODEL``), which sends each request to any model
  pydantic-ai can reach (``pydantic-ai:openai:gpt-4.1``, ``pydantic-ai:anthropic:claude-sonnet-4-5``
  …) for a real paired evaluation. It ignores the brief: a real model has to find, judge and write
  conclusions on its own. pydantic-ai is imported on first use, never by ``import tact_memory``.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from ..runtime.messages import Message, ModelRequest, ModelResponse, ToolCall
from ..runtime.session import Model
from .scenarios import Brief, EvalError

if TYPE_CHECKING:
    from pydantic_ai.messages import ModelMessage
    from pydantic_ai.models import Model as PydanticAIModel

__all__ = ["Policy", "PydanticAIPolicy", "refused", "resolve_policy", "to_pydantic_ai"]


class Policy(Protocol):
    """Plays the model for one arm of one scenario."""

    name: str
    """Shown in reports; ``scripted`` or ``pydantic-ai:MODEL``."""

    def model(self, brief: Brief) -> Model:
        """A model for one arm of one scenario; called once per arm, used for every session."""
        ...


def resolve_policy(name: str, *, options: Mapping[str, Any] | None = None) -> Policy:
    """The policy a command-line name selects.

    Args:
        name: ``scripted``, or ``pydantic-ai:MODEL`` where MODEL is a pydantic-ai model name.
        options: Keyword options for the scripted policy (its pre-registered rule constants).

    Raises:
        EvalError: an unknown name, or pydantic-ai is not installed.
    """
    if name == "scripted":
        from .scripted import ScriptedPolicy

        return ScriptedPolicy(**dict(options or {}))
    prefix = "pydantic-ai:"
    if name.startswith(prefix) and len(name) > len(prefix):
        return PydanticAIPolicy(name[len(prefix) :])
    raise EvalError(f"unknown policy {name!r}; use 'scripted' or 'pydantic-ai:MODEL' (e.g. pydantic-ai:openai:gpt-4.1)")


class PydanticAIPolicy:
    """Any pydantic-ai model as the agent of a paired run.

    Each request is translated to pydantic-ai messages and tool definitions and sent with
    ``pydantic_ai.direct.model_request`` on an event loop the policy owns (one loop for its whole
    life, so a provider's pooled HTTP connections stay on one loop); the response's text and tool
    calls come back as a :class:`~tact_memory.runtime.messages.ModelResponse`. The runtime, not the model,
    runs the tools. Call :meth:`close` (or use ``with``) when done; :func:`evaluate` does.

    A request that fails in a way a provider fails for a moment (a connection error or a timeout,
    a rate limit, HTTP 408, 409, 425, 429 or 5xx, but not an exhausted quota) is sent again after 1,
    2 and 4 seconds; a fourth failure, or any other error, is raised.

    Args:
        model: A pydantic-ai model name (``openai:gpt-4.1``) or a ``pydantic_ai.models.Model``
            instance (``FunctionModel`` in tests).
        settings: Optional ``pydantic_ai.settings.ModelSettings`` (temperature, max tokens …).
    """

    attempts = 4
    """How many times one request is sent at most."""

    def __init__(self, model: str | PydanticAIModel, *, settings: Mapping[str, Any] | None = None) -> None:
        try:
            import pydantic_ai  # noqa: F401
        except ImportError as exc:
            raise EvalError(
                "the pydantic-ai policy needs pydantic-ai (Python 3.11 or later): pip install 'tact-memory[pydantic-ai]'"
            ) from exc
        self.name = f"pydantic-ai:{model}" if isinstance(model, str) else f"pydantic-ai:{type(model).__name__}"
        self._model = _infer_model(model) if isinstance(model, str) else model
        self._settings = dict(settings) if settings is not None else None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._sleep = time.sleep
        self.retries = 0
        """How many requests were sent again after a passing failure."""

    @property
    def settings(self) -> dict[str, Any]:
        """The model settings every request is sent with (recorded in the evaluation's JSON)."""
        return dict(self._settings or {})

    def model(self, brief: Brief) -> Model:
        """A model that forwards every request; ``brief`` is ignored on purpose."""
        return self._request

    def close(self) -> None:
        """Close the policy's event loop; a later request opens a new one."""
        if self._loop is not None:
            self._loop.close()
            self._loop = None

    def __enter__(self) -> PydanticAIPolicy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _request(self, request: ModelRequest) -> ModelResponse:
        from pydantic_ai.direct import model_request
        from pydantic_ai.models import ModelRequestParameters
        from pydantic_ai.tools import ToolDefinition

        tools = [
            ToolDefinition(
                name=str(tool["name"]),
                description=str(tool.get("description", "")),
                parameters_json_schema=dict(tool.get("input_schema") or {"type": "object", "properties": {}}),
            )
            for tool in request.tools
        ]
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
        messages = to_pydantic_ai(request)
        for attempt in range(self.attempts):
            try:
                response = self._loop.run_until_complete(
                    model_request(
                        self._model,
                        messages,
                        model_settings=self._settings,  # type: ignore[arg-type]
                        model_request_parameters=ModelRequestParameters(function_tools=tools),
                    )
                )
            except Exception as exc:
                if attempt + 1 == self.attempts or not _passing(exc):
                    raise
                self.retries += 1
                self._sleep(2.0**attempt)
                continue
            return _from_pydantic_ai(response)
        raise AssertionError("unreachable")  # pragma: no cover


_PASSING_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 529})
"""HTTP statuses a provider answers while it is briefly unavailable or busy."""

_REFUSED_STATUS = frozenset({400, 413, 422})
"""HTTP statuses a provider answers to a request it will not take as it is (too long, malformed)."""

_PASSING_KINDS = ("ModelConnectionError", "ModelRateLimitError", "ModelUnavailableError", "ModelServerError",
                  "ModelRequestTimeout")  # fmt: skip
"""pydantic-ai's error categories that pass: a dropped connection or a timeout (``ModelTimeoutError``
is a ``ModelConnectionError``), a rate limit, a provider unavailable, overloaded or failing, a
request past its ``request_timeout``."""

_LASTING_KINDS = ("ModelQuotaExceededError", "ModelRequestRejectedError")
"""pydantic-ai's error categories that waiting does not change, whatever their HTTP status says
(OpenAI sends an exhausted quota as a 429)."""

_ACCOUNT_KINDS = ("ModelQuotaExceededError", "ModelAuthenticationError", "ModelNotFoundError")
"""pydantic-ai's error categories about the account or the model name, not about one request."""


def _passing(exc: BaseException) -> bool:
    """Whether ``exc`` is a failure of the moment (a dropped connection, a timeout, a busy provider).

    pydantic-ai raises its own categories (``ModelConnectionError``, ``ModelRateLimitError`` …) with
    no ``status_code`` for a transport failure, so they are asked first; then the HTTP status; then
    the chain of causes, where an older pydantic-ai or a provider SDK leaves the transport's own
    error (``httpx`` or ``httpx2``, each with its own ``TransportError``).
    """
    if isinstance(exc, _kinds(_LASTING_KINDS)):
        return False
    if isinstance(exc, _kinds(_PASSING_KINDS)):
        return True
    status = getattr(exc, "status_code", None)
    if isinstance(status, int):
        return status in _PASSING_STATUS
    transport: tuple[type[BaseException], ...] = (
        ConnectionError, TimeoutError, *_loaded("httpx", "TransportError"), *_loaded("httpx2", "TransportError")
    )  # fmt: skip
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, transport):
            return True
        seen.add(id(cause))
        cause = cause.__cause__
    return False


def refused(exc: BaseException) -> bool:
    """Whether ``exc`` is a provider refusing one request for what it holds: HTTP 400, 413 or 422,
    a context window exceeded, a content filter.

    Sending that request again gives the same answer, and the request is the arm's own doing (memory
    on adds a tool, a paragraph and memory results to it), so the arm failed, as a model that never
    answers fails; the runner counts it against that arm. A passing failure, or a refusal of the
    account or the model name (credentials, quota, an unknown model), says nothing about the arm.
    """
    if _passing(exc) or isinstance(exc, _kinds(_ACCOUNT_KINDS)):
        return False
    if isinstance(exc, _kinds(("ModelRequestRejectedError", "ContentFilterError"))):
        return True
    return isinstance(exc, _kinds(("ModelHTTPError",))) and getattr(exc, "status_code", None) in _REFUSED_STATUS


def _kinds(names: tuple[str, ...]) -> tuple[type[BaseException], ...]:
    """The named classes of pydantic-ai's exceptions, those the installed version has."""
    return _loaded("pydantic_ai.exceptions", *names)


def _loaded(module: str, *names: str) -> tuple[type[BaseException], ...]:
    """Exception classes of ``module`` if it is already imported: an exception of a module nobody
    imported cannot have been raised, and looking costs no import."""
    found = sys.modules.get(module)
    classes = (getattr(found, name, None) for name in names)
    return tuple(c for c in classes if isinstance(c, type) and issubclass(c, BaseException))


def _infer_model(name: str) -> PydanticAIModel:
    """Resolve a model name now, so a missing provider package or an unknown name is one line
    before any scenario runs, not a traceback in the middle of the evaluation."""
    from pydantic_ai.exceptions import UserError
    from pydantic_ai.models import infer_model

    try:
        return infer_model(name)
    except ImportError as exc:
        missing = exc.name or "its provider package"
        raise EvalError(
            f"the model {name!r} needs {missing}, which is not installed; install the provider's "
            f"pydantic-ai extra, for example: pip install 'pydantic-ai-slim[{name.partition(':')[0]}]'"
        ) from None
    except (UserError, ValueError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise EvalError(f"pydantic-ai cannot use the model {name!r}: {first}") from None


def to_pydantic_ai(request: ModelRequest) -> list[ModelMessage]:
    """Translate a request's system prompt and messages to pydantic-ai's message list.

    User messages keep every part, control text included (a model must see the checkpoint);
    consecutive request parts and response parts are grouped the way pydantic-ai expects.
    """
    from pydantic_ai import messages as pm

    out: list[ModelMessage] = []
    request_parts: list[Any] = [pm.SystemPromptPart(content=request.system)] if request.system else []
    response_parts: list[Any] = []
    names: dict[str, str] = {}

    def flush_request() -> None:
        if request_parts:
            out.append(pm.ModelRequest(parts=list(request_parts)))
            request_parts.clear()

    def flush_response() -> None:
        if response_parts:
            out.append(pm.ModelResponse(parts=list(response_parts)))
            response_parts.clear()

    for message in request.messages:
        if message.role == "assistant":
            flush_request()
            response_parts.append(_response_part(message, names))
            continue
        flush_response()
        if message.kind == "tool_result":
            call_id = message.tool_call_id or ""
            request_parts.append(
                pm.ToolReturnPart(tool_name=names.get(call_id, "unknown"), content=message.text, tool_call_id=call_id)
            )
        else:
            request_parts.append(pm.UserPromptPart(content=message.text))
    flush_response()
    flush_request()
    return out


def _response_part(message: Message, names: dict[str, str]) -> Any:
    from pydantic_ai import messages as pm

    call = message.tool_call
    if message.kind == "tool_call" and call is not None:
        names[call.id] = call.name
        return pm.ToolCallPart(tool_name=call.name, args=call.arguments, tool_call_id=call.id)
    return pm.TextPart(content=message.text)


def _from_pydantic_ai(response: Any) -> ModelResponse:
    from pydantic_ai import messages as pm

    texts: list[str] = []
    calls: list[ToolCall] = []
    for part in response.parts:
        if isinstance(part, pm.TextPart) and part.content:
            texts.append(part.content)
        elif isinstance(part, pm.ToolCallPart):
            try:
                arguments: dict[str, Any] | str = part.args_as_dict()
            except (ValueError, json.JSONDecodeError):
                arguments = part.args if isinstance(part.args, str) else json.dumps(part.args)
            calls.append(ToolCall(part.tool_call_id, part.tool_name, arguments))
    return ModelResponse(text="\n".join(texts) or None, tool_calls=tuple(calls))
