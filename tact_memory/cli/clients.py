"""``tact-memory setup``: register the MCP server (and the prompt hook) in a client's own files.

Each client keeps MCP servers in its own file and format:

========================  ===============================================  ======================
client                    file                                             where the entry goes
========================  ===============================================  ======================
``claude-code``           ``~/.claude.json`` (user scope)                  ``mcpServers``
                          ``~/.claude/settings.json``                      ``hooks``
``claude-desktop``        ``claude_desktop_config.json`` (per platform)    ``mcpServers``
``codex``                 ``$CODEX_HOME/config.toml`` (``~/.codex``)       ``[mcp_servers.NAME]``
                          ``$CODEX_HOME/hooks.json``, or ``[hooks]`` of    ``hooks``
                          ``config.toml`` when the user's hooks are there
``cursor``                ``~/.cursor/mcp.json``                           ``mcpServers``
``vscode``                ``<workspace>/.vscode/mcp.json``                 ``servers``
========================  ===============================================  ======================

A plan is a list of :class:`Change` objects: the file's text before and after. Applying one only
touches our own entries (the server named :data:`SERVER_NAME` and the hooks that run
:mod:`tact_memory.hooks`): every other key, server and hook is kept, TOML comments and
layout included (through tomlkit), and so are the user's own keys on our entries (``env``,
``enabled``, timeouts): setup sets only the command, its arguments and the type. A changed file is
first copied to ``<file>.bak`` and then replaced atomically (a symbolic link is written through,
so it stays a link); a file already up to date is not written, so setup is idempotent. A JSON
file that cannot be parsed as plain JSON (for example JSONC with comments) is refused with a
:class:`SetupError` and left unchanged, and so is a TOML file our entry cannot be added to
without changing what the rest of it means. With ``remove``, the same files lose our entries
and keep everything else (:mod:`tact_memory.cli.codex_config` has Codex's rules).

The command written is the absolute path of the installed ``tact-memory`` (or ``python -m
tact_memory.cli`` when there is no script beside the interpreter), with ``--config`` naming the
configuration file whenever one was found or chosen (:func:`pinned_config`), so the client finds
the same corpus whatever its environment (Codex, for one, starts servers with a few variables
only). The hook command runs ``tact_memory/hooks/__main__.py`` by path with the same
interpreter (:func:`hook_argv`), which keeps it cheap.

Why this module is longer than ~300 lines: five clients' file formats, paths and merge rules are one
table-driven writer; splitting per client would repeat the merge, backup and idempotence logic.
Codex's TOML editing is the exception, in :mod:`tact_memory.cli.codex_config`.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import sys
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from ..tool.wire import RepeatedName, loads_once

if TYPE_CHECKING:
    from ..config.loading import ConfigSource

__all__ = [
    "CLIENTS",
    "DIALECT",
    "HOOK_MODULES",
    "HOOK_PROGRAMS",
    "HOOK_SCRIPTS",
    "READER_AGENT_NAME",
    "SERVER_NAME",
    "ApplyError",
    "Change",
    "Launch",
    "SetupError",
    "apply",
    "apply_all",
    "as_new_files",
    "claude_code_paths",
    "claude_desktop_path",
    "hook_argv",
    "hooks_change",
    "json_change",
    "json_object",
    "merged_entry",
    "pinned_config",
    "read_text",
    "text_change",
]

SERVER_NAME = "tact-memory"
"""The name the server is registered under in every client."""

READER_AGENT_NAME = "memory-reader"
"""The Claude Code sub-agent ``--reader-agent`` writes: it may scan and read memory, not write it."""

Client = Literal["claude-code", "claude-desktop", "codex", "cursor", "vscode"]
CLIENTS: tuple[Client, ...] = ("claude-code", "claude-desktop", "codex", "cursor", "vscode")

HOOK_EVENTS = {"UserPromptSubmit": "user-prompt-submit", "SessionStart": "session-start"}
"""Client hook events and the ``tact-memory hook`` event that handles each."""


HOOK_SCRIPTS = ("tact_memory/hooks/__main__.py", "tact_memory/hooks/prompt_hook.py")
"""The files a hook command of ours runs (this release's, or an earlier one's), by the end of their path."""

HOOK_MODULES = ("tact_memory.hooks", "tact_memory.hooks.prompt_hook")
"""The modules a hook command of ours may run with ``python -m``."""

HOOK_PROGRAMS = ("tact-memory", "tact-memory.exe")
"""The command that runs a hook of ours as ``tact-memory [OPTIONS] hook EVENT``."""


class SetupError(Exception):
    """A client file that cannot be merged safely; nothing was written."""


@dataclass(frozen=True)
class Launch:
    """How a client starts the server and the hook."""

    command: str
    """Absolute path of the program that serves MCP."""
    args: list[str]
    """Its arguments, ending in ``mcp ...``."""
    hook: dict[str, str]
    """Client hook event name → the shell command that handles it."""
    forward: tuple[str, ...] = ()
    """Environment variables the server needs from the client's environment (the team token's
    ``token_env``); a client that starts servers with a few variables only is told to pass these."""

    @classmethod
    def detect(
        cls,
        config: Path | None,
        *,
        tools: str = "one",
        forward: tuple[str, ...] = (),
        workspace: Path | None = None,
        dialect: str = "default",
    ) -> Launch:
        """The installed command, pinned to ``config`` (see :func:`pinned_config`) when given, and
        to ``workspace`` (``--workspace``) for a client that starts the server in no folder of the
        user's; ``dialect`` other than the default is passed on (:data:`DIALECT`)."""
        script = Path(sys.executable).parent / ("tact-memory.exe" if os.name == "nt" else "tact-memory")
        command, args = (str(script), []) if script.is_file() else (sys.executable, ["-m", "tact_memory.cli"])
        pinned = ["--config", str(config)] if config is not None else []
        pinned += ["--workspace", str(workspace)] if workspace is not None else []
        # the role is stated in the client's file (I17): the server cannot tell a sub-agent from its parent
        args = [*args, *pinned, "mcp", "--role", "root", *(["--tools", "split"] if tools == "split" else [])]
        args += ["--dialect", dialect] if dialect != "default" else []
        hook = {name: _shell(hook_argv(config, event)) for name, event in HOOK_EVENTS.items()}
        return cls(command, args, hook, tuple(forward))


DIALECT: dict[str, str] = {"codex": "plain", "cursor": "plain"}
"""The schema dialect (``tact-memory mcp --dialect``) each client needs, when not the default.

Cursor checks a call's arguments against the listed schema itself, and its check takes the
type of a number as JavaScript names it: an ``integer`` in ``anyOf: [integer, null]`` (how the
default publishes an optional id, version or limit) is refused before the call reaches the
server (cursor/cursor#3540, #3778), so a read by id, a replacement and a delete could never run.
Codex rewrites an MCP tool's schema before its model sees it, and a property with ``anyOf`` and
no ``type`` becomes a ``string`` (openai/codex#13768, still so in 0.111), so its model is told to
send an id, a version or a limit as text. ``plain`` publishes each optional field with its one
type and leaves it out of ``required``."""


def pinned_config(source: ConfigSource) -> Path | None:
    """The configuration file a client's command should name with ``--config``, if any.

    A file chosen with
    ``--config`` or ``TACT_CONFIG`` is always named. So is any file that exists: a client may
    start the server without ``TACT_HOME`` or ``XDG_CONFIG_HOME`` (Codex passes only a few
    variables), and would otherwise read another file, or none, with memory off. A file that does
    not exist yet is named only when chosen explicitly, since naming a missing file makes the
    server refuse to start; the fallback location then stays the one looked up at start.
    """
    if source.explicit or source.path.is_file():
        return Path(source.path)
    return None


def hook_argv(config: Path | None, event: str) -> list[str]:
    """The prompt hook's command: this interpreter and ``tact_memory/hooks/__main__.py`` by absolute
    path (it runs the hook from compiled bytecode, with nothing else of the package), then
    ``--config`` when the configuration is pinned (:func:`pinned_config`), and the event."""
    from .. import hooks

    launcher = str((Path(hooks.__file__).parent / "__main__.py").resolve())
    return [sys.executable, launcher, *(["--config", str(config)] if config is not None else []), event]


def _shell(argv: list[str], *, windows: bool | None = None) -> str:
    """One command line for a client that runs hooks through a shell.

    On Windows, Claude Code runs a hook's command through Git Bash (PowerShell when Git Bash is
    missing), where a backslash is an escape: ``C:\\Users\\me`` would arrive as ``C:Usersme``
    (anthropics/claude-code#21878, #22449). So each path is written with forward slashes, which
    Windows, Git Bash, cmd and PowerShell all take, and a word is quoted only when it holds a
    character that a shell would read (double quotes, which bash and cmd both strip).
    """
    if not (os.name == "nt" if windows is None else windows):
        return shlex.join(argv)
    return " ".join(_windows_word(arg) for arg in argv)


_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/:._-+=@,")


def _windows_word(arg: str) -> str:
    word = arg.replace("\\", "/")
    if word and set(word) <= _PLAIN:
        return word
    # Inside double quotes bash still expands `$` and backquotes; a backslash keeps them literal
    # (and cmd, which keeps it, reads `/\` in a path as one separator). No Windows path holds `"`.
    return '"' + word.replace("$", "\\$").replace("`", "\\`") + '"'


@dataclass(frozen=True)
class Change:
    """One client file, before and after setup."""

    path: Path
    before: str | None
    """The current text, or ``None`` when the file does not exist."""
    after: str
    snippet: str
    """Our part of ``after``, as a person would paste it."""
    mode: int = 0o600
    """Permissions of a new file (an existing file keeps its own)."""
    hook_written: bool = False
    """The change adds or changes our prompt hook (Codex runs it only once it is trusted again)."""

    @property
    def changed(self) -> bool:
        return self.before != self.after


BOM = "\ufeff"
"""A byte order mark, as some Windows editors put before UTF-8 text: kept where it was, never parsed."""


_AS_NEW: ContextVar[bool] = ContextVar("tact_memory_setup_as_new", default=False)


@contextlib.contextmanager
def as_new_files() -> Iterator[None]:
    """Within, every client file reads as missing, so a plan shows the entries setup would write
    into new files: what ``--print`` shows for a file it cannot merge (JSONC, say), to paste by hand."""
    token = _AS_NEW.set(True)
    try:
        yield
    finally:
        _AS_NEW.reset(token)


def read_text(path: Path) -> str | None:
    """A client file's text exactly as it is (line endings and a byte order mark included), ``None``
    when it does not exist (or inside :func:`as_new_files`); anything else unreadable is a ``SetupError``."""
    if _AS_NEW.get():
        return None
    try:
        return path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise SetupError(f"{path}: cannot be read ({exc}); it was left unchanged") from None


class _Unwritable(ValueError):
    """A JSON value setup could read but could not write back as JSON."""


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise _Unwritable(f"the number {text} is too large to write back as JSON")
    return value


def _not_json(name: str) -> Any:
    raise _Unwritable(f"{name} is not JSON")


def json_object(path: Path, text: str | None) -> dict[str, Any]:
    """The JSON object a client file holds (empty for a missing or blank file); a ``SetupError``
    for anything else, so a file setup cannot read, or could not write back as it was, is never
    overwritten: comments, an object naming a key twice, ``NaN``, a number past a float's range,
    half a character (a lone ``\\ud800`` escape)."""
    if text is None or not text.strip(BOM + " \t\r\n"):
        return {}
    try:
        value = loads_once(text.removeprefix(BOM), parse_float=_finite, parse_constant=_not_json)
        if not isinstance(value, dict):
            raise SetupError(f"{path}: expected a JSON object at the top; it was left unchanged")
        _dump(value).encode("utf-8")
    except RepeatedName as exc:
        raise SetupError(
            f"{path}: names {json.dumps(exc.name, ensure_ascii=False)} twice in one object, and readers "
            "differ on which counts; it was left unchanged"
        ) from None
    except _Unwritable as exc:
        raise SetupError(f"{path}: {exc}; it was left unchanged") from None
    except UnicodeEncodeError:
        raise SetupError(
            f"{path}: holds half a character (an escape such as \\ud800 without its pair), which cannot be "
            "written back; it was left unchanged"
        ) from None
    except ValueError as exc:
        raise SetupError(
            f"{path}: not plain JSON ({exc.args[0]}; comments or trailing commas?); it was left unchanged"
        ) from None
    except RecursionError:
        raise SetupError(f"{path}: nested too deeply to be read; it was left unchanged") from None
    return value


def _table(path: Path, root: dict[str, Any], key: str) -> dict[str, Any]:
    value = root.setdefault(key, {})
    if not isinstance(value, dict):
        raise SetupError(f"{path}: `{key}` is not an object; it was left unchanged")
    return value


def _indent(text: str) -> str:
    """The indentation of the first indented line of a JSON file (two spaces if none is)."""
    for line in text.splitlines()[1:]:
        stripped = line.lstrip(" \t")
        if stripped and stripped != line:
            return line[: len(line) - len(stripped)]
    return "  "


def _dump(value: Any, like: str | None = None) -> str:
    """``value`` as JSON; written over ``like`` (the file's text), in its indentation, line endings
    and byte order mark."""
    text = json.dumps(value, indent="  " if like is None else _indent(like), ensure_ascii=False, allow_nan=False) + "\n"
    if like is None:
        return text
    if "\r\n" in like:
        text = text.replace("\n", "\r\n")
    return BOM + text if like.startswith(BOM) else text


REMOTE_KEYS = ("url", "headers", "headersHelper", "oauth")
"""Keys of a JSON client's remote (HTTP or SSE) server entry; a stdio entry has none of them."""

CODEX_REMOTE_KEYS = (
    "url", "bearer_token", "bearer_token_env_var", "http_headers", "env_http_headers", "oauth", "oauth_resource",
)  # fmt: skip
"""Keys Codex refuses on a stdio server, refusing its whole ``config.toml`` with them
(``codex-rs/config/src/mcp_types.rs``: "url is not supported for stdio")."""


def merged_entry(current: object, entry: dict[str, Any], defaults: dict[str, Any], remote: tuple[str, ...] = ()) -> dict[str, Any]:
    """Our entry over the one already there: ``entry``'s keys are set, the user's other keys (``env``,
    ``disabled``, timeouts...) are kept, and ``defaults`` fill only what is missing. An entry of
    that name that served over HTTP loses what only a remote server has (``remote``, and a
    ``type`` other than ``stdio``): left beside our command, the client would read a server of
    both kinds, or refuse its file."""
    kept = dict(current) if isinstance(current, dict) else {}
    for key in remote:
        kept.pop(key, None)
    if "type" not in entry and kept.get("type", "stdio") != "stdio":
        del kept["type"]
    return {**defaults, **kept, **entry}


def json_change(
    path: Path, key: str, entry: dict[str, Any], *, defaults: dict[str, Any] | None = None, mode: int = 0o600,
    remove: bool = False,
) -> Change:
    """Set ``key.SERVER_NAME`` in a JSON file (take it out with ``remove``); unchanged text when it
    already holds ``entry``."""
    before = read_text(path)
    root = json_object(path, before)
    if remove:
        servers = root.get(key)
        if not isinstance(servers, dict) or SERVER_NAME not in servers:
            return Change(path, before, before or "", "")
        del servers[SERVER_NAME]
        if not servers:
            del root[key]  # as it was before setup added the table for our entry
        return Change(path, before, _dump(root, before), "")
    servers = _table(path, root, key)
    merged = merged_entry(servers.get(SERVER_NAME), entry, defaults or {}, REMOTE_KEYS)
    snippet = _dump({key: {SERVER_NAME: merged_entry(None, entry, defaults or {})}})
    if servers.get(SERVER_NAME) == merged and before is not None:
        return Change(path, before, before, snippet, mode)
    servers[SERVER_NAME] = merged
    return Change(path, before, _dump(root, before), snippet, mode)


def _ours(hook: object, event: str) -> bool:
    """Whether ``hook`` is a hook of ours for ``event``: its command's last word is the event and
    an earlier word runs our hook (:data:`HOOK_SCRIPTS`, :data:`HOOK_MODULES`, or
    :data:`HOOK_PROGRAMS` followed by ``hook``). A command of the user's that merely mentions
    tact-memory and the event (a log file named after them, say) is theirs, and stays as it is."""
    command = hook.get("command") if isinstance(hook, dict) else None
    if not isinstance(command, str):
        return False
    try:
        words = shlex.split(command)
    except ValueError:  # unbalanced quotes: no command of ours
        return False
    if len(words) < 2 or words[-1] != event:
        return False
    for i, word in enumerate(words[:-1]):
        path = word.replace("\\", "/")
        if path.endswith(HOOK_SCRIPTS) or path in HOOK_MODULES:
            return True
        if path.rsplit("/", 1)[-1] in HOOK_PROGRAMS and "hook" in words[i + 1 : -1]:
            return True
    return False


@dataclass(frozen=True)
class GroupsEdit:
    """Our hook placed in (or taken out of) one event's matcher groups, as data and as steps.

    Indices are those of the groups (and of the hooks within a group) before the edit."""

    kept: list[Any]
    """The event's groups afterwards."""
    update: tuple[int, int] | None
    """Our hook, updated where it was: (group, hook)."""
    drop: list[tuple[int, int | None]]
    """Hooks of ours taken out (group, hook), or whole groups that held only ours (group, None)."""
    append: bool
    """A new group holding only our hook goes at the end."""


def our_groups(groups: list[Any], event: str, command: str | None) -> GroupsEdit:
    """``groups`` with our hook for ``event`` set to ``command``, or taken out when it is ``None``.

    Our hook stays where it is (the first one, when an earlier setup left several), with the
    user's own keys on it (a timeout, a status message); the others of ours go, and so does a
    group left empty by that. Without one, a group of ours is added after the user's. Nothing of
    the user's moves: Codex records a hook's trust by its position (``<file>:<event>:<group>:<hook>``),
    so moving a group would make Codex skip the user's hooks until they trust them again.
    """
    kept: list[Any] = []
    drop: list[tuple[int, int | None]] = []
    update = None
    for g, group in enumerate(groups):
        hooks = group.get("hooks") if isinstance(group, dict) else None
        if not isinstance(hooks, list) or not any(_ours(hook, event) for hook in hooks):
            kept.append(group)
            continue
        rest: list[Any] = []
        gone: list[int] = []
        for h, hook in enumerate(hooks):
            if not _ours(hook, event):
                rest.append(hook)
            elif command is not None and update is None:
                update = (g, h)
                rest.append({**hook, "type": "command", "command": command})
            else:
                gone.append(h)
        if rest:
            kept.append({**group, "hooks": rest})
            drop.extend((g, h) for h in gone)
        else:
            drop.append((g, None))
    append = command is not None and update is None
    if append:
        kept.append({"hooks": [{"type": "command", "command": command}]})
    return GroupsEdit(kept, update, drop, append)


def hooks_held(hooks: object) -> tuple[bool, bool]:
    """Whether a ``hooks`` table holds hooks of the user's, and hooks of ours.

    A group counts as ours when every hook in it is ours; anything else under an event (a group
    of the user's, a shared group, something Codex would not read) counts as the user's. Codex's
    ``state`` table (trust and enablement, ``[hooks.state]`` in ``config.toml``) is no event."""
    theirs = ours = False
    for name, groups in hooks.items() if isinstance(hooks, dict) else ():
        if name == "state" and isinstance(groups, dict):
            continue
        event = HOOK_EVENTS.get(name, "")
        for group in groups if isinstance(groups, list) else [groups]:
            handlers = group.get("hooks") if isinstance(group, dict) else None
            mine = [bool(event) and _ours(h, event) for h in handlers] if isinstance(handlers, list) else []
            ours = ours or any(mine)
            theirs = theirs or not (mine and all(mine))
    return theirs, ours


def hooks_change(path: Path, launch: Launch, *, place: bool = True) -> Change:
    """Add our command hooks to a Claude Code style ``hooks`` object (updating ours in place), or
    with ``place=False`` take ours out of it."""
    before = read_text(path)
    root = json_object(path, before)
    if not place and not isinstance(root.get("hooks"), dict):
        return Change(path, before, before or "", "")
    hooks = _table(path, root, "hooks")
    ours: dict[str, Any] = {}
    for name, event in HOOK_EVENTS.items():
        groups = hooks.get(name, [])
        if not isinstance(groups, list):
            raise SetupError(f"{path}: `hooks.{name}` is not a list; it was left unchanged")
        edit = our_groups(groups, event, launch.hook[name] if place else None)
        if edit.kept:
            hooks[name] = edit.kept
        elif groups:
            del hooks[name]
        ours[name] = [{"hooks": [{"type": "command", "command": launch.hook[name]}]}]
    if not place and not hooks:
        del root["hooks"]  # as it was before setup added the table for ours
    unchanged = before is not None and json_object(path, before) == root
    after = before if unchanged and before is not None else _dump(root, before)
    return Change(path, before, after, _dump({"hooks": ours}) if place else "", hook_written=place and not unchanged)


def text_change(path: Path, text: str) -> Change:
    """Write ``text`` as the whole file (a file setup owns, such as the reader agent)."""
    before = read_text(path)
    return Change(path, before, text, text)


def claude_desktop_path(home: Path, platform: str = sys.platform, environ: dict[str, str] | None = None) -> Path:
    """Claude Desktop's ``claude_desktop_config.json`` on this platform."""
    env = os.environ if environ is None else environ
    if platform == "darwin":
        return home / "Library" / "Application Support" / "Claude" / "claude_desktop_config.json"
    if platform == "win32":
        return Path(env.get("APPDATA") or home / "AppData" / "Roaming") / "Claude" / "claude_desktop_config.json"
    return Path(env.get("XDG_CONFIG_HOME") or home / ".config") / "Claude" / "claude_desktop_config.json"


def claude_code_paths(home: Path, environ: dict[str, str]) -> dict[str, Path]:
    """Claude Code's user-scope files: ``servers`` (``.claude.json``), ``settings`` and ``agents``.

    With ``CLAUDE_CONFIG_DIR`` set, Claude Code keeps all three in that folder
    (``$CLAUDE_CONFIG_DIR/.claude.json``, ``settings.json``, ``agents/``); otherwise
    ``~/.claude.json`` and ``~/.claude/``.
    """
    folder = environ.get("CLAUDE_CONFIG_DIR")
    if folder:
        base = Path(os.path.expanduser(folder)).absolute()
        return {"servers": base / ".claude.json", "settings": base / "settings.json", "agents": base / "agents"}
    return {"servers": home / ".claude.json", "settings": home / ".claude" / "settings.json", "agents": home / ".claude" / "agents"}


def reader_agent() -> str:
    """A Claude Code sub-agent that may scan and read memory and nothing that writes it."""
    tools = ", ".join(["Read", "Grep", "Glob", f"mcp__{SERVER_NAME}__memory_scan", f"mcp__{SERVER_NAME}__memory_read"])
    return (
        "---\n"
        f"name: {READER_AGENT_NAME}\n"
        "description: Looks up what earlier sessions concluded (conventions, corrections, gotchas) "
        "in tact-memory before work starts. It can scan and read memory but never change it.\n"
        f"tools: {tools}\n"
        "---\n"
        "Scan memory for the task you are given, read the candidates that look relevant, and report "
        "the conclusions that apply, each with its id and version. You cannot store, replace or "
        "delete memory: if something should be remembered, say so in your report and the main agent "
        "decides.\n"
    )


def apply(change: Change) -> Path | None:
    """Write one change: the old file is kept as ``<file>.bak`` first, then the file is replaced
    atomically. If the file cannot be replaced, the ``.bak`` is put back as it was (or removed, if
    there was none) and no temporary file is left. Returns the backup.

    Raises:
        OSError: the folder or the file cannot be written; nothing was changed.
    """
    if not change.changed:
        return None
    change.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    if change.before is None:
        _write(change.path, change.after, change.mode)
        return None
    backup = change.path.with_name(change.path.name + ".bak")
    mode = change.path.stat().st_mode & 0o777
    try:
        earlier: str | None = backup.read_bytes().decode("utf-8", "surrogateescape")
    except FileNotFoundError:
        earlier = None
    _write(backup, change.before, mode)
    try:
        _write(change.path, change.after, mode)
    except OSError:
        with contextlib.suppress(OSError):
            if earlier is None:
                backup.unlink()
            else:
                _write(backup, earlier, mode, errors="surrogateescape")
        raise
    return backup


class ApplyError(Exception):
    """A change of several could not be written; the ones written before it were undone."""

    def __init__(self, path: Path, reason: str, stuck: list[Path]) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason
        self.stuck = stuck
        """Files written before the failure that could not be put back (normally none)."""


def apply_all(changes: list[Change]) -> list[tuple[Change, Path | None]]:
    """Write every change, or none: when one cannot be written, those written before it get their
    old text back (a file setup created is removed), so a client never gets our server without
    our hook, or a Codex ``config.toml`` that names a hook file setup could not write.

    Returns:
        Each change with its backup (:func:`apply`).

    Raises:
        ApplyError: naming the file that could not be written and why.
    """
    done: list[tuple[Change, Path | None]] = []
    for change in changes:
        try:
            done.append((change, apply(change)))
        except OSError as exc:
            stuck = []
            for written, _backup in reversed(done):
                if not written.changed:
                    continue
                try:
                    if written.before is None:
                        Path(os.path.realpath(written.path)).unlink()
                    else:
                        _write(written.path, written.before, written.path.stat().st_mode & 0o777)
                except OSError:
                    stuck.append(written.path)
            raise ApplyError(change.path, exc.strerror or str(exc), stuck) from exc
    return done


def _write(path: Path, text: str, mode: int, *, errors: str = "strict") -> None:
    """Write ``text`` to ``path`` atomically, byte for byte (no line-ending translation). A
    symbolic link (a dotfiles checkout, say) is written through: its target gets the new text and
    the link stays a link. A temporary file left by a failure is removed."""
    path = Path(os.path.realpath(path))
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", errors=errors, newline="") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise
