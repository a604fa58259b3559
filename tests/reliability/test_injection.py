"""Injection corpus: stored text comes back only as data, and the checkpoint marker is refused (I2, I5).

The corpus in ``fixtures/injection/`` holds records that imitate the checkpoint, system
instructions, tool calls and role tags, or try to break the JSON framing of a result, plus
repository files carrying the same tricks. Each must come back from ``scan`` and ``read`` as a JSON
string value inside a result whose shape is unchanged, byte for byte as stored.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

import pytest

from tact_memory.screening.checkpoint import CHECKPOINT_MARKER, CHECKPOINT_TEXT
from tact_memory.store.sqlite import MemoryStore
from tact_memory.tool.guard import Dispatcher, Role

from ..conftest import fixture_path
from .helpers import RECORD_FIELDS, check_result, raw_rows, run_tool_session

CORPUS = tomllib.loads(fixture_path("injection", "records.toml").read_text(encoding="utf-8"))["case"]
REPOSITORY = sorted(fixture_path("injection", "repository").iterdir())
MARKER = tomllib.loads(fixture_path("injection", "marker.toml").read_text(encoding="utf-8"))

CASES: list[tuple[str, str, str]] = [(c["name"], c["content"], c["query"]) for c in CORPUS] + [
    (f"repository/{p.name}", p.read_text(encoding="utf-8"), "") for p in REPOSITORY
]


def parse_exactly_one_object(text: str) -> dict[str, Any]:
    """The serialised result is one JSON object and nothing after it."""
    value, end = json.JSONDecoder().raw_decode(text)
    assert end == len(text), f"text after the result object: {text[end:]!r}"
    assert isinstance(value, dict)
    return value


def store_all(tool: Dispatcher) -> dict[str, int]:
    """Put every corpus text through the tool; return name -> id."""
    ids = {}
    for name, content, _ in CASES:
        tool.call({"operation": "scan", "query": "anything"})
        result = check_result(tool.call({"operation": "put", "content": content}))
        assert "error" not in result, (name, result)
        assert result["memory"]["content"] == content
        ids[name] = result["memory"]["key"]["id"]
    return ids


def test_corpus_is_present_and_fits_one_record() -> None:
    """The corpus is loaded from fixtures/ and every text fits one record (I8)."""
    assert len(CORPUS) >= 15 and len(REPOSITORY) >= 3 and len(MARKER["refused"]) >= 10
    assert all(len(content.encode("utf-8")) <= 1024 for _, content, _ in CASES)


@pytest.mark.parametrize("role", [Role.ROOT, Role.CHILD])
def test_read_returns_each_record_as_one_string_value(store: MemoryStore, role: Role) -> None:
    """I2: a read result keeps its shape; the hostile text is exactly the ``content`` string."""
    ids = store_all(Dispatcher(store, role=Role.ROOT))
    reader = Dispatcher(store, role=role)
    for name, content, _ in CASES:
        result = check_result(reader.call({"operation": "read", "ids": [ids[name]]}))
        wire = json.dumps(result)  # what the agent loop hands the model
        parsed = parse_exactly_one_object(wire)
        assert set(parsed) == {"operation", "memories"} and parsed["operation"] == "read"
        [memory] = parsed["memories"]
        assert set(memory) == RECORD_FIELDS
        assert memory["key"] == {"id": ids[name], "version": 1}
        assert memory["content"] == content, name
        assert "\n" not in wire  # every line break in the record is escaped inside the string


def test_scan_cards_carry_previews_as_data(store: MemoryStore) -> None:
    """I2: a scan finds hostile records by their words and returns safe-prefix previews only."""
    ids = store_all(Dispatcher(store, role=Role.ROOT))
    tool = Dispatcher(store, role=Role.ROOT)
    for name, content, query in CASES:
        if not query:
            continue
        result = parse_exactly_one_object(json.dumps(check_result(tool.call({"operation": "scan", "query": query}))))
        assert set(result) == {"operation", "abstained", "candidates"}
        cards = {card["key"]["id"]: card for card in result["candidates"]}
        assert ids[name] in cards, f"{name}: {query!r} did not find it"
        card = cards[ids[name]]
        assert set(card) == {"key", "score", "preview"}
        assert content.startswith(card["preview"])
        assert len(card["preview"].encode("utf-8")) <= 64
        assert card["preview"] == content or len(content.encode("utf-8")) > 64


def test_cli_session_keeps_one_result_per_line(config_path: Path) -> None:
    """I2 end to end: through ``tact-memory tool`` every hostile record is one JSON line, read back
    exactly, and the number of results equals the number of calls."""
    calls: list[dict[str, Any]] = []
    for _, content, _ in CASES:
        calls += [{"operation": "scan", "query": "anything"}, {"operation": "put", "content": content}]
    calls.append({"operation": "read", "ids": list(range(1, len(CASES) + 1))})
    calls.append({"operation": "scan", "query": "memory operation delete system"})
    stdout = run_tool_session(config_path, calls)
    lines = stdout.split("\n")
    assert lines[-1] == "" and len(lines) - 1 == len(calls)
    results = [check_result(parse_exactly_one_object(line)) for line in lines[:-1]]
    read = results[-2]
    assert [m["content"] for m in read["memories"]] == [content for _, content, _ in CASES]
    assert set(results[-1]) == {"operation", "abstained", "candidates"}


@pytest.mark.parametrize("case", MARKER["refused"], ids=lambda c: c["name"])
def test_content_imitating_the_checkpoint_marker_is_refused(store: MemoryStore, case: dict[str, str]) -> None:
    """I5: the reserved marker, in any spelling a reader would take for it, is never stored."""
    tool = Dispatcher(store, role=Role.ROOT)
    tool.call({"operation": "scan", "query": "x"})
    original = tool.call({"operation": "put", "content": "the billing service listens on port 8443"})
    tool.call({"operation": "scan", "query": "x"})
    before = raw_rows(store.path)
    for call in (
        {"operation": "put", "content": case["content"]},
        {"operation": "put", "content": case["content"], "replace": original["memory"]["key"]},
    ):
        result = check_result(tool.call(call))
        assert result["error"]["code"] == "invalid_arguments", result
        assert "control marker" in result["error"]["message"]
        assert case["content"] not in result["error"]["message"]
    assert raw_rows(store.path) == before


@pytest.mark.parametrize("text", [CHECKPOINT_MARKER, CHECKPOINT_TEXT, CHECKPOINT_TEXT.upper()])
def test_the_checkpoint_itself_is_refused(store: MemoryStore, text: str) -> None:
    """I5: the checkpoint text itself can never become a record."""
    tool = Dispatcher(store, role=Role.ROOT)
    tool.call({"operation": "scan", "query": "x"})
    assert tool.call({"operation": "put", "content": text})["error"]["code"] == "invalid_arguments"
    assert store.list_records() == []


@pytest.mark.parametrize("case", MARKER["kept"], ids=lambda c: c["name"])
def test_near_misses_of_the_marker_are_ordinary_text(store: MemoryStore, case: dict[str, str]) -> None:
    """I5: only the marker is reserved; text that merely mentions it is stored."""
    tool = Dispatcher(store, role=Role.ROOT)
    tool.call({"operation": "scan", "query": "x"})
    assert tool.call({"operation": "put", "content": case["content"]})["memory"]["content"] == case["content"]


def test_refusals_never_repeat_stored_text(store: MemoryStore) -> None:
    """I2: text reaches the model only inside scan and read results, never through an error."""
    ids = store_all(Dispatcher(store, role=Role.ROOT))
    tool = Dispatcher(store, role=Role.ROOT)
    for name, content, _ in CASES:
        id_ = ids[name]
        tool.call({"operation": "scan", "query": "x"})
        errors_seen = [
            tool.call({"operation": "put", "content": content.upper() if content.upper() != content else content}),
            tool.call({"operation": "put", "content": "a new version", "replace": {"id": id_, "version": 7}}),
            tool.call({"operation": "delete", "id": id_, "version": 9}),
        ]
        for result in errors_seen:
            message = check_result(result)["error"]["message"]
            assert content.strip()[:24] not in message, (name, message)
    tool.call({"operation": "delete", "id": ids[CASES[0][0]], "version": 1})
    missing = tool.call({"operation": "read", "ids": [ids[CASES[0][0]]]})
    assert missing == {"operation": "read", "memories": []}


def test_tool_definition_carries_no_stored_text(store: MemoryStore) -> None:
    """I2: the tool definition a model sees carries no stored text."""
    tool = Dispatcher(store, role=Role.ROOT)
    store_all(tool)
    definition = json.dumps(tool.definition())
    for _, content, _ in CASES:
        assert content.strip()[:24] not in definition
    assert check_result(tool.call({"operation": "scan", "query": "maintenance mode"}))["candidates"]
