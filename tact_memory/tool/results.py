"""The memory tool's results: every one, success or refusal, built by :func:`result`.

A result is a JSON object with ``operation`` first, then that operation's fields or, for a refused
call, ``error`` alone. Records, candidates and keys are written as JSON objects with their fields
in the order :mod:`tact_memory.records` declares them, here and nowhere else.
"""

from __future__ import annotations

from .. import errors
from ..records import MemoryRecord
from ..values import as_dict

TYPE_CHECKING = False  # typing is not imported: every tool process imports this module
if TYPE_CHECKING:
    from typing import Any

__all__ = ["ToolResult", "error_result", "plain", "record_json", "result"]

if TYPE_CHECKING:
    ToolResult = dict[str, Any]
    """The JSON object a model receives as the tool's result."""
else:
    ToolResult = dict  # the same at run time, where the ``Any`` would need typing


def plain(value: object) -> Any:
    """``value`` as JSON data: a record becomes an object (a local key's ``namespace``, which is
    ``None``, left out), a list or tuple a list."""
    return as_dict(value)


def record_json(record: MemoryRecord) -> dict[str, Any]:
    """One complete record as a ``read`` result carries it (also what ``show`` and ``demo`` print)."""
    data: dict[str, Any] = plain(record)
    return data


def result(operation: str | None, **fields: object) -> ToolResult:
    """The result of a call of ``operation``: its name, then ``fields`` as JSON data."""
    return {"operation": operation, **{name: plain(value) for name, value in fields.items()}}


def error_result(operation: str | None, exc: errors.TactMemoryError) -> ToolResult:
    """The result of a refused call: ``operation`` (if the call named a known one) and ``error``."""
    return result(operation, error={"code": exc.code, "message": exc.message, **exc.details()})
