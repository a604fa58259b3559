"""``tact-memory tool``'s work, without click: tool calls in, one JSON result line per call out."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from ..tool.guard import Dispatcher, Role

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from ..records import MemoryBackend

__all__ = ["tool_answers"]


def tool_answers(store: MemoryBackend | None, role: str, call: str | None, stdin: Iterable[bytes]) -> Iterator[str]:
    """One JSON line per tool call: ``call``, or each JSON value of ``stdin``, through one tool instance.

    ``stdin`` is read as bytes: a line that is not UTF-8 becomes an ``invalid_arguments`` result,
    whatever the locale's decoding, instead of ending the session.
    """
    dispatcher = Dispatcher(store, role=Role(role))
    if call is not None:
        calls: Iterable[str | bytes] = [call.strip()]
    else:
        from .json_stream import split_values  # its patterns are compiled only for a stream

        calls = split_values(stdin)
    for value in calls:
        yield json.dumps(dispatcher.call(value), ensure_ascii=False)
