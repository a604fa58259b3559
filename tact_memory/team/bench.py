"""``tact-memory bench --team``: scan and put through the team service, beside the local store, in one run.

The run needs a PostgreSQL database it may write to (a scratch one is best). It migrates the
schema, fills ``namespaces`` namespaces of its own (named ``bench-<run>-<n>``) with ``records``
records each, in one ``COPY`` (the records are the fixture, not what is measured), starts a
``tact-memory serve`` process on a free local port, and times, with the same queries and texts:

- ``http``: the operations through the service, from one keep-alive HTTP client holding a writer
  token of the first namespace (its scans rank the records of every namespace);
- ``store``: the same operations on :class:`~tact_memory.store.postgres.PostgresStore` in this
  process (the service's work without HTTP);
- ``local``: the same operations on a local SQLite store holding one namespace's worth of records,
  in a temporary folder.

``put`` is timed as a put that is then deleted (untimed), so the namespace stays at its size; the
first namespace is filled one record short of the bound to leave room. Afterwards the run removes
its namespaces, their rows and its tokens. Figures depend on the machine, the disk and where the
database runs; nothing here is a target.
"""

from __future__ import annotations

import json
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..limits import DEFAULT_LIMITS

__all__ = ["TeamBenchReport", "main", "run_team_bench"]

_WORDS = (
    "deploy release migration schema postgres redis cache queue worker retry timeout budget lint "
    "format mypy pytest fixture snapshot docker image registry kubernetes helm terraform backend "
    "frontend router gateway billing payments orders invoices ledger search index shard replica "
    "backup restore cron feature flag rollout canary metrics tracing alert oncall runbook incident"
).split()
_REPOS = ["billing-api", "web-app", "infra", "data-pipeline", "mobile", "auth-service", "docs", "search"]


def _texts(n: int, size: int, *, seed: int, tag: str) -> list[str]:
    """``n`` distinct records of at most ``size`` ASCII bytes."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        words = [f"In the {rng.choice(_REPOS)} repository ({tag} note {i}),"]
        while len(" ".join(words)) < size:
            words.append(rng.choice(_WORDS))
        out.append(" ".join(words)[:size])
    return out


def _queries(n: int, *, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.sample(_WORDS, rng.randint(2, 4)) + [rng.choice(_REPOS)]) for _ in range(n)]


def _percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, max(0, round(0.95 * len(ordered)) - 1))]
    return {"p50_ms": round(statistics.median(ordered) * 1000, 3), "p95_ms": round(p95 * 1000, 3), "n": len(ordered)}


def _timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


@dataclass(frozen=True)
class TeamBenchReport:
    """The figures of one run: ``operations[side][operation]`` with ``p50_ms``, ``p95_ms``, ``n``."""

    namespaces: int
    records: int
    """Records in each namespace (the first holds one fewer, to leave room for the timed puts)."""
    operations: dict[str, dict[str, dict[str, float]]]

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` document."""
        return {"namespaces": self.namespaces, "records_per_namespace": self.records, "operations": self.operations}

    def render(self) -> str:
        """A small table for people."""
        total = self.namespaces * self.records
        lines = [
            f"team corpus: {self.namespaces} namespaces x {self.records} records ({total:,}); "
            f"local corpus: {self.records} records",
            "",
            f"{'operation':<10}{'side':<8}{'p50 ms':>10}{'p95 ms':>10}",
        ]
        for operation in ("scan", "put"):
            for side in ("http", "store", "local"):
                figures = self.operations[side][operation]
                lines.append(f"{operation:<10}{side:<8}{figures['p50_ms']:>10.3f}{figures['p95_ms']:>10.3f}")
        lines += ["", "http: through `tact-memory serve`; store: the team store in process; local: SQLite"]
        return "\n".join(lines)


def _fill(conn: Any, names: list[str], records: int, size: int, seed: int) -> None:
    now = time.time_ns() // 1_000_000
    with conn.transaction():
        with conn.cursor().copy("COPY memories (namespace, version, content, created_at_ms, updated_at_ms) FROM STDIN") as copy:
            for n, name in enumerate(names):
                count = records - 1 if n == 0 else records
                for text in _texts(count, size, seed=seed + n, tag=name):
                    copy.write_row((name, 1, text, now, now))
        conn.cursor().executemany("INSERT INTO generations (namespace) VALUES (%s)", [(name,) for name in names])


def _remove(conn: Any, prefix: str) -> None:
    pattern = prefix.replace("_", r"\_") + "%"
    with conn.transaction():
        conn.execute("DELETE FROM memories WHERE namespace LIKE %s", (pattern,))
        conn.execute("DELETE FROM generations WHERE namespace LIKE %s", (pattern,))
        conn.execute("DELETE FROM tokens WHERE namespace LIKE %s", (pattern,))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def _service(dsn: str) -> Iterator[str]:
    """A ``tact-memory serve`` process on a free local port; yields its base URL."""
    import httpx

    port = _free_port()
    env = {**os.environ, "TACT_TEAM_DATABASE_URL": dsn}  # not on the command line, where ps shows it
    process = subprocess.Popen(
        # The first scan builds the index of every namespace, which a loaded machine may take longer
        # than the default request timeout to do; it is not what is timed.
        [sys.executable, "-m", "tact_memory.cli", "serve", "--listen", f"127.0.0.1:{port}", "--timeout", "120"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                raise RuntimeError("the benchmark's serve process exited at start")
            try:
                httpx.get(url + "/v1/session", timeout=1)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise RuntimeError("the benchmark's serve process did not answer in 30 s") from None
                time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _side(
    scan: Callable[[str], object], put: Callable[[str], Any], delete: Callable[[Any], object],
    queries: list[str], texts: list[str],
) -> dict[str, dict[str, float]]:  # fmt: skip
    scan(queries[0])  # build the index once, as a long-running server or session would
    scans = [_timed(lambda: scan(q)) for q in queries]
    puts = []
    for text in texts:
        start = time.perf_counter()
        key = put(text)
        puts.append(time.perf_counter() - start)
        delete(key)
    return {"scan": _percentiles(scans), "put": _percentiles(puts)}


def run_team_bench(
    dsn: str, *, namespaces: int = 64, records: int = DEFAULT_LIMITS.rows, queries: int = 200, writes: int = 50, seed: int = 7
) -> TeamBenchReport:
    """Fill, serve and time; see the module docstring. ``dsn`` is a PostgreSQL connection URL."""
    import httpx

    from ..store.postgres import PostgresStore
    from ..store.sqlite import MemoryStore
    from .server import connect, open_pool, prepare
    from .tokens import create_token

    size = DEFAULT_LIMITS.content_bytes // DEFAULT_LIMITS.rows
    prepare(dsn)
    prefix = f"bench-{secrets.token_hex(4)}-"
    names = [f"{prefix}{n:02d}" for n in range(namespaces)]
    asked = _queries(queries, seed=seed + 1)
    extra = [f"extra {i} " + t for i, t in enumerate(_texts(writes, size - 12, seed=seed + 2, tag="extra"))]
    operations: dict[str, dict[str, dict[str, float]]] = {}
    with connect(dsn) as conn:
        try:
            _fill(conn, names, records, size, seed)
            token, _ = create_token(conn, namespace=names[0], role="writer", now_ms=time.time_ns() // 1_000_000)
            with _service(dsn) as url, httpx.Client(
                base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=60
            ) as http:

                def http_put(text: str) -> Any:
                    answer = http.post("/v1/put", json={"content": text})
                    answer.raise_for_status()
                    return answer.json()["memory"]["key"]

                operations["http"] = _side(
                    lambda q: http.post("/v1/scan", json={"query": q}).raise_for_status(),
                    http_put,
                    lambda key: http.post("/v1/delete", json=key).raise_for_status(),
                    asked, extra,
                )  # fmt: skip
            pool = open_pool(dsn, size=2, timeout_s=30)
            try:
                store = PostgresStore(pool, namespace=names[0])
                operations["store"] = _side(
                    store.scan, lambda t: store.put(t).memory.key, store.delete, asked, extra
                )
            finally:
                pool.close()
        finally:
            _remove(conn, prefix)
    with tempfile.TemporaryDirectory(prefix="tact-memory-bench-") as tmp:
        local = MemoryStore(Path(tmp) / "memory" / "v1.sqlite3")
        try:
            for text in _texts(records - 1, size, seed=seed, tag=names[0]):
                local.put(text)
            operations["local"] = _side(local.scan, lambda t: local.put(t).memory.key, local.delete, asked, extra)
        finally:
            local.close()
    return TeamBenchReport(namespaces=namespaces, records=records, operations=operations)


def main(dsn: str, as_json: bool, *, quick: bool = False) -> str:
    """Run and format; used by ``tact-memory bench --team``. ``quick``: few samples, rough figures."""
    report = run_team_bench(dsn, queries=20, writes=5) if quick else run_team_bench(dsn)
    return json.dumps(report.to_json(), indent=2) if as_json else report.render()
