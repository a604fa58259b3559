"""Retrieval quality of the default index on a realistic corpus, and what each text choice buys.

The fixtures (``fixtures/retrieval/``) hold 160 coding-agent memories, answerable scan queries with
the ids of the memories that answer them, and queries that must abstain. Metrics:

* recall@5: a relevant memory is among the five candidates a scan returns;
* precision@1: the first candidate is relevant;
* abstention: the scan returns no candidate at all, measured separately for chat made of common
  words (which the query stop words decide) and for off-topic questions (which abstain only when
  none of their words occurs in the corpus, a limit of lexical retrieval that this test records).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tact_memory.retrieval.bm25 import Index
from tact_memory.retrieval.lexer import utf8_size

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "retrieval"


def load_fixture(name: str) -> dict[str, Any]:
    """Load one TOML file of the retrieval fixtures."""
    with (FIXTURES / name).open("rb") as handle:
        return tomllib.load(handle)


MEMORIES: list[dict[str, Any]] = load_fixture("memories.toml")["memory"]
QUESTIONS = load_fixture("questions.toml")
ANSWERABLE: list[dict[str, Any]] = QUESTIONS["answerable"]
ABSTAIN: list[dict[str, Any]] = QUESTIONS["abstain"]


@dataclass(frozen=True)
class Quality:
    recall_at_5: float
    precision_at_1: float
    abstention: float
    chat_abstention: float
    off_topic_abstention: float

    def __str__(self) -> str:
        return (
            f"recall@5={self.recall_at_5:.3f} precision@1={self.precision_at_1:.3f} "
            f"abstention={self.abstention:.3f} (chat {self.chat_abstention:.3f}, "
            f"off-topic {self.off_topic_abstention:.3f})"
        )


def measure(**options: Any) -> Quality:
    index = Index(**options)
    index.sync((memory["id"], 1, memory["content"]) for memory in MEMORIES)
    recalled = first = 0
    for question in ANSWERABLE:
        ids = [hit.id for hit in index.search(question["query"], limit=5)]
        relevant = set(question["relevant"])
        recalled += bool(relevant.intersection(ids))
        first += bool(ids) and ids[0] in relevant

    def abstains(kind: str | None) -> float:
        asked = [q for q in ABSTAIN if kind is None or q["kind"] == kind]
        quiet = sum(not index.search(q["query"], limit=5) for q in asked)
        return quiet / len(asked)

    return Quality(
        recall_at_5=recalled / len(ANSWERABLE),
        precision_at_1=first / len(ANSWERABLE),
        abstention=abstains(None),
        chat_abstention=abstains("chat"),
        off_topic_abstention=abstains("off-topic"),
    )


@pytest.fixture(scope="module")
def default() -> Quality:
    return measure()


def test_fixtures_are_well_formed() -> None:
    ids = [memory["id"] for memory in MEMORIES]
    assert len(ids) == len(set(ids)) >= 120
    assert all(utf8_size(memory["content"]) <= 1024 for memory in MEMORIES)
    assert any(not memory["content"].isascii() for memory in MEMORIES)
    assert len(ANSWERABLE) >= 150
    assert len(ABSTAIN) >= 40
    known = set(ids)
    for question in ANSWERABLE:
        assert question["relevant"] and set(question["relevant"]) <= known, question
    assert {question["kind"] for question in ABSTAIN} == {"chat", "off-topic"}


def test_default_index_meets_the_quality_bar(default: Quality) -> None:
    assert default.recall_at_5 >= 0.97, default
    assert default.precision_at_1 >= 0.97, default
    assert default.chat_abstention >= 0.9, default
    # Lexical abstention cannot recognise an off-topic question that shares a word with some
    # memory ("book a flight" meets "MacBook" and "TestFlight"); this floor catches regressions.
    assert default.off_topic_abstention >= 0.6, default


def test_stop_words_improve_abstention(default: Quality) -> None:
    without = measure(stop_words=False)
    message = f"without stop words {without}; default {default}"
    assert without.abstention < default.abstention, message
    assert without.chat_abstention < default.chat_abstention, message


def test_folding_improves_recall(default: Quality) -> None:
    without = measure(fold=False)
    message = f"without folding {without}; default {default}"
    assert without.recall_at_5 < default.recall_at_5, message
