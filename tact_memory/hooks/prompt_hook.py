"""``tact-memory hook``: the review checkpoint for clients that run a command on each prompt.

Claude Code and Codex run a command when the user submits a prompt (``UserPromptSubmit``) and when
a session starts or resumes (``SessionStart``), with one JSON object on stdin. What the command
prints as ``hookSpecificOutput.additionalContext`` is added for the model only; the prompt the
user typed is kept as typed. This module is that command:

- ``user-prompt-submit``: prints the checkpoint (:data:`~tact_memory.screening.checkpoint.CHECKPOINT_TEXT`)
  exactly when the specification asks for it: not on a session's first prompt, on every later
  one, and on the first prompt after a resume. A prompt is past the first turn when its session id
  was seen before (by this hook or by ``session-start`` with ``source`` ``resume`` or
  ``compact``), or when the session's transcript already holds an assistant reply (a resumed
  session that got a new id). A prompt sent inside a sub-agent (the input names an ``agent_id``)
  gets nothing: only the root agent writes memory. VS Code's agent runs these hooks too (it reads
  ``~/.claude/settings.json``), but its prompt hook cannot add model context: its input (a
  ``sessionId`` instead of ``session_id``) gets nothing, with exit 0.
- ``session-start``: ``resume`` and ``compact`` mark the session as past its first turn; ``clear``
  forgets it (the next prompt opens a new conversation); ``startup`` marks nothing.

A session keeps the memory setting it started with, as a running agent keeps its tool surface
(I14): the client started its memory server then, and that server keeps the setting it read. A
session started with memory enabled gets the checkpoint after its first turn even once the file
says disabled; one started disabled gets none once the file says enabled. ``startup`` and
``clear`` (a new conversation) and ``resume`` (a restored one) take the setting of that moment, and
so does the first prompt of a session the hook never saw (a client without the ``SessionStart``
hook). With memory disabled the hook prints nothing and never fails: input it cannot use is
ignored, and without a configuration file nothing is written; otherwise it records that the
session started disabled, once.

State: ``<config-dir>/hooks/sessions.json`` (folder 0700, file 0600) maps each session id to when
it was last seen and whether memory was enabled when it started, and holds the identity of the
config file last read as enabled (device, inode, size, modification and change times; see
:func:`config_identity`), nothing else: no prompt text, no path. It holds at most
:data:`MAX_SESSIONS` sessions, the least recently seen evicted first; every update holds an
exclusive lock on ``sessions.lock`` and replaces the file atomically, so concurrent sessions
neither lose nor mix their entries.

It runs before every prompt, so it is cheap: it imports only the standard library (and
``platformdirs``, only to find the user's config folder when no file is named), opens no
store, and reads the configuration itself, with the same search and the same rules as
:func:`~tact_memory.config.loading.load_config` (a test holds the two together): a file every
other command refuses, such as one with an unknown key, is an error here too, not a checkpoint
for a memory server that would not start. Parsing TOML is most of its cost, so while the config
file keeps the identity recorded in the state, it is not parsed again; the checkpoint text is read
from the source of :mod:`tact_memory.screening.checkpoint` without importing that module
(:func:`checkpoint_text`).
Setup runs ``tact_memory/hooks/__main__.py`` by its path, which imports this module from compiled
bytecode and nothing else of the package; this file also runs by its own path (``python
.../prompt_hook.py user-prompt-submit``, as earlier setups wrote it), and ``tact-memory hook
user-prompt-submit`` runs the same code.

Errors (input that is not a JSON object with a ``session_id``, an invalid configuration, state
that cannot be written) print one line on stderr and exit 1, which both clients treat as a
non-blocking failure: the prompt goes on without the checkpoint. The hook never exits 2, which
both clients read as "block this prompt".

Why this module is longer than ~300 lines: it runs before every prompt and imports only the standard
library, so its config lookup, its state file and its locking are all here rather than in the
package modules it must not import.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re  # free: json has imported it
import stat
import sys
import time

TYPE_CHECKING = False  # not importing typing keeps the cold start small
if TYPE_CHECKING:
    from typing import Any

__all__ = ["MAX_SESSIONS", "HookError", "main", "session_start", "user_prompt_submit"]

MAX_SESSIONS = 256
"""Sessions remembered at most; the least recently seen is evicted first."""

MAX_INPUT_BYTES = 16 << 20
"""Largest hook input read from stdin (a prompt may be long; a hook never reads without bound)."""

MAX_SESSION_ID = 256
"""Longest session id kept (clients send UUIDs)."""

MAX_STATE_BYTES = 2 * MAX_SESSIONS * (12 * MAX_SESSION_ID + 64) + 4096
"""Largest state file the hook reads: both maps full, each id at its longest and every character
of it written as JSON escapes (one outside the BMP is two six-byte escapes), with room for the
times, the setting and the punctuation. A state the hook wrote always fits."""

TRANSCRIPT_CHUNK_BYTES = 256 << 10
"""How much of a transcript is read at a time while looking for an assistant reply."""

TRANSCRIPT_LIMIT_BYTES = 64 << 20
"""How much of a transcript is searched at most. The first reply follows the first prompt, so the
search usually ends within its first chunk; a first prompt that carried pasted images (kept in the
transcript as base64) can push it megabytes further. A transcript with no reply within this bound
proves nothing either way, and whether the session was seen decides."""

STATE_DIR = "hooks"
LOCK_WAIT_S = 2.0
"""Longest the hook waits for another hook process's lock on the state before it gives up (one
line on stderr, exit 1: the prompt goes on without the checkpoint)."""

STATE_FILE = "sessions.json"
LOCK_FILE = "sessions.lock"

_REPLY_MARKS = (b'"type":"assistant"', b'"type": "assistant"', b'"role":"assistant"', b'"role": "assistant"')
"""How a JSON-lines transcript marks an assistant message (Claude Code: ``type``, Codex: ``role``).
Quotes inside a JSON string are escaped, so no prompt text can produce these bytes."""


class HookError(Exception):
    """Input, configuration or state the hook cannot use; the message names which."""


# --- configuration -----------------------------------------------------------------------------


def config_path(explicit: str | None, environ: dict[str, str] | os._Environ[str] | None = None) -> tuple[str, bool]:
    """The selected ``config.toml`` and whether it was named explicitly (it must then exist).

    The search order of :func:`~tact_memory.config.loading.locate_config`: ``--config``, then
    ``TACT_CONFIG``, then ``$TACT_HOME/config.toml``, then the user config folder for ``tact``.
    """
    env = os.environ if environ is None else environ
    if explicit is not None:
        return os.path.abspath(explicit), True
    if env.get("TACT_CONFIG"):
        return os.path.abspath(env["TACT_CONFIG"]), True
    if env.get("TACT_HOME"):
        return os.path.join(os.path.abspath(env["TACT_HOME"]), "config.toml"), False
    import platformdirs

    return os.path.join(platformdirs.user_config_dir("tact"), "config.toml"), False


def _open_regular(path: str) -> int:
    """A descriptor open for reading on a regular file; a FIFO, device or socket is never opened."""
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise OSError(f"{path} is not a regular file")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(f"{path} is not a regular file")
    return fd


def _read_bounded(path: str, limit: int) -> bytes:
    """At most ``limit`` bytes of a regular file (see :func:`_open_regular`)."""
    fd = _open_regular(path)
    try:
        return os.read(fd, limit)
    finally:
        os.close(fd)


MAX_CONFIG_BYTES = 1 << 20
"""Largest ``config.toml`` read: :data:`tact_memory.config.loading.MAX_CONFIG_BYTES`."""

_SCHEMA: dict[str, dict[str, type]] = {"memory": {"enabled": bool, "team": dict}}
_TEAM_SCHEMA: dict[str, type] = {
    "endpoint": str, "namespace": str, "token_env": str, "token_file": str, "workspace_roots": list,
}  # fmt: skip
"""The tables and keys of ``config.toml`` with the one TOML type each takes: the closed schema of
:mod:`tact_memory.config.loading`, which this module may not import (a test holds them equal)."""
_TYPE_NAMES = {bool: "a boolean (true or false)", str: "a string", dict: "a table", list: "an array"}


def _key(*parts: str) -> str:
    """A dotted key as TOML spells it (as ``loading._key_name`` does): a quoted key stays quoted."""
    return ".".join(part if re.fullmatch(r"[A-Za-z0-9_-]+", part) else json.dumps(part) for part in parts)


def _team_problem(table: dict[str, Any]) -> tuple[str, str] | None:
    """What ``loading._team`` refuses in ``[memory.team]``: the first key and why; None when it is valid."""
    for key, item in table.items():
        if key not in _TEAM_SCHEMA:
            return key, f"unknown key (known keys: {', '.join(sorted(_TEAM_SCHEMA))})"
        if type(item) is not _TEAM_SCHEMA[key]:
            return key, f"expected {_TYPE_NAMES[_TEAM_SCHEMA[key]]}"
    if "endpoint" not in table:
        return "endpoint", "missing"
    from urllib.parse import urlsplit  # only for a team table, which is rare and then remembered

    try:
        url = urlsplit(table["endpoint"])
        url.port  # noqa: B018  (raises ValueError for a bad port)
    except ValueError:
        return "endpoint", "not a valid URL"
    if url.scheme not in ("http", "https") or not url.hostname or url.username is not None or url.password is not None:
        return "endpoint", "expected an http:// or https:// URL with a host and no user name or password"
    if url.query or url.fragment:
        return "endpoint", "must not hold a query or fragment"
    namespace, token_env = table.get("namespace"), table.get("token_env")
    if namespace is not None and not re.fullmatch(r"[a-z0-9][a-z0-9_.-]{0,62}", namespace):
        return "namespace", "not a namespace name"
    if token_env is not None and not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,127}", token_env):
        return "token_env", "not the name of an environment variable"
    if token_env is None and table.get("token_file") is None:
        return "token_env", "missing (or token_file)"
    for root in table.get("workspace_roots", []):
        if not isinstance(root, str) or not root.strip() or "\x00" in root:
            return "workspace_roots", "each item must be a folder path"
    return None


def _schema_problem(raw: dict[str, Any]) -> tuple[str, str] | None:
    """What :func:`~tact_memory.config.loading.load_config` refuses in a parsed file: the first key
    (dotted) and why; None when the file is valid. Only the verdict must agree with it, not the words."""
    for table, value in raw.items():
        if table not in _SCHEMA:
            what = "table" if isinstance(value, dict) else "key"
            return _key(table), f"unknown {what} (known tables: {', '.join(sorted(_SCHEMA))})"
        if not isinstance(value, dict):
            return _key(table), "expected a table"
        for key, item in value.items():
            if key not in _SCHEMA[table]:
                return _key(table, key), f"unknown key (known keys: {', '.join(sorted(_SCHEMA[table]))})"
            if type(item) is not _SCHEMA[table][key]:
                return _key(table, key), f"expected {_TYPE_NAMES[_SCHEMA[table][key]]}"
    team = raw.get("memory", {}).get("team")
    problem = None if team is None else _team_problem(team)
    return None if problem is None else (_key("memory", "team", problem[0]), problem[1])


def memory_enabled(path: str | os.PathLike[str], *, explicit: bool) -> bool:
    """Whether the file says ``[memory] enabled = true`` (a missing fallback file means off, a
    symbolic link to nothing is an error).

    The file is held to the same rules as :func:`~tact_memory.config.loading.load_config`, so
    the hook adds the checkpoint only where the memory server would start: the closed schema
    (unknown tables and keys, wrong types, ``[memory.team]``'s values) and the size bound (a
    test holds the two together).

    Raises:
        HookError: the explicit file is missing, or the file is a link to nothing, unreadable,
            too large, not valid TOML, or not what the schema allows.
    """
    path = os.fspath(path)
    try:
        data = _read_bounded(path, MAX_CONFIG_BYTES + 1)
    except FileNotFoundError:
        if os.path.islink(path):  # a link to nothing is an error, wherever it was found
            target = os.path.realpath(path)
            raise HookError(f"{path}: a symbolic link to {target}, which does not exist; run `tact-memory status`") from None
        if explicit:
            raise HookError(f"{path}: configuration file not found") from None
        return False
    except OSError as exc:
        raise HookError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    if len(data) > MAX_CONFIG_BYTES:
        raise HookError(f"{path}: larger than {MAX_CONFIG_BYTES:,} bytes, the most a configuration file holds")
    if sys.version_info >= (3, 11):  # imported only for a file that exists: it is the hook's largest import
        import tomllib
    else:  # pragma: no cover - exercised by the 3.10 type check
        import tomli as tomllib
    try:
        raw = tomllib.loads(data.decode("utf-8").removeprefix("\ufeff"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError) as exc:
        raise HookError(f"{path}: invalid configuration ({exc}); run `tact-memory status`") from None
    problem = _schema_problem(raw)
    if problem is not None:
        raise HookError(f"{path}: invalid configuration ({problem[0]}: {problem[1]}); run `tact-memory status`")
    return bool(raw.get("memory", {}).get("enabled", False))


MEMO_QUIET_NS = 2_000_000_000
"""How long a config file must have been left unchanged before its verdict is remembered (2 s)."""


def config_identity(path: str | os.PathLike[str]) -> list[int] | None:
    """What identifies this version of the config file: device, inode, size, modification and
    change times (ns); None when it cannot be read with :func:`os.stat`, is not a regular file, or
    changed in the last :data:`MEMO_QUIET_NS` (another write within the same clock tick could then
    change its content without changing its times)."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(st.st_mode) or time.time_ns() - max(st.st_mtime_ns, st.st_ctime_ns) < MEMO_QUIET_NS:
        return None
    return [st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


def _enabled(config: str | os.PathLike[str], *, explicit: bool) -> tuple[bool, list[int] | None]:
    """:func:`memory_enabled`, remembered: whether memory is on, and the identity to remember it by.

    Parsing TOML is the largest part of the hook's cost, so a prompt whose state file says this
    very version of the file (:func:`config_identity`) was read as enabled skips it. Only an
    enabled verdict is ever remembered.
    """
    identity = config_identity(config)
    if identity is not None and _load_state(os.path.join(state_dir(config), STATE_FILE)).identity == identity:
        return True, identity
    return memory_enabled(config, explicit=explicit), identity


# --- state -------------------------------------------------------------------------------------


class _Lock:
    """An exclusive lock on a file, held across the read-modify-replace of the state."""

    def __init__(self, path: str) -> None:
        # never through a symbolic link another user planted: the lock file is ours to create
        self.fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)

    def __enter__(self) -> _Lock:
        """Take the lock, asking again for at most :data:`LOCK_WAIT_S`: the hook runs before every
        prompt, and a process that holds the lock and hangs must not hold the prompt up."""
        deadline = time.monotonic() + LOCK_WAIT_S
        while True:
            try:
                if sys.platform == "win32":  # pragma: no cover - Windows only
                    import msvcrt

                    msvcrt.locking(self.fd, msvcrt.LK_NBLCK, 1)
                else:
                    import fcntl

                    fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return self
            except OSError as exc:
                if time.monotonic() >= deadline:
                    os.close(self.fd)
                    raise OSError(exc.errno, f"the state is locked by another process for over {LOCK_WAIT_S:g} s") from None
                time.sleep(0.005)

    def __exit__(self, *exc: object) -> None:
        os.close(self.fd)  # closing releases the lock


def state_dir(config: str | os.PathLike[str]) -> str:
    """``<config-dir>/hooks``: where the hook keeps its state."""
    return os.path.join(os.path.dirname(os.path.abspath(config)), STATE_DIR)


class _State:
    """The hook's state file: the sessions past their first turn, the setting each session started
    with, and the identity of the config file last read as enabled."""

    __slots__ = ("identity", "sessions", "started")

    def __init__(self, sessions: dict[str, int], started: dict[str, list[int]], identity: list[int] | None) -> None:
        self.sessions = sessions
        """Session id -> when it was last seen (ms), for sessions past their first turn."""
        self.started = started
        """Session id -> ``[when it was last seen (ms), 1 or 0]``: whether memory was enabled when
        the session started or was restored; it keeps that setting until it is restored again."""
        self.identity = identity

    def setting(self, session_id: str) -> bool | None:
        """Whether ``session_id`` started with memory enabled; ``None`` for a session never seen.
        A session of a state written before settings were kept was seen only while enabled."""
        started = self.started.get(session_id)
        if started is not None:
            return bool(started[1])
        return True if session_id in self.sessions else None


def _load_state(path: str) -> _State:
    """The state in a file (empty when missing or damaged)."""
    try:
        raw = json.loads(_read_bounded(path, MAX_STATE_BYTES))
    except (OSError, ValueError, RecursionError):
        return _State({}, {}, None)  # missing or damaged: start again (at worst one prompt misses the checkpoint)
    if not isinstance(raw, dict):
        return _State({}, {}, None)
    sessions, started, identity = raw.get("sessions"), raw.get("started"), raw.get("config")
    if not (isinstance(identity, list) and len(identity) == 5 and all(type(n) is int for n in identity)):
        identity = None
    sessions = {k: v for k, v in sessions.items() if isinstance(k, str) and type(v) is int} if isinstance(sessions, dict) else {}
    started = (
        {
            k: [v[0], v[1]]
            for k, v in started.items()
            if isinstance(k, str) and isinstance(v, list) and len(v) == 2 and type(v[0]) is int and v[1] in (0, 1)
        }
        if isinstance(started, dict)
        else {}
    )
    return _State(sessions, started, identity)


def _clamped(state: _State, now: int) -> _State:
    """``state`` with no time later than ``now``: after the clock was set back, entries stamped in
    its future would otherwise count as the most recent and evict every new session."""
    state.sessions = {k: min(v, now) for k, v in state.sessions.items()}
    state.started = {k: [min(v[0], now), v[1]] for k, v in state.started.items()}
    return state


def _newest(entries: dict[str, Any], when: Any) -> dict[str, Any]:
    """The :data:`MAX_SESSIONS` most recently seen of ``entries`` (``when`` gives an entry's time)."""
    if len(entries) <= MAX_SESSIONS:
        return entries
    return dict(sorted(entries.items(), key=lambda item: when(item[1]))[-MAX_SESSIONS:])


def _private(folder: str) -> None:
    """Keep the state folder the hook's own (0700): a folder others may write to would let them
    plant links where the hook writes. A folder of another owner is refused."""
    st = os.lstat(folder)
    if not stat.S_ISDIR(st.st_mode):
        raise OSError(errno.ENOTDIR, f"{folder} is not a folder")
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        raise OSError(errno.EPERM, f"{folder} belongs to another user")
    if stat.S_IMODE(st.st_mode) & 0o077:
        os.chmod(folder, 0o700)


def _save(path: str, state: _State) -> None:
    saved: dict[str, object] = {
        "version": 2,
        "sessions": _newest(state.sessions, lambda ms: ms),
        "started": _newest(state.started, lambda entry: entry[0]),
    }
    if state.identity is not None:
        saved["config"] = state.identity
    text = json.dumps(saved, separators=(",", ":"))
    folder, name = os.path.split(path)
    # a new file of a name no one can plant beforehand: never written through a link
    temp = os.path.join(folder, f".{name}.{os.getpid()}.{os.urandom(6).hex()}.tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        try:
            os.write(fd, text.encode("ascii"))
        finally:
            os.close(fd)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


SOURCES = ("startup", "resume", "compact", "clear")
"""The ``SessionStart`` sources the hook acts on; ``prompt`` is a ``UserPromptSubmit``."""


def _update(config: str | os.PathLike[str], session_id: str, event: str, *, enabled: bool, identity: list[int] | None) -> tuple[bool, bool]:
    """Record one event of ``session_id`` (``prompt`` or a ``SessionStart`` source) with the
    config as it is now (``enabled``; ``identity`` is remembered only when enabled, see
    :func:`_enabled`); return the session's setting and whether it was past its first turn before.

    A session keeps the setting it started with. ``startup`` and ``clear`` start a conversation,
    and ``resume`` restores one, so these take the setting of now; ``compact`` goes on with the
    same conversation. A prompt of a session never seen (the client runs no ``SessionStart``
    hook, or the state lost it) takes the setting of now too. ``resume`` and ``compact`` mark the
    session past its first turn, ``clear`` forgets that it was.
    """
    folder = state_dir(config)
    now = time.time_ns() // 1_000_000
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        _private(folder)
        with _Lock(os.path.join(folder, LOCK_FILE)):
            path = os.path.join(folder, STATE_FILE)
            state = _clamped(_load_state(path), now)
            kept = state.setting(session_id)
            on = enabled if event in ("startup", "resume", "clear") or kept is None else kept
            seen = state.sessions.pop(session_id, None) is not None
            if on and event != "clear" and (event != "startup" or seen):
                state.sessions[session_id] = now
            state.started[session_id] = [now, int(on)]
            state.identity = identity if enabled else None
            _save(path, state)
    except OSError as exc:
        raise HookError(f"cannot keep the hook state in {folder}: {exc.strerror or exc}") from None
    return on, seen


def _kept_setting(config: str | os.PathLike[str], session_id: str) -> bool | None:
    """The setting ``session_id`` started with, read without the lock; ``None`` for one never seen."""
    return _load_state(os.path.join(state_dir(config), STATE_FILE)).setting(session_id)


def _has_reply(transcript: object) -> bool | None:
    """Whether the transcript file the client named already holds an assistant message; ``None``
    when it named none, the file cannot be read, or none was found in its first
    :data:`TRANSCRIPT_LIMIT_BYTES` and the file goes on."""
    if not isinstance(transcript, str) or not transcript:
        return None
    keep = max(len(mark) for mark in _REPLY_MARKS) - 1  # a mark split between two chunks is still found
    try:
        fd = _open_regular(os.path.expanduser(transcript))
        try:
            carried, searched = b"", 0
            while searched < TRANSCRIPT_LIMIT_BYTES:
                chunk = os.read(fd, min(TRANSCRIPT_CHUNK_BYTES, TRANSCRIPT_LIMIT_BYTES - searched))
                if not chunk:
                    return False  # the whole transcript, and no reply in it
                window = carried + chunk
                if any(mark in window for mark in _REPLY_MARKS):
                    return True
                carried, searched = window[-keep:], searched + len(chunk)
            return None if os.read(fd, 1) else False
        finally:
            os.close(fd)
    except (OSError, ValueError):  # ValueError: a path with a NUL byte, which no file has
        return None


# --- events ------------------------------------------------------------------------------------


def _payload(data: bytes) -> dict[str, Any] | None:
    """The client's input, or ``None`` for VS Code's (nothing to do there)."""
    if len(data) > MAX_INPUT_BYTES:
        raise HookError(f"the hook input is larger than {MAX_INPUT_BYTES:,} bytes")
    try:
        payload = json.loads(data)
    except (ValueError, RecursionError):
        raise HookError("the hook input is not JSON") from None
    if not isinstance(payload, dict):
        raise HookError("the hook input is not a JSON object")
    if "session_id" not in payload and isinstance(payload.get("sessionId"), str):
        # VS Code's agent also runs the hooks of ~/.claude/settings.json, with camelCase common
        # fields, and its UserPromptSubmit output takes no context for the model: no checkpoint.
        return None
    session_id = payload.get("session_id")
    if not isinstance(session_id, str) or not session_id or len(session_id) > MAX_SESSION_ID:
        raise HookError(f"the hook input has no session_id (a string of 1 to {MAX_SESSION_ID} characters)")
    return payload


def checkpoint_text() -> str:
    """The checkpoint, from the package's one definition, without importing its module.

    :mod:`tact_memory.screening.checkpoint` imports :mod:`dataclasses` (and with it
    :mod:`inspect`), which would make this hook noticeably slower on every prompt; only its two
    constant assignments, ``CHECKPOINT_MARKER`` and ``CHECKPOINT_TEXT``, are read from its source
    and evaluated, with no builtins (a test holds the result equal to the module's constant).
    """
    import _ast  # the node classes of ast, without importing ast (and its contextlib and enum)

    package = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    source = os.path.join(package, "screening", "checkpoint.py")
    with open(source, encoding="utf-8") as file:
        tree = compile(file.read(), source, "exec", flags=_ast.PyCF_ONLY_AST, dont_inherit=True)
    names: dict[str, str] = {}
    for node in tree.body if isinstance(tree, _ast.Module) else []:
        if isinstance(node, _ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], _ast.Name):
            name = node.targets[0].id
            if name in ("CHECKPOINT_MARKER", "CHECKPOINT_TEXT"):
                code = compile(_ast.Expression(node.value), source, "eval", dont_inherit=True)
                names[name] = eval(code, {"__builtins__": {}}, dict(names))  # noqa: S307 - the package's own constant
    return names["CHECKPOINT_TEXT"]


def _event(data: bytes, config: str | os.PathLike[str], enabled: bool) -> dict[str, Any] | None:
    """The client's input when there is something to do with it, else ``None``.

    With memory disabled nothing may fail a client's prompt: input the hook cannot use is
    ignored, and so is a configuration file that does not exist (nothing is made beside it),
    unless the hook's state folder is there: then a session that started while the file said
    enabled keeps its setting (I14), as its server keeps serving, though the file is gone.
    """
    if enabled:
        return _payload(data)
    if not os.path.isfile(config) and not os.path.isdir(state_dir(config)):
        return None
    try:
        return _payload(data)
    except HookError:
        return None


def _record(config: str | os.PathLike[str], session_id: str, event: str, *, enabled: bool, identity: list[int] | None) -> tuple[bool, bool]:
    """:func:`_update`; with memory disabled, a state that cannot be kept is not an error (nothing
    is printed either way), and the session counts as off."""
    try:
        return _update(config, session_id, event, enabled=enabled, identity=identity)
    except HookError:
        if enabled:
            raise
        return False, False


def user_prompt_submit(data: bytes, config: str | os.PathLike[str], *, explicit: bool = False) -> str:
    """What the hook prints for one ``UserPromptSubmit`` input: the checkpoint as JSON, or nothing.

    A session keeps the setting it started with (I14): one that started with memory enabled gets
    the checkpoint after its first turn even once the file says disabled, and one that started
    disabled gets none after the file says enabled, until it is restored (``SessionStart`` with
    ``resume``) or a new one starts.

    Raises:
        HookError: the input or the configuration is unusable (with memory disabled, only the
            configuration); nothing was recorded.
    """
    enabled, identity = _enabled(config, explicit=explicit)
    payload = _event(data, config, enabled)
    if payload is None or payload.get("agent_id"):
        return ""
    session_id = payload["session_id"]
    if not enabled and _kept_setting(config, session_id) is False:
        return ""  # started disabled and still is: nothing to record
    on, seen = _record(config, session_id, "prompt", enabled=enabled, identity=identity)
    if not on:
        return ""
    # Past the first turn is shown by the transcript when there is one: an assistant message in it
    # means a turn happened. A session merely seen may only have had its first prompt blocked by
    # another hook (a secret scanner, say), which leaves no turn. Without a transcript, seen it is.
    reply = _has_reply(payload.get("transcript_path"))
    if not (seen if reply is None else reply):
        return ""
    output = {"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": checkpoint_text()}}
    return json.dumps(output, ensure_ascii=False)


def session_start(data: bytes, config: str | os.PathLike[str], *, explicit: bool = False) -> str:
    """Handle one ``SessionStart`` input; it prints nothing. The session takes the setting of now
    when it starts (``startup``, ``clear``) or is restored (``resume``); see :func:`_update`.

    Raises:
        HookError: the input or the configuration is unusable (with memory disabled, only the
            configuration); nothing was recorded.
    """
    enabled, identity = _enabled(config, explicit=explicit)
    payload = _event(data, config, enabled)
    if payload is not None and payload.get("source") in SOURCES:
        _record(config, payload["session_id"], payload["source"], enabled=enabled, identity=identity)
    return ""


EVENTS = {"user-prompt-submit": user_prompt_submit, "session-start": session_start}

USAGE = "usage: tact-memory [--config PATH] hook {user-prompt-submit|session-start} < event.json"


def main(argv: list[str]) -> int:
    """Run one event: ``[--config PATH] EVENT``, the client's JSON on stdin. Returns the exit status."""
    args = list(argv)
    explicit_path: str | None = None
    if args and args[0].startswith("--config"):
        if args[0] == "--config" and len(args) > 1:
            explicit_path, args = args[1], args[2:]
        elif args[0].startswith("--config="):
            explicit_path, args = args[0].split("=", 1)[1], args[1:]
    if len(args) != 1 or args[0] not in EVENTS:
        _say(f"tact-memory: {USAGE}")
        return 1  # never 2: the clients read 2 as "block this prompt"
    if explicit_path == "":
        _say("tact-memory hook: --config: the path given is empty; name a config.toml, or leave the option out to use the usual one")
        return 1
    config, explicit = config_path(explicit_path)
    try:
        source = sys.stdin  # None when the client started it with standard input closed: no event
        data = source.buffer.read(MAX_INPUT_BYTES + 1) if source is not None else b""
        output = EVENTS[args[0]](data, config, explicit=explicit)
    except HookError as exc:
        _say(f"tact-memory hook: {exc}")
        return 1
    if output:
        stream = sys.stdout
        try:
            if stream is None:
                raise OSError(errno.EBADF, "standard output is closed")
            stream.write(output + "\n")
            stream.flush()
        except OSError as exc:
            _say(f"tact-memory: the output could not be written ({exc.strerror or exc}); what the command changed before that stands.")
            if stream is not None:
                with contextlib.suppress(OSError, ValueError):  # the interpreter's last flush goes nowhere
                    os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
            return 1
    return 0


def _say(line: str) -> None:
    """One line on stderr, if there is one to write to."""
    with contextlib.suppress(OSError, AttributeError):
        sys.stderr.write(line + "\n")
        sys.stderr.flush()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
