"""Importing JSON lines: each line a put by the person, skipped lines named, dry runs write nothing."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tact_memory.cli.importing import import_lines
from tact_memory.limits import Limits
from tact_memory.store.sqlite import MemoryStore

from ..conftest import write_config

ROOT = Path(__file__).resolve().parents[2]


def line(content: object, **extra: object) -> str:
    return json.dumps({"key": {"id": 99, "version": 7}, "content": content, "read_count": 5, **extra})


def test_only_content_is_imported_and_records_start_without_probation(make_store: Callable[..., MemoryStore]) -> None:
    store = make_store()
    [outcome] = list(import_lines(store, [line("the build uses meson")]))
    assert outcome.added and outcome.line == 1
    [record] = store.list_records()
    assert record.key.id == 1 and record.key.version == 1  # the store owns ids, versions, telemetry
    assert record.read_count == 0 and record.probation_until_ms is None


def test_refused_lines_are_skipped_by_number_and_code_without_their_content(make_store: Callable[..., MemoryStore]) -> None:
    store = make_store()
    store.put("the build uses meson")
    secret = "AKIAFAKE0EXAMPLE07EL"
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


def test_a_dry_run_checks_capacity_and_duplicates_and_writes_nothing(db_path: Path, make_store: Callable[..., MemoryStore]) -> None:
    store = make_store(limits=Limits(rows=3))
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


def test_a_dry_run_on_a_missing_database_creates_nothing(db_path: Path, make_store: Callable[..., MemoryStore]) -> None:
    outcomes = list(import_lines(make_store(), [line("the cache is redis")], dry_run=True))
    assert [o.added for o in outcomes] == [True]
    assert not db_path.parent.exists()


UNDECODABLE = ['{"content": "x", "n": ' + "[" * 100_000 + "]" * 100_000 + "}", '{"content": "x", "n": 1' + "0" * 5_000 + "}"]


def test_a_line_the_decoder_cannot_take_is_skipped_as_invalid(make_store: Callable[..., MemoryStore]) -> None:
    lines = [line("the cache is redis"), *UNDECODABLE, line("the queue is kafka")]
    outcomes = list(import_lines(make_store(), lines))
    assert [(o.line, o.code) for o in outcomes] == [(1, None), (2, "invalid_arguments"), (3, "invalid_arguments"), (4, None)]
    assert [o.message for o in outcomes[1:3]] == [
        "the line is nested too deeply to be read", "the line holds a number with too many digits to be read"
    ]


@pytest.mark.parametrize("dry_run", [False, True])
def test_import_from_stdin_goes_on_past_a_line_the_decoder_cannot_take(tmp_path: Path, dry_run: bool) -> None:
    config = write_config(tmp_path / "tact")
    data = "\n".join([line("the cache is redis"), *UNDECODABLE, line("the queue is kafka")]) + "\n"
    command = [sys.executable, "-m", "tact_memory.cli", "--config", str(config), "import", *(["--dry-run"] if dry_run else []), "-"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(command, input=data, capture_output=True, text=True, env=env, cwd=tmp_path, check=False)
    assert (done.returncode, done.stderr) == (1, "")
    would = "would be " if dry_run else ""
    assert done.stdout.splitlines()[:4] == [
        f"line 1: {would}added" + ("" if dry_run else " as memory 1"),
        "line 2: skipped, invalid_arguments: the line is nested too deeply to be read",
        "line 3: skipped, invalid_arguments: the line holds a number with too many digits to be read",
        f"line 4: {would}added" + ("" if dry_run else " as memory 2"),
    ]


@contextlib.contextmanager
def read_only(folder: Path) -> Iterator[list[str]]:
    """A command prefix under which nothing in ``folder`` can be written, whoever runs the tests.

    Root ignores file modes, so as root the command runs in a mount namespace of its own where
    ``folder`` is bind-mounted read-only; anyone else gets the write bits of the folder and of
    everything in it cleared, and given back afterwards.
    """
    if not hasattr(os, "geteuid"):
        pytest.skip("no POSIX users here")
    if os.geteuid() == 0:
        probe = ["unshare", "-m", "true"]
        if not (shutil.which("unshare") and shutil.which("mount")) or subprocess.run(probe, capture_output=True, check=False).returncode:
            pytest.skip("running as root, which writes whatever the modes say, and no mount namespace here to make a folder read-only in")
        script = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"'
        yield ["unshare", "-m", "sh", "-c", script, "sh", str(folder)]
        return
    paths = [folder, *sorted(folder.rglob("*"))]
    modes = {path: path.stat().st_mode for path in paths}
    for path in reversed(paths):  # the files before the folders that hold them
        path.chmod(modes[path] & ~0o222)
    try:
        yield []
    finally:
        for path in paths:
            path.chmod(modes[path])


@pytest.mark.parametrize("database", ["missing", "present"])
def test_a_dry_run_where_the_import_cannot_write_fails_as_the_import_does(tmp_path: Path, database: str) -> None:
    config = write_config(tmp_path / "tact")
    if database == "present":
        with MemoryStore(config.parent / "memory" / "v1.sqlite3") as store:
            store.put("the cache is redis")
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(["not json", line("x" * 2_000), line("the queue is kafka")]) + "\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with read_only(config.parent) as prefix:
        runs = [
            subprocess.run(
                [*prefix, sys.executable, "-m", "tact_memory.cli", "--config", str(config), "import", *flags, str(source)],
                capture_output=True, text=True, env=env, check=False,
            )  # fmt: skip
            for flags in (["--dry-run"], [])
        ]
    dry, real = ((done.returncode, done.stdout, done.stderr) for done in runs)
    assert dry == real  # the lines refused before the file is opened, then the same refusal
    assert real[0] == 1
    assert [row.split(":", 2)[:2] for row in real[1].splitlines()] == [
        ["line 1", " skipped, invalid_arguments"], ["line 2", " skipped, content_too_large"]
    ]
    assert real[2].startswith("tact-memory: unavailable: memory database ") and "(stopped after 0 added, 2 skipped)" in real[2]
    assert (config.parent / "memory").exists() == (database == "present")
