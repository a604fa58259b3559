"""The prompt hook: when the checkpoint is added, its private bounded state, and its cost."""

from __future__ import annotations

import base64
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from syrupy.assertion import SnapshotAssertion

from tact_memory.cli.app import cli
from tact_memory.config import loading
from tact_memory.config.loading import load_config
from tact_memory.errors import ConfigError
from tact_memory.hooks import prompt_hook
from tact_memory.screening.checkpoint import CHECKPOINT_TEXT

from ..conftest import fixture_path, write_config

HOOK_FILE = Path(prompt_hook.__file__).resolve()
ROOT = Path(__file__).resolve().parents[2]


def state_dir(config: Path) -> Path:
    return Path(prompt_hook.state_dir(config))


def event(name: str, **changes: object) -> bytes:
    """A fixture of what the client sends, with some fields changed."""
    payload = json.loads(fixture_path("clients", name).read_text(encoding="utf-8"))
    payload.update(changes)
    return json.dumps(payload).encode()


def prompt(config: Path, **changes: object) -> str:
    return prompt_hook.user_prompt_submit(event("claude-user-prompt-submit.json", **changes), config, explicit=True)


def model_sees(output: str, typed: str) -> dict[str, object]:
    """What reaches the model for one prompt: the text as typed, plus the hook's context if any."""
    context = json.loads(output)["hookSpecificOutput"]["additionalContext"] if output else None
    return {"prompt": typed, "additional_context": context}


def run_file(config: Path, event_name: str, data: bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    command = [sys.executable, *args, str(HOOK_FILE), "--config", str(config), event_name]
    return subprocess.run(command, input=data, capture_output=True, env=env, timeout=60, check=False)


def test_first_second_and_resumed_prompts_snapshot(config_path: Path, snapshot: SnapshotAssertion) -> None:
    """Claude Code's ``UserPromptSubmit`` and ``SessionStart`` inputs as documented (``session_id``,
    ``transcript_path``, ``source`` one of startup, resume, clear, compact), and its
    ``hookSpecificOutput.additionalContext`` output, added for the model beside the prompt.
    Source: https://code.claude.com/docs/en/hooks
    """
    seen = {
        "first prompt": model_sees(prompt(config_path, prompt="Fix the build"), "Fix the build"),
        "second prompt": model_sees(prompt(config_path, prompt="No, use tabs"), "No, use tabs"),
    }
    # Resumed with the same id: session-start says so before the first prompt of the new process.
    prompt_hook.session_start(event("claude-session-start-resume.json", session_id="s-resumed"), config_path)
    seen["resumed, same id"] = model_sees(prompt(config_path, session_id="s-resumed", prompt="Go on"), "Go on")
    # Resumed under a new id (nothing in the state): the transcript already holds a reply.
    transcript = str(fixture_path("clients", "claude-transcript-resumed.jsonl"))
    seen["resumed, new id"] = model_sees(
        prompt(config_path, session_id="s-new", transcript_path=transcript, prompt="Go on"), "Go on"
    )
    assert seen == snapshot
    assert [v["additional_context"] for v in seen.values()] == [None, CHECKPOINT_TEXT, CHECKPOINT_TEXT, CHECKPOINT_TEXT]


def test_the_prompt_text_is_never_stored(config_path: Path) -> None:
    prompt(config_path, prompt="my very private prompt")
    prompt(config_path, prompt="my very private prompt")
    folder = state_dir(config_path)
    assert all(b"private" not in p.read_bytes() for p in folder.iterdir())


def test_codex_input_and_a_sub_agent_prompt(config_path: Path) -> None:
    """The fixture has the fields Codex's ``user-prompt-submit.command.input`` schema requires; the
    output schema allows no other keys than ``continue``, ``decision``, ``reason``, ``stopReason``,
    ``suppressOutput``, ``systemMessage`` and ``hookSpecificOutput`` of exactly ``hookEventName``
    ("UserPromptSubmit") and ``additionalContext``; a sub-agent's input adds ``agent_id``.
    Source: https://developers.openai.com/codex/hooks and codex-rs/hooks/schema/generated/ in
    https://github.com/openai/codex
    """
    codex = event("codex-user-prompt-submit.json")
    assert prompt_hook.user_prompt_submit(codex, config_path) == ""
    output = json.loads(prompt_hook.user_prompt_submit(codex, config_path))
    assert output == {"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": CHECKPOINT_TEXT}}
    # Inside a sub-agent (Codex names agent_id): never the checkpoint, which is for the root agent.
    child = event("codex-user-prompt-submit.json", agent_id="019d-child", agent_type="explorer")
    assert prompt_hook.user_prompt_submit(child, config_path) == ""


@pytest.mark.parametrize(
    ("event_name", "fixture"),
    [("user-prompt-submit", "vscode-user-prompt-submit.json"), ("session-start", "vscode-session-start.json")],
)
def test_vscode_runs_the_claude_hooks_and_gets_nothing_without_a_warning(
    config_path: Path, event_name: str, fixture: str
) -> None:
    """VS Code's agent loads ``~/.claude/settings.json`` hooks by default (``chat.hookFilesLocations``),
    sends camelCase common fields (``sessionId``, ``hookEventName``), shows a warning for any exit
    other than 0 and 2, and its ``UserPromptSubmit`` takes "the common output format only" (no
    model context); the fixtures are the documented common fields plus ``prompt``/``source``.
    Source: https://code.visualstudio.com/docs/agent-customization/hooks and
    https://code.visualstudio.com/docs/agents/reference/hooks-reference
    """
    data = fixture_path("clients", fixture).read_bytes()
    for _ in range(2):  # a second prompt of the same session gets nothing either
        result = run_file(config_path, event_name, data)
        assert (result.returncode, result.stdout, result.stderr) == (0, b"", b"")
    assert not state_dir(config_path).exists()


def test_a_first_transcript_with_quoted_words_is_not_a_reply(config_path: Path) -> None:
    transcript = str(fixture_path("clients", "claude-transcript-first.jsonl"))
    assert prompt(config_path, session_id="fresh", transcript_path=transcript) == ""


def test_a_first_prompt_another_hook_blocked_is_not_a_turn(config_path: Path, tmp_path: Path) -> None:
    """Claude Code runs every UserPromptSubmit hook of a prompt; one that blocks it (a secret
    scanner) erases the prompt, after this hook saw the session. The transcript shows that no turn
    happened, so the first prompt that is accepted still gets no checkpoint, and the next one does."""
    transcript = tmp_path / "session.jsonl"
    shutil.copyfile(fixture_path("clients", "claude-transcript-first.jsonl"), transcript)
    assert prompt(config_path, session_id="blocked", transcript_path=str(transcript)) == ""  # blocked elsewhere
    assert prompt(config_path, session_id="blocked", transcript_path=str(transcript)) == ""  # the first accepted
    with transcript.open("a", encoding="utf-8") as file:  # its answer lands in the transcript
        file.write(json.dumps({"type": "assistant", "message": {"role": "assistant", "content": "ok"}}) + "\n")
    assert "additionalContext" in prompt(config_path, session_id="blocked", transcript_path=str(transcript))
    # Without a transcript to read, a session seen before is past its first turn, as before.
    assert prompt(config_path, session_id="no-file", transcript_path=str(tmp_path / "missing.jsonl")) == ""
    assert "additionalContext" in prompt(config_path, session_id="no-file", transcript_path=str(tmp_path / "missing.jsonl"))


def _image_prompt(megabytes: float) -> str:
    """A first user line as Claude Code keeps a prompt with a pasted screenshot: the image inline,
    base64 (anthropics/claude-code#2104, #20021; Codex keeps data URIs in its rollout files)."""
    data = base64.b64encode(os.urandom(int(megabytes * (1 << 20)) * 3 // 4)).decode()
    content = [
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": data}},
        {"type": "text", "text": "what is wrong in this screenshot?"},
    ]
    return json.dumps({"type": "user", "message": {"role": "user", "content": content}}, separators=(",", ":"))


_REPLY_LINE = json.dumps({"type": "assistant", "message": {"role": "assistant", "content": "ok"}}, separators=(",", ":"))


@pytest.mark.parametrize("megabytes", [0.3, 5])
def test_a_first_prompt_with_a_large_image_still_leads_to_the_checkpoint(
    config_path: Path, tmp_path: Path, megabytes: float
) -> None:
    """The reply to a first prompt that carried an image lies past the transcript's first chunk."""
    transcript = tmp_path / "session.jsonl"
    transcript.write_text(_image_prompt(megabytes) + "\n", encoding="utf-8")
    assert transcript.stat().st_size > prompt_hook.TRANSCRIPT_CHUNK_BYTES
    assert prompt(config_path, session_id="big", transcript_path=str(transcript)) == ""
    with transcript.open("a", encoding="utf-8") as file:
        file.write(_REPLY_LINE + "\n")
    for _ in range(2):  # the second prompt, and every later one
        assert "additionalContext" in prompt(config_path, session_id="big", transcript_path=str(transcript))


@pytest.mark.parametrize("cut", range(1, len('"type":"assistant"')))
def test_a_reply_mark_split_between_two_reads_is_found(
    config_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cut: int
) -> None:
    """The reply's mark starts ``cut`` bytes before the end of the first read and ends in the second."""
    monkeypatch.setattr(prompt_hook, "TRANSCRIPT_CHUNK_BYTES", 128)
    empty = json.dumps({"type": "user", "message": {"role": "user", "content": ""}}, separators=(",", ":"))
    padding = "x" * (128 - cut - 1 - len(empty) - 1)  # the user line, its newline, then the reply's `{`
    first = empty.replace('"content":""', f'"content":"{padding}"')
    text = first + "\n" + _REPLY_LINE + "\n"
    assert text.index('"type":"assistant"') == 128 - cut
    transcript = tmp_path / "session.jsonl"
    transcript.write_text(text, encoding="utf-8")
    assert "additionalContext" in prompt(config_path, session_id=f"split{cut}", transcript_path=str(transcript))


def test_a_transcript_searched_to_the_bound_without_a_reply_proves_nothing(
    config_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the bound, whether the session was seen decides, as when there is no transcript; a
    transcript read to its end without a reply is still a first turn, seen or not."""
    monkeypatch.setattr(prompt_hook, "TRANSCRIPT_CHUNK_BYTES", 4096)
    monkeypatch.setattr(prompt_hook, "TRANSCRIPT_LIMIT_BYTES", 3 * 4096)
    transcript = tmp_path / "session.jsonl"
    transcript.write_text(_image_prompt(0.02) + "\n", encoding="utf-8")
    assert transcript.stat().st_size > 3 * 4096
    assert prompt(config_path, session_id="long", transcript_path=str(transcript)) == ""
    assert "additionalContext" in prompt(config_path, session_id="long", transcript_path=str(transcript))
    short = tmp_path / "short.jsonl"
    short.write_text(_image_prompt(0.005) + "\n", encoding="utf-8")
    assert short.stat().st_size < 3 * 4096
    assert prompt(config_path, session_id="short", transcript_path=str(short)) == ""
    assert prompt(config_path, session_id="short", transcript_path=str(short)) == ""


def test_clear_starts_a_new_conversation_and_startup_changes_nothing(config_path: Path) -> None:
    prompt(config_path, session_id="s1")
    prompt_hook.session_start(event("claude-session-start-resume.json", session_id="s1", source="startup"), config_path)
    assert prompt(config_path, session_id="s1") != ""
    prompt_hook.session_start(event("claude-session-start-resume.json", session_id="s1", source="clear"), config_path)
    assert prompt(config_path, session_id="s1") == ""


def test_disabled_memory_prints_nothing_and_records_only_that_its_sessions_started_off(tmp_path: Path) -> None:
    config = write_config(tmp_path / "off", enabled=False)
    for _ in range(2):
        assert prompt(config) == ""
    prompt_hook.session_start(event("claude-session-start-resume.json", session_id="s2"), config)
    saved = json.loads((state_dir(config) / prompt_hook.STATE_FILE).read_text())
    assert saved["sessions"] == {} and "config" not in saved
    session = json.loads(event("claude-user-prompt-submit.json"))["session_id"]
    assert {k: v[1] for k, v in saved["started"].items()} == {session: 0, "s2": 0}
    missing = tmp_path / "none" / "config.toml"  # a fallback file that does not exist: memory is off
    assert prompt_hook.user_prompt_submit(event("claude-user-prompt-submit.json"), missing) == ""
    prompt_hook.session_start(event("claude-session-start-resume.json"), missing)
    assert not missing.parent.exists()


def test_a_session_started_disabled_stays_so_when_memory_is_enabled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """I14: its memory server started disabled, so the checkpoint would send the model to a tool
    that answers `disabled`; it takes the new setting when restored, as a new session does."""
    monkeypatch.setattr(prompt_hook, "MEMO_QUIET_NS", 0)
    config = write_config(tmp_path / "flip", enabled=False)
    replied = tmp_path / "replied.jsonl"
    replied.write_text('{"type":"user"}\n{"type":"assistant"}\n', encoding="utf-8")
    prompt_hook.session_start(event("claude-session-start-resume.json", session_id="hooked", source="startup"), config)
    assert prompt(config, session_id="prompted", transcript_path=str(replied)) == ""  # no SessionStart hook
    write_config(config.parent, enabled=True)
    for session in ("hooked", "prompted"):
        for _ in range(2):
            assert prompt(config, session_id=session, transcript_path=str(replied)) == ""
    assert prompt(config, session_id="new") == ""  # a new session: its first prompt
    assert prompt(config, session_id="new") != ""
    prompt_hook.session_start(event("claude-session-start-resume.json", session_id="hooked", source="resume"), config)
    assert prompt(config, session_id="hooked", transcript_path=str(replied)) != ""


def test_a_session_started_enabled_keeps_the_checkpoint_when_memory_is_disabled(
    config_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """I14: its memory server still serves the session, so the checkpoint goes on; a session that
    starts now, or is restored or cleared now, gets none."""
    monkeypatch.setattr(prompt_hook, "MEMO_QUIET_NS", 0)
    for session in ("kept", "restored", "cleared", "compacted"):
        prompt(config_path, session_id=session)
    write_config(config_path.parent, enabled=False)
    assert prompt(config_path, session_id="kept") != ""
    prompt_hook.session_start(event("claude-session-start-resume.json", session_id="compacted", source="compact"), config_path)
    assert prompt(config_path, session_id="compacted") != ""  # compaction goes on with the same conversation
    for session, source in (("restored", "resume"), ("cleared", "clear")):
        prompt_hook.session_start(event("claude-session-start-resume.json", session_id=session, source=source), config_path)
        assert prompt(config_path, session_id=session) == ""
    assert prompt(config_path, session_id="new") == "" and prompt(config_path, session_id="new") == ""
    assert run_file(config_path, "user-prompt-submit", b"not json").returncode == 0  # disabled: never fails


def test_a_state_written_before_settings_were_kept_counts_its_sessions_as_enabled(config_path: Path) -> None:
    folder = state_dir(config_path)
    folder.mkdir(mode=0o700)
    (folder / prompt_hook.STATE_FILE).write_text(json.dumps({"version": 1, "sessions": {"old": 1}}), encoding="utf-8")
    write_config(config_path.parent, enabled=False)
    assert prompt(config_path, session_id="old") != ""


def test_state_is_private_and_bounded(config_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(prompt_hook, "MAX_SESSIONS", 8)
    for i in range(12):
        prompt(config_path, session_id=f"s{i}")
    folder = state_dir(config_path)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    state = folder / prompt_hook.STATE_FILE
    assert stat.S_IMODE(state.stat().st_mode) == 0o600
    sessions = json.loads(state.read_text())["sessions"]
    assert len(sessions) == 8 and "s0" not in sessions and "s11" in sessions
    assert prompt(config_path, session_id="s0") == ""  # evicted: seen as new (bounded, not exact)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"not json", "not JSON"),
        (b"[]", "not a JSON object"),
        (b'{"prompt": "x"}', "no session_id"),
        (json.dumps({"session_id": "x" * 300}).encode(), "no session_id"),
        (b" " * (prompt_hook.MAX_INPUT_BYTES + 1), "larger than"),
    ],
    ids=["not-json", "array", "no-session", "long-session", "too-large"],
)
def test_bad_input_is_a_named_error_exit_1_and_changes_nothing(config_path: Path, data: bytes, message: str) -> None:
    result = run_file(config_path, "user-prompt-submit", data)
    assert result.returncode == 1 and result.stdout == b""
    assert message in result.stderr.decode()
    assert not state_dir(config_path).exists()


@pytest.mark.parametrize(
    "data",
    [b"not json", b"[]", b'{"prompt": "x"}', b"[" * 100_000, b"x" * (prompt_hook.MAX_INPUT_BYTES + 1)],
    ids=["not-json", "array", "no-session", "deep", "too-large"],
)
@pytest.mark.parametrize("event_name", ["user-prompt-submit", "session-start"])
def test_with_memory_disabled_any_input_prints_nothing_and_exits_0(tmp_path: Path, data: bytes, event_name: str) -> None:
    """Disabled memory: the hook does nothing at all, so it cannot fail a client's prompt either."""
    config = write_config(tmp_path / "off", enabled=False)
    result = run_file(config, event_name, data)
    assert (result.returncode, result.stdout, result.stderr) == (0, b"", b"")
    assert not state_dir(config).exists()


def test_bad_usage_exits_1_never_2(config_path: Path) -> None:
    result = run_file(config_path, "pre-tool-use", b"{}")
    assert result.returncode == 1 and b"usage" in result.stderr


def test_bad_usage_of_the_cli_route_exits_1_never_2(config_path: Path) -> None:
    for args in (["hook"], ["hook", "pre-tool-use"], ["hook", "user-prompt-submit", "extra"], ["hook", "--x", "session-start"]):
        result = CliRunner().invoke(cli, ["--config", str(config_path), *args], input=b"{}")
        assert result.exit_code == 1 and "Usage:" in result.output, args
    done = subprocess.run(  # and as a process, as a client runs it
        [sys.executable, "-m", "tact_memory.cli", "--config", str(config_path), "hook"], capture_output=True, cwd=ROOT, check=False
    )
    assert done.returncode == 1 and b"Missing argument" in done.stderr


INVALID_FOR_EVERY_COMMAND = {
    "enabled-string": "[memory]\nenabled = 'yes'\n",
    "memory-key": "[memory]\nenabled = true\nfoo = 1\n",
    "team-key": '[memory]\nenabled = true\n[memory.team]\nendpoint = "https://m.example.com"\ntoken_env = "T"\nbogus = 1\n',
    "table": "[memory]\nenabled = true\n[other]\nx = 1\n",
    "top-level-key": "enabled = true\n[memory]\nenabled = true\n",
    "team-endpoint": '[memory]\nenabled = true\n[memory.team]\nendpoint = "ftp://m.example.com"\ntoken_env = "T"\n',
}


@pytest.mark.parametrize("name", sorted(INVALID_FOR_EVERY_COMMAND))
def test_an_invalid_config_is_an_error_not_a_checkpoint(tmp_path: Path, name: str) -> None:
    """A file the memory server refuses to start with gets no checkpoint either, on any prompt."""
    config = tmp_path / "config.toml"
    config.write_text(INVALID_FOR_EVERY_COMMAND[name], encoding="utf-8")
    for session in ("s1", "s1", "s2"):
        result = run_file(config, "user-prompt-submit", event("claude-user-prompt-submit.json", session_id=session))
        assert result.returncode == 1 and result.stdout == b"" and b"invalid configuration" in result.stderr
    assert not state_dir(config).exists()
    via_cli = CliRunner().invoke(cli, ["--config", str(config), "hook", "user-prompt-submit"], input=event("claude-user-prompt-submit.json"))
    assert via_cli.exit_code == 1 and "invalid configuration" in via_cli.output
    with pytest.raises(ConfigError):
        load_config(config)


def test_the_hook_holds_the_loaders_schema() -> None:
    assert prompt_hook._SCHEMA == loading._SCHEMA
    assert prompt_hook._TEAM_SCHEMA == loading._TEAM_SCHEMA
    assert prompt_hook.MAX_CONFIG_BYTES == loading.MAX_CONFIG_BYTES


TEAM = '[memory.team]\nendpoint = "https://memory.example.com"\ntoken_env = "TEAM_TOKEN"\n'
CONFIG_MATRIX: dict[str, str | bytes] = {
    "empty": "",
    "comments": "# nothing here\n",
    "on": "[memory]\nenabled = true\n",
    "off": "[memory]\nenabled = false\n",
    "no-enabled": "[memory]\n",
    "bom": "\ufeff[memory]\nenabled = true\n",
    "dotted": "memory.enabled = true\n",
    "inline": "memory = {enabled = true}\n",
    "crlf": "[memory]\r\nenabled = true\r\n",
    "enabled-int": "[memory]\nenabled = 1\n",
    "enabled-string": "[memory]\nenabled = 'true'\n",
    "memory-not-a-table": "memory = true\n",
    "memory-array": "[[memory]]\nenabled = true\n",
    "memory-key": "[memory]\nenabled = true\nfoo = 1\n",
    "memory-quoted-key": '[memory]\nenabled = true\n"a b" = 1\n',
    "off-with-unknown-key": "[memory]\nenabled = false\nfoo = 1\n",
    "table": "[memory]\nenabled = true\n[other]\nx = 1\n",
    "empty-table": "[memory]\nenabled = true\n[other]\n",
    "top-level-key": "enabled = true\n[memory]\nenabled = true\n",
    "team": "[memory]\nenabled = true\n" + TEAM,
    "team-off": "[memory]\nenabled = false\n" + TEAM,
    "team-all-keys": '[memory]\nenabled = true\n[memory.team]\nendpoint = "http://10.0.0.1:8080/"\nnamespace = "alice.b-2"\n'
    'token_file = "team-token"\nworkspace_roots = ["~/work", "/srv/code"]\n',
    "team-inline": '[memory]\nenabled = true\nteam = {endpoint = "http://h", token_file = "t"}\n',
    "team-not-a-table": "[memory]\nenabled = true\nteam = 1\n",
    "team-key": "[memory]\nenabled = true\n" + TEAM + "bogus = 1\n",
    "team-wrong-type": "[memory]\nenabled = true\n" + TEAM + "namespace = 3\n",
    "team-no-endpoint": '[memory]\nenabled = true\n[memory.team]\ntoken_env = "T"\n',
    "team-no-token": '[memory]\nenabled = true\n[memory.team]\nendpoint = "https://h"\n',
    "team-empty": "[memory]\nenabled = true\n[memory.team]\n",
    **{
        f"team-endpoint-{name}": f'[memory]\nenabled = true\n[memory.team]\nendpoint = "{url}"\ntoken_env = "T"\n'
        for name, url in [
            ("ftp", "ftp://h"), ("no-host", "https://"), ("user", "https://u@h"), ("password", "https://u:p@h"),
            ("query", "https://h/?a=1"), ("fragment", "https://h/#x"), ("port", "https://h:99999"),
            ("not-a-url", "memory.example.com"), ("ipv6", "http://[::1"),
        ]
    },  # fmt: skip
    "team-namespace": "[memory]\nenabled = true\n" + TEAM + 'namespace = "Alice"\n',
    "team-token-env": '[memory]\nenabled = true\n[memory.team]\nendpoint = "https://h"\ntoken_env = "ghp_x y"\n',
    "team-root-empty": "[memory]\nenabled = true\n" + TEAM + 'workspace_roots = [" "]\n',
    "team-root-number": "[memory]\nenabled = true\n" + TEAM + "workspace_roots = [1]\n",
    "team-root-nul": "[memory]\nenabled = true\n" + TEAM + 'workspace_roots = ["a\\u0000b"]\n',
    "bad-toml": "[memory\nenabled = true\n",
    "duplicate": "[memory]\nenabled = true\nenabled = false\n",
    "deep": "x = " + "[" * 5_000 + "]" * 5_000 + "\n",
    "not-utf8": b"[memory]\nenabled = true # \xff\n",
    "too-large": "[memory]\nenabled = true\n" + "#" * (1 << 20) + "\n",
}


def verdicts(path: Path, *, explicit: bool = True) -> tuple[str, str]:
    """What ``load_config`` and the hook each make of the file: ``"invalid"``, ``"on"`` or ``"off"``."""
    try:
        config = load_config(path) if explicit else load_config(environ={"TACT_HOME": str(path.parent)})
        loader = "on" if config.memory.enabled else "off"
    except ConfigError:
        loader = "invalid"
    try:
        hook = "on" if prompt_hook.memory_enabled(path, explicit=explicit) else "off"
    except prompt_hook.HookError:
        hook = "invalid"
    return loader, hook


@pytest.mark.parametrize("explicit", [True, False])
@pytest.mark.parametrize("link", ["to-nothing", "to-a-link-to-nothing", "to-a-missing-folder"])
def test_the_hook_and_load_config_agree_on_a_link_to_nothing(link: str, explicit: bool, tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    if link == "to-nothing":
        path.symlink_to(tmp_path / "gone.toml")
    elif link == "to-a-link-to-nothing":
        path.symlink_to(tmp_path / "next.toml")
        (tmp_path / "next.toml").symlink_to("gone.toml")
    else:
        path.symlink_to(tmp_path / "no-such-folder" / "config.toml")
    assert verdicts(path, explicit=explicit) == ("invalid", "invalid")
    with pytest.raises(prompt_hook.HookError, match="a symbolic link to .*, which does not exist"):
        prompt_hook.memory_enabled(path, explicit=explicit)


@pytest.mark.parametrize("name", sorted(CONFIG_MATRIX))
def test_the_hook_and_load_config_agree_on_every_file(name: str, tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    body = CONFIG_MATRIX[name]
    path.write_bytes(body if isinstance(body, bytes) else body.encode("utf-8"))
    loader, hook = verdicts(path)
    assert loader == hook
    assert verdicts(path, explicit=False) == (loader, loader)


LINE_KEYS = st.sampled_from(["enabled", "team", "foo", "endpoint", "namespace", "token_env", "token_file", "workspace_roots", '"a b"'])
LINE_VALUES = st.sampled_from(
    ["true", "false", "1", '"yes"', '"https://m.example.com"', '"http://h:80/"', '"ftp://h"', '"https://"', '"https://u@h"',
     '"alice"', '"Alice"', '"TEAM_TOKEN"', '"1X"', '["~/w"]', '[""]', "[1]", "[]", "{}", '{enabled = true}']
)  # fmt: skip
TABLES = st.sampled_from(["", "[memory]", "[memory.team]", "[other]", "[memory.other]", "[[memory]]"])


@given(st.lists(st.tuples(TABLES, st.lists(st.tuples(LINE_KEYS, LINE_VALUES), max_size=4)), max_size=4))
def test_the_hook_and_load_config_agree_on_generated_files(tables: list[tuple[str, list[tuple[str, str]]]]) -> None:
    text = "".join(f"{header}\n" + "".join(f"{key} = {value}\n" for key, value in lines) for header, lines in tables)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "config.toml"
        path.write_text(text, encoding="utf-8")
        loader, hook = verdicts(path)
    assert loader == hook, text


@pytest.mark.parametrize(
    "setup",
    ["explicit-on", "explicit-off", "tact-config", "tact-home", "home-missing", "default-missing"],
)
def test_config_search_and_enabled_agree_with_load_config(
    setup: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    explicit: str | None = None
    if setup.startswith("explicit"):
        explicit = str(write_config(tmp_path / "a", enabled=setup.endswith("on")))
    elif setup == "tact-config":
        monkeypatch.setenv("TACT_CONFIG", str(write_config(tmp_path / "b")))
    elif setup == "tact-home":
        write_config(tmp_path / "c")
        monkeypatch.setenv("TACT_HOME", str(tmp_path / "c"))
    elif setup == "home-missing":
        monkeypatch.setenv("TACT_HOME", str(tmp_path / "empty"))
    config = load_config(explicit)
    path, is_explicit = prompt_hook.config_path(explicit)
    assert Path(path) == config.path
    assert prompt_hook.memory_enabled(path, explicit=is_explicit) == config.memory.enabled


def test_run_by_path_imports_neither_the_package_nor_a_framework(config_path: Path) -> None:
    data = event("claude-user-prompt-submit.json")
    run_file(config_path, "user-prompt-submit", data)
    result = run_file(config_path, "user-prompt-submit", data, "-X", "importtime")
    assert result.returncode == 0
    assert json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"] == CHECKPOINT_TEXT
    imported = {line.rsplit("|", 1)[-1].strip() for line in result.stderr.decode().splitlines() if "|" in line}
    for heavy in ("tact_memory", "pydantic", "click", "sqlite3", "asyncio", "mcp"):
        assert not any(name == heavy or name.startswith(heavy + ".") for name in imported), heavy


def test_the_cli_route_runs_the_same_hook(config_path: Path) -> None:
    runner = CliRunner()
    args = ["--config", str(config_path), "hook", "user-prompt-submit"]
    first = runner.invoke(cli, args, input=event("claude-user-prompt-submit.json"))
    second = runner.invoke(cli, args, input=event("claude-user-prompt-submit.json"))
    assert (first.exit_code, first.output) == (0, "")
    assert second.exit_code == 0
    assert json.loads(second.output)["hookSpecificOutput"]["additionalContext"] == CHECKPOINT_TEXT


def test_concurrent_sessions_keep_every_entry(config_path: Path) -> None:
    def session(i: int) -> list[bytes]:
        data = event("claude-user-prompt-submit.json", session_id=f"c{i}")
        return [run_file(config_path, "user-prompt-submit", data).stdout for _ in range(2)]

    with ThreadPoolExecutor(max_workers=6) as pool:
        outputs = list(pool.map(session, range(6)))
    assert all(first == b"" and b"additionalContext" in second for first, second in outputs)
    state = json.loads((state_dir(config_path) / prompt_hook.STATE_FILE).read_text())
    assert sorted(state["sessions"]) == [f"c{i}" for i in range(6)]
    assert not [p for p in state_dir(config_path).iterdir() if p.name.endswith(".tmp")]


LAUNCHER = HOOK_FILE.parent / "__main__.py"


def test_checkpoint_text_is_the_screening_constant_without_importing_it() -> None:
    code = "import sys; from tact_memory.hooks.prompt_hook import checkpoint_text as c; print(repr(c())); print(sorted(sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    text, modules = done.stdout.splitlines()
    assert eval(text) == CHECKPOINT_TEXT  # noqa: S307 - the repr printed just above
    for heavy in ("dataclasses", "inspect", "ast", "tact_memory.screening"):
        assert repr(heavy) not in modules, heavy


def test_the_setup_launcher_runs_the_hook_of_its_own_package(config_path: Path, tmp_path: Path) -> None:
    decoy = tmp_path / "decoy" / "tact_memory"
    decoy.mkdir(parents=True)
    (decoy / "__init__.py").write_text("raise ImportError('the decoy package was imported')\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(decoy.parent)}
    command = [sys.executable, str(LAUNCHER), "--config", str(config_path), "user-prompt-submit"]
    data = event("claude-user-prompt-submit.json")
    outputs = [subprocess.run(command, input=data, capture_output=True, env=env, cwd=tmp_path, check=False) for _ in range(2)]
    assert [(o.returncode, o.stderr) for o in outputs] == [(0, b""), (0, b"")]
    assert outputs[0].stdout == b""
    assert json.loads(outputs[1].stdout)["hookSpecificOutput"]["additionalContext"] == CHECKPOINT_TEXT
    usage = subprocess.run([*command[:2], "pre-tool-use"], input=b"{}", capture_output=True, env=env, check=False)
    assert usage.returncode == 1 and b"usage" in usage.stderr


def test_python_m_tact_memory_hooks_runs_the_same_hook(config_path: Path) -> None:
    command = [sys.executable, "-m", "tact_memory.hooks", "--config", str(config_path), "user-prompt-submit"]
    outputs = [subprocess.run(command, input=event("claude-user-prompt-submit.json"), capture_output=True, cwd=ROOT, check=True) for _ in range(2)]
    assert outputs[0].stdout == b"" and json.loads(outputs[1].stdout)["hookSpecificOutput"]["additionalContext"] == CHECKPOINT_TEXT


def test_a_config_changed_just_now_is_not_remembered(config_path: Path) -> None:
    write_config(config_path.parent)
    assert prompt_hook.config_identity(config_path) is None
    prompt(config_path)
    assert "config" not in json.loads((state_dir(config_path) / prompt_hook.STATE_FILE).read_text())


def test_an_unchanged_enabled_config_is_not_parsed_again(config_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(prompt_hook, "MEMO_QUIET_NS", 0)
    assert prompt(config_path, session_id="s1") == ""
    state = json.loads((state_dir(config_path) / prompt_hook.STATE_FILE).read_text())
    assert state["config"] == prompt_hook.config_identity(config_path)

    def no_parse(*args: object, **kwargs: object) -> bool:
        raise AssertionError("parsed again")

    monkeypatch.setattr(prompt_hook, "memory_enabled", no_parse)
    assert json.loads(prompt(config_path, session_id="s1"))["hookSpecificOutput"]["additionalContext"] == CHECKPOINT_TEXT


def test_a_changed_config_is_read_again(config_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(prompt_hook, "MEMO_QUIET_NS", 0)
    prompt(config_path, session_id="s1")
    write_config(config_path.parent, enabled=False)
    assert prompt(config_path, session_id="s2") == ""  # a new session: the file was read again
    saved = json.loads((state_dir(config_path) / prompt_hook.STATE_FILE).read_text())
    assert "config" not in saved  # the disabled version is not remembered as enabled
    before = (state_dir(config_path) / prompt_hook.STATE_FILE).read_bytes()
    assert prompt(config_path, session_id="s2") == ""
    assert (state_dir(config_path) / prompt_hook.STATE_FILE).read_bytes() == before  # started disabled: nothing written
    config_path.unlink()
    with pytest.raises(prompt_hook.HookError, match="not found"):
        prompt(config_path, session_id="s1")


def test_a_cold_prompt_with_an_unchanged_config_imports_no_toml_parser(config_path: Path) -> None:
    data = event("claude-user-prompt-submit.json")
    time.sleep(prompt_hook.MEMO_QUIET_NS / 1e9 + 0.1)
    run_file(config_path, "user-prompt-submit", data)  # reads the config, remembers it
    command = [sys.executable, "-X", "importtime", str(LAUNCHER), "--config", str(config_path), "user-prompt-submit"]
    done = subprocess.run(command, input=data, capture_output=True, check=True)
    assert json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"] == CHECKPOINT_TEXT
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.decode().splitlines() if "|" in line}
    assert "tact_memory.hooks.prompt_hook" in imported
    for heavy in ("tomllib", "tomli", "dataclasses", "typing", "click", "pydantic", "sqlite3", "tact_memory.store", "tact_memory.config"):
        assert not any(name == heavy or name.startswith(heavy + ".") for name in imported), heavy


# -- what another process or another user can leave in the way ------------------------------------


def test_a_transcript_path_with_a_nul_byte_proves_nothing_and_the_checkpoint_still_comes(config_path: Path) -> None:
    """No file has such a name; the path reads as an unreadable transcript, not a crash."""
    assert prompt(config_path, session_id="nul", transcript_path="/etc/passwd\x00x") == ""
    later = prompt(config_path, session_id="nul", transcript_path="/etc/passwd\x00x")
    assert CHECKPOINT_TEXT in str(model_sees(later, "")["additional_context"])


def test_a_lock_held_by_a_hung_process_fails_the_hook_in_seconds_and_never_with_2(config_path: Path) -> None:
    import fcntl

    folder = state_dir(config_path)
    folder.mkdir(mode=0o700, parents=True)
    with open(folder / "sessions.lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        started = time.monotonic()
        done = run_file(config_path, "user-prompt-submit", event("claude-user-prompt-submit.json", session_id="held"))
        took = time.monotonic() - started
    assert done.returncode == 1 and b"locked by another process" in done.stderr and b"Traceback" not in done.stderr
    assert prompt_hook.LOCK_WAIT_S <= took < prompt_hook.LOCK_WAIT_S + 20


@pytest.mark.parametrize("planted", ["sessions.lock", "temp"])
def test_a_link_planted_in_the_state_folder_is_never_written_through(config_path: Path, tmp_path: Path, planted: str) -> None:
    folder = state_dir(config_path)
    folder.mkdir(mode=0o700, parents=True)
    precious = tmp_path / "precious.txt"
    precious.write_text("keep me", encoding="utf-8")
    outside = tmp_path / "created-outside"
    if planted == "sessions.lock":
        (folder / "sessions.lock").symlink_to(outside)
    else:  # every name the old temporary file could have had for the next few process ids
        for pid in range(os.getpid(), os.getpid() + 200):
            (folder / f".sessions.json.{pid}.tmp").symlink_to(precious)
    done = run_file(config_path, "user-prompt-submit", event("claude-user-prompt-submit.json", session_id="links"))
    assert done.returncode in (0, 1) and b"Traceback" not in done.stderr
    assert precious.read_text(encoding="utf-8") == "keep me" and not outside.exists()
    assert not (folder / "sessions.json").is_symlink()


def test_a_state_folder_others_may_write_to_is_made_private_again(config_path: Path) -> None:
    folder = state_dir(config_path)
    folder.mkdir(parents=True)
    os.chmod(folder, 0o777)
    prompt(config_path, session_id="private")
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700


def test_the_largest_state_the_hook_writes_is_read_back_whole(config_path: Path) -> None:
    """Session ids at their longest, in characters JSON writes as escapes: every one is kept."""
    ids = [f"{n:03d}" + "\U0001f600" * (prompt_hook.MAX_SESSION_ID - 3) for n in range(prompt_hook.MAX_SESSIONS)]
    for session in ids:
        prompt(config_path, session_id=session)
    size = (state_dir(config_path) / "sessions.json").stat().st_size
    assert 1 << 20 < size <= prompt_hook.MAX_STATE_BYTES
    again = prompt(config_path, session_id=ids[0])  # remembered: past its first turn
    assert CHECKPOINT_TEXT in str(model_sees(again, "")["additional_context"])


def test_a_hook_command_line_click_cannot_use_exits_1_never_2(config_path: Path) -> None:
    """Clients read exit 2 as "block this prompt"."""
    for args in (["--config", "hook", "user-prompt-submit"], ["--verbose", "hook", "user-prompt-submit"]):
        done = subprocess.run(
            [sys.executable, "-m", "tact_memory.cli", *args], input=b"{}", capture_output=True, timeout=60, check=False
        )
        assert done.returncode == 1, args


def test_the_hook_file_with_its_streams_closed_or_full_fails_with_one_line(config_path: Path) -> None:
    data = event("claude-user-prompt-submit.json", session_id="streams")
    assert run_file(config_path, "user-prompt-submit", data).returncode == 0
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    base = [sys.executable, str(HOOK_FILE), "--config", str(config_path), "user-prompt-submit"]
    with open("/dev/full", "wb") as full:
        done = subprocess.run(base, input=data, stdout=full, stderr=subprocess.PIPE, env=env, timeout=60, check=False)
    assert done.returncode == 1 and b"the output could not be written" in done.stderr and b"Traceback" not in done.stderr
    closed = subprocess.run(["sh", "-c", 'exec "$@" <&-', "sh", *base], capture_output=True, env=env, timeout=60, check=False)
    assert closed.returncode == 1 and b"Traceback" not in closed.stderr


def test_a_session_started_enabled_keeps_the_checkpoint_when_its_fallback_file_is_deleted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """I14 with the file found through TACT_HOME: deleting it means off for new sessions, but the
    running one's server keeps serving it. With no state folder either, nothing is made."""
    monkeypatch.setattr(prompt_hook, "MEMO_QUIET_NS", 0)
    config = write_config(tmp_path / "home", enabled=True)
    data = event("claude-user-prompt-submit.json", session_id="running")
    assert prompt_hook.user_prompt_submit(data, config) == ""
    config.unlink()
    assert CHECKPOINT_TEXT in str(model_sees(prompt_hook.user_prompt_submit(data, config), "")["additional_context"])
    new = event("claude-user-prompt-submit.json", session_id="new")
    assert prompt_hook.user_prompt_submit(new, config) == "" and prompt_hook.user_prompt_submit(new, config) == ""
    elsewhere = tmp_path / "never" / "config.toml"
    assert prompt_hook.user_prompt_submit(data, elsewhere) == "" and not (tmp_path / "never").exists()


def test_entries_stamped_in_the_future_do_not_evict_new_sessions(config_path: Path) -> None:
    """After the clock is set back, a full state of later stamps would count as the most recent."""
    folder = state_dir(config_path)
    folder.mkdir(mode=0o700)
    later = time.time_ns() // 1_000_000 + 86_400_000
    full = {f"s{n}": later for n in range(prompt_hook.MAX_SESSIONS)}
    state = {"version": 2, "sessions": full, "started": {k: [later, 1] for k in full}}
    (folder / prompt_hook.STATE_FILE).write_text(json.dumps(state), encoding="utf-8")
    assert prompt(config_path, session_id="new") == ""
    assert CHECKPOINT_TEXT in str(model_sees(prompt(config_path, session_id="new"), "")["additional_context"])
