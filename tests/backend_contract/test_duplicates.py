"""Duplicates: content equal after case and white-space folding is refused and names the record."""

from __future__ import annotations

import pytest

from tact_memory import errors
from tact_memory.backend import MemoryBackend
from tact_memory.limits import Limits

from .conftest import Harness, everything

pytestmark = pytest.mark.backend_contract

ORIGINAL = "In the `api` repository, run `make lint` before pushing"


@pytest.mark.parametrize(
    "variant",
    [ORIGINAL, ORIGINAL.upper(), "  " + ORIGINAL.replace(" ", "\n\t ") + "  ", ORIGINAL.replace(" ", "   ")],
)
def test_a_folded_duplicate_is_refused_and_names_the_existing_key(backend: MemoryBackend, variant: str) -> None:
    key = backend.put(ORIGINAL).memory.key
    before = everything(backend)
    with pytest.raises(errors.Duplicate) as info:
        backend.put(variant)
    assert info.value.details() == {"key": {"id": key.id, "version": key.version}}
    assert everything(backend) == before


def test_replacing_a_record_with_a_case_fix_is_not_a_duplicate_of_itself(backend: MemoryBackend) -> None:
    key = backend.put(ORIGINAL).memory.key
    assert backend.put(ORIGINAL.replace("In the", "in the"), replace=key).memory.key.version == 2


def test_a_replacement_that_duplicates_another_record_is_refused(backend: MemoryBackend) -> None:
    backend.put(ORIGINAL)
    other = backend.put("The `web` repository deploys on merge").memory.key
    before = everything(backend)
    with pytest.raises(errors.Duplicate):
        backend.put(ORIGINAL.lower(), replace=other)
    assert everything(backend) == before


def test_different_words_are_not_duplicates(backend: MemoryBackend) -> None:
    backend.put(ORIGINAL)
    backend.put(ORIGINAL + " and `make test`")
    assert len(list(backend.export())) == 2


def test_a_duplicate_is_named_even_at_the_row_bound_and_a_stale_key_before_a_duplicate(harness: Harness) -> None:
    """A put refused for more than one reason names the one its caller can act on: the record to
    replace rather than the full store, and the version that moved rather than the duplicate."""
    backend = harness.make(Limits(rows=2))
    key = backend.put(ORIGINAL).memory.key
    other = backend.put("The `web` repository deploys on merge").memory.key
    with pytest.raises(errors.Duplicate) as info:
        backend.put(ORIGINAL.upper())
    assert info.value.details() == {"key": {"id": key.id, "version": key.version}}
    newer = backend.put(ORIGINAL + " and `make test`", replace=key).memory.key
    before = everything(backend)
    with pytest.raises(errors.VersionConflict) as conflict:
        backend.put("the `WEB` repository deploys on merge", replace=key)
    assert conflict.value.details() == {"id": key.id, "current_version": newer.version}
    assert everything(backend) == before and {r.key for r in backend.export()} == {newer, other}


def test_a_replacement_that_changes_nothing_is_refused_and_keeps_the_record_as_it_was(backend: MemoryBackend) -> None:
    """A new version starts probation with no reads; the same text again would put a record that
    was read back on the way to pruning while saying nothing new."""
    key = backend.put(ORIGINAL).memory.key
    assert [r.key for r in backend.read([key.id])] == [key]  # read: out of probation
    before = everything(backend)
    with pytest.raises(errors.Duplicate) as info:
        backend.put(ORIGINAL, replace=key)
    assert info.value.details() == {"key": {"id": key.id, "version": key.version}}
    assert "already says exactly this" in info.value.message
    assert everything(backend) == before
    # any change, a case fix or a space included, is a replacement
    assert backend.put(ORIGINAL + " ", replace=key).memory.key.version == 2
