"""Connections of a team database pool: opening one that recovers from an outage at once, and
telling, when a wait for a connection ends empty-handed, whether the pool was exhausted or the
database could not be reached.

``psycopg_pool`` retries a failed connection with a delay that doubles each time until its
``reconnect_timeout``; with a long timeout, a pool that has waited through a long outage makes its
next attempt as long after the database returns as the outage lasted. Here a series of attempts
lasts less than a request's wait for a connection and then ends; the next request that waits starts
a new series at once. So a request made once the database is back is served by an attempt within
its own wait, and without requests nothing connects.

A ``PoolTimeout`` alone does not say why no connection came. Every connection this package takes
from a pool is counted while held (:func:`held`): when as many are held as the pool may open, the
pool was exhausted by requests that still run (``busy``); otherwise the pool had room and could not
connect. A pool this module opens records why its last connection attempt failed: a database
that refused it because it already serves as many connections as it allows (the whole server, a
role's or a database's limit) is ``busy`` too; anything else is ``unreachable``. Connections taken
from a shared pool by other code are not counted, and a shared pool's attempts are not recorded,
so its exhaustion and a full database behind it read as ``unreachable``.
"""

from __future__ import annotations

import threading
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from .. import errors

if TYPE_CHECKING:
    from psycopg import Connection
    from psycopg_pool import ConnectionPool

    from ..deadline import Deadline

__all__ = ["held", "held_count", "no_connection", "open_pool", "reconnect_window", "refused_as_full", "unavailable"]

_HELD: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()
_HELD_LOCK = threading.Lock()


def unavailable(reason: str, message: str) -> errors.StoreUnavailable:
    """A team-database failure, naming no host, user, password or server diagnostic."""
    return errors.StoreUnavailable(f"team memory database: {message}", path="team", reason=reason)


# What a server says when it refuses a connection because it serves as many as it allows: the whole
# server's limit, a role's or a database's, the slots it keeps for superusers (two wordings), and
# PgBouncer's limits on its clients (all of them, a database's, a user's). A failed connection carries no SQLSTATE (libpq keeps only the
# message), so these are the servers' English messages; a server that speaks another language is
# read as unreachable.
_FULL_MESSAGES = (
    "too many clients already",
    "too many connections for role",
    "too many connections for database",
    "remaining connection slots are reserved",
    "no more connections allowed",
    "client connections exceeded",
)


def refused_as_full(exc: BaseException) -> bool:
    """Whether a failed connection was refused because the database serves as many as it allows."""
    text = str(exc).lower()
    return any(message in text for message in _FULL_MESSAGES)


def _recording_connection() -> type[Any]:
    """A connection class of its own for one pool, which keeps when its last attempt to connect was
    refused because the database was full (``full_at``, a monotonic time; ``None`` after any other
    outcome)."""
    from psycopg import Connection

    class Recording(Connection[Any]):
        full_at: float | None = None

        @classmethod
        def connect(cls, *args: Any, **kwargs: Any) -> Any:
            try:
                conn = super().connect(*args, **kwargs)
            except Exception as exc:
                cls.full_at = time.monotonic() if refused_as_full(exc) else None
                raise
            cls.full_at = None
            return conn

    return Recording


def _refused_as_full_lately(pool: ConnectionPool[Any]) -> bool:
    """Whether the pool's last attempt to connect, within its wait for a connection, met a full database."""
    at = getattr(pool.connection_class, "full_at", None)
    return at is not None and time.monotonic() - at <= pool.timeout


def reconnect_window(wait_s: float) -> float:
    """How long one series of reconnection attempts lasts for a pool whose requests wait ``wait_s``
    seconds for a connection: half that wait, so an attempt falls inside every wait."""
    return wait_s / 2


def open_pool(dsn: str, *, size: int, wait_s: float, options: dict[str, Any] | None = None) -> ConnectionPool[Any]:
    """An open pool of at most ``size`` connections to ``dsn``, in autocommit and UTF-8, whose
    requests wait ``wait_s`` seconds for a connection. A connection is checked before it is handed
    out (one the database closed is replaced, never given to a request), and the pool records why
    its last attempt to connect failed (see :func:`no_connection`)."""
    from psycopg_pool import ConnectionPool

    return ConnectionPool(
        dsn, connection_class=_recording_connection(), min_size=1, max_size=size, open=True, timeout=wait_s,
        check=ConnectionPool.check_connection,
        reconnect_timeout=reconnect_window(wait_s),
        kwargs={"autocommit": True, "client_encoding": "utf8", **(options or {})},
    )  # fmt: skip


@contextmanager
def held(pool: ConnectionPool[Any], timeout: float | None = None) -> Iterator[Connection[Any]]:
    """A connection of ``pool``, counted as held until the block ends (see :func:`no_connection`)."""
    with pool.connection(timeout=timeout) as conn:
        with _HELD_LOCK:
            _HELD[pool] = _HELD.get(pool, 0) + 1
        try:
            yield conn
        finally:
            with _HELD_LOCK:
                _HELD[pool] -= 1


def held_count(pool: ConnectionPool[Any]) -> int:
    """How many connections of ``pool`` are held through :func:`held` now."""
    with _HELD_LOCK:
        return _HELD.get(pool, 0)


def no_connection(pool: ConnectionPool[Any], limit: Deadline | None, action: str) -> errors.StoreUnavailable:
    """Why a wait for a connection of ``pool`` ended without one, as the error to raise: ``timeout``
    when the request has no time left, ``busy`` when every connection the pool may open is held or
    when the database refused the pool's last attempt because it was full, ``unreachable``
    otherwise. ``action`` is what did not happen ("nothing was changed")."""
    if limit is not None and limit.remaining() <= 0:
        return unavailable("timeout", f"no database connection came before the request timed out; {action}")
    if held_count(pool) >= pool.max_size:
        return unavailable("busy", f"every database connection was in use; {action}, try again")
    if _refused_as_full_lately(pool):
        return unavailable("busy", f"the database had no connection to spare (it serves as many as it allows); {action}, try again")
    return unavailable("unreachable", f"the database could not be reached; {action}")
