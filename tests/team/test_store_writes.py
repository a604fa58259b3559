"""What one team put costs: the namespace lock and one write statement, plus one record indexed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tact_memory import errors
from tact_memory.limits import Limits
from tact_memory.store.postgres import PostgresStore

from ..conftest import FakeClock


@pytest.fixture
def statements(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every statement the stores send from here on (the text, without its values); the empty query
    by which the pool checks a connection before handing it out is the pool's, and not listed."""
    import psycopg

    sent: list[str] = []
    execute = psycopg.Connection.execute

    def recording(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        if str(query):
            sent.append(" ".join(str(query).split()))
        return execute(self, query, *args, **kwargs)

    monkeypatch.setattr(psycopg.Connection, "execute", recording)
    yield sent


def test_a_put_is_two_statements_and_indexes_one_record(pg_database: str, admin: Any, statements: list[str]) -> None:
    with PostgresStore(pg_database, namespace="alice") as alice, PostgresStore(pg_database, namespace="bob") as bob:
        for i in range(40):
            alice.put(f"alice note {i}: the deploy of service {i} needs approval {i * 7}")
            bob.put(f"bob note {i}: the cache of service {i} expires after {i * 3} minutes")
        assert alice.scan("deploy approval", limit=3)
        indexed = alice._index.tokenizations
        statements.clear()
        put = alice.put("the billing-api deploys need two approvals")
        assert len(statements) == 2, statements  # the lock, then the write with its generation
        assert statements[0].startswith("SELECT generation FROM generations") and "FOR UPDATE" in statements[0]
        assert statements[1].startswith("WITH written AS (INSERT INTO memories")
        assert alice._index.tokenizations == indexed + 1  # the new record only, no corpus re-read
        statements.clear()
        alice.delete(put.memory.key)
        assert len(statements) == 2, statements
        statements.clear()
        # The next scan finds the cache current: it reads the generations, not the records.
        alice.scan("billing approvals", limit=3)
        assert not any("SELECT id, namespace, version, content" in s for s in statements)
        assert alice._index.tokenizations == indexed + 1



def test_only_a_put_that_needs_room_reads_the_rows_and_a_refusal_names_the_namespace(
    pg_database: str, admin: Any, statements: list[str], clock: FakeClock
) -> None:
    limits = Limits(rows=2, content_bytes=100)
    with PostgresStore(pg_database, namespace="alice", limits=limits, clock=clock) as alice:
        alice.put("a" * 30)  # unread: expires
        kept = alice.put("b" * 30).memory.key
        alice.read([kept.id])
        clock.advance(limits.probation_ms)
        statements.clear()
        new = alice.put("c" * 30).memory.key  # the row bound: the expired row goes
        assert len(statements) == 4, statements  # the lock, the rows' ages, the prune, the write
        assert statements[1].startswith("SELECT id, octet_length(content), updated_at_ms, probation_until_ms")
        alice.read([new.id])
        with pytest.raises(errors.RecordCapacity) as rows_full:
            alice.put("a fourth fact about queues")
        assert str(rows_full.value) == (
            "namespace 'alice' holds its maximum of 2 records and none is an expired, unread probation record; "
            "delete or replace a record first"
        )
        with pytest.raises(errors.ContentCapacity) as bytes_full:
            alice.put("d" * 71, replace=kept)
        assert str(bytes_full.value) == (
            "this would bring the content of namespace 'alice' to 101 bytes, over the 100-byte limit; "
            "delete or shorten records first"
        )

def test_a_put_sees_what_another_store_committed_in_its_namespace(pg_database: str, admin: Any) -> None:
    with PostgresStore(pg_database, namespace="alice") as first, PostgresStore(pg_database, namespace="alice") as second:
        first.put("the release train leaves on tuesdays")
        assert first.scan("release train", limit=3)
        made = second.put("staging resets every night at two")
        # first's cache is older than the namespace: the lock's generation makes it reread before checking.
        with pytest.raises(errors.Duplicate):
            first.put("  Staging resets EVERY night at two")
        updated = first.put("staging resets every night at three", replace=made.memory.key)
        assert updated.memory.key.version == 2
        with pytest.raises(errors.VersionConflict):
            second.delete(made.memory.key)
        assert [c.key.id for c in second.scan("staging resets night", limit=3)] == [made.memory.key.id]
        assert second.read([made.memory.key.id])[0].content == "staging resets every night at three"
