"""``tact-memory setup codex``: the prompt hook goes where the user keeps hooks, and ``--remove``.

Codex reads hooks, in each configuration layer, from ``hooks.json`` beside ``config.toml`` and from
the ``[hooks]`` table of ``config.toml``, and warns when both hold hooks ("loading hooks from both
...; prefer a single representation for this layer": ``discover_handlers`` in
codex-rs/hooks/src/engine/discovery.rs). Both have one shape (``HooksToml``, ``MatcherGroup`` and
``HookHandlerConfig`` in codex-rs/config/src/hook_config.rs, published in
codex-rs/core/config.schema.json): an event holds an array of matcher groups ``{matcher?, hooks =
[{type = "command", command, commandWindows?, timeout?, async?, statusMessage?}]}``; ``[hooks.state]``
holds Codex's trust records, keyed ``<file>:<event>:<group>:<hook>``. The fixtures write that shape
as arrays of tables (``codex-config-hooks.toml``, every event Codex reads) and as inline arrays
(``codex-config-hooks-inline.toml``).
"""

from __future__ import annotations

import difflib
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from ..conftest import fixture_path
from .test_clients import LAUNCHER, _json, _toml, home, place, setup, tomllib

__all__ = ["home"]

CONFIG = ".codex/config.toml"
HOOKS = ".codex/hooks.json"
EVENTS = {"UserPromptSubmit": "user-prompt-submit", "SessionStart": "session-start"}
EARLIER = "/old/python /old/tact_memory/hooks/__main__.py user-prompt-submit"
"""Our hook as an earlier setup wrote it."""


def ours(hooks: Any) -> dict[str, list[str]]:
    """Our hook commands under each event of a ``hooks`` table."""
    found: dict[str, list[str]] = {}
    for event, groups in (hooks or {}).items():
        for group in groups if isinstance(groups, list) else []:
            found.setdefault(event, []).extend(h["command"] for h in group["hooks"] if "tact_memory" in h["command"])
    return {event: commands for event, commands in found.items() if commands}


def toml_hooks(home: Path) -> Any:
    return _toml(home / CONFIG).get("hooks", {})


def json_hooks(home: Path) -> Any:
    return _json(home / HOOKS).get("hooks", {}) if (home / HOOKS).exists() else {}


def files(home: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in home.rglob("*") if p.is_file()}


def assert_once_each(commands: dict[str, list[str]]) -> None:
    """Our hook, once for each event, with the command setup writes."""
    assert sorted(commands) == sorted(EVENTS)
    for event, found in commands.items():
        (command,) = found
        assert LAUNCHER in command and command.endswith(EVENTS[event])


@pytest.mark.parametrize("fixture", ["codex-config-hooks.toml", "codex-config-hooks-inline.toml"])
def test_the_hook_joins_the_users_hooks_in_config_toml(fixture: str, home: Path, config_path: Path) -> None:
    original = place(home, {fixture: CONFIG})[home / CONFIG].decode()
    result = setup(config_path, home, "codex")
    assert result.exit_code == 0, result.output
    assert "open /hooks in Codex and trust" in result.output
    assert not (home / HOOKS).exists()  # not in a second place, so Codex has nothing to warn about
    old, new = json.loads(json.dumps(tomllib.loads(original))), _toml(home / CONFIG)
    assert new["hooks"].get("state") == old["hooks"].get("state")
    for event, groups in ((k, v) for k, v in old["hooks"].items() if k != "state"):
        # The user's groups and Codex's trust records stay as and where they were (trust is
        # recorded by position); ours follows the user's, once.
        assert new["hooks"][event][: len(groups)] == groups
        if event in EVENTS:
            assert new["hooks"][event][len(groups) :] == [{"hooks": [{"type": "command", "command": ours(new["hooks"])[event][0]}]}]
        else:
            assert new["hooks"][event] == groups
    assert_once_each(ours(new["hooks"]))
    # Byte for byte: the new text is the old one with our entries put in, nothing taken or changed.
    text = (home / CONFIG).read_text()
    steps = difflib.SequenceMatcher(None, original, text, autojunk=False).get_opcodes()
    assert {tag for tag, *_ in steps} <= {"equal", "insert"}
    inserted = "".join(text[j1:j2] for tag, _i1, _i2, j1, j2 in steps if tag == "insert")
    assert inserted.count(LAUNCHER) == 2 and "tact-memory" in inserted and "~/.codex" not in inserted
    # A second run changes nothing, and says no hook needs trusting again.
    written = files(home)
    again = setup(config_path, home, "codex")
    assert again.exit_code == 0 and "already up to date" in again.output and "trust" not in again.output
    assert files(home) == written
    # The hook Codex runs answers (nothing on a session's first prompt, the checkpoint after).
    data = fixture_path("clients", "codex-user-prompt-submit.json").read_bytes()
    command = ours(new["hooks"])["UserPromptSubmit"][0]
    outputs = [subprocess.run(command, shell=True, input=data, capture_output=True, check=True).stdout for _ in range(2)]
    assert outputs[0] == b"" and b"additionalContext" in outputs[1]
    # --remove gives the file back as it was.
    removed = setup(config_path, home, "codex", "--remove")
    assert removed.exit_code == 0 and "removed the tact-memory entries" in removed.output, removed.output
    assert (home / CONFIG).read_text() == original and not (home / HOOKS).exists()
    assert "no tact-memory entries found" in setup(config_path, home, "codex", "--remove").output


HOOK_FORMS = {
    "dotted keys": 'hooks.Stop = [{ hooks = [{ type = "command", command = "stop.sh" }] }]\n\n[other]\nk = 1\n',
    "inline table": 'hooks = { UserPromptSubmit = [{ hooks = [{ type = "command", command = "scan.sh" }] }] }\n',
    "tables apart": '[[hooks.UserPromptSubmit]]\n[[hooks.UserPromptSubmit.hooks]]\ntype = "command"\ncommand = "scan.sh"\n\n'
    '[other]\nk = 1\n\n[[hooks.UserPromptSubmit]]\nmatcher = ""\nhooks = []\n',
    "empty event": '[hooks]\nUserPromptSubmit = []\nStop = [{ hooks = [{ type = "command", command = "stop.sh" }] }]\n',
}


@pytest.mark.parametrize("text", list(HOOK_FORMS.values()), ids=list(HOOK_FORMS))
def test_hooks_in_every_toml_form_keep_their_meaning(text: str, home: Path, config_path: Path) -> None:
    target = home / CONFIG
    target.parent.mkdir(parents=True)
    target.write_text(text, encoding="utf-8")
    old = tomllib.loads(text)
    for _ in range(2):
        result = setup(config_path, home, "codex")
        assert result.exit_code == 0, result.output
        new = _toml(target)
        assert_once_each(ours(new["hooks"]))
        for event, groups in old["hooks"].items():
            assert new["hooks"][event][: len(groups)] == groups
        assert {k: v for k, v in new.items() if k not in ("hooks", "mcp_servers")} == {
            k: v for k, v in old.items() if k != "hooks"
        }
    assert "already up to date" in result.output and not (home / HOOKS).exists()
    assert setup(config_path, home, "codex", "--remove").exit_code == 0
    assert events(_toml(target)) == events(old)


def events(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` without empty events, which Codex reads as none (``HookEventsToml::is_empty``)."""
    return {**data, "hooks": {k: v for k, v in data.get("hooks", {}).items() if v != []}}


def test_our_hook_in_a_group_of_the_users_is_updated_where_it_is(home: Path, config_path: Path) -> None:
    """An earlier setup's hook that the user put into a group of theirs (with a timeout of their
    own) is updated there, and --remove takes only it out."""
    target = home / CONFIG
    target.parent.mkdir(parents=True)
    theirs = {"type": "command", "command": "echo theirs"}
    target.write_text(
        '[[hooks.UserPromptSubmit]]\n[[hooks.UserPromptSubmit.hooks]]\ntype = "command"\n'
        f'command = "{EARLIER}"\ntimeout = 7\n\n[[hooks.UserPromptSubmit.hooks]]\ntype = "command"\ncommand = "echo theirs"\n',
        encoding="utf-8",
    )
    assert setup(config_path, home, "codex").exit_code == 0
    (group,) = toml_hooks(home)["UserPromptSubmit"]
    assert group["hooks"][1] == theirs and group["hooks"][0]["timeout"] == 7
    assert LAUNCHER in group["hooks"][0]["command"]
    assert_once_each(ours(toml_hooks(home)))
    assert setup(config_path, home, "codex", "--remove").exit_code == 0
    assert _toml(target) == {"hooks": {"UserPromptSubmit": [{"hooks": [theirs]}]}}


THEIRS_TOML = '\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "python3 ~/.codex/hooks/stop.py"\ntimeout = 30\n'
"""The user's Stop hook of ``codex-hooks.json``, written in ``config.toml``."""


def test_the_hook_follows_the_users_hooks_when_they_move(home: Path, config_path: Path) -> None:
    place(home, {"codex-config.toml": CONFIG, "codex-hooks.json": HOOKS})
    plain = (home / CONFIG).read_text()
    assert setup(config_path, home, "codex").exit_code == 0
    assert_once_each(ours(json_hooks(home)))  # beside the user's, in hooks.json, as before
    assert "hooks" not in _toml(home / CONFIG)
    # The user moves their hooks into config.toml; ours is left in hooks.json.
    stop = json_hooks(home)["Stop"]
    (home / HOOKS).write_text(json.dumps({"hooks": {k: v for k, v in json_hooks(home).items() if k != "Stop"}}))
    (home / CONFIG).write_text((home / CONFIG).read_text() + THEIRS_TOML)
    moved = setup(config_path, home, "codex")
    assert moved.exit_code == 0 and "open /hooks in Codex and trust" in moved.output
    assert_once_each(ours(toml_hooks(home)))
    assert toml_hooks(home)["Stop"] == stop and json_hooks(home) == {}  # Codex finds hooks in one place
    written = files(home)
    assert "trust" not in setup(config_path, home, "codex").output and files(home) == written
    # And back: their hooks go to hooks.json again, ours follows and leaves config.toml.
    (home / CONFIG).write_text((home / CONFIG).read_text().replace(THEIRS_TOML, "\n"))
    (home / HOOKS).write_text(json.dumps({"hooks": {"Stop": stop}}))
    assert setup(config_path, home, "codex").exit_code == 0
    assert_once_each(ours(json_hooks(home)))
    assert json_hooks(home)["Stop"] == stop and "hooks" not in _toml(home / CONFIG)
    assert setup(config_path, home, "codex", "--remove").exit_code == 0
    assert (home / CONFIG).read_text() == plain and json_hooks(home) == {"Stop": stop}


# Where the user's hooks are (config.toml, hooks.json), where an earlier setup's hook is, and where
# ours ends up: with the user's hooks, and where it was when that does not decide.
PLACES = [
    ((), (), "hooks.json"),
    (("toml",), (), "config.toml"),
    (("json",), (), "hooks.json"),
    (("toml", "json"), (), "config.toml"),
    (("toml", "json"), ("json",), "hooks.json"),
    (("toml", "json"), ("toml",), "config.toml"),
    (("toml", "json"), ("toml", "json"), "config.toml"),
    ((), ("toml",), "config.toml"),
    ((), ("toml", "json"), "hooks.json"),
    (("toml",), ("json",), "config.toml"),
    (("json",), ("toml",), "hooks.json"),
]


@pytest.mark.parametrize(("theirs", "earlier", "where"), PLACES)
def test_the_hook_is_in_one_place(
    theirs: tuple[str, ...], earlier: tuple[str, ...], where: str, home: Path, config_path: Path
) -> None:
    stop = {"hooks": [{"type": "command", "command": "python3 ~/.codex/hooks/stop.py", "timeout": 30}]}
    old = {"hooks": [{"type": "command", "command": EARLIER}]}
    toml = fixture_path("clients", "codex-config.toml").read_text() + (THEIRS_TOML if "toml" in theirs else "")
    if "toml" in earlier:
        toml += f'\n[[hooks.UserPromptSubmit]]\n[[hooks.UserPromptSubmit.hooks]]\ntype = "command"\ncommand = "{EARLIER}"\n'
    # Codex's trust records are no hooks of the user's.
    toml += '\n[hooks.state."/home/user/.codex/hooks.json:stop:0:0"]\ntrusted_hash = "sha256:0123abcd"\n'
    hooks = {**({"Stop": [stop]} if "json" in theirs else {}), **({"UserPromptSubmit": [old]} if "json" in earlier else {})}
    (home / CONFIG).parent.mkdir(parents=True)
    (home / CONFIG).write_text(toml)
    (home / HOOKS).write_text(json.dumps({"hooks": hooks}))
    result = setup(config_path, home, "codex")
    assert result.exit_code == 0, result.output
    found = {"config.toml": ours(toml_hooks(home)), "hooks.json": ours(json_hooks(home))}
    assert_once_each(found.pop(where))
    assert found.popitem()[1] == {}
    assert ("Stop" in toml_hooks(home)) == ("toml" in theirs) and ("Stop" in json_hooks(home)) == ("json" in theirs)
    written = files(home)
    assert setup(config_path, home, "codex").exit_code == 0 and files(home) == written


MALFORMED = {
    "hooks = 3\n": "`hooks` is not a table",
    '[hooks]\nUserPromptSubmit = "echo hi"\n': "`hooks.UserPromptSubmit` is not an array of tables",
    "[hooks.SessionStart]\nhooks = []\n": "`hooks.SessionStart` is not an array of tables",
    "[[hooks.UserPromptSubmit]\n": "invalid TOML",
}


@pytest.mark.parametrize("remove", [False, True], ids=["setup", "remove"])
@pytest.mark.parametrize("text", list(MALFORMED), ids=list(MALFORMED.values()))
def test_hooks_we_cannot_read_are_refused_unchanged(text: str, remove: bool, home: Path, config_path: Path) -> None:
    place(home, {"codex-hooks.json": HOOKS})
    (home / CONFIG).write_text(text, encoding="utf-8")
    before = files(home)
    result = setup(config_path, home, "codex", *(["--remove"] if remove else []))
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"{home / CONFIG}: " in result.output and MALFORMED[text] in result.output
    assert "left unchanged" in result.output
    assert files(home) == before  # neither file written, no backup made


def test_a_hooks_json_we_cannot_read_is_refused_before_anything_is_written(home: Path, config_path: Path) -> None:
    place(home, {"codex-config-hooks.toml": CONFIG})
    (home / HOOKS).write_text('{"hooks": {"Stop": [}', encoding="utf-8")
    before = files(home)
    result = setup(config_path, home, "codex")
    assert result.exit_code == 1 and f"{home / HOOKS}: not plain JSON" in result.output
    assert files(home) == before
