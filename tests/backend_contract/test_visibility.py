"""Visibility (I11): a secret is never stored and never echoed; a row that screens as a secret or
imitates control text (planted, or stored before a rule existed) is hidden from scan and read but
listed for people, counted by status, and deletable."""

from __future__ import annotations

import pytest

from tact_memory import errors
from tact_memory.records import MemoryBackend

from .conftest import Harness, everything

pytestmark = pytest.mark.backend_contract

SECRET = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


@pytest.mark.release_gate
def test_a_secret_put_is_refused_without_echoing_the_value(backend: MemoryBackend) -> None:
    key = backend.put("The staging cluster is named aurora").memory.key
    before = everything(backend)
    for attempt in (
        lambda: backend.put(f"The deploy token for ci is {SECRET}"),
        lambda: backend.put(f"The deploy token for ci is {SECRET}", replace=key),
    ):
        with pytest.raises(errors.SecretRejected) as info:
            attempt()
        text = str(info.value) + repr(info.value.details())
        assert SECRET not in text and SECRET[4:20] not in text
    assert everything(backend) == before


@pytest.mark.parametrize("planted", [f"password = {SECRET}", "token: " + SECRET])
def test_a_planted_secret_row_is_hidden_listed_and_deletable(
    backend: MemoryBackend, harness: Harness, planted: str
) -> None:
    visible = backend.put("The staging cluster is named aurora").memory.key
    hidden = harness.plant(backend, planted)
    query = "password token staging aurora " + SECRET
    assert [c.key for c in backend.scan(query)] == [visible]
    assert [r.key for r in backend.read([visible.id, hidden])] == [visible]
    listed = {r.key.id: r for r in backend.list_records()}
    assert hidden in listed
    assert backend.hidden_reason(listed[hidden]) is not None
    assert backend.hidden_reason(listed[visible.id]) is None
    assert backend.status().hidden == 1
    assert listed[hidden].scan_count == listed[hidden].read_count == 0  # never served, never counted
    backend.delete(listed[hidden].key)
    assert backend.status().hidden == 0
