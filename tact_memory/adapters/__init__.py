"""Thin adapters that bring tact-memory to agent frameworks, each behind an optional extra.

- :mod:`tact_memory.adapters.mcp` (``tact-memory[mcp]``): an MCP server over stdio with the one
  ``memory`` tool and the review checkpoint as a prompt; ``tact-memory mcp`` runs it.
- :mod:`tact_memory.adapters.pydantic_ai` (``tact-memory[pydantic-ai]``): a pydantic-ai
  capability that adds the tool, the instructions and the checkpoint.
- :mod:`tact_memory.adapters.langchain` (``tact-memory[langchain]``): a LangChain agent
  middleware that does the same for ``create_agent``.
- :mod:`tact_memory.adapters.openai_agents` (``tact-memory[openai-agents]``): the tool as an
  OpenAI Agents SDK ``FunctionTool``, and a runner that adds the instructions, the checkpoint and
  the run's role.

Every adapter is a translation layer, not a second implementation: tool calls go through
:class:`tact_memory.tool.guard.Dispatcher` (which checks the role and returns exactly the JSON a model
sees), the checkpoint is :data:`tact_memory.screening.checkpoint.CHECKPOINT_TEXT`, and the instructions are
:data:`tact_memory.runtime.prompt.MEMORY_INSTRUCTIONS`. Each module imports its framework at module level,
so import the one you use; this package itself imports no framework, and ``import tact_memory``
loads none. Which store a configuration gives an adapter is the runtime's rule
(:mod:`tact_memory.runtime.stores`); :func:`store_for` and :func:`close_store` are re-exported
here for code written against earlier releases.

Adapters import only the public ``tool``, ``runtime`` and ``config`` layers (and the pure
``records``, ``errors`` and ``limits``), never the store. Every adapter applies the runtime's one
checkpoint rule (:mod:`tact_memory.runtime.checkpoint_rule`) and its one role record
(:mod:`tact_memory.runtime.roles`).
"""

from __future__ import annotations

from ..runtime.stores import close_store, store_for

__all__ = ["close_store", "store_for"]
