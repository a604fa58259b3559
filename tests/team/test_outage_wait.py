"""During an outage a request waits for a connection as long as the pool says, not as long as it
has left: the team service's pool waits half a request's time, so the answer is ``unavailable``
while the request still has time, rather than the gate's ``timeout`` (a put that started just
before the database stopped was answered 504 when the store waited the whole request).
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest

from tact_memory import errors
from tact_memory.deadline import Deadline, under
from tact_memory.store.postgres import PostgresStore


def closed_port() -> int:
    """A local port nothing listens on: a connection to it is refused at once."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def unreachable_pool() -> Iterator[Any]:
    from psycopg_pool import ConnectionPool

    pool: Any = ConnectionPool(
        f"host=127.0.0.1 port={closed_port()} user=nobody dbname=nothing connect_timeout=1",
        min_size=1, max_size=1, open=True, timeout=0.3, reconnect_timeout=3600.0,
    )  # fmt: skip
    yield pool
    pool.close()


@pytest.mark.parametrize("operation", ["read", "scan", "put"])
def test_a_request_is_answered_unavailable_with_time_left_when_no_connection_comes(unreachable_pool: Any, operation: str) -> None:
    store = PostgresStore(unreachable_pool, namespace="alice")
    limit = Deadline(30.0)
    calls = {"read": lambda: store.read([1]), "scan": lambda: store.scan("release tags"), "put": lambda: store.put("a fact")}
    with under(limit), pytest.raises(errors.StoreUnavailable) as raised:
        calls[operation]()
    assert raised.value.reason == "unreachable"
    # It gave up after the pool's wait; had it waited for the request's, no time would be left.
    assert limit.remaining() > 20


def test_without_a_request_the_wait_is_the_pool_s_own(unreachable_pool: Any) -> None:
    store = PostgresStore(unreachable_pool, namespace="alice")
    with pytest.raises(errors.StoreUnavailable) as raised:
        store.read([1])
    assert raised.value.reason == "unreachable"
