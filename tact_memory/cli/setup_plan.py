"""What ``tact-memory setup`` changes for one client: the plan of file changes, each client's
rules applied (:mod:`.clients` for the JSON files and Claude Code's hooks, :mod:`.codex_config`
for Codex's TOML)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from .clients import (
    READER_AGENT_NAME,
    Change,
    Client,
    Launch,
    claude_code_paths,
    claude_desktop_path,
    hooks_change,
    json_change,
    reader_agent,
    text_change,
)
from .codex_config import codex_changes

__all__ = ["plan"]


def plan(
    client: Client,
    launch: Launch,
    *,
    home: Path,
    workspace: Path,
    environ: dict[str, str] | None = None,
    reader: bool = False,
    remove: bool = False,
) -> list[Change]:
    """The file changes that register the server (and hook, and reader agent) for ``client``, or
    with ``remove`` take our server entry and hooks out again (a reader agent file is left).
    A file that does not exist and would stay empty has no change.

    Raises:
        SetupError: a file is not in the format the client writes; nothing was changed.
    """
    env = dict(os.environ if environ is None else environ)
    stdio = {"command": launch.command, "args": launch.args}
    claude = claude_code_paths(home, env)
    builders: dict[Client, Callable[[], list[Change]]] = {
        "claude-code": lambda: [
            json_change(claude["servers"], "mcpServers", {"type": "stdio", **stdio}, defaults={"env": {}}, remove=remove),
            hooks_change(claude["settings"], launch, place=not remove),
            *([text_change(claude["agents"] / f"{READER_AGENT_NAME}.md", reader_agent())] if reader and not remove else []),
        ],
        "claude-desktop": lambda: [json_change(claude_desktop_path(home, environ=env), "mcpServers", stdio, remove=remove)],
        "codex": lambda: codex_changes(Path(env.get("CODEX_HOME") or home / ".codex"), launch, remove=remove),
        "cursor": lambda: [json_change(home / ".cursor" / "mcp.json", "mcpServers", stdio, remove=remove)],
        "vscode": lambda: [
            json_change(workspace / ".vscode" / "mcp.json", "servers", {"type": "stdio", **stdio}, mode=0o644, remove=remove)
        ],
    }
    return [change for change in builders[client]() if change.before is not None or change.after]
