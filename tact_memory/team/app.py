"""The team memory service: versioned JSON routes over :class:`~tact_memory.store.postgres.PostgresStore`.

Routes (protocol version 1; every route needs ``Authorization: Bearer <token>``)
---------------------------------------------------------------------------------
=========================  ====================================================================
``GET  /v1/session``       who the token is: ``namespace``, ``role``, ``readable``, ``protocol``, ``limits``, ``read_ids``
``POST /v1/scan``          ``{"query", "limit"?}`` → ``{"candidates": [...]}``
``POST /v1/read``          ``{"ids": [...]}`` (at most ``read_ids``) → ``{"memories": [...]}``
``POST /v1/put``           ``{"content", "replace"?: {"id", "version"}, "probation"?}`` → ``{"memory", "replaced"}``
``POST /v1/delete``        ``{"id", "version"}`` → ``{"deleted": {"id", "version"}}``
``POST /v1/sync``          ``{"records": [{"content", "replace"?, "probation"?}, ...]}`` → one result each
``GET  /v1/list``          ``?order=`` → ``{"records": [...]}`` (hidden ones too, with ``hidden``)
``GET  /v1/records/{id}``  one record, telemetry untouched
``GET  /v1/export``        ``?cursor=&limit=`` → ``{"records", "cursor"}``: id-ordered pages
``GET  /v1/status``        usage of the caller's namespace against each bound
``/mcp``                   the memory tool over MCP (streamable HTTP; ``?tools=split``); see :mod:`.mcp_http`
=========================  ====================================================================

Keys in answers carry the author's namespace. A request may assert who it expects to be with an
``X-Tact-Namespace`` header; a mismatch is refused as ``namespace_mismatch``. Export pages are keyed
on ids (which only grow), so a page boundary never skips or repeats a record however the corpus
changes between pages; the cursor is opaque to clients.

Errors are ``{"error": {"code", "message", ...}}`` with the same codes and details as local memory
plus ``token_missing``, ``token_invalid``, ``token_expired``, ``token_revoked``,
``namespace_mismatch``, ``busy`` (too many requests in flight), ``timeout``, ``body_too_large`` and
``internal``; ``busy``, ``timeout`` and ``body_too_large`` hold for ``/mcp`` too (one
:class:`~.gate.Gate`). They never carry content, tokens or database diagnostics. Each request writes one
access-log line (``tact_memory.team.access``): method, path, status, code, milliseconds, namespace.

Why this module is longer than ~300 lines: the route table, the authentication middleware and the
request limits are one service definition; storage, tokens and MCP over HTTP are their own modules.
"""

from __future__ import annotations

import base64
import contextlib
import json
import logging
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .. import deadline, errors
from ..limits import DEFAULT_LIMITS, Limits
from ..records import Candidate, MemoryRecord, RecordKey
from ..store.pg_pool import held, no_connection
from ..store.policy import MAX_INTEGER
from ..store.postgres import PostgresStore
from ..store.remote import PROTOCOL_READ_IDS, PROTOCOL_VERSION
from ..tool.wire import RepeatedName, loads_once
from ..values import as_dict
from .gate import Gate
from .gate import Refused as _Refused
from .mcp_http import MCP_PATH, McpEndpoint
from .tokens import Credential, TokenRefused, authenticate
from .watch import GenerationWatch

__all__ = ["PROTOCOL_READ_IDS", "PROTOCOL_VERSION", "ServiceLimits", "create_app"]

ACCESS_LOG = logging.getLogger("tact_memory.team.access")

_STATUS = {
    "invalid_arguments": 400,
    "token_missing": 401,
    "token_invalid": 401,
    "token_expired": 401,
    "token_revoked": 401,
    "forbidden": 403,
    "namespace_mismatch": 403,
    "not_found": 404,
    "version_conflict": 409,
    "duplicate": 409,
    "body_too_large": 413,
    "content_too_large": 422,
    "secret_rejected": 422,
    "record_capacity": 507,
    "content_capacity": 507,
    "database_capacity": 507,
    "busy": 503,
    "unavailable": 503,
    "timeout": 504,
}


@dataclass(frozen=True)
class ServiceLimits:
    """The service's own bounds, beside the per-namespace memory :class:`~tact_memory.limits.Limits`."""

    max_in_flight: int = 32
    """Requests handled at once; more are refused at once as ``busy`` (HTTP 503)."""
    timeout_s: float = 10.0
    """Longest a request may take before it is answered ``timeout`` (HTTP 504)."""
    body_bytes: int = 256 * 1024
    """Largest request body; larger ones are refused as ``body_too_large`` (HTTP 413)."""
    sync_records: int = 64
    """Most records one ``sync`` call may push."""
    mcp_sessions: int = 1024
    """MCP sessions open at once; a request that would open another is refused ``busy`` (HTTP 503)."""
    mcp_sessions_per_token: int = 8
    """MCP sessions one token holds open; opening another ends that token's least recently used one."""
    mcp_session_idle_s: float = 600.0
    """An MCP session without a request for this long ends (its client opens a new one)."""


def _error(code: str, message: str, details: dict[str, Any] | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message, **(details or {})}}, status_code=_STATUS.get(code, 500))


def _key(key: RecordKey) -> dict[str, Any]:
    return {"id": key.id, "version": key.version, "namespace": key.namespace}


def _memory(record: MemoryRecord, hidden: str | None = None, *, with_hidden: bool = False) -> dict[str, Any]:
    data: dict[str, Any] = as_dict(record)
    data["key"] = _key(record.key)
    if with_hidden:
        data["hidden"] = hidden
    return data


def _candidate(card: Candidate) -> dict[str, Any]:
    return {"key": _key(card.key), "score": card.score, "preview": card.preview}


def _object(body: Any, allowed: set[str], required: set[str] = frozenset()) -> dict[str, Any]:  # type: ignore[assignment]
    if not isinstance(body, dict):
        raise errors.InvalidArguments("the request body must be a JSON object")
    unknown = sorted(set(body) - allowed)
    if unknown:
        raise errors.InvalidArguments(f"the body has {len(unknown)} unknown field(s); it may hold {', '.join(sorted(allowed))}")
    missing = sorted(required - set(body))
    if missing:
        raise errors.InvalidArguments(f"missing field(s): {', '.join(missing)}")
    return body


def _int(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise errors.InvalidArguments(f"{name} must be an integer")
    return value


def _record_key(value: Any, name: str) -> RecordKey:
    body = _object(value, {"id", "version", "namespace"}, {"id", "version"})
    namespace = body.get("namespace")
    if namespace is not None and not isinstance(namespace, str):
        raise errors.InvalidArguments(f"{name}.namespace must be a string")
    return RecordKey(_int(body["id"], f"{name}.id"), _int(body["version"], f"{name}.version"), namespace)


def _cursor(after: int) -> str:
    return base64.urlsafe_b64encode(json.dumps({"after": after}).encode()).decode().rstrip("=")


def _after(cursor: str | None) -> int:
    if not cursor:
        return 0
    try:
        after = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))["after"]
    except (ValueError, TypeError, KeyError, RecursionError):
        raise errors.InvalidArguments("the export cursor is not one this service issued") from None
    if isinstance(after, bool) or not isinstance(after, int) or after < 0:
        raise errors.InvalidArguments("the export cursor is not one this service issued")
    return after


class _Service:
    """State shared by every request: the pool, one store per credential shape, the in-flight count."""

    def __init__(
        self, pool: Any, limits: Limits, service: ServiceLimits, clock: Callable[[], int], watch: GenerationWatch | None
    ) -> None:
        self.pool = pool
        self.watch = watch
        self.limits = limits
        self.service = service
        self.clock = clock
        self.gate = Gate(max_in_flight=service.max_in_flight, timeout_s=service.timeout_s, body_bytes=service.body_bytes)
        self._stores: dict[tuple[str, str, frozenset[str] | None], PostgresStore] = {}
        self._lock = threading.Lock()

    def store(self, who: Credential) -> PostgresStore:
        """The store of this credential's shape; kept, so its BM25 index is reused across requests."""
        shape = (who.namespace, who.role, who.readable)
        with self._lock:
            store = self._stores.get(shape)
            if store is None:
                if len(self._stores) >= 256:
                    self._stores.pop(next(iter(self._stores)))
                store = PostgresStore(
                    self.pool, namespace=who.namespace, role=who.role, readable_namespaces=who.readable,
                    limits=self.limits, clock=self.clock,
                    known_generations=None if self.watch is None else self.watch.generations,
                )  # fmt: skip
                self._stores[shape] = store
            return store

    def authenticate(self, authorization: str | None) -> Credential:
        import psycopg
        from psycopg_pool import PoolTimeout

        try:
            with held(self.pool) as conn:
                return authenticate(conn, authorization, now_ms=self.clock())
        except PoolTimeout as exc:  # before psycopg.Error, which it is
            raise no_connection(self.pool, deadline.current(), "the credential was not checked") from exc
        except psycopg.errors.QueryCanceled:
            raise self.gate.expired() from None
        except psycopg.Error as exc:
            raise errors.StoreUnavailable(
                "team memory database: the credential could not be checked", path="team", reason="unreachable"
            ) from exc


Operation = Callable[[PostgresStore, Credential, Any, Request], Any]


def _read_ids(limits: Limits, body_bytes: int) -> int:
    """The most ids one read request may name: as many as a namespace holds rows (a writer reads all
    of its own at once) while that many ids of any size fit in the request body, and never fewer
    than :data:`PROTOCOL_READ_IDS`, which every client may send."""
    longest = len(f"{MAX_INTEGER}, ")  # an id and the separator json.dumps writes after it
    return max(PROTOCOL_READ_IDS, min(limits.rows, (body_bytes - len('{"ids": []}')) // longest))


def _session(store: PostgresStore, who: Credential, body: Any, request: Request) -> Any:
    readable = None if who.readable is None else sorted(who.readable | {who.namespace})
    return {
        "namespace": who.namespace, "role": who.role, "readable": readable, "protocol": PROTOCOL_VERSION,
        "limits": as_dict(store.limits), "read_ids": request.app.state.read_ids,
    }  # fmt: skip


def _scan(store: PostgresStore, who: Credential, body: Any, request: Request) -> Any:
    call = _object(body, {"query", "limit"}, {"query"})
    cards = store.scan(call["query"], limit=call.get("limit", store.limits.scan_results))
    return {"candidates": [_candidate(c) for c in cards]}


def _read(store: PostgresStore, who: Credential, body: Any, request: Request) -> Any:
    call = _object(body, {"ids"}, {"ids"})
    most = int(request.app.state.read_ids)
    if not isinstance(call["ids"], list) or len(call["ids"]) > most:
        raise errors.InvalidArguments(f"ids must be a list of at most {most} positive integers")
    return {"memories": [_memory(r) for r in store.read(call["ids"])]}


def _put_one(store: PostgresStore, call: Any) -> dict[str, Any]:
    call = _object(call, {"content", "replace", "probation"}, {"content"})
    replace = None if call.get("replace") is None else _record_key(call["replace"], "replace")
    probation = call.get("probation", True)
    if not isinstance(probation, bool):
        raise errors.InvalidArguments("probation must be true or false")
    result = store.put(call["content"], replace=replace, probation=probation)
    return {"memory": _memory(result.memory), "replaced": result.replaced}


def _put(store: PostgresStore, who: Credential, body: Any, request: Request) -> Any:
    return _put_one(store, body)


def _sync(store: PostgresStore, who: Credential, body: Any, request: Request) -> Any:
    call = _object(body, {"records"}, {"records"})
    records = call["records"]
    most = int(request.app.state.sync_records)
    if not isinstance(records, list) or len(records) > most:
        raise errors.InvalidArguments(f"records must be a list of at most {most} items")
    if store.role != "writer":
        raise errors.Forbidden(f"a {store.role} credential may scan and read, not change memory")
    results: list[dict[str, Any]] = []
    for at, item in enumerate(records):
        try:
            results.append(_put_one(store, item))
        except errors.StoreUnavailable as exc:
            if not any("memory" in result for result in results):
                raise  # nothing was stored: the request as a whole failed
            # Records before this one are stored and must be reported so: this one and the rest
            # get the error, each with nothing stored.
            results.append({"error": {"code": exc.code, "message": exc.message, **exc.details()}})
            rest = {
                "code": exc.code,
                "message": f"not attempted after an earlier record met {exc.code} ({exc.reason}); nothing was stored",
                **exc.details(),
            }
            results.extend({"error": dict(rest)} for _ in records[at + 1 :])
            break
        except errors.MemoryOperationError as exc:
            results.append({"error": {"code": exc.code, "message": exc.message, **exc.details()}})
    return {"results": results}


def _delete(store: PostgresStore, who: Credential, body: Any, request: Request) -> Any:
    key = _record_key(body, "key")
    store.delete(key)
    return {"deleted": {"id": key.id, "version": key.version, "namespace": who.namespace}}


def _list(store: PostgresStore, who: Credential, body: Any, request: Request) -> Any:
    order = request.query_params.get("order", "most_useful")
    records = store.list_records(order=order)  # type: ignore[arg-type]
    return {"records": [_memory(r, store.hidden_reason(r), with_hidden=True) for r in records]}


def _get(store: PostgresStore, who: Credential, body: Any, request: Request) -> Any:
    text = request.path_params["id"]
    # a whole number from 1 in ASCII digits, no longer than the largest id: int() alone would also
    # read "1_0", "٣" or a number of thousands of digits (which it refuses only past 4,300)
    if not (text.isascii() and text.isdigit() and len(text) <= len(str(MAX_INTEGER)) and 1 <= int(text) <= MAX_INTEGER):
        raise errors.InvalidArguments(f"the id in the path must be a whole number from 1 to {MAX_INTEGER}")
    id_ = int(text)
    record = store.get(id_)
    if record is None:
        raise errors.NotFound(f"no memory has id {id_}", id=id_)
    return {"memory": _memory(record, store.hidden_reason(record), with_hidden=True)}


def _export(store: PostgresStore, who: Credential, body: Any, request: Request) -> Any:
    after = _after(request.query_params.get("cursor"))
    try:
        limit = int(request.query_params.get("limit", "100"))
    except ValueError:
        raise errors.InvalidArguments("limit must be an integer from 1 to 500") from None
    if not 1 <= limit <= 500:
        raise errors.InvalidArguments("limit must be an integer from 1 to 500")
    records = store.page(order="id", after=after, limit=limit + 1)
    more = len(records) > limit
    records = records[:limit]
    return {
        "records": [_memory(r, store.hidden_reason(r), with_hidden=True) for r in records],
        "cursor": _cursor(records[-1].key.id) if more else None,
    }


def _status(store: PostgresStore, who: Credential, body: Any, request: Request) -> Any:
    status = store.status()
    if status.problem is not None:
        raise errors.StoreUnavailable(status.detail or "unavailable", path="team", reason=status.problem)
    return {
        "namespace": who.namespace,
        "rows": status.rows,
        "content_bytes": status.content_bytes,
        "on_probation": status.on_probation,
        "expired_probation": status.expired_probation,
        "hidden": status.hidden,
        "limits": {"rows": status.limits.rows, "content_bytes": status.limits.content_bytes,
                   "record_bytes": status.limits.record_bytes},
    }  # fmt: skip


async def _body(request: Request, gate: Gate) -> Any:
    if request.method == "GET":
        return None
    raw = await gate.body(request.receive, request.headers.get("content-length"))
    try:
        return loads_once(raw or b"null")
    except RepeatedName as exc:
        raise errors.InvalidArguments(
            f"the request body names {exc.named()} twice, and readers differ on which value counts; send each field once"
        ) from None
    except (ValueError, UnicodeDecodeError):
        raise errors.InvalidArguments("the request body is not valid JSON") from None
    except RecursionError:  # nested deeper than any request of the protocol
        raise errors.InvalidArguments("the request body is nested too deeply") from None


def _access(fields: dict[str, Any]) -> None:
    """One access-log line: what was asked, by whom, and the answer's code; never content or a token."""
    ACCESS_LOG.info(json.dumps(fields, separators=(",", ":")))


def _endpoint(service: _Service, operation: Operation) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        started = time.perf_counter()
        who: Credential | None = None
        code = "ok"
        try:
            with service.gate.slot():
                limit = service.gate.deadline()

                async def handle() -> Any:
                    # The token is checked before the body is read, and the body is read inside the
                    # request timeout: a caller without a credential, or one that sends half a body
                    # and goes quiet, holds a slot no longer than the timeout and reaches no parser.
                    nonlocal who
                    who = await run_in_threadpool(service.authenticate, request.headers.get("authorization"))
                    asserted = request.headers.get("x-tact-namespace")
                    if asserted is not None and asserted != who.namespace:
                        raise _Refused("namespace_mismatch", "the namespace this request asserts is not the token's")
                    body = await _body(request, service.gate)
                    assert who is not None
                    credential = who

                    def work() -> Any:
                        try:
                            with deadline.under(limit):  # nothing commits once the request has timed out
                                return operation(service.store(credential), credential, body, request)
                        except errors.StoreUnavailable as exc:
                            if exc.reason == "timeout":
                                # The database cancels a statement at the request timeout too; whichever
                                # clock ran out first, the answer is the same ``timeout``. Its message
                                # names the database's own limit when a shorter one (an operator's, on
                                # the role or database) cancelled the statement with time left.
                                if limit.remaining() > 0:
                                    raise _Refused("timeout", exc.message) from None
                                raise service.gate.expired() from None
                            raise

                    return await run_in_threadpool(work)

                result = await service.gate.timed(handle(), limit)
            response: Response = JSONResponse(result)
        except _Refused as exc:
            code = exc.code
            response = _error(exc.code, exc.message, exc.details)
        except TokenRefused as exc:
            code = exc.code
            response = _error(exc.code, exc.message)
        except errors.TactMemoryError as exc:
            code = exc.code
            response = _error(exc.code, exc.message, exc.details())
        except Exception as exc:  # never a traceback, a value or a diagnostic to the client
            code = "internal"
            ACCESS_LOG.error("internal error (%s) on %s", type(exc).__name__, request.url.path)
            response = _error("internal", "the service failed to handle this request; whether it took effect is not known (a scan or read shows it)")
        _access(
            {
                "method": request.method,
                "path": request.url.path,
                "status": response.status_code,
                "code": code,
                "ms": round((time.perf_counter() - started) * 1000, 1),
                "namespace": None if who is None else who.namespace,
                "role": None if who is None else who.role,
            }
        )
        return response

    return endpoint


async def _unrouted(request: Request, exc: Exception) -> Response:
    """A path the service has no route for, or a method a route does not take: the named error
    every other answer has, and its access-log line (Starlette's own answer is plain text)."""
    status = getattr(exc, "status_code", 404)
    if status == 405:
        code, message = "method_not_allowed", f"{request.url.path} does not take {request.method}"
    else:
        code, message = "not_found", f"the service has no {request.url.path}; its routes are under /v1 and {MCP_PATH}"
    response = _error(code, message)
    response.status_code = status
    allowed = getattr(exc, "headers", None) or {}
    if "allow" in {name.lower() for name in allowed}:
        response.headers.update(allowed)
    _access({"method": request.method, "path": request.url.path, "status": status, "code": code, "ms": 0.0,
             "namespace": None, "role": None})  # fmt: skip
    return response


def create_app(
    pool: Any,
    *,
    limits: Limits = DEFAULT_LIMITS,
    service: ServiceLimits = ServiceLimits(),
    clock: Callable[[], int] | None = None,
    watch: GenerationWatch | None = None,
) -> Starlette:
    """The ASGI application over a ``psycopg_pool.ConnectionPool`` on a migrated database.

    With ``watch`` (started and stopped by the caller), the stores learn of other processes'
    changes from its notifications instead of reading the generations in every request.
    """
    state = _Service(pool, limits, service, clock or (lambda: time.time_ns() // 1_000_000), watch)
    get, post = ["GET"], ["POST"]
    routes = [
        Route("/v1/session", _endpoint(state, _session), methods=get),
        Route("/v1/scan", _endpoint(state, _scan), methods=post),
        Route("/v1/read", _endpoint(state, _read), methods=post),
        Route("/v1/put", _endpoint(state, _put), methods=post),
        Route("/v1/delete", _endpoint(state, _delete), methods=post),
        Route("/v1/sync", _endpoint(state, _sync), methods=post),
        Route("/v1/list", _endpoint(state, _list), methods=get),
        Route("/v1/records/{id}", _endpoint(state, _get), methods=get),
        Route("/v1/export", _endpoint(state, _export), methods=get),
        Route("/v1/status", _endpoint(state, _status), methods=get),
    ]
    mcp = McpEndpoint(
        authenticate=state.authenticate, store=state.store, limits=limits, log=_access, gate=state.gate,
        sessions=service.mcp_sessions, sessions_per_token=service.mcp_sessions_per_token,
        session_idle_s=service.mcp_session_idle_s,
    )  # fmt: skip
    routes.append(Route(MCP_PATH, mcp, methods=["GET", "POST", "DELETE"]))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with mcp.run():
            yield

    app = Starlette(
        routes=routes, lifespan=lifespan, exception_handlers={404: _unrouted, 405: _unrouted}
    )  # fmt: skip
    app.state.sync_records = service.sync_records
    app.state.read_ids = _read_ids(limits, service.body_bytes)
    return app
