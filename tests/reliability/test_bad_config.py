"""Bad configuration: every unusable config.toml is a named error with its path and key or line (I1).

Through :func:`tact_memory.config.loading.load_config` a ``ConfigError`` (code ``invalid_config``) that
names the file and the key or line; through the CLI, exit status 1 and exactly one line on stderr,
nothing on stdout, no traceback. Reloading is covered by the watcher's own tests.
"""

from __future__ import annotations

import os
import resource
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from tact_memory.cli.app import cli
from tact_memory.config.loading import load_config
from tact_memory.errors import ConfigError

from .helpers import child_env, cli_command, permission_respecting_preexec

MALFORMED = [
    # (name, text, line the error must name, words of the reason that must survive intact)
    ("unterminated string at the end", '[memory]\nenabled = """open\n', 2, "Unterminated string"),
    ("value missing at the end", "[memory]\nenabled = ", 2, "Invalid value"),
    ("unclosed table header", "[memory", 1, "end of a table declaration"),
    ("key given twice", "[memory]\nenabled = true\nenabled = false\n", 3, "Cannot overwrite a value"),
    ("table given twice", "[memory]\nenabled = true\n[memory]\n", 3, "Cannot declare"),
    ("bare word for a boolean", "# settings\n[memory]\nenabled = yes\n", 3, "Invalid value"),
    ("typo with CRLF line ends", "[memory]\r\nenabled = tru\r\n", 2, "Invalid value"),
    ("key without a value", "[memory]\nenabled\n", 2, "Expected '=' after a key"),
    ("byte order mark past the start", "[memory]\n\ufeffenabled = true\n", 2, "Invalid statement"),
    ("NUL byte", "[memory]\nenabled = true\x00\n", 2, "Expected newline or end of document"),
]

@pytest.mark.parametrize(("name", "text", "line", "reason"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_toml_names_the_same_line_under_tomli(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, text: str, line: int, reason: str
) -> None:
    """The same line with tomli, which Python 3.10 reads the file with (and which Python 3.14's
    tomllib is): it gives a line of its own where 3.11 to 3.13 give none, one past the last line
    when the file ends too soon."""
    tomli = pytest.importorskip("tomli")
    monkeypatch.setitem(sys.modules, "tomllib", tomli)
    path = tmp_path / "config.toml"
    path.write_bytes(text.encode("utf-8"))
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert info.value.line == line and reason in str(info.value), str(info.value)


WRONG = [
    # (name, text, the key the error must name, words it must contain)
    ("a date", "[memory]\nenabled = 1979-05-27\n", "memory.enabled", "got date"),
    ("a float", "[memory]\nenabled = 1.0\n", "memory.enabled", "got float"),
    ("nan", "[memory]\nenabled = nan\n", "memory.enabled", "got float"),
    ("an array", "[memory]\nenabled = [true]\n", "memory.enabled", "got array"),
    ("an inline table", "[memory]\nenabled = { on = true }\n", "memory.enabled", "got table"),
    ("the string true", '[memory]\nenabled = "true"\n', "memory.enabled", "got string"),
    ("an array of tables", "[[memory]]\nenabled = true\n", "memory", "expected a table"),
    ("an unknown sub-table", "[memory.advanced]\nlimit = 4\n", "memory.advanced", "unknown key"),
    ("an unknown dotted key", "memory.enabled = true\nmemory.rows = 9\n", "memory.rows", "unknown key"),
    ("an unknown top-level key", "debug = true\n", "debug", "unknown key"),
    ("a key with a line break", '[memory]\n"enabled\\nrows" = 1\n', 'memory."enabled\\nrows"', "unknown key"),
    ("a key with a line separator", '"x\\u2028y" = 1\n', '"x\\u2028y"', "unknown key"),
    ("a key with quotes", '[memory]\n"say \\"hi\\"" = 1\n', 'memory."say \\"hi\\""', "unknown key"),
]


def one_line(text: str) -> bool:
    """One line, by every rule a terminal or a log reader might split on."""
    return len(text.splitlines()) == 1


@pytest.mark.parametrize(("name", "text", "line", "reason"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_toml_names_file_and_line(tmp_path: Path, name: str, text: str, line: int, reason: str) -> None:
    """I1: broken TOML names the file and the line, with the parser's reason intact, on one line."""
    path = tmp_path / "config.toml"
    path.write_bytes(text.encode("utf-8"))
    with pytest.raises(ConfigError) as info:
        load_config(path)
    error = info.value
    assert error.code == "invalid_config" and error.line == line, str(error)
    assert str(error).startswith(f"{path}:{line}: invalid TOML: ")
    assert reason in str(error) and "(at ," not in str(error)
    assert one_line(str(error))


@pytest.mark.parametrize(("name", "text", "key", "words"), WRONG, ids=[w[0] for w in WRONG])
def test_wrong_types_and_unknown_keys_name_file_and_key(
    tmp_path: Path, name: str, text: str, key: str, words: str
) -> None:
    """I1: nothing is coerced or ignored; the key is spelled as TOML would, so the error stays one line."""
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert info.value.key == key
    assert str(info.value).startswith(f"{path} [{key}]: ") and words in str(info.value)
    assert one_line(str(info.value))


def unreadable(tmp_path: Path, kind: str) -> Path:
    """A config path that cannot be read, built so that it holds for root too."""
    path = tmp_path / "config.toml"
    if kind == "directory":
        path.mkdir()
    elif kind == "utf16":
        path.write_text("[memory]\nenabled = true\n", encoding="utf-16")
    elif kind == "latin1":
        path.write_bytes("[memory]\n# réglages\nenabled = true\n".encode("latin-1"))
    elif kind == "symlink_loop":
        path.symlink_to(tmp_path / "other.toml")
        (tmp_path / "other.toml").symlink_to(path)
    elif kind == "dangling_symlink":
        path.symlink_to(tmp_path / "gone.toml")
    elif kind == "parent_is_a_file":
        (tmp_path / "tact").write_text("")
        path = tmp_path / "tact" / "config.toml"
    return path


UNREADABLE = {
    "directory": "is a directory",
    "utf16": "not valid UTF-8",
    "latin1": "not valid UTF-8",
    "symlink_loop": "cannot be read",
    "dangling_symlink": "is a symbolic link to",
    "parent_is_a_file": "cannot be read",
}


@pytest.mark.parametrize("kind", sorted(UNREADABLE))
def test_unreadable_files_are_named_errors(tmp_path: Path, kind: str) -> None:
    """I1: files that cannot be read as UTF-8 text are named errors (each case works as root)."""
    path = unreadable(tmp_path, kind)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert info.value.path == str(path) and UNREADABLE[kind] in str(info.value)
    assert one_line(str(info.value))


CHECKED_BY_CLICK: set[str] = set()
"""Kinds the ``--config`` option itself would refuse before the config is read: none."""


def cli_cases(tmp_path: Path) -> list[tuple[Path, str]]:
    """One file of each kind, with the text its error line must contain."""
    cases = []
    for index, (_, text, line, _) in enumerate(MALFORMED):
        folder = tmp_path / f"malformed{index}"
        folder.mkdir()
        (folder / "config.toml").write_bytes(text.encode("utf-8"))
        cases.append((folder / "config.toml", f"config.toml:{line}:"))
    for index, (_, text, key, _) in enumerate(WRONG):
        folder = tmp_path / f"wrong{index}"
        folder.mkdir()
        (folder / "config.toml").write_text(text, encoding="utf-8")
        cases.append((folder / "config.toml", f"[{key}]"))
    for kind, words in UNREADABLE.items():
        folder = tmp_path / kind
        folder.mkdir()
        cases.append((unreadable(folder, kind), words))
    return cases


COMMANDS = [
    ["tool", '{"operation": "scan", "query": "x"}'],
    ["status"],
    ["list"],
    ["export"],
    ["delete", "1", "--version", "1", "--yes"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=[c[0] for c in COMMANDS])
def test_cli_exits_1_with_one_line_on_stderr(tmp_path: Path, command: list[str]) -> None:
    """Every command that needs the config, with the file named by ``--config`` or ``TACT_CONFIG``:
    exit 1, one ``tact-memory: …`` line naming the file, nothing on stdout."""
    for path, words in cli_cases(tmp_path):
        runs = [CliRunner(env={"TACT_CONFIG": str(path)}).invoke(cli, command)]
        if path.name == "config.toml" and path.parent.name not in CHECKED_BY_CLICK:
            runs.append(CliRunner().invoke(cli, ["--config", str(path), *command]))
        for result in runs:
            assert result.exit_code == 1, (path, result.output)
            assert result.stdout == ""
            assert one_line(result.stderr) and result.stderr.startswith("tact-memory: "), result.stderr
            assert str(path) in result.stderr and words in result.stderr, result.stderr


def test_config_option_naming_a_directory_is_a_config_error(tmp_path: Path) -> None:
    """I1: the same directory named by ``--config`` should be an exit-1 config error too."""
    path = unreadable(tmp_path, "directory")
    result = CliRunner().invoke(cli, ["--config", str(path), "status"])
    assert result.exit_code == 1 and one_line(result.stderr)


def test_environment_selected_bad_file_is_named_too(tmp_path: Path) -> None:
    """I1/I3: a bad file chosen by ``TACT_CONFIG`` or ``TACT_HOME`` is reported like ``--config``."""
    path = tmp_path / "home" / "config.toml"
    path.parent.mkdir()
    path.write_text("[memory]\nenabled = 'sometimes'\n")
    for env in ({"TACT_CONFIG": str(path)}, {"TACT_HOME": str(path.parent)}):
        with pytest.raises(ConfigError, match=r"\[memory.enabled\]"):
            load_config(environ=env)
        result = CliRunner(env=env).invoke(cli, ["status"])
        assert result.exit_code == 1 and one_line(result.stderr) and str(path) in result.stderr


def test_real_process_prints_no_traceback(tmp_path: Path) -> None:
    """The console entry point, as a user runs it: one line, exit 1, for each kind of problem."""
    cases = cli_cases(tmp_path)
    picks = [cases[0], cases[len(MALFORMED)], cases[len(MALFORMED) + len(WRONG) + 1]]  # TOML, key, bytes
    for path, words in picks:
        proc = subprocess.run(
            cli_command(path, "tool"), input='{"operation": "scan", "query": "x"}\n',
            capture_output=True, text=True, env=child_env(), timeout=60, check=False,
        )  # fmt: skip
        assert proc.returncode == 1 and proc.stdout == "", proc.stderr
        assert one_line(proc.stderr) and "Traceback" not in proc.stderr and words in proc.stderr


def test_file_without_read_permission_is_named(tmp_path: Path) -> None:
    """A config.toml mode 000. Root ignores modes, so the CLI runs without CAP_DAC_OVERRIDE."""
    preexec, why_not = permission_respecting_preexec()
    if why_not:
        pytest.skip(why_not)
    path = tmp_path / "config.toml"
    path.write_text("[memory]\nenabled = true\n")
    path.chmod(0)
    try:
        proc = subprocess.run(
            cli_command(None, "status"), capture_output=True, text=True,
            env={**child_env(), "TACT_CONFIG": str(path)}, timeout=60, check=False, preexec_fn=preexec,
        )  # fmt: skip
    finally:
        path.chmod(stat.S_IRUSR | stat.S_IWUSR)
    assert proc.returncode == 1 and proc.stdout == ""
    assert one_line(proc.stderr) and str(path) in proc.stderr and "Permission denied" in proc.stderr
    assert os.access(path, os.R_OK)


def _limited_memory() -> None:
    """In the child: at most 1 GiB of address space, so a read that never ends fails fast instead."""
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def special_files(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """Config paths that must be refused at once, with the words of their error line."""
    fifo = tmp_path / "fifo" / "config.toml"
    fifo.parent.mkdir()
    os.mkfifo(fifo)
    deep = tmp_path / "deep.toml"
    deep.write_text("x = " + "[" * 2000 + "]" * 2000 + "\n")
    huge = tmp_path / "huge.toml"
    huge.write_bytes(b"# " + b"x" * (8 << 20) + b"\n")
    zero = tmp_path / "zero" / "config.toml"
    zero.parent.mkdir()
    zero.symlink_to("/dev/zero")
    return {
        "fifo": (fifo, "is a FIFO (named pipe), not a regular file"),
        "dev_zero": (Path("/dev/zero"), "is a character device, not a regular file"),
        "dev_null": (Path("/dev/null"), "is a character device, not a regular file"),
        "symlink_to_dev_zero": (zero, "is a character device, not a regular file"),
        "deep_nesting": (deep, "nested too deeply"),
        "huge": (huge, "a configuration file holds at most 1,048,576"),
    }


@pytest.mark.parametrize("kind", ["fifo", "dev_zero", "dev_null", "symlink_to_dev_zero", "deep_nesting", "huge"])
def test_special_and_oversized_files_fail_fast_in_a_real_process(tmp_path: Path, kind: str) -> None:
    """A FIFO, a device, 2,000 nested brackets or 8 MiB: exit 1 with one line within seconds,
    never a hang, a MemoryError or a RecursionError, whether named or found by a fallback."""
    path, words = special_files(tmp_path)[kind]
    check_fails_fast(cli_command(path, "status"), child_env(), words)
    if path.name == "config.toml":  # the same file where TACT_HOME, then the platform default, finds it
        check_fails_fast(cli_command(None, "status"), {**child_env(), "TACT_HOME": str(path.parent)}, words)
        xdg = tmp_path / "xdg"
        (xdg / "tact").mkdir(parents=True)
        os.replace(path, xdg / "tact" / "config.toml")
        check_fails_fast(cli_command(None, "status"), {**child_env(), "XDG_CONFIG_HOME": str(xdg)}, words)


def check_fails_fast(command: list[str], env: dict[str, str], words: str) -> None:
    started = time.monotonic()
    proc = subprocess.run(
        command, capture_output=True, text=True, env=env, timeout=30, check=False, preexec_fn=_limited_memory
    )
    assert time.monotonic() - started < 15
    assert proc.returncode == 1 and proc.stdout == "", proc.stderr
    assert one_line(proc.stderr) and proc.stderr.startswith("tact-memory: "), proc.stderr[-300:]
    assert "Error" not in proc.stderr and words in proc.stderr, proc.stderr


def test_a_utf8_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    """Windows editors may start a UTF-8 file with a byte order mark; it is not an error."""
    path = tmp_path / "config.toml"
    path.write_bytes(b"\xef\xbb\xbf[memory]\r\nenabled = true\r\n")
    assert load_config(path).memory.enabled is True
    result = CliRunner().invoke(cli, ["--config", str(path), "status"])
    assert result.exit_code == 0 and "memory    enabled" in result.output
