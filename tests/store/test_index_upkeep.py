"""The index kept current in place: own commits, other processes' writes, cold starts and tampering."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from contextlib import closing
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tact_memory import errors
from tact_memory.limits import PROBATION_MS, Limits
from tact_memory.records import RecordKey
from tact_memory.retrieval.bm25 import Index
from tact_memory.screening.checkpoint import CHECKPOINT_TEXT
from tact_memory.store import derived as stored
from tact_memory.store import index as index_module
from tact_memory.store import policy, schema
from tact_memory.store.sqlite import SCHEMA_VERSION, MemoryStore

from ..conftest import FakeClock

AWS_KEY = "AKIA" + "ABCDEFGHIJKLMNOP"
WORDS = ["deploy", "billing", "queue", "cache", "ruff", "postgres", "release", "schema", "vault", "index"]
QUERIES = ["deploy billing", "queue cache", "postgres release schema", "vault", "index ruff deploy"]


def scratch_ranking(db: Path, query: str) -> list[tuple[int, float]]:
    """The ranking an index built from scratch on the file's rows gives (visible rows only)."""
    with closing(sqlite3.connect(db)) as conn:
        found = conn.execute("SELECT id, version, content FROM memories ORDER BY id").fetchall()
    index = Index()
    index.sync((id_, version, content) for id_, version, content in found if stored.derive(content).hidden is None)
    return [(hit.id, hit.score) for hit in index.search(query, limit=5)]


def ranking(store: MemoryStore, query: str) -> list[tuple[int, float]]:
    return [(hit.id, hit.score) for hit in store._corpus.search(query, limit=5)]


def counting(store: MemoryStore) -> list[list[int]]:
    """Record every row fetch of the store's refresh."""
    fetched: list[list[int]] = []
    derivable = store._derivable

    def logged(conn: sqlite3.Connection, ids: Sequence[int]) -> list[tuple[int, str, object]]:
        fetched.append(list(ids))
        return derivable(conn, ids)

    store._derivable = logged  # type: ignore[method-assign]
    return fetched


OPS = st.lists(
    st.tuples(
        st.sampled_from(["put", "replace", "delete", "prune"]),
        st.booleans(),  # by the other process
        st.lists(st.sampled_from(WORDS), min_size=1, max_size=6),
        st.integers(min_value=0, max_value=50),
    ),
    max_size=14,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=OPS)
def test_an_index_kept_in_place_ranks_exactly_like_one_built_from_scratch(tmp_path_factory: pytest.TempPathFactory, ops: list[tuple[str, bool, list[str], int]]) -> None:
    db = tmp_path_factory.mktemp("upkeep") / "memory" / "v1.sqlite3"
    clock = FakeClock()
    mine, other = MemoryStore(db, clock=clock), MemoryStore(db, clock=clock)
    try:
        for n, (op, by_other, words, pick) in enumerate(ops):
            store = other if by_other else mine
            live = [r.key for r in store.list_records(order="id")]
            text = f"note {n}: " + " ".join(words)
            try:
                if op == "put" or not live:
                    store.put(text)
                elif op == "replace":
                    key = live[pick % len(live)]
                    store.put(text, replace=key)
                elif op == "delete":
                    store.delete(live[pick % len(live)])
                else:  # a prune, as a put at the row bound makes it: delete behind the store's back
                    with closing(sqlite3.connect(db)) as conn, conn:
                        conn.execute("DELETE FROM memories WHERE id = ?", (live[pick % len(live)].id,))
                        conn.execute("UPDATE meta SET value = value + 1 WHERE key = 'generation'")
            except errors.Duplicate:
                pass
            mine.scan("note")  # brings `mine` up to date the way a model's call would
            for query in QUERIES:
                assert ranking(mine, query) == scratch_ranking(db, query)
    finally:
        mine.close()
        other.close()


def test_the_first_scan_after_an_own_write_does_no_refresh_work(db_path: Path, clock: FakeClock) -> None:
    with MemoryStore(db_path, clock=clock) as store:
        for i in range(5):
            store.put(f"the service{i} deploys on fridays")
        store.scan("deploys")
        fetched = counting(store)
        listed: list[str] = []
        store._conn.set_trace_callback(listed.append)  # type: ignore[union-attr]
        key = store.put("the billing service pins postgres 16").memory.key
        store.put("the billing service pins postgres 17", replace=key)
        store.delete(RecordKey(key.id, 2))
        listed.clear()
        assert [c.preview for c in store.scan("service deploys")][:1]
        assert fetched == [] and store._corpus.derivations == 0
        assert not any("SELECT id, version FROM memories" in sql for sql in listed)  # not even the listing


def test_a_rolled_back_mutation_leaves_the_index_as_the_file(db_path: Path, clock: FakeClock) -> None:
    with MemoryStore(db_path, clock=clock) as store:
        store.put("the queue is redis")
        with pytest.raises(errors.Duplicate):
            store.put("The queue is Redis")
        assert [c.preview for c in store.scan("queue")] == ["the queue is redis"]
        assert ranking(store, "queue") == scratch_ranking(db_path, "queue")


def test_after_another_process_writes_only_the_changed_row_is_fetched(db_path: Path, clock: FakeClock) -> None:
    with MemoryStore(db_path, clock=clock) as mine, MemoryStore(db_path, clock=clock) as other:
        for i in range(20):
            mine.put(f"the service{i} deploys on fridays")
        mine.scan("deploys")
        fetched = counting(mine)
        new = other.put("the billing service pins postgres 16").memory.key
        other.delete(RecordKey(3, 1))
        assert [c.key for c in mine.scan("postgres")] == [new]
        assert fetched == [[new.id]] and mine._corpus.derivations == 0
        assert mine._corpus.version_of(3) is None


def filled(db: Path, clock: FakeClock, n: int = 30) -> None:
    with MemoryStore(db, clock=clock) as store:
        for i in range(n):
            store.put(f"the service{i} deploys its release on friday {i}")


def test_a_cold_store_over_a_derived_file_neither_screens_nor_tokenizes(db_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    filled(db_path, clock)
    calls: list[str] = []
    derive = stored.derive

    def logged(content: str) -> stored.Derived:
        calls.append(content)
        return derive(content)

    monkeypatch.setattr(stored, "derive", logged)
    with MemoryStore(db_path, clock=clock) as cold:
        cards = cold.scan("service7 release")
        assert cards[0].preview.startswith("the service7 deploys")
        assert calls == [] and cold._corpus.derivations == 0 and cold._index.tokenizations == 0


def test_a_new_rule_set_derives_every_row_once_and_hides_what_it_matches(db_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    filled(db_path, clock, 5)
    monkeypatch.setattr(stored, "rules", lambda: "a newer rule set")
    newer = policy.hidden_reason
    monkeypatch.setattr(stored, "hidden_reason", lambda c: "newer_rule" if "service2 " in c else newer(c))
    monkeypatch.setattr(index_module, "hidden_reason", lambda c: "newer_rule" if "service2 " in c else newer(c))
    with MemoryStore(db_path, clock=clock) as first:
        assert "service2" not in " ".join(c.preview for c in first.scan("service2 release"))
        assert first._corpus.derivations == 5
    with MemoryStore(db_path, clock=clock) as second:  # the first kept what it derived
        assert "service2" not in " ".join(c.preview for c in second.scan("service2 release"))
        assert second._corpus.derivations == 0 and not second._corpus.visible(3)


@pytest.mark.parametrize("hostile", [f"the deploy key is {AWS_KEY}", CHECKPOINT_TEXT])
def test_a_tampered_stored_verdict_cannot_serve_a_secret_or_an_imitation(db_path: Path, clock: FakeClock, hostile: str) -> None:
    filled(db_path, clock, 5)
    with closing(sqlite3.connect(db_path)) as conn, conn:
        # Row 2's content becomes hostile, its stored verdict still says visible and its terms match.
        (text,) = conn.execute("SELECT derived FROM memories WHERE id = 2").fetchone()
        tampered = text.replace('"the ', '"deploy key review ')
        conn.execute("UPDATE memories SET content = ?, derived = ? WHERE id = 2", (hostile, tampered))
    with MemoryStore(db_path, clock=clock) as cold:
        assert cold._corpus.derivations == 0
        cards = cold.scan("deploy key review")
        assert all(c.key.id != 2 for c in cards) and cards
        assert cold.read([2]) == []
        assert cold.scan("deploy key review") == cards  # and it left the ranking
        assert cold.status().hidden == 1


@pytest.mark.parametrize(
    "damage",
    ["not json", '["x"]', "[1, 2, 3, 4, 5]", None, "[" * 100_000 + "]" * 100_000, "[1" + "0" * 5_000 + "]"],
    ids=["not-json", "short", "numbers", "null", "deep", "digits"],
)
def test_a_malformed_derived_value_is_derived_again(db_path: Path, clock: FakeClock, damage: str | None) -> None:
    filled(db_path, clock, 3)
    with closing(sqlite3.connect(db_path)) as conn, conn:
        conn.execute("UPDATE memories SET derived = ? WHERE id = 1", (damage,))
    with MemoryStore(db_path, clock=clock) as cold:
        assert [c.key.id for c in cold.scan("service0 friday")][:1] == [1]
        assert cold._corpus.derivations == 1


def v1_file(db: Path, contents: list[str]) -> None:
    """A file as version 1 of the schema made it."""
    db.parent.mkdir(parents=True, exist_ok=True)
    with closing(sqlite3.connect(db, isolation_level=None)) as conn:
        schema.m001_create_memories(conn)
        for text in contents:
            conn.execute(
                "INSERT INTO memories (version, content, created_at_ms, updated_at_ms) VALUES (1, ?, 0, 0)", (text,)
            )
        conn.execute("UPDATE meta SET value = ? WHERE key = 'generation'", (len(contents),))
        conn.execute("PRAGMA user_version = 1")


def test_a_version_1_file_is_read_untouched_then_migrated_by_the_first_write(db_path: Path, clock: FakeClock) -> None:
    v1_file(db_path, ["the queue is redis", f"the deploy key is {AWS_KEY}", "use ruff for lint"])
    before = db_path.read_bytes()
    with MemoryStore(db_path, clock=clock) as reader:
        assert [r.content for r in reader.list_records(order="id")][0] == "the queue is redis"
        assert reader.status().hidden == 1
    assert db_path.read_bytes() == before  # people's views do not migrate
    with MemoryStore(db_path, clock=clock) as store:
        assert [c.preview for c in store.scan("queue")] == ["the queue is redis"]
        with closing(sqlite3.connect(db_path)) as conn:
            assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 3
            assert schema.schema_of(conn) == schema.expected_schema(SCHEMA_VERSION)
            kept = [stored.decode(d, 1) for (d,) in conn.execute("SELECT derived FROM memories ORDER BY id")]
        assert [d is not None and d.hidden for d in kept] == [None, "aws_access_key", None]
        assert store.read([2]) == []
    with MemoryStore(db_path, clock=clock) as cold:
        assert [c.preview for c in cold.scan("ruff")] == ["use ruff for lint"] and cold._corpus.derivations == 0


def test_rows_an_own_put_prunes_leave_the_index_with_the_commit(db_path: Path, clock: FakeClock) -> None:
    with MemoryStore(db_path, clock=clock, limits=Limits(rows=3)) as store:
        for i in range(3):
            store.put(f"the release{i} queue drains on friday")
        store.scan("queue")
        clock.advance(PROBATION_MS + 1)
        fetched = counting(store)
        store.put("the billing queue is redis")  # prunes the oldest expired probation row
        assert store._corpus.version_of(1) is None
        assert ranking(store, "queue friday redis") == scratch_ranking(db_path, "queue friday redis")
        store.scan("queue")
        assert fetched == []
