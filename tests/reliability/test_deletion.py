"""Deletion hygiene: deleted and replaced text is gone from every file in the memory folder (I12).

``secure_delete`` overwrites freed content in the main file, and after every removal the WAL is
checkpointed and truncated to nothing, so after an acknowledged delete, replacement or prune the old
text must not be found in the raw bytes of any file in the folder, ``-wal`` and ``-shm`` included. This is what can be checked
from inside the process; it is not proof of erasure from the disk (see the README, "Guarantees and limits").
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from tact_memory import errors
from tact_memory.limits import PROBATION_MS, Limits
from tact_memory.records import RecordKey
from tact_memory.retrieval.bm25 import count_terms
from tact_memory.store.sqlite import MemoryStore
from tact_memory.tool.guard import Dispatcher, Role

from ..conftest import FakeClock
from .helpers import ROOT, grep_folder, raw_folder_bytes, wal_holds_no_row

GUARANTEES = ROOT / "README.md"  # the "Guarantees and limits" section


def canary(n: int) -> str:
    """Text that occurs nowhere else: a record's unique marker for the byte search."""
    return f"canary{n:05d}qv"


def record_text(n: int, rng: random.Random) -> str:
    words = ["deploy", "cache", "index", "ledger", "queue", "schema"]
    filler = " ".join(rng.choice(words) for _ in range(rng.randint(2, 120)))
    return f"{canary(n)} the build of service{n} needs {filler}"[:1024]


def stored_terms(text: str) -> str:
    """The text's search terms as its row keeps them (the ``derived`` column): derived from the
    content, so they must leave the file with it."""
    return " ".join(count_terms(text).elements())


def assert_gone(db: Path, text: str) -> None:
    """Neither the text, its unique marker nor its stored terms are in any file of the folder, and
    the WAL holds no frame of a row."""
    assert grep_folder(db, canary_of(text)) == []
    assert grep_folder(db, text) == []
    assert grep_folder(db, stored_terms(text)) == []
    assert wal_holds_no_row(db)


def canary_of(text: str) -> str:
    return text.split()[0]


def test_deleted_text_is_not_in_any_file(store: MemoryStore, db_path: Path) -> None:
    """I12: after delete, the content is in neither the main file nor a sidecar."""
    keep = store.put("canary00001qv stays: the api repository pins Python 3.12").memory.key
    gone = store.put("canary00002qv goes: the billing service listens on port 8443").memory.key
    store.read([gone.id])
    store.scan("billing service")  # telemetry writes touch the same page
    assert grep_folder(db_path, "canary00002qv") != []  # the search does find live text (file or WAL)
    assert grep_folder(db_path, stored_terms("canary00002qv goes: the billing service listens on port 8443")) != []
    store.delete(gone)
    assert_gone(db_path, "canary00002qv goes: the billing service listens on port 8443")
    assert grep_folder(db_path, "canary00001qv") == ["v1.sqlite3"]  # checkpointed into the file
    assert [r.key for r in store.list_records()] == [keep]


def test_replaced_text_is_not_in_any_file(store: MemoryStore, db_path: Path) -> None:
    """I12: a replacement leaves no copy of the old version's content."""
    key = store.put("canary00003qv the docs site builds with mkdocs " + "old detail " * 60).memory.key
    store.put("canary00004qv the docs site builds with mkdocs-material 9", replace=key)
    assert_gone(db_path, "canary00003qv the docs site builds with mkdocs")
    assert grep_folder(db_path, "canary00004qv") == ["v1.sqlite3"]


def test_pruned_text_is_not_in_any_file(make_store: Callable[..., MemoryStore], clock: FakeClock, db_path: Path) -> None:
    """I9/I12: an expired unread record pruned to make room leaves no copy either."""
    store = make_store(limits=Limits(rows=2))
    store.put("canary00005qv unread fact about the logging pipeline")
    store.put("canary00006qv read fact about metrics")
    store.read([2])
    clock.advance(PROBATION_MS)
    store.put("canary00007qv new fact about tracing")
    assert_gone(db_path, "canary00005qv unread fact about the logging pipeline")


def test_deleted_record_never_returns_to_a_scan_after_a_refused_put(
    make_store: Callable[..., MemoryStore], clock: FakeClock
) -> None:
    """I9/I12: a put refused at the content bound prunes inside its transaction and rolls back; the
    in-process index must not keep that uncommitted view, or a later scan would show a deleted
    record's text and miss a live one."""
    store = make_store(limits=Limits(content_bytes=1_500))
    first = store.put("filler alpha note").memory.key
    live = store.put("filler beta note").memory.key
    clock.advance(PROBATION_MS)  # both unread and expired: prunable
    store.delete(first)
    gone = store.put("filler gamma " + "x" * 740).memory.key
    with pytest.raises(errors.ContentCapacity):
        store.put("filler delta " + "y" * 740)  # prunes "beta" in its transaction, then rolls back
    store.delete(gone)
    cards = store.scan("filler")
    assert [c.key for c in cards] == [live]
    assert all("gamma" not in c.preview for c in cards)


def test_deletes_through_the_tool_leave_nothing(store: MemoryStore, db_path: Path) -> None:
    """I12 through the tool an agent uses: delete by id and version, then search the bytes."""
    tool = Dispatcher(store, role=Role.ROOT)
    tool.call({"operation": "scan", "query": "x"})
    put = tool.call({"operation": "put", "content": "canary00008qv In the web repository, use pnpm 9"})
    key = put["memory"]["key"]
    assert tool.call({"operation": "delete", **key}) == {"operation": "delete", "id": key["id"]}
    assert_gone(db_path, "canary00008qv In the web repository, use pnpm 9")


@pytest.mark.slow
def test_random_workload_never_leaves_old_text(make_store: Callable[..., MemoryStore], db_path: Path) -> None:
    """I12 under churn: hundreds of puts, replacements and deletes that split and merge pages;
    after each commit every retired text is absent from every file and every live one present."""
    rng = random.Random(5)
    store = make_store()
    live: dict[int, tuple[int, str]] = {}
    retired: list[str] = []
    for n in range(400):
        action = rng.choices(["put", "replace", "delete"], weights=[5, 3, 2])[0] if live else "put"
        text = record_text(n, rng)
        if action == "put" or len(live) < 3:
            key = store.put(text).memory.key
            live[key.id] = (key.version, text)
        else:
            id_ = rng.choice(sorted(live))
            version, old = live.pop(id_)
            if action == "replace":
                key = store.put(text, replace=RecordKey(id_, version)).memory.key
                live[id_] = (key.version, text)
            else:
                store.delete(RecordKey(id_, version))
            retired.append(old)
        if n % 50 == 49:
            data = b"".join(raw_folder_bytes(db_path).values())
            assert [t for t in retired if canary_of(t).encode() in data] == []
            assert all(canary_of(t).encode() in data for _, t in live.values())
            if action != "put":
                assert wal_holds_no_row(db_path)
    assert len(retired) > 100


@pytest.mark.slow
def test_a_delete_returns_with_its_text_gone_while_another_process_removes_records(db_path: Path) -> None:
    """Two processes removing records together: each scrub's checkpoint can meet the other's, which
    SQLite refuses at once rather than waiting for; every delete here must still return with its
    text in no file of the folder (:func:`tact_memory.store.hygiene.checkpoint` waits its turn)."""
    import multiprocessing

    from .workers import replacing_worker

    rng = random.Random(11)
    store = MemoryStore(db_path)
    store.put("the first record, so the folder and the file exist before the worker opens them")
    ctx = multiprocessing.get_context("spawn")
    started, stop = ctx.Event(), ctx.Event()
    worker = ctx.Process(target=replacing_worker, args=(str(db_path), started, stop))
    worker.start()
    try:
        assert started.wait(60)
        left = []
        for n in range(120):
            text = record_text(n, rng)
            key = store.put(text).memory.key
            store.delete(key)
            if grep_folder(db_path, canary_of(text)):
                left.append(n)
    finally:
        stop.set()
        worker.join(60)
        store.close()
    assert worker.exitcode == 0
    assert left == []


def test_guarantees_describe_deletion_honestly() -> None:
    """I12: the documentation says removal from retrieval, names what keeps copies, claims no erasure."""
    text = GUARANTEES.read_text(encoding="utf-8")
    lowered = text.lower()
    for where in ("ssd", "wear", "snapshot", "backup", "transcript", "provider"):
        assert where in lowered, where
    assert "removed from retrieval" in lowered or "removes it from retrieval" in lowered
    for claim in ("securely erased", "permanently erased", "permanently deleted", "wiped", "irrecoverable", "shredded"):
        assert claim not in lowered, claim
