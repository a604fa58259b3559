"""Telemetry (I10): scans and reads are counted apart, only for what was returned; people's views
(get, list, export, status) count nothing."""

from __future__ import annotations

import pytest

from tact_memory import errors
from tact_memory.backend import MemoryBackend
from tact_memory.records import ORDERS, order_key

from .conftest import Harness, everything

pytestmark = pytest.mark.backend_contract


def test_scan_and_read_telemetry_are_separate(backend: MemoryBackend, harness: Harness) -> None:
    a = backend.put("The frontend repository uses pnpm workspaces").memory.key
    b = backend.put("The backend repository uses poetry for dependencies").memory.key
    harness.clock.advance(5)
    assert [c.key for c in backend.scan("pnpm frontend")] == [a]
    first, second = backend.get(a.id), backend.get(b.id)
    assert first is not None and second is not None
    assert (first.scan_count, first.last_scanned_at_ms) == (1, harness.clock.now)
    assert (first.read_count, first.last_read_at_ms) == (0, None)
    assert first.probation_until_ms is not None  # a scan is not a read
    assert (second.scan_count, second.read_count) == (0, 0)  # not returned: untouched
    harness.clock.advance(5)
    [record] = backend.read([a.id])
    assert (record.read_count, record.last_read_at_ms, record.scan_count) == (1, harness.clock.now, 1)


def test_a_scan_counts_only_the_cards_it_returns_not_every_match(backend: MemoryBackend, harness: Harness) -> None:
    """Records that match the query but fall outside the scan's ``limit`` are not shown, so their
    scan count and time stay as they were."""
    keys = [
        backend.put(f"The deploy service number {n} listens on port {8000 + n}").memory.key for n in range(1, 5)
    ]
    harness.clock.advance(5)
    [card] = backend.scan("deploy service port", limit=1)
    by_id = {record.key.id: record for record in backend.export()}
    assert (by_id[card.key.id].scan_count, by_id[card.key.id].last_scanned_at_ms) == (1, harness.clock.now)
    others = [by_id[key.id] for key in keys if key.id != card.key.id]
    assert len(others) == 3
    assert [(r.scan_count, r.last_scanned_at_ms) for r in others] == [(0, None)] * 3
    harness.clock.advance(5)
    cards = backend.scan("deploy service port", limit=3)
    counts = {record.key.id: record.scan_count for record in backend.export()}
    assert len(cards) == 3
    assert sum(counts.values()) == 1 + 3
    assert all(counts[c.key.id] >= 1 for c in cards)


def test_abstaining_and_failed_operations_fabricate_no_hits(backend: MemoryBackend) -> None:
    backend.put("The frontend repository uses pnpm workspaces")
    before = everything(backend)
    assert backend.scan("what should I do next?") == []
    assert backend.scan("kubernetes helm") == []
    with pytest.raises(errors.InvalidArguments):
        backend.scan("pnpm " * 200)
    assert backend.read([42]) == []
    with pytest.raises(errors.InvalidArguments):
        backend.read([])
    assert everything(backend) == before


def test_peoples_views_change_no_telemetry(backend: MemoryBackend) -> None:
    key = backend.put("The user wants commit messages in the imperative mood").memory.key
    backend.scan("commit messages")
    before = everything(backend)
    backend.get(key.id)
    backend.status()
    list(backend.export())
    for order in ("most_useful", "newest", "oldest", "least_useful", "id"):
        backend.list_records(order=order)  # type: ignore[arg-type]
    assert everything(backend) == before


def test_read_deduplicates_in_first_seen_order_and_omits_missing(backend: MemoryBackend) -> None:
    ids = [backend.put(f"fact {i} about subsystem{i}").memory.key.id for i in range(3)]
    records = backend.read([ids[2], ids[0], ids[2], 999, ids[0], ids[1]])
    assert [r.key.id for r in records] == [ids[2], ids[0], ids[1]]
    assert all(r.read_count == 1 for r in records)
    for bad in ([0], [-1], [True], ["1"], [2**63]):
        with pytest.raises(errors.InvalidArguments):
            backend.read(bad)  # type: ignore[arg-type]


def test_listing_orders(backend: MemoryBackend, harness: Harness) -> None:
    keys = []
    for i in range(3):
        keys.append(backend.put(f"fact {i} about subsystem{i}").memory.key)
        harness.clock.advance(10)
    backend.read([keys[0].id, keys[0].id])
    backend.read([keys[0].id])
    backend.read([keys[2].id])
    ids = {order: [r.key.id for r in backend.list_records(order=order)] for order in ("most_useful", "least_useful", "newest", "oldest", "id")}  # type: ignore[arg-type]
    a, b, c = (k.id for k in keys)
    assert ids["most_useful"] == [a, c, b]
    assert ids["least_useful"] == [b, c, a]
    assert ids["newest"] == [c, b, a]
    assert ids["oldest"] == [a, b, c]
    assert ids["id"] == [a, b, c] == [r.key.id for r in backend.export()]
    with pytest.raises(errors.InvalidArguments):
        backend.list_records(order="random")  # type: ignore[arg-type]


def test_every_listing_order_is_the_one_the_orders_define_ties_included(backend: MemoryBackend, harness: Harness) -> None:
    """Records sharing an update time, or a read count, fall back to the next key of the order,
    as a Python sort by :func:`order_key` gives; with nothing read yet, the most useful are the
    newest."""
    ids = []
    for i in range(6):
        ids.append(backend.put(f"fact {i} about subsystem {i}").memory.key.id)
        harness.clock.advance(1_000 if i % 2 else 0)  # some share an update time
    newest = [r.key.id for r in backend.list_records(order="newest")]
    assert [r.key.id for r in backend.list_records(order="most_useful")] == newest == ids[::-1]
    assert [r.key.id for r in backend.list_records(order="least_useful")] == ids
    backend.read([ids[1], ids[4]])
    backend.read([ids[4]])
    backend.read([ids[3]])
    for order in ORDERS:
        listed = backend.list_records(order=order)
        assert listed == sorted(listed, key=order_key(order)), order
    a, b, c, d, e, f = ids
    assert [r.key.id for r in backend.list_records(order="most_useful")] == [e, d, b, f, c, a]
    assert [r.key.id for r in backend.list_records(order="oldest")] == ids


def test_a_scan_counts_only_records_still_at_the_version_it_ranked(harness: Harness) -> None:
    """Another store replaces one candidate and deletes another after the scan ranked them and
    before it counts them: the cards are as ranked, and only the untouched record is counted (the
    new version does not inherit the scan of a card that showed the old one)."""
    backend, other = harness.make(), harness.make()
    replaced = backend.put("The deploy service number one listens on port 8001").memory.key
    deleted = backend.put("The deploy service number two listens on port 8002").memory.key
    kept = backend.put("The deploy service number three listens on port 8003").memory.key

    def meanwhile() -> None:
        other.put("The deploy service number one moved to port 9001", replace=replaced)
        other.delete(deleted)

    with harness.after_ranking(backend, meanwhile):
        cards = backend.scan("deploy service port")
    assert sorted(card.key.id for card in cards) == sorted([replaced.id, deleted.id, kept.id])
    assert all(card.key.version == 1 for card in cards)  # ranked from what it had read
    by_id = {record.key.id: record for record in other.export()}
    assert deleted.id not in by_id
    assert (by_id[replaced.id].key.version, by_id[replaced.id].scan_count) == (2, 0)
    assert by_id[kept.id].scan_count == 1
