"""Tests for tact_memory.retrieval.lexer: tokenizer, stop words, folding, previews and duplicate keys."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from tact_memory.retrieval import lexer as text
from tact_memory.retrieval.lexer import (
    STOP_WORDS,
    document_terms,
    first_open_bidi,
    fold_for_duplicate,
    fold_word,
    preview,
    query_terms,
    split_query,
    utf8_size,
)

# Two letters at least: "aAB" is ambiguous between a, a, b and a, ab.
ascii_words = st.from_regex(r"[a-z]{2,12}", fullmatch=True)

# --- utf8_size and preview ------------------------------------------------------------------


@given(st.text())
def test_utf8_size_counts_bytes(value: str) -> None:
    assert utf8_size(value) == len(value.encode("utf-8"))


def test_utf8_size_rejects_lone_surrogate() -> None:
    with pytest.raises(ValueError, match="surrogate"):
        utf8_size("ok \ud800 no")


@given(st.text(), st.integers(min_value=0, max_value=80))
def test_preview_is_the_longest_fitting_prefix(content: str, limit: int) -> None:
    result = preview(content, limit)
    assert content.startswith(result)
    assert utf8_size(result) <= limit
    if utf8_size(content) <= limit:
        assert result == content
    else:
        # Maximal: one more code point would not fit.
        assert utf8_size(content[: len(result) + 1]) > limit


@given(st.text())
def test_preview_default_is_64_bytes(content: str) -> None:
    assert preview(content) == preview(content, 64)


def test_preview_never_splits_a_code_point() -> None:
    content = "a" * 62 + "é" + "€"  # é is 2 bytes (62..63), € is 3 bytes and would cross 64
    assert preview(content) == "a" * 62 + "é"
    assert preview("€" * 30) == "€" * 21  # 63 bytes; a 22nd would need 66
    assert preview("short") == "short"


PDF, PDI = "\u202c", "\u2069"


def leaves_a_run_open(text: str) -> bool:
    """Whether ``text`` ends inside a bidi run, by reducing matched pairs (independent of the code)."""
    last = re.split("[\n\r\x1c-\x1e\x85\u2029]", text)[-1]
    kinds = {**dict.fromkeys("\u202a\u202b\u202d\u202e", "E"), **dict.fromkeys("\u2066\u2067\u2068", "I")}
    tokens = "".join(kinds.get(ch) or {PDF: "p", PDI: "q"}.get(ch, "") for ch in last)
    while True:
        reduced = tokens.replace("Ep", "").replace("Ip", "I")  # PDF closes E, not across I
        reduced = re.sub("I[Ep]*q", "", reduced)  # PDI closes its isolate and what it holds
        reduced = re.sub("^([^I]*)q", r"\1", re.sub("^p", "", reduced))  # unmatched closers
        if reduced == tokens:
            return bool(tokens.strip("pq"))
        tokens = reduced


def test_the_reference_nests_runs_as_uax9() -> None:
    assert not leaves_a_run_open("\u202eab" + PDF)
    assert leaves_a_run_open("\u202eab")
    assert not leaves_a_run_open("\u202e\u2067" + PDF + PDI + PDF)  # PDF inside the isolate is ignored
    assert not leaves_a_run_open("\u2067\u202e" + PDI)  # PDI closes the override it holds
    assert leaves_a_run_open("\u202e" + PDI)  # an unmatched PDI closes nothing
    assert not leaves_a_run_open("\u202e\u2067x\nplain")  # a paragraph break closes everything


BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200f"


@given(st.text(alphabet=st.sampled_from(["a", "é", "€", "😀", "\n", *BIDI])), st.integers(0, 80))
def test_a_cut_preview_leaves_no_bidi_run_open(content: str, limit: int) -> None:
    result = preview(content, limit)
    assert content.startswith(result)
    assert utf8_size(result) <= limit
    if utf8_size(content) <= limit:
        assert result == content  # fitting content is the record, whole
        return
    assert not leaves_a_run_open(result)
    # The longest such prefix: every longer prefix that fits leaves a run open.
    fitting = content.encode()[:limit].decode(errors="ignore")
    for end in range(len(result) + 1, len(fitting) + 1):
        assert leaves_a_run_open(content[:end]), end


def test_a_preview_ends_before_an_unclosed_run() -> None:
    override = "\u202e"  # RIGHT-TO-LEFT OVERRIDE: what follows it is drawn backwards
    content = "run " + override + "txt.exe" + "x" * 80 + PDF
    assert preview(content) == "run "
    closed = "run " + override + "txt" + PDF + " then " + "x" * 80
    assert preview(closed) == (closed.encode()[:64]).decode()
    assert preview("\u2067" * 40) == ""
    # Content that fits is returned whole, as a read would return it.
    assert preview("short " + override) == "short " + override
    assert first_open_bidi("ab\u2067c") == 2
    assert first_open_bidi("ab\u2067c" + PDI) == 5


@pytest.mark.parametrize("opener", sorted(text.BIDI_OPENERS))
def test_content_of_exactly_the_limit_is_its_own_preview_even_with_a_run_open(opener: str) -> None:
    """Content that fits, to the last byte, is the record whole: an unclosed bidi run is cut
    only from a preview that had to be cut."""
    content = "x" * (64 - utf8_size(opener + "y")) + opener + "y"
    assert utf8_size(content) == 64
    assert preview(content) == content
    assert preview(content + "z") == "x" * (64 - utf8_size(opener + "y"))


def test_preview_rejects_bad_input() -> None:
    with pytest.raises(ValueError):
        preview("abc", -1)
    with pytest.raises(ValueError, match="surrogate"):
        preview("\udfff" * 100)


# --- fold_for_duplicate ---------------------------------------------------------------------


@given(st.text())
def test_duplicate_fold_is_idempotent_and_normalized(content: str) -> None:
    folded = fold_for_duplicate(content)
    assert fold_for_duplicate(folded) == folded
    assert folded == folded.strip()
    assert "  " not in folded
    assert all(ch == " " or not ch.isspace() for ch in folded)


@given(
    st.lists(st.from_regex(r"[A-Za-z0-9.`]{1,8}", fullmatch=True), min_size=1, max_size=8),
    st.lists(st.sampled_from([" ", "  ", "\t", "\n", " \r\n ", "\u00a0", "\u3000"]), min_size=9),
)
def test_duplicate_fold_ignores_case_and_spacing(words: list[str], gaps: list[str]) -> None:
    spaced = gaps[0] + "".join(word.upper() + gap for word, gap in zip(words, gaps[1:]))
    assert fold_for_duplicate(spaced) == " ".join(word.lower() for word in words)


# --- tokenizer ------------------------------------------------------------------------------


def test_paths_and_identifiers_are_found_by_their_parts() -> None:
    content = "src/store/migrations.py max_page_count HTTPServerError useEffect"
    terms = document_terms(content, fold=False)
    for expected in ("src", "store", "migrations", "py", "max_page_count", "max", "page", "count"):
        assert expected in terms
    for expected in ("httpservererror", "http", "server", "error", "useeffect", "use", "effect"):
        assert expected in terms


def test_parts_equal_to_the_whole_are_not_repeated() -> None:
    assert document_terms("deploy", fold=False) == ["deploy"]
    assert document_terms("Deploy __init__", fold=False) == ["deploy", "__init__", "init"]
    assert document_terms("v2Beta", fold=False) == ["v2beta", "v2", "beta"]


def test_identifier_parts_are_the_shipped_tokenizers_and_an_acronym_adds_its_own() -> None:
    """The parts the shipped Rust tokenizer makes (split on ``_``, lower-to-upper and ASCII
    digit-to-upper) are always terms, so ``ipv4`` finds ``IPv4Address``; an acronym of two or more
    capitals also gives itself and the word after it; each part counts once per identifier."""
    assert document_terms("IPv4Address", fold=False) == ["ipv4address", "ipv4", "address"]
    assert document_terms("OAuth2Session", fold=False) == ["oauth2session", "oauth2", "session"]
    assert document_terms("HTTPServerError", fold=False) == ["httpservererror", "httpserver", "error", "http", "server"]
    assert document_terms("XMLHttpRequest", fold=False) == ["xmlhttprequest", "xmlhttp", "request", "xml", "http"]
    assert document_terms("cache_cache getGet foo_foo_bar", fold=False) == [
        "cache_cache", "cache", "getget", "get", "foo_foo_bar", "foo", "bar",
    ]  # fmt: skip
    assert query_terms("ipv4 oauth2", fold=False) <= set(document_terms("IPv4Address OAuth2Session", fold=False))


def test_only_an_ascii_digit_before_a_capital_splits() -> None:
    assert document_terms("x²Y", fold=False) == ["x²y"]
    assert document_terms("१२A", fold=False) == ["१२a"]
    assert document_terms("x2Y", fold=False) == ["x2y", "x2", "y"]


def test_plural_acronyms_stay_whole() -> None:
    assert document_terms("URLs PRs", fold=False) == ["urls", "prs"]
    # With folding they meet their singular.
    assert document_terms("URLs PRs") == ["url", "pr"]
    assert query_terms("open PR") == {"open", "pr"}


def test_letters_and_digits_are_not_split() -> None:
    assert document_terms("python3.12 k8s", fold=False) == ["python3", "12", "k8s"]


@given(st.lists(ascii_words, min_size=2, max_size=5))
def test_snake_and_camel_identifiers_emit_each_word(words: list[str]) -> None:
    snake = "_".join(words)
    camel = words[0] + "".join(word.capitalize() for word in words[1:])
    snake_terms = document_terms(snake, fold=False)
    camel_terms = document_terms(camel, fold=False)
    assert snake_terms[0] == snake
    assert camel_terms[0] == camel.lower()
    for word in words:
        assert word in snake_terms
        assert word in camel_terms


@given(st.text())
def test_terms_are_nonempty_case_folded_word_characters(content: str) -> None:
    for fold in (False, True):
        for term in document_terms(content, fold=fold):
            assert term
            assert term == term.casefold()
            assert all(
                ch.isalnum() or ch == "_" or unicodedata.category(ch).startswith("M")
                for ch in term
            )


@given(st.text())
def test_query_terms_without_stop_words_are_the_document_terms(content: str) -> None:
    for fold in (False, True):
        assert query_terms(content, stop_words=False, fold=fold) == set(
            document_terms(content, fold=fold)
        )


def test_combining_marks_stay_in_their_word() -> None:
    decomposed = "cafe\u0301 naïve हिन्दी"
    assert document_terms(decomposed) == ["café", "naïve", "हिन्दी"]


def test_japanese_text_is_matched_by_bigrams() -> None:
    stored = set(document_terms("「mobile-app」の日本語ストア説明文は管理する。"))
    asked = query_terms("日本語のストア説明文")
    assert {"日本", "説明", "スト"} <= asked
    assert len(stored & asked) >= 5


# --- stop words -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    ["what should I do next?", "how are you?", "is it done?", "What's going on?", "Can't you?"],
)
def test_questions_made_of_common_words_have_no_terms(question: str) -> None:
    assert query_terms(question) == frozenset()
    assert query_terms(question, stop_words=False) != frozenset()


def test_stop_words_apply_to_queries_only() -> None:
    assert "what" in document_terms("what we do")
    assert query_terms("how do we deploy billing?") == {"deploy", "bill"}


def test_split_query_keeps_stop_words_apart() -> None:
    def split(query: str, **options: bool) -> tuple[set[str], set[str]]:
        content, stop = split_query(query, **options)
        return set(content), set(stop)

    assert split("read-only replica") == ({"read", "replica"}, {"onli"})  # folded "only"
    assert split("what should I do next?") == (set(), {"what", "should", "i", "do", "next"})
    # A key that a content word gives is content, whatever else gives it.
    assert split("think thinking") == ({"think"}, set())
    assert split("read only", stop_words=False) == ({"read", "onli"}, set())


@given(st.text(), st.booleans(), st.booleans())
def test_split_query_partitions_the_terms(query: str, stop_words: bool, fold: bool) -> None:
    content, stop = split_query(query, stop_words=stop_words, fold=fold)
    assert not content & stop
    assert content | stop == set(document_terms(query, fold=fold))
    assert content == query_terms(query, stop_words=stop_words, fold=fold)


def test_stop_words_are_lower_case_and_hold_no_domain_words() -> None:
    assert all(word == word.lower() for word in STOP_WORDS)
    assert not {"go", "make", "run", "test", "deploy", "put", "get", "set", "use"} & STOP_WORDS


# --- inflection folding ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "family",
    [
        "deploy deploys deployed deploying",
        "migration migrations",
        "cache caches cached caching",
        "test tests tested testing",
        "run runs running",
        "fix fixes fixed fixing",
        "query queries queried querying",
        "release releases released releasing",
        "code codes coded coding",
        "use uses used using",
        "stop stops stopped stopping",
        "commit commits committed committing",
        "prefer prefers preferred preferring",
        "tag tags tagged tagging",
        "parse parses parsed parsing",
        "branch branches",
        "class classes",
        "status statuses",
        "alias aliases",
        "dependency dependencies",
        "api apis",
        "repo repos",
        "cookie cookies",
        "need needs needed",
    ],
)
def test_inflections_fold_together(family: str) -> None:
    keys = {fold_word(word) for word in family.split()}
    assert len(keys) == 1, keys


@pytest.mark.parametrize(
    ("word", "other"),
    [
        ("news", "new"),
        ("lens", "len"),
        ("string", "str"),
        ("note", "not"),
        ("noted", "not"),
        ("pipe", "pip"),
        ("mode", "mod"),
        ("done", "don"),
        ("goes", "go"),
        ("this", "thi"),
        ("bias", "bia"),
        ("class", "clas"),
        ("status", "statu"),
        ("added", "ad"),
    ],
)
def test_lookalikes_do_not_collide(word: str, other: str) -> None:
    assert fold_word(word) != fold_word(other)


@pytest.mark.parametrize("word", ["class", "bus", "status", "this", "bias", "kubernetes", "thing"])
def test_words_that_only_look_inflected_are_kept(word: str) -> None:
    assert fold_word(word) == word


@pytest.mark.parametrize(
    "term", ["max_pages", "python3", "deployed_at", "café", "größe", "日本"]
)
def test_identifiers_and_other_scripts_are_not_folded(term: str) -> None:
    assert fold_word(term) == term


@given(st.from_regex(r"[a-z]{1,15}", fullmatch=True))
def test_fold_is_idempotent_and_never_empty(word: str) -> None:
    key = fold_word(word)
    assert key
    assert fold_word(key) == key
    assert len(key) <= len(word)


@given(st.from_regex(r"[a-z]{2,9}[bdgklmnprt]", fullmatch=True))
def test_a_regular_noun_and_its_plural_fold_together(stem: str) -> None:
    assume(stem + "s" not in text._KEEP)
    assert fold_word(stem + "s") == fold_word(stem)


def test_inflected_queries_meet_inflected_records() -> None:
    # Each record shares only an inflected form with its question.
    pairs = [
        ("how do we deploy billing?", "Deploys need approval"),
        ("when was it deployed", "deploys need approval"),
        ("run the migrations", "each migration is reviewed"),
        ("caching exchange rates", "cached for a day"),
        ("where is the cache", "the caching layer"),
    ]
    for question, record in pairs:
        assert query_terms(question) & set(document_terms(record)), (question, record)
        unfolded = query_terms(question, fold=False) & set(document_terms(record, fold=False))
        assert not unfolded, (question, record)
