"""Which store a configuration gives, and how it is closed: one rule for the runtime and adapters.

The corpus of a configuration is the local SQLite store beside its ``config.toml`` (rule I3),
unless the application passes a backend of its own. Constructing the SQLite store opens nothing;
its first operation does (rule I13). Closing goes through
:meth:`~tact_memory.records.MemoryBackend.close`, which every backend has, and the next operation
opens the store again. This is the only runtime module that names the SQLite backend, and it
imports it only when a store is actually made.
"""

from __future__ import annotations

import os

from ..config.loading import Config, load_config
from ..records import MemoryBackend

__all__ = ["close_store", "config_store", "store_for"]


def config_store(config: Config) -> MemoryBackend:
    """The store of ``config``, whether or not memory is enabled; nothing is opened yet."""
    from ..store.sqlite import MemoryStore

    return MemoryStore(config.database_path)


def store_for(
    config: Config | str | os.PathLike[str] | None = None, *, store: MemoryBackend | None = None
) -> MemoryBackend | None:
    """The corpus an agent framework should use, or ``None`` when memory is disabled.

    Args:
        config: A loaded config, a path to ``config.toml``, or ``None`` for the usual search.
        store: A backend to use instead of the SQLite store beside ``config.toml``.
    """
    loaded = config if isinstance(config, Config) else load_config(config)
    if not loaded.memory.enabled:
        return None
    return store if store is not None else config_store(loaded)


def close_store(store: MemoryBackend | None) -> None:
    """Close ``store``'s connections, if there is a store; its next operation opens them again."""
    if store is not None:
        store.close()
