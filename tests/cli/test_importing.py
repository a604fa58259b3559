"""Importing JSON lines: each line a put by the person, skipped lines named, dry runs write nothing."""

from __future__ import annotations

import json
from pathlib import Path

from tact_memory.cli.importing import import_lines
from tact_memory.limits import Limits
from tact_memory.store.sqlite import MemoryStore


def line(content: object, **extra: object) -> str:
    return json.dumps({"key": {"id": 99, "version": 7}, "content": content, "read_count": 5, **extra})


def test_only_content_is_imported_and_records_start_without_probation(db_path: Path) -> None:
    store = MemoryStore(db_path)
    [outcome] = list(import_lines(store, [line("the build uses meson")]))
    assert outcome.added and outcome.line == 1
    [record] = store.list_records()
    assert record.key.id == 1 and record.key.version == 1  # the store owns ids, versions, telemetry
    assert record.read_count == 0 and record.probation_until_ms is None


def test_refused_lines_are_skipped_by_number_and_code_without_their_content(db_path: Path) -> None:
    store = MemoryStore(db_path)
    store.put("the build uses meson")
    secret = "AKIAIOSFODNN7EXAMPLE"
    lines = [
        line("The build uses Meson"), "", "[1, 2]", line(f"deploy key {secret}"), "{not json",
        line("x" * 2000), line("tests run with pytest"), line("tests  run with PYTEST"), b"\xff\n", line(""),
    ]  # fmt: skip
    outcomes = list(import_lines(store, lines))
    assert [(o.line, o.code) for o in outcomes] == [
        (1, "duplicate"), (3, "invalid_arguments"), (4, "secret_rejected"), (5, "invalid_arguments"),
        (6, "content_too_large"), (7, None), (8, "duplicate"), (9, "invalid_arguments"), (10, "invalid_arguments"),
    ]  # fmt: skip
    assert outcomes[5].message is None and outcomes[6].message == "line 7 of this input says the same"
    assert all(secret not in (o.message or "") for o in outcomes)
    assert [r.content for r in store.list_records(order="id")] == ["the build uses meson", "tests run with pytest"]


def test_a_dry_run_checks_capacity_and_duplicates_and_writes_nothing(db_path: Path) -> None:
    store = MemoryStore(db_path, limits=Limits(rows=3))
    store.put("the cache is redis", probation=False)
    store.close()
    before = db_path.read_bytes()
    lines = [line("the queue is kafka"), line("The queue is Kafka"), line("the db is postgres"), line("the cdn is fastly")]
    outcomes = list(import_lines(store, lines, dry_run=True))
    assert [o.code for o in outcomes] == [None, "duplicate", None, "record_capacity"]
    assert db_path.read_bytes() == before
    real = list(import_lines(store, lines))
    assert [o.code for o in real] == [o.code for o in outcomes]  # the dry run foretold the real run
    assert len(store.list_records()) == 3


def test_a_dry_run_on_a_missing_database_creates_nothing(db_path: Path) -> None:
    outcomes = list(import_lines(MemoryStore(db_path), [line("the cache is redis")], dry_run=True))
    assert [o.added for o in outcomes] == [True]
    assert not db_path.parent.exists()
