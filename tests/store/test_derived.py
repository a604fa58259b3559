"""The stored form of what a row derives: a term that cannot round-trip is never kept."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from tact_memory.store import derived as stored

TERMS = st.dictionaries(st.text(max_size=6), st.integers(min_value=1, max_value=4), max_size=8).map(Counter)


@given(terms=TERMS)
def test_terms_are_kept_exactly_when_each_is_one_run_without_whitespace(terms: Counter[str]) -> None:
    keepable = all(term and not any(c.isspace() for c in term) for term in terms)
    text = stored.encode(3, stored.Derived(None, bytes(16), terms))
    assert (text is not None) == keepable
    if text is not None:
        back = stored.decode(text, 3)
        assert back is not None and back.hidden is None and back.duplicate == bytes(16)
        assert Counter(back.terms.split()) == terms  # type: ignore[union-attr]
        assert stored.decode(text, 4) is None  # stamped with the version it was derived for
