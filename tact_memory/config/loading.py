"""Finding, reading and validating ``config.toml``.

The selected file decides two things: whether memory is enabled, and where the one corpus lives
(``<folder of config.toml>/memory/v1.sqlite3``). The search order is ``--config PATH``, then
``TACT_CONFIG``, then ``$TACT_HOME/config.toml``, then the platform's user configuration folder for
``tact``. A file named explicitly (the first two) must exist; a file found by the fallbacks may be
missing, which means every setting has its default and memory is off. A symbolic link to nothing
is not a missing file but an error wherever it was found, naming where it points: someone put a
configuration there, and memory quietly off would hide that it is gone.

The schema is closed: an unknown table or key, a value of the wrong type or a TOML syntax error is a
:class:`~tact_memory.errors.ConfigError` that names the file and the key or line. Nothing is coerced:
``enabled = "yes"`` is an error, not ``True``.

Reading is bounded, because the path may name anything: a FIFO, a device or a socket, a file over
1 MiB, or brackets nested thousands deep are each a ``ConfigError`` at once, never a hang, a
``MemoryError`` or a ``RecursionError``. A UTF-8 byte order mark at the start is skipped.

Why this module is longer than ~300 lines: the search order, the safe file read and the closed
schema (with the team settings) are one contract that the errors name line by line.
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
from collections.abc import Mapping
from pathlib import Path

from ..errors import ConfigError
from ..values import Value

TYPE_CHECKING = False  # typing is not imported: every tool process imports this module
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "CONFIG_FILE_NAME",
    "MAX_CONFIG_BYTES",
    "Config",
    "ConfigSource",
    "MemorySettings",
    "TeamSettings",
    "broken_link",
    "config_template",
    "database_path_for",
    "declares_table",
    "load_config",
    "locate_config",
    "parse_config",
    "read_config",
    "write_new_config",
]

CONFIG_FILE_NAME = "config.toml"
DATABASE_RELATIVE_PATH = Path("memory") / "v1.sqlite3"


class TeamSettings(Value):
    """The ``[memory.team]`` table: a team memory service, and the workspaces that must use it.

    A session whose workspace is inside one of :attr:`workspace_roots` uses the team store only:
    when the service cannot be reached its operations answer ``unavailable``, and local memory is
    neither used nor created. Other workspaces keep the local store.
    """

    __slots__ = ("endpoint", "namespace", "token_env", "token_file", "workspace_roots")

    endpoint: str
    """The service's URL (``http`` or ``https``; no user name, password, query or fragment)."""
    namespace: str | None
    """The namespace the token must write as; the service refuses requests when it does not."""
    token_env: str | None
    """The environment variable holding the token (it wins over :attr:`token_file` when set)."""
    token_file: Path | None
    """A file holding the token; it must be readable by its owner only (mode 0600)."""
    workspace_roots: tuple[Path, ...]
    """Absolute folders; a workspace inside any of them uses the team store."""

    def __init__(
        self,
        endpoint: str,
        namespace: str | None = None,
        token_env: str | None = None,
        token_file: Path | None = None,
        workspace_roots: tuple[Path, ...] = (),
    ) -> None:
        self._fill(endpoint, namespace, token_env, token_file, workspace_roots)

    def covers(self, workspace: str | os.PathLike[str]) -> bool:
        """Whether ``workspace`` is one of :attr:`workspace_roots` or inside one (symbolic links resolved)."""
        where = Path(os.path.realpath(workspace))
        for root in self.workspace_roots:
            resolved = Path(os.path.realpath(root))
            if where == resolved or resolved in where.parents:
                return True
        return False


class MemorySettings(Value):
    """The ``[memory]`` table."""

    __slots__ = ("enabled", "team")

    enabled: bool
    """Whether agents get the memory tool, instructions and checkpoint. Off unless set to ``true``."""
    team: TeamSettings | None
    """The ``[memory.team]`` table, when there is one."""

    def __init__(self, enabled: bool = False, team: TeamSettings | None = None) -> None:
        self._fill(enabled, team)


class ConfigSource(Value):
    """Where the configuration file was selected from."""

    __slots__ = ("path", "origin")

    path: Path
    """Absolute path of the selected ``config.toml`` (it may not exist for a fallback location)."""
    origin: str
    """One of ``"--config"``, ``"TACT_CONFIG"``, ``"TACT_HOME"``, ``"default"``, or ``"given"``
    for a path the program chose itself (a :class:`Config` built by hand or by :func:`parse_config`)."""

    def __init__(self, path: Path, origin: str) -> None:
        self._fill(path, origin)

    @property
    def explicit(self) -> bool:
        """A file named on the command line, in ``TACT_CONFIG`` or by the program must exist; a
        fallback (``TACT_HOME``, the default folder) may be missing, which means defaults."""
        return self.origin in ("--config", "TACT_CONFIG", "given")

    @property
    def selected_by(self) -> str:
        """How the file was chosen, in words for a message: ``"selected by TACT_HOME"``."""
        return "named by the program" if self.origin == "given" else f"selected by {self.origin}"


class Config(Value, uncompared=("origin",)):
    """A validated configuration and the file it came from.

    Equality compares what the file says and where it is, not how it was found (:attr:`origin`).
    """

    __slots__ = ("path", "memory", "exists", "origin")

    path: Path
    """Absolute path of the selected ``config.toml``."""
    memory: MemorySettings
    """The memory settings (defaults, memory off, when not given)."""
    exists: bool
    """False when the fallback file was missing and defaults are in force."""
    origin: str
    """How the file was selected (:attr:`ConfigSource.origin`); ``"given"`` when the program built
    this value itself. A watcher re-reads through :attr:`source`, so a file that disappears is
    handled the way this selection calls for."""

    def __init__(
        self, path: Path, memory: MemorySettings | None = None, exists: bool = True, origin: str = "given"
    ) -> None:
        self._fill(path, MemorySettings() if memory is None else memory, exists, origin)

    @property
    def source(self) -> ConfigSource:
        """The selection this configuration was read from: its path and :attr:`origin`."""
        return ConfigSource(self.path, self.origin)

    @property
    def config_dir(self) -> Path:
        """The folder of the selected ``config.toml``."""
        return self.path.parent

    @property
    def database_path(self) -> Path:
        """``<config-dir>/memory/v1.sqlite3``; stable across reloads of the same file."""
        return database_path_for(self.path)


def database_path_for(config_path: Path) -> Path:
    """The corpus path that belongs to a configuration file path."""
    return Path(os.path.abspath(config_path)).parent / DATABASE_RELATIVE_PATH


_SCHEMA: dict[str, dict[str, type]] = {"memory": {"enabled": bool, "team": dict}}
"""Tables and their keys with the one TOML type each accepts; anything else is an error."""

_TOML_TYPE_NAMES = {
    bool: "a boolean (true or false)", str: "a string", int: "an integer", dict: "a table", list: "an array",
}  # fmt: skip
_TEAM_SCHEMA: dict[str, type] = {
    "endpoint": str, "namespace": str, "token_env": str, "token_file": str, "workspace_roots": list,
}  # fmt: skip
_NAMESPACE = r"[a-z0-9][a-z0-9_.-]{0,62}"  # the service's rule for namespace names
_ENV_NAME = r"[A-Za-z_][A-Za-z0-9_]{0,127}"


def _toml_type(value: object) -> str:
    names = {bool: "boolean", str: "string", int: "integer", float: "float", list: "array", dict: "table"}
    return names.get(type(value), type(value).__name__)


_BARE_KEY = r"[A-Za-z0-9_-]+"


_NOT_A_BOOLEAN = r"=\s*(?:True|False|TRUE|FALSE|[Yy]es|[Nn]o|[Oo]n|[Oo]ff)\s*(?:#.*)?$"
"""A value other languages write for a boolean, which TOML does not take (only ``true``, ``false``);
compiled only when a file is refused (a compiled pattern would cost every tool process 0.3 ms)."""


def _hint(text: str, lineno: int | None) -> str:
    """A hint for a line that TOML refused, when it is a common slip; empty otherwise."""
    lines = text.splitlines()
    if lineno is None or not 0 < lineno <= len(lines) or not re.search(_NOT_A_BOOLEAN, lines[lineno - 1]):
        return ""
    return " (TOML writes booleans in lower case: true or false)"


def _key_name(*parts: str) -> str:
    """A dotted key as TOML spells it: quoted keys stay quoted, so no key can break the error's line."""
    return ".".join(part if re.fullmatch(_BARE_KEY, part) else json.dumps(part) for part in parts)


def _validate(raw: dict[str, Any], path: Path, origin: str) -> Config:
    tables: dict[str, dict[str, Any]] = {}
    for table, value in raw.items():
        if table not in _SCHEMA:
            what = "table" if isinstance(value, dict) else "key"
            raise ConfigError(
                f"unknown {what} (known tables: {', '.join(sorted(_SCHEMA))})", path=str(path), key=_key_name(table)
            )
        if not isinstance(value, dict):
            raise ConfigError(f"expected a table, got {_toml_type(value)}", path=str(path), key=_key_name(table))
        for key, item in value.items():
            expected = _SCHEMA[table].get(key)
            if expected is None:
                known = ", ".join(sorted(_SCHEMA[table]))
                raise ConfigError(f"unknown key (known keys: {known})", path=str(path), key=_key_name(table, key))
            if type(item) is not expected:  # exact: TOML has no bool/int overlap to tolerate
                raise ConfigError(
                    f"expected {_TOML_TYPE_NAMES[expected]}, got {_toml_type(item)}",
                    path=str(path),
                    key=_key_name(table, key),
                )
        tables[table] = value
    memory = tables.get("memory", {})
    team = None if "team" not in memory else _team(memory["team"], path)
    settings = MemorySettings(enabled=bool(memory.get("enabled", False)), team=team)
    return Config(path=path, memory=settings, origin=origin)


def _team(table: dict[str, Any], path: Path) -> TeamSettings:
    """Validate ``[memory.team]``; every refusal names its key and never repeats a token."""

    def fail(key: str, message: str) -> ConfigError:
        return ConfigError(message, path=str(path), key=_key_name("memory", "team", key))

    for key, item in table.items():
        expected = _TEAM_SCHEMA.get(key)
        if expected is None:
            known = ", ".join(sorted(_TEAM_SCHEMA))
            raise ConfigError(f"unknown key (known keys: {known})", path=str(path), key=_key_name("memory", "team", key))
        if type(item) is not expected:
            raise fail(key, f"expected {_TOML_TYPE_NAMES[expected]}, got {_toml_type(item)}")
    if "endpoint" not in table:
        raise fail("endpoint", "missing: the team memory service's URL, such as https://memory.example.com")
    endpoint = _endpoint(table["endpoint"], fail)
    namespace = table.get("namespace")
    if namespace is not None and not re.fullmatch(_NAMESPACE, namespace):
        raise fail("namespace", "a namespace is 1 to 63 lower-case letters, digits, '_', '.' or '-', starting with a letter or digit")
    token_env = table.get("token_env")
    if token_env is not None and not re.fullmatch(_ENV_NAME, token_env):
        raise fail("token_env", "expected the name of an environment variable (letters, digits and '_'), not a token")
    token_file = table.get("token_file")
    if token_env is None and token_file is None:
        raise fail("token_env", "missing: name the environment variable that holds the token (or set token_file)")
    base = path.parent
    roots: list[Path] = []
    for index, root in enumerate(table.get("workspace_roots", [])):
        if not isinstance(root, str) or not root.strip() or "\x00" in root:
            raise fail("workspace_roots", f"item {index + 1} must be a folder path (a non-empty string)")
        roots.append(Path(os.path.abspath(base / os.path.expanduser(root))))
    file = None if token_file is None else Path(os.path.abspath(base / os.path.expanduser(token_file)))
    return TeamSettings(endpoint, namespace, token_env, file, tuple(roots))


def _endpoint(value: str, fail: Any) -> str:
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018  (raises ValueError for a bad port)
    except ValueError:
        raise fail("endpoint", "not a valid URL") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise fail("endpoint", "expected an http:// or https:// URL with a host")
    if parts.username is not None or parts.password is not None:
        raise fail("endpoint", "must not hold a user name or password; the token goes in token_env or token_file")
    if parts.query or parts.fragment:
        raise fail("endpoint", "must not hold a query or fragment")
    return value.rstrip("/")


EMPTY_PATH = "the path given is empty; name a config.toml, or leave the option out to use the usual one"
"""Why an empty ``--config`` is refused (an empty ``TACT_CONFIG`` or ``TACT_HOME`` counts as unset)."""


def locate_config(
    explicit: str | os.PathLike[str] | None = None, *, environ: Mapping[str, str] | None = None
) -> ConfigSource:
    """Select the configuration file without reading it.

    Args:
        explicit: A path given on the command line (``--config``); it wins over everything.
        environ: The environment to consult; defaults to ``os.environ``.

    Raises:
        ConfigError: ``explicit`` is an empty path.
    """
    env = os.environ if environ is None else environ
    if explicit is not None:
        if not os.fspath(explicit):
            # abspath("") would quietly name the current folder
            raise ConfigError(EMPTY_PATH, path="--config")
        return ConfigSource(Path(os.path.abspath(explicit)), "--config")
    if env.get("TACT_CONFIG"):
        return ConfigSource(Path(os.path.abspath(env["TACT_CONFIG"])), "TACT_CONFIG")
    if env.get("TACT_HOME"):
        return ConfigSource(Path(os.path.abspath(env["TACT_HOME"])) / CONFIG_FILE_NAME, "TACT_HOME")
    import platformdirs  # only needed for the last fallback

    return ConfigSource(Path(platformdirs.user_config_dir("tact")) / CONFIG_FILE_NAME, "default")


def load_config(
    explicit: str | os.PathLike[str] | None = None, *, environ: Mapping[str, str] | None = None
) -> Config:
    """Locate, read and validate the configuration.

    Raises:
        ConfigError: the explicit file is missing, or the file is unreadable or invalid.
    """
    return read_config(locate_config(explicit, environ=environ))


def read_config(source: ConfigSource) -> Config:
    """Read and validate the file a :class:`ConfigSource` names.

    Only a regular file of at most :data:`MAX_CONFIG_BYTES` is read. A FIFO, a device or a socket
    is refused before it is opened for reading, so it can neither block nor stream forever; the
    file is opened without blocking and checked again through the open descriptor, so swapping
    one in between the two looks is refused too.

    Raises:
        ConfigError: the explicit file is missing, or the file is not a regular file, too large,
            unreadable or invalid.
    """
    path = source.path
    try:
        data = _read_regular_file(path)
    except FileNotFoundError:
        target = broken_link(path)
        if target is not None:
            raise ConfigError(
                f"is a symbolic link to {target}, which does not exist; create the file there "
                f"(`tact-memory --config {_quoted(target)} init`) or remove the link",
                path=str(path),
            ) from None
        if source.explicit:
            init = {"--config": f"tact-memory --config {_quoted(path)} init --enable", "TACT_CONFIG": "tact-memory init --enable"}
            hint = f"; `{init[source.origin]}` creates it there" if source.origin in init else ""
            raise ConfigError(f"configuration file not found ({source.selected_by}){hint}", path=str(path)) from None
        return Config(path=path, exists=False, origin=source.origin)
    except OSError as exc:
        raise ConfigError(f"cannot be read: {exc.strerror or exc}", path=str(path)) from exc
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"not valid UTF-8 ({exc.reason})", path=str(path)) from exc
    return _parse(text, path, source.origin)


def broken_link(path: str | os.PathLike[str]) -> Path | None:
    """Where ``path`` leads when it is a symbolic link to nothing (through any links after it);
    ``None`` when it is not a link, or its target exists (or cannot be looked at)."""
    if not os.path.islink(path) or os.path.lexists(os.path.realpath(path)):
        return None
    return Path(os.path.realpath(path))


def _quoted(path: Path) -> str:
    import shlex

    return shlex.quote(str(path))


MAX_CONFIG_BYTES = 1 << 20
"""Largest ``config.toml`` that is read, 1 MiB.

The schema holds one boolean, so a real file is a few hundred bytes even with generous comments;
1 MiB leaves three orders of magnitude for comments and future settings while keeping a parse
well under a second and its memory small, whatever the file holds."""

_FILE_KINDS = (
    (stat.S_ISDIR, "is a directory, not a configuration file"),
    (stat.S_ISFIFO, "is a FIFO (named pipe), not a regular file"),
    (stat.S_ISCHR, "is a character device, not a regular file"),
    (stat.S_ISBLK, "is a block device, not a regular file"),
    (stat.S_ISSOCK, "is a socket, not a regular file"),
)


def _check_kind(info: os.stat_result, path: Path) -> None:
    for test, message in _FILE_KINDS:
        if test(info.st_mode):
            raise ConfigError(message, path=str(path))
    if not stat.S_ISREG(info.st_mode):
        raise ConfigError("is not a regular file", path=str(path))
    if info.st_size > MAX_CONFIG_BYTES:
        raise ConfigError(
            f"is {info.st_size:,} bytes; a configuration file holds at most {MAX_CONFIG_BYTES:,}", path=str(path)
        )


def _read_regular_file(path: Path) -> bytes:
    """The bytes of ``path`` if it is a regular file within the size cap.

    Raises:
        ConfigError: not a regular file, or larger than :data:`MAX_CONFIG_BYTES`.
        OSError: it cannot be looked at or read (``FileNotFoundError`` when it is missing).
    """
    _check_kind(os.stat(path), path)
    # O_NONBLOCK: should a FIFO have replaced the file since the stat, opening it must not wait for
    # a writer; fstat below then refuses it. Regular files ignore the flag.
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    with os.fdopen(fd, "rb") as handle:
        _check_kind(os.fstat(handle.fileno()), path)
        data = handle.read(MAX_CONFIG_BYTES + 1)  # a file still growing stops at the cap
    if len(data) > MAX_CONFIG_BYTES:
        raise ConfigError(f"is larger than {MAX_CONFIG_BYTES:,} bytes, the most a configuration file holds", path=str(path))
    return data


_POSITION_RE = r"\s*\(at line (\d+), column \d+\)"

_NOT_IN_COMMENTS = frozenset(chr(c) for c in (*range(0x09), *range(0x0A, 0x20), 0x7F))
"""The control characters TOML does not allow in a comment (every one but tab)."""


def _plain_line(line: str) -> str | None:
    """What one line of the usual file is: ``""`` for a blank line or a comment, ``"memory"`` for
    the ``[memory]`` header, ``"true"`` or ``"false"`` for ``enabled = ...``; ``None`` for any other.

    Spaces and tabs may stand around each part, and a comment may follow any of them. Read by hand
    rather than by a regular expression, whose compilation would cost each tool process 0.3 ms.
    """
    body, hashed, comment = line.partition("#")  # no part of a plain line holds a "#"
    if hashed and not _NOT_IN_COMMENTS.isdisjoint(comment):
        return None
    body = body.strip(" \t")
    if not body:
        return ""
    if body[0] == "[" and body[-1] == "]" and body[1:-1].strip(" \t") == "memory":
        return "memory"
    name, equals, value = body.partition("=")
    value = value.lstrip(" \t")
    if equals and name.rstrip(" \t") == "enabled" and value in ("true", "false"):
        return value
    return None


def _plain_toml(text: str) -> dict[str, Any] | None:
    """What TOML reads from ``text`` when it is the usual file, or ``None`` when it is anything else.

    The usual file (what ``tact-memory init`` writes, with any comments) holds only blank lines,
    comments, one ``[memory]`` header and at most one ``enabled = true|false`` below it. Every
    ``tact-memory tool`` process reads it, and the TOML parser's import costs several times this
    check; any other text (including every malformed one) goes to the parser, which is the reference.
    """
    if "\r" in text:
        return None
    raw: dict[str, Any] = {}
    memory: dict[str, Any] | None = None
    for line in text.split("\n"):
        plain = _plain_line(line)
        if plain is None:
            return None
        if plain == "memory":
            if memory is not None:
                return None
            memory = raw["memory"] = {}
        elif plain:
            if memory is None or "enabled" in memory:
                return None
            memory["enabled"] = plain == "true"
    return raw


def parse_config(text: str, *, path: Path) -> Config:
    """Validate the text of a configuration file.

    Raises:
        ConfigError: malformed TOML (with its line), an unknown key or a value of the wrong type.
    """
    return _parse(text, path, "given")


def _parse(text: str, path: Path, origin: str) -> Config:
    """:func:`parse_config` for a file selected as ``origin``."""
    # A byte order mark is how some Windows editors start UTF-8; TOML does not allow one.
    text = text.removeprefix("\ufeff")
    plain = _plain_toml(text)
    if plain is not None:
        return _validate(plain, path, origin)
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised by the 3.10 type check
        import tomli as tomllib
    try:
        raw: dict[str, Any] = tomllib.loads(text)
    except RecursionError:
        # Thousands of nested arrays or inline tables exhaust the parser's recursion.
        raise ConfigError("invalid TOML: arrays or inline tables nested too deeply", path=str(path)) from None
    except MemoryError:
        raise ConfigError("invalid TOML: too large to parse", path=str(path)) from None
    except tomllib.TOMLDecodeError as exc:
        # 3.14 has .msg and .lineno; earlier versions put "(at line N, column M)" in the text.
        match = re.search(_POSITION_RE, str(exc))
        lineno = getattr(exc, "lineno", None) or (int(match.group(1)) if match else None)
        if str(exc).endswith("(at end of document)"):
            # The file ended too soon: name its last line. tomli and 3.14's tomllib name the empty
            # line after a final line break; 3.11 to 3.13 name no line.
            lineno = text.rstrip("\n").count("\n") + 1
        message = getattr(exc, "msg", None) or re.sub(_POSITION_RE, "", str(exc)).strip()
        raise ConfigError(f"invalid TOML: {message}{_hint(text, lineno)}", path=str(path), line=lineno) from exc
    return _validate(raw, path, origin)


_TEMPLATE = """\
# tact-memory configuration. Unknown tables and keys are errors.

[memory]
# Memory is opt-in. While `enabled` is false, agents get no memory tool, no memory instructions
# and no review checkpoint, and no memory file is created. Set it to true to turn memory on; the
# records are then kept beside this file, in memory/v1.sqlite3, created on first use.
enabled = {enabled}
"""


def config_template(*, enabled: bool = False) -> str:
    """The commented ``config.toml`` that ``tact-memory init`` writes."""
    return _TEMPLATE.format(enabled="true" if enabled else "false")


def write_new_config(path: str | os.PathLike[str], *, enabled: bool = False) -> Path:
    """Write :func:`config_template` to ``path``, never over an existing file.

    A missing folder is created with mode 0700 (it will hold the memory database too).

    Returns:
        The absolute path written.

    Raises:
        FileExistsError: something already exists at ``path``; it is left untouched.
        OSError: the folder or file cannot be created.
    """
    target = Path(os.path.abspath(path))
    if not target.parent.exists():
        target.parent.mkdir(mode=0o700, parents=True)
    fd = os.open(target, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    with os.fdopen(fd, "w", encoding="utf-8") as file:
        file.write(config_template(enabled=enabled))
    return target


def declares_table(path: str | os.PathLike[str], table: str) -> bool:
    """Whether the file at ``path`` is readable TOML with a top-level ``table`` (for advice only)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised by the 3.10 type check
        import tomli as tomllib
    try:
        raw = tomllib.loads(Path(path).read_text(encoding="utf-8").removeprefix("\ufeff"))  # as read_config reads it
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False
    return isinstance(raw.get(table), dict)
