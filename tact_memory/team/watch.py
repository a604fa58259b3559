"""Learn of other server processes' writes from PostgreSQL ``LISTEN``/``NOTIFY``, not from a read per request.

Every change of a namespace's generation notifies channel :data:`CHANNEL` at commit (a trigger
of schema version 2, so any writer that moves a generation notifies, whatever its release). One
:class:`GenerationWatch` per server process holds a connection of its own that listens, and keeps
the latest generation of every namespace; the stores of the process compare their caches with it
instead of reading the ``generations`` table in each request.

Correctness does not rest on the notifications alone:

- the watch starts listening *before* it reads the whole table, so no commit falls between the
  two; a notification older than that read cannot lower a generation (numbers only grow);
- while its connection is down (killed, a restart, a network failure) :meth:`generations` is
  ``None`` and the stores read the table in each request, as without a watch; after reconnecting
  it reads the whole table again, so every store checks every namespace once (a full check);
- a ``TRUNCATE`` (one notification for the whole table) makes it read the whole table again;
- a connection that goes silent is caught by a heartbeat query every ``heartbeat_s`` seconds.

A notification reaches a listener a moment after the writer's commit (well under a millisecond
on one host), so a scan on another process in that moment may not yet see the write; a change of
the namespace's own records always locks and reads its generation, so versions, duplicates and
bounds stay exact whatever the watch knows.
"""

from __future__ import annotations

import json
import logging
import threading
from typing import Any

__all__ = ["APPLICATION_NAME", "CHANNEL", "GenerationWatch"]

CHANNEL = "tact_memory_generations"
"""The notification channel of generation changes (payload: JSON ``namespace`` and ``generation``)."""

APPLICATION_NAME = "tact-memory generation watch"
"""How the listening connection names itself in ``pg_stat_activity``."""

_LOG = logging.getLogger("tact_memory.team.watch")


class GenerationWatch:
    """The latest generation of every namespace, kept current by notifications on its own connection.

    Args:
        dsn: The database's connection string (never logged).
        heartbeat_s: How often the idle connection is checked.
        retry_s: The pause before reconnecting after a failure.
    """

    def __init__(self, dsn: str, *, heartbeat_s: float = 5.0, retry_s: float = 1.0) -> None:
        self._dsn = dsn
        self._heartbeat_s = heartbeat_s
        self._retry_s = retry_s
        self._lock = threading.Lock()
        self._known: dict[str, int] = {}
        self._healthy = False
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self.connects = 0
        """How many times the watch has (re)connected and read the whole table."""
        self.backend_pid: int | None = None
        """The server process of the listening connection (for operators and tests)."""

    def start(self) -> None:
        """Start listening in a daemon thread; returns at once (the stores poll until it is ready)."""
        self._thread = threading.Thread(target=self._run, name="tact-memory-generation-watch", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop listening and close the connection."""
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(self._heartbeat_s + 5)

    def generations(self) -> dict[str, int] | None:
        """Every namespace's latest generation, or ``None`` while the watch is not listening."""
        with self._lock:
            return dict(self._known) if self._healthy else None

    def _baseline(self, conn: Any) -> None:
        rows = conn.execute("SELECT namespace, generation FROM generations").fetchall()
        with self._lock:
            self._known = {str(ns): int(gen) for ns, gen in rows}

    def _heard(self, payload: str) -> bool:
        """Apply one notification; ``False`` when only reading the whole table again will do."""
        if payload == "*":
            return False
        try:
            data = json.loads(payload)
            namespace, generation = str(data["namespace"]), data["generation"]
            number = None if generation is None else int(generation)
        except (ValueError, KeyError, TypeError, RecursionError):
            return False
        with self._lock:
            if number is None:
                self._known.pop(namespace, None)
            else:
                self._known[namespace] = max(number, self._known.get(namespace, 0))
        return True

    def _run(self) -> None:
        import psycopg

        while not self._stopping.is_set():
            try:
                with psycopg.connect(
                    self._dsn, autocommit=True, connect_timeout=10, application_name=APPLICATION_NAME
                ) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self._baseline(conn)
                    with self._lock:
                        self._healthy = True
                    self.connects += 1
                    self.backend_pid = conn.info.backend_pid
                    while not self._stopping.is_set():
                        whole = False
                        # Notifications that arrive during the queries below wait in psycopg's backlog.
                        for note in conn.notifies(timeout=self._heartbeat_s):
                            if not self._heard(note.payload):
                                whole = True
                                break
                        if whole:
                            self._baseline(conn)
                        conn.execute("SELECT 1")  # a silent, dead connection fails here
            except psycopg.Error:
                _LOG.warning("team database: the change notifications stopped; reconnecting (details withheld)")
            finally:
                with self._lock:
                    self._healthy = False
            self._stopping.wait(self._retry_s)
