"""Numbered migrations: names, order, and what a new file gets."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from tact_memory.store.schema import (
    MIGRATIONS,
    SCHEMA_VERSION,
    describe_difference,
    expected_schema,
    migrate,
    schema_of,
)


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
    import tact_memory.store.schema as migrations

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


def test_the_expected_schema_is_what_the_migrations_make_on_disk(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "db.sqlite3", isolation_level=None)
    migrate(conn, page_size=4096)
    assert schema_of(conn) == expected_schema(SCHEMA_VERSION)
    assert {(kind, name) for kind, name, _, _ in expected_schema(SCHEMA_VERSION)} == {
        ("table", "memories"), ("table", "meta"), ("table", "sqlite_sequence"), ("index", "sqlite_autoindex_meta_1"),
        ("index", "memories_version"), ("table", "telemetry"),
    }  # fmt: skip
    assert expected_schema(0) == frozenset()
    conn.execute("CREATE TRIGGER t AFTER INSERT ON meta BEGIN SELECT 1; END")
    conn.execute("CREATE VIEW v AS SELECT 1")
    assert describe_difference(schema_of(conn), expected_schema(SCHEMA_VERSION)) == "1 extra trigger; 1 extra view"
    conn.close()


def test_white_space_in_the_stored_sql_does_not_matter(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "db.sqlite3", isolation_level=None)
    conn.execute("CREATE TABLE meta (key   TEXT PRIMARY KEY,\n\tvalue\r\n INTEGER\fNOT NULL\n)")
    assert ("table", "meta", "meta", "CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL )") in schema_of(conn)
    conn.execute("DROP TABLE meta")
    conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER\u00a0NOT NULL)")  # no NOT NULL to SQLite
    assert conn.execute("PRAGMA table_info(meta)").fetchall()[1][3] == 0
    assert ("table", "meta", "meta", "CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)") not in schema_of(conn)
    conn.execute("DROP TABLE meta")
    conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value BLOB NOT NULL)")
    assert describe_difference(schema_of(conn), expected_schema(SCHEMA_VERSION)) == "memories, memories_version, meta, sqlite_sequence, telemetry missing or changed"
    conn.close()
