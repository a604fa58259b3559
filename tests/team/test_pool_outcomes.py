"""Why a request got no database connection, and how soon one comes once the database is back.

A pool whose every connection is held by requests that still run is ``busy`` (try again), and so is
a pool whose database refuses it a connection because it serves as many as it allows (a role's or
a database's limit, or the server's); a pool with room that cannot connect is ``unreachable``; a request whose own time ran out is ``timeout``.
``psycopg_pool``'s ``PoolTimeout`` is an ``OperationalError``, so all three were once reported
``unreachable``. And a pool that waited through a long outage retried at doubling intervals, so
its next attempt came as long after the database returned as the outage had lasted.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tact_memory import errors
from tact_memory.deadline import Deadline, under
from tact_memory.store.postgres import PostgresStore
from tact_memory.team.server import open_pool

from .conftest import start_service, stop_service
from .tcp_switch import Switch
from .test_request_limits import blocked_on_tokens, wait_for_waiters
from .test_timeout_commits_nothing import holding_namespace


@pytest.fixture
def one_connection(pg_database: str) -> Iterator[Any]:
    """A pool of one connection, which a request waits 0.5 s for."""
    from psycopg_pool import ConnectionPool

    pool: Any = ConnectionPool(pg_database, min_size=1, max_size=1, open=True, timeout=0.5, kwargs={"autocommit": True})
    yield pool
    pool.close()


def blocked_put(pool: Any, dsn: str) -> tuple[Any, Any, threading.Thread]:
    """A put of alice's that holds the pool's only connection, waiting on her namespace's lock."""
    alice = PostgresStore(pool, namespace="alice")
    alice.put("alice keeps the release notes")  # her namespace's row, to lock
    lock = holding_namespace(dsn, "alice")
    outcome: list[Any] = []
    thread = threading.Thread(target=lambda: outcome.append(alice.put("the nightly job runs at 02:00 UTC")))
    thread.start()
    return lock, outcome, thread


def test_a_pool_whose_connections_are_all_held_is_busy(one_connection: Any, pg_database: str, admin: Any) -> None:
    lock, outcome, thread = blocked_put(one_connection, pg_database)
    try:
        wait_for_waiters(admin, 1)
        bob = PostgresStore(one_connection, namespace="bob")
        for operation in (lambda: bob.scan("nightly job"), lambda: bob.read([1]), lambda: bob.put("bob's fact")):
            with pytest.raises(errors.StoreUnavailable) as raised:
                operation()
            assert raised.value.reason == "busy", raised.value
            assert "try again" in raised.value.message and "reach" not in raised.value.message
    finally:
        lock.rollback()
        lock.close()
        thread.join(10)
    # The held put went through once the lock was released, and the pool serves again.
    assert outcome and outcome[0].memory.content == "the nightly job runs at 02:00 UTC"
    assert PostgresStore(one_connection, namespace="bob").scan("nightly job")


def test_a_request_that_ran_out_of_time_waiting_is_timeout(one_connection: Any, pg_database: str, admin: Any) -> None:
    lock, _, thread = blocked_put(one_connection, pg_database)
    try:
        wait_for_waiters(admin, 1)
        bob = PostgresStore(one_connection, namespace="bob")
        with under(Deadline(0.2)), pytest.raises(errors.StoreUnavailable) as raised:
            bob.scan("nightly job")
        assert raised.value.reason == "timeout"
    finally:
        lock.rollback()
        lock.close()
        thread.join(10)


def test_the_service_answers_busy_when_requests_hold_every_connection(
    pg_database: str, admin: Any, make_token: Callable[..., str], tmp_path: Path
) -> None:
    # Sixteen connections (the service's pool for more than sixteen requests in flight), each held
    # by a request waiting at authentication; the seventeenth waits half its 8 s and is told why
    # (the first of the sixteen lets go only when its own 8 s have passed).
    service = start_service(pg_database, tmp_path, "--timeout", "8")
    token = make_token("alice")
    blocker = blocked_on_tokens(pg_database)
    try:
        with ThreadPoolExecutor(16) as threads:
            holding = [threads.submit(service.call, "GET", "/v1/session", token) for _ in range(16)]
            wait_for_waiters(admin, 16)
            answer = service.call("POST", "/v1/scan", token, json={"query": "deploy"})
            assert answer.status_code == 503, answer.text
            assert answer.json()["error"]["code"] == "unavailable"
            assert answer.json()["error"]["reason"] == "busy", answer.json()
            blocker.rollback()
            assert all(h.result().status_code in (200, 504) for h in holding)
        assert service.call("POST", "/v1/scan", token, json={"query": "deploy"}).status_code == 200
    finally:
        blocker.close()
        stop_service(service)


@pytest.fixture
def limited_role(pg_database: str, admin: Any) -> Iterator[str]:
    """The connection string of a role of its own that may hold one connection at a time, with the
    module's tables' privileges (a superuser's connections are not limited)."""
    import os

    from psycopg.conninfo import make_conninfo

    name = f"tact_limited_{os.getpid()}"
    admin.execute(f'DROP ROLE IF EXISTS "{name}"')
    admin.execute(f'CREATE ROLE "{name}" LOGIN CONNECTION LIMIT 1')
    owner = admin.execute("SELECT current_user").fetchone()[0]  # the tables' owner
    admin.execute(f'GRANT "{owner}" TO "{name}"')  # its privileges, not its superuser attribute
    yield make_conninfo(pg_database, user=name)
    admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = %s", (name,))
    admin.execute(f'DROP ROLE "{name}"')


def test_a_database_that_serves_as_many_connections_as_it_allows_is_busy(limited_role: str) -> None:
    import psycopg

    taken = psycopg.connect(limited_role)  # the role's one connection, held elsewhere
    pool = open_pool(limited_role, size=2, timeout_s=2.0)  # a request waits 1 s for a connection
    store = PostgresStore(pool, namespace="alice")
    try:
        for operation in (lambda: store.scan("nightly job"), lambda: store.put("the nightly job runs at 02:00 UTC")):
            with pytest.raises(errors.StoreUnavailable) as raised:
                operation()
            assert raised.value.reason == "busy", raised.value
            assert "try again" in raised.value.message and "nothing was changed" in raised.value.message
            assert "tact_limited" not in raised.value.message  # no server diagnostic
        taken.close()
        assert store.put("the nightly job runs at 02:00 UTC").memory.content == "the nightly job runs at 02:00 UTC"
    finally:
        taken.close()
        pool.close()


def test_a_database_that_cannot_be_reached_is_not_called_full(pg_database: str) -> None:
    # The record of a full database is cleared by any other failure: a cut connection afterwards
    # reads as unreachable again.
    switch = Switch(pg_database)
    pool = open_pool(switch.dsn, size=2, timeout_s=2.0)
    store = PostgresStore(pool, namespace="alice")
    try:
        switch.cut()
        with pytest.raises(errors.StoreUnavailable) as raised:
            store.scan("anything")
        assert raised.value.reason == "unreachable"
    finally:
        pool.close()
        switch.close()


@pytest.mark.parametrize(
    ("message", "full"),
    [
        ('connection failed: FATAL:  sorry, too many clients already', True),
        ('connection failed: FATAL:  too many connections for role "app"', True),
        ('connection failed: FATAL:  too many connections for database "memory"', True),
        ("connection failed: FATAL:  remaining connection slots are reserved for roles with the SUPERUSER attribute", True),
        ("connection failed: FATAL:  remaining connection slots are reserved for non-replication superuser connections", True),
        ("connection failed: ERROR:  no more connections allowed (max_client_conn)", True),
        ("connection failed: ERROR:  client connections exceeded (max_user_client_connections)", True),
        ("connection failed: Connection refused\n\tIs the server running on that host and accepting TCP/IP connections?", False),
        ('connection failed: FATAL:  password authentication failed for user "app"', False),
        ("connection failed: FATAL:  the database system is shutting down", False),
        ("connection timeout expired", False),
    ],
)
def test_a_refusal_because_the_database_is_full_is_told_from_other_failures(message: str, full: bool) -> None:
    from psycopg import OperationalError

    from tact_memory.store.pg_pool import refused_as_full

    assert refused_as_full(OperationalError(message)) is full


def test_the_first_request_after_a_long_outage_is_served(pg_database: str, admin: Any) -> None:
    switch = Switch(pg_database)
    pool = open_pool(switch.dsn, size=2, timeout_s=2.0)  # a request waits 1 s for a connection
    store = PostgresStore(pool, namespace="alice")
    try:
        store.put("the staging cluster restarts on Sundays")
        switch.cut()
        # Eight seconds of requests, each told the database cannot be reached: long enough that
        # attempts at doubling intervals (1, 2, 4, 8 s …) have their next one well after the end.
        ends = time.monotonic() + 8
        reasons = set()
        while time.monotonic() < ends:
            with pytest.raises(errors.StoreUnavailable) as raised:
                store.scan("staging cluster")
            reasons.add(raised.value.reason)
        assert reasons == {"unreachable"}
        switch.restore()
        assert [c.preview for c in store.scan("staging cluster")] == ["the staging cluster restarts on Sundays"]
    finally:
        pool.close()
        switch.close()


def test_without_requests_an_outage_costs_no_connection_attempts(pg_database: str) -> None:
    switch = Switch(pg_database)
    pool = open_pool(switch.dsn, size=2, timeout_s=2.0)
    store = PostgresStore(pool, namespace="alice")
    try:
        store.scan("anything")
        switch.cut()
        with pytest.raises(errors.StoreUnavailable):
            store.scan("anything")
        time.sleep(1.5)  # every series of attempts has ended
        tried = pool.get_stats().get("connections_num", 0)
        time.sleep(2)
        assert pool.get_stats().get("connections_num", 0) == tried
    finally:
        pool.close()
        switch.close()


def test_the_service_log_names_no_server_detail_and_at_most_one_failure_a_minute(snapshot: Any) -> None:
    import logging

    from tact_memory.team.server import Withheld

    now = [100.0]
    withheld = Withheld(clock=lambda: now[0])

    def shown(message: str, level: int = logging.WARNING) -> str | None:
        record = logging.LogRecord("psycopg.pool", level, __file__, 1, message, ("/run/pg/.s.PGSQL.5432",), None)
        return record.getMessage() if withheld.filter(record) else None

    lines = [shown("error connecting in %r: connection refused")]
    lines += [shown("error connecting in %r: no route", logging.INFO)]  # the pool's chatter is dropped
    for _ in range(40):  # forty failed attempts in the next minute
        now[0] += 1.4
        lines.append(shown("error connecting in %r: connection refused"))
    now[0] += 5
    lines.append(shown("reconnection attempt in pool %r failed"))
    kept = [line for line in lines if line is not None]
    assert kept == snapshot
    assert len(kept) == 2 and not any(".s.PGSQL" in line or "refused" in line for line in kept)


def test_the_service_log_says_when_the_database_was_full(snapshot: Any) -> None:
    import logging

    from psycopg import OperationalError

    from tact_memory.team.server import Withheld

    def shown(failure: str) -> str:
        record = logging.LogRecord("psycopg.pool", logging.WARNING, __file__, 1, "error connecting in %r: %s", ("pool-1", OperationalError(failure)), None)
        assert Withheld(clock=lambda: 0.0).filter(record)
        return record.getMessage()

    full = shown('connection failed: FATAL:  too many connections for role "app"')
    other = shown("connection failed: Connection refused")
    assert [full, other] == snapshot
    assert full != other and not any('"app"' in line or "refused" in line for line in (full, other))
