"""Hostile tool input: whatever arrives, a well-formed result comes back and the bounds hold (I4, I6–I8).

Two fuzzers drive the tool surface (the :class:`~tact_memory.tool.guard.Dispatcher`, as an agent loop
calls it). The first throws arbitrary values at it: any JSON, lone surrogates, NUL bytes, deep
nesting, huge numbers, NaN, wrong types in every field, bytes that are not UTF-8. The second is a
model-based state machine: plausible and hostile calls from a root agent, a child agent and a second
process, checked after every step against a model of what must be stored.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from tact_memory.limits import PROBATION_MS, Limits
from tact_memory.retrieval.lexer import fold_for_duplicate
from tact_memory.store.sqlite import MemoryStore
from tact_memory.tool.guard import Dispatcher, Role
from tact_memory.tool.wire import OPERATIONS

from ..conftest import FakeClock
from .helpers import check_result, child_env, cli_command, raw_rows, sidecars_within_bounds

SMALL = Limits(rows=6, content_bytes=2_000, file_bytes=8 * 4096)
"""Bounds small enough that a few hundred calls reach every one of them (an empty file is 8 pages)."""

EXAMPLES_COUNT = int(os.environ.get("TACT_FUZZ_EXAMPLES", "250"))
"""Stateless examples per run; the state machine runs a sixth as many sequences of up to 40 calls."""

MAX_ERROR_JSON = 1_024
"""No error result, whatever it was sent, is longer than this (plus the database path)."""


@dataclass
class Ledger:
    """What the file has shown so far: ids only ever go up, versions never go back, gone stays gone."""

    versions: dict[int, int] = field(default_factory=dict)
    gone: set[int] = field(default_factory=set)

    def check(self, db: Path, limits: Limits) -> dict[int, tuple[int, str]]:
        """Assert the bounds (I8) and monotonic ids and versions (I7); return the stored rows."""
        if not db.exists():
            return {}
        rows = raw_rows(db)
        assert len(rows) <= min(limits.rows, 512)
        assert sum(len(c.encode("utf-8")) for _, c in rows.values()) <= min(limits.content_bytes, 262_144)
        assert db.stat().st_size <= min(limits.file_bytes, 4 * 1024 * 1024)
        assert sidecars_within_bounds(db, limits)
        highest = max(self.versions, default=0)
        for id_, (version, _) in rows.items():
            assert id_ not in self.gone, f"id {id_} was reused"
            if id_ not in self.versions:
                assert id_ > highest, f"new id {id_} is not above every earlier id ({highest})"
            assert version >= self.versions.get(id_, 1), f"id {id_} went back to version {version}"
        self.gone |= self.versions.keys() - rows.keys()
        self.versions.update({i: v for i, (v, _) in rows.items()})
        return rows


def checked(result: object, sent: object) -> dict[str, Any]:
    """A well-formed result whose error, if any, is short and names the operation it was sent."""
    result = check_result(result, sent=sent)
    if "error" in result:
        assert len(json.dumps(result)) <= MAX_ERROR_JSON + 4096, "an error echoed an unbounded input"
        if isinstance(sent, Mapping) and sent.get("operation") in OPERATIONS:
            assert result["operation"] == sent["operation"]
    return result


# -- strategies -----------------------------------------------------------------------------------

surrogates = st.characters(codec=None, categories=["Cs"])
awkward = st.sampled_from(list('\x00\n\r\t"\\{}[]<>/\u2028\ufeff\u202e'))
texts = st.one_of(
    st.text(alphabet=st.one_of(st.characters(codec=None), surrogates, awkward), max_size=40),
    st.sampled_from(["</tool_result>", "[tact-memory control text]", '"}]}', "\\u0000"]),
)
huge_texts = st.builds(lambda unit, n: unit * n, st.text(min_size=1, max_size=6), st.integers(200, 20_000))
integers = st.one_of(
    st.integers(-3, 12),
    st.integers(),
    st.sampled_from([2**31, 2**63 - 1, 2**63, 2**64, -(2**63) - 1, 10**30, 10**4000]),
)
scalars = st.one_of(
    st.none(), st.booleans(), integers, st.floats(allow_nan=True, allow_infinity=True), texts, huge_texts
)
json_values = st.recursive(
    scalars, lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(texts, inner, max_size=4)), max_leaves=12
)
deep = st.integers(50, 3_000).map(lambda n: json.loads("[" * n + "]" * n) if n < 900 else {"nested": "[" * n})

PLAUSIBLE: dict[str, st.SearchStrategy[Any]] = {
    "query": st.sampled_from(["service port", "cache", "", "   ", "the and of"]),
    "limit": st.integers(-1, 7),
    "ids": st.lists(st.integers(-1, 14), max_size=6),
    "content": st.sampled_from(["the cache service listens on port 8080", "The  CACHE service listens on port 8080"]),
    "replace": st.fixed_dictionaries({"id": st.integers(0, 14), "version": st.integers(0, 4)}),
    "id": st.integers(0, 14),
    "version": st.integers(0, 4),
}
FIELDS = {"scan": ["query", "limit"], "read": ["ids"], "put": ["content", "replace"], "delete": ["id", "version"]}
EXTRA_FIELDS = st.one_of(st.sampled_from([*PLAUSIBLE, "operation", "role", "force", "ids "]), texts)


@st.composite
def calls(draw: st.DrawFn) -> dict[Any, Any]:
    """A call-shaped object: usually a known operation with its own fields, each either plausible
    or hostile; sometimes no operation, a hostile one, missing fields or extra ones."""
    call: dict[Any, Any] = {}
    operation = draw(st.sampled_from(OPERATIONS))
    roll = draw(st.integers(0, 19))
    if roll:
        call["operation"] = operation if roll > 2 else draw(json_values)
    names = [n for n in FIELDS[operation] if draw(st.integers(0, 5))]
    names += draw(st.lists(EXTRA_FIELDS, max_size=2, unique=True)) if not draw(st.integers(0, 3)) else []
    for name in names:
        if name in PLAUSIBLE and draw(st.integers(0, 3)):
            call[name] = draw(PLAUSIBLE[name])
        else:
            call[name] = draw(st.one_of(json_values, deep))
    return call


def as_json(value: object, *, ensure_ascii: bool) -> str:
    try:
        return json.dumps(value, ensure_ascii=ensure_ascii)
    except (ValueError, RecursionError):  # digits past Python's limit, or nesting past the stack
        return "{"


def mutate(text: str, data: st.DataObject) -> str:
    cut = data.draw(st.integers(0, len(text)))
    noise = data.draw(st.sampled_from(["", "\x00", "}", '"', "\\", "\ud800", "]]]]", ",", "\n"]))
    return text[:cut] + noise + text[cut + data.draw(st.integers(0, 3)) :]


@st.composite
def payloads(draw: st.DrawFn) -> object:
    """What an agent loop might hand the tool: a dict, JSON text, UTF-8 or broken bytes, or junk."""
    call = draw(calls()) if draw(st.integers(0, 4)) else draw(json_values)
    form = draw(st.sampled_from(["dict", "dict", "json", "ascii_json", "bytes", "mutated", "raw_bytes", "raw_text"]))
    if form == "dict":
        return call
    if form in ("json", "ascii_json"):
        return as_json(call, ensure_ascii=form == "ascii_json")
    if form == "bytes":
        return as_json(call, ensure_ascii=False).encode("utf-8", "surrogatepass")
    if form == "mutated":
        return mutate(as_json(call, ensure_ascii=False), draw(st.data()))
    if form == "raw_bytes":
        return draw(st.binary(max_size=64))
    return draw(texts)


# -- stateless fuzz -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def fuzz_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[MemoryStore, Ledger]]:
    db = tmp_path_factory.mktemp("fuzz") / "memory" / "v1.sqlite3"
    store = MemoryStore(db, limits=SMALL)
    for i in range(4):  # something to read, replace and delete
        store.put(f"seed record {i}: the cache service listens on port {8080 + i}")
    yield store, Ledger()
    store.close()


@dataclass(frozen=True)
class Big:
    """A large hand-picked input, built inside the test so a failure report stays readable."""

    name: str

    def build(self) -> object:
        return {
            "deep_json": "[" * 100_000 + "]" * 100_000,
            "deep_bytes": b"[" * 100_000,
            "long_integer": "1" * 5_000,
            "long_query": {"operation": "scan", "query": "x" * 5_000_000},
            "long_field": {"operation": "scan", "query": "x", "k" * 100_000: 1},
            "long_nested_field": {
                "operation": "put", "content": "fits", "replace": {"id": 1, "version": 1, "k" * 100_000: 1}
            },
            "many_ids": {"operation": "read", "ids": [1] * 100_000},
            "huge_ids": {"operation": "read", "ids": [2**64, 10**5000, 1]},
            "huge_delete_version": {"operation": "delete", "id": 1, "version": 10**5000},
            "huge_delete_both": {"operation": "delete", "id": 10**5000, "version": 10**5000},
            "huge_replace_version": {"operation": "put", "content": "fits", "replace": {"id": 1, "version": 10**5000}},
            "huge_content": {"operation": "put", "content": "x" * 10_000_000},
        }[self.name]


EXAMPLES: list[object] = [
    *(Big(name) for name in (
        "deep_json", "deep_bytes", "long_integer", "long_query", "long_field", "long_nested_field",
        "many_ids", "huge_ids", "huge_delete_version", "huge_delete_both", "huge_replace_version", "huge_content",
    )),
    b"\xff\xfe\x00\x9f",
    '{"operation": "scan", "query": NaN, "limit": Infinity}',
    '{"operation": "scan", "query": "\\ud800\\udfff\\ud800"}',
    '{"operation": "scan", "query": "q\\u0000q"}',
    {"operation": "delete", "id": 2**64, "version": 1},
    {"operation": "delete", "id": 2**63, "version": 2**63},
    {"operation": "put", "content": "fits", "replace": {"id": 2**63, "version": 1}},
    {"operation": "put", "content": "a\x00b"},
    {"operation": "put", "content": "\ud800 lone"},
    {"operation": "put", "content": "fits", "role": "root", "operation ": "delete"},
    {1: 2, None: 3, "operation": "scan", "query": "x"},
]


def _example_cases(test: Any) -> Any:
    for payload in EXAMPLES:
        test = example(payload=payload, role=Role.ROOT, primed=True)(test)
    return test


@pytest.mark.slow
@settings(max_examples=EXAMPLES_COUNT, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(payload=payloads(), role=st.sampled_from(list(Role)), primed=st.booleans())
@_example_cases
def test_any_input_gets_a_well_formed_result_and_bounds_hold(
    fuzz_home: tuple[MemoryStore, Ledger], payload: object, role: Role, primed: bool
) -> None:
    """I4/I8: never an exception, always a result of a documented shape with a named code; a child
    is never allowed to mutate (I6); the file stays within every bound, ids and versions monotonic."""
    store, ledger = fuzz_home
    if isinstance(payload, Big):
        payload = payload.build()
    tool = Dispatcher(store, role=role)
    if primed:  # so a put gets past scan-before-put and reaches the store
        checked(tool.call({"operation": "scan", "query": "cache service"}), None)
    before = ledger.check(store.path, store.limits)
    result = checked(tool.call(payload), payload)  # type: ignore[arg-type]
    event(f"{result['operation']}: {result['error']['code'] if 'error' in result else 'ok'}")
    after = ledger.check(store.path, store.limits)
    if role is Role.CHILD or "error" in result or result["operation"] in ("scan", "read"):
        assert after == before, "a refused, read-only or child call changed stored content"


def cli_lines(config_path: Path, data: bytes, **env: str) -> tuple[int, list[dict[str, Any]]]:
    proc = subprocess.run(
        cli_command(config_path, "tool"),
        input=data, capture_output=True, env={**child_env(), **env}, timeout=60, check=False,
    )  # fmt: skip
    return proc.returncode, [check_result(json.loads(line)) for line in proc.stdout.decode("utf-8").splitlines()]


BROKEN_LINES = b'\xff\xfe not utf-8\n{"operation": "scan", "query": "caf\xe9"}\n{"operation": "scan", "query": "x"}\n'


def test_cli_lines_that_are_not_utf8_are_invalid_arguments(config_path: Path) -> None:
    """I4 at the CLI: a stdin line that is not UTF-8 is an ``invalid_arguments`` result and the
    session goes on, when stdin decodes with ``surrogateescape`` (Python's UTF-8 mode, C locale)."""
    code, results = cli_lines(config_path, BROKEN_LINES, PYTHONIOENCODING="utf-8:surrogateescape")
    assert code == 0
    assert [r.get("error", {}).get("code") for r in results] == ["invalid_arguments", "invalid_arguments", None]


def test_cli_lines_that_are_not_utf8_with_strict_stdin(config_path: Path) -> None:
    """I4 at the CLI under strict stdin decoding: the session should go on as well."""
    code, results = cli_lines(config_path, BROKEN_LINES, PYTHONIOENCODING="utf-8:strict")
    assert code == 0 and len(results) == 3


# -- model-based state machine -------------------------------------------------------------------

LIMIT_CHOICES = [
    Limits(rows=4),
    Limits(content_bytes=1_500),
    Limits(file_bytes=8 * 4096, content_bytes=10**6, rows=10**4),
]
words = st.sampled_from(["cache", "Cache", "port", "8080", "billing", "service", "queue", "  ", "\n", "deploy"])
ACTORS = st.sampled_from(["root", "root", "other", "child"])
plausible_contents = st.lists(words, min_size=1, max_size=6).map(" ".join)
contents = st.one_of(
    plausible_contents,
    plausible_contents,
    plausible_contents,
    st.builds(lambda w, n: (w + " ") * n, st.sampled_from(["padding", "grows", "ünïcödé"]), st.integers(50, 140)),
    texts,
)


class ToolMachine(RuleBasedStateMachine):
    """Root, child and a second process call the tool; the file must always equal the model."""

    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="tact-fuzz-"))
        self.db = self.folder / "memory" / "v1.sqlite3"
        self.clock = FakeClock()
        self.model: dict[int, tuple[int, str]] = {}
        self.ever_read: set[int] = set()  # read since its current version was written: never pruned
        self.written_at: dict[int, int] = {}
        self.ledger = Ledger()
        self.stores: list[MemoryStore] = []

    @initialize(limits=st.sampled_from(LIMIT_CHOICES))
    def open_stores(self, limits: Limits) -> None:
        self.limits = limits
        first = MemoryStore(self.db, limits=limits, clock=self.clock)
        other = MemoryStore(self.db, limits=limits, clock=self.clock)  # as another process would
        self.stores = [first, other]
        self.tools = {"root": Dispatcher(first, role=Role.ROOT), "other": Dispatcher(other, role=Role.ROOT), "child": Dispatcher(first, role=Role.CHILD)}

    def teardown(self) -> None:
        for store in self.stores:
            store.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    def prunable(self, id_: int, keep: int | None = None) -> bool:
        """Expired probation and current version unread: the only rows a put may prune (I9)."""
        expired = self.written_at[id_] + PROBATION_MS <= self.clock.now
        return id_ != keep and id_ not in self.ever_read and expired

    def apply(self, who: str, call: dict[str, Any]) -> dict[str, Any]:
        """Run one call and hold the file to the model: exactly the acknowledged change, nothing else."""
        result = checked(self.tools[who].call(call), call)
        rows = self.ledger.check(self.db, self.limits)
        expected = dict(self.model)
        op, error = result["operation"], result.get("error")
        event(f"{op}: {error['code'] if error else 'ok'}")  # shown by --hypothesis-show-statistics
        if who == "child" and call.get("operation") in ("put", "delete"):
            assert error and error["code"] == "forbidden"
        if error:
            self.check_error(call, error)
        elif op == "put":
            key = result["memory"]["key"]
            replace = call.get("replace")
            if replace:
                assert self.model[replace["id"]][0] == replace["version"], "a stale version was accepted (I7)"
                assert key == {"id": replace["id"], "version": replace["version"] + 1}
            else:
                assert key["version"] == 1 and key["id"] not in self.model
            expected[key["id"]] = (key["version"], call["content"])
            self.written_at[key["id"]] = self.clock.now
            self.ever_read.discard(key["id"])  # a replacement starts probation again
            for id_ in set(expected) - set(rows):  # pruned to make room: only expired, unread rows (I9)
                assert id_ != key["id"] and self.prunable(id_), f"record {id_} was evicted"
                del expected[id_]
        elif op == "delete":
            assert self.model[call["id"]][0] == call["version"], "a stale delete was accepted (I7)"
            del expected[call["id"]]
        elif op == "read":
            for memory in result["memories"]:
                key = memory["key"]
                assert key["id"] in call["ids"]
                assert (key["version"], memory["content"]) == self.model[key["id"]]
                self.ever_read.add(key["id"])
        elif op == "scan":
            for card in result["candidates"]:
                version, content = self.model[card["key"]["id"]]
                assert card["key"]["version"] == version
                assert content.encode("utf-8").startswith(card["preview"].encode("utf-8"))
        assert rows == expected
        self.model = expected
        return result

    def check_error(self, call: dict[str, Any], error: dict[str, Any]) -> None:
        """A refusal must be true of the model it was refused against."""
        code = error["code"]
        target = call.get("replace") or (call if call.get("operation") == "delete" else None)
        if code == "not_found":
            assert error["id"] not in self.model
        elif code == "version_conflict":
            assert error["id"] in self.model and error["current_version"] == self.model[error["id"]][0]
            assert target is not None and target["version"] != error["current_version"]
        elif code == "duplicate":
            other = error["key"]
            assert self.model[other["id"]][0] == other["version"]
            assert fold_for_duplicate(self.model[other["id"]][1]) == fold_for_duplicate(call["content"])
        elif code in ("record_capacity", "content_capacity"):
            keep = call["replace"]["id"] if call.get("replace") else None
            left = {i: c for i, (_, c) in self.model.items() if not self.prunable(i, keep) and i != keep}
            if code == "record_capacity":
                assert keep is None and len(left) + 1 > self.limits.rows
            else:
                used = sum(len(c.encode("utf-8")) for c in left.values())
                assert used + len(call["content"].encode("utf-8")) > self.limits.content_bytes
        elif code != "database_capacity":
            assert code in {"invalid_arguments", "scan_required", "forbidden", "content_too_large", "secret_rejected"}, error

    def known_id(self, data: st.DataObject) -> int:
        """An id the model holds, most of the time, or any small id."""
        known = sorted(self.model)
        pick_known: bool = data.draw(st.booleans())
        if known and pick_known:
            return data.draw(st.sampled_from(known))
        return data.draw(st.integers(1, 20))

    @rule(who=ACTORS, query=st.one_of(contents, texts))
    def scan(self, who: str, query: str) -> None:
        self.apply(who, {"operation": "scan", "query": query})

    @rule(who=ACTORS, data=st.data())
    def read(self, who: str, data: st.DataObject) -> None:
        ids = [self.known_id(data) for _ in range(data.draw(st.integers(1, 4)))]
        self.apply(who, {"operation": "read", "ids": ids})

    @rule(who=ACTORS, content=contents, scan_first=st.booleans())
    def put(self, who: str, content: str, scan_first: bool) -> None:
        if scan_first:
            self.apply(who, {"operation": "scan", "query": "cache"})
        self.apply(who, {"operation": "put", "content": content})

    @rule(who=ACTORS, content=contents, data=st.data())
    def replace(self, who: str, content: str, data: st.DataObject) -> None:
        id_ = self.known_id(data)
        current = self.model.get(id_, (1, ""))[0]
        version = data.draw(st.sampled_from([current, current, current - 1, current + 1, 1]))
        self.apply(who, {"operation": "scan", "query": "cache"})
        self.apply(who, {"operation": "put", "content": content, "replace": {"id": id_, "version": max(version, 1)}})

    @rule(who=ACTORS, data=st.data())
    def delete(self, who: str, data: st.DataObject) -> None:
        id_ = self.known_id(data)
        current = self.model.get(id_, (1, ""))[0]
        version = data.draw(st.sampled_from([current, current, current + 1, 1]))
        self.apply(who, {"operation": "delete", "id": id_, "version": max(version, 1)})

    @rule(who=ACTORS, call=calls())
    def hostile(self, who: str, call: dict[Any, Any]) -> None:
        result = checked(self.tools[who].call(call), call)
        rows = self.ledger.check(self.db, self.limits)
        if "error" in result or result["operation"] in ("scan", "read"):
            assert rows == self.model
        if who == "child" and call.get("operation") in ("put", "delete"):
            assert result["error"]["code"] == "forbidden"
        if result.get("operation") == "read" and "error" not in result:
            self.ever_read |= {m["key"]["id"] for m in result["memories"]}
        # a hostile call that happens to be valid is a real write: take the file as the new model
        for id_, (version, _) in rows.items():
            if self.model.get(id_, (0, ""))[0] != version:
                self.written_at[id_] = self.clock.now
        self.model = rows

    @rule(count=st.integers(1, 4), size=st.integers(10, 900))
    def fill(self, count: int, size: int) -> None:
        """Distinct records from the root agent, to reach the row, content and file bounds."""
        for _ in range(count):
            self.apply("root", {"operation": "scan", "query": "filler"})
            self.serial = getattr(self, "serial", 0) + 1
            self.apply("root", {"operation": "put", "content": f"filler {self.serial} " + "x" * size})

    @rule()
    def time_passes(self) -> None:
        self.clock.advance(PROBATION_MS)

    @invariant()
    def file_matches_model(self) -> None:
        if self.stores:
            assert self.ledger.check(self.db, self.limits) == self.model


ToolMachine.TestCase.settings = settings(
    max_examples=max(EXAMPLES_COUNT // 6, 10),
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_tool_state_machine = pytest.mark.slow(ToolMachine.TestCase)
