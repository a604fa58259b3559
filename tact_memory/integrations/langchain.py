"""Deprecated alias of :mod:`tact_memory.adapters.langchain`; import from there."""

from __future__ import annotations

from ..adapters.langchain import *  # noqa: F403
from ..adapters.langchain import __all__ as __all__
