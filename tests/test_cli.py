"""The command line: tool, schema, status, list, export, delete, usage errors."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from syrupy.assertion import SnapshotAssertion

from tact_memory.cli import cli

from .conftest import write_config


def run(*args: str, input: str | None = None) -> click.testing.Result:
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


def masked(text: str) -> str:
    """Hide wall-clock times so snapshots are stable."""
    text = re.sub(r'"(\w+_at_ms|probation_until_ms)": \d+', r'"\1": "<ms>"', text)
    return re.sub(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}", "<time>", text)


SESSION = [
    '{"operation": "put", "content": "too early"}',
    '{"operation": "scan", "query": "release tags"}',
    '{"operation": "put", "content": "In the `commonware` repository, release tags use vX.Y.Z."}',
    '{"operation": "scan", "query": "commonware release tags"}',
    '{"operation": "read", "ids": [1]}',
    "not json",
    "[]",
]


def test_tool_over_stdin_is_one_instance_one_result_a_line(config_path: Path, snapshot: SnapshotAssertion) -> None:
    result = run("--config", str(config_path), "tool", input="\n".join(SESSION) + "\n\n")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert len(lines) == len(SESSION)
    assert all(isinstance(json.loads(line), dict) for line in lines)
    assert masked(result.output) == snapshot


def test_tool_with_a_call_argument_and_child_role(config_path: Path) -> None:
    out = run("--config", str(config_path), "tool", "--role", "child", '{"operation": "put", "content": "x"}')
    assert json.loads(out.output)["error"]["code"] == "forbidden"
    out = run("--config", str(config_path), "tool", "--role", "child", '{"operation": "scan", "query": "x"}')
    assert json.loads(out.output) == {"operation": "scan", "abstained": True, "candidates": []}


def test_tool_on_a_disabled_config_answers_disabled_and_creates_nothing(tmp_path: Path) -> None:
    path = write_config(tmp_path / "cfg", enabled=False)
    out = run("--config", str(path), "tool", '{"operation": "scan", "query": "x"}')
    assert json.loads(out.output)["error"]["code"] == "disabled"
    assert not (tmp_path / "cfg" / "memory").exists()


def test_schema_needs_no_config(tmp_path: Path, snapshot: SnapshotAssertion) -> None:
    out = run("--config", str(tmp_path / "missing.toml"), "schema")
    assert out.exit_code == 0
    assert json.loads(out.output)["name"] == "memory"
    assert out.output == snapshot


def test_status_before_and_after_use(config_path: Path, snapshot: SnapshotAssertion) -> None:
    before = run("--config", str(config_path), "status")
    assert "not created yet" in before.output
    assert not (config_path.parent / "memory").exists()
    run("--config", str(config_path), "tool", input="\n".join(SESSION[1:3]) + "\n")
    after = run("--config", str(config_path), "status", "--json")
    data = json.loads(after.output)
    assert data["rows"] == {"used": 1, "limit": 512}
    assert data["content_bytes"]["used"] == len("In the `commonware` repository, release tags use vX.Y.Z.")
    assert data["on_probation"] == 1 and data["problem"] is None
    text = run("--config", str(config_path), "status").output
    assert masked(text.replace(str(config_path.parent), "<dir>")) == snapshot


def test_status_reports_a_corrupt_database_by_name(config_path: Path) -> None:
    db = config_path.parent / "memory" / "v1.sqlite3"
    db.parent.mkdir()
    db.write_bytes(b"garbage" * 100)
    out = run("--config", str(config_path), "status")
    assert out.exit_code == 1
    assert "problem   not_a_database" in out.output


def test_list_export_and_delete(config_path: Path, snapshot: SnapshotAssertion) -> None:
    run("--config", str(config_path), "tool", input="\n".join(SESSION[1:5]) + "\n")
    listing = run("--config", str(config_path), "list")
    assert masked(listing.output) == snapshot
    exported = run("--config", str(config_path), "export").output.splitlines()
    assert [json.loads(line)["key"] for line in exported] == [{"id": 1, "version": 1}]
    assert json.loads(exported[0])["read_count"] == 1  # export shows, and does not bump, telemetry
    assert json.loads(run("--config", str(config_path), "export").output)["read_count"] == 1
    refused = run("--config", str(config_path), "delete", "1", "--version", "1", input="n\n")
    assert "kept" in refused.output
    assert len(json.loads(run("--config", str(config_path), "list", "--json").output)) == 1
    stale = run("--config", str(config_path), "delete", "1", "--version", "2", "--yes")
    assert stale.exit_code == 1 and "version 1, not 2" in stale.output
    done = run("--config", str(config_path), "delete", "1", "--version", "1", input="y\n")
    assert done.exit_code == 0
    assert "removed from the database and from retrieval" in done.output
    assert "not proof of physical erasure" in done.output
    assert json.loads(run("--config", str(config_path), "list", "--json").output) == []


@pytest.mark.parametrize("args", [["list"], ["list", "--json"], ["export"], ["delete", "1", "--version", "1", "--yes"]])
@pytest.mark.parametrize("config_exists", [True, False])
def test_list_export_and_delete_say_memory_is_disabled_like_the_browser(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], config_exists: bool
) -> None:
    path = write_config(tmp_path / "cfg", enabled=False) if config_exists else tmp_path / "cfg" / "config.toml"
    monkeypatch.setenv("TACT_HOME", str(tmp_path / "cfg"))  # a missing default file means defaults (off)
    db = tmp_path / "cfg" / "memory" / "v1.sqlite3"
    if config_exists:  # records stored while memory was on stay out of sight, and untouched
        write_config(tmp_path / "cfg")
        run("--config", str(path), "tool", input="\n".join(SESSION[1:3]) + "\n")
        write_config(tmp_path / "cfg", enabled=False)
    before = db.read_bytes() if config_exists else None
    out = CliRunner().invoke(cli, args)
    assert out.exit_code == 1
    assert out.output.count("\n") == 1 and "memory is disabled" in out.output
    assert "`[memory] enabled = true`" in out.output and str(path) in out.output
    assert ("does not exist" in out.output) is not config_exists
    assert (db.read_bytes() if config_exists else db.parent.exists()) == (before if config_exists else False)


def test_delete_checks_the_version_before_asking(config_path: Path) -> None:
    run("--config", str(config_path), "tool", input="\n".join(SESSION[1:3]) + "\n")
    stale = run("--config", str(config_path), "delete", "1", "--version", "2", input="y\n")
    assert stale.exit_code == 1 and "Remove it" not in stale.output and "version 1, not 2" in stale.output
    missing = run("--config", str(config_path), "delete", "7", "--version", "1", input="y\n")
    assert missing.exit_code == 1 and "Remove it" not in missing.output and "no memory has id 7" in missing.output
    assert len(json.loads(run("--config", str(config_path), "list", "--json").output)) == 1


@pytest.mark.parametrize("yes", [True, False])
def test_delete_on_an_unusable_file_is_one_clean_line(config_path: Path, yes: bool) -> None:
    db = config_path.parent / "memory" / "v1.sqlite3"
    db.parent.mkdir()
    db.write_bytes(b"garbage" * 100)
    out = CliRunner().invoke(cli, ["--config", str(config_path), "delete", "1", "--version", "1", *(["--yes"] if yes else [])])
    assert out.exit_code == 1 and isinstance(out.exception, SystemExit)  # not a traceback
    assert out.output.count("\n") == 1 and "not a valid SQLite database" in out.output
    assert db.read_bytes() == b"garbage" * 100


@pytest.mark.parametrize(
    "args",
    [["nonsense"], ["tool", "--role", "admin"], ["delete", "1"], ["delete", "zero", "--version", "1"], ["list", "--order", "random"]],
)
def test_bad_usage_exits_2_with_a_usage_line(config_path: Path, args: list[str]) -> None:
    result = CliRunner().invoke(cli, ["--config", str(config_path), *args])
    assert result.exit_code == 2
    assert "Usage:" in result.output


def test_bad_config_exits_1_with_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "config.toml"
    bad.write_text("[memory]\nenabled = 'yes'\n")
    result = CliRunner().invoke(cli, ["--config", str(bad), "status"])
    assert result.exit_code == 1
    assert result.output.strip().count("\n") == 0
    assert "memory.enabled" in result.output


def test_every_command_has_help_with_an_example() -> None:
    assert isinstance(cli, click.Group)
    for name, command in cli.commands.items():
        assert command.help and "Example:" in command.help, name
        assert run(name, "-h").exit_code == 0


def test_console_script_runs_in_a_real_process(config_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "tact_memory.cli", "--config", str(config_path), "tool"],
        input='{"operation": "scan", "query": "anything"}\n',
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert json.loads(proc.stdout) == {"operation": "scan", "abstained": True, "candidates": []}


HOSTILE = "red \x1b[31mALERT\x1b[0m\rfake \u202etxt.exe\u202c \x9b2J"
HOSTILE_SHOWN = "red \\x1b[31mALERT\\x1b[0m\\rfake \\u202etxt.exe\\u202c \\x9b2J"


def test_list_and_delete_show_planted_controls_escaped(config_path: Path) -> None:
    run("--config", str(config_path), "tool", input="\n".join(SESSION[1:3]) + "\n")
    # A row written around the store's validation, as anything with the file could.
    with closing(sqlite3.connect(config_path.parent / "memory" / "v1.sqlite3")) as conn, conn:
        conn.execute("UPDATE memories SET content = ? WHERE id = 1", (HOSTILE + "\nsecond line",))
    listing = run("--config", str(config_path), "list").output
    asked = run("--config", str(config_path), "delete", "1", "--version", "1", input="n\n").output
    for output in (listing, asked):
        assert not {"\x1b", "\r", "\u202e", "\u202c", "\x9b"} & set(output), output
    row = listing.splitlines()[1]
    assert row.endswith(" *" + (HOSTILE_SHOWN + " second line")[:64])  # ASCII: 64 bytes
    assert f"  {HOSTILE_SHOWN}\nsecond line\n" in asked and "kept" in asked
