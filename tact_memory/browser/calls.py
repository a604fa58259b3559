"""The browser's store calls, off the thread that draws the screen.

Every call the browser makes to a store (a read for the list, a delete, closing a store it left)
can wait: for another process's write lock, for a lock on an older file, for the network. So each
runs on one thread of its own, one at a time in the order asked: a read asked after a delete sees
what the delete did, and a store is closed only after the calls asked of it before. The app awaits
each call in a Textual worker, so the screen keeps answering keys while it waits.

A read not yet started can be dropped (a newer read makes an older one useless); a kept call (a
delete, closing a store) never is. A call under way always runs to its end, so a delete either
commits or changes nothing, never half.

Nothing depends on a read, so quitting does not wait for one: :meth:`StoreCalls.close` asks for its
last call (closing the store) and returns at once unless told to wait, as the app is while a delete
is under way. The read ends on its own (the lock is released or the busy timeout passes) and the
store is closed after it on the same thread, so the read never meets a closed store. The thread is
a daemon: a read still waiting when the browser has quit does not keep the process from exiting.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Future
from queue import SimpleQueue
from threading import Thread
from typing import Any, TypeVar

__all__ = ["StoreCalls"]

T = TypeVar("T")


class StoreCalls:
    """One thread that runs store calls in the order they are asked."""

    def __init__(self) -> None:
        self._calls: SimpleQueue[tuple[Callable[[], Any], Future[Any]] | None] = SimpleQueue()
        self._thread: Thread | None = None  # started by the first call
        self._closed = False

    async def run(self, call: Callable[[], T], *, keep: bool = False) -> T:
        """The result of ``call``, run on the store thread after every call asked before it.

        Cancelling the await drops the call if it has not started, unless ``keep``; one under way
        finishes anyway.
        """
        waiting = asyncio.wrap_future(self._ask(call))
        return await (asyncio.shield(waiting) if keep else waiting)

    def close(self, last: Callable[[], object], *, wait: bool) -> None:
        """Run ``last`` after every call asked so far, then end the thread.

        Args:
            last: The final call, closing the store.
            wait: Return once ``last`` has run (and so every call before it, a delete among them);
                else at once, leaving a call under way to end on its own.
        """
        done = self._ask(last)
        self._closed = True
        self._calls.put(None)
        if wait:
            done.result()

    def _ask(self, call: Callable[[], T]) -> Future[T]:
        if self._closed:
            raise RuntimeError("the store calls are closed")
        if self._thread is None:
            self._thread = Thread(target=self._serve, name="tact-memory-store", daemon=True)
            self._thread.start()
        future: Future[T] = Future()
        self._calls.put((call, future))
        return future

    def _serve(self) -> None:
        while (asked := self._calls.get()) is not None:
            call, future = asked
            if not future.set_running_or_notify_cancel():
                continue  # dropped before it started
            try:
                result = call()
            except BaseException as exc:  # the caller's to handle, as with any awaited call
                future.set_exception(exc)
            else:
                future.set_result(result)
