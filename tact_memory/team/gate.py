"""The service's request bounds, shared by every route of the team service (``/v1`` and ``/mcp``).

One :class:`Gate` per application counts the requests in flight, reads bodies up to the cap and
times requests out. A request over a bound is refused with a named error before any memory
operation runs: ``busy`` (HTTP 503) when ``max_in_flight`` requests are already being handled,
``body_too_large`` (413) when the body is over the cap, ``timeout`` (504) when the answer takes
longer than the request timeout. A request answered ``timeout`` changed nothing: its store
transaction runs under the request's :class:`~tact_memory.deadline.Deadline` and rolls back
rather than commit late, and a commit that began in time is answered with its result. Requests to ``/mcp`` take a slot like any other, so MCP clients
cannot crowd out the JSON routes or the other way round.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Iterator
from typing import Any, TypeVar

from starlette.types import Message, Receive

from ..deadline import Deadline

__all__ = ["Gate", "Refused", "replay"]

T = TypeVar("T")

_STATUS = {"busy": 503, "timeout": 504, "body_too_large": 413, "method_not_allowed": 405, "namespace_mismatch": 403}


class Refused(Exception):
    """A refusal the service itself makes (not a memory error): ``code``, message, details."""

    def __init__(self, code: str, message: str, **details: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details

    @property
    def status(self) -> int:
        """The HTTP status of the refusal."""
        return _STATUS.get(self.code, 400)


class Gate:
    """The in-flight count, the body cap and the timeout of one service.

    Args:
        max_in_flight: Requests handled at once; the next is refused ``busy``.
        timeout_s: Longest a request may take; longer is refused ``timeout``.
        body_bytes: Largest request body; larger is refused ``body_too_large``.
    """

    def __init__(self, *, max_in_flight: int, timeout_s: float, body_bytes: int) -> None:
        self.max_in_flight = max_in_flight
        self.timeout_s = timeout_s
        self.body_bytes = body_bytes
        self.in_flight = 0

    @contextlib.contextmanager
    def slot(self) -> Iterator[None]:
        """Hold one of the in-flight slots for the body of the ``with``, or refuse ``busy`` at once.

        The event loop runs one coroutine at a time and nothing awaits between the check and the
        count, so the count needs no lock.
        """
        if self.in_flight >= self.max_in_flight:
            raise Refused("busy", "too many requests are in flight; try again shortly")
        self.in_flight += 1
        try:
            yield
        finally:
            self.in_flight -= 1

    def _too_large(self) -> Refused:
        return Refused("body_too_large", f"the request body is over the {self.body_bytes:,}-byte limit")

    async def body(self, receive: Receive, content_length: str | None) -> bytes:
        """The whole request body, refusing one over the cap without reading the rest of it."""
        if content_length is not None and content_length.isdigit() and int(content_length) > self.body_bytes:
            raise self._too_large()
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break  # the client went away; what arrived is all there is
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.body_bytes:
                raise self._too_large()
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks)

    def expired(self) -> Refused:
        """The ``timeout`` refusal, given by the gate's clock or by the database's statement timeout."""
        return Refused("timeout", f"the request took longer than {self.timeout_s:g} s")

    def deadline(self) -> Deadline:
        """A new request's deadline: the request timeout from now."""
        return Deadline(self.timeout_s)

    async def timed(self, work: Awaitable[T], deadline: Deadline) -> T:
        """``work``'s result, or ``timeout`` once ``deadline`` (the one the work's store
        transactions run under) has passed and no commit has begun: the work then rolls back on
        its own. A commit that began in time is waited for, and its result is the answer.
        """
        task = asyncio.ensure_future(work)
        try:
            return await asyncio.wait_for(asyncio.shield(task), deadline.remaining())
        except asyncio.TimeoutError:
            if deadline.expire():
                task.cancel()
                raise self.expired() from None
            return await task
        except asyncio.CancelledError:  # the request itself was cancelled (the client went away)
            deadline.expire()
            task.cancel()
            raise


def replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that hands over ``body`` (already read) once, then waits on the client as before."""
    sent = False

    async def again() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return again
