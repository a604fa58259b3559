"""Versions and ids (I7): put makes version 1, replace adds one, stale versions are refused."""

from __future__ import annotations

import pytest

from tact_memory import errors
from tact_memory.backend import MemoryBackend
from tact_memory.records import RecordKey

from .conftest import Harness, everything

pytestmark = pytest.mark.backend_contract


def test_put_creates_version_one(backend: MemoryBackend, harness: Harness) -> None:
    result = backend.put("The docs site builds with mkdocs")
    assert result.replaced is False
    assert result.memory.key.version == 1
    assert result.memory.created_at_ms == result.memory.updated_at_ms == harness.clock.now
    assert backend.get(result.memory.key.id) == result.memory


def test_replace_increments_the_version_and_keeps_the_id_and_creation_time(
    backend: MemoryBackend, harness: Harness
) -> None:
    first = backend.put("The docs site builds with mkdocs").memory
    harness.clock.advance(1000)
    second = backend.put("The docs site builds with mkdocs-material 9", replace=first.key)
    assert second.replaced is True
    assert second.memory.key == RecordKey(first.key.id, 2)
    assert second.memory.created_at_ms == first.created_at_ms
    assert second.memory.updated_at_ms == harness.clock.now
    assert [r.key for r in backend.export()] == [second.memory.key]


@pytest.mark.release_gate
def test_stale_versions_are_refused_for_replace_and_delete(backend: MemoryBackend) -> None:
    key = backend.put("The queue worker retries three times").memory.key
    newer = backend.put("The queue worker retries five times", replace=key).memory.key
    before = everything(backend)
    with pytest.raises(errors.VersionConflict) as replace_info:
        backend.put("The queue worker retries seven times", replace=key)
    with pytest.raises(errors.VersionConflict) as delete_info:
        backend.delete(key)
    for info in (replace_info, delete_info):
        assert info.value.details() == {"id": key.id, "current_version": newer.version}
        assert info.value.code == "version_conflict"
    assert everything(backend) == before


def test_a_version_the_record_never_had_is_not_said_to_have_changed(backend: MemoryBackend) -> None:
    """A version below the current one was seen before the record changed; one above it never
    existed (a typing slip), and the refusal says so rather than "it changed since you saw it"."""
    key = backend.put("The queue worker retries three times").memory.key
    ahead = RecordKey(key.id, key.version + 4)
    before = everything(backend)
    with pytest.raises(errors.VersionConflict) as replace_info:
        backend.put("The queue worker retries seven times", replace=ahead)
    with pytest.raises(errors.VersionConflict) as delete_info:
        backend.delete(ahead)
    for info, doing in ((replace_info, "replacing"), (delete_info, "deleting")):
        assert info.value.message == (
            f"memory {key.id} has no version {key.version + 4}; it is at version {key.version}. "
            f"Read it again before {doing} it"
        )
        assert info.value.details() == {"id": key.id, "current_version": key.version}
    assert everything(backend) == before
    newer = backend.put("The queue worker retries five times", replace=key).memory.key
    with pytest.raises(errors.VersionConflict) as stale:
        backend.delete(key)
    assert stale.value.message == (
        f"memory {key.id} is at version {newer.version}, not {key.version}; it changed since you saw it. "
        "Read it again before deleting it"
    )


@pytest.mark.parametrize("id_", [0, -1, 2**63, 10**30, "1", 1.0, True])
def test_get_answers_none_for_an_id_no_record_can_have(backend: MemoryBackend, id_: object) -> None:
    backend.put("The cron job runs hourly")  # id 1, so "1", 1.0 and True would find it if coerced
    assert backend.get(id_) is None  # type: ignore[arg-type]


def test_unknown_ids_are_not_found(backend: MemoryBackend) -> None:
    backend.put("The cron job runs hourly")
    before = everything(backend)
    with pytest.raises(errors.NotFound):
        backend.put("The cron job runs daily", replace=RecordKey(99, 1))
    with pytest.raises(errors.NotFound):
        backend.delete(RecordKey(99, 1))
    assert backend.get(99) is None
    assert everything(backend) == before


def test_ids_are_never_reused(backend: MemoryBackend) -> None:
    first = backend.put("The cron job runs hourly").memory.key
    backend.delete(first)
    second = backend.put("The cron job runs daily").memory.key
    assert second.id != first.id
    assert backend.get(first.id) is None


@pytest.mark.parametrize("key", [RecordKey(0, 1), RecordKey(1, 0), RecordKey(-1, 1), RecordKey(2**63, 1)])
def test_keys_out_of_range_are_invalid_arguments(backend: MemoryBackend, key: RecordKey) -> None:
    backend.put("The cron job runs hourly")
    before = everything(backend)
    with pytest.raises(errors.InvalidArguments):
        backend.delete(key)
    with pytest.raises(errors.InvalidArguments):
        backend.put("The cron job runs daily", replace=key)
    assert everything(backend) == before


@pytest.mark.parametrize("key", [RecordKey(1, 0), RecordKey(0, 1), RecordKey(2**63, 1)])
def test_a_put_checks_its_content_before_the_key_it_replaces(backend: MemoryBackend, key: RecordKey) -> None:
    """Content a put could never store is refused as such, whatever key it names."""
    backend.put("The cron job runs hourly")
    before = everything(backend)
    secret = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    with pytest.raises(errors.ContentTooLarge):
        backend.put("The cron job " + "runs hourly " * 200, replace=key)
    with pytest.raises(errors.SecretRejected):
        backend.put(f"The deploy token for ci is {secret}", replace=key)
    assert everything(backend) == before


def test_two_stores_on_one_corpus_see_each_others_writes(harness: Harness) -> None:
    mine, other = harness.make(), harness.make()
    key = mine.put("In the `commonware` repository, release tags use vX.Y.Z").memory.key
    assert [c.key for c in other.scan("commonware release tags")] == [key]
    newer = other.put("In the `commonware` repository, release tags use vX.Y.Z-rcN for candidates", replace=key)
    with pytest.raises(errors.VersionConflict):
        mine.delete(key)
    mine.delete(newer.memory.key)
    assert list(other.export()) == []


@pytest.mark.parametrize("ids", [[[1]], [{"a": 1}], [1, [2]], [{1}]])
def test_read_refuses_an_id_that_is_not_an_integer_even_an_unhashable_one(backend: MemoryBackend, ids: list[object]) -> None:
    backend.put("The cron job runs hourly")
    with pytest.raises(errors.InvalidArguments):
        backend.read(ids)  # type: ignore[arg-type]


def test_a_replacement_starts_its_own_telemetry(backend: MemoryBackend, harness: Harness) -> None:
    """Scan and read counts and times belong to a version, as probation does: the new version of a
    record that was scanned and read starts unscanned and unread (as in the shipped version)."""
    first = backend.put("The docs site builds with mkdocs").memory
    assert [c.key for c in backend.scan("docs site mkdocs")] == [first.key]
    backend.read([first.key.id])
    read = backend.get(first.key.id)
    assert read is not None and (read.scan_count, read.read_count) == (1, 1)
    harness.clock.advance(1000)
    second = backend.put("The docs site builds with mkdocs-material 9", replace=first.key).memory
    for record in (second, backend.get(first.key.id)):
        assert record is not None and record.key.version == 2
        assert (record.scan_count, record.last_scanned_at_ms, record.read_count, record.last_read_at_ms) == (0, None, 0, None)


def test_the_tool_takes_a_key_back_as_the_store_showed_it(backend: MemoryBackend) -> None:
    """A model copies a key whole from a card or record into its replace or delete: the key as
    this backend shows it (with a team store's namespace, without one for a local store) is taken
    back unchanged, through the tool's JSON, and names the same record."""
    from tact_memory.tool.guard import Dispatcher, Role

    tool = Dispatcher(backend, role=Role.ROOT)
    tool.call({"operation": "scan", "query": "queue worker"})
    first = tool.call({"operation": "put", "content": "The queue worker retries three times"})["memory"]["key"]
    [card] = tool.call({"operation": "scan", "query": "queue worker retries"})["candidates"]
    assert card["key"] == first
    [record] = tool.call({"operation": "read", "ids": [first["id"]]})["memories"]
    assert record["key"] == first
    replaced = tool.call({"operation": "put", "content": "The queue worker retries five times", "replace": card["key"]})
    assert replaced["replaced"] is True and replaced["memory"]["key"] == {**first, "version": 2}
    deleted = tool.call({"operation": "delete", **replaced["memory"]["key"]})
    assert "error" not in deleted, deleted
    assert backend.get(first["id"]) is None
