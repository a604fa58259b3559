"""The ``tact-memory`` command line, a thin layer over the store, the tool and the runtime."""

from __future__ import annotations

from .app import cli, main

__all__ = ["cli", "main"]
