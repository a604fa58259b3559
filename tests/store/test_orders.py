"""One definition of the listing orders; tests/backend_contract holds every store to it."""

from __future__ import annotations

from typing import get_args

from tact_memory.backend import RecordOrder
from tact_memory.records import BROWSABLE_ORDERS, ORDERS


def test_the_orders_are_the_record_order_names() -> None:
    assert tuple(ORDERS) == get_args(RecordOrder)
    assert set(BROWSABLE_ORDERS) < set(ORDERS) and BROWSABLE_ORDERS[0] == "most_useful"
    assert all(keys[-1][0] == "id" for keys in ORDERS.values())  # no two records tie
