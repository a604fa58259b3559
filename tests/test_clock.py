"""Stored times: read in whole milliseconds, shown in UTC to the minute."""

from __future__ import annotations

import time

from tact_memory.clock import format_ms, now_ms


def test_now_is_whole_unix_milliseconds() -> None:
    before = time.time_ns() // 1_000_000
    value = now_ms()
    assert isinstance(value, int) and before <= value <= time.time_ns() // 1_000_000


def test_times_show_in_utc_with_or_without_the_zone() -> None:
    ms = 1_800_000_000_000  # 2027-01-15 08:00 UTC
    assert format_ms(ms) == "2027-01-15 08:00 UTC"
    assert format_ms(ms, zone=False) == "2027-01-15 08:00"
    assert format_ms(None) == "-" and format_ms(None, zone=False) == "-"


def test_a_time_no_calendar_can_show_is_shown_as_its_number() -> None:
    """A row written around the store may hold any 64-bit time; showing it must not raise."""
    assert format_ms(253_402_300_799_999) == "9999-12-31 23:59 UTC"  # the last minute a date can name
    for ms in (253_402_300_800_000, 2**63 - 1):
        assert format_ms(ms) == format_ms(ms, zone=False) == f"not a date ({ms})"
