"""The memory browser: a terminal UI over one corpus (optional extra ``tact-memory[browser]``).

Run it with ``tact-memory browse``. It lists records most useful first, filters them, shows one in
full and deletes one after confirmation, without routing anything through a model and without
changing scan or read telemetry. It follows ``config.toml``: enabling or disabling memory there
shows or hides the records at once.

This package imports Textual, so ``import tact_memory`` never imports it; only the ``browse``
command and callers who want the app do.
"""

from __future__ import annotations

from .app import MemoryBrowser

__all__ = ["MemoryBrowser"]
