"""``tact-memory setup``: each client's file, merged, backed up, idempotent, and a server that starts."""

from __future__ import annotations

import json
import os
import re
import shlex
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
    (home / "work").mkdir(exist_ok=True)
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
    # the role stated in the client's file (I17), and the schema shape the client can check
    dialect = ["--dialect", clients.DIALECT[client]] if client in clients.DIALECT else []
    assert entry["args"][entry["args"].index("mcp") :] == ["mcp", "--role", "root", *dialect]
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


@pytest.mark.parametrize("client", list(CASES))
def test_remove_takes_out_our_entries_and_nothing_else(client: str, home: Path, config_path: Path) -> None:
    originals = place(home, CASES[client][0])
    assert setup(config_path, home, client).exit_code == 0
    result = setup(config_path, home, client, "--remove")
    assert result.exit_code == 0 and "removed the tact-memory entries" in result.output, result.output
    for path, before in originals.items():
        if path.suffix == ".toml":
            assert path.read_bytes() == before  # TOML keeps its text: given back byte for byte
        else:
            assert _json(path) == json.loads(before)
    written = {p: p.read_bytes() for p in home.rglob("*") if p.is_file()}
    again = setup(config_path, home, client, "--remove")
    assert again.exit_code == 0 and "no tact-memory entries found" in again.output
    assert {p: p.read_bytes() for p in home.rglob("*") if p.is_file()} == written


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
    """Ours is replaced where it was, so the user's hook keeps its place (Codex keys a hook's trust
    by its position: ``hook_key`` in codex-rs/hooks/src/engine/discovery.rs)."""
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    earlier = {"type": "command", "command": "/usr/bin/python3 /old/tact_memory/hooks/prompt_hook.py user-prompt-submit"}
    theirs = {"type": "command", "command": "echo user-prompt-submit"}
    settings.write_text(json.dumps({"hooks": {"UserPromptSubmit": [{"hooks": [earlier, theirs]}]}}), encoding="utf-8")
    setup(config_path, home, "claude-code")
    commands = [h["command"] for g in _json(settings)["hooks"]["UserPromptSubmit"] for h in g["hooks"]]
    assert len(commands) == 2 and commands[1] == theirs["command"]
    assert LAUNCHER in commands[0] and commands[0].startswith(sys.executable)


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


def test_a_file_nested_too_deeply_is_refused_unchanged(home: Path, config_path: Path) -> None:
    target = home / ".claude.json"
    target.write_text('{"projects": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    before = target.read_bytes()
    result = setup(config_path, home, "claude-code")
    assert result.exit_code == 1 and f"{target}: nested too deeply to be read; it was left unchanged" in result.output
    assert target.read_bytes() == before and not target.with_name(".claude.json.bak").exists()


def test_codex_without_tomlkit_names_the_extra(home: Path, config_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "tomlkit" else real(name, *a))
    result = setup(config_path, home, "codex")
    assert result.exit_code == 2 and "tact-memory[setup]" in result.output
    assert not (home / ".codex").exists()


@pytest.mark.parametrize("client", ["claude-code", "cursor", "vscode"])
def test_setup_without_the_mcp_extra_names_it_and_writes_nothing(
    client: str, home: Path, config_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The entry starts `tact-memory mcp`, which would fail inside the client, where nobody looks."""
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "mcp" else real(name, *a))
    before = sorted(p.relative_to(home) for p in home.rglob("*"))
    result = setup(config_path, home, client)
    assert result.exit_code == 2 and "tact-memory[mcp]" in result.output
    assert sorted(p.relative_to(home) for p in home.rglob("*") if p.name != "work") == [p for p in before if p.name != "work"]
    assert setup(config_path, home, client, "--print").exit_code == 0  # what to paste needs nothing


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


# --- the configuration the command names -------------------------------------------------------


async def scan_over(entry: dict[str, Any], env: dict[str, str]) -> dict[str, Any]:
    """One scan through the configured command, in exactly ``env`` (plus what imports need)."""
    full = {**env, "PYTHONPATH": str(ROOT), "PATH": os.environ.get("PATH", "")}
    async with Client(StdioServerParameters(command=entry["command"], args=entry["args"], env=full)) as client:
        result = await client.call_tool("memory", {"operation": "scan", "query": "deploy"})
        data: dict[str, Any] = json.loads(result.content[0].text)
        return data


def bare_setup(*args: str) -> Any:
    """``setup`` with no --config: the configuration is found the way a user's shell finds it."""
    return CliRunner().invoke(cli, ["setup", *args], catch_exceptions=False)


@pytest.mark.parametrize("found_by", ["XDG_CONFIG_HOME", "TACT_HOME"])
def test_a_config_found_through_the_environment_is_named_so_a_bare_client_finds_it(
    found_by: str, home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Codex starts a server with a few variables only (no XDG_CONFIG_HOME, no TACT_HOME): the
    command must name the file setup found, or the server reads another one with memory off."""
    from ..conftest import write_config

    folder = tmp_path / "elsewhere"
    config = write_config(folder / "tact" if found_by == "XDG_CONFIG_HOME" else folder)
    monkeypatch.setenv(found_by, str(folder))
    result = bare_setup("cursor")
    assert result.exit_code == 0, result.output
    entry = _json(home / ".cursor/mcp.json")["mcpServers"]["tact-memory"]
    assert entry["args"][entry["args"].index("--config") + 1] == str(config)
    assert "note:" not in result.output
    answer = anyio.run(scan_over, entry, {"HOME": str(home)})
    assert "error" not in answer, answer  # memory is on: the same file was read


def test_a_fallback_link_to_nothing_is_not_named_and_setup_says_where_it_points(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TACT_HOME", str(tmp_path / "tact"))
    (tmp_path / "tact").mkdir()
    (tmp_path / "tact" / "config.toml").symlink_to(tmp_path / "gone.toml")
    result = bare_setup("cursor")
    assert result.exit_code == 0, result.output
    assert "--config" not in _json(home / ".cursor/mcp.json")["mcpServers"]["tact-memory"]["args"]
    assert f"is a symbolic link to {tmp_path / 'gone.toml'}, which does not exist" in result.output
    assert f"tact-memory --config {tmp_path / 'gone.toml'} init --enable" in result.output


def test_a_missing_fallback_file_is_not_named_and_setup_says_memory_is_off(home: Path, tmp_path: Path) -> None:
    result = bare_setup("cursor")
    assert result.exit_code == 0, result.output
    entry = _json(home / ".cursor/mcp.json")["mcpServers"]["tact-memory"]
    assert "--config" not in entry["args"]  # naming a missing file would stop the server starting
    assert "no configuration file at" in result.output and "memory is off" in result.output
    assert "`tact-memory init --enable` creates it" in result.output
    assert anyio.run(scan_over, entry, {"HOME": str(home)})["error"]["code"] == "disabled"
    printed = bare_setup("cursor", "--print")
    assert "# note: no configuration file at" in printed.output  # --print says so too


@pytest.mark.parametrize("chosen_by", ["--config", "TACT_CONFIG"])
def test_a_chosen_file_that_is_missing_is_named_and_setup_says_how_to_create_it(
    chosen_by: str, home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    chosen = tmp_path / "later" / "config.toml"
    if chosen_by == "TACT_CONFIG":
        monkeypatch.setenv("TACT_CONFIG", str(chosen))
        result = bare_setup("claude-code")
    else:
        result = setup(chosen, home, "claude-code")
    assert result.exit_code == 0, result.output
    entry = _json(home / ".claude.json")["mcpServers"]["tact-memory"]
    assert entry["args"][entry["args"].index("--config") + 1] == str(chosen)
    assert f"{chosen} (chosen by {chosen_by}) does not exist yet" in result.output
    assert "the prompt hook fails on each prompt" in result.output
    # the advice, followed as printed, makes the file the entry names, and the server starts on it
    advice = re.search(r"`(tact-memory --config [^`]+ init --enable)`", result.output)
    assert advice is not None
    monkeypatch.delenv("TACT_CONFIG", raising=False)
    made = CliRunner().invoke(cli, shlex.split(advice.group(1))[1:], catch_exceptions=False)
    assert made.exit_code == 0 and chosen.is_file(), made.output
    assert "error" not in anyio.run(scan_over, entry, {"HOME": str(home)})


# --- merging into files the user wrote ---------------------------------------------------------

CODEX_FORMS = {
    "dotted keys": 'mcp_servers.a = { command = "x" }\nmcp_servers.b = { command = "y" }\n\n[other]\nk = 1\n',
    "inline table": 'model = "o3"\nmcp_servers = { a = { command = "x", args = [] } }\n',
    "sections apart": '[mcp_servers.a]\ncommand = "x"\n\n[profiles.p]\nmodel = "o3"\n\n[mcp_servers.b]\ncommand = "z"\n',
    "direct keys": '[mcp_servers]\na.command = "x"\n',
    "ours, dotted": 'mcp_servers.tact-memory.command = "old"\nmcp_servers.tact-memory.env = { A = "1" }\n',
    "ours, inline": 'mcp_servers = { tact-memory = { command = "old", enabled = false } }\n',
    "ours, quoted": '[mcp_servers."tact-memory"]\ncommand = "old"\nargs = []\nstartup_timeout_sec = 20\n\n[mcp_servers."tact-memory".env]\nA = "1"\n',
    "comments only": "# nothing configured yet\n",
}


@pytest.mark.parametrize("text", list(CODEX_FORMS.values()), ids=list(CODEX_FORMS))
def test_codex_config_in_every_toml_form_keeps_its_meaning(text: str, home: Path, config_path: Path) -> None:
    """However ``mcp_servers`` is written (sections, dotted keys, an inline table), the file reads
    back as before plus our entry: no other server moves into ours, none is lost on a re-run, and
    the user's own keys on our entry stay."""
    target = home / ".codex/config.toml"
    target.parent.mkdir(parents=True)
    target.write_text(text, encoding="utf-8")
    old = tomllib.loads(text)
    theirs = old.get("mcp_servers", {}).pop("tact-memory", {})  # an entry of ours the user wrote
    for _ in range(2):
        result = setup(config_path, home, "codex")
        assert result.exit_code == 0, result.output
        new = _toml(target)
        ours = new["mcp_servers"].pop("tact-memory")
        if not new["mcp_servers"] and "mcp_servers" not in old:
            del new["mcp_servers"]
        assert new == old  # everything else means what it meant
        assert ours["args"][-5:] == ["mcp", "--role", "root", "--dialect", "plain"] and Path(ours["command"]).is_absolute()
        assert {k: v for k, v in ours.items() if k not in ("command", "args")} == {
            k: v for k, v in theirs.items() if k not in ("command", "args")
        }
    assert "already up to date" in result.output
    if "#" in text:
        assert target.read_text().startswith(text.rstrip("\n"))


@pytest.mark.parametrize(
    "text", ['[[mcp_servers]]\nname = "a"\n', "mcp_servers = 3\n", "mcp_servers.tact-memory = 1\n", "[mcp_servers\n"]
)
def test_codex_config_we_cannot_merge_is_refused_unchanged(text: str, home: Path, config_path: Path) -> None:
    target = home / ".codex/config.toml"
    target.parent.mkdir(parents=True)
    target.write_text(text, encoding="utf-8")
    result = setup(config_path, home, "codex")
    assert result.exit_code == 1 and "left unchanged" in result.output and "Traceback" not in result.output
    assert target.read_text() == text and not target.with_name("config.toml.bak").exists()


def test_a_toml_result_that_reads_differently_is_refused(
    home: Path, config_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The read-back check: whatever produced the new text, a file that would mean something else
    (here, one with another server's key lost) is not written, and the entry is shown to paste."""
    import tomlkit

    target = home / ".codex/config.toml"
    target.parent.mkdir(parents=True)
    text = '[mcp_servers.tact-memory]\ncommand = "old"\n\n[mcp_servers.docs]\ncommand = "npx"\n'
    target.write_text(text, encoding="utf-8")
    real = tomlkit.dumps
    monkeypatch.setattr(tomlkit, "dumps", lambda doc, *a, **k: real(doc, *a, **k).replace('command = "npx"\n', ""))
    result = setup(config_path, home, "codex")
    assert result.exit_code == 1 and "Add this by hand" in result.output and "[mcp_servers.tact-memory]" in result.output
    assert target.read_text() == text


def test_the_users_keys_on_our_entries_and_hooks_are_kept(home: Path, config_path: Path) -> None:
    claude = home / ".claude.json"
    claude.write_text(json.dumps({"mcpServers": {"tact-memory": {
        "type": "stdio", "command": "/old/tact-memory", "args": ["mcp"], "env": {"LOG": "1"}, "timeout": 30000,
    }}}), encoding="utf-8")  # fmt: skip
    settings = home / ".claude/settings.json"
    settings.parent.mkdir(parents=True)
    old_hook = {"type": "command", "command": "/old/python /old/tact_memory/hooks/__main__.py user-prompt-submit", "timeout": 5}
    settings.write_text(json.dumps({"hooks": {"UserPromptSubmit": [{"hooks": [old_hook]}]}}), encoding="utf-8")
    assert setup(config_path, home, "claude-code").exit_code == 0
    entry = _json(claude)["mcpServers"]["tact-memory"]
    assert entry["env"] == {"LOG": "1"} and entry["timeout"] == 30000 and entry["command"] != "/old/tact-memory"
    (hook,) = [h for g in _json(settings)["hooks"]["UserPromptSubmit"] for h in g["hooks"]]
    assert hook["timeout"] == 5 and LAUNCHER in hook["command"]
    fresh = _json(claude)
    fresh["mcpServers"]["tact-memory"].pop("env")
    claude.write_text(json.dumps(fresh), encoding="utf-8")
    setup(config_path, home, "claude-code")
    assert _json(claude)["mcpServers"]["tact-memory"]["env"] == {}  # a missing default is filled


def test_a_symlinked_client_file_is_written_through(home: Path, config_path: Path, tmp_path: Path) -> None:
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    real = dotfiles / "cursor-mcp.json"
    shutil.copyfile(fixture_path("clients", "cursor-mcp.json"), real)
    before = real.read_bytes()
    link = home / ".cursor/mcp.json"
    link.parent.mkdir(parents=True)
    link.symlink_to(real)
    assert setup(config_path, home, "cursor").exit_code == 0
    assert link.is_symlink() and link.resolve() == real
    assert "tact-memory" in _json(real)["mcpServers"]
    assert link.with_name("mcp.json.bak").read_bytes() == before
    assert list(dotfiles.iterdir()) == [real]  # no temporary file left beside the target


def test_claude_config_dir_is_where_claude_code_files_go(home: Path, config_path: Path, tmp_path: Path) -> None:
    """With CLAUDE_CONFIG_DIR set, Claude Code reads ``.claude.json``, ``settings.json`` and
    ``agents/`` from that folder (``claude mcp add --scope user`` writes there too)."""
    folder = tmp_path / "claude-work"
    result = CliRunner().invoke(
        cli, ["--config", str(config_path), "setup", "claude-code", "--tools", "split", "--reader-agent"],
        env={"CLAUDE_CONFIG_DIR": str(folder)}, catch_exceptions=False,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "tact-memory" in _json(folder / ".claude.json")["mcpServers"]
    assert "UserPromptSubmit" in _json(folder / "settings.json")["hooks"]
    assert (folder / "agents/memory-reader.md").is_file()
    assert not (home / ".claude.json").exists() and not (home / ".claude").exists()


def test_the_global_workspace_option_places_the_vscode_file(home: Path, config_path: Path, tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    result = CliRunner().invoke(cli, ["--config", str(config_path), "--workspace", str(project), "setup", "vscode"])
    assert result.exit_code == 0, result.output
    assert "tact-memory" in _json(project / ".vscode/mcp.json")["servers"]
    own = tmp_path / "own"
    own.mkdir()
    result = CliRunner().invoke(
        cli, ["--config", str(config_path), "--workspace", str(project), "setup", "vscode", "--workspace", str(own)]
    )
    assert result.exit_code == 0 and (own / ".vscode/mcp.json").is_file()  # the command's own option wins


def test_codex_setup_says_the_hooks_need_trust(home: Path, config_path: Path) -> None:
    """Codex skips a new or changed hook until it is trusted in /hooks; setup says so when it
    wrote one, and not when nothing changed."""
    first = setup(config_path, home, "codex")
    assert first.exit_code == 0 and "open /hooks in Codex and trust" in first.output
    again = setup(config_path, home, "codex")
    assert "trust" not in again.output
    assert "restart" in first.output and "restart" not in again.output  # nothing was written


# --- an entry of our name that served over HTTP ------------------------------------------------

# The remote form each client documents for a server: Claude Code (`claude mcp add --transport
# http`, https://code.claude.com/docs/en/mcp), Claude Desktop and Cursor ("url" and "headers",
# https://cursor.com/docs/context/mcp), VS Code ("type": "http", https://code.visualstudio.com/docs/
# agents/reference/mcp-configuration) and Codex (url, bearer_token_env_var, http_headers,
# env_http_headers; codex-rs/config/src/mcp_types.rs in https://github.com/openai/codex).
REMOTE_ENTRIES: dict[str, tuple[str, str, dict[str, Any]]] = {
    "claude-code": (".claude.json", "mcpServers", {"type": "http", "url": "https://m.example/mcp", "headers": {"Authorization": "Bearer ${T}"}}),
    "claude-desktop": (".config/Claude/claude_desktop_config.json", "mcpServers", {"url": "https://m.example/mcp", "headers": {"X": "1"}}),
    "cursor": (".cursor/mcp.json", "mcpServers", {"type": "streamable-http", "url": "https://m.example/mcp", "headers": {"X": "1"}}),
    "vscode": ("work/.vscode/mcp.json", "servers", {"type": "http", "url": "https://m.example/mcp", "headers": {"X": "1"}}),
}  # fmt: skip

CODEX_REMOTE = """[mcp_servers.tact-memory]
url = "https://m.example/mcp"
bearer_token_env_var = "TACT_TEAM_TOKEN"
http_headers = { "X-Team" = "core" }
env_http_headers = { "X-Trace" = "TRACE_ID" }
oauth_resource = "https://m.example"
startup_timeout_sec = 20
"""


def codex_refuses(entry: dict[str, Any]) -> list[str]:
    """What Codex refuses on a server with a ``command``: each of these set fails the whole file
    ("{field} is not supported for stdio", ``TryFrom<RawMcpServerConfig>`` in codex-rs/config/src/mcp_types.rs)."""
    stdio_refused = ["url", "bearer_token_env_var", "bearer_token", "http_headers", "env_http_headers", "oauth", "oauth_resource"]
    return [key for key in stdio_refused if "command" in entry and key in entry]


@pytest.mark.parametrize("client", list(REMOTE_ENTRIES))
def test_an_http_entry_of_our_name_becomes_a_stdio_one_without_remote_keys(
    client: str, home: Path, config_path: Path
) -> None:
    where, key, remote = REMOTE_ENTRIES[client]
    target = home / where
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps({key: {"tact-memory": {**remote, "disabled": False}, "other": remote}}), encoding="utf-8")
    result = setup(config_path, home, client)
    assert result.exit_code == 0, result.output
    servers = _json(target)[key]
    entry = servers["tact-memory"]
    assert not {"url", "headers"} & set(entry), entry
    assert entry.get("type", "stdio") == "stdio" and entry["command"] and entry["disabled"] is False
    assert servers["other"] == remote  # another server keeps its remote form
    assert anyio.run(list_tools, entry) == ["memory"]


def test_a_codex_http_entry_of_our_name_becomes_a_stdio_one_codex_accepts(home: Path, config_path: Path) -> None:
    target = home / ".codex/config.toml"
    target.parent.mkdir(parents=True)
    target.write_text(CODEX_REMOTE, encoding="utf-8")
    result = setup(config_path, home, "codex")
    assert result.exit_code == 0, result.output
    entry = _toml(target)["mcp_servers"]["tact-memory"]
    assert codex_refuses(entry) == [] and entry["startup_timeout_sec"] == 20
    assert codex_refuses(_toml(home / ".codex/config.toml.bak")["mcp_servers"]["tact-memory"] | {"command": "x"})  # the check bites
    assert setup(config_path, home, "codex").output.count("already up to date") == 2


# --- the team token, for clients that pass few variables ---------------------------------------

TEAM = '\n[memory.team]\nendpoint = "http://127.0.0.1:9"\ntoken_env = "TACT_TEAM_TOKEN"\nworkspace_roots = ["{root}"]\n'


def test_codex_is_told_to_pass_the_team_tokens_variable(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Codex starts a stdio server with HOME, PATH, USER, LANG and a few more, plus the entry's
    ``env`` and the variables ``env_vars`` names (``create_env_for_mcp_server`` in
    codex-rs/rmcp-client/src/utils.rs; https://developers.openai.com/codex/mcp): without the
    token's variable, every call of a team workspace would answer ``token_missing``."""
    from ..conftest import write_config

    root = tmp_path / "team-work"
    root.mkdir()
    config = write_config(tmp_path / "cfg", extra=TEAM.format(root=root))
    target = home / ".codex/config.toml"
    target.parent.mkdir(parents=True)
    target.write_text('[mcp_servers.tact-memory]\ncommand = "old"\nenv_vars = ["LOG_LEVEL", { name = "TRACE", source = "local" }]\n')
    assert setup(config, home, "codex").exit_code == 0
    entry = _toml(target)["mcp_servers"]["tact-memory"]
    assert entry["env_vars"] == ["LOG_LEVEL", {"name": "TRACE", "source": "local"}, "TACT_TEAM_TOKEN"]
    assert setup(config, home, "codex").output.count("already up to date") == 2
    # Started as Codex starts it: the whitelist, and what env_vars forwards.
    monkeypatch.setenv("TACT_TEAM_TOKEN", "tm_example_token_for_tests_0123456789")
    passed = {k: os.environ[k] for k in ("HOME", "PATH", "USER", "LANG") if k in os.environ}
    passed |= {name: os.environ[name] for name in entry["env_vars"] if isinstance(name, str) and name in os.environ}
    import subprocess

    call = json.dumps({"operation": "scan", "query": "deploys"})
    argv = [entry["command"], *entry["args"][: entry["args"].index("mcp")], "--workspace", str(root), "tool", call]
    answer = json.loads(subprocess.run(argv, capture_output=True, env={**passed, "PYTHONPATH": str(ROOT)}, timeout=60, check=False).stdout)
    assert answer["error"]["code"] == "unavailable" and answer["error"]["reason"] != "token_missing", answer


@pytest.mark.parametrize("client", ["cursor", "vscode", "claude-desktop"])
def test_clients_without_a_forwarding_key_are_told_about_the_token(client: str, home: Path, tmp_path: Path) -> None:
    from ..conftest import write_config

    config = write_config(tmp_path / "cfg", extra=TEAM.format(root=tmp_path))
    result = setup(config, home, client)
    assert result.exit_code == 0 and "$TACT_TEAM_TOKEN" in result.output and "token_file" in result.output
    plain = setup(write_config(tmp_path / "plain"), home, client)
    assert "TACT_TEAM_TOKEN" not in plain.output


# --- the hook command on Windows ---------------------------------------------------------------


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash, the shell Claude Code runs hooks with on Windows")
@pytest.mark.parametrize(
    "argv",
    [
        [r"C:\Users\me\proj\.venv\Scripts\python.exe", r"C:\Users\me\proj\.venv\Lib\site-packages\tact_memory\hooks\__main__.py", "user-prompt-submit"],
        [r"C:\Program Files\Python311\python.exe", r"C:\Users\Ann (work)\tact\hooks\__main__.py", "--config", r"D:\cfg & co\config.toml", "session-start"],
        [r"C:\Users\me\$tmp\python.exe", r"\\server\share\tact_memory\hooks\__main__.py", "user-prompt-submit"],
    ],
    ids=["plain", "spaces-and-shell-characters", "unc"],
)
def test_a_windows_hook_command_reaches_the_program_whole_through_bash(argv: list[str]) -> None:
    """Claude Code runs a hook's command through Git Bash on Windows, where an unquoted backslash is
    an escape: setups that wrote Windows paths as they are got ``C:Usersme...: command not found``
    (anthropics/claude-code#21878, #22449; EmpiricaAI/empirica#111). Bash here splits the command
    the way Git Bash would; each word must arrive as its path with forward slashes."""
    import subprocess

    line = clients._shell(argv, windows=True)
    words = subprocess.run(["bash", "-c", f"printf '%s\\0' {line}"], capture_output=True, check=True).stdout
    assert words.decode().split("\0")[:-1] == [arg.replace("\\", "/") for arg in argv]
    assert "\\" not in line.replace("\\$", "")  # no backslash but one that keeps a `$` literal


def test_claude_desktop_reaches_the_team_store_only_with_a_workspace(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Claude Desktop starts a server with no working folder of the user's (its documented entry
    has command, args and env only: https://modelcontextprotocol.io/docs/develop/connect-local-servers),
    so ``workspace_roots`` cannot match there: setup says so, and ``--workspace`` pins the folder."""
    import subprocess

    from ..conftest import write_config

    root = tmp_path / "team-work"
    (root / "app").mkdir(parents=True)
    config = write_config(tmp_path / "cfg", extra=TEAM.format(root=root))
    target = home / ".config/Claude/claude_desktop_config.json"
    monkeypatch.setenv("TACT_TEAM_TOKEN", "tm_example_token_for_tests_0123456789")

    def scan(entry: dict[str, Any]) -> Any:
        argv = [entry["command"], *entry["args"][:-3], "tool", json.dumps({"operation": "scan", "query": "deploys"})]
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        return json.loads(subprocess.run(argv, capture_output=True, env=env, cwd="/", timeout=60, check=False).stdout)

    bare = CliRunner().invoke(cli, ["--config", str(config), "setup", "claude-desktop"], catch_exceptions=False)
    assert bare.exit_code == 0 and f"--workspace {root}" in bare.output and "workspace_roots" in bare.output
    entry = _json(target)["mcpServers"]["tact-memory"]
    assert "--workspace" not in entry["args"] and "error" not in scan(entry)  # the local store
    pinned = CliRunner().invoke(
        cli, ["--config", str(config), "setup", "claude-desktop", "--workspace", str(root / "app")], catch_exceptions=False
    )
    assert pinned.exit_code == 0 and "workspace_roots" not in pinned.output
    entry = _json(target)["mcpServers"]["tact-memory"]
    assert entry["args"][-5:] == ["--workspace", str(root / "app"), "mcp", "--role", "root"]
    assert scan(entry)["error"]["code"] == "unavailable"  # the team store (its endpoint is down here)


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ('{"mcpServers": {}, "note": "\\ud800"}', "holds half a character"),
        ('{"mcpServers": {}, "big": 1e999}', "the number 1e999 is too large to write back as JSON"),
        ('{"mcpServers": {}, "ratio": NaN}', "NaN is not JSON"),
        ('{"mcpServers": {}, "ratio": -Infinity}', "-Infinity is not JSON"),
        ('{"mcpServers": {}, "d": 1, "d": 2}', 'names "d" twice in one object'),
        ('{"mcpServers": {"a": {"x": 1, "x": 1}}}', 'names "x" twice in one object'),
    ],
)
def test_a_json_file_setup_could_not_write_back_as_it_was_is_refused_unchanged(
    home: Path, config_path: Path, text: str, named: str
) -> None:
    """Python reads these, but writing them back would change what they say (a key dropped, a
    number become Infinity, which no JSON reader takes) or fail half way."""
    target = home / ".cursor/mcp.json"
    target.parent.mkdir(parents=True)
    target.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["--config", str(config_path), "setup", "cursor"])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
    assert named in result.output and "it was left unchanged" in result.output
    assert target.read_text(encoding="utf-8") == text
    assert sorted(p.name for p in target.parent.iterdir()) == ["mcp.json"]  # no backup, no temporary file


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("bom", ["", "\ufeff"])
@pytest.mark.parametrize("indent", [2, 4, "\t"])
def test_setup_then_remove_gives_a_json_file_back_in_its_own_layout(
    home: Path, config_path: Path, newline: str, bom: str, indent: int | str
) -> None:
    target = home / ".cursor/mcp.json"
    target.parent.mkdir(parents=True)
    mine = {"mcpServers": {"docs": {"command": "docs-server", "args": ["--port", "7"]}}, "theme": "dark"}
    original = (bom + json.dumps(mine, indent=indent) + "\n").replace("\n", newline).encode()
    target.write_bytes(original)
    assert setup(config_path, home, "cursor").exit_code == 0
    written = target.read_bytes().decode()
    assert written.startswith(bom + "{") and ("\r\n" in written) == (newline == "\r\n")
    assert json.loads(written.removeprefix("\ufeff"))["mcpServers"]["tact-memory"]
    assert target.with_name("mcp.json.bak").read_bytes() == original
    assert setup(config_path, home, "cursor", "--remove").exit_code == 0
    assert target.read_bytes() == original


def test_remove_takes_out_the_tables_setup_added_for_our_entries(home: Path, config_path: Path) -> None:
    """A file that had no server or hook table before setup has none after --remove."""
    claude = home / ".claude.json"
    claude.write_text('{"theme": "dark"}\n', encoding="utf-8")
    settings = home / ".claude/settings.json"
    settings.parent.mkdir()
    settings.write_text('{"model": "opus"}\n', encoding="utf-8")
    assert setup(config_path, home, "claude-code").exit_code == 0
    assert "hooks" in _json(settings) and "mcpServers" in _json(claude)
    assert setup(config_path, home, "claude-code", "--remove").exit_code == 0
    assert (_json(claude), _json(settings)) == ({"theme": "dark"}, {"model": "opus"})


@pytest.mark.parametrize(
    "command",
    [
        "~/bin/sync.sh ~/notes/tact-memory session-start.log",
        "echo tact-memory session-start >> ~/tact_memory.log",
        "notify-send 'session-start' 'tact-memory is here'",
    ],
)
def test_a_hook_of_the_users_that_only_mentions_tact_memory_stays_theirs(home: Path, config_path: Path, command: str) -> None:
    settings = home / ".claude/settings.json"
    settings.parent.mkdir()
    theirs = {"hooks": [{"type": "command", "command": command}]}
    settings.write_text(json.dumps({"hooks": {"SessionStart": [theirs]}}), encoding="utf-8")
    assert setup(config_path, home, "claude-code").exit_code == 0
    groups = _json(settings)["hooks"]["SessionStart"]
    assert groups[0] == theirs and len(groups) == 2 and LAUNCHER in groups[1]["hooks"][0]["command"]
    assert setup(config_path, home, "claude-code", "--remove").exit_code == 0
    assert _json(settings) == {"hooks": {"SessionStart": [theirs]}}


def test_a_file_that_cannot_be_written_leaves_every_file_of_the_client_as_it_was(
    home: Path, config_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Claude Code's server entry and its hook are two files; when the second cannot be written,
    the first is given back its old text, so the client never has one without the other."""
    claude = home / ".claude.json"
    claude.write_text('{"theme": "dark"}\n', encoding="utf-8")
    settings = home / ".claude/settings.json"
    settings.parent.mkdir()
    settings.write_text('{"model": "opus"}\n', encoding="utf-8")
    real_replace = os.replace

    def refusing(src: Any, dst: Any) -> None:
        if Path(dst).name == "settings.json":
            raise PermissionError(1, "Operation not permitted")
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", refusing)
    result = CliRunner().invoke(cli, ["--config", str(config_path), "setup", "claude-code"])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert f"cannot write {settings}: Operation not permitted; nothing was changed" in result.output
    assert claude.read_text(encoding="utf-8") == '{"theme": "dark"}\n'
    assert settings.read_text(encoding="utf-8") == '{"model": "opus"}\n'
    assert not any(p.name.endswith(".tmp") for p in home.rglob("*"))
    assert not settings.with_name("settings.json.bak").exists()  # the backup made for it is taken back


def test_a_failed_write_keeps_the_earlier_backup(home: Path, config_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = home / ".cursor/mcp.json"
    target.parent.mkdir(parents=True)
    target.write_text('{"mcpServers": {}}\n', encoding="utf-8")
    backup = target.with_name("mcp.json.bak")
    backup.write_text('{"an": "older backup"}\n', encoding="utf-8")
    real_replace = os.replace
    monkeypatch.setattr(os, "replace", lambda src, dst: (_ for _ in ()).throw(OSError(28, "No space left on device"))
                        if Path(dst).name == "mcp.json" else real_replace(src, dst))  # fmt: skip
    result = CliRunner().invoke(cli, ["--config", str(config_path), "setup", "cursor"])
    assert result.exit_code == 1 and "No space left on device; nothing was changed" in result.output
    assert backup.read_text(encoding="utf-8") == '{"an": "older backup"}\n'
    assert target.read_text(encoding="utf-8") == '{"mcpServers": {}}\n'
    assert sorted(p.name for p in target.parent.iterdir()) == ["mcp.json", "mcp.json.bak"]


def test_print_shows_what_to_paste_into_a_file_setup_cannot_merge(home: Path, config_path: Path) -> None:
    """The README's way for a JSONC file: ``--print`` shows the entry to paste by hand."""
    target = home / "work/.vscode/mcp.json"
    target.parent.mkdir(parents=True)
    shutil.copyfile(fixture_path("clients", "vscode-mcp-with-comments.json"), target)
    before = target.read_bytes()
    result = setup(config_path, home, "vscode", "--print")
    assert result.exit_code == 0, result.output
    assert f"# {target}: not plain JSON" in result.output and "paste the entries below into it by hand" in result.output
    assert '"servers"' in result.output and '"tact-memory"' in result.output and '"--role"' in result.output
    assert target.read_bytes() == before and sorted(p.name for p in target.parent.iterdir()) == ["mcp.json"]


def test_a_workspace_that_does_not_exist_is_refused_and_nothing_is_created(home: Path, config_path: Path, tmp_path: Path) -> None:
    missing = tmp_path / "typo" / "project"
    named = CliRunner().invoke(cli, ["--config", str(config_path), "setup", "vscode", "--workspace", str(missing)])
    assert named.exit_code == 2 and "does not exist" in named.output
    global_option = CliRunner().invoke(cli, ["--config", str(config_path), "--workspace", str(missing), "setup", "vscode"])
    assert global_option.exit_code in (1, 2) and not isinstance(global_option.exception, (OSError, TypeError))
    assert not (tmp_path / "typo").exists()


def test_a_codex_file_with_crlf_line_endings_keeps_them_and_is_given_back_byte_for_byte(home: Path, config_path: Path) -> None:
    target = home / ".codex/config.toml"
    target.parent.mkdir(parents=True)
    original = b'# mine\r\nmodel = "o3"\r\n\r\n[mcp_servers.docs]\r\ncommand = "docs-server"\r\n'
    target.write_bytes(original)
    assert setup(config_path, home, "codex").exit_code == 0
    written = target.read_bytes()
    assert written.startswith(original) and b"\n" not in written.replace(b"\r\n", b"")
    assert _toml(target)["mcp_servers"]["tact-memory"]["args"][-5:] == ["mcp", "--role", "root", "--dialect", "plain"]
    assert setup(config_path, home, "codex", "--remove").exit_code == 0
    assert target.read_bytes() == original


def test_codex_remove_keeps_a_note_the_user_wrote_below_our_entry(home: Path, config_path: Path) -> None:
    """TOML reads a comment below our table as part of it; it is the user's, and stays."""
    target = home / ".codex/config.toml"
    target.parent.mkdir(parents=True)
    target.write_text('model = "o3"\n', encoding="utf-8")
    assert setup(config_path, home, "codex").exit_code == 0
    with target.open("a", encoding="utf-8") as file:
        file.write('\n# keep this note\n[profiles.fast]\nmodel = "o4-mini"\n')
    assert setup(config_path, home, "codex", "--remove").exit_code == 0
    text = target.read_text(encoding="utf-8")
    assert "# keep this note\n[profiles.fast]" in text and "tact-memory" not in text
    assert _toml(target) == {"model": "o3", "profiles": {"fast": {"model": "o4-mini"}}}
