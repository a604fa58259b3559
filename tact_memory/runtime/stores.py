"""Which store a configuration gives, and how it is closed: one rule for the runtime and adapters.

The corpus of a configuration is the local SQLite store beside its ``config.toml`` (rule I3),
unless ``[memory.team]`` lists a workspace root that holds the workspace (the current folder
unless one is named): that workspace uses the team service's store (``RemoteStore``) and only it.
When the service cannot be reached, or no token is found, its operations answer
``unavailable``; local memory is never used instead, and is not created. An application may also
pass a backend of its own. Constructing either store opens nothing; its first operation does
(rule I13). Closing goes through :meth:`~tact_memory.backend.MemoryBackend.close`, which every
backend has, and the next operation opens the store again. This is the only runtime module that
names the backends, and it imports one only when a store is actually made.

The token comes from the environment variable ``token_env`` names or, when that is not set,
from ``token_file``, which must be a regular file that only its owner can read or write (mode
0600). It is read when the store is made and goes only into the requests' ``Authorization``
header.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping

from ..config.loading import Config, TeamSettings, load_config

TYPE_CHECKING = False  # typing is not imported: every tool process imports this module
if TYPE_CHECKING:
    from typing import TypeVar

    from ..backend import MemoryBackend
    from ..tool.guard import Role

    _Adapter = TypeVar("_Adapter", bound="ConfiguredMemory")

__all__ = ["ConfiguredMemory", "close_store", "config_store", "read_team_token", "store_for", "team_store", "uses_team_store"]


def uses_team_store(config: Config, workspace: str | os.PathLike[str] | None = None) -> bool:
    """Whether ``workspace`` (default: the current folder) is inside a ``[memory.team]`` workspace root."""
    team = config.memory.team
    return team is not None and team.covers(os.getcwd() if workspace is None else workspace)


def read_team_token(team: TeamSettings, environ: Mapping[str, str] | None = None) -> tuple[str | None, str | None]:
    """``(token, None)``, or ``(None, why)`` when there is none; ``why`` never holds a token.

    The environment variable wins when it is set; otherwise the token file is read, if it is a
    regular file owned by this user that no one else may read or write.
    """
    env = os.environ if environ is None else environ
    if team.token_env is not None and env.get(team.token_env, "").strip():
        return _checked(env[team.token_env], f"the environment variable {team.token_env}")
    if team.token_file is None:
        return None, f"no token: the environment variable {team.token_env} is not set"
    where = f"the token file {team.token_file}"
    try:
        fd = os.open(team.token_file, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None, f"no token: {where} does not exist"
    except OSError as exc:
        return None, f"no token: {where} cannot be opened ({exc.strerror or 'error'}; a symbolic link is refused)"
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            return None, f"no token: {where} is not a regular file"
        if hasattr(os, "getuid") and (info.st_uid != os.getuid() or info.st_mode & 0o077):
            return None, (
                f"no token: {where} must belong to you and be readable by you only "
                f"(mode {stat.S_IMODE(info.st_mode):04o}; run chmod 600 on it)"
            )
        data = handle.read(4097)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None, f"no token: {where} is not UTF-8 text"
    return _checked(text, where)


def _checked(text: str, where: str) -> tuple[str | None, str | None]:
    token = text.strip()
    if not token or len(token) > 4096 or any(ch.isspace() or not ch.isprintable() for ch in token):
        return None, f"no token: {where} does not hold one token (one line, no spaces)"
    if not token.isascii():  # an HTTP header carries ASCII only; a pasted curly quote is the usual cause
        return None, f"no token: {where} holds a character that is not ASCII (a quote mark pasted with it?)"
    return token, None


def team_store(team: TeamSettings) -> MemoryBackend:
    """The team service's store as ``team`` configures it (token read now); nothing is opened yet."""
    from ..store.remote import RemoteStore

    token, problem = read_team_token(team)
    return RemoteStore(team.endpoint, token, namespace=team.namespace, token_problem=problem)


def config_store(config: Config, *, workspace: str | os.PathLike[str] | None = None) -> MemoryBackend:
    """The store of ``config`` for ``workspace`` (default: the current folder), enabled or not; nothing is opened yet."""
    team = config.memory.team
    if team is not None and uses_team_store(config, workspace):
        return team_store(team)
    from ..store.sqlite import MemoryStore

    return MemoryStore(config.database_path)


def store_for(
    config: Config | str | os.PathLike[str] | None = None,
    *,
    store: MemoryBackend | None = None,
    workspace: str | os.PathLike[str] | None = None,
) -> MemoryBackend | None:
    """The corpus an agent framework should use, or ``None`` when memory is disabled.

    Args:
        config: A loaded config, a path to ``config.toml``, or ``None`` for the usual search.
        store: A backend to use instead of the one the config gives.
        workspace: The folder the agent works in (default: the current folder); it decides
            between the team store and the local one.
    """
    loaded = config if isinstance(config, Config) else load_config(config)
    if not loaded.memory.enabled:
        return None
    return store if store is not None else config_store(loaded, workspace=workspace)


def close_store(store: MemoryBackend | None) -> None:
    """Close ``store``'s connections, if there is a store; its next operation opens them again."""
    if store is not None:
        store.close()


class ConfiguredMemory:
    """What every framework adapter has: built from a config, enabled when it has a store, closable.

    A mixin: the adapter's own ``__init__`` takes ``(store, *, role=None)`` and sets ``self.store``.
    """

    store: MemoryBackend | None

    @classmethod
    def from_config(
        cls: type[_Adapter],
        config: Config | str | os.PathLike[str] | None = None,
        *,
        role: Role | None = None,
        store: MemoryBackend | None = None,
        workspace: str | os.PathLike[str] | None = None,
    ) -> _Adapter:
        """The adapter for the configuration in force (a path to ``config.toml``, or a loaded one).

        Args:
            config: A loaded config, a path to ``config.toml``, or ``None`` for the usual search.
            role: The stated role, or ``None`` to derive it for each run.
            store: A backend to use instead of the store the config gives.
            workspace: The folder the agents work in (default: the current folder); inside a
                ``[memory.team]`` workspace root the adapter uses the team store, and only it.
        """
        chosen = store_for(config, store=store, workspace=workspace)
        return cls(chosen, role=role)  # type: ignore[call-arg]  # the adapter's own __init__, not the mixin's

    @property
    def enabled(self) -> bool:
        """Whether memory is enabled for the agents this adapter serves."""
        return self.store is not None

    def close(self) -> None:
        """Close the store's connections, if it has any; the next call opens them again."""
        close_store(self.store)
