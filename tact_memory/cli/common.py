"""What every command shares: how it fails, asks for an optional extra, and finds its config and store."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from .. import errors
from ..clock import format_ms
from ..config.loading import Config, load_config

F = TypeVar("F", bound=Callable[..., Any])

if TYPE_CHECKING:
    from ..backend import MemoryBackend

__all__ = [
    "config_for",
    "dumps",
    "enabled_store",
    "fail",
    "json_option",
    "refused",
    "require_enabled",
    "require_extra",
    "store_for_config",
    "when",
]


def fail(message: str) -> NoReturn:
    """Print ``tact-memory: MESSAGE`` on stderr and exit 1."""
    click.echo(f"tact-memory: {message}", err=True)
    sys.exit(1)


_NEWER_PYTHON = {"pydantic-ai": (3, 11)}
"""Extras whose packages need a newer Python than this package does (pydantic-ai-slim 2.58):
there, asking to install the extra is no help."""


def require_extra(extra: str, *modules: str) -> None:
    """Exit 2 with one line naming the extra when a module it installs is missing.

    Checked before any work, so a command never fails half-way (or with a traceback) on an
    optional dependency. Only top-level module names: finding them imports nothing. On a Python
    the extra's packages do not support, the line says which Python it needs instead.
    """
    import importlib.util

    for module in modules:
        if importlib.util.find_spec(module) is None:
            needed = _NEWER_PYTHON.get(extra)
            if needed is not None and sys.version_info < needed:
                this = f"{sys.version_info[0]}.{sys.version_info[1]}"
                remedy = f"it needs Python {needed[0]}.{needed[1]} or later, and this is Python {this}"
            else:
                remedy = f"pip install 'tact-memory[{extra}]'"
            click.echo(f"tact-memory: this needs the {extra} extra ({module} is not installed): {remedy}", err=True)
            sys.exit(2)


def config_for(ctx: click.Context) -> Config:
    """The config the command line selected, or exit 1 with its error."""
    try:
        return load_config(ctx.obj.get("config_path"))
    except errors.ConfigError as exc:
        fail(exc.message)
        raise  # pragma: no cover


def require_enabled(config: Config) -> None:
    """Stop with exit 1, saying how to enable memory (as the browser shows it), when it is disabled."""
    if config.memory.enabled:
        return
    fail(f"memory is disabled; to enable it, {enabling(config)}")


def enabling(config: Config) -> str:
    """How to enable memory in the file ``config`` was read from, as an instruction."""
    from ..config.loading import declares_table

    if not config.exists:
        return f"run `tact-memory init --enable` (it writes {config.path})"
    if declares_table(config.path, "memory"):
        return f"set `enabled = true` under `[memory]` in {config.path}"
    return f"add `[memory]` and `enabled = true` to {config.path}"


def store_for_config(config: Config) -> MemoryBackend:
    """The store the config gives for the selected workspace: the team store inside a ``[memory.team]`` root."""
    from ..runtime.stores import config_store

    ctx = click.get_current_context(silent=True)
    workspace = None if ctx is None else ctx.find_root().obj.get("workspace")
    store = config_store(config, workspace=workspace)
    if ctx is not None:
        ctx.call_on_close(store.close)  # a team store's connections end with the command
    return store


def enabled_store(ctx: click.Context) -> MemoryBackend:
    """The store of the selected config, or exit 1 saying memory is disabled and how to enable it."""
    config = config_for(ctx)
    require_enabled(config)
    return store_for_config(config)


def refused(exc: errors.TactMemoryError, suffix: str = "") -> NoReturn:
    """Exit 1 with the error's code and message (which never carry a secret value), and the
    command that goes on from it: the message is written for a model, which has the tool's
    operations, not the command line."""
    fail(f"{exc.code}: {exc.message}{suffix}{_next_step(exc)}")


def _next_step(exc: errors.TactMemoryError) -> str:
    if isinstance(exc, errors.Duplicate):
        return f". See it with `tact-memory show {exc.id}`; change it with `tact-memory edit {exc.id}`"
    if isinstance(exc, errors.VersionConflict):
        return f". See it with `tact-memory show {exc.id}`, then edit it again"
    return ""


class _KeyNumber(click.IntRange):
    """An id or version: from 1 to what SQLite's integers hold (a larger one is a usage error, not
    an overflow inside the store); the help says ``x>=1``, as the upper end is no one's concern."""

    name = "integer"

    def __init__(self) -> None:
        super().__init__(1, 2**63 - 1)

    def _describe_range(self) -> str:
        return "x>=1"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        # Python's int() also reads "3_0" as 30 and "３" or "٣" as 3; an id is written in ASCII
        # digits, so anything else names no record (a slip of the keyboard must not pick another)
        if isinstance(value, str) and not (value.strip().isascii() and value.strip().lstrip("+-").isdigit()):
            self.fail(f"{value!r} is not a whole number in digits 0-9", param, ctx)
        number = click.INT.convert(value, param, ctx)
        if number > 2**63 - 1:
            self.fail(f"{number} is larger than any id or version can be (at most {2**63 - 1})", param, ctx)
        return super().convert(number, param, ctx)


KEY_NUMBER = _KeyNumber()


def json_option(func: F) -> F:
    """``--json``: machine-readable output instead of text."""
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")(func)


def dumps(value: Any) -> str:
    """JSON for a command's output: non-ASCII text as it is, but every character a terminal would
    act on (a C1 control, a bidirectional override) as a ``\\u`` escape, which reads back the same."""
    from ..screening.display import json_safe

    return json_safe(json.dumps(value, ensure_ascii=False))


when = partial(format_ms, zone=False)  # the callers add " UTC" where a heading does not say it
