"""Real processes at once: no acknowledged write lost, no raw lock error, one winner per version (I7, I8).

``TACT_LOAD_WORKERS`` (default 8) processes each make ``TACT_LOAD_OPS`` (default 100) tool calls.
The defaults keep the run near 10 s on two cores; raise ``TACT_LOAD_OPS`` for a longer soak.
"""

from __future__ import annotations

import multiprocessing
import os
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tact_memory.records import RecordKey
from tact_memory.store.sqlite import MemoryStore

from .helpers import integrity, sidecars
from .workers import SHARED_ID, contend_worker, load_worker

WORKERS = int(os.environ.get("TACT_LOAD_WORKERS", "8"))
LOAD_OPS = int(os.environ.get("TACT_LOAD_OPS", "100"))
ROUNDS = int(os.environ.get("TACT_CONTENTION_ROUNDS", "5"))


def expected_own_records(log: list[tuple[str, int, int, str]]) -> dict[int, tuple[int, str]]:
    """Replay one worker's acknowledged writes: the state its own records must be in."""
    state: dict[int, tuple[int, str]] = {}
    for kind, id_, version, content in log:
        if kind == "delete":
            del state[id_]
        else:
            state[id_] = (version, content)
    return state


@pytest.mark.slow
def test_mixed_load_loses_no_acknowledged_write(tmp_path: Path) -> None:
    """I7/I8 under load: every acknowledged put, replace and delete is in the final file; every
    failure is a named code; versions only grow; ids are never handed out twice."""
    path = str(tmp_path / "memory" / "v1.sqlite3")
    with MemoryStore(path) as store:
        assert store.put("shared contended record, version 1").memory.key == RecordKey(SHARED_ID, 1)
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(WORKERS) as pool:
        async_results = pool.starmap_async(load_worker, [(path, w, LOAD_OPS, 1000 + w) for w in range(WORKERS)])
        reports: list[dict[str, Any]] = async_results.get(timeout=900)

    violations = [f"worker {r['worker']}: {v}" for r in reports for v in r["violations"]]
    assert violations == []
    codes: Counter[str] = Counter()
    for report in reports:
        codes.update(report["codes"])
    assert set(codes) <= {"version_conflict", "unavailable"}, codes

    with MemoryStore(path) as store:
        stored = {r.key.id: (r.key.version, r.content) for r in store.list_records(order="id")}
    expected: dict[int, tuple[int, str]] = {}
    for report in reports:
        expected.update(expected_own_records(report["log"]))
    created = [id_ for report in reports for id_ in report["created"]]
    assert len(created) == len(set(created)), "an id was handed out twice"
    assert SHARED_ID not in created

    wins = sorted(win for report in reports for win in report["wins"])
    won_versions = [version for version, _ in wins]
    assert won_versions == list(range(2, 2 + len(wins))), "a shared version had zero or two winners"
    final_shared = wins[-1] if wins else (1, "shared contended record, version 1")
    assert stored.pop(SHARED_ID) == final_shared
    assert stored == expected, "an acknowledged write is missing or an unacknowledged one appeared"
    assert integrity(Path(path)) == "ok"
    assert sidecars(Path(path)) == []
    latencies = sorted(t for report in reports for t in report["latencies"])
    print(
        f"\nload: {WORKERS} processes x {LOAD_OPS} calls = {len(latencies)} calls, "
        f"latency p50 {latencies[len(latencies) // 2] * 1000:.0f} ms, "
        f"p95 {latencies[len(latencies) * 95 // 100] * 1000:.0f} ms, "
        f"max {latencies[-1]:.1f} s, "
        f"{sum(len(r['log']) for r in reports)} acknowledged own writes, {len(wins)} shared replacements won, "
        f"errors {dict(codes)}"
    )


@pytest.mark.slow
def test_contended_replacements_have_exactly_one_winner_per_version(tmp_path: Path) -> None:
    """I7: processes that all saw version v and all replace from it: one wins v+1, the rest are told
    the version that beat them; when all delete, one deletes and the rest find nothing."""
    path = str(tmp_path / "memory" / "v1.sqlite3")
    with MemoryStore(path) as store:
        store.put("contended record, version 1")
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(WORKERS)
    queue = ctx.Queue()
    procs = [ctx.Process(target=contend_worker, args=(path, w, ROUNDS, barrier, queue)) for w in range(WORKERS)]
    for proc in procs:
        proc.start()
    results = dict(queue.get(timeout=600) for _ in procs)
    for proc in procs:
        proc.join(timeout=60)
        assert proc.exitcode == 0

    for round_ in range(ROUNDS):
        outcomes = [results[w][round_] for w in range(WORKERS)]
        assert {seen for _, seen, _ in outcomes} == {round_ + 1}, "everyone read the same version"
        winners = [o for _, _, o in outcomes if isinstance(o, int)]
        losers = [o for _, _, o in outcomes if not isinstance(o, int)]
        assert winners == [round_ + 2]
        assert losers == [("version_conflict", round_ + 2)] * (WORKERS - 1)
    last = [results[w][ROUNDS][2] for w in range(WORKERS)]
    assert sorted(last) == ["deleted"] + ["not_found"] * (WORKERS - 1)
    with MemoryStore(path) as store:
        assert store.list_records() == []
    assert integrity(Path(path)) == "ok"
