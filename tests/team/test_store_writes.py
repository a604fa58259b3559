"""What one team put costs: the namespace lock and one write statement, plus one record indexed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tact_memory import errors
from tact_memory.store.postgres import PostgresStore


@pytest.fixture
def statements(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every statement the stores send from here on (the text, without its values)."""
    import psycopg

    sent: list[str] = []
    execute = psycopg.Connection.execute

    def recording(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
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
