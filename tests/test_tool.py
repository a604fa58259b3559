"""The memory tool: schema, validation, results, scan-before-put, disabled (I4, I6, I7)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion

from tact_memory.dispatch import Dispatcher, Role
from tact_memory.store import MemoryStore
from tact_memory.tool import MemoryTool
from tact_memory.tool_models import input_schema, tool_definition


def test_tool_definition_snapshot(snapshot: SnapshotAssertion) -> None:
    assert tool_definition() == snapshot


def test_schema_is_a_closed_tagged_union_without_refs() -> None:
    schema = input_schema()
    assert "$ref" not in json.dumps(schema) and "$defs" not in schema
    variants = schema["oneOf"]
    assert [v["properties"]["operation"]["const"] for v in variants] == ["scan", "read", "put", "delete"]
    for variant in variants:
        assert variant["additionalProperties"] is False
        assert "operation" in variant["required"]
    put = variants[2]
    assert put["properties"]["replace"]["anyOf"][0]["additionalProperties"] is False


@pytest.mark.parametrize(
    ("raw", "fragment"),
    [
        ("not json", "not valid JSON"),
        ("[1, 2]", "JSON object"),
        ('"scan"', "JSON object"),
        ("{}", "missing field 'operation'"),
        ('{"operation": "search", "query": "x"}', "unknown operation"),
        ('{"operation": "scan"}', "missing field 'query'"),
        ('{"operation": "scan", "query": "x", "extra": 1}', "unknown field 'extra'"),
        ('{"operation": "scan", "query": "x", "limit": 6}', "limit"),
        ('{"operation": "scan", "query": "x", "limit": "5"}', "limit"),
        ('{"operation": "scan", "query": 5}', "query"),
        ('{"operation": "read", "ids": []}', "ids"),
        ('{"operation": "read", "ids": ["1"]}', "ids.0"),
        ('{"operation": "read", "ids": [true]}', "ids.0"),
        ('{"operation": "read", "ids": [0]}', "ids.0"),
        ('{"operation": "put", "content": "x", "replace": {"id": 1}}', "replace.version"),
        ('{"operation": "put", "content": "x", "replace": {"id": 1, "version": 1, "force": true}}', "force"),
        ('{"operation": "delete", "id": 1}', "version"),
        ('{"operation": "delete", "id": 1.0, "version": 1}', "id"),
    ],
)
def test_bad_calls_are_invalid_arguments_results(store: MemoryStore, raw: str, fragment: str) -> None:
    result = MemoryTool(store).call(raw)
    assert result["error"]["code"] == "invalid_arguments"
    assert fragment in result["error"]["message"]
    assert not store.opened  # nothing was touched


def test_error_result_names_the_operation_when_known(store: MemoryStore) -> None:
    assert MemoryTool(store).call({"operation": "read", "ids": []})["operation"] == "read"
    assert MemoryTool(store).call({"operation": "nope"})["operation"] is None


@pytest.mark.release_gate
def test_put_requires_a_scan_since_the_last_put(store: MemoryStore) -> None:
    tool, other = MemoryTool(store), MemoryTool(store)
    put = {"operation": "put", "content": "The api repository pins Python 3.12"}
    assert tool.call(put)["error"]["code"] == "scan_required"
    other.call({"operation": "scan", "query": "python"})
    assert tool.call(put)["error"]["code"] == "scan_required"  # another agent's scan does not count
    tool.call({"operation": "scan", "query": "python version"})
    assert tool.call(put)["operation"] == "put"
    second = {"operation": "put", "content": "The web repository pins Node 22"}
    assert tool.call(second)["error"]["code"] == "scan_required"
    tool.call({"operation": "scan", "query": "node"})
    assert tool.call(second)["memory"]["key"] == {"id": 2, "version": 1}


def test_a_refused_put_keeps_the_scan(store: MemoryStore) -> None:
    tool = MemoryTool(store)
    tool.call({"operation": "scan", "query": "x"})
    assert tool.call({"operation": "put", "content": "x" * 2000})["error"]["code"] == "content_too_large"
    assert tool.call({"operation": "put", "content": "fits"})["operation"] == "put"


def run_session(tool: MemoryTool | Dispatcher, calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [tool.call(c) for c in calls]


def test_results_as_a_model_sees_them(store: MemoryStore, snapshot: SnapshotAssertion) -> None:
    calls: list[dict[str, Any]] = [
        {"operation": "scan", "query": "release tags commonware"},
        {"operation": "put", "content": "In the `commonware` repository, release tags use the form vX.Y.Z."},
        {"operation": "scan", "query": "how are release tags named in commonware?"},
        {"operation": "read", "ids": [1, 7]},
        {"operation": "put", "content": "In the `commonware` repository, release tags use the form vX.Y.Z-rc.N for candidates.", "replace": {"id": 1, "version": 1}},
        {"operation": "delete", "id": 1, "version": 1},
        {"operation": "delete", "id": 1, "version": 2},
        {"operation": "read", "ids": [1]},
    ]  # fmt: skip
    assert run_session(MemoryTool(store), calls) == snapshot


def test_error_results_carry_their_fields(store: MemoryStore) -> None:
    tool = MemoryTool(store)
    tool.call({"operation": "scan", "query": "x"})
    tool.call({"operation": "put", "content": "The user prefers pytest over unittest"})
    tool.call({"operation": "scan", "query": "x"})
    dup = tool.call({"operation": "put", "content": "the user prefers PYTEST over unittest"})
    assert dup["error"]["code"] == "duplicate" and dup["error"]["key"] == {"id": 1, "version": 1}
    conflict = tool.call({"operation": "delete", "id": 1, "version": 3})
    assert conflict["error"] == {
        "code": "version_conflict",
        "message": conflict["error"]["message"],
        "id": 1,
        "current_version": 1,
    }
    assert tool.call({"operation": "delete", "id": 5, "version": 1})["error"]["code"] == "not_found"


def test_disabled_memory_answers_every_operation_with_disabled(tmp_path: Path) -> None:
    tool = MemoryTool(None)
    for call in (
        {"operation": "scan", "query": "x"},
        {"operation": "read", "ids": [1]},
        {"operation": "put", "content": "x"},
        {"operation": "delete", "id": 1, "version": 1},
    ):
        result = tool.call(call)
        assert result["error"]["code"] == "disabled"
        assert "enabled = true" in result["error"]["message"]


def test_async_call_runs_in_a_worker_thread(store: MemoryStore) -> None:
    import threading

    seen: list[str] = []
    original = store.scan

    def spy(query: str, *, limit: int = 5) -> Any:
        seen.append(threading.current_thread().name)
        return original(query, limit=limit)

    store.scan = spy  # type: ignore[method-assign]

    async def main() -> dict[str, Any]:
        return await Dispatcher(store).acall({"operation": "scan", "query": "anything"})

    assert asyncio.run(main())["abstained"] is True
    assert seen and seen[0] != threading.main_thread().name


# -- role authorization (I6) ---------------------------------------------------------------------


@pytest.mark.release_gate
@pytest.mark.parametrize(
    "call",
    [
        {"operation": "put", "content": "child conclusion about ci"},
        {"operation": "put", "content": "child conclusion", "role": "root"},
        {"operation": "put", "content": "x", "replace": {"id": 1, "version": 1}, "agent": "root"},
        {"operation": "delete", "id": 1, "version": 1},
        {"operation": "delete", "id": 1, "version": 1, "role": "root", "caller": {"role": "root"}},
    ],
)
def test_child_mutation_is_forbidden_whatever_the_arguments_say(store: MemoryStore, call: dict[str, Any]) -> None:
    root = Dispatcher(store, role=Role.ROOT)
    root.call({"operation": "scan", "query": "ci"})
    root.call({"operation": "put", "content": "root conclusion about ci"})
    child = Dispatcher(store, role=Role.CHILD)
    child.call({"operation": "scan", "query": "ci"})
    result = child.call(call)
    assert result["operation"] == call["operation"]
    assert result["error"]["code"] == "forbidden"
    assert [(r.key.id, r.key.version, r.content) for r in store.list_records()] == [(1, 1, "root conclusion about ci")]


def test_child_may_scan_and_read(store: MemoryStore) -> None:
    root = Dispatcher(store, role=Role.ROOT)
    root.call({"operation": "scan", "query": "x"})
    root.call({"operation": "put", "content": "The lint job runs ruff and mypy"})
    child = Dispatcher(store, role="child")  # type: ignore[arg-type]
    assert child.call({"operation": "scan", "query": "lint job"})["candidates"][0]["key"] == {"id": 1, "version": 1}
    assert child.call({"operation": "read", "ids": [1]})["memories"][0]["read_count"] == 1


def test_dispatcher_passes_bad_json_through_as_invalid_arguments() -> None:
    child = Dispatcher(None, role=Role.CHILD)
    assert child.call("{")["error"]["code"] == "invalid_arguments"
    assert child.call('{"operation": "put", "content": "x"}')["error"]["code"] == "forbidden"
