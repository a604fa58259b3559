"""The browser's store calls, off the thread that draws the screen.

Every call the browser makes to a store (a read for the list, a delete, closing a store it left)
can wait: for another process's write lock, for a lock on an older file, for the network. So each
runs on one thread of its own, one at a time in the order asked: a read asked after a delete sees
what the delete did, and a store is closed only after the calls asked of it before. The app awaits
each call in a Textual worker, so the screen keeps answering keys while it waits.

A call not yet started can be dropped (a newer read makes an older one useless); one under way
always runs to its end, so a delete either commits or changes nothing, never half.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

__all__ = ["StoreCalls"]

T = TypeVar("T")


class StoreCalls:
    """One thread that runs store calls in the order they are asked."""

    def __init__(self) -> None:
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tact-memory-store")

    async def run(self, call: Callable[[], T]) -> T:
        """The result of ``call``, run on the store thread after every call asked before it.

        Cancelling the await drops the call if it has not started; one under way finishes anyway.
        """
        return await asyncio.get_running_loop().run_in_executor(self._thread, call)

    def close(self) -> None:
        """Wait for the call under way to end and drop those not started."""
        self._thread.shutdown(wait=True, cancel_futures=True)
