"""The command line: tool, schema, status, list, export, delete, the person's commands, usage errors."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
from contextlib import closing
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from syrupy.assertion import SnapshotAssertion

from tact_memory.cli.app import cli
from tact_memory.cli.tool_lines import UNSTATED_ROLE_NOTE
from tact_memory.config.loading import load_config
from tact_memory.store.sqlite import MemoryStore

from ..conftest import write_config


def run(*args: str, input: str | None = None) -> click.testing.Result:
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


@pytest.fixture(autouse=True)
def _temporary_files_in_tmp_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`edit` keeps refused text in a temporary file, and an editor can leave a folder at its path;
    both go to the test's own folder, not the machine's temporary folder."""
    folder = tmp_path / "temporary"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


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
    result = run("--config", str(config_path), "tool", "--role", "root", input="\n".join(SESSION) + "\n\n")
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


@pytest.mark.parametrize("dialect", ["default", "openai-strict", "anthropic-strict", "gemini"])
def test_schema_prints_the_definition_in_the_dialect_asked_for(dialect: str) -> None:
    from tact_memory.tool.schemas import tool_definition

    out = run("schema", "--dialect", dialect)
    assert out.exit_code == 0
    assert out.output == json.dumps(tool_definition(dialect=dialect), indent=2, ensure_ascii=False) + "\n"  # type: ignore[arg-type]


def test_schema_offers_every_dialect_and_refuses_others() -> None:
    from tact_memory.cli.agents import schema_command
    from tact_memory.tool.schemas import DIALECTS

    (option,) = [param for param in schema_command.params if param.name == "dialect"]
    assert tuple(option.type.choices) == DIALECTS  # type: ignore[attr-defined]
    refused = CliRunner().invoke(cli, ["schema", "--dialect", "openai"])
    assert refused.exit_code == 2 and "'openai' is not one of" in refused.output


def test_status_before_and_after_use(config_path: Path, snapshot: SnapshotAssertion) -> None:
    before = run("--config", str(config_path), "status")
    assert "not created yet" in before.output
    assert not (config_path.parent / "memory").exists()
    run("--config", str(config_path), "tool", "--role", "root", input="\n".join(SESSION[1:3]) + "\n")
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
    run("--config", str(config_path), "tool", "--role", "root", input="\n".join(SESSION[1:5]) + "\n")
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
    assert stale.exit_code == 1 and "has no version 2; it is at version 1" in stale.output
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
        run("--config", str(path), "tool", "--role", "root", input="\n".join(SESSION[1:3]) + "\n")
        write_config(tmp_path / "cfg", enabled=False)
    before = db.read_bytes() if config_exists else None
    out = CliRunner().invoke(cli, args)
    assert out.exit_code == 1
    assert out.output.count("\n") == 1 and "memory is disabled" in out.output
    assert str(path) in out.output
    if config_exists:
        assert "set `enabled = true` under `[memory]`" in out.output
    else:
        assert "run `tact-memory init --enable`" in out.output
    assert (db.read_bytes() if config_exists else db.parent.exists()) == (before if config_exists else False)


def test_delete_checks_the_version_before_asking(config_path: Path) -> None:
    run("--config", str(config_path), "tool", "--role", "root", input="\n".join(SESSION[1:3]) + "\n")
    stale = run("--config", str(config_path), "delete", "1", "--version", "2", input="y\n")
    assert stale.exit_code == 1 and "Remove it" not in stale.output and "version_conflict: memory 1 has no version 2; it is at version 1" in stale.output
    assert "tact-memory show 1" in stale.output and "--version 1" in stale.output  # how to go on
    missing = run("--config", str(config_path), "delete", "7", "--version", "1", input="y\n")
    assert missing.exit_code == 1 and "Remove it" not in missing.output and "not_found: no memory has id 7" in missing.output
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


@pytest.mark.parametrize(
    "args",
    [["show", "9223372036854775808"], ["edit", "99999999999999999999"], ["delete", "9223372036854775808", "--version", "1"],
     ["delete", "1", "--version", "99999999999999999999"]],
)  # fmt: skip
def test_an_id_or_version_beyond_sqlite_integers_is_a_usage_error(config_path: Path, args: list[str]) -> None:
    assert run("--config", str(config_path), "add", "The cron job runs hourly").exit_code == 0
    result = CliRunner().invoke(cli, ["--config", str(config_path), *args], input="y\n")
    assert result.exit_code == 2 and not isinstance(result.exception, OverflowError)
    assert "larger than any id or version can be" in result.output
    assert json.loads(run("--config", str(config_path), "export").output)["key"] == {"id": 1, "version": 1}


def test_bad_config_exits_1_with_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "config.toml"
    bad.write_text("[memory]\nenabled = 'yes'\n")
    result = CliRunner().invoke(cli, ["--config", str(bad), "status"])
    assert result.exit_code == 1
    assert result.output.strip().count("\n") == 0
    assert "memory.enabled" in result.output


def _commands(group: click.Group, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], click.Command]]:
    """Every command under ``group``, sub-groups and their commands included, by its words."""
    found: list[tuple[tuple[str, ...], click.Command]] = []
    for name, command in group.commands.items():
        found.append(((*path, name), command))
        if isinstance(command, click.Group):
            found.extend(_commands(command, (*path, name)))
    return found


def test_every_command_has_help_with_an_example() -> None:
    assert isinstance(cli, click.Group)
    commands = _commands(cli)
    assert ("team", "token", "revoke") in [words for words, _ in commands]
    for words, command in commands:
        assert command.help and "Example:" in command.help, words
        assert run(*words, "-h").exit_code == 0, words


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


def test_every_command_shows_planted_controls_escaped(config_path: Path) -> None:
    run("--config", str(config_path), "tool", "--role", "root", input="\n".join(SESSION[1:3]) + "\n")
    # A row written around the store's validation, as anything with the file could.
    with closing(sqlite3.connect(config_path.parent / "memory" / "v1.sqlite3")) as conn, conn:
        conn.execute("UPDATE memories SET content = ? WHERE id = 1", (HOSTILE + "\nsecond line\x07\u2028",))
    cfg = ("--config", str(config_path))
    listing, full, shown = run(*cfg, "list").output, run(*cfg, "list", "--full").output, run(*cfg, "show", "1").output
    as_json = [run(*cfg, *command).output for command in (["show", "1", "--json"], ["list", "--json"], ["export"])]
    asked = run(*cfg, "delete", "1", "--version", "1", input="n\n").output
    for output in (listing, full, shown, *as_json, asked):
        assert not {"\x1b", "\r", "\u202e", "\u202c", "\x9b", "\x07", "\u2028"} & set(output), output
    row = listing.splitlines()[1]
    assert row.endswith(" *" + (HOSTILE_SHOWN + " second line\\x07\\u2028")[:64])  # ASCII: 64 bytes
    assert shown.endswith(f"\n\n{HOSTILE_SHOWN}\nsecond line\\x07\\u2028\n")
    assert f"{HOSTILE_SHOWN}\n{' ' * 42}second line" in full
    assert f"  {HOSTILE_SHOWN}\nsecond line\\x07\\u2028\n" in asked and "kept" in asked
    stored = HOSTILE + "\nsecond line\x07\u2028"  # JSON escapes lose nothing
    assert [json.loads(as_json[0])["content"], json.loads(as_json[1])[0]["content"], json.loads(as_json[2])["content"]] == [stored] * 3


# -- the person's commands: init, add, show, edit, import, list --full/--grep -------------------------


def test_tool_reads_pretty_printed_objects_and_keeps_going_after_bad_input(config_path: Path) -> None:
    calls = [
        json.dumps({"operation": "scan", "query": "release tags"}, indent=2),
        json.dumps({"operation": "put", "content": "Release tags use vX.Y.Z."}, indent=4),
        '"a string"',
        '{"operation": "read", "ids": [1]}',
    ]
    result = run("--config", str(config_path), "tool", "--role", "root", input="\n".join(calls) + "\n")
    assert result.exit_code == 0
    outputs = [json.loads(line) for line in result.output.splitlines()]
    assert [o["operation"] for o in outputs[:2]] == ["scan", "put"] and "memory" in outputs[1]
    assert outputs[2]["error"]["code"] == "invalid_arguments"
    assert outputs[3]["memories"][0]["content"] == "Release tags use vX.Y.Z."


def test_init_writes_a_commented_disabled_config_and_never_overwrites(tmp_path: Path, snapshot: SnapshotAssertion) -> None:
    target = tmp_path / "new" / "tact" / "config.toml"
    first = run("--config", str(target), "init")
    assert first.exit_code == 0
    assert first.output.replace(str(tmp_path), "<tmp>") == snapshot(name="output")
    assert target.read_text(encoding="utf-8") == snapshot(name="config.toml")
    assert (target.parent.stat().st_mode & 0o777) == 0o700
    status = json.loads(run("--config", str(target), "status", "--json").output)
    assert status["enabled"] is False and status["exists"] is False
    target.write_text("[memory]\nenabled = true\n", encoding="utf-8")
    again = run("--config", str(target), "init", "--enable")
    assert again.exit_code == 1 and again.output.count("\n") == 1
    assert "already exists; it was left unchanged" in again.output
    assert target.read_text(encoding="utf-8") == "[memory]\nenabled = true\n"


@pytest.mark.parametrize("found_by", ["--config", "TACT_HOME"])
def test_a_config_link_to_nothing_is_named_by_status_and_init(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, found_by: str) -> None:
    """Not "missing: defaults in force" on one side and "already exists" on the other: both say
    where the link points, and init says how to make the file there."""
    link, target = tmp_path / "tact" / "config.toml", tmp_path / "dotfiles" / "tact config.toml"
    link.parent.mkdir()
    link.symlink_to(target)
    cfg = ["--config", str(link)] if found_by == "--config" else []
    monkeypatch.setenv("TACT_HOME", str(link.parent))
    status, init = run(*cfg, "status"), run(*cfg, "init", "--enable")
    assert status.exit_code == init.exit_code == 1
    assert status.output == (
        f"tact-memory: {link}: is a symbolic link to {target}, which does not exist; create the file there "
        f"(`tact-memory --config '{target}' init`) or remove the link\n"
    )
    assert init.output == (
        f"tact-memory: {link} is a symbolic link to {target}, which does not exist; it was left unchanged. "
        f"Create the file there with `tact-memory --config '{target}' init --enable`, or remove the link\n"
    )
    assert link.is_symlink() and not target.exists() and not (link.parent / "memory").exists()
    assert run("--config", str(target), "init", "--enable").exit_code == 0  # as it says
    assert json.loads(run(*cfg, "status", "--json").output)["enabled"] is True


def test_init_follows_tact_home_and_enable_turns_memory_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TACT_HOME", str(tmp_path / "home-tact"))
    result = run("init", "--enable")
    assert result.exit_code == 0 and f"wrote {tmp_path / 'home-tact' / 'config.toml'} (memory enabled)" in result.output
    added = run("add", "the linter is ruff")
    assert added.output == "added memory 1 (version 1)\n"
    assert (tmp_path / "home-tact" / "memory" / "v1.sqlite3").exists()


def test_add_show_and_list_are_the_persons_and_touch_no_telemetry(config_path: Path, snapshot: SnapshotAssertion) -> None:
    cfg = ("--config", str(config_path))
    assert run(*cfg, "add", "  In the commonware repository, release tags use vX.Y.Z.\n").output == "added memory 1 (version 1)\n"
    from_stdin = run(*cfg, "add", input="Line one of a longer note about CI.\nLine two: it runs on every push.\n")
    assert from_stdin.output == "added memory 2 (version 1)\n"
    shown = run(*cfg, "show", "2")
    assert masked(shown.output) == snapshot(name="show")
    record = json.loads(run(*cfg, "show", "1", "--json").output)
    assert record["probation_until_ms"] is None and record["read_count"] == 0  # not model-authored
    assert json.loads(run(*cfg, "show", "1", "--json").output) == record  # show bumps nothing
    full = run(*cfg, "list", "--full", "--order", "id")
    assert masked(full.output) == snapshot(name="list --full")
    grep = run(*cfg, "list", "--grep", "TAGS Release", "--json")
    assert [r["key"]["id"] for r in json.loads(grep.output)] == [1]
    assert run(*cfg, "list", "--grep", "tags push").output == "no memory matches\n"
    by_id = run(*cfg, "list", "--grep", "#2 push", "--json")  # the browser's filter rule: words or the id
    assert [r["key"]["id"] for r in json.loads(by_id.output)] == [2]
    missing = run(*cfg, "show", "9")
    assert missing.exit_code == 1 and "not_found: no memory has id 9" in missing.output


def test_a_refused_add_changes_nothing_and_never_echoes_the_secret(config_path: Path) -> None:
    cfg = ("--config", str(config_path))
    run(*cfg, "add", "the release branch is main")
    secret = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
    refused = run(*cfg, "add", f"push with {secret}")
    assert refused.exit_code == 1 and "secret_rejected" in refused.output and secret not in refused.output
    duplicate = run(*cfg, "add", "The release  branch is MAIN")
    assert duplicate.exit_code == 1 and "duplicate: memory 1 (version 1) already says the same" in duplicate.output
    empty = run(*cfg, "add", input="  \n")
    assert empty.exit_code == 1 and "invalid_arguments: content is empty" in empty.output
    assert len(json.loads(run(*cfg, "list", "--json").output)) == 1


@pytest.mark.parametrize(
    ("args", "enabled", "advice"),
    [
        (["add", "x"], False, "set `enabled = true` under `[memory]` in"),
        (["show", "1"], False, "set `enabled = true` under `[memory]` in"),
        (["edit", "1"], None, "add `[memory]` and `enabled = true` to"),
        (["import", "-"], None, "add `[memory]` and `enabled = true` to"),
    ],
)
def test_person_commands_on_disabled_memory_say_how_to_enable_it(
    tmp_path: Path, args: list[str], enabled: bool | None, advice: str
) -> None:
    path = tmp_path / "cfg" / "config.toml"
    if enabled is None:
        path.parent.mkdir()
        path.write_text("# empty\n", encoding="utf-8")
    else:
        write_config(path.parent, enabled=enabled)
    result = run("--config", str(path), *args, input="")
    assert result.exit_code == 1
    assert result.output == f"tact-memory: memory is disabled; to enable it, {advice} {path}\n"
    assert not (path.parent / "memory").exists()


def test_person_commands_without_a_config_file_suggest_init(tmp_path: Path) -> None:
    result = run("add", "x")
    assert result.exit_code == 1 and "run `tact-memory init --enable`" in result.output


def editor(tmp_path: Path, body: str) -> str:
    """An EDITOR command: a Python script that gets the file to edit as ``path``."""
    script = tmp_path / "editor.py"
    script.write_text(f"import sys\nfrom pathlib import Path\npath = Path(sys.argv[1])\n{body}\n", encoding="utf-8")
    return f"{sys.executable} {script}"


def test_edit_replaces_the_version_it_opened(config_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = ("--config", str(config_path))
    run(*cfg, "add", "the CI runs on every push")
    monkeypatch.setenv("EDITOR", editor(tmp_path, "assert oct(path.stat().st_mode & 0o777) == '0o600'\n"
                                                   "path.write_text(path.read_text().replace('push', 'pull request'))"))  # fmt: skip
    assert run(*cfg, "edit", "1").output == "memory 1 is now version 2\n"
    record = json.loads(run(*cfg, "show", "1", "--json").output)
    assert record["content"] == "the CI runs on every pull request" and record["probation_until_ms"] is None
    monkeypatch.setenv("EDITOR", editor(tmp_path, "path.write_text(path.read_text() + '\\n\\n')"))
    assert run(*cfg, "edit", "1").output == "no change: memory 1 stays at version 2\n"
    monkeypatch.setenv("EDITOR", editor(tmp_path, "path.write_text('')"))
    assert run(*cfg, "edit", "1").output == "empty text: memory 1 stays at version 2\n"
    monkeypatch.setenv("EDITOR", editor(tmp_path, "sys.exit(3)"))
    failed = run(*cfg, "edit", "1")
    assert failed.exit_code == 1 and "Editing failed; memory 1 is unchanged" in failed.output
    assert json.loads(run(*cfg, "show", "1", "--json").output)["key"]["version"] == 2


def test_edit_never_overwrites_a_concurrent_change(config_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = ("--config", str(config_path))
    run(*cfg, "add", "the CI runs on every push")
    # While the person edits, another process (an agent) replaces the record.
    other = [sys.executable, "-m", "tact_memory.cli", "--config", str(config_path), "tool", "--role", "root"]
    calls = '{"operation": "scan", "query": "ci"}\n{"operation": "put", "content": "the CI runs nightly", "replace": {"id": 1, "version": 1}}\n'
    body = f"import subprocess\nsubprocess.run({other!r}, input={calls!r}, text=True, check=True, capture_output=True)\n"
    monkeypatch.setenv("EDITOR", editor(tmp_path, body + "path.write_text('the CI runs twice a day')"))
    result = run(*cfg, "edit", "1")
    assert result.exit_code == 1
    assert "version_conflict: memory 1 is at version 2, not 1" in result.output
    assert "your text was not stored" in result.output and "memory 1 is unchanged" not in result.output
    kept = Path(re.findall(r"it is kept in (\S+)\)", result.output)[0])
    assert kept.read_text(encoding="utf-8").strip() == "the CI runs twice a day"
    kept.unlink()
    assert json.loads(run(*cfg, "show", "1", "--json").output)["content"] == "the CI runs nightly"


def test_edit_refused_as_a_secret_deletes_the_temporary_file(config_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = ("--config", str(config_path))
    run(*cfg, "add", "the deploy token lives in the vault")
    record = tmp_path / "edited-file-name"
    body = f"Path({str(record)!r}).write_text(str(path))\npath.write_text('token ghp_abcdefghijklmnopqrstuvwxyz0123456789')"
    monkeypatch.setenv("EDITOR", editor(tmp_path, body))
    result = run(*cfg, "edit", "1")
    assert result.exit_code == 1 and "secret_rejected" in result.output and "ghp_" not in result.output
    assert not Path(record.read_text()).exists()
    assert json.loads(run(*cfg, "show", "1", "--json").output)["key"]["version"] == 1


def test_import_is_the_inverse_of_export(config_path: Path, tmp_path: Path, snapshot: SnapshotAssertion) -> None:
    run("--config", str(config_path), "tool", "--role", "root", input="\n".join(SESSION[1:5]) + "\n")
    run("--config", str(config_path), "add", "The docs site builds with mdBook.")
    exported = tmp_path / "memories.jsonl"
    exported.write_text(run("--config", str(config_path), "export").output, encoding="utf-8")
    other = write_config(tmp_path / "other")
    with exported.open("a", encoding="utf-8") as file:
        file.write('\nnot json\n{"content": "the docs site builds with MDBOOK."}\n{"content": "key AKIAFAKE0EXAMPLE07EL"}\n')
    dry = run("--config", str(other), "import", "--dry-run", str(exported))
    assert dry.exit_code == 1 and not (other.parent / "memory").exists()
    assert dry.output == snapshot(name="dry run")
    real = run("--config", str(other), "import", str(exported))
    assert real.exit_code == 1 and real.output == snapshot(name="import")
    assert "AKIA" not in real.output
    records = json.loads(run("--config", str(other), "list", "--json", "--order", "id").output)
    assert [r["content"] for r in records] == [json.loads(line)["content"] for line in exported.read_text().splitlines()[:2]]
    assert all(r["read_count"] == 0 and r["probation_until_ms"] is None for r in records)
    clean = run("--config", str(write_config(tmp_path / "third")), "import", "-", input=exported.read_text().split("\n\n")[0])
    assert clean.exit_code == 0 and clean.output.endswith("added 2, skipped 0\n")


def test_shell_completion_script_is_produced() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "tact_memory.cli"],
        env={**os.environ, "_TACT_MEMORY_COMPLETE": "bash_source"},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert "_tact_memory_completion()" in proc.stdout and "complete -o nosort -F _tact_memory_completion tact-memory" in proc.stdout
    words = subprocess.run(
        [sys.executable, "-m", "tact_memory.cli"],
        env={**os.environ, "_TACT_MEMORY_COMPLETE": "bash_complete", "COMP_WORDS": "tact-memory im", "COMP_CWORD": "1"},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert words.stdout.split() == ["plain,import"]


SERVING = "tact-memory: serving the memory tool to one MCP client over stdio (stdin and stdout); press Ctrl-C to stop\n"
UNSTATED_ROLE = (
    "tact-memory: no --role given, so this server's agent is a child (it may scan and read, not "
    "put or delete); pass --role root to let it write, or --role child to say so\n"
)


def _serve_in_a_terminal(config_path: Path, role: list[str], sigint: signal.Handlers, said: str) -> tuple[int, int, bytes]:
    """``tact-memory mcp`` started on a pseudo-terminal with SIGINT handled as ``sigint`` (as the
    shell would start it: the child does not inherit what the process running the tests does), once
    it has said ``said``: its process id, the terminal and what it wrote."""
    import pty
    import select
    import time

    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - the child
        signal.signal(signal.SIGINT, sigint)
        os.execv(sys.executable, [sys.executable, "-m", "tact_memory.cli", "--config", str(config_path), "mcp", *role])
    output = b""
    deadline = time.monotonic() + 120
    while output.decode(errors="replace").replace("\r\n", "\n") != said and time.monotonic() < deadline:
        if select.select([fd], [], [], 0.5)[0]:
            output += os.read(fd, 4096)
    assert output.decode(errors="replace").replace("\r\n", "\n") == said, output
    time.sleep(0.5)  # let it reach the stdin read
    return pid, fd, output


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
@pytest.mark.parametrize(("role", "said"), [([], SERVING + UNSTATED_ROLE), (["--role", "root"], SERVING), (["--role", "child"], SERVING)])
def test_mcp_in_a_terminal_says_what_it_does_and_ctrl_c_stops_it_cleanly(config_path: Path, role: list[str], said: str) -> None:
    """I17: a server started without --role serves a child, and says so in the client's log."""
    pytest.importorskip("mcp")
    import select
    import time

    pid, fd, output = _serve_in_a_terminal(config_path, role, signal.SIG_DFL, said)
    os.kill(pid, signal.SIGINT)
    deadline = time.monotonic() + 30
    while not (done := os.waitpid(pid, os.WNOHANG))[0] and time.monotonic() < deadline:
        try:
            if select.select([fd], [], [], 0.2)[0]:
                output += os.read(fd, 4096)
        except OSError:
            pass
    if not done[0]:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        pytest.fail(f"still running 30 s after SIGINT: {output!r}")
    os.close(fd)
    assert os.waitstatus_to_exitcode(done[1]) == 0
    text = output.decode().replace("\r\n", "\n")
    assert text == said


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_mcp_started_ignoring_ctrl_c_keeps_serving_through_it_and_does_not_offer_it(config_path: Path) -> None:
    """Started with SIGINT ignored (``nohup``, a script's background job), the server keeps ignoring
    it, as any Python program does, and its line at a terminal does not say Ctrl-C stops it."""
    pytest.importorskip("mcp")
    import time

    serving = SERVING.replace("; press Ctrl-C to stop", "")
    pid, fd, _ = _serve_in_a_terminal(config_path, ["--role", "child"], signal.SIG_IGN, serving)
    try:
        os.kill(pid, signal.SIGINT)
        time.sleep(1)  # the handler that stops it would have ended it within milliseconds
        assert os.waitpid(pid, os.WNOHANG) == (0, 0), "a SIGINT it was started ignoring ended it"
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)


def test_status_says_how_to_enable_memory(tmp_path: Path) -> None:
    """With no file, the way on is `init --enable` (there is nothing to edit); with one, the setting."""
    missing = run("--config", str(tmp_path / "none" / "config.toml"), "status")
    assert missing.exit_code == 1  # a file named with --config must exist
    fallback = CliRunner().invoke(cli, ["status"], env={"TACT_HOME": str(tmp_path / "home")})
    assert fallback.exit_code == 0 and "disabled (run `tact-memory init --enable` to enable)" in fallback.output
    off = tmp_path / "off" / "config.toml"
    off.parent.mkdir()
    off.write_text("[memory]\nenabled = false\n", encoding="utf-8")
    written = run("--config", str(off), "status")
    assert "disabled (set `[memory] enabled = true` to enable)" in written.output


@pytest.mark.parametrize("entry", ["fast", "click"])
def test_tool_without_a_role_runs_as_a_child_and_says_how_to_state_the_root(config_path: Path, entry: str) -> None:
    """I17: the command cannot tell whether a sub-agent runs it, so it is the root only when told."""
    calls = ['{"operation": "scan", "query": "x"}', '{"operation": "put", "content": "In repo a, use b."}',
             '{"operation": "delete", "id": 1, "version": 1}']  # fmt: skip
    command = ["--config", str(config_path), "tool"]
    if entry == "fast":
        done = subprocess.run([sys.executable, "-m", "tact_memory.cli", *command], input="\n".join(calls) + "\n",
                              capture_output=True, text=True, timeout=60, check=True)  # fmt: skip
        output = done.stdout
    else:
        output = run(*command, input="\n".join(calls) + "\n").output
    scan, put, delete = (json.loads(line) for line in output.splitlines())
    assert "error" not in scan
    for refused in (put, delete):
        assert refused["error"]["code"] == "forbidden" and refused["error"]["message"].endswith(UNSTATED_ROLE_NOTE)
    assert "--role root" in UNSTATED_ROLE_NOTE
    with MemoryStore(load_config(config_path).database_path) as store:
        assert store.list_records() == []


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ("path.unlink()", "No such file or directory"),
        ("path.unlink()\npath.mkdir()", "Is a directory"),
    ],
)
def test_edit_whose_editor_leaves_no_file_says_so_and_changes_nothing(
    config_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str, reason: str
) -> None:
    """An editor that saves by renaming can leave nothing, or something else, at the path it was given."""
    cfg = ("--config", str(config_path))
    run(*cfg, "add", "the CI runs on every push")
    monkeypatch.setenv("EDITOR", editor(tmp_path, body))
    result = CliRunner().invoke(cli, [*cfg, "edit", "1"])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)  # a named error, not a crash
    assert f"the edited file cannot be read back ({reason}: " in result.output
    assert result.output.rstrip().endswith("memory 1 is unchanged")
    assert json.loads(run(*cfg, "show", "1", "--json").output)["key"]["version"] == 1


def test_a_byte_order_mark_before_the_text_is_not_stored(config_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Editors on Windows (notepad) and some pipes put U+FEFF before UTF-8 text; it is not part of the
    conclusion, so it neither reaches the record nor hides a duplicate."""
    cfg = ("--config", str(config_path))
    assert run(*cfg, "add", input="\ufeffthe CI runs on every push\n").output == "added memory 1 (version 1)\n"
    again = CliRunner().invoke(cli, [*cfg, "add", "the CI runs on every push"])
    assert again.exit_code == 1 and "duplicate: memory 1" in again.output
    monkeypatch.setenv("EDITOR", editor(tmp_path, "path.write_text('\\ufeffthe CI runs on every pull request', encoding='utf-8')"))
    assert run(*cfg, "edit", "1").output == "memory 1 is now version 2\n"
    source = tmp_path / "notepad.jsonl"
    source.write_bytes(b'\xef\xbb\xbf{"content": "the docs build with mdBook"}\n')
    assert run(*cfg, "import", str(source)).output == "line 1: added as memory 2\nadded 1, skipped 0\n"
    stream = run(*cfg, "tool", input='\ufeff{"operation": "scan", "query": "mdBook"}\n')
    assert json.loads(stream.output)["candidates"][0]["key"]["id"] == 2
    contents = [r["content"] for r in json.loads(run(*cfg, "list", "--json", "--order", "id").output)]
    assert contents == ["the CI runs on every pull request", "the docs build with mdBook"]


def test_import_refuses_a_line_that_names_content_twice(config_path: Path, tmp_path: Path) -> None:
    source = tmp_path / "twice.jsonl"
    source.write_text('{"content": "the CI runs nightly", "content": "the CI runs hourly"}\n{"content": "a\\u0001', encoding="utf-8")
    result = CliRunner().invoke(cli, ["--config", str(config_path), "import", str(source)])
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == "line 1: skipped, invalid_arguments: the line names 'content' twice, so which value counts is not clear"
    assert " at at " not in result.output


@pytest.mark.parametrize("written", ["1_0", "１0", "٣", "1.0", "0x1", ""])
@pytest.mark.parametrize("command", ["show", "delete"])
def test_an_id_or_version_not_in_ascii_digits_names_no_record(config_path: Path, written: str, command: str) -> None:
    """Python's int() reads "1_0" as 10 and "٣" as 3; a slip of the keyboard must not pick another record."""
    cfg = ("--config", str(config_path))
    for n in range(10):
        run(*cfg, "add", f"record number {n} of the keyboard test")
    args = [command, written] if command == "show" else [command, "1", "--version", written, "--yes"]
    if command == "delete" and written == "":
        args = [command, written, "--version", "1", "--yes"]
    result = CliRunner().invoke(cli, [*cfg, *args])
    assert result.exit_code == 2 and f"{written!r} is not a whole number in digits 0-9" in result.output
    assert len(json.loads(run(*cfg, "list", "--json").output)) == 10


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("[memory]\nenabled = false\n", "; memory is disabled in it: to enable it, set `enabled = true` under `[memory]` in "),
        ("# mine\n", "; memory is disabled in it: to enable it, add `[memory]` and `enabled = true` to "),
        ("[memory]\nenabled = true\n", "; memory is enabled in it already"),
        ("[memory]\nenabled = 3\n", " (and it cannot be used as it is: "),
    ],
)
def test_init_enable_on_a_file_that_exists_says_whether_memory_is_on_and_how(tmp_path: Path, text: str, said: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    result = run("--config", str(path), "init", "--enable")
    assert result.exit_code == 1 and f"{path} already exists; it was left unchanged{said}" in result.output
    assert path.read_text(encoding="utf-8") == text
    plain = run("--config", str(path), "init")  # without --enable nothing was asked about memory
    assert plain.output == f"tact-memory: {path} already exists; it was left unchanged\n"


def test_edit_without_an_editor_says_how_to_choose_one(config_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run("--config", str(config_path), "add", "In the zephyr repo, tags use vX.Y.Z.")
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.delenv("EDITOR", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "no-programs"))
    result = run("--config", str(config_path), "edit", "1")
    assert result.exit_code == 1
    assert "no editor was found (tried sensible-editor, vim, nano and vi); set $EDITOR or $VISUAL" in result.output
    monkeypatch.setenv("EDITOR", "no-such-editor")
    result = run("--config", str(config_path), "edit", "1")
    assert "the editor $EDITOR names (no-such-editor) was not found; set $EDITOR to one that is installed" in result.output
    assert "memory 1 is unchanged" in result.output


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["list", "--config", "x.toml"], "--config goes before the command: tact-memory --config PATH list ..."),
        (["show", "1", "--config=x.toml"], "--config goes before the command: tact-memory --config PATH show ..."),
        (["team", "token", "list", "--workspace", "w"], "--workspace goes before the command: tact-memory --workspace DIR team token list ..."),
    ],
)
def test_a_global_option_after_the_command_is_a_usage_error_that_says_where_it_goes(args: list[str], said: str) -> None:
    result = run(*args)
    assert result.exit_code == 2 and f"Error: {said}" in result.output


def test_an_unknown_option_is_still_clicks_own_error() -> None:
    result = run("list", "--bogus")
    # click's wording: "No such option: --bogus" before 8.2, "No such option '--bogus'" since
    assert result.exit_code == 2 and re.search(r"Error: No such option:? '?--bogus\b", result.output), result.output


def test_a_refused_add_or_edit_says_which_command_goes_on(config_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = ("--config", str(config_path))
    run(*cfg, "add", "In the zephyr repo, tags use vX.Y.Z.")
    again = run(*cfg, "add", "in the Zephyr repo, tags use vX.Y.Z.")
    assert again.exit_code == 1
    assert again.output.rstrip().endswith("See it with `tact-memory show 1`; change it with `tact-memory edit 1`")
    other = [sys.executable, "-m", "tact_memory.cli", *cfg, "tool", "--role", "root"]
    calls = '{"operation": "scan", "query": "zephyr"}\n{"operation": "put", "content": "zephyr tags use vX.Y", "replace": {"id": 1, "version": 1}}\n'
    body = f"import subprocess\nsubprocess.run({other!r}, input={calls!r}, text=True, check=True, capture_output=True)\n"
    monkeypatch.setenv("EDITOR", editor(tmp_path, body + "path.write_text('zephyr tags use v1')"))
    edited = run(*cfg, "edit", "1")
    assert edited.exit_code == 1 and edited.output.rstrip().endswith("See it with `tact-memory show 1`, then edit it again")


def test_delete_without_an_answer_on_stdin_keeps_the_record_and_names_yes(config_path: Path) -> None:
    cfg = ("--config", str(config_path))
    run(*cfg, "add", "In the zephyr repo, tags use vX.Y.Z.")
    # A real process with stdin at its end (click's test runner before 8.2.1 answers an empty line instead).
    proc = subprocess.run(
        [sys.executable, "-m", "tact_memory.cli", *cfg, "delete", "1", "--version", "1"],
        input="", capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 1
    assert "no answer came on stdin, so memory 1 was kept; pass --yes to delete without asking" in proc.stderr + proc.stdout
    assert run(*cfg, "show", "1").exit_code == 0
