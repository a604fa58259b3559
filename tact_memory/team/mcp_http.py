"""The memory tool as an MCP endpoint over streamable HTTP, at ``/mcp`` of the team service.

A coding agent joins team memory with the service's URL and a bearer token: Claude Code, Codex and
Cursor speak MCP over streamable HTTP and send a fixed ``Authorization`` header. Every HTTP request
to the endpoint is authenticated like a ``/v1`` route (a missing, unknown, expired or revoked token
is answered 401 with the same error codes, before any MCP handling), and the token decides the
caller:

- the role: a writer token's caller is the root agent (scan, read, put, delete in its own
  namespace); a reader token's caller is a child (scan and read; a put or delete is the
  ``forbidden`` tool result, from the same :class:`~tact_memory.tool.guard.Dispatcher` as local
  memory, never from the call's arguments);
- the corpus: the service's store for that credential (its namespace, and what it may read).

The SDK's :class:`~mcp.server.streamable_http_manager.StreamableHTTPSessionManager` runs the
protocol. An MCP session is bound to the token that opened it (a request for it with another
token is answered as if it did not exist), and each session has its own tool instance, so
scan-before-put holds per agent; a client of the sessionless protocol era gets one tool instance
per token. Tool results are the same JSON as ``tact-memory tool`` prints, keys with namespaces.
Each request writes one access-log line like the ``/v1`` routes, with ``"path": "/mcp"`` and no
content.

``/mcp?tools=split`` offers one tool per operation (``memory_scan``, ``memory_read``,
``memory_put``, ``memory_delete``; a reader token is offered the first two, and a call to the
others by name is the ``forbidden`` result). Each layout has its own session manager; a session
lives in the layout it was opened with.

Sessions are bounded, whichever SDK release runs them: one token holds at most
``sessions_per_token`` open sessions (a session it opens beyond them ends its least recently used
one that has no request in flight, which then answers 404, so the client opens another); the
process holds at most ``sessions`` (a request that would open one more is refused ``busy``, 503);
and a session without a request for ``session_idle_s`` seconds ends. The endpoint keeps its own
account of the sessions it saw opened (from the ``mcp-session-id`` of each answer) and ends one
with a DELETE through the session manager, as its client could.

Every request takes a slot of the service's :class:`~.gate.Gate` (in flight, body cap, timeout),
and is authenticated from its headers before its body is read, like the JSON routes. GET, which
would open an event stream the service never writes to, is answered 405.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import Message, Receive, Scope, Send

from .. import errors
from ..deadline import Deadline, under
from ..limits import Limits
from ..store.postgres import PostgresStore
from ..tool.guard import Dispatcher, Role
from ..tool.results import ToolResult
from .gate import Gate, Refused, replay
from .tokens import Credential, TokenRefused

if TYPE_CHECKING:
    from ..adapters.mcp import ToolLayout

__all__ = ["MCP_PATH", "McpEndpoint"]

MCP_PATH = "/mcp"
"""Where the service answers MCP over streamable HTTP."""

_CREDENTIAL = "tact_memory.credential"
_DEADLINE = "tact_memory.deadline"


_GATE_MARGIN_S = 0.05
"""How long past its deadline a timed-out call waits, so that the gate's clock (set for the
deadline) has answered first."""


async def _under_deadline(ctx: Any, call: Callable[[], Awaitable[ToolResult]]) -> ToolResult:
    """Run a tool call under the deadline of the HTTP request behind it (see :mod:`tact_memory.deadline`).

    The database cancels a statement at the same deadline as the gate, and either clock may run
    out first. On ``/v1`` both give the answer ``timeout`` (HTTP 504); here a call the database
    stopped would be answered in band, as a tool result, whenever its clock won. So a call that
    ends ``unavailable`` for a timeout waits until the gate's clock has run out: the gate answers
    ``timeout``, and this result is dropped with the rest of the request.
    """
    request = getattr(ctx, "request", None)
    scope = getattr(request, "scope", None) or {}
    found = scope.get(_DEADLINE)
    limit = found if isinstance(found, Deadline) else None
    with under(limit):
        result = await call()
    error = result.get("error")
    if limit is not None and isinstance(error, dict) and error.get("reason") == "timeout":
        await asyncio.sleep(limit.remaining() + _GATE_MARGIN_S)
    return result
_READER_NOTE = " This token is a reader token; changing team memory needs a writer token."
_MOST_AGENTS = 4096
TOOL_LAYOUTS: tuple[ToolLayout, ...] = ("one", "split")
"""The layouts ``/mcp?tools=`` may ask for: the one ``memory`` tool, or one tool per operation."""


@dataclass
class _Session:
    """One open MCP session, as the endpoint accounts for it."""

    token_id: int
    layout: ToolLayout
    user: Any
    """The identity the session manager bound the session to (an ``AuthenticatedUser``)."""
    used: float
    """When its last request ended (``time.monotonic``)."""
    in_flight: int = 0


class _Sessions:
    """The MCP sessions open in this process, least recently used first.

    Everything runs on the event loop, so nothing here needs a lock.
    """

    def __init__(self, *, most: int, per_token: int, idle_s: float) -> None:
        self.most = most
        self.per_token = per_token
        self.idle_s = idle_s
        self.open: OrderedDict[str, _Session] = OrderedDict()
        self.opening = 0
        """Requests without a session id being handled now: each may open one."""

    def _expire(self) -> None:
        """Forget the sessions the session manager has ended for being idle."""
        now = time.monotonic()
        for sid, session in list(self.open.items()):
            if now - session.used <= self.idle_s:
                break  # the rest were used more recently
            if session.in_flight == 0:
                del self.open[sid]

    def admit(self) -> bool:
        """Count a request that may open a session, or ``False`` when the process holds its most."""
        self._expire()
        if len(self.open) + self.opening >= self.most:
            return False
        self.opening += 1
        return True

    def request_began(self, sid: str) -> None:
        if sid in self.open:
            self.open[sid].in_flight += 1

    def request_ended(self, sid: str, *, live: bool, token_id: int, layout: ToolLayout, user: Any) -> None:
        """A request of ``sid`` ended: the session is live (and now the most recently used) or gone."""
        session = self.open.pop(sid, None)
        if not live:
            return
        if session is None:
            session = _Session(token_id, layout, user, 0.0)
        else:
            session.in_flight = max(0, session.in_flight - 1)
        session.used = time.monotonic()
        self.open[sid] = session

    def surplus(self, token_id: int) -> list[str]:
        """The sessions of ``token_id`` over its quota, least recently used first, none in flight."""
        mine = [sid for sid, session in self.open.items() if session.token_id == token_id]
        idle = [sid for sid in mine if self.open[sid].in_flight == 0]
        return idle[: max(0, len(mine) - self.per_token)]


class McpEndpoint:
    """The ASGI application of ``/mcp``: authenticate, then hand the request to the MCP session manager.

    Args:
        authenticate: The credential of an ``Authorization`` header (blocking; raises
            :class:`~tact_memory.team.tokens.TokenRefused` or ``StoreUnavailable``).
        store: The service's store of a credential.
        limits: The per-namespace bounds the tool's schemas publish.
        log: Writes one access-log line from its fields.
        gate: The service's request bounds.
        sessions: Most MCP sessions open at once in this process.
        sessions_per_token: Most MCP sessions one token holds open.
        session_idle_s: Seconds without a request after which a session ends.
    """

    def __init__(
        self,
        *,
        authenticate: Callable[[str | None], Credential],
        store: Callable[[Credential], PostgresStore],
        limits: Limits,
        log: Callable[[dict[str, Any]], None],
        gate: Gate,
        sessions: int = 1024,
        sessions_per_token: int = 8,
        session_idle_s: float = 600.0,
    ) -> None:
        from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

        from ..adapters.mcp import create_routed_server

        self._authenticate = authenticate
        self._store = store
        self._log = log
        self._gate = gate
        self._agents: OrderedDict[tuple[int, str | None], Dispatcher] = OrderedDict()
        self._lock = threading.Lock()
        self.sessions = _Sessions(most=sessions, per_token=sessions_per_token, idle_s=session_idle_s)
        bounds: dict[str, Any] = {"session_idle_timeout": session_idle_s}
        if "max_sessions" in inspect.signature(StreamableHTTPSessionManager).parameters:
            bounds["max_sessions"] = sessions  # a second bound, in the SDK releases that have one
        self.managers = {
            layout: StreamableHTTPSessionManager(
                create_routed_server(self._agent, limits=limits, tools=layout, around_call=_under_deadline),
                json_response=True, **bounds,
            )
            for layout in TOOL_LAYOUTS
        }  # fmt: skip
        self._running = False

    @contextlib.asynccontextmanager
    async def run(self) -> AsyncIterator[None]:
        """Run the session managers for the life of the application (its lifespan)."""
        async with contextlib.AsyncExitStack() as stack:
            for manager in self.managers.values():
                await stack.enter_async_context(manager.run())
            self._running = True
            try:
                yield
            finally:
                self._running = False

    def _agent(self, ctx: Any) -> Dispatcher:
        """The tool instance of the caller behind an MCP request: one per token and MCP session."""
        request = ctx.request
        who: Credential = request.scope[_CREDENTIAL]
        shape = (who.token_id, request.headers.get("mcp-session-id"))
        with self._lock:
            agent = self._agents.get(shape)
            if agent is None:
                if len(self._agents) >= _MOST_AGENTS:
                    self._agents.popitem(last=False)
                writer = who.role == "writer"
                agent = Dispatcher(
                    self._store(who),
                    role=Role.ROOT if writer else Role.CHILD,
                    refusal_note="" if writer else _READER_NOTE,
                )
                self._agents[shape] = agent
            else:
                self._agents.move_to_end(shape)
            return agent

    def _forget(self, token_id: int, sid: str) -> None:
        with self._lock:
            self._agents.pop((token_id, sid), None)

    async def _evict(self, sid: str, scope: Scope) -> None:
        """End session ``sid`` as its client would: a DELETE through its session manager, as its owner."""
        session = self.sessions.open.pop(sid, None)
        if session is None:
            return
        self._forget(session.token_id, sid)
        host = [(name, value) for name, value in scope.get("headers", []) if name == b"host"]
        request = {
            **{k: v for k, v in scope.items() if k not in (_CREDENTIAL, _DEADLINE)},
            "method": "DELETE", "query_string": b"", "user": session.user,
            "headers": [*host, (b"mcp-session-id", sid.encode("ascii"))],
        }  # fmt: skip

        async def nothing() -> Message:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def discard(message: Message) -> None:
            pass

        await self.managers[session.layout].handle_request(request, nothing, discard)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = time.perf_counter()
        who: Credential | None = None
        status = 500
        code = "ok"
        opened: str | None = None

        async def watched(message: Message) -> None:
            nonlocal status, opened
            if message["type"] == "http.response.start":
                status = int(message["status"])
                for name, value in message.get("headers", []):
                    if name.lower() == b"mcp-session-id":
                        opened = bytes(value).decode("latin-1")
            await send(message)

        async def refuse(
            code_: str, message: str, status_: int, *, details: dict[str, Any] | None = None,
            headers: dict[str, str] | None = None,
        ) -> None:  # fmt: skip
            nonlocal code
            code = code_
            body = {"error": {"code": code_, "message": message, **(details or {})}}
            await JSONResponse(body, status_code=status_, headers=headers)(scope, receive, watched)

        async def admit() -> Credential | None:
            """The caller, from the request's headers alone; ``None`` once it has been refused."""
            try:
                found = await run_in_threadpool(self._authenticate, Headers(scope=scope).get("authorization"))
            except TokenRefused as exc:
                await refuse(exc.code, exc.message, 401, headers={"WWW-Authenticate": 'Bearer realm="tact-memory"'})
                return None
            except errors.StoreUnavailable as exc:
                await refuse(exc.code, exc.message, 503, details=exc.details())  # its reason, as /v1 gives it
                return None
            asserted = Headers(scope=scope).get("x-tact-namespace")
            if asserted is not None and asserted != found.namespace:
                # As on /v1: a client that names a namespace is refused when its token is of another.
                await refuse("namespace_mismatch", "the namespace this request asserts is not the token's", 403)
                return None
            if not self._running:
                await refuse("unavailable", "the MCP endpoint is not running in this process", 503)
                return None
            return found

        async def answer(body: bytes, layout: ToolLayout, caller: Credential) -> None:
            from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
            from mcp.server.auth.provider import AccessToken

            # The session manager binds each MCP session to this identity: the token's row, never its text.
            user = AuthenticatedUser(
                AccessToken(token=f"token-{caller.token_id}", client_id=f"token-{caller.token_id}", scopes=[caller.role])
            )
            inner = {**scope, "user": user, _CREDENTIAL: caller, _DEADLINE: limit}
            sid = Headers(scope=scope).get("mcp-session-id")
            if sid is None:
                if not self.sessions.admit():
                    raise Refused("busy", "too many MCP sessions are open; try again shortly")
                try:
                    await self.managers[layout].handle_request(inner, replay(body, receive), watched)
                finally:
                    self.sessions.opening -= 1
                if opened is not None and status < 400:  # a new session
                    self.sessions.request_ended(opened, live=True, token_id=caller.token_id, layout=layout, user=user)
                    for surplus in self.sessions.surplus(caller.token_id):
                        await self._evict(surplus, scope)
                return
            known = self.sessions.open.get(sid)
            if known is not None and known.token_id != caller.token_id:
                # Another token's session: the session manager answers 404, and the account is the owner's.
                await self.managers[layout].handle_request(inner, replay(body, receive), watched)
                return
            self.sessions.request_began(sid)
            try:
                await self.managers[layout].handle_request(inner, replay(body, receive), watched)
            finally:
                # 404: the session manager has no such session (it ended); a DELETE answered ends it.
                live = status != 404 and not (scope.get("method") == "DELETE" and status < 400)
                self.sessions.request_ended(sid, live=live, token_id=caller.token_id, layout=layout, user=user)
                if not live:
                    self._forget(caller.token_id, sid)

        try:
            try:
                if scope.get("method") == "GET":
                    # The service never starts a message of its own, so it offers no event stream to wait on
                    # (the streamable-HTTP answer for that is 405): every request here is bounded.
                    raise Refused("method_not_allowed", "this endpoint takes POST and DELETE; it sends no event stream")
                layout = _layout(scope)
                with self._gate.slot():
                    limit = self._gate.deadline()

                    async def read_and_answer() -> None:
                        # As on /v1, the token is checked before the body is read, and the body is read
                        # inside the request timeout: a caller without a credential reaches no body at
                        # all, and half a body and silence holds a slot no longer than the timeout.
                        nonlocal who
                        who = await admit()
                        if who is None:
                            return
                        body = await self._gate.body(receive, Headers(scope=scope).get("content-length"))
                        await answer(body, layout, who)

                    await self._gate.timed(read_and_answer(), limit)
            except Refused as exc:
                if status != 500 and exc.code == "timeout":
                    code = exc.code  # the answer had begun; the connection is all that can be cut
                else:
                    extra = {"Allow": "POST, DELETE"} if exc.code == "method_not_allowed" else {}
                    await refuse(exc.code, exc.message, exc.status, headers=extra)
            except errors.InvalidArguments as exc:
                await refuse(exc.code, exc.message, 400)
        finally:
            if code == "ok" and status >= 400:
                code = f"http_{status}"
            self._log(
                {
                    "method": scope.get("method"),
                    "path": MCP_PATH,
                    "status": status,
                    "code": code,
                    "ms": round((time.perf_counter() - started) * 1000, 1),
                    "namespace": None if who is None else who.namespace,
                    "role": None if who is None else who.role,
                }
            )


def _layout(scope: Scope) -> ToolLayout:
    """The tool layout a request asks for with ``?tools=one|split`` (``one`` when it does not)."""
    from urllib.parse import parse_qs

    asked = parse_qs(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True).get("tools", ["one"])
    if len(asked) != 1 or asked[0] not in TOOL_LAYOUTS:
        raise errors.InvalidArguments("the tools query parameter takes 'one' or 'split'")
    return "split" if asked[0] == "split" else "one"
