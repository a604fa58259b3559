"""The backend contract: every store invariant, run against every backend.

Each backend is a :class:`Harness`: how to make a store with given limits on a fake clock, and how
to plant a row, or rewrite one in place, behind the store's back (as an older release, or another
program, could have left it). A new backend joins the suite by adding one harness factory to ``BACKENDS``; the tests
themselves name no backend. Backend-specific behaviour (files, modes, journals, SQL) is tested
beside the backend, not here.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tact_memory.backend import MemoryBackend
from tact_memory.limits import DEFAULT_LIMITS, Limits
from tact_memory.records import MemoryRecord
from tact_memory.store.sqlite import MemoryStore
from tact_memory.values import as_dict

from ..conftest import FakeClock
from ..pgcluster import pg_database, pg_server  # noqa: F401  (fixtures)


@dataclass
class Harness:
    """One backend under test."""

    name: str
    clock: FakeClock
    _make: Callable[[Limits], MemoryBackend]
    _plant: Callable[[MemoryBackend, str], int]
    _rewrite: Callable[[int, str], None]
    _ranker: Callable[[MemoryBackend], Any] | None = None
    """The object whose ``search`` ranks a scan of a store, where a test can reach it (in process)."""
    made: list[MemoryBackend] = field(default_factory=list)

    def make(self, limits: Limits = DEFAULT_LIMITS) -> MemoryBackend:
        """A store on the shared corpus with these limits; every store of one test sees one corpus."""
        backend = self._make(limits)
        self.made.append(backend)
        return backend

    def plant(self, backend: MemoryBackend, content: str) -> int:
        """Write a row without any check (no screening, no bounds); returns its id."""
        return self._plant(backend, content)

    def rewrite(self, id_: int, content: str) -> None:
        """Change a row's content in place, keeping its version, and tell no store (no new
        generation): a store learns of it only from what it fetches."""
        self._rewrite(id_, content)

    @contextmanager
    def after_ranking(self, backend: MemoryBackend, action: Callable[[], object]) -> Iterator[None]:
        """Inside the ``with``, ``backend``'s next scan runs ``action`` once it has ranked and
        before it records its telemetry; skips the test where the ranking runs in another process."""
        if self._ranker is None:
            pytest.skip(f"the {self.name} backend ranks in another process, out of a test's reach")
        ranker = self._ranker(backend)
        ranked = ranker.search
        done: list[bool] = []

        def search(query: str, *, limit: int) -> Any:
            hits = ranked(query, limit=limit)
            if not done:
                done.append(True)
                action()
            return hits

        ranker.search = search
        try:
            yield
        finally:
            del ranker.search
        assert done, "the scan ranked nothing"


def _sqlite(tmp_path: Path, clock: FakeClock) -> Harness:
    path = tmp_path / "memory" / "v1.sqlite3"

    def make(limits: Limits) -> MemoryBackend:
        return MemoryStore(path, limits=limits, clock=clock)

    def plant(backend: MemoryBackend, content: str) -> int:
        backend.scan("anything")  # the first operation creates the corpus
        with sqlite3.connect(path) as conn:
            cur = conn.execute(
                "INSERT INTO memories (version, content, created_at_ms, updated_at_ms) VALUES (1, ?, ?, ?)",
                (content, clock.now, clock.now),
            )
            conn.execute("UPDATE meta SET value = value + 1 WHERE key = 'generation'")
        conn.close()
        return int(cur.lastrowid or 0)

    def rewrite(id_: int, content: str) -> None:
        with sqlite3.connect(path) as conn:
            conn.execute("UPDATE memories SET content = ? WHERE id = ?", (content, id_))
        conn.close()

    return Harness("sqlite", clock, make, plant, rewrite, lambda backend: backend._corpus)  # type: ignore[attr-defined]


class PostgresRows:
    """Rows of namespace ``alice`` written straight into the team database, past every store."""

    def __init__(self, pool: Any, clock: FakeClock) -> None:
        self.pool = pool
        self.clock = clock

    def plant(self, backend: MemoryBackend, content: str) -> int:
        """A new row, and a new generation of the namespace, as a writer that skips the checks."""
        with self.pool.connection() as conn, conn.transaction():
            row = conn.execute(
                "INSERT INTO memories (namespace, version, content, created_at_ms, updated_at_ms)"
                " VALUES ('alice', 1, %s, %s, %s) RETURNING id",
                (content, self.clock.now, self.clock.now),
            ).fetchone()
            conn.execute(
                "INSERT INTO generations (namespace) VALUES ('alice')"
                " ON CONFLICT (namespace) DO UPDATE SET generation = nextval('generation_numbers')"
            )
        return int(row[0])

    def rewrite(self, id_: int, content: str) -> None:
        with self.pool.connection() as conn:
            conn.execute("UPDATE memories SET content = %s WHERE id = %s", (content, id_))


def _postgres(request: pytest.FixtureRequest, clock: FakeClock) -> Harness:
    """The team store on a real PostgreSQL server: one database per module, emptied for each test."""
    from tact_memory.store.postgres import PostgresStore

    pool = request.getfixturevalue("pg_pool")
    with pool.connection() as conn:
        conn.execute("TRUNCATE memories, generations, tokens RESTART IDENTITY")

    def make(limits: Limits) -> MemoryBackend:
        return PostgresStore(pool, namespace="alice", role="writer", limits=limits, clock=clock)

    rows = PostgresRows(pool, clock)
    return Harness("postgres", clock, make, rows.plant, rows.rewrite, lambda backend: backend._index)  # type: ignore[attr-defined]


class FileClock(FakeClock):
    """A fake clock that also writes its time to a file, which ``serve --test-clock-file`` reads."""

    def __init__(self, path: Path, start: int) -> None:
        self.path = path
        super().__init__(start)

    @property  # type: ignore[override]
    def now(self) -> int:
        return self._now

    @now.setter
    def now(self, value: int) -> None:
        self._now = value
        partial = self.path.with_suffix(".partial")
        partial.write_text(str(value), encoding="ascii")
        os.replace(partial, self.path)  # the server never reads half a number


class ServeProcesses:
    """``serve`` processes on one module's database: one per distinct :class:`Limits`, started on demand.

    The service owns its bounds and its time, so each set of bounds gets a process started with
    the test-only ``--test-limits``, and every process reads the time from one clock file.
    """

    def __init__(self, dsn: str, folder: Path) -> None:
        self.dsn = dsn
        self.folder = folder
        self.clock_file = folder / "clock"
        self.running: dict[Limits, Any] = {}

    def url(self, limits: Limits) -> str:
        from ..team.conftest import start_service

        if limits not in self.running:
            self.running[limits] = start_service(
                self.dsn, self.folder, "--test-limits", json.dumps(as_dict(limits)),
                "--test-clock-file", str(self.clock_file), env={"TACT_TEAM_TEST_HOOKS": "1"},
            )  # fmt: skip
        return str(self.running[limits].url)

    def stop(self) -> None:
        from ..team.conftest import stop_service

        for service in self.running.values():
            stop_service(service)


@pytest.fixture(scope="module")
def serve_processes(pg_database: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcesses]:  # noqa: F811
    """The module's ``serve`` processes, stopped when the module ends."""
    processes = ServeProcesses(pg_database, tmp_path_factory.mktemp("serve"))
    yield processes
    processes.stop()


def _http(request: pytest.FixtureRequest, clock: FakeClock) -> Harness:
    """The HTTP client against real ``serve`` processes on a real PostgreSQL server, as a writer of ``alice``."""
    pytest.importorskip("httpx", reason="httpx is not installed")
    from tact_memory.store.remote import RemoteStore
    from tact_memory.team.tokens import create_token

    pool = request.getfixturevalue("pg_pool")
    processes: ServeProcesses = request.getfixturevalue("serve_processes")
    timed = FileClock(processes.clock_file, clock.now)
    with pool.connection() as conn:
        conn.execute("TRUNCATE memories, generations")
        token, _ = create_token(conn, namespace="alice", role="writer", now_ms=0)

    def make(limits: Limits) -> MemoryBackend:
        return RemoteStore(processes.url(limits), token, namespace="alice")

    rows = PostgresRows(pool, timed)
    return Harness("http", timed, make, rows.plant, rows.rewrite)


BACKENDS: dict[str, Callable[[pytest.FixtureRequest, FakeClock], Harness]] = {
    "sqlite": lambda request, clock: _sqlite(request.getfixturevalue("tmp_path"), clock),
    "postgres": _postgres,
    "http": _http,
}
"""Every backend the contract runs against."""


@pytest.fixture(scope="module")
def pg_pool(pg_database: str) -> Iterator[Any]:
    """A connection pool on this module's PostgreSQL database."""
    from psycopg_pool import ConnectionPool

    with ConnectionPool(pg_database, min_size=1, max_size=4, open=True, kwargs={"autocommit": True}) as pool:
        yield pool


@pytest.fixture(params=sorted(BACKENDS))
def harness(request: pytest.FixtureRequest) -> Iterator[Harness]:
    made = BACKENDS[request.param](request, FakeClock())
    yield made
    for backend in made.made:
        backend.close()


@pytest.fixture
def backend(harness: Harness) -> MemoryBackend:
    """A store with the default limits."""
    return harness.make()


def everything(backend: MemoryBackend) -> tuple[list[MemoryRecord], tuple[int, int]]:
    """What a refused operation must leave unchanged: every record with its telemetry, and usage."""
    status = backend.status()
    return list(backend.export()), (status.rows, status.content_bytes)
