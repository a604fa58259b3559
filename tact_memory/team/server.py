"""Run the team memory service (``tact-memory serve``), or check that it could run (``--check``).

Starting migrates the schema (refusing a newer one), opens one connection pool whose connections
carry a ``statement_timeout`` equal to the request timeout (each request's transaction lowers it
to the time the request has left, and rolls back rather than commit after the request timed out:
see :mod:`tact_memory.deadline`), starts the
:class:`~.watch.GenerationWatch` that keeps the stores' caches current, and serves the application
with uvicorn. Access-log lines go to standard error. Messages about the database never repeat the
connection string or the server's diagnostics, which can hold a password or a host.

Connections are bounded by time, not counted: uvicorn's ``limit_concurrency`` counts open
connections, so sockets that never finish a request would take every place and leave a client with
a token answered 503; the application's :class:`~.gate.Gate` bounds the requests in flight instead.
uvicorn has no deadline for receiving a request's head (its keep-alive timer stops at the first
byte), so each connection gets one (:func:`with_head_deadline`): a connection that has not sent a
whole request head within the request timeout of opening, or of its previous answer, is closed.
Bodies are read under the request timeout by the gate.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..limits import DEFAULT_LIMITS, Limits
from ..store.pg_pool import open_pool as open_connections
from ..store.pg_pool import refused_as_full
from .app import ACCESS_LOG, ServiceLimits, create_app
from .migrations import SCHEMA_VERSION, NewerSchema, WrongEncoding, check_encoding, migrate, schema_version
from .watch import GenerationWatch

__all__ = [
    "TEST_HOOKS_ENV",
    "CheckResult",
    "ServeError",
    "Withheld",
    "check",
    "connect",
    "file_clock",
    "open_pool",
    "parse_listen",
    "prepare",
    "serve",
    "parse_test_limits",
    "with_head_deadline",
]

TEST_HOOKS_ENV = "TACT_TEAM_TEST_HOOKS"
"""Set to ``1`` to let ``serve`` take its test-only options (other bounds, a clock read from a file)."""


class ServeError(Exception):
    """The service cannot start; the message is safe to print."""


@dataclass(frozen=True)
class CheckResult:
    """What ``serve --check`` found."""

    reachable: bool
    schema: int | None
    """The schema version found, when the database was reached and is usable."""
    message: str

    @property
    def ok(self) -> bool:
        return self.reachable and self.schema == SCHEMA_VERSION


def parse_listen(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:8080`` for IPv6) as a pair; ``ValueError`` otherwise."""
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError("--listen takes HOST:PORT, for example 127.0.0.1:8765")
    return host.strip("[]"), int(port)


def connect(dsn: str) -> Any:
    """An autocommit connection, or ``ServeError`` with a message that repeats nothing of the URL."""
    import psycopg

    try:
        return psycopg.connect(dsn, autocommit=True, connect_timeout=10, client_encoding="utf8")
    except psycopg.Error:
        raise ServeError("cannot reach the team database (check the URL, the server and the credentials)") from None


def check(dsn: str) -> CheckResult:
    """Reach the database and compare its schema with this release's, changing nothing."""
    try:
        conn = connect(dsn)
    except ServeError as exc:
        return CheckResult(False, None, str(exc))
    with conn:
        try:
            check_encoding(conn)
        except WrongEncoding as exc:
            return CheckResult(True, None, str(exc))
        found = schema_version(conn)
    if found == SCHEMA_VERSION:
        return CheckResult(True, found, f"database reachable; schema version {found} is current")
    if found > SCHEMA_VERSION:
        return CheckResult(True, found, str(NewerSchema(found)))
    return CheckResult(
        True, found, f"database reachable; schema version {found}, {SCHEMA_VERSION} expected ('serve' migrates it)"
    )


def prepare(dsn: str) -> int:
    """Migrate the schema to the current version; returns the version found before."""
    with connect(dsn) as conn:
        try:
            return migrate(conn)
        except (NewerSchema, WrongEncoding) as exc:
            raise ServeError(str(exc)) from None


def open_pool(dsn: str, *, size: int, timeout_s: float) -> Any:
    """A connection pool whose statements time out with the requests they serve.

    The pool outlives database restarts: a connection is checked before it is handed out (a
    connection the restart closed is dropped and replaced, never given to a request). A request
    waits for a connection at most half its own timeout, so it is answered ``unavailable`` during
    an outage rather than ``timeout``; each series of reconnection attempts ends within that wait
    and the next waiting request starts another, so the first request after the database returns
    is served however long it was down (:mod:`tact_memory.store.pg_pool`).
    """
    options = f"-c statement_timeout={int(timeout_s * 1000)}"
    return open_connections(dsn, size=size, wait_s=timeout_s / 2, options={"options": options, "connect_timeout": 10})


class Withheld(logging.Filter):
    """Replaces the pool's messages, which quote the server's diagnostics (hosts, sockets, users),
    with one that names none, and lets at most one through every ``every_s`` seconds: during an
    outage every request that waits starts a short series of connection attempts, and a line for
    each failed attempt would bury the rest of the log. The next line says how many were held back."""

    def __init__(self, every_s: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self._every_s = every_s
        self._clock = clock
        self._lock = threading.Lock()
        self._last: float | None = None
        self._held_back = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING:
            return False
        with self._lock:
            now = self._clock()
            if self._last is not None and now - self._last < self._every_s:
                self._held_back += 1
                return False
            more = "" if not self._held_back else f" ({self._held_back} more since the last such message)"
            self._last, self._held_back = now, 0
        args = record.args if isinstance(record.args, tuple) else ()
        full = any(isinstance(arg, BaseException) and refused_as_full(arg) for arg in args)
        what = "the database had no connection to spare (it serves as many as it allows)" if full else "a connection failed"
        record.msg = f"team database: {what}{more}; the next request that waits tries again (details withheld)"
        record.args = ()
        return True


def parse_test_limits(text: str) -> Limits:
    """Bounds from a JSON object of :class:`~tact_memory.limits.Limits` fields (test-only ``serve`` option).

    Raises:
        ValueError: not a JSON object of known fields with positive integer values.
    """
    import json

    from ..values import fields, replace

    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ValueError("--test-limits takes a JSON object such as {\"rows\": 3}") from None
    known = set(fields(Limits))
    if not isinstance(data, dict) or not set(data) <= known:
        raise ValueError(f"--test-limits takes a JSON object of these fields: {', '.join(sorted(known))}")
    if not all(type(v) is int and v > 0 for v in data.values()):
        raise ValueError("--test-limits values are positive integers")
    return replace(DEFAULT_LIMITS, **data)


def file_clock(path: str) -> Callable[[], int]:
    """A clock (Unix milliseconds) read from a file on every call: tests move the server's time by writing it."""

    def now() -> int:
        with open(path, encoding="ascii") as handle:
            return int(handle.read().strip())

    return now


def with_head_deadline(base: type[asyncio.Protocol], seconds: float) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol ``base``, closing a connection that is slower than ``seconds`` to send a request head.

    The deadline starts when the connection opens and again when each answer is complete; it is
    met once the whole head has arrived (uvicorn then starts the request's cycle), and a request
    being handled is left to the request timeout. A connection idle past the deadline (no request
    in hand, however many bytes of one it has trickled) is closed, as uvicorn's own shutdown
    closes an idle connection.
    """

    class HeadDeadline(base):  # type: ignore[misc, valid-type]
        _head_deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm_head_deadline()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._arm_head_deadline()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm_head_deadline()
            super().connection_lost(exc)

        def _arm_head_deadline(self) -> None:
            self._disarm_head_deadline()
            if not self.transport.is_closing():
                self._head_deadline = asyncio.get_running_loop().call_later(seconds, self._head_deadline_passed)

        def _disarm_head_deadline(self) -> None:
            if self._head_deadline is not None:
                self._head_deadline.cancel()
                self._head_deadline = None

        def _head_deadline_passed(self) -> None:
            self._head_deadline = None
            if (self.cycle is None or self.cycle.response_complete) and not self.transport.is_closing():
                self.transport.close()

    HeadDeadline.__name__ = HeadDeadline.__qualname__ = f"HeadDeadline{base.__name__}"
    return HeadDeadline


def serve(
    dsn: str,
    *,
    host: str = "127.0.0.1",
    port: int = 8765,
    service: ServiceLimits = ServiceLimits(),
    limits: Limits = DEFAULT_LIMITS,
    clock: Callable[[], int] | None = None,
) -> None:
    """Migrate, then serve until interrupted."""
    import uvicorn
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    prepare(dsn)
    if not ACCESS_LOG.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        ACCESS_LOG.addHandler(handler)
        ACCESS_LOG.setLevel(logging.INFO)
        ACCESS_LOG.propagate = False
    pool_log = logging.getLogger("psycopg.pool")
    if not pool_log.filters:
        pool_log.addFilter(Withheld())
    pool = open_pool(dsn, size=min(service.max_in_flight, 16), timeout_s=service.timeout_s)
    watch = GenerationWatch(dsn)
    watch.start()
    try:
        app = create_app(pool, limits=limits, service=service, clock=clock, watch=watch)
        # No limit_concurrency: it counts connections, which a client without a token can hold open.
        config = uvicorn.Config(
            app, host=host, port=port, access_log=False, log_level="warning", lifespan="on", timeout_keep_alive=5,
            http=with_head_deadline(AutoHTTPProtocol, service.timeout_s),
        )  # fmt: skip
        announcement = (
            f"tact-memory: team memory on http://{host}:{port}/v1 (protocol 1), MCP on http://{host}:{port}/mcp"
        )

        class Announcing(uvicorn.Server):
            """Says where it serves once it does: after the socket is bound, never before a failed bind."""

            async def startup(self, sockets: Any = None) -> None:
                await super().startup(sockets)
                if self.started:
                    print(announcement, file=sys.stderr, flush=True)

        Announcing(config).run()
    finally:
        watch.stop()
        pool.close()
