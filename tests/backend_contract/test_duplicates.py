"""Duplicates: content equal after case and white-space folding is refused and names the record."""

from __future__ import annotations

import pytest

from tact_memory import errors
from tact_memory.records import MemoryBackend

from .conftest import everything

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
