"""Learn of other server processes' writes from PostgreSQL ``LISTEN``/``NOTIFY``, not from a read per request.

Every change of a namespace's generation notifies channel :data:`CHANNEL` at commit (a trigger
of schema version 2, so any writer that moves a generation notifies, whatever its release). One
:class:`GenerationWatch` per server process holds a connection of its own that listens, and keeps
the latest generation of every namespace; the stores of the process compare their caches with it
instead of reading the ``generations`` table in each request.

A notification is only a hint, never a value: any role that can connect to the database may
``NOTIFY`` any channel with any payload, so the watch takes no generation from a payload. It reads
the namespaces a batch of notifications names from the ``generations`` table (or the whole table,
for a payload it cannot read) and keeps what the table says; a forged notification costs one small
read and changes nothing.

Correctness does not rest on the notifications alone:

- the watch starts listening *before* it reads the whole table, so no commit falls between the
  two, and every read of the table after a notification is as new as that notification or newer;
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
import time
from typing import Any

__all__ = ["APPLICATION_NAME", "CHANNEL", "GenerationWatch"]

CHANNEL = "tact_memory_generations"
"""The notification channel of generation changes (payload: JSON ``namespace`` and ``generation``;
the watch uses only the namespace, as a hint of what to read again)."""

_MOST_NAMED = 256
"""Most namespaces one batch of notifications reads by name; more read the whole table."""

APPLICATION_NAME = "tact-memory generation watch"
"""How the listening connection names itself in ``pg_stat_activity``."""

_LOG = logging.getLogger("tact_memory.team.watch")

_REPORT_EVERY_S = 60.0
"""While reconnecting keeps failing, the longest the log goes without saying so."""


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

    @staticmethod
    def _hint(payload: str) -> str | None:
        """The namespace a notification names, or ``None`` when only the whole table will do.

        The payload is untrusted: its generation is never used, and anything but a JSON object
        naming a namespace as a string asks for the whole table.
        """
        try:
            data = json.loads(payload)
        except (ValueError, RecursionError):
            return None
        namespace = data.get("namespace") if isinstance(data, dict) else None
        return namespace if isinstance(namespace, str) else None

    def _reread(self, conn: Any, namespaces: set[str]) -> None:
        """Keep what the table says now of ``namespaces``: each one's generation, or that it is gone."""
        rows = conn.execute(
            "SELECT namespace, generation FROM generations WHERE namespace = ANY(%s)", (sorted(namespaces),)
        ).fetchall()
        found = {str(ns): int(gen) for ns, gen in rows}
        with self._lock:
            for namespace in namespaces:
                if namespace in found:
                    self._known[namespace] = found[namespace]
                else:
                    self._known.pop(namespace, None)

    def _run(self) -> None:
        import psycopg

        failures = 0  # since the last connection that worked
        reported: float | None = None  # when the log last said so
        while not self._stopping.is_set():
            try:
                with psycopg.connect(
                    self._dsn, autocommit=True, connect_timeout=10, application_name=APPLICATION_NAME, client_encoding="utf8"
                ) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self._baseline(conn)
                    with self._lock:
                        self._healthy = True
                    self.connects += 1
                    self.backend_pid = conn.info.backend_pid
                    if failures:
                        _LOG.warning("team database: the change notifications resumed after %d failures", failures)
                        failures, reported = 0, None
                    while not self._stopping.is_set():
                        named: set[str] = set()
                        whole = False
                        # One batch: the notifications that arrived together (those that arrive during
                        # the queries below wait in psycopg's backlog for the next batch).
                        for note in conn.notifies(timeout=self._heartbeat_s, stop_after=1):
                            hint = self._hint(note.payload) if note.channel == CHANNEL else None
                            if hint is None or len(named) >= _MOST_NAMED:
                                whole = True
                            else:
                                named.add(hint)
                        if whole:
                            self._baseline(conn)
                        elif named:
                            self._reread(conn, named)
                        else:
                            conn.execute("SELECT 1")  # a quiet heartbeat: a silent, dead connection fails here
            except psycopg.Error:
                # One line when they stop, then at most one a minute while reconnecting fails.
                failures += 1
                now = time.monotonic()
                if reported is None or now - reported >= _REPORT_EVERY_S:
                    reported = now
                    so_far = "" if failures == 1 else f" ({failures} failures so far)"
                    _LOG.warning("team database: the change notifications stopped%s; reconnecting (details withheld)", so_far)
            finally:
                with self._lock:
                    self._healthy = False
            self._stopping.wait(self._retry_s)
