"""Deprecated alias of :mod:`tact_memory.adapters`; import from there.

Kept so code written against earlier releases keeps working; each module here warns once with
``DeprecationWarning`` and re-exports the adapter of the same name.
"""

from __future__ import annotations

import warnings

from ..adapters import close_store, store_for

__all__ = ["close_store", "store_for"]

warnings.warn(
    "tact_memory.integrations is deprecated; import from tact_memory.adapters", DeprecationWarning, stacklevel=2
)
