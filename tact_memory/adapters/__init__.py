"""Thin adapters that bring tact-memory to agent frameworks, each behind an optional extra.

- :mod:`tact_memory.adapters.mcp` (``tact-memory[mcp]``): an MCP server over stdio with the one
  ``memory`` tool and the review checkpoint as a prompt; ``tact-memory mcp`` runs it.
- :mod:`tact_memory.adapters.pydantic_ai` (``tact-memory[pydantic-ai]``): a pydantic-ai
  capability that adds the tool, the instructions and the checkpoint.
- :mod:`tact_memory.adapters.langchain` (``tact-memory[langchain]``): a LangChain agent
  middleware that does the same for ``create_agent``.

Every adapter is a translation layer, not a second implementation: tool calls go through
:class:`tact_memory.tool.guard.Dispatcher` (which checks the role and returns exactly the JSON a model
sees), the checkpoint is :data:`tact_memory.screening.checkpoint.CHECKPOINT_TEXT`, and the instructions are
:data:`tact_memory.runtime.prompt.MEMORY_INSTRUCTIONS`. Each module imports its framework at module level,
so import the one you use; this package itself imports no framework, and ``import tact_memory``
loads none. It holds the one rule every adapter shares: which store a configuration gives them.
"""

from __future__ import annotations

import os

from ..config.loading import Config, load_config
from ..records import MemoryBackend

__all__ = ["close_store", "store_for"]


def store_for(
    config: Config | str | os.PathLike[str] | None = None, *, store: MemoryBackend | None = None
) -> MemoryBackend | None:
    """The corpus an adapter should use, or ``None`` when memory is disabled.

    Args:
        config: A loaded config, a path to ``config.toml``, or ``None`` for the usual search.
        store: A backend to use instead of the SQLite store beside ``config.toml``.
    """
    loaded = config if isinstance(config, Config) else load_config(config)
    if not loaded.memory.enabled:
        return None
    if store is None:
        from ..store.sqlite import MemoryStore

        store = MemoryStore(loaded.database_path)
    return store


def close_store(store: MemoryBackend | None) -> None:
    """Close a store's database connection if it has one; its next operation opens it again."""
    close = getattr(store, "close", None)
    if callable(close):
        close()
