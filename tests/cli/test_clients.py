"""``tact-memory setup``: each client's file, merged, backed up, idempotent, and a server that starts."""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from click.testing import CliRunner
from mcp import Client, StdioServerParameters

from tact_memory.cli import clients
from tact_memory.cli.app import cli

from ..conftest import fixture_path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]


LAUNCHER = str(Path("tact_memory", "hooks", "__main__.py"))
"""What setup's hook command runs (by absolute path)."""


def _json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _toml(path: Path) -> Any:
    return tomllib.loads(path.read_text(encoding="utf-8"))


# client, {fixture: where it goes under the home}, the server entry read back by the client's rules.
# Each fixture has the shape its client documents (the source of each fact is beside its case).
CASES: dict[str, tuple[dict[str, str], Callable[[Path], dict[str, Any]]]] = {
    # User scope: top-level "mcpServers" of ~/.claude.json, {"type": "stdio", "command", "args", "env"}
    # (https://code.claude.com/docs/en/mcp); hooks: "hooks" of ~/.claude/settings.json, event ->
    # [{"matcher"?, "hooks": [{"type": "command", "command"}]}] (https://code.claude.com/docs/en/hooks).
    "claude-code": (
        {"claude.json": ".claude.json", "claude-settings.json": ".claude/settings.json"},
        lambda home: _json(home / ".claude.json")["mcpServers"]["tact-memory"],
    ),
    # "mcpServers" of claude_desktop_config.json, {"command", "args", "env"?}; the documented paths are
    # macOS and Windows only (https://modelcontextprotocol.io/docs/develop/connect-local-servers).
    "claude-desktop": (
        {"claude_desktop_config.json": ".config/Claude/claude_desktop_config.json"},
        lambda home: _json(home / ".config/Claude/claude_desktop_config.json")["mcpServers"]["tact-memory"],
    ),
    # [mcp_servers.NAME] with command, args, env (https://developers.openai.com/codex/mcp); hooks.json
    # beside config.toml, the Claude Code shape (https://developers.openai.com/codex/hooks).
    "codex": (
        {"codex-config.toml": ".codex/config.toml", "codex-hooks.json": ".codex/hooks.json"},
        lambda home: _toml(home / ".codex/config.toml")["mcp_servers"]["tact-memory"],
    ),
    # "mcpServers" of ~/.cursor/mcp.json, {"command", "args", "env"?} (https://cursor.com/docs/context/mcp).
    "cursor": (
        {"cursor-mcp.json": ".cursor/mcp.json"},
        lambda home: _json(home / ".cursor/mcp.json")["mcpServers"]["tact-memory"],
    ),
    # "servers" (and "inputs") of .vscode/mcp.json, stdio needs "type": "stdio" and "command"
    # (https://code.visualstudio.com/docs/agents/reference/mcp-configuration).
    "vscode": (
        {"vscode-mcp.json": "work/.vscode/mcp.json"},
        lambda home: _json(home / "work/.vscode/mcp.json")["servers"]["tact-memory"],
    ),
}


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home"
    folder.mkdir(exist_ok=True)
    monkeypatch.setenv("HOME", str(folder))
    monkeypatch.delenv("CODEX_HOME", raising=False)
    monkeypatch.delenv("APPDATA", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder / ".config"))
    return folder


def setup(config: Path, home: Path, *args: str) -> Any:
    result = CliRunner().invoke(
        cli, ["--config", str(config), "setup", *args, "--workspace", str(home / "work")], catch_exceptions=False
    )
    return result


def place(home: Path, files: dict[str, str]) -> dict[Path, bytes]:
    placed = {}
    for name, where in files.items():
        target = home / where
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(fixture_path("clients", name), target)
        placed[target] = target.read_bytes()
    return placed


def _without(value: Any, *path: str) -> Any:
    """``value`` with the nested key at ``path`` removed (what setup may change)."""
    value = json.loads(json.dumps(value))
    node = value
    for key in path[:-1]:
        node = node[key]
    node.pop(path[-1], None)
    return value


async def list_tools(entry: dict[str, Any]) -> list[str]:
    env = {**entry.get("env", {}), "PYTHONPATH": str(ROOT), "PATH": os.environ.get("PATH", "")}
    async with Client(StdioServerParameters(command=entry["command"], args=entry["args"], env=env)) as client:
        return [tool.name for tool in (await client.list_tools()).tools]


@pytest.mark.parametrize("client", list(CASES))
def test_setup_merges_keeps_others_backs_up_is_idempotent_and_starts(client: str, home: Path, config_path: Path) -> None:
    files, entry_of = CASES[client]
    originals = place(home, files)
    result = setup(config_path, home, client)
    assert result.exit_code == 0, result.output
    entry = entry_of(home)
    assert Path(entry["command"]).is_absolute()
    assert entry["args"][-1] == "mcp"
    assert entry["args"][entry["args"].index("--config") + 1] == str(config_path)
    for path, before in originals.items():
        assert path.with_name(path.name + ".bak").read_bytes() == before  # the backup is the original
    # Other entries are untouched, read back by the client's own format rules.
    for path, before in originals.items():
        if path.suffix == ".toml":
            old, new = tomllib.loads(before.decode()), _toml(path)
            assert _without(new, "mcp_servers", "tact-memory") == old
            text = path.read_text()
            assert "# the documentation server" in text and text.startswith("# Codex configuration")
        elif "servers" in json.loads(before) or "mcpServers" in json.loads(before):
            key = "servers" if client == "vscode" else "mcpServers"
            assert _without(_json(path), key, "tact-memory") == json.loads(before)
        else:  # a hooks file: other hooks stay, ours are added
            hooks = _json(path)["hooks"]
            for event, groups in json.loads(before)["hooks"].items():
                assert all(group in hooks[event] for group in groups)
    # Idempotent: a second run changes no byte and writes no new backup.
    written = {p: p.read_bytes() for p in home.rglob("*") if p.is_file()}
    again = setup(config_path, home, client)
    assert again.exit_code == 0 and "already up to date" in again.output
    assert {p: p.read_bytes() for p in home.rglob("*") if p.is_file()} == written
    # The configured command starts and lists the tool over MCP.
    assert anyio.run(list_tools, entry) == ["memory"]


@pytest.mark.parametrize("client", ["claude-code", "codex"])
def test_setup_installs_the_prompt_hook_beside_the_server(client: str, home: Path, config_path: Path) -> None:
    place(home, CASES[client][0])
    setup(config_path, home, client)
    setup(config_path, home, client)  # no second copy of our hook
    hooks_file = home / (".claude/settings.json" if client == "claude-code" else ".codex/hooks.json")
    hooks = _json(hooks_file)["hooks"]
    ours = [h["command"] for g in hooks["UserPromptSubmit"] for h in g["hooks"] if LAUNCHER in h["command"]]
    assert len(ours) == 1 and ours[0].endswith("user-prompt-submit")
    assert sum(LAUNCHER in h["command"] for g in hooks["SessionStart"] for h in g["hooks"]) == 1
    import subprocess

    data = fixture_path("clients", "claude-user-prompt-submit.json").read_bytes()
    outputs = [subprocess.run(ours[0], shell=True, input=data, capture_output=True, check=True).stdout for _ in range(2)]
    assert outputs[0] == b"" and b"additionalContext" in outputs[1]


def test_setup_replaces_the_hook_an_earlier_release_wrote(home: Path, config_path: Path) -> None:
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    earlier = {"type": "command", "command": "/usr/bin/python3 /old/tact_memory/hooks/prompt_hook.py user-prompt-submit"}
    theirs = {"type": "command", "command": "echo user-prompt-submit"}
    settings.write_text(json.dumps({"hooks": {"UserPromptSubmit": [{"hooks": [earlier, theirs]}]}}), encoding="utf-8")
    setup(config_path, home, "claude-code")
    commands = [h["command"] for g in _json(settings)["hooks"]["UserPromptSubmit"] for h in g["hooks"]]
    assert len(commands) == 2 and commands[0] == theirs["command"]
    assert LAUNCHER in commands[1] and commands[1].startswith(sys.executable)


def test_reader_agent_gets_only_scan_and_read(home: Path, config_path: Path) -> None:
    result = setup(config_path, home, "claude-code", "--tools", "split", "--reader-agent")
    assert result.exit_code == 0, result.output
    agent = (home / ".claude/agents/memory-reader.md").read_text()
    tools_line = next(line for line in agent.splitlines() if line.startswith("tools:"))
    assert "mcp__tact-memory__memory_scan" in tools_line and "mcp__tact-memory__memory_read" in tools_line
    assert "memory_put" not in tools_line and "memory_delete" not in tools_line
    entry = _json(home / ".claude.json")["mcpServers"]["tact-memory"]
    assert entry["args"][-2:] == ["--tools", "split"]
    assert sorted(anyio.run(list_tools, entry)) == ["memory_delete", "memory_put", "memory_read", "memory_scan"]
    usage = setup(config_path, home, "claude-code", "--reader-agent")
    assert usage.exit_code == 2 and "--tools split" in usage.output


def test_print_writes_nothing(home: Path, config_path: Path) -> None:
    result = setup(config_path, home, "claude-code", "--print")
    assert result.exit_code == 0
    assert "claude mcp add --scope user tact-memory -- " in result.output
    assert '"UserPromptSubmit"' in result.output and str(home / ".claude.json") in result.output
    assert not any(home.rglob("*.json"))


def test_jsonc_is_refused_unchanged(home: Path, config_path: Path) -> None:
    target = home / "work/.vscode/mcp.json"
    target.parent.mkdir(parents=True)
    shutil.copyfile(fixture_path("clients", "vscode-mcp-with-comments.json"), target)
    before = target.read_bytes()
    result = setup(config_path, home, "vscode")
    assert result.exit_code == 1 and "not plain JSON" in result.output
    assert target.read_bytes() == before and not target.with_name("mcp.json.bak").exists()


def test_codex_without_tomlkit_names_the_extra(home: Path, config_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "tomlkit" else real(name, *a))
    result = setup(config_path, home, "codex")
    assert result.exit_code == 2 and "tact-memory[setup]" in result.output
    assert not (home / ".codex").exists()


@pytest.mark.parametrize(
    ("platform", "expected"),
    [
        ("darwin", "Library/Application Support/Claude/claude_desktop_config.json"),
        ("win32", "AppData/Roaming/Claude/claude_desktop_config.json"),
        ("linux", ".config/Claude/claude_desktop_config.json"),
    ],
)
def test_claude_desktop_path_per_platform(platform: str, expected: str, tmp_path: Path) -> None:
    assert clients.claude_desktop_path(tmp_path, platform, environ={}) == tmp_path / expected
