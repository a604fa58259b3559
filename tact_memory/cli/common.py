"""What every command shares: how it fails, and how it asks for an optional extra."""

from __future__ import annotations

import sys
from typing import NoReturn

import click

__all__ = ["fail", "require_extra"]


def fail(message: str) -> NoReturn:
    """Print ``tact-memory: MESSAGE`` on stderr and exit 1."""
    click.echo(f"tact-memory: {message}", err=True)
    sys.exit(1)


def require_extra(extra: str, *modules: str) -> None:
    """Exit 2 with one line naming the extra when a module it installs is missing.

    Checked before any work, so a command never fails half-way (or with a traceback) on an
    optional dependency. Only top-level module names: finding them imports nothing.
    """
    import importlib.util

    for module in modules:
        if importlib.util.find_spec(module) is None:
            click.echo(
                f"tact-memory: this needs the {extra} extra ({module} is not installed): "
                f"pip install 'tact-memory[{extra}]'",
                err=True,
            )
            sys.exit(2)
