"""The waits between tries of a lock another connection holds (:class:`Backoff`), on a fake clock."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.store import connection
from tact_memory.store.connection import Backoff


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0
        self.sleeps: list[float] = []

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> _Clock:
    fake = _Clock()
    monkeypatch.setattr(connection.time, "monotonic", fake.monotonic)
    monkeypatch.setattr(connection.time, "sleep", fake.sleep)
    return fake


def _waits(backoff: Backoff, clock: _Clock, work_s: float) -> int:
    """Tries until the backoff gives up, each try taking ``work_s``; answers how many waits it gave."""
    given_waits = 0
    while True:
        clock.now += work_s
        if not backoff.wait():
            return given_waits
        given_waits += 1
        assert given_waits < 100_000, "the backoff never gave up"


def test_no_time_means_no_second_try(clock: _Clock) -> None:
    assert Backoff(0).wait() is False
    assert clock.sleeps == []


def test_pauses_double_from_the_first_up_to_the_last(clock: _Clock) -> None:
    backoff = Backoff(1.0, first_s=0.001, last_s=0.005)
    for _ in range(6):
        assert backoff.wait()
    assert clock.sleeps == pytest.approx([0.001, 0.002, 0.004, 0.005, 0.005, 0.005])


@given(
    timeout=st.floats(0, 0.5),
    first=st.floats(1e-4, 0.01),
    factor=st.floats(1, 100),
    work=st.floats(0, 0.01),
)
def test_never_waits_past_the_timeout_counted_from_the_first_refusal(
    timeout: float, first: float, factor: float, work: float
) -> None:
    fake = _Clock()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(connection.time, "monotonic", fake.monotonic)
        patch.setattr(connection.time, "sleep", fake.sleep)
        start = fake.now + work  # the first try's refusal arms the deadline
        _waits(Backoff(timeout, first_s=first, last_s=first * factor), fake, work)
    last = first * factor
    assert all(0 <= pause <= last * (1 + 1e-9) for pause in fake.sleeps)
    # the last wait may end exactly at the deadline, never after it
    ends = start
    for pause in fake.sleeps:
        ends += pause + work
    assert sum(fake.sleeps) <= timeout + 1e-9
    if timeout > 0 and work == 0:
        assert ends == pytest.approx(start + timeout, abs=1e-6)
