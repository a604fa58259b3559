"""Role authorization for the memory tool: check, then delegate.

Child agents may scan and read; only the root agent may put or delete. The role comes from the
runtime that created the agent (a :class:`Dispatcher` is made for one agent and one role) and is
never read from the call's arguments, so a model cannot talk its way into root: a child's put is
refused here whatever else the call holds, even when it also carries a made-up ``"role": "root"``
field. The call is decoded once, by the tool's :func:`~tact_memory.tool.wire.decode`, and the
decoded call is what the tool runs.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping

from .. import errors
from .memory_tool import MemoryTool
from .results import error_result
from .wire import InvalidCall

TYPE_CHECKING = False  # typing is not imported: every tool process imports this module
if TYPE_CHECKING:
    from typing import Any

    from ..backend import MemoryBackend
    from .results import ToolResult
    from .wire import Operation

__all__ = ["MUTATING_OPERATIONS", "Dispatcher", "Role"]

MUTATING_OPERATIONS: frozenset[Operation] = frozenset({"put", "delete"})
"""Operations only the root agent may call."""


class Role(str, enum.Enum):
    """Who is calling, as the runtime knows it."""

    ROOT = "root"
    """The session's coordinating agent: may scan, read, put and delete."""
    CHILD = "child"
    """An agent spawned by another agent: may scan and read only."""


class Dispatcher:
    """The memory tool of one agent, guarded by that agent's role.

    Args:
        store: The corpus, or ``None`` when memory is disabled.
        role: The caller's role, decided by the runtime. It has no default: an agent is never the
            root because nobody said otherwise (a sub-agent built like its parent would write).
        refusal_note: Added to the message of a refused put or delete (why this agent is a child).

    Raises:
        ValueError: ``role`` is not a :class:`Role` or one of its values.
    """

    def __init__(self, store: MemoryBackend | None, *, role: Role, refusal_note: str = "") -> None:
        self.role = Role(role)
        self.refusal_note = refusal_note
        self.tool = MemoryTool(store)

    @property
    def name(self) -> str:
        """The tool name, ``memory``."""
        return self.tool.name

    def definition(self) -> dict[str, Any]:
        """The tool definition to give this agent's model."""
        return self.tool.definition()

    def call(self, arguments: str | bytes | Mapping[str, Any]) -> ToolResult:
        """Decode once, authorize, then run one call; always returns a result, never raises.

        A child's put or delete is refused as ``forbidden`` even when the rest of the call is
        malformed: the role is checked on the operation the call names before anything else
        about it is reported.
        """
        try:
            call = self.tool.decode(arguments)
        except InvalidCall as exc:
            return self._forbidden(exc.operation) or error_result(exc.operation, exc)
        return self._forbidden(call.operation) or self.tool.answer(call)

    def would_write(self, arguments: str | bytes | Mapping[str, Any]) -> bool:
        """Whether a call is a put or a delete that this agent may make: memory is enabled, the role
        allows writes and the call decodes.

        An app that has a person approve memory writes asks about these calls only: any other is
        answered, or refused, at once. Whether a put follows a scan is left out on purpose: a scan
        asked for in the same response may run between the question and the put, so the answer
        could change, and a put not asked about would then be stored unapproved.
        """
        if self.role is not Role.ROOT or self.tool.store is None:
            return False
        try:
            return self.tool.decode(arguments).operation in MUTATING_OPERATIONS
        except InvalidCall:
            return False

    def _forbidden(self, operation: Operation | None) -> ToolResult | None:
        """The refusal of ``operation`` for this agent's role, or ``None`` when it may run."""
        if self.role is Role.ROOT or operation not in MUTATING_OPERATIONS:
            return None
        return error_result(
            operation,
            errors.Forbidden(
                f"{operation} is reserved for the root agent; a child agent may only scan and read. "
                "Report the conclusion to your parent agent instead." + self.refusal_note
            ),
        )

    async def acall(self, arguments: str | bytes | Mapping[str, Any]) -> ToolResult:
        """:meth:`call` in a worker thread, so a locked database never blocks the event loop."""
        import asyncio

        return await asyncio.to_thread(self.call, arguments)
