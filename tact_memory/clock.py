"""Wall-clock time as the store keeps it: whole milliseconds since the Unix epoch, shown in UTC.

Every stored time (creation, update, scan, read, probation deadline) is an integer of Unix
milliseconds. This module is the one place that reads the clock for them and the one way they are
shown to people, so the store, the browser and the command line agree to the minute.
"""

from __future__ import annotations

import time
from datetime import datetime, timezone

__all__ = ["format_ms", "now_ms"]


def now_ms() -> int:
    """The current time in whole Unix milliseconds (the default clock of the store and browser)."""
    return time.time_ns() // 1_000_000


def format_ms(ms: int | None, *, zone: bool = True) -> str:
    """A Unix-millisecond time as ``YYYY-MM-DD HH:MM UTC``, or ``-`` for never.

    Args:
        ms: The time, or ``None`` for something that never happened.
        zone: Whether to add `` UTC``; a column whose heading already says UTC leaves it off.

    A stored time need not be one a calendar can show (a database file can be written by anything,
    and SQLite holds any 64-bit integer): a time outside the years 1 to 9999 is shown as
    ``not a date (<ms>)`` rather than raising, so one odd row cannot stop a list.
    """
    if ms is None:
        return "-"
    try:
        text = datetime.fromtimestamp(ms / 1000, tz=timezone.utc).strftime("%Y-%m-%d %H:%M")
    except (ValueError, OverflowError, OSError):
        return f"not a date ({ms})"
    return f"{text} UTC" if zone else text
