"""Deprecated alias of :mod:`tact_memory.adapters.langchain`; import from there."""

from __future__ import annotations

from typing import Any

from ..adapters import langchain as _adapter
from ..adapters.langchain import *  # noqa: F403
from ..adapters.langchain import __all__ as __all__


def __getattr__(name: str) -> Any:
    """Names the adapter keeps only for compatibility (``MemoryMiddleware``), with its warning."""
    return getattr(_adapter, name)
