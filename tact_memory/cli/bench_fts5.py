"""The FTS5 baseline of ``tact-memory bench``: the same records in a table with an FTS5 index
beside it, the design the store avoids, scanned the way the store scans."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

from ..retrieval.lexer import query_terms

__all__ = ["Fts5Baseline"]


class Fts5Baseline:
    """The same records in a table with an FTS5 index beside it: the design the store avoids.

    ``wal``: FTS5 as usually configured (``journal_mode = WAL``, ``synchronous = NORMAL``);
    otherwise at the store's durability (``DELETE``, ``synchronous = EXTRA``).
    """

    def __init__(self, path: str | Path, *, wal: bool) -> None:
        self.conn = sqlite3.connect(path, isolation_level=None)
        self.conn.execute(f"PRAGMA journal_mode = {'WAL' if wal else 'DELETE'}")
        self.conn.execute(f"PRAGMA synchronous = {'NORMAL' if wal else 'EXTRA'}")

    def fill(self, texts: list[str]) -> Fts5Baseline:
        """Create the tables and add ``texts`` (ids from 1)."""
        # Content in one table and telemetry in another, as in the store, so a telemetry update
        # writes as much.
        self.conn.execute("CREATE TABLE memories (id INTEGER PRIMARY KEY, content TEXT NOT NULL)")
        self.conn.execute(
            "CREATE TABLE telemetry (memory_id INTEGER PRIMARY KEY, scan_count INTEGER NOT NULL DEFAULT 0,"
            " last_scanned_at_ms INTEGER)"
        )
        self.conn.execute("CREATE VIRTUAL TABLE fts USING fts5(content)")
        self.conn.execute("BEGIN")
        for i, text in enumerate(texts, start=1):
            self.conn.execute("INSERT INTO memories (id, content) VALUES (?, ?)", (i, text))
            self.conn.execute("INSERT INTO fts (rowid, content) VALUES (?, ?)", (i, text))
        self.conn.execute("COMMIT")
        return self

    @staticmethod
    def match(query: str) -> str:
        """The FTS5 expression for a query: its terms, any of them (BM25 ranks, nothing vetoes)."""
        return " OR ".join(f'"{t}"' for t in sorted(query_terms(query))) or '""'

    def rank(self, query: str) -> list[int]:
        """Top five by FTS5's ``bm25()``."""
        sql = "SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY bm25(fts), rowid LIMIT 5"
        return [int(r[0]) for r in self.conn.execute(sql, (self.match(query),))]

    def scan(self, query: str) -> str:
        """Rank, read the previews and record scan telemetry in one ``BEGIN IMMEDIATE``
        transaction, as the store does; the result as JSON, as the tool returns it."""
        self.conn.execute("BEGIN IMMEDIATE")
        ids = self.rank(query)
        marks = ", ".join("?" * len(ids))
        found = dict(self.conn.execute(f"SELECT id, substr(content, 1, 64) FROM memories WHERE id IN ({marks})", ids))
        self.conn.executemany(
            "INSERT INTO telemetry (memory_id, scan_count, last_scanned_at_ms) VALUES (:id, 1, :now)"
            " ON CONFLICT (memory_id) DO UPDATE SET scan_count = scan_count + 1, last_scanned_at_ms = :now",
            [{"now": time.time_ns() // 1_000_000, "id": i} for i in ids],  # a real time: 0 would take no bytes
        )
        self.conn.execute("COMMIT")
        return json.dumps([{"id": i, "preview": found[i]} for i in ids])
