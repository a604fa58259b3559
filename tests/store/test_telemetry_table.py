"""Telemetry in a table of its own (schema version 3): what a scan writes, and the migration to it.

A version-2 file kept telemetry in ``memories``. Migration 3 moves it to ``telemetry`` and rebuilds
``memories`` without it; every count, time and probation deadline must come through, the
``AUTOINCREMENT`` counter with them (an id is never handed out twice), and a cell a hand broke
must stay refused rather than be repaired or crash the migration.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tact_memory import errors
from tact_memory.store import schema
from tact_memory.store.sqlite import SCHEMA_VERSION, MemoryStore

from ..conftest import FakeClock

TELEMETRY = ("scan_count", "last_scanned_at_ms", "read_count", "last_read_at_ms", "probation_until_ms")


def v2_file(db: Path, rows: list[tuple[str, int, int | None, int, int | None, int | None]], *, deleted: int = 0) -> None:
    """A file as schema version 2 made it: ``rows`` of (content, scans, scanned at, reads, read at,
    probation until), after ``deleted`` records with higher ids were deleted."""
    db.parent.mkdir(parents=True, exist_ok=True)
    with closing(sqlite3.connect(db, isolation_level=None)) as conn:
        schema.m001_create_memories(conn)
        schema.m002_add_derived(conn)
        for content, *telemetry in rows:
            conn.execute(
                f"INSERT INTO memories (version, content, created_at_ms, updated_at_ms, {', '.join(TELEMETRY)})"
                " VALUES (1, ?, 10, 20, ?, ?, ?, ?, ?)",
                (content, *telemetry),
            )
        for i in range(deleted):
            conn.execute(
                "INSERT INTO memories (version, content, created_at_ms, updated_at_ms) VALUES (1, ?, 0, 0)", (f"gone {i}",)
            )
        conn.execute("DELETE FROM memories WHERE content LIKE 'gone %'")
        conn.execute("UPDATE meta SET value = ? WHERE key = 'generation'", (len(rows) + 2 * deleted,))
        conn.execute("PRAGMA user_version = 2")


def telemetry_of(db: Path) -> dict[int, tuple[object, ...]]:
    with closing(sqlite3.connect(db)) as conn:
        return {row[0]: row[1:] for row in conn.execute(f"SELECT memory_id, {', '.join(TELEMETRY)} FROM telemetry")}


ROWS = [
    ("the queue is redis", 4, 1_000, 2, 2_000, None),
    ("use ruff for lint", 0, None, 0, None, 9_000),
    ("deploys go out on friday", 7, 3_000, 0, None, 5_000),
]


def test_a_version_2_file_is_read_as_it_is_by_people_and_migrated_by_the_first_write(db_path: Path, clock: FakeClock) -> None:
    v2_file(db_path, ROWS, deleted=3)
    before = db_path.read_bytes()
    with MemoryStore(db_path, clock=clock) as reader:
        listed = reader.list_records(order="id")
        assert [(r.scan_count, r.last_scanned_at_ms, r.read_count, r.last_read_at_ms, r.probation_until_ms) for r in listed] == [
            tuple(row[1:]) for row in ROWS
        ]
        assert reader.get(3) == listed[2] and reader.status().on_probation == 2
    assert db_path.read_bytes() == before  # people's views do not migrate

    with MemoryStore(db_path, clock=clock) as store:
        assert store.list_records(order="id") == listed  # a people's view, before any write
        fresh = store.put("the cache is memcached")
        with closing(sqlite3.connect(db_path)) as conn:
            assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 3
            assert schema.schema_of(conn) == schema.expected_schema(SCHEMA_VERSION)
            columns = [row[1] for row in conn.execute("PRAGMA table_info(memories)")]
        assert columns == ["id", "version", "content", "created_at_ms", "updated_at_ms", "derived"]
        assert fresh.memory.key.id == 7  # after the three deleted ids, never one of them again
        assert store.list_records(order="id")[:3] == listed  # every count, time and deadline came through
        assert telemetry_of(db_path)[1] == (4, 1_000, 2, 2_000, None)


def test_a_version_2_file_with_no_record_keeps_its_counter(db_path: Path, clock: FakeClock) -> None:
    v2_file(db_path, [], deleted=5)
    with MemoryStore(db_path, clock=clock) as store:
        assert store.put("the first record after five deleted").memory.key.id == 6


def test_a_broken_telemetry_cell_stays_refused_after_the_migration(db_path: Path, clock: FakeClock) -> None:
    """The migration copies cells as they are: a text scan count is not repaired into a number, so
    the row is refused (naming its telemetry and the column, not the value) and the rows beside it
    are served."""
    v2_file(db_path, ROWS)
    with closing(sqlite3.connect(db_path)) as conn, conn:
        conn.execute("UPDATE memories SET scan_count = 'many' WHERE id = 2")
    with MemoryStore(db_path, clock=clock) as store:
        assert [c.key.id for c in store.scan("queue redis")] == [1]
        with pytest.raises(errors.StoreUnavailable) as refused:
            store.read([2])
        assert refused.value.reason == "malformed_row"
        assert "telemetry of row 2" in refused.value.message and "scan_count" in refused.value.message
        assert "many" not in refused.value.message
    assert telemetry_of(db_path)[2][0] == "many"


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    rows=st.lists(
        st.tuples(
            st.integers(0, 2**40), st.none() | st.integers(0, 2**40), st.integers(0, 2**40),
            st.none() | st.integers(0, 2**40), st.none() | st.integers(0, 2**40),
        ),  # fmt: skip
        max_size=12,
    ),
    deleted=st.integers(0, 4),
)
def test_the_migration_carries_every_telemetry_cell(
    rows: list[tuple[int, int | None, int, int | None, int | None]], deleted: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    db = tmp_path_factory.mktemp("v2") / "memory" / "v1.sqlite3"
    v2_file(db, [(f"record number {i} about topic{i}", *cells) for i, cells in enumerate(rows)], deleted=deleted)
    with MemoryStore(db) as store:
        before = store.list_records(order="id")
        new = store.put("a record written after the migration")
        assert new.memory.key.id == len(rows) + deleted + 1
        assert new.memory.scan_count == 0 and new.memory.probation_until_ms is not None
        assert store.list_records(order="id")[: len(rows)] == before
    assert telemetry_of(db) == {i + 1: cells for i, cells in enumerate(rows)} | {
        len(rows) + deleted + 1: (0, None, 0, None, new.memory.probation_until_ms)
    }


def test_a_scan_writes_no_page_that_holds_content(store: MemoryStore, db_path: Path) -> None:
    """The point of the table: a scan's telemetry commit carries only pages of ``telemetry`` (and
    none of ``memories``), so no content is copied into the WAL by a scan."""
    for i in range(40):
        store.put(f"service{i} deploys from the release{i} branch " + "with a long note " * 20)
    store.scan("service3")
    with closing(sqlite3.connect(db_path)) as conn:
        content_pages = {
            page for (page,) in conn.execute("SELECT pageno FROM dbstat WHERE name IN ('memories', 'memories_version')")
        }
    wal = Path(f"{db_path}-wal")
    frames_before = wal.stat().st_size
    assert [c.key.id for c in store.scan("service7 release7")][:1] == [8]
    data = wal.read_bytes()
    frame = 24 + 4096  # a frame header and a page of the store's size
    written = {int.from_bytes(data[at : at + 4], "big") for at in range(max(32, frames_before), len(data), frame)}
    assert written and not written & content_pages


def test_a_record_without_a_telemetry_row_reads_as_never_counted_and_gets_one(store: MemoryStore, db_path: Path) -> None:
    """A hand may delete a telemetry row: the record is served as never scanned or read, not on
    probation, and the next scan or read starts its row again."""
    store.put("the staging cluster is named aurora")
    with closing(sqlite3.connect(db_path)) as conn, conn:
        conn.execute("DELETE FROM telemetry")
    [record] = store.list_records(order="id")
    assert (record.scan_count, record.read_count, record.probation_until_ms) == (0, 0, None)
    assert [c.key.id for c in store.scan("staging aurora")] == [1]
    [read] = store.read([1])
    assert (read.scan_count, read.read_count) == (1, 1)
    assert telemetry_of(db_path)[1][0] == 1


def test_a_telemetry_row_left_for_an_unused_id_does_not_reach_the_record_that_gets_it(store: MemoryStore, db_path: Path) -> None:
    """A row planted for the next id (counts, an old read, no probation) is replaced by the new
    record's own telemetry when the put writes it."""
    store.put("the staging cluster is named aurora")
    with closing(sqlite3.connect(db_path)) as conn, conn:
        conn.execute("INSERT INTO telemetry VALUES (2, 999, 1, 999, 1, NULL)")
    made = store.put("the billing queue is redis").memory
    assert made.key.id == 2 and (made.scan_count, made.read_count) == (0, 0)
    assert made.probation_until_ms is not None


def test_delete_and_replace_take_the_telemetry_row_with_the_version(store: MemoryStore, db_path: Path) -> None:
    first = store.put("the staging cluster is named aurora").memory
    second = store.put("the billing queue is redis").memory
    store.scan("aurora redis")
    store.read([1, 2])
    replaced = store.put("the staging cluster is named borealis", replace=first.key).memory
    assert (replaced.scan_count, replaced.read_count, replaced.last_read_at_ms) == (0, 0, None)
    store.delete(second.key)
    assert set(telemetry_of(db_path)) == {1}
    assert telemetry_of(db_path)[1][0] == 0


def test_a_view_open_on_a_version_2_file_follows_its_migration_by_another_store(db_path: Path, clock: FakeClock) -> None:
    """A browser that opened the file before an upgraded session's first write migrated it keeps
    listing: each view reads the schema the file has in its own read transaction."""
    v2_file(db_path, ROWS)
    with MemoryStore(db_path, clock=clock) as browser, MemoryStore(db_path, clock=clock) as session:
        before = browser.list_records(order="id")
        assert browser.get(1) == before[0]
        session.scan("queue redis")  # the first write: migrates the file
        after = browser.list_records(order="id")
        assert [r.key for r in after] == [r.key for r in before]
        assert after[0].scan_count == before[0].scan_count + 1 and after[1:] == before[1:]
        assert browser.get(1) == after[0]
        assert [c.key.id for c in browser.scan("deploys friday")] == [3]  # and its own writes work
