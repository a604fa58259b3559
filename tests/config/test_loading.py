"""Config selection and validation (I1, I3)."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tact_memory.config.loading import (
    MAX_CONFIG_BYTES,
    Config,
    ConfigSource,
    MemorySettings,
    config_template,
    declares_table,
    load_config,
    locate_config,
    parse_config,
    read_config,
)
from tact_memory.errors import ConfigError


def test_default_is_disabled_when_no_file_exists(tmp_path: Path) -> None:
    config = load_config(environ={"TACT_HOME": str(tmp_path / "home")})
    assert config.memory.enabled is False
    assert config.exists is False
    assert not (tmp_path / "home").exists()  # selecting a config creates nothing


def test_enabled_true_turns_memory_on(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[memory]\nenabled = true\n")
    assert load_config(path).memory.enabled is True


def test_empty_file_means_defaults(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("")
    assert load_config(path).memory.enabled is False


def test_search_order(tmp_path: Path) -> None:
    env = {"TACT_CONFIG": str(tmp_path / "a.toml"), "TACT_HOME": str(tmp_path / "home")}
    assert locate_config(tmp_path / "cli.toml", environ=env).path == tmp_path / "cli.toml"
    assert locate_config(None, environ=env).path == tmp_path / "a.toml"
    assert locate_config(None, environ={"TACT_HOME": str(tmp_path / "home")}).path == tmp_path / "home" / "config.toml"
    fallback = locate_config(None, environ={})
    assert fallback.origin == "default" and fallback.path.name == "config.toml"
    assert fallback.path.parent.name == "tact"


def test_an_empty_explicit_path_is_refused_and_empty_variables_count_as_unset(tmp_path: Path) -> None:
    """``abspath("")`` is the current folder: an empty ``--config`` must not quietly name it."""
    env = {"TACT_CONFIG": str(tmp_path / "a.toml")}
    with pytest.raises(ConfigError, match=r"^--config: the path given is empty"):
        locate_config("", environ=env)
    with pytest.raises(ConfigError, match=r"^--config: the path given is empty"):
        load_config("", environ=env)
    home = {"TACT_CONFIG": "", "TACT_HOME": str(tmp_path / "home")}
    assert locate_config(None, environ=home).path == tmp_path / "home" / "config.toml"
    assert locate_config(None, environ={"TACT_CONFIG": "", "TACT_HOME": ""}).origin == "default"


def test_database_path_follows_the_selected_file_not_the_workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "cfg" / "config.toml"
    path.parent.mkdir()
    path.write_text("[memory]\nenabled = true\n")
    monkeypatch.chdir(tmp_path)
    first = load_config("cfg/config.toml").database_path
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    second = load_config(str(path)).database_path
    assert first == second == tmp_path / "cfg" / "memory" / "v1.sqlite3"


@pytest.mark.parametrize("origin", ["--config", "TACT_CONFIG"])
def test_missing_explicit_file_is_an_error(tmp_path: Path, origin: str) -> None:
    missing = tmp_path / "nope.toml"
    with pytest.raises(ConfigError) as info:
        if origin == "--config":
            load_config(missing, environ={})
        else:
            load_config(None, environ={"TACT_CONFIG": str(missing)})
    assert str(missing) in str(info.value) and origin in str(info.value)


def test_a_config_remembers_how_its_file_was_selected(tmp_path: Path) -> None:
    path = tmp_path / "home" / "config.toml"
    by_home = load_config(None, environ={"TACT_HOME": str(path.parent)})
    assert by_home.origin == "TACT_HOME" and by_home.exists is False
    assert by_home.source == ConfigSource(path, "TACT_HOME") and not by_home.source.explicit
    path.parent.mkdir()
    path.write_text("[memory]\nenabled = true\n")
    assert load_config(None, environ={"TACT_CONFIG": str(path)}).source == ConfigSource(path, "TACT_CONFIG")
    named = load_config(path, environ={})
    assert named.origin == "--config"
    # How the file was found is not part of what it says: a value built by hand is still equal.
    built = Config(path=path, memory=MemorySettings(enabled=True))
    assert built.origin == "given" and built.source.explicit and named == built and hash(named) == hash(built)
    assert "origin='--config'" in repr(named)


def test_a_missing_file_the_program_named_is_an_error_that_says_so(tmp_path: Path) -> None:
    missing = tmp_path / "config.toml"
    with pytest.raises(ConfigError, match=r"configuration file not found \(named by the program\)"):
        read_config(ConfigSource(missing, "given"))


@pytest.mark.parametrize(
    ("text", "key", "fragment"),
    [
        ("[memory]\nenabled = \"yes\"\n", "memory.enabled", "expected a boolean"),
        ("[memory]\nenabled = 1\n", "memory.enabled", "got integer"),
        ("[memory]\nenable = true\n", "memory.enable", "unknown key"),
        ("[memories]\nenabled = true\n", "memories", "unknown table (known tables: memory)"),
        ("memories = 1\n", "memories", "unknown key (known tables: memory)"),
        ("memory = true\n", "memory", "expected a table"),
    ],
)
def test_wrong_types_and_unknown_keys_name_file_and_key(tmp_path: Path, text: str, key: str, fragment: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert info.value.key == key
    assert str(path) in str(info.value) and f"[{key}]" in str(info.value) and fragment in str(info.value)
    assert info.value.code == "invalid_config"


@pytest.mark.parametrize("value", ["True", "FALSE", "yes", "Off # for now"])
def test_a_boolean_other_languages_write_gets_a_hint(tmp_path: Path, value: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(f"[memory]\nenabled = {value}\n")
    with pytest.raises(ConfigError, match=r":2: invalid TOML: .* \(TOML writes booleans in lower case: true or false\)$"):
        load_config(path)


def test_malformed_toml_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("# comment\n[memory]\nenabled = tru\n")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert info.value.line == 3
    assert str(info.value) == f"{path}:3: invalid TOML: Invalid value"


def test_directory_and_non_utf8_are_errors(tmp_path: Path) -> None:
    (tmp_path / "dir.toml").mkdir()
    with pytest.raises(ConfigError, match="directory"):
        load_config(tmp_path / "dir.toml")
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"[memory]\nenabled = true # \xff\n")
    with pytest.raises(ConfigError, match="UTF-8"):
        load_config(bad)


def test_unreadable_file_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "plain-file").write_text("")
    path = tmp_path / "plain-file" / "config.toml"  # its "folder" is a file: reading fails with ENOTDIR
    with pytest.raises(ConfigError, match="cannot be read"):
        load_config(path)


# -- files that are not plain, small TOML -----------------------------------------------------


def test_a_utf8_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(b"\xef\xbb\xbf[memory]\nenabled = true\n")
    assert load_config(path).memory.enabled is True
    assert parse_config("\ufeff[memory]\nenabled = true\n", path=path).memory.enabled is True
    # Only at the start: anywhere else it is a character TOML does not allow there.
    path.write_bytes(b"[memory]\n\xef\xbb\xbfenabled = true\n")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert info.value.line == 2


def test_the_size_cap_is_checked_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    body = b"[memory]\nenabled = true\n# "
    path.write_bytes(body + b"x" * (MAX_CONFIG_BYTES - len(body) - 1) + b"\n")
    assert path.stat().st_size == MAX_CONFIG_BYTES
    assert load_config(path).memory.enabled is True
    with path.open("ab") as handle:
        handle.write(b"\n")
    with pytest.raises(ConfigError, match=r"1,048,577 bytes; a configuration file holds at most 1,048,576"):
        load_config(path)


@pytest.mark.parametrize("opener", ["[", "{a = "])
def test_deep_nesting_is_a_config_error(tmp_path: Path, opener: str) -> None:
    closer = "]" if opener == "[" else "}"
    path = tmp_path / "config.toml"
    for text in (f"x = {opener * 2000}1{closer * 2000}\n", f"x = {opener * 2000}\n"):
        path.write_text(text)
        with pytest.raises(ConfigError, match="nested too deeply") as info:
            load_config(path)
        assert info.value.path == str(path)


def refused_within(seconds: float, *args: Any, **kwargs: Any) -> ConfigError:
    """The ``ConfigError`` of ``load_config(*args, **kwargs)``, failing if it takes longer than ``seconds``.

    The call runs on a daemon thread, so a read that blocks fails the test instead of hanging it.
    """
    outcome: list[BaseException | Config] = []
    thread = threading.Thread(target=lambda: outcome.append(_outcome(*args, **kwargs)), daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"load_config still running after {seconds} s"
    assert outcome and isinstance(outcome[0], ConfigError), outcome
    return outcome[0]


def _outcome(*args: Any, **kwargs: Any) -> BaseException | Config:
    try:
        return load_config(*args, **kwargs)
    except BaseException as exc:  # handed to the test thread
        return exc


def test_special_files_are_refused_without_opening_them(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)  # opening it for reading would wait for a writer forever
    assert "is a FIFO (named pipe), not a regular file" in str(refused_within(5, fifo))
    error = refused_within(5, "/dev/null")  # empty, yet not a file
    assert error.path == "/dev/null" and "character device" in str(error)
    (tmp_path / "home").mkdir()
    os.mkfifo(tmp_path / "home" / "config.toml")
    error = refused_within(5, environ={"TACT_HOME": str(tmp_path / "home")})  # a fallback, not named
    assert "FIFO" in str(error)


def test_a_fifo_swapped_in_after_the_check_is_refused_without_waiting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[memory]\nenabled = true\n")
    real_stat = os.stat

    def stat_then_swap(target: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        result = real_stat(target, *args, **kwargs)
        if Path(target) == path:
            path.unlink()
            os.mkfifo(path)
        return result

    monkeypatch.setattr(os, "stat", stat_then_swap)
    assert "FIFO" in str(refused_within(5, path))


_LINES = [
    "", "  ", "\t", "# a comment", "#\tok é", "# \x7f", "# \x01", "[memory]", " [ memory ]\t# c", "[memory.team]",
    "[other]", "enabled = true", "enabled=false", "  enabled = true # on", "enabled = True", "enabled = 1",
    'enabled = "yes"', "enabled", "memory.enabled = true", "[[memory]]", "\r", "x = 1", "enabled = true enabled",
]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_LINES), max_size=6), st.sampled_from(["\n", "\r\n"]))
def test_plain_file_reads_as_toml_reads_it(lines: list[str], newline: str) -> None:
    """The usual file skips the TOML parser; whenever it does, it reads what the parser reads."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    from tact_memory.config.loading import _plain_toml

    text = newline.join(lines)
    plain = _plain_toml(text)
    if plain is None:
        return
    assert plain == tomllib.loads(text)
    assert parse_config(text, path=Path("/c.toml")) == Config(path=Path("/c.toml"), memory=_settings(plain))


_PLAIN_LINE = re.compile(r"[ \t]*(?:(\[)[ \t]*memory[ \t]*\]|enabled[ \t]*=[ \t]*(true|false))?[ \t]*(?:#[^\x00-\x08\x0a-\x1f\x7f]*)?")
"""The lines the usual file is made of, written the other way: blank, a comment (TOML allows no
control character but tab in one), the ``[memory]`` header or ``enabled = true|false``."""

_PIECES = [" ", "\t", "#", "[", "]", "=", "memory", "enabled", "true", "false", "True", "x", "é", "\x01", "\x08", "\x0b", "\x1f", "\x7f", "\x85"]


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=9).map("".join))
def test_a_plain_line_is_read_as_the_pattern_reads_it(line: str) -> None:
    from tact_memory.config.loading import _plain_line

    match = _PLAIN_LINE.fullmatch(line)
    expected = None if match is None else "memory" if match.group(1) else match.group(2) or ""
    assert _plain_line(line) == expected


@pytest.mark.parametrize("enabled", [False, True])
def test_the_file_init_writes_skips_the_toml_parser(enabled: bool) -> None:
    from tact_memory.config.loading import _plain_toml

    assert _plain_toml(config_template(enabled=enabled)) == {"memory": {"enabled": enabled}}


def _settings(raw: dict[str, Any]) -> Any:
    from tact_memory.config.loading import MemorySettings

    return MemorySettings(enabled=raw.get("memory", {}).get("enabled", False))


@pytest.mark.parametrize("by", ["--config", "TACT_CONFIG"])
def test_a_missing_chosen_file_says_how_to_create_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, by: str) -> None:
    missing = tmp_path / "none" / "config.toml"
    if by == "TACT_CONFIG":
        monkeypatch.setenv("TACT_CONFIG", str(missing))
    with pytest.raises(ConfigError, match=r"selected by " + by + r"\); `tact-memory .*init --enable` creates it there") as caught:
        load_config(str(missing) if by == "--config" else None)
    # the advice, followed as given (in a shell of its own, home elsewhere), makes that very file
    command = shlex.split(str(caught.value).split("`")[1])
    assert command[0] == "tact-memory"
    env = {**os.environ, "HOME": str(tmp_path / "home"), "XDG_CONFIG_HOME": str(tmp_path / "home" / ".config")}
    done = subprocess.run([sys.executable, "-m", "tact_memory.cli", *command[1:]], env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert load_config(str(missing)).memory.enabled is True
    assert not (tmp_path / "home").exists()


@pytest.mark.parametrize("bom", ["", "\ufeff"])
@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_the_advice_on_enabling_reads_the_file_as_the_loader_does(tmp_path: Path, bom: str, newline: str) -> None:
    """A file the loader reads (a BOM, CRLF) that has a ``[memory]`` table gets "set it under
    ``[memory]``", never "add ``[memory]``", which would declare the table twice."""
    path = tmp_path / "config.toml"
    path.write_bytes(f"{bom}[memory]{newline}enabled = false{newline}".encode())
    assert load_config(path).memory.enabled is False
    assert declares_table(path, "memory")
    env = {**os.environ, "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "tact_memory.cli", "--config", str(path), "list"], env=env, capture_output=True, text=True, check=False
    )  # fmt: skip
    assert done.returncode == 1 and "set `enabled = true` under `[memory]`" in done.stderr, done.stderr
