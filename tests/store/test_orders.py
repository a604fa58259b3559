"""One definition of the listing orders: the SQL ORDER BY and a Python sort agree on it."""

from __future__ import annotations

from pathlib import Path
from typing import get_args

from tact_memory.records import BROWSABLE_ORDERS, ORDERS, RecordOrder, order_key
from tact_memory.store.sqlite import MemoryStore

from ..conftest import FakeClock


def test_the_orders_are_the_record_order_names() -> None:
    assert tuple(ORDERS) == get_args(RecordOrder)
    assert set(BROWSABLE_ORDERS) < set(ORDERS) and BROWSABLE_ORDERS[0] == "most_useful"
    assert all(keys[-1][0] == "id" for keys in ORDERS.values())  # no two records tie


def test_the_store_lists_in_the_order_a_python_sort_gives(db_path: Path, clock: FakeClock) -> None:
    with MemoryStore(db_path, clock=clock) as store:
        for i in range(6):
            store.put(f"fact {i} about subsystem {i}")
            clock.advance(1_000 if i % 2 else 0)  # some share an update time
        store.read([2, 5])
        store.read([5])
        store.read([4])
        for order in ORDERS:
            listed = store.list_records(order=order)
            assert listed == sorted(listed, key=order_key(order)), order
        assert [r.key.id for r in store.list_records(order="most_useful")] == [5, 4, 2, 6, 3, 1]
        assert [r.key.id for r in store.list_records(order="oldest")] == [1, 2, 3, 4, 5, 6]
