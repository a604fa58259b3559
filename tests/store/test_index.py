"""The corpus index cache: refreshed by generation, content fetched once per version and held."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from contextlib import closing
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tact_memory.records import RecordKey
from tact_memory.screening.checkpoint import CHECKPOINT_TEXT, IMITATION_KIND
from tact_memory.store import derived as stored
from tact_memory.store import policy
from tact_memory.store.index import CorpusIndex
from tact_memory.store.sqlite import MemoryStore

from ..conftest import FakeClock

AWS_KEY = "AKIA" + "ABCDEFGHIJKLMNOP"


class Corpus:
    """A stand-in for the file: contents by id and version, and a log of what was fetched."""

    def __init__(self, **contents: str) -> None:
        self.rows = {int(name[1:]): (1, text) for name, text in contents.items()}
        self.fetched: list[list[int]] = []

    def set(self, id_: int, text: str) -> None:
        version = self.rows[id_][0] + 1 if id_ in self.rows else 1
        self.rows[id_] = (version, text)

    def versions(self) -> list[tuple[int, int]]:
        return [(id_, version) for id_, (version, _) in sorted(self.rows.items())]

    def fetch(self, ids: Sequence[int]) -> Iterable[tuple[int, str, object]]:
        self.fetched.append(sorted(ids))
        return [(id_, self.rows[id_][1], None) for id_ in ids]

    def refresh(self, cache: CorpusIndex, generation: int) -> None:
        cache.refresh(generation, self.versions(), self.fetch)


def test_a_refresh_fetches_only_versions_it_has_not_seen() -> None:
    corpus = Corpus(r1="deploys need approval", r2="use ruff for lint", r3="billing runs on postgres")
    cache = CorpusIndex()
    corpus.refresh(cache, 1)
    assert corpus.fetched == [[1, 2, 3]]
    corpus.refresh(cache, 1)  # same generation: not even the versions are compared
    assert corpus.fetched == [[1, 2, 3]]
    corpus.set(2, "use ruff for lint and format")
    corpus.set(4, "the queue is redis")
    del corpus.rows[3]
    corpus.refresh(cache, 2)
    assert corpus.fetched == [[1, 2, 3], [2, 4]]
    assert cache.derivations == 5
    assert [hit.id for hit in cache.search("format lint", limit=5)] == [2]
    assert cache.search("postgres", limit=5) == []
    assert cache.key_of(2) == RecordKey(2, 2) and cache.version_of(3) is None
    assert cache.size_of(4) == len("the queue is redis")


def test_an_invalidated_cache_compares_versions_again_but_fetches_nothing_it_knows() -> None:
    corpus = Corpus(r1="deploys need approval", r2="use ruff for lint")
    cache = CorpusIndex()
    corpus.refresh(cache, 7)
    cache.invalidate()
    corpus.refresh(cache, 7)
    assert corpus.fetched == [[1, 2]]
    del corpus.rows[2]  # say, a prune that a rollback undid, seen from the other side
    cache.invalidate()
    corpus.refresh(cache, 7)
    assert cache.version_of(2) is None and corpus.fetched == [[1, 2]]


def test_hidden_versions_are_never_indexed_but_keep_their_verdict() -> None:
    corpus = Corpus(r1=f"the deploy key is {AWS_KEY}", r2=CHECKPOINT_TEXT, r3="deploy with the release script")
    cache = CorpusIndex()
    corpus.refresh(cache, 1)
    assert len(cache.index) == 1
    assert [hit.id for hit in cache.search("deploy key review", limit=5)] == [3]
    assert not cache.visible(1) and not cache.visible(2) and cache.visible(3) and not cache.visible(9)
    assert cache.verdict(1, 1, f"the deploy key is {AWS_KEY}") == "aws_access_key"
    assert cache.verdict(2, 1, CHECKPOINT_TEXT) == IMITATION_KIND
    # a verdict served is screened from the content served, not remembered by version
    assert cache.verdict(2, 1, "the same version, edited in the file") is None
    corpus.set(1, "the deploy key lives in the vault")  # a new version gets its own verdict
    corpus.refresh(cache, 2)
    assert cache.visible(1) and [hit.id for hit in cache.search("vault", limit=5)] == [1]


def test_duplicates_are_found_by_their_folded_form_first_by_id() -> None:
    corpus = Corpus(r3="Deploys need approval", r5="deploys  NEED approval", r8="use ruff")
    cache = CorpusIndex()
    corpus.refresh(cache, 1)
    assert cache.duplicate_of("deploys need APPROVAL") == (3, 1)
    assert cache.duplicate_of("deploys need approval", besides=3) == (5, 1)
    assert cache.duplicate_of("deploys need approval today") is None


def test_a_refresh_that_fails_half_way_is_forgotten() -> None:
    corpus = Corpus(r1="deploys need approval")
    cache = CorpusIndex()
    corpus.refresh(cache, 1)

    def broken(ids: Sequence[int]) -> Iterable[tuple[int, str, object]]:
        raise RuntimeError("the file went away")

    corpus.set(2, "use ruff")
    with pytest.raises(RuntimeError):
        cache.refresh(2, corpus.versions(), broken)
    assert cache.version_of(1) is None and len(cache.index) == 0
    corpus.refresh(cache, 2)
    assert corpus.fetched == [[1], [1, 2]]  # rebuilt from the file, everything fetched again
    assert [hit.id for hit in cache.search("approval", limit=5)] == [1]


# -- the store's use of it -----------------------------------------------------------------------------


def _statements(store: MemoryStore) -> list[str]:
    """Start recording every statement the store's connection runs; the list fills as it runs."""
    seen: list[str] = []
    conn = store._connection()
    assert conn is not None
    conn.set_trace_callback(seen.append)
    return seen


def test_a_scan_ranks_without_a_transaction_while_no_one_else_commits(db_path: Path, clock: FakeClock) -> None:
    """Only the telemetry write touches the file: the index is known current by ``data_version``."""
    with MemoryStore(db_path, clock=clock) as store:
        store.put("the billing service listens on port 8443")
        store.scan("billing")
        seen = _statements(store)
        assert [c.preview for c in store.scan("billing port")] == ["the billing service listens on port 8443"]
        assert seen[0] == "PRAGMA data_version"
        assert [s for s in seen if s.startswith(("BEGIN", "SELECT"))] == ["BEGIN IMMEDIATE"]
        seen.clear()
        store.put("the search service listens on port 9200")  # the process's own write keeps it current
        seen.clear()
        assert len(store.scan("search port")) == 2
        assert [s for s in seen if s.startswith(("BEGIN", "SELECT"))] == ["BEGIN IMMEDIATE"]


def test_another_connections_commit_sends_the_next_scan_to_the_file(db_path: Path, clock: FakeClock) -> None:
    """Any commit elsewhere (a telemetry-only one included) makes the next scan read the generation;
    a changed generation fetches the changed row, and an unchanged one fetches nothing."""
    with MemoryStore(db_path, clock=clock) as store, MemoryStore(db_path, clock=clock) as other:
        key = store.put("the billing service listens on port 8443").memory.key
        store.scan("billing")
        other.scan("billing")  # telemetry only: the generation does not move
        seen = _statements(store)
        assert [c.key for c in store.scan("billing")] == [key]
        assert "SELECT value FROM meta WHERE key = 'generation'" in seen
        assert not [s for s in seen if s.startswith("SELECT") and "content" in s]  # nothing was fetched again
        other.put("the billing service listens on port 9443 since March", replace=key)
        seen.clear()
        cards = store.scan("billing")
        assert [(c.key.version, c.preview) for c in cards] == [(2, "the billing service listens on port 9443 since March")]
        assert any(s.startswith("SELECT") and "content" in s for s in seen)
        other.delete(cards[0].key)
        assert store.scan("billing") == []


def test_a_version_names_one_content_for_good(db_path: Path, clock: FakeClock) -> None:
    """The index holds each version's content: an edit behind the store's back that keeps the version
    changes neither ranking nor previews (``read`` returns the row in the file); a new version does."""
    with MemoryStore(db_path, clock=clock) as store:
        key = store.put("the billing service listens on port 8443").memory.key
        store.scan("billing port")
        with closing(sqlite3.connect(db_path)) as conn, conn:  # behind the store's back, same version
            conn.execute("UPDATE memories SET content = 'the billing service listens on port 9443'")
        assert [c.preview for c in store.scan("billing port")] == ["the billing service listens on port 8443"]
        assert [r.content for r in store.read([key.id])] == ["the billing service listens on port 9443"]
        with closing(sqlite3.connect(db_path)) as conn, conn:  # as a writer must: a new version, a new generation
            conn.execute("UPDATE memories SET content = 'the billing service listens on port 7443', version = 2")
            conn.execute("UPDATE meta SET value = value + 1 WHERE key = 'generation'")
        assert [(c.key.version, c.preview) for c in store.scan("billing port")] == [(2, "the billing service listens on port 7443")]


def test_rank_ranks_without_telemetry_or_a_transaction(db_path: Path, clock: FakeClock) -> None:
    with MemoryStore(db_path, clock=clock) as store:
        assert store.rank("billing") == []  # nothing opened, nothing created
        assert not db_path.exists()
        first = store.put("the billing service listens on port 8443").memory.key
        store.put("the search service listens on port 9200")
        store.scan("anything at all")  # brings the index up to date
        scans = {r.key.id: r.scan_count for r in store.list_records()}
        assert store.rank("billing port", limit=1) == [first.id]
        assert {r.key.id: r.scan_count for r in store.list_records()} == scans


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["set", "drop", "commit", "commit-remove", "invalidate"]),
            st.integers(1, 6),
            st.sampled_from(["deploys need approval", "Deploys NEED approval", "use ruff", "billing runs on postgres", "é" * 5]),
        ),
        max_size=30,
    )
)
def test_running_totals_and_duplicates_agree_with_the_rows_however_they_changed(
    steps: list[tuple[str, int, str]],
) -> None:
    """The content total and the duplicate lookup are kept as rows come and go (by refresh, by the
    process's own commits, after an invalidation); they must equal what the live rows say."""
    corpus = Corpus()
    cache = CorpusIndex()
    generation = 0
    corpus.refresh(cache, generation)
    for action, id_, text in steps:
        if action == "invalidate":
            cache.invalidate()
        elif action in ("set", "drop"):  # another process's write, seen by the next refresh
            if action == "set":
                corpus.set(id_, text)
            else:
                corpus.rows.pop(id_, None)
            generation += 1
        elif action == "commit":  # this process's own put or replacement
            corpus.refresh(cache, generation)
            corpus.set(id_, text)
            version = corpus.rows[id_][0]
            cache.committed(generation, written=(id_, version, text, stored.derive(text)))
            generation += 1
        elif id_ in corpus.rows:  # this process's own delete
            corpus.refresh(cache, generation)
            del corpus.rows[id_]
            cache.committed(generation, removed=[id_])
            generation += 1
        corpus.refresh(cache, generation)
        live = {i: t for i, (_, t) in corpus.rows.items()}
        assert {i: cache.content_of(i) for i in live} == live
        assert cache.totals() == (len(live), sum(len(t.encode()) for t in live.values()))
        for probe in {text, "Deploys need approval", "use ruff"}:
            for besides in (None, id_):
                same = sorted(i for i, t in live.items() if policy.duplicate_key(t) == policy.duplicate_key(probe) and i != besides)
                expected = (same[0], corpus.rows[same[0]][0]) if same else None
                assert cache.duplicate_of(probe, besides=besides) == expected
