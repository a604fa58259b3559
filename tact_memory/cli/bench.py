"""``tact-memory bench``: operation latency at capacity, against SQLite FTS5 in the same run.

The benchmark fills a store in a temporary folder to its bounds (512 records, about 256 KiB of
content), then times every operation the tool offers. Absolute numbers depend on the machine and
its disk (every write is a synced transaction), so each target is a ratio against a baseline
measured in the same run:

- ``scan`` (rank top 5, the telemetry transaction, the JSON a tool call returns) against the
  ranking alone (target: p50 at most 1.2x) and against SQLite FTS5 doing the same work in its
  usual configuration, WAL with ``synchronous = NORMAL`` (target: p50 at most 1.0x); FTS5 at the
  store's durability (``DELETE``, ``synchronous = EXTRA``) is reported beside it.
- the first scan after another process wrote (a second process on the same file, so the index
  catches up) and after the process's own write; the latter against the same scan after the same
  write to a copy of the store, which leaves the index as it was but the caches as full of other
  work (target: 1.1x).
- ``put``, ``replace``, ``delete``: p95 against three ``fdatasync`` calls of 4 KiB overwritten in
  a temporary file on the same disk plus the index update (tokenizing one record and putting it
  into a full in-process index). Target: at most 1.0x. A sync that grows the file, as a WAL
  commit's does, is reported beside it. ``fdatasync`` and ``fsync`` calls per operation are
  counted with ``strace -f -c`` when it is available (:mod:`.bench_probes`).
- scans per second with 1, 2, 4 and 8 processes, each with its own store on the same file, and
  with 1 and 4 processes for the design that holds the write lock through the whole scan (the
  FTS5 baseline at ``DELETE``/``EXTRA``, as the store itself scanned before it moved to WAL).
  Target: 4 processes at least 3x the lock-holding design's 4.
- ``import``: the self times of the package's modules under ``python -X importtime``
  (:mod:`.bench_import`). Target: under 30 ms.
- ``tool``: a cold ``tact-memory tool`` scan at capacity against ``python -c pass`` (target: 6x);
  ``hook``: the prompt hook (:mod:`tact_memory.hooks.prompt_hook`, run as ``tact-memory setup``
  installs it) likewise, it runs before every prompt in Claude Code and Codex (target: 3x). These
  processes, ``python -c pass`` and the import's run with their bytecode cached in the bench's own
  folder, as an installed package has it, whatever the source tree's ``__pycache__`` holds.
- ``untouched``: a memory-enabled session that never calls the tool creates no file.
- ``screen``: screening one typical record as a put does first, and the slowest of kilobytes
  built to make the secret screen work hardest (:mod:`.bench_screen`), with its ratio to the
  first. Reported, no target: a rule that makes one input slow shows here.

The verdict lines are computed from the figures alone (:mod:`.bench_verdict`). Nothing here is
asserted by the test suite as a timing: the tests check the report's shape and that each figure
is computed.

Why this module is longer than ~300 lines: the measurements, the FTS5 baselines they are compared
with and the report are one benchmark run.
"""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from ..limits import DEFAULT_LIMITS
from ..records import Candidate
from ..store.connection import WAL_AUTOCHECKPOINT_PAGES
from ..store.sqlite import SCAN_TELEMETRY, MemoryStore, telemetry_parameters
from .bench_fts5 import Fts5Baseline
from .bench_import import measure_import
from .bench_probes import (
    OtherWriter,
    cold_ratio,
    compiled_env,
    fdatasync_ms,
    scans_per_second,
    sync_calls,
)
from .bench_screen import slowest_screen
from .bench_verdict import Verdict, verdicts

__all__ = ["STAGES", "BenchReport", "Fts5Baseline", "corpus", "render", "run_bench"]

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
    """The figures of one run; the verdict is computed from them (:mod:`.bench_verdict`)."""

    operations: dict[str, dict[str, float]]
    baseline: dict[str, dict[str, float]]
    """FTS5 figures: ``rank``, ``scan`` (at the store's durability), ``scan_wal`` (WAL/NORMAL)."""
    first_scan: dict[str, dict[str, float]]
    """``after_other_write`` and ``after_own_write`` (also split into ``after_own_put`` and
    ``after_own_delete``): the first scan after a write, by percentiles; ``warm``: the same scans,
    each after the same write to a copy of the store (the own-write target's baseline)."""
    processes: dict[str, dict[str, float]]
    """Scans per second by number of processes."""
    locked_processes: dict[str, dict[str, float]]
    """Scans per second by number of processes of the lock-holding design (FTS5, DELETE/EXTRA)."""
    sync_calls: dict[str, int] | None
    """``fdatasync`` + ``fsync`` calls per operation under ``strace``; None when not measured."""
    fdatasync_ms: float
    """One ``fdatasync`` of 4 KiB overwritten in place (the disk's cheapest sync)."""
    import_ms: float
    """Cumulative ``-X importtime`` of ``tact_memory``."""
    import_own_ms: float
    """Sum of ``-X importtime`` self times of ``tact_memory`` modules."""
    untouched: bool
    corpus: dict[str, int]
    hook_ratio: float = 0.0
    """Cold process time of the prompt hook (a prompt that gets the checkpoint) / ``python -c pass``."""
    tool_ratio: float = 0.0
    """Cold ``tact-memory tool`` scan at capacity / ``python -c pass``."""
    scrub: dict[str, int] | None = None
    """``removals`` of the write stage and how many of their scrubs ``rewrites`` the file with ``VACUUM``."""
    append_fdatasync_ms: float | None = None
    """One ``fdatasync`` of 4 KiB appended (the file grows, as a WAL does with each commit)."""
    index_update_ms: float | None = None
    """Tokenizing one record and putting it into a full in-process index in place of its old
    version: the ranking-index share of a put or replacement."""
    screen_ms: float | None = None
    """Checking one record's content as a put does first (the secret rules, the checkpoint look-alike)."""
    screen_worst: tuple[float, str] | None = None
    """The milliseconds the slowest of the hard kilobytes takes to screen, and its repeated unit
    (:mod:`.bench_screen`)."""
    scan_floor: dict[str, float] | None = None
    """Per query, the ranking plus the bare telemetry transaction (:class:`_BareTelemetry`) plus the
    cards' JSON, by percentiles."""

    def floors(self) -> dict[str, float | None]:
        """What no scan or write of this design can cost less than on this machine, as ratios to
        the targets' own baselines (None where a figure is missing). A floor above a target's bound
        means that target cannot be met by removing overhead, only by changing what is done.

        - ``scan/rank``: the ranking plus the bare telemetry transaction and the JSON, over the ranking;
        - ``put``: one sync of a growing file (a put's WAL commit) plus screening one record plus
          the index update, over the put bound (three in-place syncs plus the index update);
        - ``removal``: the syncs a replacement or delete is counted to make (``strace``) plus the
          index update, over the same bound. One of them (the checkpoint's of the file) overwrites
          in place; each other one is of the WAL, which the removal's frames or a new header have
          just grown, so it is priced as a growing file's.
        """
        rank = self.operations["rank"]["p50_ms"]
        sync, grown, index = self.fdatasync_ms, self.append_fdatasync_ms, self.index_update_ms or 0.0
        bound = 3 * sync + index if sync > 0 else None
        syncs = None if self.sync_calls is None else max(self.sync_calls.get("replace", 0), self.sync_calls.get("delete", 0))
        put = None if grown is None or self.screen_ms is None else grown + self.screen_ms + index
        removal = None if syncs is None or grown is None else sync + max(syncs - 1, 0) * grown + index
        return {
            "scan/rank": None if self.scan_floor is None or rank <= 0 else round(self.scan_floor["p50_ms"] / rank, 3),
            "put": None if bound is None or put is None else round(put / bound, 3),
            "removal": None if bound is None or removal is None else round(removal / bound, 3),
        }

    def figures(self) -> dict[str, float | None]:
        """The measured figures the targets read."""
        warm = self.operations["scan"]["p50_ms"]
        return {
            "scan_p50_ms": warm,
            "rank_p50_ms": self.operations["rank"]["p50_ms"],
            "fts5_wal_scan_p50_ms": self.baseline["scan_wal"]["p50_ms"],
            "own_write_scan_p50_ms": self.first_scan["after_own_write"]["p50_ms"],
            "own_write_warm_scan_p50_ms": self.first_scan["warm"]["p50_ms"],
            "put_p95_ms": self.operations["put"]["p95_ms"],
            "replace_p95_ms": self.operations["replace"]["p95_ms"],
            "delete_p95_ms": self.operations["delete"]["p95_ms"],
            "fdatasync_ms": self.fdatasync_ms,
            "index_update_ms": self.index_update_ms,
            "import_own_ms": self.import_own_ms,
            "tool_cold_ratio": self.tool_ratio,
            "hook_cold_ratio": self.hook_ratio,
            "scans_per_s_4": self.processes.get("4", {}).get("scans_per_s"),
            "locked_scans_per_s_4": self.locked_processes.get("4", {}).get("scans_per_s"),
        }

    def verdicts(self) -> list[Verdict]:
        """Every target, met or missed."""
        return verdicts(self.figures())

    def missed(self) -> bool:
        """Whether a measured target was missed (or an unused session created a file)."""
        return not self.untouched or any(v.met is False for v in self.verdicts())

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` document."""
        return {
            "corpus": self.corpus,
            "operations": self.operations,
            "fts5_baseline": self.baseline,
            "first_scan": self.first_scan,
            "processes": self.processes,
            "lock_holding_processes": self.locked_processes,
            "sync_calls_per_operation": self.sync_calls,
            "fdatasync_ms": self.fdatasync_ms,
            "append_fdatasync_ms": self.append_fdatasync_ms,
            "index_update_ms": self.index_update_ms,
            "import_ms": self.import_ms,
            "import_own_ms": self.import_own_ms,
            "untouched_when_unused": self.untouched,
            "hook_cold_ratio": self.hook_ratio,
            "tool_cold_ratio": self.tool_ratio,
            "scrub": self.scrub,
            "screen_ms": self.screen_ms,
            "screen_worst_ms": None if self.screen_worst is None else self.screen_worst[0],
            "screen_worst_unit": None if self.screen_worst is None else self.screen_worst[1],
            "scan_floor": self.scan_floor,
            "floors": self.floors(),
            "figures": self.figures(),
            "targets": [v.to_json() for v in self.verdicts()],
        }

    def render(self) -> str:
        """A small table for people, ending with one verdict line per target."""
        lines = [f"corpus: {self.corpus['rows']} records, {self.corpus['content_bytes']:,} bytes of content", ""]
        lines.append(f"{'operation':<28}{'p50 ms':>10}{'p95 ms':>10}")
        rows = {
            **self.operations,
            "fts5 rank": self.baseline["rank"],
            "fts5 scan (DELETE/EXTRA)": self.baseline["scan"],
            "fts5 scan (WAL/NORMAL)": self.baseline["scan_wal"],
            "scan after other's write": self.first_scan["after_other_write"],
            "scan after own write": self.first_scan["after_own_write"],
            "  of which after a put": self.first_scan["after_own_put"],
            "  of which after a delete": self.first_scan["after_own_delete"],
            "  after a write elsewhere": self.first_scan["warm"],
        }
        if self.scan_floor is not None:
            rows["rank + bare telemetry, JSON"] = self.scan_floor
        for name, figures in rows.items():
            lines.append(f"{name:<28}{figures['p50_ms']:>10.3f}{figures['p95_ms']:>10.3f}")
        lines.append("")
        for count, figures in self.processes.items():
            lines.append(f"{count} process(es): {figures['scans_per_s']:.0f} scans/s ({figures['busy']:.0f} busy)")
        for count, figures in self.locked_processes.items():
            lines.append(
                f"{count} process(es), lock held through the scan (FTS5, DELETE/EXTRA): "
                f"{figures['scans_per_s']:.0f} scans/s ({figures['busy']:.0f} busy)"
            )
        if self.sync_calls is None:
            lines.append("fdatasync+fsync calls per operation: not measured (no usable strace)")
        else:
            counted = ", ".join(f"{op} {n}" for op, n in self.sync_calls.items())
            lines.append(f"fdatasync+fsync calls per operation (strace -f -c): {counted}")
        if self.scrub is not None:
            lines.append(
                f"scrubs that rewrote the file (VACUUM): {self.scrub['rewrites']} of {self.scrub['removals']} "
                "removals (the others found no removed text left to clear)"
            )
        grown = "" if self.append_fdatasync_ms is None else f" ({self.append_fdatasync_ms:.3f} ms when it grows the file)"
        lines.append(f"one fdatasync of this disk: {self.fdatasync_ms:.3f} ms{grown}")
        if self.index_update_ms is not None:
            lines.append(f"index update of one record at capacity: {self.index_update_ms:.3f} ms")
        if self.screen_ms is not None:
            lines.append(f"screening one record as a put does first: {self.screen_ms:.3f} ms")
        if self.screen_worst is not None:
            worst, unit = self.screen_worst
            times = f", {worst / self.screen_ms:.1f}x a record" if self.screen_ms else ""
            lines.append(f"screening the slowest hard kilobyte ({unit} repeated): {worst:.3f} ms{times}")
        lines.append(
            f"import tact_memory (-X importtime): {self.import_ms:.1f} ms cumulative, "
            f"{self.import_own_ms:.1f} ms in its own modules"
        )
        lines.append(f"enabled but unused session creates no file: {'yes' if self.untouched else 'NO'}")
        lines.append("")
        lines.extend(v.line() for v in self.verdicts())
        floors = self.floors()
        if any(value is not None for value in floors.values()):
            lines.append("")
            lines.append("floors (the least this design can cost here, over each target's baseline):")
            described = {
                "scan/rank": "ranking + the bare telemetry transaction + the JSON, over the ranking",
                "put": "a growing file's fdatasync + screening the record + the index update, over the put bound",
                "removal": "the fdatasyncs a replacement or delete makes (the WAL's as a growing file's) + the index update, over the same bound",
            }
            for name, value in floors.items():
                if value is not None:
                    lines.append(f"floor {name:<18} {value:.2f}x  ({described[name]})")
        return "\n".join(lines)


def _hook_config(folder: Path) -> Path:
    """An enabled ``config.toml`` for the hook, written early: the hook remembers a config's verdict
    only once the file has been left alone for a while (:data:`~tact_memory.hooks.prompt_hook.MEMO_QUIET_NS`),
    as a user's config almost always has been."""
    config = folder / "hook" / "config.toml"
    config.parent.mkdir()
    config.write_text("[memory]\nenabled = true\n", encoding="utf-8")
    return config


def _hook_ratio(config: Path, runs: int, env: dict[str, str]) -> float:
    """Median cold time of the prompt hook as ``tact-memory setup`` installs it (a prompt that gets
    the checkpoint), over the median of ``python -c pass``."""
    from ..hooks.prompt_hook import MEMO_QUIET_NS
    from .clients import hook_argv

    quiet_s = MEMO_QUIET_NS / 1e9 + 0.1
    time.sleep(max(0.0, quiet_s - (time.time() - config.stat().st_ctime)))
    data = b'{"session_id": "bench", "hook_event_name": "UserPromptSubmit", "prompt": "hi"}'
    return cold_ratio(hook_argv(config, "user-prompt-submit"), runs, data=data, env=env)


def _tool_ratio(folder: Path, store_file: Path, runs: int, env: dict[str, str]) -> float:
    """Median cold time of ``tact-memory tool`` scanning a copy of the full store, over ``python -c pass``."""
    config = folder / "tool" / "config.toml"
    (config.parent / "memory").mkdir(parents=True)
    config.write_text("[memory]\nenabled = true\n", encoding="utf-8")
    shutil.copyfile(store_file, config.parent / "memory" / store_file.name)
    call = json.dumps({"operation": "scan", "query": "deploy release billing-api"})
    return cold_ratio([sys.executable, "-m", "tact_memory.cli", "--config", str(config), "tool", call], runs, env=env)


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


def _first_scans(store: MemoryStore, path: Path, asked: list[str], spare: list[str]) -> dict[str, dict[str, float]]:
    """The first scan after another process wrote (the index must catch up), and after this
    process's own write; writes alternate a put and its deletion so the corpus stays at capacity."""
    other, own = [], []
    writer = OtherWriter(path)
    try:
        for i, text in enumerate(spare):
            writer.put(text) if i % 2 == 0 else writer.delete_last()
            other.append(_timed(partial(_scan_json, store, asked[i % len(asked)])))
    finally:
        writer.close()
    # The baseline: the same write made to a copy of the store, then the same scan of this one. Its
    # index has not changed, so that scan is warm, yet the write has just filled the processor's
    # caches with other work, as the own write does before its first scan.
    control = _copy_of(path, path.parent.parent / "control" / path.name)
    control.scan(asked[0])
    key = control_key = None
    after_put: list[float] = []
    after_delete: list[float] = []
    warm: list[float] = []
    for i, text in enumerate(spare):
        query = asked[i % len(asked)]
        if control_key is None:
            control_key = control.put(text).memory.key
        else:
            control.delete(control_key)
            control_key = None
        warm.append(_timed(partial(_scan_json, store, query)))
        if key is None:
            key = store.put(text).memory.key
            after = after_put
        else:
            store.delete(key)
            key = None
            after = after_delete
        after.append(_timed(partial(_scan_json, store, query)))
        own.append(after[-1])
    if key is not None:
        store.delete(key)
    control.close()
    return {
        "after_other_write": _percentiles(other),
        "after_own_write": _percentiles(own),
        "after_own_put": _percentiles(after_put),
        "after_own_delete": _percentiles(after_delete),
        "warm": _percentiles(warm),
    }


def _backup(source: Path, copy: Path) -> sqlite3.Connection:
    """A connection (autocommit) to a new copy of ``source``, made with SQLite's backup, so the WAL
    of a store that has ``source`` open is included."""
    reader, writer = sqlite3.connect(source), sqlite3.connect(copy, isolation_level=None)
    try:
        reader.backup(writer)
    except BaseException:
        writer.close()
        raise
    finally:
        reader.close()
    return writer


def _copy_of(source: Path, copy: Path) -> MemoryStore:
    """A store on a copy of ``source`` (:func:`_backup`)."""
    copy.parent.mkdir(mode=0o700)
    _backup(source, copy).close()
    return MemoryStore(copy)


def _index_update_ms(texts: list[str], samples: int) -> float:
    """Median milliseconds of the ranking-index work of a put: tokenizing a record and putting it
    into an index of the whole corpus in place of its previous version."""
    from ..retrieval.bm25 import Index, count_terms

    index = Index()
    for id_, text in enumerate(texts, start=1):
        index.add(id_, 1, count_terms(text, fold=index.fold))
    rng = random.Random(len(texts))
    seen = []
    for version, id_ in enumerate(rng.choices(range(1, len(texts) + 1), k=max(samples, 1)), start=2):
        text = texts[id_ - 1]
        start = time.perf_counter()
        index.add(id_, version, count_terms(text, fold=index.fold))
        seen.append(time.perf_counter() - start)
    return round(statistics.median(seen) * 1000, 4)


class _BareTelemetry:
    """The telemetry transaction a scan commits, on a copy of the store file with the store's own
    pragmas and nothing around it (no stat, no checks, no wrapper): what any scan of this design,
    which commits its telemetry and deletes securely, pays at least."""

    def __init__(self, source: Path, copy: Path) -> None:
        self.conn = _backup(source, copy)
        for pragma in (
            "journal_mode = WAL", "synchronous = NORMAL", f"wal_autocheckpoint = {WAL_AUTOCHECKPOINT_PAGES}",
            "secure_delete = ON", "cell_size_check = ON", "trusted_schema = OFF",
        ):  # fmt: skip
            self.conn.execute(f"PRAGMA {pragma}")

    def commit(self, keys: list[tuple[int, int]]) -> None:
        self.conn.execute("BEGIN IMMEDIATE")
        now = time.time_ns() // 1_000_000
        self.conn.executemany(SCAN_TELEMETRY, [telemetry_parameters(now, id_, version) for id_, version in keys])
        self.conn.execute("COMMIT")


def _screen_ms(texts: list[str], samples: int) -> float:
    """Median milliseconds of checking one record's content as a put does before any database work
    (size, control characters, the secret rules and the checkpoint look-alike)."""
    from ..store.policy import validate_content

    rng = random.Random(len(texts) + 1)
    seen = []
    for text in rng.choices(texts, k=max(samples, 1)):
        start = time.perf_counter()
        validate_content(text, DEFAULT_LIMITS)
        seen.append(time.perf_counter() - start)
    return round(statistics.median(seen) * 1000, 4)


def _scan_json(store: MemoryStore, query: str) -> str:
    """A scan and its JSON, the work a tool call does."""
    return _cards_json(store.scan(query))


def _cards_json(found: list[Candidate]) -> str:
    return json.dumps([{"id": c.key.id, "version": c.key.version, "score": c.score, "preview": c.preview} for c in found])


Progress = Callable[[str], None]


def run_bench(
    *,
    queries: int = 300,
    writes: int = 60,
    seed: int = 7,
    import_runs: int = 5,
    cold_runs: int = 21,
    process_counts: tuple[int, ...] = (1, 2, 4, 8),
    process_seconds: float = 1.0,
    progress: Progress | None = None,
) -> BenchReport:
    """Fill a temporary store to capacity and time every operation; see the module docstring.

    ``progress`` is called with the name of each stage as it starts (:data:`STAGES`).
    """
    step = progress or (lambda _stage: None)
    with tempfile.TemporaryDirectory(prefix="tact-memory-bench-") as tmp:
        folder = Path(tmp)
        step("fill")
        hook_config = _hook_config(folder)
        texts = corpus(seed=seed)
        path = folder / "memory" / "v1.sqlite3"
        store = MemoryStore(path)
        for text in texts[:-1]:
            store.put(text)
        asked = _queries(queries, seed=seed + 4)
        store.scan(asked[0])  # build the index once, as a long-running session would
        fts = Fts5Baseline(folder / "fts.sqlite3", wal=False).fill(texts[:-1])
        wal = Fts5Baseline(folder / "fts-wal.sqlite3", wal=True).fill(texts[:-1])
        bare = _BareTelemetry(path, folder / "bare.sqlite3")
        step("scan")
        rank, scan, fts_rank, fts_scan, wal_scan, floor = [], [], [], [], [], []
        for q in asked:  # interleaved, so all feel the same disk and machine load
            rank.append(_timed(partial(store.rank, q, limit=5)))
            fts_rank.append(_timed(partial(fts.rank, q)))
            start = time.perf_counter()  # _scan_json, timed in two parts: the floor reuses the JSON's
            cards = store.scan(q)
            scanned = time.perf_counter()
            _cards_json(cards)
            end = time.perf_counter()
            scan.append(end - start)
            fts_scan.append(_timed(partial(fts.scan, q)))
            wal_scan.append(_timed(partial(wal.scan, q)))
            keys = [(c.key.id, c.key.version) for c in cards]
            floor.append(rank[-1] + _timed(partial(bare.commit, keys)) + (end - scanned))
        fts.conn.close()
        wal.conn.close()
        bare.conn.close()
        rng = random.Random(seed)
        read = [_timed(lambda: store.read(rng.sample(range(1, len(texts)), 3))) for _ in range(queries)]
        step("write")
        rewritten = store._scrubber.rewrites  # the store's own count (no public API)
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
        scrub = {"removals": 2 * writes, "rewrites": store._scrubber.rewrites - rewritten}
        sync_ms = fdatasync_ms(folder)
        grown_ms = fdatasync_ms(folder, append=True)
        index_ms = _index_update_ms(texts[:-1], queries)
        screen_ms = _screen_ms(texts, queries)
        screen_worst = slowest_screen()
        step("first scan")
        fresh = [f"fresh {i} " + t[: len(texts[-1]) - 10] for i, t in enumerate(corpus(max(4, writes), seed=seed + 2))]
        first = _first_scans(store, path, asked, fresh)
        status = store.status()
        store.close()
        step("processes")
        processes = {str(n): scans_per_second(path, asked, n, process_seconds) for n in process_counts}
        locked = {
            str(n): scans_per_second(folder / "fts.sqlite3", asked, n, process_seconds, engine="fts5")
            for n in (1, 4)
            if n in process_counts
        }
        step("fsync")
        syncs = sync_calls(path, {"fts5-wal": folder / "fts-wal.sqlite3", "fts5-extra": folder / "fts.sqlite3"}, folder)
        baseline = {"rank": _percentiles(fts_rank), "scan": _percentiles(fts_scan), "scan_wal": _percentiles(wal_scan)}
        step("cold processes")
        untouched = _untouched(folder)
        cold_env = compiled_env(folder / "pycache")
        hook_ratio = _hook_ratio(hook_config, cold_runs, cold_env)
        tool_ratio = _tool_ratio(folder, path, cold_runs, cold_env)
        step("import")
        imported = measure_import(import_runs, env=cold_env)
    operations = {
        "rank": _percentiles(rank),
        "scan": _percentiles(scan),
        "read": _percentiles(read),
        "put": _percentiles(put),
        "replace": _percentiles(replace),
        "delete": _percentiles(delete),
    }
    return BenchReport(
        operations=operations,
        baseline=baseline,
        first_scan=first,
        processes=processes,
        locked_processes=locked,
        sync_calls=syncs,
        fdatasync_ms=sync_ms,
        append_fdatasync_ms=grown_ms,
        index_update_ms=index_ms,
        screen_ms=screen_ms,
        screen_worst=screen_worst,
        scan_floor=_percentiles(floor),
        import_ms=imported.total_ms,
        import_own_ms=imported.own_ms,
        untouched=untouched,
        hook_ratio=hook_ratio,
        tool_ratio=tool_ratio,
        scrub=scrub,
        corpus={"rows": status.rows, "content_bytes": status.content_bytes, "file_bytes": status.file_bytes},
    )


STAGES = ("fill", "scan", "write", "first scan", "processes", "fsync", "cold processes", "import")
"""The stages :func:`run_bench` reports to its ``progress`` callback, in order."""


def main(as_json: bool, *, quick: bool = False, progress: Progress | None = None) -> BenchReport:
    """Run; used by the CLI. ``quick`` is a smoke run: few samples, rough figures."""
    if quick:
        return run_bench(
            queries=30, writes=8, import_runs=2, cold_runs=3, process_counts=(1, 2, 4, 8), process_seconds=0.2, progress=progress
        )
    return run_bench(progress=progress)


def render(report: BenchReport, as_json: bool) -> str:
    """The report as ``--json`` or as a table."""
    return json.dumps(report.to_json(), indent=2) if as_json else report.render()
