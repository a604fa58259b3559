"""Which store a workspace gets: the team store inside a ``[memory.team]`` root, never local memory instead.

The service here is a closed port: every operation must answer ``unavailable`` while the local
corpus is neither used nor created.
"""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

import pytest
from click.testing import CliRunner

from tact_memory.cli.app import cli
from tact_memory.config.loading import Config, load_config
from tact_memory.runtime.stores import config_store, read_team_token, store_for, uses_team_store
from tact_memory.store.sqlite import MemoryStore
from tact_memory.tool.guard import Dispatcher, Role

from ..conftest import write_config

pytest.importorskip("httpx", reason="httpx is not installed")

TOKEN = "tmt_" + "Q" * 43


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])  # closed again on exit: nothing listens there


def team_config(tmp_path: Path, *, extra: str = "") -> Config:
    (tmp_path / "work" / "api").mkdir(parents=True, exist_ok=True)
    body = (
        f'[memory.team]\nendpoint = "http://127.0.0.1:{closed_port()}"\ntoken_env = "TACT_TEST_TEAM_TOKEN"\n'
        f'workspace_roots = ["{tmp_path / "work"}"]\n{extra}'
    )
    return load_config(write_config(tmp_path / "tact", extra=body))


def test_a_workspace_inside_a_root_uses_the_team_store_and_an_outage_is_unavailable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tact_memory.store.remote import RemoteStore

    monkeypatch.setenv("TACT_TEST_TEAM_TOKEN", TOKEN)
    config = team_config(tmp_path)
    store = store_for(config, workspace=tmp_path / "work" / "api")
    assert isinstance(store, RemoteStore)
    tool = Dispatcher(store, role=Role.ROOT)
    for call in ({"operation": "scan", "query": "deploy"}, {"operation": "read", "ids": [1]}):
        result = tool.call(call)
        assert result["error"]["code"] == "unavailable" and result["error"]["reason"] == "unreachable"
        assert TOKEN not in json.dumps(result)
    assert store.status().problem == "unreachable"
    assert not (tmp_path / "tact" / "memory").exists()  # local memory neither used nor created


def test_other_workspaces_keep_the_local_store(tmp_path: Path) -> None:
    config = team_config(tmp_path)
    assert not uses_team_store(config, tmp_path)
    local = config_store(config, workspace=tmp_path)
    assert isinstance(local, MemoryStore) and local.path == config.database_path


def test_the_current_folder_is_the_default_workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = team_config(tmp_path)
    monkeypatch.chdir(tmp_path / "work" / "api")
    assert uses_team_store(config)
    monkeypatch.chdir(tmp_path)
    assert not uses_team_store(config)


def test_the_command_line_takes_the_workspace_and_answers_unavailable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TACT_TEST_TEAM_TOKEN", TOKEN)
    config = team_config(tmp_path)
    runner = CliRunner()
    base = ["--config", str(config.path), "--workspace", str(tmp_path / "work")]
    tool = runner.invoke(cli, [*base, "tool", '{"operation": "scan", "query": "deploy"}'])
    assert tool.exit_code == 0 and json.loads(tool.output)["error"]["code"] == "unavailable"
    status = runner.invoke(cli, [*base, "status"])
    assert status.exit_code == 1 and "problem   unreachable" in status.output
    listing = runner.invoke(cli, [*base, "list"])
    assert listing.exit_code == 1 and "could not be reached" in listing.output
    for result in (tool, status, listing):
        assert TOKEN not in result.output
    assert not (tmp_path / "tact" / "memory").exists()
    local = runner.invoke(cli, ["--config", str(config.path), "--workspace", str(tmp_path), "status"])
    assert local.exit_code == 0 and "v1.sqlite3" in local.output


def test_the_environment_variable_wins_then_a_private_token_file(tmp_path: Path) -> None:
    token_file = tmp_path / "tact" / "token"
    config = team_config(tmp_path, extra='token_file = "token"\n')
    settings = config.memory.team
    assert settings is not None
    assert read_team_token(settings, {"TACT_TEST_TEAM_TOKEN": TOKEN}) == (TOKEN, None)
    assert read_team_token(settings, {}) == (None, f"no token: the token file {token_file} does not exist")
    token_file.write_text(TOKEN + "\n")
    token_file.chmod(0o644)
    token, why = read_team_token(settings, {})
    assert token is None and why is not None and "mode 0644" in why and "chmod 600" in why and TOKEN not in why
    token_file.chmod(0o600)
    assert read_team_token(settings, {}) == (TOKEN, None)
    token_file.write_text("two words\n")
    assert read_team_token(settings, {})[0] is None
    token_file.unlink()
    token_file.symlink_to(tmp_path / "elsewhere")
    assert read_team_token(settings, {})[0] is None


def test_without_a_token_the_team_store_says_why_and_local_memory_is_untouched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TACT_TEST_TEAM_TOKEN", raising=False)
    config = team_config(tmp_path)
    store = config_store(config, workspace=tmp_path / "work")
    result = Dispatcher(store, role=Role.ROOT).call({"operation": "scan", "query": "deploy"})
    assert result["error"]["code"] == "unavailable" and result["error"]["reason"] == "token_missing"
    assert "TACT_TEST_TEAM_TOKEN is not set" in result["error"]["message"]
    assert not (tmp_path / "tact" / "memory").exists()
    assert os.listdir(tmp_path / "tact") == ["config.toml"]


@pytest.mark.parametrize("pasted", ["\u201c{t}\u201d", "{t}\u00e9", "\u200b{t}"])
def test_a_token_with_a_character_no_header_can_carry_is_no_token(tmp_path: Path, pasted: str) -> None:
    """A header carries ASCII only: a token pasted with curly quotes is refused by name, not sent."""
    settings = team_config(tmp_path).memory.team
    assert settings is not None
    token, why = read_team_token(settings, {"TACT_TEST_TEAM_TOKEN": pasted.format(t=TOKEN)})
    assert token is None and why is not None and TOKEN not in why
