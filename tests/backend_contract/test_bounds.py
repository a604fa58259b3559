"""Bounds (I8): bytes a record, rows, content in all; a refused mutation changes nothing."""

from __future__ import annotations

import pytest

from tact_memory import errors
from tact_memory.backend import MemoryBackend
from tact_memory.limits import Limits
from tact_memory.records import RecordKey

from .conftest import Harness, everything

pytestmark = pytest.mark.backend_contract


def fill(backend: MemoryBackend, n: int) -> list[RecordKey]:
    return [backend.put(f"fact number {i} about subsystem{i} in repository repo{i}").memory.key for i in range(n)]


@pytest.mark.release_gate
def test_the_record_bound_counts_utf8_bytes_not_characters(backend: MemoryBackend) -> None:
    limit = backend.limits.record_bytes
    assert backend.put("é" * (limit // 2)).memory.key.id >= 1  # exactly at the bound
    before = everything(backend)
    with pytest.raises(errors.ContentTooLarge) as info:
        backend.put("ü" * (limit // 2) + "x")
    assert info.value.details() == {"bytes": limit + 1, "limit": limit}
    assert everything(backend) == before


@pytest.mark.release_gate
def test_the_row_bound_refuses_and_delete_still_works(harness: Harness) -> None:
    backend = harness.make(Limits(rows=3))
    keys = fill(backend, 3)
    backend.read([k.id for k in keys])  # graduated: never evicted
    before = everything(backend)
    with pytest.raises(errors.RecordCapacity) as info:
        backend.put("one more fact about the cache layer")
    assert info.value.details() == {"limit": 3}
    assert everything(backend) == before
    backend.delete(keys[0])
    backend.put("one more fact about the cache layer")
    assert len(list(backend.export())) == 3


@pytest.mark.release_gate
def test_the_content_bound_counts_bytes_across_rows_and_growing_replacements(harness: Harness) -> None:
    backend = harness.make(Limits(content_bytes=100))
    first = backend.put("ä" * 40).memory.key  # 80 bytes
    backend.read([first.id])
    before = everything(backend)
    with pytest.raises(errors.ContentCapacity) as info:
        backend.put("b" * 21)
    assert info.value.details() == {"limit": 100}
    assert everything(backend) == before
    backend.put("b" * 20)
    with pytest.raises(errors.ContentCapacity):
        backend.put("ä" * 41, replace=first)  # growing: capacity-increasing too
    assert backend.put("c" * 80, replace=first).memory.key.version == 2  # same size: fits


@pytest.mark.release_gate
@pytest.mark.parametrize("content", ["", "   \n\t", "null\x00byte", "bell\x07", "lone \ud800 surrogate", 42, None])
def test_invalid_content_is_refused_and_changes_nothing(backend: MemoryBackend, content: object) -> None:
    backend.put("The cron job runs hourly")
    before = everything(backend)
    with pytest.raises(errors.InvalidArguments):
        backend.put(content)  # type: ignore[arg-type]
    assert everything(backend) == before


@pytest.mark.release_gate
def test_scan_returns_at_most_the_bound_with_utf8_safe_previews(backend: MemoryBackend) -> None:
    for i in range(8):
        backend.put(f"Deploy note {i}: the deploy script for service{i} needs ünïcödé flags — " + "x" * i * 10)
    cards = backend.scan("deploy script")
    assert len(cards) == backend.limits.scan_results
    for card in cards:
        preview = card.preview.encode("utf-8")
        assert len(preview) <= backend.limits.preview_bytes
        assert backend.get(card.key.id).content.encode("utf-8").startswith(preview)  # type: ignore[union-attr]
    assert len(backend.scan("deploy", limit=2)) == 2
    for limit in (0, backend.limits.scan_results + 1, True, "3"):
        with pytest.raises(errors.InvalidArguments):
            backend.scan("deploy", limit=limit)  # type: ignore[arg-type]


@pytest.mark.release_gate
def test_short_content_previews_in_full(backend: MemoryBackend) -> None:
    backend.put("Use uv, not pip, in the tools repo")
    assert backend.scan("uv tools")[0].preview == "Use uv, not pip, in the tools repo"


@pytest.mark.release_gate
def test_the_query_bound_is_in_bytes(backend: MemoryBackend) -> None:
    backend.put("alpha fact")
    limit = backend.limits.query_bytes
    at_bound = "alpha " + "é" * ((limit - 6) // 2)
    assert backend.scan(at_bound) != []
    with pytest.raises(errors.InvalidArguments, match=f"{limit + 1}"):
        backend.scan(at_bound + "x")


def test_status_counts_rows_bytes_probation_and_hidden_rows(backend: MemoryBackend, harness: Harness) -> None:
    """Usage in UTF-8 bytes over every live row, hidden ones included; on probation, every version
    not yet read that a model wrote; expired, those past their deadline."""
    status = backend.status()
    assert (status.rows, status.content_bytes, status.on_probation, status.expired_probation, status.hidden) == (0, 0, 0, 0, 0)
    contents = ["ünïcödé notes about the deploy", "the deploy window is Tuesday", "the staging host is slow"]
    backend.put(contents[0])
    backend.put(contents[1], probation=False)
    read = backend.put(contents[2]).memory.key
    backend.read([read.id])
    planted = "token: ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    harness.plant(backend, planted)
    status = backend.status()
    assert (status.rows, status.content_bytes) == (4, sum(len(c.encode("utf-8")) for c in [*contents, planted]))
    assert (status.on_probation, status.expired_probation, status.hidden) == (1, 0, 1)
    assert status.limits == backend.limits
    harness.clock.advance(backend.limits.probation_ms)
    status = backend.status()
    assert (status.on_probation, status.expired_probation) == (1, 1)
