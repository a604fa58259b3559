"""Probation (I9): a new version waits seven days for a read; expired unread rows make room only
when a bound needs it; a read record is never evicted."""

from __future__ import annotations

import pytest

from tact_memory import errors
from tact_memory.limits import Limits
from tact_memory.records import MemoryBackend

from .conftest import Harness, everything

pytestmark = pytest.mark.backend_contract


def test_a_new_version_is_on_probation_until_it_is_read(backend: MemoryBackend, harness: Harness) -> None:
    record = backend.put("The docs site builds with mkdocs").memory
    assert record.probation_until_ms == harness.clock.now + backend.limits.probation_ms
    [read] = backend.read([record.key.id])
    assert read.probation_until_ms is None and read.read_count == 1
    harness.clock.advance(10)
    replaced = backend.put("The docs site builds with mkdocs-material 9", replace=read.key).memory
    assert replaced.probation_until_ms == harness.clock.now + backend.limits.probation_ms


@pytest.mark.release_gate
def test_expired_unread_rows_are_pruned_only_when_a_bound_needs_it(harness: Harness) -> None:
    backend = harness.make(Limits(rows=2))
    unread = backend.put("unread fact about logging").memory.key
    graduated = backend.put("read fact about metrics").memory.key
    backend.read([graduated.id])
    harness.clock.advance(backend.limits.probation_ms - 1)
    with pytest.raises(errors.RecordCapacity):  # a millisecond early: still protected
        backend.put("new fact about tracing")
    assert {r.key for r in backend.export()} == {unread, graduated}
    harness.clock.advance(1)  # at the deadline: eligible
    new = backend.put("new fact about tracing").memory.key
    assert {r.key for r in backend.export()} == {graduated, new}


def test_expired_rows_stay_while_there_is_room(backend: MemoryBackend, harness: Harness) -> None:
    key = backend.put("unread fact about logging").memory.key
    harness.clock.advance(backend.limits.probation_ms * 2)
    backend.put("another fact about queues")
    assert key in {r.key for r in backend.export()}
    assert backend.status().expired_probation == 1


def test_a_replaced_version_is_on_probation_again_even_if_the_old_one_was_read(harness: Harness) -> None:
    backend = harness.make(Limits(rows=2))
    key = backend.put("the queue worker retries three times").memory.key
    backend.read([key.id])
    replaced = backend.put("the queue worker retries five times", replace=key).memory.key
    other = backend.put("the cron job runs hourly").memory.key
    backend.read([other.id])
    harness.clock.advance(backend.limits.probation_ms)
    new = backend.put("the cache expires after ten minutes").memory.key
    assert {r.key for r in backend.export()} == {other, new}
    assert replaced not in {r.key for r in backend.export()}


@pytest.mark.release_gate
def test_a_prune_that_does_not_make_enough_room_is_rolled_back(harness: Harness) -> None:
    backend = harness.make(Limits(rows=5, content_bytes=60))
    backend.put("x" * 10)  # unread, will expire
    kept = backend.put("y" * 40).memory.key
    backend.read([kept.id])
    harness.clock.advance(backend.limits.probation_ms)
    before = everything(backend)
    with pytest.raises(errors.ContentCapacity):
        backend.put("z" * 30)  # 40 + 30 > 60 even after pruning the 10
    assert everything(backend) == before


def test_a_graduated_record_is_never_evicted(harness: Harness) -> None:
    backend = harness.make(Limits(rows=2))
    keys = [backend.put(f"graduated fact {i} about service{i}").memory.key for i in range(2)]
    backend.read([k.id for k in keys])
    harness.clock.advance(backend.limits.probation_ms * 10)
    with pytest.raises(errors.RecordCapacity):
        backend.put("a fact that would need an eviction")
    assert {r.key for r in backend.export()} == set(keys)
