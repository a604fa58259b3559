"""Probation (I9): a new version waits seven days for a read; expired unread rows make room only
when a bound needs it; a read record is never evicted."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tact_memory import errors
from tact_memory.backend import MemoryBackend
from tact_memory.limits import Limits

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


def test_status_counts_a_row_as_expired_from_its_deadline_as_pruning_does(backend: MemoryBackend, harness: Harness) -> None:
    """``status`` reports a row as expired probation exactly when a put could prune it: from the
    millisecond of its deadline, not one after."""
    backend.put("unread fact about logging")
    harness.clock.advance(backend.limits.probation_ms - 1)
    status = backend.status()
    assert (status.on_probation, status.expired_probation) == (1, 0)
    harness.clock.advance(1)
    status = backend.status()
    assert (status.on_probation, status.expired_probation) == (1, 1)


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


def test_pruning_removes_the_oldest_expired_rows_first_and_no_more_than_needed(harness: Harness) -> None:
    """The row bound prunes the one oldest expired row; the content bound prunes the fewest oldest
    rows whose bytes make room, so a newer expired row stays when the older ones suffice."""
    backend = harness.make(Limits(rows=4))
    keys = []
    for i in range(4):
        keys.append(backend.put(f"unread fact {i} about subsystem{i}").memory.key)
        harness.clock.advance(1)
    harness.clock.advance(backend.limits.probation_ms)
    first = backend.put("new fact about tracing").memory.key
    assert {r.key for r in backend.export()} == {*keys[1:], first}
    second = backend.put("another new fact about paging").memory.key
    assert {r.key for r in backend.export()} == {*keys[2:], first, second}

    backend.read([first.id, second.id])  # graduated: never pruned
    for key in keys[2:]:
        backend.delete(key)
    backend = harness.make(Limits(content_bytes=100 + sum(len(r.content) for r in backend.export())))
    sized = []
    for letter, size in (("a", 10), ("b", 20), ("c", 30)):
        sized.append(backend.put(letter * size).memory.key)
        harness.clock.advance(1)
    harness.clock.advance(backend.limits.probation_ms)
    bigger = backend.put("d" * 70).memory.key  # 30 bytes over: exactly the 10 and the 20 go, the 30 stays
    assert {r.key for r in backend.export()} == {first, second, sized[2], bigger}


def test_a_graduated_record_is_never_evicted(harness: Harness) -> None:
    backend = harness.make(Limits(rows=2))
    keys = [backend.put(f"graduated fact {i} about service{i}").memory.key for i in range(2)]
    backend.read([k.id for k in keys])
    harness.clock.advance(backend.limits.probation_ms * 10)
    with pytest.raises(errors.RecordCapacity):
        backend.put("a fact that would need an eviction")
    assert {r.key for r in backend.export()} == set(keys)


def test_a_version_a_person_wrote_starts_graduated_and_is_never_pruned(harness: Harness) -> None:
    backend = harness.make(Limits(rows=2))
    person = backend.put("the deploy window is Tuesday", probation=False).memory
    assert person.probation_until_ms is None and person.read_count == 0
    backend.put("the staging host is slow")  # the model's, unread
    edited = backend.put("the deploy window is Wednesday", replace=person.key, probation=False).memory
    assert edited.key.version == 2 and edited.probation_until_ms is None
    harness.clock.advance(backend.limits.probation_ms)
    new = backend.put("a third fact about caching").memory.key  # prunes the model's unread record only
    assert {r.key for r in backend.export()} == {edited.key, new}
    before = everything(backend)
    with pytest.raises(errors.RecordCapacity):  # the person's record is never evicted
        backend.put("a fourth fact about queues")
    assert everything(backend) == before


def test_pruning_goes_by_the_age_of_the_current_version_then_id(harness: Harness) -> None:
    backend = harness.make(Limits(rows=3))
    first = backend.put("the first record, replaced later").memory.key
    second = backend.put("the second record, never replaced").memory.key
    third = backend.put("the third record, same time as the second").memory.key
    harness.clock.advance(1)
    first = backend.put("the first record, replaced later and now newer", replace=first).memory.key
    assert {r.key for r in backend.export()} == {first, second, third}
    harness.clock.advance(backend.limits.probation_ms)
    fourth = backend.put("a fourth record needing one row").memory.key
    assert {r.key for r in backend.export()} == {first, third, fourth}
    fifth = backend.put("a fifth record needing one row").memory.key
    assert {r.key for r in backend.export()} == {first, fourth, fifth}


def test_a_replacement_frees_its_own_bytes_and_never_prunes_the_record_it_replaces(harness: Harness) -> None:
    """The replaced version's bytes count as freed, and the record being replaced is no candidate
    for pruning even when it is expired and unread: a replacement that only its own removal could
    make fit is refused and changes nothing."""
    backend = harness.make(Limits(content_bytes=100))
    expired = backend.put("a" * 60).memory.key  # unread: expires
    kept = backend.put("b" * 30).memory.key
    backend.read([kept.id])
    harness.clock.advance(backend.limits.probation_ms)
    kept = backend.put("c" * 40, replace=kept).memory.key  # 60 + 40 once its own 30 are freed: nothing pruned
    assert {r.key for r in backend.export()} == {expired, kept}
    before = everything(backend)
    with pytest.raises(errors.ContentCapacity) as info:
        backend.put("d" * 61, replace=expired)  # 61 + 40: only the record replaced could make room
    assert info.value.details() == {"limit": 100}
    assert everything(backend) == before



def test_a_row_grown_in_place_frees_no_more_than_the_size_the_store_counted(harness: Harness) -> None:
    """Another program grows an expired row in place, keeping its version, so the store still
    counts it at its old size: pruning it frees that size, not the new one, and a put that the
    smaller figure does not make room for is refused, as it would be by either measure."""
    backend = harness.make(Limits(content_bytes=100))
    grown = backend.put("x" * 10).memory.key  # unread: expires
    kept = backend.put("y" * 50).memory.key
    backend.read([kept.id])
    harness.rewrite(grown.id, "w" * 40)  # counted 10 + 50; stored 40 + 50
    harness.clock.advance(backend.limits.probation_ms)
    before = everything(backend)
    with pytest.raises(errors.ContentCapacity) as info:
        backend.put("z" * 55)  # 105 bytes once the 10 counted are freed (105 stored, too)
    assert info.value.details() == {"limit": 100}
    assert everything(backend) == before
    new = backend.put("z" * 45).memory.key  # 105 counted: the expired row goes, leaving 95 by either measure
    assert {r.key for r in backend.export()} == {kept, new}

@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    existing=st.lists(st.tuples(st.integers(5, 60), st.booleans()), min_size=1, max_size=7),
    bounds=st.sampled_from([(1, 300), (3, 150), (8, 60)]),
    new_size=st.integers(5, 120),
)
def test_pruning_removes_exactly_the_shortest_oldest_prefix_that_fits(
    harness: Harness, existing: list[tuple[int, bool]], bounds: tuple[int, int], new_size: int
) -> None:
    """Against a model: expired unread rows go oldest first, only as many as the put needs, and
    none when even all of them would not make it fit."""
    seed = harness.make(Limits(rows=10, content_bytes=10**4))
    for record in seed.export():  # each example starts from an empty corpus
        seed.delete(record.key)
    live: list[tuple[int, int, bool]] = []  # id, size, expires
    for i, (size, read) in enumerate(existing):
        key = seed.put(f"{i:02d}" + "x" * (size - 2)).memory.key
        if read:
            seed.read([key.id])
        live.append((key.id, size, not read))
        harness.clock.advance(1)
    harness.clock.advance(seed.limits.probation_ms)
    row_limit, byte_limit = bounds
    rows_over = len(live) + 1 - row_limit
    bytes_over = sum(size for _, size, _ in live) + new_size - byte_limit
    expired = [(id_, size) for id_, size, expires in live if expires]
    removed: list[int] = []
    while (len(removed) < rows_over or sum(s for i, s in expired if i in removed) < bytes_over) and len(removed) < len(expired):
        removed.append(expired[len(removed)][0])
    fits = len(removed) >= rows_over and sum(s for i, s in expired if i in removed) >= bytes_over
    store = harness.make(Limits(rows=row_limit, content_bytes=byte_limit))
    if fits:
        new = store.put("zz" + "y" * (new_size - 2)).memory.key.id
        assert {r.key.id for r in store.export()} == ({i for i, _, _ in live} - set(removed)) | {new}
    else:
        with pytest.raises((errors.RecordCapacity, errors.ContentCapacity)):
            store.put("zz" + "y" * (new_size - 2))
        assert {r.key.id for r in store.export()} == {i for i, _, _ in live}
