"""Deprecated alias of :mod:`tact_memory.adapters.pydantic_ai`; import from there."""

from __future__ import annotations

from ..adapters.pydantic_ai import *  # noqa: F403
from ..adapters.pydantic_ai import __all__ as __all__
