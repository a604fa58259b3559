"""``tact-memory tool``'s work, without click: tool calls in, one JSON result line per call out."""

from __future__ import annotations

import json

from ..tool.guard import Dispatcher, Role

TYPE_CHECKING = False  # typing is not imported: every tool process imports this module
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from ..backend import MemoryBackend

__all__ = ["UNSTATED_ROLE_NOTE", "tool_answers"]

UNSTATED_ROLE_NOTE = (
    " This tool was run without a role, so it runs as a child; whoever runs it can pass `--role root` "
    "to let this agent put and delete."
)
"""What a refused put or delete adds when ``--role`` was not given (I17)."""


def tool_answers(
    store: MemoryBackend | None, role: str | None, call: str | None, stdin: Iterable[bytes]
) -> Iterator[str]:
    """One JSON line per tool call: ``call``, or each JSON value of ``stdin``, through one tool instance.

    ``role`` ``None`` (not stated) is a child: the command cannot tell whether the agent that runs
    it is a sub-agent, so it is the root only when told (I17).

    ``stdin`` is read as bytes: a line that is not UTF-8 becomes an ``invalid_arguments`` result,
    whatever the locale's decoding, instead of ending the session.
    """
    if role is None:
        dispatcher = Dispatcher(store, role=Role.CHILD, refusal_note=UNSTATED_ROLE_NOTE)
    else:
        dispatcher = Dispatcher(store, role=Role(role))
    if call is not None:
        calls: Iterable[str | bytes] = [call.strip()]
    else:
        from .json_stream import split_values  # its patterns are compiled only for a stream
        from .waiting import say_waiting

        say_waiting("tool calls, one JSON object a line,")
        calls = split_values(stdin)
    for value in calls:
        yield json.dumps(dispatcher.call(value), ensure_ascii=False)
