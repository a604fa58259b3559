"""Numbered migrations: names, order, and what a new file gets."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from tact_memory.migrations import MIGRATIONS, SCHEMA_VERSION, migrate


def test_migrations_are_numbered_in_order() -> None:
    for number, migration in enumerate(MIGRATIONS, start=1):
        assert re.fullmatch(rf"m{number:03d}_[a-z_]+", migration.__name__), migration.__name__
        assert migration.__doc__
    assert SCHEMA_VERSION == len(MIGRATIONS)


def test_a_new_file_gets_every_migration_and_the_page_size_once(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "db.sqlite3", isolation_level=None)
    migrate(conn, page_size=8192)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("PRAGMA page_size").fetchone()[0] == 8192
    assert conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()[0] == 0
    migrate(conn, page_size=4096)  # nothing left to apply, and the page size stays
    assert conn.execute("PRAGMA page_size").fetchone()[0] == 8192
    assert conn.execute("SELECT count(*) FROM meta").fetchone()[0] == 1
    conn.close()


def test_a_failing_migration_leaves_the_file_at_its_old_version(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tact_memory.migrations as migrations

    def broken(conn: sqlite3.Connection) -> None:
        conn.execute("CREATE TABLE half (x)")
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(migrations, "MIGRATIONS", (migrations.m001_create_memories, broken))
    monkeypatch.setattr(migrations, "SCHEMA_VERSION", 2)
    conn = sqlite3.connect(tmp_path / "db.sqlite3", isolation_level=None)
    with pytest.raises(RuntimeError, match="disk on fire"):
        migrate(conn, page_size=4096)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 0
    assert conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0
    conn.close()
