"""Several processes on one database: nothing acknowledged is lost, one winner per version."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import pytest

from tact_memory import errors
from tact_memory.records import RecordKey
from tact_memory.store.sqlite import MemoryStore


def writer(path: str, worker: int, count: int) -> list[tuple[int, str]]:
    """Put ``count`` distinct records, scanning in between; return what was acknowledged."""
    acknowledged = []
    with MemoryStore(path) as store:
        for i in range(count):
            content = f"worker {worker} fact {i}: service w{worker}n{i} listens on port {1000 + i}"
            key = store.put(content).memory.key
            acknowledged.append((key.id, content))
            store.scan(f"w{worker}n{i} port")
    return acknowledged


def replacer(path: str, worker: int, attempts: int) -> list[int]:
    """Try to replace record 1 from the version last seen; return the versions this worker created."""
    won = []
    with MemoryStore(path) as store:
        for i in range(attempts):
            [current] = store.read([1])
            try:
                result = store.put(f"contended value from worker {worker} attempt {i}", replace=current.key)
            except errors.VersionConflict:
                continue
            won.append(result.memory.key.version)
    return won


@pytest.mark.slow
def test_concurrent_writers_lose_nothing(tmp_path: Path) -> None:
    path = str(tmp_path / "memory" / "v1.sqlite3")
    with MemoryStore(path) as store:
        store.put("the contended record, version 1")
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(6) as pool:
        writes = pool.starmap_async(writer, [(path, w, 25) for w in range(3)])
        replaces = pool.starmap_async(replacer, [(path, w, 25) for w in range(3)])
        acknowledged = [item for chunk in writes.get(timeout=300) for item in chunk]
        won = [v for chunk in replaces.get(timeout=300) for v in chunk]
    with MemoryStore(path) as store:
        stored = {r.key.id: r for r in store.list_records(order="id")}
    for id_, content in acknowledged:
        assert stored[id_].content == content
    assert len({id_ for id_, _ in acknowledged}) == len(acknowledged) == 75
    assert sorted(won) == list(range(2, 2 + len(won)))  # exactly one winner per version
    assert stored[1].key == RecordKey(1, 1 + len(won))
