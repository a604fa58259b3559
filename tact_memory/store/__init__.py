"""Storage: the protocol every backend speaks, and the local SQLite backend.

One module per concept: ``policy`` (the rules, no SQLite: validation, visibility, probation,
capacity), ``sqlite`` (the store: transactions and the operations' SQL), ``connection`` (opening,
pragmas, durability, transaction kinds), ``schema`` (migrations), ``files`` (paths, owners, modes),
``rows`` (typed cells), ``sqlite_errors`` (SQLite's errors to ours, by code), ``index`` (the
in-process index cache), ``hygiene`` (the scrub after a removal) and ``residue`` (the bytes of the
file no live row owns, which the scrub searches for removed text).

May import: ``clock``, ``errors``, ``limits``, ``records``, ``retrieval``, ``screening``. Never the
tool, the runtime, the adapters or any face (CLI, browser, eval).
"""

from __future__ import annotations

from .sqlite import SCHEMA_VERSION, MemoryStore

__all__ = ["SCHEMA_VERSION", "MemoryStore"]
