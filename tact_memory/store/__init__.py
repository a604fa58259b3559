"""Storage: the protocol every backend speaks, and the local SQLite backend.

May import: ``errors``, ``limits``, ``records``, ``retrieval``, ``screening``. Never the tool,
the runtime, the adapters or any face (CLI, browser, eval).
"""

from __future__ import annotations

from .sqlite import SCHEMA_VERSION, MemoryStore

__all__ = ["SCHEMA_VERSION", "MemoryStore"]
