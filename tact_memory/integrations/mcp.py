"""Deprecated alias of :mod:`tact_memory.adapters.mcp`; import from there."""

from __future__ import annotations

from ..adapters.mcp import *  # noqa: F403
from ..adapters.mcp import __all__ as __all__
