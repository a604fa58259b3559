"""First use of a new corpus by many processes and threads at once: every put is kept (I18).

Each trial points every worker at the same missing database and releases them together, so they
race to create the folder, the file and its schema. ``TACT_FIRST_USE_TRIALS`` (default 24) sets
the number of trials; each has ``TACT_FIRST_USE_WORKERS`` (default 8) processes.
"""

from __future__ import annotations

import multiprocessing
import os
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from tact_memory import errors
from tact_memory.store.sqlite import MemoryStore

from .helpers import integrity, raw_rows
from .workers import first_use_worker

TRIALS = int(os.environ.get("TACT_FIRST_USE_TRIALS", "24"))
WORKERS = int(os.environ.get("TACT_FIRST_USE_WORKERS", "8"))


@pytest.mark.slow
def test_processes_meeting_a_missing_file_all_keep_their_put(tmp_path: Path) -> None:
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(WORKERS)
    queue = ctx.Queue()
    procs = [
        ctx.Process(target=first_use_worker, args=(str(tmp_path), w, TRIALS, barrier, queue)) for w in range(WORKERS)
    ]
    for proc in procs:
        proc.start()
    outcomes = dict(queue.get(timeout=300) for _ in procs)
    for proc in procs:
        proc.join(timeout=60)
        assert proc.exitcode == 0
    failures = [(w, o) for w, items in outcomes.items() for o in items if o[1] is None]
    assert failures == []
    for trial in range(TRIALS):
        db = tmp_path / f"trial{trial}" / "memory" / "v1.sqlite3"
        acknowledged = {id_: content for items in outcomes.values() for t, id_, content in items if t == trial}
        assert len(acknowledged) == WORKERS  # one id each, none handed out twice
        assert {i: c for i, (_, c) in raw_rows(db).items()} == acknowledged
        assert integrity(db) == "ok"


def test_threads_meeting_a_missing_file_all_keep_their_put(tmp_path: Path) -> None:
    """The same race inside one process: each thread has its own store (its own connection)."""
    for trial in range(6):
        path = tmp_path / f"trial{trial}" / "memory" / "v1.sqlite3"
        barrier = threading.Barrier(WORKERS)
        results: dict[int, object] = {}

        def work(worker: int) -> None:
            content = f"thread trial {trial}: worker {worker} owns port {4000 + worker}"
            barrier.wait(timeout=60)
            with MemoryStore(path) as store:
                try:
                    results[worker] = (store.put(content).memory.key.id, content)
                except errors.TactMemoryError as exc:
                    results[worker] = exc.message

        threads = [threading.Thread(target=work, args=(w,)) for w in range(WORKERS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert all(isinstance(r, tuple) for r in results.values()), results
        acknowledged = dict(r for r in results.values() if isinstance(r, tuple))
        assert len(acknowledged) == WORKERS
        assert {i: c for i, (_, c) in raw_rows(path).items()} == acknowledged


def test_a_schema_created_between_two_reads_of_the_opener_is_seen_whole(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The interleaving behind the race, made certain: just as the first store starts reading the
    schema of the file it found empty, a second store tries to create the schema and put. The
    second must wait for the first (one transaction holds both reads and the migration), and
    both puts are kept; neither store calls the file foreign."""
    real_connect = sqlite3.connect
    traced: list[sqlite3.Connection] = []
    others: list[threading.Thread] = []
    outcomes: list[object] = []

    def put_from_another_store() -> None:
        with MemoryStore(db_path) as other:
            try:
                outcomes.append(other.put("written by the second store").memory.key.id)
            except errors.TactMemoryError as exc:
                outcomes.append(exc.message)

    def trace(sql: str) -> None:
        if "sqlite_master" in sql and not others:
            others.append(threading.Thread(target=put_from_another_store))
            others[0].start()
            others[0].join(timeout=0.5)  # long enough for it to finish, unless it has to wait

    def connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        conn = real_connect(*args, **kwargs)
        if not traced:
            traced.append(conn)
            conn.set_trace_callback(trace)
        return conn

    monkeypatch.setattr(sqlite3, "connect", connect)
    with MemoryStore(db_path) as first:
        key = first.put("written by the first store").memory.key
    others[0].join(timeout=30)
    assert len(outcomes) == 1 and isinstance(outcomes[0], int), outcomes
    assert sorted(c for _, c in raw_rows(db_path).values()) == ["written by the first store", "written by the second store"]
    assert key.id != outcomes[0]
