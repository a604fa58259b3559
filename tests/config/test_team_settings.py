"""``[memory.team]``: the team service, the token's source and the workspaces that must use it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tact_memory.config.loading import TeamSettings, parse_config
from tact_memory.errors import ConfigError

TOKEN = "tmt_" + "Z" * 43


def team(tmp_path: Path, body: str) -> TeamSettings | None:
    return parse_config("[memory]\nenabled = true\n[memory.team]\n" + body, path=tmp_path / "config.toml").memory.team


def test_a_full_table_is_read_with_paths_beside_the_config(tmp_path: Path) -> None:
    settings = team(
        tmp_path,
        'endpoint = "https://memory.example.com/"\nnamespace = "alice"\ntoken_env = "TACT_TEAM_TOKEN"\n'
        'token_file = "team-token"\nworkspace_roots = ["work", "/srv/repos"]\n',
    )
    assert settings == TeamSettings(
        endpoint="https://memory.example.com",
        namespace="alice",
        token_env="TACT_TEAM_TOKEN",
        token_file=tmp_path / "team-token",
        workspace_roots=(tmp_path / "work", Path("/srv/repos")),
    )


def test_no_table_means_no_team_store(tmp_path: Path) -> None:
    assert parse_config("[memory]\nenabled = true\n", path=tmp_path / "config.toml").memory.team is None


@pytest.mark.parametrize(
    ("body", "key", "fragment"),
    [
        ('token_env = "T"\n', "memory.team.endpoint", "missing"),
        ('endpoint = "ftp://x"\ntoken_env = "T"\n', "memory.team.endpoint", "http:// or https://"),
        ('endpoint = "https://"\ntoken_env = "T"\n', "memory.team.endpoint", "with a host"),
        ('endpoint = "https://x:99999"\ntoken_env = "T"\n', "memory.team.endpoint", "not a valid URL"),
        (f'endpoint = "https://bob:{TOKEN}@x"\ntoken_env = "T"\n', "memory.team.endpoint", "user name or password"),
        ('endpoint = "https://x/?k=v"\ntoken_env = "T"\n', "memory.team.endpoint", "query or fragment"),
        ('endpoint = "https://x"\n', "memory.team.token_env", "missing"),
        (f'endpoint = "https://x"\ntoken_env = "{TOKEN}-"\n', "memory.team.token_env", "not a token"),
        ('endpoint = "https://x"\ntoken_env = "T"\nnamespace = "Alice Smith"\n', "memory.team.namespace", "lower-case"),
        ('endpoint = "https://x"\ntoken_env = "T"\nworkspace_roots = "/srv"\n', "memory.team.workspace_roots", "expected an array"),
        ('endpoint = "https://x"\ntoken_env = "T"\nworkspace_roots = ["", "/a"]\n', "memory.team.workspace_roots", "item 1"),
        ('endpoint = "https://x"\ntoken_env = "T"\nworkspace_roots = [3]\n', "memory.team.workspace_roots", "item 1"),
        ('endpoint = "https://x"\ntoken_env = "T"\ntoken = "abc"\n', "memory.team.token", "unknown key"),
        ('endpoint = 3\ntoken_env = "T"\n', "memory.team.endpoint", "expected a string"),
    ],
)
def test_bad_values_are_named_errors_that_never_repeat_a_token(tmp_path: Path, body: str, key: str, fragment: str) -> None:
    with pytest.raises(ConfigError) as info:
        team(tmp_path, body)
    assert info.value.key == key
    assert fragment in info.value.message
    assert TOKEN not in info.value.message


def test_a_team_value_that_is_not_a_table_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config('[memory]\nteam = "https://x"\n', path=tmp_path / "config.toml")
    assert info.value.key == "memory.team" and "expected a table" in info.value.message


def test_a_workspace_is_covered_by_its_root_and_folders_inside_it_only(tmp_path: Path) -> None:
    (tmp_path / "work" / "api").mkdir(parents=True)
    (tmp_path / "workshop").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "work" / "api")
    settings = TeamSettings("https://x", token_env="T", workspace_roots=(tmp_path / "work",))
    assert settings.covers(tmp_path / "work")
    assert settings.covers(tmp_path / "work" / "api")
    assert settings.covers(tmp_path / "link")  # resolved
    assert not settings.covers(tmp_path / "workshop")  # a prefix of the name is not a parent
    assert not settings.covers(tmp_path)
