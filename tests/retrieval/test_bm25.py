"""Tests for tact_memory.retrieval.bm25: BM25 scores, ordering, abstention and the sync cache."""

from __future__ import annotations

import ast
import math
import os
import subprocess
import sys
from collections.abc import Callable

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from tact_memory.retrieval import bm25
from tact_memory.retrieval.bm25 import Hit, Index
from tact_memory.retrieval.lexer import STOP_WORDS

# Tiny corpus, lengths 2, 3 and 1 (average 2); fold=False keeps the terms exactly as written.
TINY = [(1, 1, "apple banana"), (2, 1, "apple apple cherry"), (3, 1, "banana")]


def tiny_index() -> Index:
    index = Index(fold=False)
    index.sync(TINY)
    return index


def scores(hits: list[Hit]) -> dict[int, float]:
    return {hit.id: hit.score for hit in hits}


def test_single_term_scores_match_hand_computation() -> None:
    # df(apple) = 2 of N = 3, so IDF = ln(1 + 1.5 / 2.5) = ln 1.6.
    # Doc 1: tf 1, length 2 -> norm 1.2 * (0.25 + 0.75 * 2/2) = 1.2;  1 * 2.2 / 2.2 = 1.
    # Doc 2: tf 2, length 3 -> norm 1.2 * (0.25 + 0.75 * 3/2) = 1.65; 2 * 2.2 / 3.65.
    hits = tiny_index().search("apple", limit=5)
    assert [hit.id for hit in hits] == [2, 1]
    assert hits[0].score == pytest.approx(math.log(1.6) * 4.4 / 3.65, rel=1e-12)
    assert hits[1].score == pytest.approx(math.log(1.6), rel=1e-12)
    assert hits[0].score == pytest.approx(0.566580, abs=1e-6)


def test_terms_add_up_and_missing_terms_do_not_veto() -> None:
    # Doc 3: banana, tf 1, length 1 -> norm 1.2 * (0.25 + 0.75 / 2) = 0.75; 2.2 / 1.75.
    hits = tiny_index().search("apple banana durian", limit=5)
    assert [hit.id for hit in hits] == [1, 3, 2]
    expected = {
        1: 2 * math.log(1.6),
        3: math.log(1.6) * 2.2 / 1.75,
        2: math.log(1.6) * 4.4 / 3.65,
    }
    assert scores(hits) == pytest.approx(expected, rel=1e-12)


def test_query_terms_are_a_set() -> None:
    index = tiny_index()
    assert index.search("apple apple APPLE", limit=5) == index.search("apple", limit=5)


def test_a_term_in_every_record_still_scores() -> None:
    index = Index(fold=False)
    index.sync([(1, 1, "shared one"), (2, 1, "shared two")])
    hits = index.search("shared", limit=5)
    # IDF = ln(1 + 0.5 / 2.5) = ln 1.2: positive, not zero or negative as in classic BM25.
    assert [hit.id for hit in hits] == [1, 2]
    assert hits[0].score == pytest.approx(math.log(1.2))


def test_ties_break_by_id() -> None:
    index = Index()
    index.sync([(9, 1, "same words here"), (2, 1, "same words here"), (5, 1, "same words here")])
    hits = index.search("words", limit=5)
    assert [hit.id for hit in hits] == [2, 5, 9]
    assert len({hit.score for hit in hits}) == 1


def test_records_without_a_shared_term_are_dropped() -> None:
    hits = tiny_index().search("cherry", limit=5)
    assert [hit.id for hit in hits] == [2]
    assert all(hit.score > 0 for hit in hits)


@pytest.mark.parametrize("query", ["", "   ", "?!", "what should we do about it?", "durian"])
def test_no_searchable_or_shared_term_abstains(query: str) -> None:
    assert tiny_index().search(query, limit=5) == []


def test_limit_is_respected() -> None:
    index = Index()
    index.sync([(i, 1, f"deploy note {i}") for i in range(1, 21)])
    assert len(index.search("deploy", limit=5)) == 5
    assert [hit.id for hit in index.search("deploy", limit=3)] == [1, 2, 3]
    assert index.search("deploy", limit=0) == []
    with pytest.raises(ValueError):
        index.search("deploy", limit=-1)


def test_stop_words_and_folding_follow_the_options() -> None:
    docs = [(1, 1, "what the team deploys")]
    default, plain, literal = Index(), Index(stop_words=False), Index(fold=False)
    for index in (default, plain, literal):
        index.sync(docs)
    assert default.search("what", limit=5) == []
    assert [hit.id for hit in plain.search("what", limit=5)] == [1]
    assert [hit.id for hit in default.search("deployed", limit=5)] == [1]
    assert literal.search("deployed", limit=5) == []


def test_invalid_parameters_are_refused() -> None:
    with pytest.raises(ValueError):
        Index(k1=-1)
    with pytest.raises(ValueError):
        Index(b=1.5)


# --- sync and its cache ---------------------------------------------------------------------


def test_resync_with_same_versions_does_not_retokenize() -> None:
    index = tiny_index()
    assert index.tokenizations == 3
    assert len(index) == 3
    index.sync(TINY)
    index.sync(reversed(TINY))
    assert index.tokenizations == 3
    index.search("apple banana", limit=5)
    assert index.tokenizations == 3


def test_a_new_version_retokenizes_only_that_record() -> None:
    index = tiny_index()
    index.sync([(1, 1, "apple banana"), (2, 2, "durian"), (3, 1, "banana")])
    assert index.tokenizations == 4
    assert [hit.id for hit in index.search("apple", limit=5)] == [1]
    assert [hit.id for hit in index.search("durian", limit=5)] == [2]
    assert index.search("cherry", limit=5) == []


def test_the_version_not_the_content_decides_reuse() -> None:
    index = tiny_index()
    # Same version, different content: the cached terms stand, as a version is immutable.
    index.sync([(1, 1, "something else entirely"), (2, 1, "x"), (3, 1, "y")])
    assert index.tokenizations == 3
    assert [hit.id for hit in index.search("banana", limit=5)] == [3, 1]


def test_removed_records_disappear_and_statistics_follow() -> None:
    index = tiny_index()
    index.sync([(1, 1, "apple banana"), (3, 1, "banana")])
    assert len(index) == 2
    assert index.tokenizations == 3
    assert [hit.id for hit in index.search("apple cherry", limit=5)] == [1]
    # N = 2, df(apple) = 1: IDF = ln(1 + 1.5 / 1.5) = ln 2; average length 1.5.
    norm = 1.2 * (0.25 + 0.75 * 2 / 1.5)
    assert index.search("apple", limit=5)[0].score == pytest.approx(math.log(2) * 2.2 / (1 + norm))
    index.sync([])
    assert len(index) == 0
    assert index.search("banana", limit=5) == []


def test_duplicate_ids_in_one_sync_are_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        Index().sync([(1, 1, "a"), (1, 2, "b")])


def test_empty_records_are_harmless() -> None:
    index = Index()
    index.sync([(1, 1, ""), (2, 1, "...")])
    assert index.search("anything at all", limit=5) == []
    index.sync([(1, 1, ""), (2, 1, "..."), (3, 1, "deploy")])
    assert [hit.id for hit in index.search("deploy", limit=5)] == [3]


WORDS = ["deploy", "deploys", "cache", "billing", "kafka", "lint", "main", "the"]


@st.composite
def corpus_histories(draw: st.DrawFn) -> list[list[tuple[int, int, str]]]:
    """Successive corpus states where each (id, version) always has the same content."""
    content: dict[tuple[int, int], str] = {}
    history = []
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        versions = draw(
            st.dictionaries(
                st.integers(min_value=1, max_value=12),
                st.integers(min_value=1, max_value=3),
                max_size=10,
            )
        )
        for key in versions.items():
            if key not in content:
                content[key] = " ".join(draw(st.lists(st.sampled_from(WORDS), max_size=8)))
        history.append([(i, version, content[i, version]) for i, version in versions.items()])
    return history


@given(corpus_histories(), st.lists(st.sampled_from(WORDS), min_size=1, max_size=3))
def test_incremental_sync_ranks_like_a_fresh_index(
    history: list[list[tuple[int, int, str]]], query: list[str]
) -> None:
    incremental = Index()
    for state in history:
        incremental.sync(state)
        fresh = Index()
        fresh.sync(state)
        expected = fresh.search(" ".join(query), limit=5)
        got = incremental.search(" ".join(query), limit=5)
        assert [hit.id for hit in got] == [hit.id for hit in expected]
        assert [hit.score for hit in got] == pytest.approx([hit.score for hit in expected])


@given(corpus_histories(), st.lists(st.sampled_from(WORDS), min_size=1, max_size=3))
def test_applying_only_the_changes_ranks_like_a_full_sync(
    history: list[list[tuple[int, int, str]]], query: list[str]
) -> None:
    applied = Index()
    before: dict[int, tuple[int, str]] = {}
    for state in history:
        after = {i: (v, c) for i, v, c in state}
        changed = [(i, v, c) for i, (v, c) in after.items() if before.get(i, (None,))[0] != v]
        applied.apply(changed, [i for i in before if i not in after])
        before = after
        fresh = Index()
        fresh.sync(state)
        expected = fresh.search(" ".join(query), limit=5)
        got = applied.search(" ".join(query), limit=5)
        assert [(hit.id, hit.score) for hit in got] == [(hit.id, hit.score) for hit in expected]  # exactly
        assert len(applied) == len(state)


@given(corpus_histories(), st.lists(st.sampled_from(WORDS), min_size=1, max_size=3))
def test_a_new_set_of_shared_pairs_changes_no_ranking(history: list[list[tuple[int, int, str]]], query: list[str]) -> None:
    """Postings share their ``(frequency, length)`` tuples, and an index that has made too many
    starts a new set; with a set of two, that happens all the time, and nothing ranks differently."""
    small = Index()
    original = bm25._MAX_PAIRS
    bm25._MAX_PAIRS = 2
    try:
        for state in history:
            small.sync(state)
            small.search(" ".join(query), limit=5)  # makes postings, so later syncs update them
            fresh = Index()
            fresh.sync(state)
            expected = fresh.search(" ".join(query), limit=5)
            got = small.search(" ".join(query), limit=5)
            assert [(hit.id, hit.score) for hit in got] == [(hit.id, hit.score) for hit in expected]
            assert len(small._pairs) <= 2
    finally:
        bm25._MAX_PAIRS = original


def test_apply_tokenizes_only_what_changed_and_ignores_unknown_removals() -> None:
    index = Index()
    index.sync([(1, 1, "deploy billing"), (2, 1, "cache lint")])
    index.apply([(2, 1, "cache lint"), (3, 1, "kafka deploy")], [9])
    assert index.tokenizations == 3 and len(index) == 3
    index.apply(removals=[1])
    assert [hit.id for hit in index.search("deploy", limit=5)] == [3]


def test_a_full_corpus_searches_without_touching_records() -> None:
    index = Index()
    record = "In `repo-{0}`, deploys use make deploy-{0} and cache key {0}. " * 6
    index.sync((i, 1, record.format(i)) for i in range(1, 513))
    assert index.tokenizations == 512
    hits = index.search("how do we deploy repo-7?", limit=5)
    assert hits[0].id == 7
    assert index.tokenizations == 512


# --- stop words: abstention only ------------------------------------------------------------

READ_ONLY = [
    (1, 1, "replica is read-only"),
    (2, 1, "read replica"),
    (3, 1, "only deploy on weekdays"),
    (4, 1, "cache keys"),
]


def test_a_shared_stop_word_adds_weight_once_a_content_word_matched() -> None:
    index = Index()
    index.sync(READ_ONLY)
    # Without "only", the shorter record 2 wins on length; "only" lifts record 1 above it.
    assert [hit.id for hit in index.search("read replica", limit=5)] == [2, 1]
    assert [hit.id for hit in index.search("read-only replica", limit=5)] == [1, 2]


def test_a_record_sharing_only_stop_words_is_no_candidate() -> None:
    index = Index()
    index.sync(READ_ONLY)
    # Record 3 says "only" but shares no content term with the question.
    assert {hit.id for hit in index.search("is the replica read-only?", limit=5)} == {1, 2}
    assert index.search("only the", limit=5) == []


def test_stop_word_gains_are_bm25_gains() -> None:
    index = Index(fold=False)
    index.sync([(1, 1, "apple the"), (2, 1, "the"), (3, 1, "banana")])
    # N = 3, df(apple) = 1, df(the) = 2; every length is 2, 1 or 1 (average 4/3).
    norm = 1.2 * (0.25 + 0.75 * 2 / (4 / 3))
    gain = 2.2 / (1 + norm)
    expected = (math.log(1 + 2.5 / 1.5) + math.log(1 + 1.5 / 2.5)) * gain
    assert scores(index.search("the apple", limit=5)) == pytest.approx({1: expected})


CONTENT = ["deploy", "cache", "billing", "kafka", "replica", "read"]
STOPS = ["only", "the", "what", "should", "how", "with", "not", "just"]


@st.composite
def corpora(draw: st.DrawFn) -> list[tuple[int, int, str]]:
    records = draw(st.lists(st.lists(st.sampled_from(CONTENT + STOPS), max_size=8), max_size=8))
    return [(i, 1, " ".join(words)) for i, words in enumerate(records, start=1)]


@given(
    corpora(),
    st.lists(st.sampled_from(CONTENT), min_size=1, max_size=3),
    st.lists(st.sampled_from(STOPS), max_size=3),
    st.sampled_from(STOPS),
)
def test_adding_a_stop_word_never_lowers_a_candidate_score(
    corpus: list[tuple[int, int, str]], content: list[str], stops: list[str], extra: str
) -> None:
    index = Index()
    index.sync(corpus)
    query = " ".join(content + stops)
    before = scores(index.search(query, limit=len(corpus)))
    after = scores(index.search(f"{query} {extra}", limit=len(corpus)))
    # Stop words never make a record a candidate.
    assert after.keys() == before.keys()
    words = {doc_id: set(text.split()) for doc_id, _, text in corpus}
    for doc_id, score in before.items():
        assert words[doc_id] & set(content)
        if extra in words[doc_id] and extra not in stops:
            assert after[doc_id] > score
        else:
            assert after[doc_id] == pytest.approx(score)


@given(
    corpora(),
    st.lists(
        st.tuples(st.sampled_from(sorted(STOP_WORDS)), st.sampled_from([str.lower, str.upper, str.title])),
        max_size=6,
    ),
)
def test_a_query_of_stop_words_abstains(
    corpus: list[tuple[int, int, str]], words: list[tuple[str, Callable[[str], str]]]
) -> None:
    index = Index()
    index.sync([*corpus, (len(corpus) + 1, 1, " ".join(sorted(STOP_WORDS)))])
    query = " ".join(case(word) for word, case in words) + "?"
    assert index.search(query, limit=5) == []


TIED_IN_EXACT_ARITHMETIC = [[], ["bee"], ["ant", "ant"], ["ant", "ant", "bee", "bee", "bee"], ["ant", "bee"],
                            ["ant", "ant", "bee"], ["ant"] * 5 + ["bee"], ["ant", "bee"], ["ant"] * 5 + ["bee"]]  # fmt: skip
"""Records 2 (once in a record of 1 word) and 4 (three times in 5 words) score exactly alike for
``bee`` (average length 3: 2.2 / 1.6 = 6.6 / 4.8), but their floating-point sums differ in the
last bit, the longer one's upward."""


def test_records_that_tie_in_exact_arithmetic_are_ordered_by_id() -> None:
    index = Index(fold=False, stop_words=False)
    index.sync([(i, 1, " ".join(words)) for i, words in enumerate(TIED_IN_EXACT_ARITHMETIC, start=1)])
    hits = index.search("bee", limit=9)
    assert [hit.id for hit in hits][:2] == [2, 4]
    assert hits[0].score == pytest.approx(hits[1].score, rel=1e-12)
    assert [hit.id for hit in index.search("bee", limit=1)] == [2]


@given(
    st.lists(st.lists(st.sampled_from(["ant", "bee", "cat", "dog", "eel"]), max_size=6), max_size=12),
    st.lists(st.sampled_from(["ant", "bee", "cat", "dog", "eel", "fox"]), min_size=1, max_size=3),
    st.integers(min_value=0, max_value=7),
)
@example(TIED_IN_EXACT_ARITHMETIC, ["bee"], 1)
def test_search_is_textbook_bm25_best_first_ties_by_id(records: list[list[str]], query: list[str], limit: int) -> None:
    """Against BM25 computed from its definition: every record scored, all sorted, the first ``limit`` kept."""
    index = Index(fold=False, stop_words=False)
    index.sync([(i, 1, " ".join(words)) for i, words in enumerate(records, start=1)])
    k1, b = 1.2, 0.75
    average = sum(map(len, records)) / len(records) if records else 0
    expected: dict[int, float] = {}
    for term in dict.fromkeys(query):
        having = [i for i, words in enumerate(records, start=1) if term in words]
        idf = math.log(1 + (len(records) - len(having) + 0.5) / (len(having) + 0.5))
        for i in having:
            tf = records[i - 1].count(term)
            norm = k1 * (1 - b + b * len(records[i - 1]) / average)
            expected[i] = expected.get(i, 0.0) + idf * tf * (k1 + 1) / (tf + norm)
    # Rounded, so scores equal in exact arithmetic tie whatever order the sums were taken in.
    ranked = sorted(expected.items(), key=lambda item: (-round(item[1], 9), item[0]))[:limit]
    got = index.search(" ".join(query), limit=limit)
    assert [hit.id for hit in got] == [i for i, _ in ranked]
    assert [hit.score for hit in got] == pytest.approx([score for _, score in ranked], rel=1e-12)


TIE = """
import sys
from tact_memory.retrieval.bm25 import Index
index = Index(fold=False)
index.sync([(1, 1, "alpha bravo bravo bravo oscar"), (2, 1, "alpha bravo bravo bravo tango")])
print([(hit.id, repr(hit.score)) for hit in index.search("alpha bravo oscar tango", limit=5)])
"""


def test_a_tie_breaks_by_id_whatever_the_hash_seed() -> None:
    """Records 1 and 2 tie exactly (each shares alpha, bravo and one term that occurs once). Scores
    are summed in the same order in every process, so they come out equal to the bit and id 1 is
    first, whatever order the process's hash seed gives the query's set of terms."""

    seen = set()
    for seed in range(12):
        env = {**os.environ, "PYTHONHASHSEED": str(seed)}
        out = subprocess.run([sys.executable, "-c", TIE], env=env, capture_output=True, text=True, check=True).stdout
        seen.add(out)
    [only] = seen
    hits = ast.literal_eval(only)
    assert [id_ for id_, _ in hits] == [1, 2] and hits[0][1] == hits[1][1]


def test_a_class_name_is_found_by_the_part_the_shipped_tokenizer_gives() -> None:
    """``ipv4`` and ``oauth2`` find records that name ``ipaddress.IPv4Address`` and ``OAuth2Session``
    (an acronym split once made them ``i`` + ``pv4`` and ``o`` + ``auth2``, and the scans abstained)."""
    index = Index()
    index.sync([(1, 1, "Validate hosts with ipaddress.IPv4Address, never a regex"), (2, 1, "Sign in with OAuth2Session")])
    assert [hit.id for hit in index.search("ipv4 validation", limit=5)] == [1]
    assert [hit.id for hit in index.search("oauth2", limit=5)] == [2]
