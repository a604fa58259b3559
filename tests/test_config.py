"""Config selection and validation (I1, I3)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tact_memory.config import load_config, locate_config
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


@pytest.mark.parametrize(
    ("text", "key", "fragment"),
    [
        ("[memory]\nenabled = \"yes\"\n", "memory.enabled", "expected a boolean"),
        ("[memory]\nenabled = 1\n", "memory.enabled", "got integer"),
        ("[memory]\nenable = true\n", "memory.enable", "unknown key"),
        ("[memories]\nenabled = true\n", "memories", "unknown key"),
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
