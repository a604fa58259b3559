"""The ``tact-memory`` command line, a thin layer over the store, the tool and the runtime.

:func:`main` is the console entry point (:mod:`.entry`); the click application :data:`cli` is
imported when first used, so ``tact-memory tool`` and ``tact-memory hook`` never load click.
"""

from __future__ import annotations

from .entry import main

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .app import cli

__all__ = ["cli", "main"]


def __getattr__(name: str) -> object:
    """``cli``: the click application, imported on first use (PEP 562)."""
    if name == "cli":
        from .app import cli

        return cli
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
