"""``tact-memory bench``: operation latency at capacity, against SQLite FTS5 in the same run.

The benchmark fills a store in a temporary folder to its bounds (512 records, about 256 KiB of
content), then times every operation the tool offers. Absolute numbers depend on the machine and
its disk (every write is a synced transaction), so each target is a ratio against a baseline
measured in the same run:

- ``scan``: our scan (in-process BM25 over the cached index, plus the telemetry transaction)
  against the same work done by SQLite FTS5 on the same corpus (``bm25()``, top 5, plus the same
  telemetry transaction). Target: p95 ratio at most 1.0. The ranking part alone is reported too.
- ``import``: ``import tact_memory`` in a fresh interpreter, against one that imports nothing and
  against one that already holds the standard-library modules the package needs; the second
  difference is the package's own cost. Target: under 50 ms.
- ``untouched``: a memory-enabled session that never calls the tool creates no file.
- ``hook``: the prompt hook (:mod:`tact_memory.hooks.prompt_hook`) in a fresh process, against
  ``python -c pass``; it runs before every prompt in Claude Code and Codex. Target: at most 3x.

Nothing here is asserted by the test suite as a timing: the tests check the report's shape and
that each figure is computed.

Why this module is longer than ~300 lines: the measurements, the FTS5 baselines they are compared
with and the report are one benchmark run.
"""

from __future__ import annotations

import json
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from ..limits import DEFAULT_LIMITS
from ..retrieval.lexer import query_terms
from ..store.sqlite import MemoryStore

__all__ = ["BenchReport", "corpus", "run_bench"]

_WORDS = (
    "deploy release migration schema postgres redis cache queue worker retry timeout token budget "
    "lint format ruff mypy pytest fixture snapshot docker image registry kubernetes helm chart "
    "terraform module backend frontend webpack vite react hook router api gateway grpc proto "
    "billing payments orders invoices ledger search index shard replica backup restore cron job "
    "feature flag rollout canary metrics tracing logging alert oncall runbook incident branch "
    "rebase merge squash commit changelog version semver tag signed pipeline artifact cache key"
).split()
_REPOS = ["billing-api", "web-app", "infra", "commonware", "data-pipeline", "mobile", "auth-service", "docs"]


def corpus(n: int = DEFAULT_LIMITS.rows, size: int = DEFAULT_LIMITS.content_bytes // DEFAULT_LIMITS.rows, *, seed: int = 7) -> list[str]:
    """``n`` distinct, realistic-looking records of exactly ``size`` ASCII bytes each."""
    rng = random.Random(seed)
    records = []
    for i in range(n):
        head = f"In the `{rng.choice(_REPOS)}` repository (note {i}), "
        words = [head]
        while len(" ".join(words)) < size:
            words.append(rng.choice(_WORDS))
        records.append(" ".join(words)[:size])
    return records


def _queries(n: int, *, seed: int = 11) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.sample(_WORDS, rng.randint(2, 5)) + [rng.choice(_REPOS)]) for _ in range(n)]


def _percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, max(0, round(0.95 * len(ordered)) - 1))]
    return {"p50_ms": round(statistics.median(ordered) * 1000, 4), "p95_ms": round(p95 * 1000, 4), "n": len(ordered)}


def _timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


@dataclass
class BenchReport:
    """The figures of one run."""

    operations: dict[str, dict[str, float]]
    baseline: dict[str, dict[str, float]]
    ratios: dict[str, float]
    import_ms: float
    import_own_ms: float
    untouched: bool
    corpus: dict[str, int]
    hook_ratio: float = 0.0
    """Cold process time of the prompt hook (a prompt that gets the checkpoint) / ``python -c pass``."""

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` document."""
        return {
            "corpus": self.corpus,
            "operations": self.operations,
            "fts5_baseline": self.baseline,
            "ratios": self.ratios,
            "import_ms": self.import_ms,
            "import_own_ms": self.import_own_ms,
            "untouched_when_unused": self.untouched,
            "hook_cold_ratio": self.hook_ratio,
            "targets": {
                "scan_p95_ratio_max": 1.0,
                "import_ms_max": 50.0,
                "hook_cold_ratio_max": 3.0,
                "met": {
                    "scan": self.ratios["scan_p95"] <= 1.0,
                    "import": self.import_own_ms < 50.0,
                    "untouched": self.untouched,
                    "hook": self.hook_ratio <= 3.0,
                },
            },
        }

    def render(self) -> str:
        """A small table for people."""
        lines = [f"corpus: {self.corpus['rows']} records, {self.corpus['content_bytes']:,} bytes of content", ""]
        lines.append(f"{'operation':<16}{'p50 ms':>10}{'p95 ms':>10}")
        for name, figures in {**self.operations, **{f'fts5 {k}': v for k, v in self.baseline.items()}}.items():
            lines.append(f"{name:<16}{figures['p50_ms']:>10.3f}{figures['p95_ms']:>10.3f}")
        lines.append("")
        for name, ratio in self.ratios.items():
            lines.append(f"ratio {name:<12} {ratio:.3f}  (ours / FTS5; target <= 1.0)")
        lines.append(
            f"import tact_memory {self.import_ms:.1f} ms over a bare interpreter, "
            f"{self.import_own_ms:.1f} ms of it its own (target < 50)"
        )
        lines.append(f"enabled but unused session creates no file: {'yes' if self.untouched else 'NO'}")
        lines.append(f"prompt hook, cold process: {self.hook_ratio:.2f}x `python -c pass` (target <= 3)")
        return "\n".join(lines)


class _Fts5Baseline:
    """The same records in a table with an FTS5 index beside it: the design the store avoids."""

    def __init__(self, path: Path, texts: list[str]) -> None:
        self.conn = sqlite3.connect(path, isolation_level=None)
        self.conn.execute("PRAGMA journal_mode = DELETE")
        self.conn.execute("PRAGMA synchronous = EXTRA")  # the same durability as the store
        # Content and telemetry in one row, as in the store, so a telemetry update writes as much.
        self.conn.execute(
            "CREATE TABLE memories (id INTEGER PRIMARY KEY, content TEXT NOT NULL,"
            " scan_count INTEGER NOT NULL DEFAULT 0, last_scanned_at_ms INTEGER)"
        )
        self.conn.execute("CREATE VIRTUAL TABLE fts USING fts5(content)")
        self.conn.execute("BEGIN")
        for i, text in enumerate(texts, start=1):
            self.conn.execute("INSERT INTO memories (id, content) VALUES (?, ?)", (i, text))
            self.conn.execute("INSERT INTO fts (rowid, content) VALUES (?, ?)", (i, text))
        self.conn.execute("COMMIT")

    @staticmethod
    def match(query: str) -> str:
        """The FTS5 expression for a query: its terms, any of them (BM25 ranks, nothing vetoes)."""
        return " OR ".join(f'"{t}"' for t in sorted(query_terms(query))) or '""'

    def rank(self, query: str) -> list[int]:
        """Top five by FTS5's ``bm25()``."""
        sql = "SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY bm25(fts), rowid LIMIT 5"
        return [int(r[0]) for r in self.conn.execute(sql, (self.match(query),))]

    def scan(self, query: str) -> None:
        """Rank and record scan telemetry in one ``BEGIN IMMEDIATE`` transaction, as the store does."""
        self.conn.execute("BEGIN IMMEDIATE")
        ids = self.rank(query)
        self.conn.executemany(
            "UPDATE memories SET scan_count = scan_count + 1, last_scanned_at_ms = ? WHERE id = ?",
            [(time.time_ns() // 1_000_000, i) for i in ids],  # a real time: 0 would take no bytes
        )
        self.conn.execute("COMMIT")


_STDLIB = "import dataclasses, enum, json, pathlib, re, sqlite3, threading, typing"
"""The standard-library modules the package needs; an interpreter holding them is the baseline."""


def _import_ms(runs: int = 5) -> tuple[float, float]:
    """Median cost of ``import tact_memory``: over a bare interpreter, and over one that already
    holds the standard-library modules the package needs (its own share)."""

    def once(code: str) -> float:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
        return time.perf_counter() - start

    def median(code: str) -> float:
        return statistics.median(once(code) for _ in range(runs))

    bare, stdlib = median("pass"), median(_STDLIB)
    total, own = median("import tact_memory"), median(f"{_STDLIB}; import tact_memory")
    return round(max(0.0, total - bare) * 1000, 2), round(max(0.0, own - stdlib) * 1000, 2)


def _hook_ratio(folder: Path, runs: int) -> float:
    """Median cold time of the prompt hook run by path (a prompt that gets the checkpoint), over
    the median of ``python -c pass``."""
    from ..hooks import prompt_hook

    config = folder / "hook" / "config.toml"
    config.parent.mkdir()
    config.write_text("[memory]\nenabled = true\n", encoding="utf-8")
    command = [sys.executable, prompt_hook.__file__, "--config", str(config), "user-prompt-submit"]
    data = b'{"session_id": "bench", "hook_event_name": "UserPromptSubmit", "prompt": "hi"}'

    def once(argv: list[str]) -> float:
        start = time.perf_counter()
        subprocess.run(argv, input=data, check=True, capture_output=True)
        return time.perf_counter() - start

    once(command)  # the session's first prompt: later ones get the checkpoint
    bare = statistics.median(once([sys.executable, "-c", "pass"]) for _ in range(runs))
    hook = statistics.median(once(command) for _ in range(runs))
    return round(hook / bare, 2)


def _untouched(folder: Path) -> bool:
    from ..config.loading import load_config
    from ..runtime.session import Runtime
    from ..testing import ScriptedModel, answer, run_agent

    config_dir = folder / "unused"
    config_dir.mkdir()
    (config_dir / "config.toml").write_text("[memory]\nenabled = true\n", encoding="utf-8")
    session = Runtime(load_config(config_dir / "config.toml")).new_session()
    session.submit("hello")
    run_agent(session.root, ScriptedModel([answer("hi")]))
    session.submit("again")
    run_agent(session.root, ScriptedModel([answer("hi")]))
    return not (config_dir / "memory").exists()


def run_bench(*, queries: int = 300, writes: int = 60, seed: int = 7, import_runs: int = 5) -> BenchReport:
    """Fill a temporary store to capacity and time every operation; see the module docstring."""
    with tempfile.TemporaryDirectory(prefix="tact-memory-bench-") as tmp:
        folder = Path(tmp)
        texts = corpus(seed=seed)
        store = MemoryStore(folder / "memory" / "v1.sqlite3")
        for text in texts[:-1]:
            store.put(text)
        asked = _queries(queries, seed=seed + 4)
        store.scan(asked[0])  # build the index once, as a long-running session would
        fts = _Fts5Baseline(folder / "fts.sqlite3", texts[:-1])
        rank, scan, fts_rank, fts_scan = [], [], [], []
        for q in asked:  # interleaved, so both feel the same disk and machine load
            rank.append(_timed(partial(store.rank, q, limit=5)))
            fts_rank.append(_timed(partial(fts.rank, q)))
            scan.append(_timed(partial(store.scan, q)))
            fts_scan.append(_timed(partial(fts.scan, q)))
        fts.conn.close()
        rng = random.Random(seed)
        read = [_timed(lambda: store.read(rng.sample(range(1, len(texts)), 3))) for _ in range(queries)]
        put, delete, replace = [], [], []
        spare = corpus(writes, seed=seed + 1)
        for i in range(writes):
            text = f"extra {i} " + spare[i][: len(texts[-1]) - 10]
            start = time.perf_counter()
            key = store.put(text).memory.key
            put.append(time.perf_counter() - start)
            delete.append(_timed(partial(store.delete, key)))
        live = store.list_records(order="id")
        for i in range(writes):
            record = live[i]
            new = f"revised {i} " + record.content[: len(record.content) - 12]
            replace.append(_timed(partial(store.put, new, replace=record.key)))
        status = store.status()
        store.close()
        baseline = {"rank": _percentiles(fts_rank), "scan": _percentiles(fts_scan)}
        untouched = _untouched(folder)
        hook_ratio = _hook_ratio(folder, import_runs)
    operations = {
        "rank": _percentiles(rank),
        "scan": _percentiles(scan),
        "read": _percentiles(read),
        "put": _percentiles(put),
        "replace": _percentiles(replace),
        "delete": _percentiles(delete),
    }
    import_ms, import_own_ms = _import_ms(import_runs)
    ratios = {
        "scan_p95": round(operations["scan"]["p95_ms"] / baseline["scan"]["p95_ms"], 3),
        "rank_p95": round(operations["rank"]["p95_ms"] / baseline["rank"]["p95_ms"], 3),
    }
    return BenchReport(
        operations=operations,
        baseline=baseline,
        ratios=ratios,
        import_ms=import_ms,
        import_own_ms=import_own_ms,
        untouched=untouched,
        hook_ratio=hook_ratio,
        corpus={"rows": status.rows, "content_bytes": status.content_bytes, "file_bytes": status.file_bytes},
    )


def main(as_json: bool, *, quick: bool = False) -> str:
    """Run and format; used by the CLI. ``quick`` is a smoke run: few samples, rough figures."""
    report = run_bench(queries=30, writes=8, import_runs=2) if quick else run_bench()
    return json.dumps(report.to_json(), indent=2) if as_json else report.render()
