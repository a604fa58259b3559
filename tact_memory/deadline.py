"""A request's deadline, shared by the thread that does the work and the one that answers.

A service that answers ``timeout`` must not let the work it gave up on commit afterwards: the
caller was told the request ran out of time, so a change that lands later is one nobody was told
about. Cancelling the awaiting side does not stop a worker thread, so the decision is made once,
under a lock, between the two:

- the worker calls :meth:`Deadline.begin_commit` just before it commits; once the deadline has
  passed (or the answering side has given up) it gets ``False`` and rolls back;
- the answering side calls :meth:`Deadline.expire` when its clock runs out; it gets ``False``
  when the commit had already begun, and then waits for the worker's outcome instead of answering
  ``timeout``.

So a request answered ``timeout`` changed nothing, and a change that committed is answered with
its result (a little after the deadline, at worst by the length of one commit).

The deadline reaches the store through a context variable (:func:`under`), which
:func:`asyncio.to_thread` and Starlette's ``run_in_threadpool`` carry into the worker thread.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from contextvars import ContextVar

__all__ = ["Deadline", "current", "under"]


class Deadline:
    """The moment (``time.monotonic``) by which a request's transaction must have begun to commit."""

    __slots__ = ("at", "_lock", "_state")

    def __init__(self, seconds: float) -> None:
        self.at = time.monotonic() + seconds
        self._lock = threading.Lock()
        self._state = "open"  # "open" → "committing" (by the worker) or "expired" (by either side)

    def remaining(self) -> float:
        """Seconds left, never below zero."""
        return max(0.0, self.at - time.monotonic())

    def begin_commit(self) -> bool:
        """The worker is about to commit: ``True`` if it may, ``False`` if it must roll back."""
        with self._lock:
            if self._state == "open" and time.monotonic() < self.at:
                self._state = "committing"
            elif self._state == "open":
                self._state = "expired"
            return self._state == "committing"

    def expire(self) -> bool:
        """The answering side ran out of time: ``True`` if nothing will commit, ``False`` if a
        commit had already begun (wait for its outcome)."""
        with self._lock:
            if self._state == "open":
                self._state = "expired"
            return self._state == "expired"


_CURRENT: ContextVar[Deadline | None] = ContextVar("tact_memory_deadline", default=None)


def current() -> Deadline | None:
    """The deadline the current request runs under, if any."""
    return _CURRENT.get()


@contextlib.contextmanager
def under(deadline: Deadline | None) -> Iterator[None]:
    """Run the block (and the threads it starts through ``asyncio.to_thread``) under ``deadline``."""
    token = _CURRENT.set(deadline)
    try:
        yield
    finally:
        _CURRENT.reset(token)
