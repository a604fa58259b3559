"""The console entry point: ``tool`` and ``hook`` without click, and exactly what click would do."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import types
from pathlib import Path

import click
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.cli.app import cli
from tact_memory.cli.entry import plain_command

from ..conftest import write_config

A_FILE = Path(__file__).resolve()
"""A workspace click refuses (a file, not a folder)."""
CALL = '{"operation": "scan", "query": "release tags"}'
HEAVY = ("click", "pydantic", "tact_memory.cli.app", "tact_memory.runtime.session", "platformdirs")

TOKENS = [
    "--config", "--config=c.toml", "c.toml", "--workspace", "--workspace=ws", "ws", f"--workspace={A_FILE}",
    "tool", "hook", "status", "--role", "--role=child", "--role=admin", "root", "child", "admin", CALL, "",
    "-", "--", "-h", "--help", "--version", "--rol", "-x", "user-prompt-submit", "session-start",
]  # fmt: skip


def click_reading(argv: list[str]) -> dict[str, str | None] | None:
    """What the click application reads from ``argv``: the options of ``tool`` or ``hook``, or None
    when it would not run one of them (usage error, help, version, another command)."""
    try:
        group = cli.make_context("tact-memory", list(argv))
        protected = getattr(group, "_protected_args", None)  # click 8.2 and later; protected_args before
        protected = group.protected_args if protected is None else protected
        name, command, rest = cli.resolve_command(group, [*protected, *group.args])
        if name not in ("tool", "hook") or command is None:
            return None
        sub = command.make_context(name, rest, parent=group)
    except (click.exceptions.Exit, click.ClickException):
        return None
    reading = {"command": name, "config": group.params["config_path"], "workspace": group.params["workspace"]}
    return {**reading, **sub.params}


@given(st.lists(st.sampled_from(TOKENS), max_size=6))
def test_a_command_line_run_without_click_is_read_as_click_reads_it(argv: list[str]) -> None:
    plain = plain_command(argv)
    if plain is None:
        return  # click runs it
    command, options = plain
    expected = click_reading(argv)
    assert expected is not None, argv
    seen: dict[str, str | None] = {"command": command, **options}
    assert seen == expected


@pytest.mark.parametrize(
    "argv",
    [
        ["tool", CALL],
        ["--config", "c.toml", "tool", "--role", "child", CALL],
        ["--config=c.toml", "--workspace", "ws", "tool", CALL, "--role=root"],
        ["tool"],
        ["--config", "c.toml", "hook", "user-prompt-submit"],
    ],
)
def test_the_usual_command_lines_skip_click(argv: list[str]) -> None:
    assert plain_command(argv) is not None


@pytest.mark.parametrize(
    "argv",
    [["--help"], ["tool", "--help"], ["tool", "-h"], ["--version"], ["status"], ["tool", "--role", "admin", CALL],
     ["tool", CALL, CALL], ["--config", "--workspace", "tool"], ["--config", "a", "--config", "b", "tool"],
     ["hook", "pre-tool-use"], ["hook", "user-prompt-submit", "extra"], ["--workspace", str(A_FILE), "tool"]],
)  # fmt: skip
def test_help_errors_and_other_commands_go_to_click(argv: list[str]) -> None:
    assert plain_command(argv) is None


def _run(entry: str, args: list[str], *, cwd: Path, data: str = "", extra: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    """Run the command line through the console entry point (``fast``) or the click app (``click``)."""
    code = {
        "fast": "import sys; from tact_memory.cli import main; sys.argv[0] = 'tact-memory'; main()",
        "click": "import sys; from tact_memory.cli.app import main; sys.argv[0] = 'tact-memory'; main()",
    }[entry]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    return subprocess.run(
        [sys.executable, *extra, "-c", code, *args], input=data, capture_output=True, text=True, cwd=cwd, env=env, check=False
    )


CASES = {
    "scan": (["tool", CALL], ""),
    "child put": (["tool", "--role=child", '{"operation": "put", "content": "x"}'], ""),
    "stdin session": (["tool"], '{"operation": "scan", "query": "x"}\nnot json\n{"operation": "put", "content": "In repo a, use b."}\n'),
    "root session": (["tool", "--role", "root"], '{"operation": "scan", "query": "x"}\n{"operation": "put", "content": "In repo a, use b."}\n'),
    "help": (["tool", "--help"], ""),
    "bad role": (["tool", "--role", "admin", CALL], ""),
    "hook": (["hook", "user-prompt-submit"], '{"session_id": "s1"}'),
    "hook bad input": (["hook", "user-prompt-submit"], "[]"),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("enabled", [True, False])
def test_the_process_prints_and_exits_as_click_does(case: str, enabled: bool, tmp_path: Path) -> None:
    args, data = CASES[case]
    outputs = []
    for entry in ("fast", "click"):
        config = write_config(tmp_path / entry, enabled=enabled)
        done = _run(entry, ["--config", str(config), *args], cwd=tmp_path, data=data)
        stdout = re.sub(r'_ms": \d+', '_ms": 0', done.stdout)  # wall-clock times
        outputs.append((done.returncode, stdout, done.stderr.replace(str(tmp_path / entry), "<dir>")))
    assert outputs[0] == outputs[1]


UNDECODABLE = [
    "[" * 100_000 + "]" * 100_000,  # deeper than the decoder goes
    '{"operation": "read", "ids": [1' + "0" * 5_000 + "]}",  # more digits than int() takes
    "[" * 2_000 + "\n" + "]" * 2_000,  # deep, over two lines
    '{"operation": "read", "ids": [' + "[" * 2_000 + "x\n",  # deep, with an error
]


@pytest.mark.parametrize("entry", ["fast", "click"])
def test_values_the_decoder_cannot_take_are_refused_and_the_stream_goes_on(entry: str, tmp_path: Path) -> None:
    config = write_config(tmp_path / entry)
    data = "".join(f"{CALL}\n{value}\n" for value in UNDECODABLE) + CALL + "\n"
    done = _run(entry, ["--config", str(config), "tool"], cwd=tmp_path, data=data)
    assert (done.returncode, done.stderr) == (0, "")
    codes = [json.loads(line).get("error", {}).get("code") for line in done.stdout.splitlines()]
    assert codes == [None, "invalid_arguments"] * len(UNDECODABLE) + [None]


def test_a_missing_or_invalid_config_fails_as_click_does(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[memory]\nenabled = 3\n", encoding="utf-8")
    for config in (tmp_path / "missing.toml", bad):
        fast, slow = (_run(entry, ["--config", str(config), "tool", CALL], cwd=tmp_path) for entry in ("fast", "click"))
        assert (fast.returncode, fast.stdout, fast.stderr) == (slow.returncode, slow.stdout, slow.stderr)
        assert fast.returncode == 1 and fast.stderr.startswith("tact-memory: ")


def _imported(stderr: str) -> set[str]:
    return {line.rsplit("|", 1)[-1].strip() for line in stderr.splitlines() if line.startswith("import time:")}


def test_a_cold_tool_scan_imports_no_click_pydantic_or_session(config_path: Path, tmp_path: Path) -> None:
    put = '{"operation": "put", "content": "In the `commonware` repository, release tags use vX.Y.Z."}'
    _run("fast", ["--config", str(config_path), "tool", "--role", "root"], cwd=tmp_path, data=f"{CALL}\n{put}\n")
    done = _run("fast", ["--config", str(config_path), "tool", CALL], cwd=tmp_path, extra=("-X", "importtime"))
    assert done.returncode == 0
    assert json.loads(done.stdout)["candidates"][0]["key"]["id"] == 1
    imported = _imported(done.stderr)
    assert "tact_memory.store.sqlite" in imported  # the check reads what was imported
    # ASCII records are folded by the module's own table: the confusable data is never opened.
    # The store's lock and the screen's per-thread counters come from _thread, not threading.
    # Nor typing: the package names its protocol and type aliases for type checkers only. The
    # reader of the file's loose bytes is for the scrub after a removal, which a scan never makes.
    for heavy in (*HEAVY, "importlib.resources", "threading", "typing", "tact_memory.store.residue"):
        assert not any(name == heavy or name.startswith(heavy + ".") for name in imported), heavy


def test_the_hook_through_the_cli_imports_no_click_store_or_sqlite(config_path: Path, tmp_path: Path) -> None:
    data = '{"session_id": "s1"}'
    _run("fast", ["--config", str(config_path), "hook", "user-prompt-submit"], cwd=tmp_path, data=data)
    done = _run("fast", ["--config", str(config_path), "hook", "user-prompt-submit"], cwd=tmp_path, data=data, extra=("-X", "importtime"))
    assert done.returncode == 0 and "additionalContext" in done.stdout
    imported = _imported(done.stderr)
    assert "tact_memory.hooks.prompt_hook" in imported
    for heavy in (*HEAVY, "sqlite3", "tact_memory.store", "tact_memory.config", "dataclasses"):
        assert not any(name == heavy or name.startswith(heavy + ".") for name in imported), heavy


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
@pytest.mark.parametrize("entry", ["fast", "click"])
@pytest.mark.parametrize("ignored", [False, True], ids=["at-a-terminal", "ignoring-ctrl-c"])
def test_ctrl_c_while_reading_calls_says_aborted_and_exits_1(entry: str, ignored: bool, config_path: Path) -> None:
    """Ctrl-C while a stream of calls waits for the next: ``Aborted!`` and exit 1, as click says it.
    A process started with SIGINT ignored (under ``nohup``, or as a shell script's background job)
    keeps ignoring it, as Python itself does, and goes on answering.

    The child sets SIGINT's handling first, as Python does when a shell starts it in the foreground:
    otherwise it would inherit whatever the process running the tests had (ignored, when the tests
    run as a background job).
    """
    start = "import signal; signal.signal(signal.SIGINT, signal.SIG_IGN if sys.argv[-1] == 'ignored' else signal.default_int_handler); "
    code = {
        "fast": "import sys; " + start + "sys.argv.pop(); from tact_memory.cli import main; main()",
        "click": "import sys; " + start + "sys.argv.pop(); from tact_memory.cli.app import main; main()",
    }[entry]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    args = [sys.executable, "-c", code, "--config", str(config_path), "tool", "ignored" if ignored else "default"]
    with subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) as proc:
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        proc.stdin.write(CALL + "\n")
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["operation"] == "scan"  # answered: now waiting for the next call
        proc.send_signal(signal.SIGINT)
        if ignored:
            proc.stdin.write(CALL + "\n")
            proc.stdin.flush()
            assert json.loads(proc.stdout.readline())["operation"] == "scan"
            proc.stdin.close()
            assert proc.wait(timeout=30) == 0
            assert proc.stderr.read() == ""
        else:
            assert proc.wait(timeout=30) == 1
            assert proc.stderr.read() == "\nAborted!\n"


@pytest.mark.parametrize("collecting", [True, False])
@pytest.mark.parametrize("stream", [True, False])
def test_one_call_runs_without_the_collector_and_leaves_it_as_the_caller_had_it(
    collecting: bool, stream: bool, config_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A call given on the command line is answered with the cyclic collector off; a stream of
    calls on standard input runs with it as it was; either way a caller in the same process finds
    the collector as it left it (also a caller that had switched it off)."""
    import gc
    import io

    from tact_memory.cli import entry

    seen: list[bool] = []
    echo = entry._echo

    def noting(text: str, *, err: bool = False) -> None:
        seen.append(gc.isenabled())
        echo(text, err=err)

    monkeypatch.setattr(entry, "_echo", noting)
    monkeypatch.setattr(entry, "_streams_usable", lambda: True)
    monkeypatch.setattr(sys, "stdin", types.SimpleNamespace(buffer=io.BytesIO(f"{CALL}\n{CALL}\n".encode())))
    was = gc.isenabled()
    (gc.enable if collecting else gc.disable)()
    try:
        entry.main(["--config", str(config_path), "tool", *([] if stream else [CALL])])
        after = gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()
    answers = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [a["operation"] for a in answers] == ["scan"] * (2 if stream else 1)
    assert seen == ([collecting] * 2 if stream else [False])
    assert after is collecting


def test_a_one_call_tool_process_leaves_the_collector_as_it_found_it(config_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Also when the call ends in an exit (an unusable configuration exits 1 before any answer)."""
    import gc

    from tact_memory.cli import entry

    monkeypatch.setattr(entry, "_streams_usable", lambda: True)
    bad = config_path.parent / "bad.toml"
    bad.write_text("[memory]\nenabled = 3\n", encoding="utf-8")
    assert gc.isenabled()
    with pytest.raises(SystemExit):
        entry.main(["--config", str(bad), "tool", CALL])
    assert gc.isenabled()


EMPTY_PATHS = {
    "--config=": ["--config="],
    "--config ''": ["--config", ""],
    "--workspace=": ["--workspace="],
    "--workspace ''": ["--workspace", ""],
}
COMMANDS = {
    "tool": (["tool", CALL], ""),
    "hook": (["hook", "user-prompt-submit"], '{"session_id": "s1"}'),
    "status": (["status"], ""),
    "init": (["init", "--enable"], ""),
    "setup": (["setup", "claude-code", "--print"], ""),
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("option", sorted(EMPTY_PATHS))
@pytest.mark.parametrize("entry", ["fast", "click"])
def test_an_empty_path_is_refused_before_any_command_runs(entry: str, option: str, command: str, tmp_path: Path) -> None:
    """An empty ``--config`` or ``--workspace`` would otherwise name the current folder (or, for the
    hook, quietly mean the usual config): every command refuses it in one line, exit 1 (never 2,
    which a client reads as "block this prompt"), and writes nothing."""
    args, data = COMMANDS[command]
    enabled = write_config(tmp_path / "usual")  # the config the environment names
    env_config = {"TACT_CONFIG": str(enabled)}
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    with pytest.MonkeyPatch.context() as patch:
        for name, value in env_config.items():
            patch.setenv(name, value)
        done = _run(entry, [*EMPTY_PATHS[option], *args], cwd=tmp_path, data=data)
    name = option.split("=")[0].split()[0]
    assert done.returncode == 1, done
    assert done.stdout == ""
    assert done.stderr.startswith(f"tact-memory: {name}: the path given is empty;") and done.stderr.count("\n") == 1
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before


def test_the_hook_file_refuses_an_empty_config_path(tmp_path: Path) -> None:
    hook = Path(__file__).resolve().parents[2] / "tact_memory" / "hooks" / "prompt_hook.py"
    env = {**os.environ, "TACT_CONFIG": str(write_config(tmp_path / "usual"))}
    for option in (["--config="], ["--config", ""]):
        done = subprocess.run(
            [sys.executable, str(hook), *option, "user-prompt-submit"],
            input='{"session_id": "s1"}', capture_output=True, text=True, env=env, check=False,
        )  # fmt: skip
        assert (done.returncode, done.stdout) == (1, "")
        assert done.stderr.startswith("tact-memory hook: --config: the path given is empty;")
