"""Thin adapters that bring tact-memory to agent frameworks, each behind an optional extra.

- :mod:`tact_memory.integrations.mcp` (``tact-memory[mcp]``): an MCP server over stdio with the one
  ``memory`` tool and the review checkpoint as a prompt; ``tact-memory mcp`` runs it.
- :mod:`tact_memory.integrations.pydantic_ai` (``tact-memory[pydantic-ai]``): a pydantic-ai
  capability that adds the tool, the instructions and the checkpoint.
- :mod:`tact_memory.integrations.langchain` (``tact-memory[langchain]``): a LangChain agent
  middleware that does the same for ``create_agent``.

Every adapter is a translation layer, not a second implementation: tool calls go through
:class:`tact_memory.dispatch.Dispatcher` (which checks the role and returns exactly the JSON a model
sees), the checkpoint is :data:`tact_memory.checkpoint.CHECKPOINT_TEXT`, and the instructions are
:data:`tact_memory.prompt.MEMORY_INSTRUCTIONS`. Each module imports its framework at module level,
so import the one you use; this package itself imports nothing, and ``import tact_memory`` loads no
framework.
"""
