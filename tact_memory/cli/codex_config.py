"""Codex's files for ``tact-memory setup codex``: ``config.toml`` and ``hooks.json`` in ``$CODEX_HOME``.

The server goes to ``[mcp_servers.tact-memory]`` of ``config.toml``. Codex reads hooks from two
places in each configuration layer: ``hooks.json`` beside ``config.toml``, and the ``[hooks]``
table of ``config.toml`` itself, both in one shape: an event name (``UserPromptSubmit``,
``SessionStart``, ``PreToolUse``...) holds an array of matcher groups, ``{matcher?, hooks =
[{type = "command", command, timeout?, statusMessage?, ...}]}``, written in TOML as
``[[hooks.EVENT]]`` and ``[[hooks.EVENT.hooks]]`` tables or as inline arrays. ``[hooks.state]``
is not an event: Codex keeps the trust it was given for each hook there. Codex loads both
places, and when both hold hooks it warns that it is loading hooks from both and asks for a
single one per layer. So our hook goes where the user's hooks are: into ``config.toml`` when
the user's hooks are there (and not in ``hooks.json``), otherwise into ``hooks.json`` as
before, and where the user keeps hooks in both or in neither, it stays where an earlier setup
put it. It is taken out of the other place, so it is never in both.

Edits follow :func:`~tact_memory.cli.clients.our_groups`: ours is updated where it is, a new
one is added after the user's groups, nothing of the user's moves. The TOML text is edited in
place (tomlkit), or our tables are appended to it, so everything outside our entries keeps its
bytes; the result is read back with the standard TOML parser and must mean the old file with
only our entries changed, or it is refused unchanged with the entry to add by hand.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .clients import (
    CODEX_REMOTE_KEYS,
    HOOK_EVENTS,
    SERVER_NAME,
    Change,
    SetupError,
    hooks_change,
    hooks_held,
    json_object,
    merged_entry,
    our_groups,
    read_text,
)

if TYPE_CHECKING:
    from tomlkit import TOMLDocument

    from .clients import Launch

__all__ = ["codex_changes", "hooks_place"]


def codex_changes(folder: Path, launch: Launch, *, remove: bool = False) -> list[Change]:
    """The changes to Codex's ``config.toml`` and ``hooks.json`` in ``folder``.

    Raises:
        SetupError: a file cannot be read, parsed or merged safely; nothing was changed.
    """
    config, hooks_json = folder / "config.toml", folder / "hooks.json"
    before = read_text(config)
    _doc, old = _parse(config, before or "")
    place = None if remove else hooks_place(config, old, hooks_json)
    text, server_snippet = _server(config, before or "", launch, remove=remove)
    text, hooks_snippet, written = _hooks(config, text, launch, place=place == "config.toml")
    snippet = server_snippet + ("\n" + hooks_snippet if hooks_snippet else "")
    return [
        Change(config, before, text, snippet, hook_written=written),
        hooks_change(hooks_json, launch, place=place == "hooks.json"),
    ]


def hooks_place(config: Path, old: dict[str, Any], hooks_json: Path) -> str:
    """Where our hook belongs: ``"config.toml"`` or ``"hooks.json"`` (see the module's text)."""
    toml = old.get("hooks", {})
    if not isinstance(toml, dict):
        raise SetupError(f"{config}: `hooks` is not a table; it was left unchanged")
    json_hooks = json_object(hooks_json, read_text(hooks_json)).get("hooks", {})
    toml_theirs, toml_ours = hooks_held(toml)
    json_theirs, json_ours = hooks_held(json_hooks)
    if toml_theirs != json_theirs:
        return "config.toml" if toml_theirs else "hooks.json"
    if toml_ours and not json_ours:
        return "config.toml"
    if json_ours and not toml_ours:
        return "hooks.json"
    return "config.toml" if toml_theirs else "hooks.json"


def _parse(path: Path, text: str) -> tuple[TOMLDocument, dict[str, Any]]:
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    try:
        doc = tomlkit.parse(text)
        return doc, doc.unwrap()
    except TOMLKitError as exc:
        raise SetupError(f"{path}: invalid TOML ({exc}); it was left unchanged") from None


def _appended(text: str, tables: str) -> str:
    """``text`` with ``tables`` after it, a blank line between; ``text`` itself is kept as it is,
    and what is added takes its line endings (``\r\n`` when it has them)."""
    newline = "\r\n" if "\r\n" in text else "\n"
    tables = tables.replace("\r\n", "\n").replace("\n", newline)
    if not text.strip():
        return text + tables
    return text + ("" if text.endswith("\n") else newline) + newline + tables


def _trimmed(after: str, text: str) -> str:
    """``after``, a removal from ``text``, without the blank lines at its end that only the taken-out
    tables were separated by (what :func:`_appended` added before them)."""
    newline = "\r\n" if "\r\n" in text else "\n"
    blank = newline * 2
    return after.rstrip("\r\n") + newline if after.endswith(blank) and not text.endswith(blank) else after


def _theirs(table: Any) -> str:
    """The comments in our table, and the blank lines from the first of them on: setup writes none
    there, so they are the user's (a note added below our entry, which TOML reads as part of it)."""
    from tomlkit.items import Comment

    body = [item for key, item in table.value.body if key is None]
    first = next((i for i, item in enumerate(body) if isinstance(item, Comment)), None)
    return "" if first is None else "".join(item.as_string() for item in body[first:])


def _put_back(text: str, after: str, kept: str) -> str:
    """``after`` (``text`` with one table taken out) with ``kept`` where that table began."""
    if not kept:
        return after
    at = 0
    while at < min(len(text), len(after)) and text[at] == after[at]:
        at += 1
    if at and after[at - 1] != "\n":  # the table began a line: the match ran on into what follows it
        at = after.rfind("\n", 0, at) + 1
    return after[:at] + kept + after[at:]


def _server(path: Path, text: str, launch: Launch, *, remove: bool = False) -> tuple[str, str]:
    """Set (or with ``remove`` take out) ``[mcp_servers.SERVER_NAME]`` in ``text``, keeping comments and layout.

    An entry of ours already there is updated in place (``command`` and ``args``; the user's other
    keys, such as ``env``, ``enabled`` or ``startup_timeout_sec``, stay). A new one is added to an
    inline ``mcp_servers = {...}`` table inline, and otherwise appended as its own
    ``[mcp_servers.tact-memory]`` table, which is valid however ``mcp_servers`` was written
    (sections, dotted keys, or not at all). Returns the new text and our entry as TOML.
    """
    import tomlkit
    from tomlkit.exceptions import TOMLKitError
    from tomlkit.items import InlineTable

    doc, old = _parse(path, text)
    entry: dict[str, Any] = {"command": launch.command, "args": launch.args}
    if launch.forward:
        entry["env_vars"] = list(launch.forward)
    snippet_doc = tomlkit.document()
    snippet_doc["mcp_servers"] = tomlkit.table(is_super_table=True)
    table = tomlkit.table()
    table.update(entry)
    snippet_doc["mcp_servers"][SERVER_NAME] = table  # type: ignore[index]
    snippet = tomlkit.dumps(snippet_doc)
    servers = old.get("mcp_servers", {})
    if not isinstance(servers, dict) or not isinstance(servers.get(SERVER_NAME, {}), dict):
        where = "mcp_servers" if not isinstance(servers, dict) else f"mcp_servers.{SERVER_NAME}"
        raise SetupError(f"{path}: `{where}` is not a table; it was left unchanged")
    expected = _plain(old)
    if remove:
        if SERVER_NAME not in servers:
            return text, ""
        del expected["mcp_servers"][SERVER_NAME]
        try:
            ours = doc["mcp_servers"][SERVER_NAME]  # type: ignore[index]
            kept = _theirs(ours) if hasattr(ours, "value") and hasattr(ours.value, "body") else ""
            del doc["mcp_servers"][SERVER_NAME]  # type: ignore[union-attr]
            after = _put_back(text, _trimmed(tomlkit.dumps(doc), text), kept)
        except (TOMLKitError, KeyError) as exc:
            raise SetupError(f"{path}: cannot take our entry out safely ({exc}); it was left unchanged") from None
        _check(path, after, expected, f"Take this out by hand:\n[mcp_servers.{SERVER_NAME}]")
        return after, ""
    existing = servers.get(SERVER_NAME)
    if launch.forward and isinstance(existing, dict) and isinstance(existing.get("env_vars"), list):
        # The user's own forwarded variables (a name, or a table with a name) stay, ours are added.
        named = {v if isinstance(v, str) else v.get("name") for v in existing["env_vars"] if isinstance(v, (str, dict))}
        entry["env_vars"] = [*existing["env_vars"], *(name for name in launch.forward if name not in named)]
    merged = merged_entry(existing, entry, {}, CODEX_REMOTE_KEYS)
    if existing == merged:
        return text, snippet
    try:
        if SERVER_NAME in servers:
            current = doc["mcp_servers"][SERVER_NAME]  # type: ignore[index]
            for key in [*CODEX_REMOTE_KEYS, "type"]:
                if key in current and key not in merged:  # type: ignore[operator]
                    del current[key]  # type: ignore[union-attr]
            for key, value in entry.items():
                if current.get(key) != value:  # type: ignore[union-attr]
                    current[key] = value  # type: ignore[index]
            after = tomlkit.dumps(doc)
        elif isinstance(doc.get("mcp_servers"), InlineTable):
            inline = tomlkit.inline_table()
            inline.update(entry)
            doc["mcp_servers"][SERVER_NAME] = inline  # type: ignore[index]
            after = tomlkit.dumps(doc)
        else:
            after = _appended(text, snippet)
    except (TOMLKitError, ValueError, TypeError) as exc:
        raise SetupError(f"{path}: cannot add our entry safely ({exc}); it was left unchanged") from None
    expected.setdefault("mcp_servers", {})[SERVER_NAME] = _plain(merged)
    _check(path, after, expected, f"Add this by hand:\n{snippet.rstrip()}")
    return after, snippet


def _hook_tables(commands: dict[str, str]) -> str:
    """Our hooks as ``[[hooks.EVENT]]`` and ``[[hooks.EVENT.hooks]]`` tables."""
    import tomlkit

    doc = tomlkit.document()
    hooks = tomlkit.table(is_super_table=True)
    for name, command in commands.items():
        handler = tomlkit.table()
        handler.update({"type": "command", "command": command})
        handlers = tomlkit.aot()
        handlers.append(handler)
        group = tomlkit.table()
        group["hooks"] = handlers
        groups = tomlkit.aot()
        groups.append(group)
        hooks[name] = groups
    doc["hooks"] = hooks
    return tomlkit.dumps(doc)


def _inline_group(command: str) -> Any:
    import tomlkit

    handler = tomlkit.inline_table()
    handler.update({"type": "command", "command": command})
    group = tomlkit.inline_table()
    group["hooks"] = [handler]
    return group


def _hooks(path: Path, text: str, launch: Launch, *, place: bool) -> tuple[str, str, bool]:
    """Put our hooks into the ``[hooks]`` of ``text`` (or with ``place=False`` take ours out of it).

    Returns the new text, our hooks as TOML (when placed), and whether our hook was added or changed.
    """
    import tomlkit
    from tomlkit.exceptions import TOMLKitError
    from tomlkit.items import AoT, Array, InlineTable

    doc, old = _parse(path, text)
    hooks = old.get("hooks", {})
    if not isinstance(hooks, dict):
        raise SetupError(f"{path}: `hooks` is not a table; it was left unchanged")
    snippet = _hook_tables(launch.hook) if place else ""
    expected = _plain(old)
    appended: dict[str, str] = {}
    edited = False
    try:
        for name, event in HOOK_EVENTS.items():
            groups = hooks.get(name, [])
            if not isinstance(groups, list):
                raise SetupError(f"{path}: `hooks.{name}` is not an array of tables; it was left unchanged")
            command = launch.hook[name] if place else None
            edit = our_groups(groups, event, command)
            if edit.kept == groups:
                continue
            edited = True
            if edit.kept:
                expected.setdefault("hooks", {})[name] = _plain(edit.kept)
            else:
                del expected["hooks"][name]
            # Where each group of this event is written: the array (one per part of the file
            # that holds the event, in the order the parser reads them) and its index there.
            parts = [(table, table[name]) for table in _hooks_tables(doc) if name in table]
            where = [(array, i) for _table, array in parts for i in range(len(array))]
            filled = [len(array) > 0 for _table, array in parts]
            if edit.update is not None:
                array, i = where[edit.update[0]]
                hook = array[i]["hooks"][edit.update[1]]
                for key, value in (("type", "command"), ("command", command)):
                    if hook.get(key) != value:
                        hook[key] = value
            for group, hook_at in reversed(edit.drop):
                array, i = where[group]
                if hook_at is None:
                    del array[i]
                else:
                    del array[i]["hooks"][hook_at]
            for (table, array), was_filled in zip(parts, filled):
                if was_filled and not len(array):  # emptied by taking ours out
                    del table[name]
            if edit.append and command is not None:
                last = next((table[name] for table, _array in reversed(parts) if name in table), None)
                inline = [table for table in _hooks_tables(doc) if isinstance(table, InlineTable)]
                if isinstance(last, Array):
                    last.append(_inline_group(command))
                elif last is None and inline:
                    inline[-1][name] = tomlkit.array()
                    inline[-1][name].append(_inline_group(command))
                elif last is None or isinstance(last, AoT):
                    appended[name] = command
        after = _trimmed(tomlkit.dumps(doc), text)
    except (TOMLKitError, ValueError, TypeError, KeyError, IndexError) as exc:
        raise SetupError(f"{path}: cannot merge our hooks safely ({exc}); it was left unchanged") from None
    if not edited:
        return text, snippet, False
    if appended:
        after = _appended(after, _hook_tables(appended))
    fix = f"Add this by hand:\n{snippet.rstrip()}" if place else "Take the tact-memory hooks out by hand"
    _check(path, after, expected, fix)
    return after, snippet, place


def _hooks_tables(doc: TOMLDocument) -> list[Any]:
    """The tables that hold ``hooks`` entries, in file order: one ``[hooks]`` (or dotted ``hooks.X``)
    table, or several when the file writes parts of it apart (tomlkit then shows them as one
    view, which takes no deletion)."""
    from tomlkit.items import InlineTable, Table

    return [item for key, item in doc.body if key is not None and key.key == "hooks" and isinstance(item, (Table, InlineTable))]


def _plain(value: Any) -> Any:
    """``value`` as plain JSON data (dates as text), for comparing what two TOML texts mean."""
    return json.loads(json.dumps(value, default=str))


def _meaning(data: Any) -> Any:
    """What Codex reads: an empty ``mcp_servers`` or ``hooks`` table is as good as none."""
    if isinstance(data, dict):
        return {k: v for k, v in data.items() if not (k in ("mcp_servers", "hooks") and v == {})}
    return data


def _check(path: Path, after: str, expected: Any, fix: str) -> None:
    """Refuse an ``after`` that does not read back as ``expected``."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    try:
        read_back = _plain(tomllib.loads(after))
    except ValueError:
        read_back = None
    if _meaning(read_back) != _meaning(expected):
        raise SetupError(
            f"{path}: our entries cannot be merged without changing the rest of the file; it was left unchanged. {fix}"
        )
