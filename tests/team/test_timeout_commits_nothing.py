"""A request answered ``timeout`` changed nothing, and a change that committed is answered with it.

The worker thread of a timed-out request is not stopped by the answer; what keeps the two
consistent is the request's deadline (:mod:`tact_memory.deadline`): every statement of its
transaction is bounded by the time left, and the transaction rolls back rather than commit late.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from tact_memory import errors
from tact_memory.deadline import Deadline, current, under
from tact_memory.store.postgres import unavailable
from tact_memory.team.app import _sync
from tact_memory.team.gate import Gate, Refused

from .conftest import Service, start_service, stop_service
from .test_request_limits import MCP_HEADERS, blocked_on_tokens, mcp_initialize, wait_for_waiters

TIMEOUT_S = 3.0


@pytest.fixture(scope="module")
def slow(pg_database: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    service = start_service(pg_database, tmp_path_factory.mktemp("slow"), "--timeout", f"{TIMEOUT_S:g}")
    yield service
    stop_service(service)


def holding_namespace(dsn: str, namespace: str) -> Any:
    """A transaction holding the namespace's generation row, as a concurrent change would."""
    import psycopg

    conn = psycopg.connect(dsn)
    assert conn.execute("SELECT 1 FROM generations WHERE namespace = %s FOR UPDATE", (namespace,)).fetchone()
    return conn


def stored(admin: Any, content: str) -> int:
    return int(admin.execute("SELECT count(*) FROM memories WHERE content = %s", (content,)).fetchone()[0])


def mcp_put(service: Service, token: str, content: str) -> Callable[[], Any]:
    opened = mcp_initialize(service, token)
    assert opened.status_code == 200, opened.text
    headers = {**MCP_HEADERS, "mcp-session-id": opened.headers["mcp-session-id"], "mcp-protocol-version": "2025-06-18"}
    service.call("POST", "/mcp", token, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=headers)
    scan = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "memory", "arguments": {"operation": "scan", "query": "late"}}}
    assert service.call("POST", "/mcp", token, json=scan, headers=headers).status_code == 200
    put = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "memory", "arguments": {"operation": "put", "content": content}}}
    return lambda: service.call("POST", "/mcp", token, json=put, headers=headers, timeout=30)


def seeded_put(service: Service, token: str, route: str, content: str) -> Callable[[], Any]:
    """A put of ``content`` by ``route`` to send later, into a namespace that already holds a record."""
    assert service.call("POST", "/v1/put", token, json={"content": f"the seed of {route}"}).status_code == 200
    if route == "mcp":
        return mcp_put(service, token, content)
    return lambda: service.call("POST", "/v1/put", token, json={"content": content}, timeout=30)


@pytest.mark.parametrize("route", ["json", "mcp"])
def test_a_put_that_times_out_waiting_never_commits_later(
    slow: Service, pg_database: str, admin: Any, make_token: Callable[..., str], route: str
) -> None:
    """The put waits 1 s at authentication, then on a concurrent change of its namespace that
    ends after the request timeout. Answered ``timeout``, it must not land when the lock frees."""
    namespace = f"late-{route}"
    content = f"the {route} put answered timeout must never be stored"
    send = seeded_put(slow, make_token(namespace), route, content)
    tokens = blocked_on_tokens(pg_database)
    rows = holding_namespace(pg_database, namespace)
    try:
        with ThreadPoolExecutor(1) as pool:
            started = time.monotonic()
            answer = pool.submit(send)
            wait_for_waiters(admin, 1)  # at authentication
            time.sleep(1.0)
            tokens.rollback()
            wait_for_waiters(admin, 1)  # now at the namespace's lock, with ~2 s of the timeout left
            time.sleep(max(0.0, started + TIMEOUT_S + 0.5 - time.monotonic()))
            rows.rollback()  # the lock frees after the request timed out
            result = answer.result()
    finally:
        tokens.close()
        rows.close()
    assert result.status_code == 504 and result.json()["error"]["code"] == "timeout", result.text
    time.sleep(1.0)  # time for a worker that had kept going to commit
    assert stored(admin, content) == 0


@pytest.mark.parametrize("route", ["json", "mcp"])
def test_a_put_the_database_cancels_is_answered_timeout_on_both_routes(
    slow: Service, pg_database: str, admin: Any, make_token: Callable[..., str], route: str
) -> None:
    """The database's clock and the gate's run out at the same deadline, and either may be first.
    Here the database stops the waiting statement long before the deadline (a cancel raises what
    its statement timeout raises): the answer is still ``timeout`` (HTTP 504), on ``/mcp`` as on
    ``/v1``, never a tool result that tells another story, and nothing is stored."""
    namespace = f"cancelled-{route}"
    content = f"the {route} put the database cancelled must never be stored"
    send = seeded_put(slow, make_token(namespace), route, content)
    rows = holding_namespace(pg_database, namespace)
    try:
        with ThreadPoolExecutor(1) as pool:
            started = time.monotonic()
            answer = pool.submit(send)
            wait_for_waiters(admin, 1)  # at the namespace's lock
            cancelled = admin.execute(
                "SELECT pg_cancel_backend(pid) FROM pg_stat_activity"
                " WHERE wait_event_type = 'Lock' AND datname = current_database()"
            ).fetchall()
            assert [row[0] for row in cancelled] == [True]
            result = answer.result()
            took = time.monotonic() - started
    finally:
        rows.rollback()
        rows.close()
    assert result.status_code == 504 and result.json()["error"]["code"] == "timeout", result.text
    assert took < TIMEOUT_S + 2.0
    time.sleep(0.5)
    assert stored(admin, content) == 0


def test_a_request_in_time_is_unchanged(slow: Service, admin: Any, make_token: Callable[..., str]) -> None:
    token = make_token("prompt")
    answer = slow.call("POST", "/v1/put", token, json={"content": "a prompt put is stored as ever"})
    assert answer.status_code == 200 and stored(admin, "a prompt put is stored as ever") == 1


@pytest.mark.parametrize(
    ("connection_limit", "shown", "lowest_ms", "highest_ms"),
    [("300", "300ms", 300, 300), ("0", "0", 25_000, 30_000), ("90min", "90min", 25_000, 30_000), ("2s", "2s", 2_000, 2_000)],
)
def test_a_request_lowers_the_statement_timeout_and_never_raises_it(
    pg_database: str, connection_limit: str, shown: str, lowest_ms: int, highest_ms: int
) -> None:
    """Under a request's deadline, a transaction's statements are bounded by the time left, unless
    the connection already has a shorter limit (the service's, or an operator's on the role or
    database): that one stays. ``0`` is no limit, so the deadline's."""
    from psycopg.conninfo import make_conninfo

    from tact_memory.store.postgres import PostgresStore

    store = PostgresStore(make_conninfo(pg_database, options=f"-c statement_timeout={connection_limit}"), namespace="limits")
    try:
        with under(Deadline(30.0)), store._transaction() as conn:
            limit = conn.execute("SELECT setting::bigint FROM pg_settings WHERE name = 'statement_timeout'").fetchone()[0]
        assert lowest_ms <= limit <= highest_ms
        with store._transaction() as conn:  # no deadline: the connection's own limit, unchanged
            assert conn.execute("SHOW statement_timeout").fetchone()[0] == shown
    finally:
        store.close()


# --- the deadline itself ----------------------------------------------------------------------


def test_a_commit_begun_in_time_wins_over_the_answering_side() -> None:
    deadline = Deadline(10)
    assert deadline.begin_commit()
    assert not deadline.expire()  # the answer must wait for the commit's outcome
    assert deadline.begin_commit()  # and later transactions of the same request go on


def test_an_expired_deadline_refuses_every_commit() -> None:
    deadline = Deadline(10)
    assert deadline.expire()
    assert not deadline.begin_commit() and deadline.expire()
    passed = Deadline(0)
    assert not passed.begin_commit() and passed.expire() and passed.remaining() == 0


def test_only_one_side_wins_a_race() -> None:
    for _ in range(200):
        deadline = Deadline(10)
        results: dict[str, bool] = {}
        barrier = threading.Barrier(2)

        def commit() -> None:
            barrier.wait()
            results["commit"] = deadline.begin_commit()

        def expire() -> None:
            barrier.wait()
            results["expire"] = deadline.expire()

        threads = [threading.Thread(target=commit), threading.Thread(target=expire)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert results["commit"] != results["expire"]


def test_the_deadline_reaches_a_worker_thread() -> None:
    deadline = Deadline(5)

    async def main() -> Deadline | None:
        with under(deadline):
            return await asyncio.to_thread(current)

    assert asyncio.run(main()) is deadline and current() is None


def gate_run(work_commits_at: float, work_ends_at: float) -> tuple[str, Any]:
    """A gate with a 0.3 s timeout over work that begins its commit and finishes at the given times."""
    gate = Gate(max_in_flight=1, timeout_s=0.3, body_bytes=1024)
    deadline = gate.deadline()

    def work() -> str:
        time.sleep(work_commits_at)
        if not deadline.begin_commit():
            raise unavailable("timeout", "rolled back")
        time.sleep(max(0.0, work_ends_at - work_commits_at))
        return "committed"

    async def main() -> tuple[str, Any]:
        try:
            return "answer", await gate.timed(asyncio.to_thread(work), deadline)
        except Refused as exc:
            return "refused", exc.code

    return asyncio.run(main())


def test_the_gate_waits_for_a_commit_that_began_in_time() -> None:
    assert gate_run(work_commits_at=0.1, work_ends_at=0.6) == ("answer", "committed")


def test_the_gate_answers_timeout_when_no_commit_began() -> None:
    assert gate_run(work_commits_at=0.6, work_ends_at=0.6) == ("refused", "timeout")


# --- a sync that fails part way -----------------------------------------------------------------


class _FailsAfter:
    """A store whose puts succeed ``good`` times, then find the database unavailable."""

    role = "writer"

    def __init__(self, good: int) -> None:
        self.good = good

    def put(self, content: str, *, replace: Any = None, probation: bool = True) -> Any:
        from tact_memory.records import MemoryRecord, PutResult, RecordKey

        if self.good <= 0:
            raise unavailable("timeout", "the request timed out before its change could commit; nothing was changed")
        self.good -= 1
        record = MemoryRecord(RecordKey(self.good + 1, 1), content, 0, 0, 0, None, 0, None, None)
        return PutResult(memory=record, replaced=False)


class _Request:
    class app:  # noqa: N801 - the shape of a Starlette request's app
        class state:  # noqa: N801
            sync_records = 10


def test_a_sync_reports_what_was_stored_before_the_database_failed() -> None:
    body = {"records": [{"content": f"record {i}"} for i in range(4)]}
    answer = _sync(_FailsAfter(2), None, body, _Request())  # type: ignore[arg-type]
    results = answer["results"]
    assert [("memory" in r, r.get("error", {}).get("code")) for r in results] == [
        (True, None), (True, None), (False, "unavailable"), (False, "unavailable"),
    ]  # fmt: skip
    assert results[2]["error"]["reason"] == "timeout"
    assert "not attempted" in results[3]["error"]["message"]
    with pytest.raises(errors.StoreUnavailable):  # nothing stored at all: the request fails as a whole
        _sync(_FailsAfter(0), None, body, _Request())  # type: ignore[arg-type]
