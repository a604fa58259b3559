"""Standard streams that are closed or cannot be written: a named message and an exit status, never
a traceback, and nothing acknowledged lost.

Real processes: Python replaces a stream closed at start with ``None``, and ``/dev/full`` refuses
every write with ``ENOSPC``, as a full disk under a redirected output does.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tact_memory.store.sqlite import MemoryStore

from ..conftest import write_config

FULL = Path("/dev/full")
needs_full = pytest.mark.skipif(not FULL.exists(), reason="no /dev/full on this system")
OUTPUT_FAILED = "tact-memory: the output could not be written (No space left on device)"


def run(config: Path, *args: str, stdin: str | None = "", stdout: str = "pipe") -> subprocess.CompletedProcess[str]:
    """``tact-memory --config CONFIG ARGS`` in a new process; ``stdin`` None starts it with fd 0
    closed; ``stdout`` ``"full"`` sends its output to ``/dev/full``, ``"closed"`` closes fd 1."""
    command = [sys.executable, "-m", "tact_memory.cli", "--config", str(config), *args]
    if stdin is None:
        command = ["sh", "-c", 'exec "$@" <&-', "sh", *command]
    if stdout == "closed":
        command = ["sh", "-c", 'exec "$@" >&-', "sh", *command]
    out = open(FULL, "w") if stdout == "full" else subprocess.PIPE  # noqa: SIM115
    try:
        return subprocess.run(
            command, input=stdin, stdout=out, stderr=subprocess.PIPE, text=True, timeout=60,
            env={**os.environ, "PYTHONUTF8": "1"},
        )  # fmt: skip
    finally:
        if out is not subprocess.PIPE:
            out.close()


def contents(db_path: Path) -> list[str]:
    store = MemoryStore(db_path)
    try:
        return [r.content for r in store.list_records(order="id")]
    finally:
        store.close()


@needs_full
def test_an_add_whose_answer_cannot_be_printed_is_kept_and_says_so(config_path: Path, db_path: Path) -> None:
    done = run(config_path, "add", "In the cairn repository, builds use the nightly toolchain.", stdout="full")
    assert done.returncode == 1
    assert done.stderr.startswith(OUTPUT_FAILED) and "what the command changed before that stands" in done.stderr
    assert "Traceback" not in done.stderr
    assert contents(db_path) == ["In the cairn repository, builds use the nightly toolchain."]


@needs_full
@pytest.mark.parametrize(
    "args",
    [
        ("list",),
        ("list", "--json"),
        ("show", "1"),
        ("export",),
        ("status",),
        ("schema",),
        ("tool", '{"operation": "scan", "query": "cairn toolchain"}'),
        ("tool", "--role", "root", '{"operation": "read", "ids": [1]}'),
    ],
)
def test_every_command_whose_output_cannot_be_written_names_it_and_exits_1(
    config_path: Path, db_path: Path, args: tuple[str, ...]
) -> None:
    store = MemoryStore(db_path)
    store.put("In the cairn repository, builds use the nightly toolchain.")
    store.close()
    done = run(config_path, *args, stdout="full")
    assert (done.returncode, done.stderr.splitlines()) == (1, [OUTPUT_FAILED + "; what the command changed before that stands."])


@needs_full
def test_a_stream_of_tool_calls_stops_at_the_first_answer_it_cannot_write(config_path: Path, db_path: Path) -> None:
    calls = [
        {"operation": "scan", "query": "cairn"},
        {"operation": "put", "content": "In the cairn repository, builds use the nightly toolchain."},
        {"operation": "put", "content": "In the cairn repository, releases are cut on Fridays."},
    ]
    done = run(config_path, "tool", "--role", "root", stdin="\n".join(json.dumps(c) for c in calls), stdout="full")
    assert done.returncode == 1 and done.stderr.startswith(OUTPUT_FAILED) and "Traceback" not in done.stderr
    assert contents(db_path) == []  # the scan's answer was the first write refused: no call after it ran


@needs_full
def test_a_prompt_hook_whose_checkpoint_cannot_be_written_fails_without_blocking_the_prompt(config_path: Path) -> None:
    event = {"hook_event_name": "UserPromptSubmit", "session_id": "s-1", "prompt": "go on"}
    first = run(config_path, "hook", "user-prompt-submit", stdin=json.dumps(event))
    assert first.returncode == 0
    done = run(config_path, "hook", "user-prompt-submit", stdin=json.dumps(event), stdout="full")
    assert done.returncode == 1  # never 2, which clients read as "block this prompt"
    assert done.stderr.startswith(OUTPUT_FAILED) and "Traceback" not in done.stderr


def test_tool_with_stdin_closed_answers_no_call(config_path: Path) -> None:
    done = run(config_path, "tool", "--role", "root", stdin=None)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_tool_with_its_call_given_does_not_need_stdin(config_path: Path) -> None:
    done = run(config_path, "tool", '{"operation": "scan", "query": "cairn"}', stdin=None)
    assert done.returncode == 0 and json.loads(done.stdout)["abstained"] is True and done.stderr == ""


def test_add_with_stdin_closed_finds_no_text_and_stores_nothing(config_path: Path, db_path: Path) -> None:
    done = run(config_path, "add", stdin=None)
    assert done.returncode == 1 and "content is empty" in done.stderr and "Traceback" not in done.stderr
    assert not db_path.exists()


def test_import_from_a_closed_stdin_adds_nothing(config_path: Path) -> None:
    done = run(config_path, "import", "-", stdin=None)
    assert (done.returncode, done.stdout.strip(), done.stderr) == (0, "added 0, skipped 0", "")


def test_delete_with_stdin_closed_gets_no_confirmation_and_keeps_the_record(config_path: Path, db_path: Path) -> None:
    store = MemoryStore(db_path)
    key = store.put("In the cairn repository, builds use the nightly toolchain.").memory.key
    store.close()
    done = run(config_path, "delete", str(key.id), "--version", str(key.version), stdin=None)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.strip().endswith("was kept; pass --yes to delete without asking")
    assert contents(db_path) == ["In the cairn repository, builds use the nightly toolchain."]


def test_an_error_that_is_not_about_the_output_is_not_called_one() -> None:
    """Only a failed write to a standard stream is reported as one; any other ``OSError`` (a bug)
    keeps its traceback."""
    from tact_memory.cli import entry

    try:
        os.stat("/nonexistent/for/sure")
    except OSError as exc:
        assert not entry._writing_output(exc)
    try:
        sys.stdout.flush()
        with open(FULL if FULL.exists() else os.devnull, "w") as elsewhere:
            elsewhere.write("x")
            elsewhere.flush()
    except OSError as exc:
        assert not entry._writing_output(exc)  # a file of its own, not standard output


@pytest.mark.parametrize("plain", [True, False])
def test_a_closed_output_takes_the_answers_as_python_does_and_the_work_is_done(
    config_path: Path, db_path: Path, plain: bool
) -> None:
    """As ``print`` with a closed stdout: nothing to show, no traceback; the put is stored. (``tool``
    runs without click, ``add`` through it.)"""
    content = "In the cairn repository, builds use the nightly toolchain."
    if plain:
        calls = [{"operation": "scan", "query": "cairn"}, {"operation": "put", "content": content}]
        done = run(config_path, "tool", "--role", "root", stdin="\n".join(json.dumps(c) for c in calls), stdout="closed")
    else:
        done = run(config_path, "add", content, stdout="closed")
    assert (done.returncode, done.stderr) == (0, "")
    assert contents(db_path) == [content]


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal is POSIX")
@pytest.mark.parametrize(
    ("args", "data", "said"),
    [
        (["add"], b"In repo q, builds use make.\n", "the memory's text"),
        (["tool", "--role", "root"], b'{"operation": "scan", "query": "q"}\n', "tool calls, one JSON object a line,"),
        (["import", "-"], b"", "export lines (JSON, one record a line)"),
    ],
)
def test_a_command_reading_a_terminal_says_what_it_waits_for(tmp_path: Path, args: list[str], data: bytes, said: str) -> None:
    """Run by a person without its argument, a command that reads stdin says so (and how to end);
    reading a pipe it says nothing (the other tests hold stderr empty)."""
    import pty

    config = write_config(tmp_path)
    main, terminal = pty.openpty()
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "tact_memory.cli", "--config", str(config), *args],
            stdin=terminal, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip
        os.close(terminal)
        os.write(main, data + b"\x04")  # the line, then end of input as a terminal gives it
        out, err = process.communicate(timeout=60)
    finally:
        os.close(main)
    assert process.returncode == 0, err
    assert err.decode() == f"tact-memory: reading {said} from the terminal; end with Ctrl-D on a line of its own\n"
