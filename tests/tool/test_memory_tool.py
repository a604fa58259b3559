"""The memory tool: schema, validation, results, scan-before-put, disabled (I4, I6, I7)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion

from tact_memory.limits import Limits
from tact_memory.store.sqlite import MemoryStore
from tact_memory.tool import wire
from tact_memory.tool.guard import Dispatcher, Role
from tact_memory.tool.memory_tool import MemoryTool, scanned_since_put
from tact_memory.tool.schemas import input_schema, operation_input_schema, output_schema, tool_definition
from tact_memory.tool.wire import OPERATIONS, operation_needs

ROOT = Path(__file__).resolve().parents[2]


def test_tool_definition_snapshot(snapshot: SnapshotAssertion) -> None:
    assert tool_definition() == snapshot


def test_the_published_error_says_what_a_refusal_or_a_failure_changed(snapshot: SnapshotAssertion) -> None:
    """A refusal changed nothing; a team service's lost answer may have changed something, and the
    result's schema, which MCP clients show the model, says so rather than "nothing was changed"."""
    error = output_schema()["properties"]["error"]
    assert error == snapshot
    assert "unless the message says the change may have been made" in error["description"]


def shape(prop: dict[str, Any]) -> dict[str, Any]:
    """An optional field's own schema (it is published as that or null)."""
    if "anyOf" in prop:
        value, null = prop["anyOf"]
        assert null == {"type": "null"}
        return dict(value)
    return prop


def test_published_schema_is_one_object_whose_fields_name_their_operation() -> None:
    schema = input_schema()
    assert "$ref" not in json.dumps(schema) and "$defs" not in schema
    assert not {"oneOf", "anyOf", "allOf"} & set(schema)
    assert schema["type"] == "object" and schema["additionalProperties"] is False
    assert schema["required"] == ["operation"]
    assert schema["properties"]["operation"] == {**schema["properties"]["operation"], "type": "string", "enum": list(OPERATIONS)}
    owners = {name: op for op in OPERATIONS for name in operation_input_schema(op)["properties"]}
    assert set(schema["properties"]) == {"operation", *owners}
    for name, owner in owners.items():
        need = "required" if name in operation_input_schema(owner)["required"] else "optional"
        assert schema["properties"][name]["description"].startswith(f"`{owner}` ({need}): ")
    assert shape(schema["properties"]["replace"])["additionalProperties"] is False
    assert shape(schema["properties"]["replace"])["required"] == ["id", "version"]
    # Every field but the operation may be sent as null, which a strict client does for all it leaves out.
    assert all("anyOf" in prop for name, prop in schema["properties"].items() if name != "operation")


def test_no_two_operations_share_a_field_name() -> None:
    names = [name for op in OPERATIONS for name in operation_input_schema(op)["properties"]]
    assert len(names) == len(set(names))


def test_bounds_in_schema_and_validation_come_from_the_store(make_store: Any) -> None:
    store = make_store(limits=Limits(scan_results=3, rows=4, record_bytes=100, query_bytes=50, preview_bytes=20))
    tool = MemoryTool(store)
    properties = tool.definition()["input_schema"]["properties"]
    assert shape(properties["limit"])["maximum"] == 3 and "1 to 3" in properties["limit"]["description"]
    assert "maxItems" not in shape(properties["ids"])  # the row bound is not a bound on a read's ids
    assert "100 UTF-8 bytes" in properties["content"]["description"]
    assert "50 UTF-8 bytes" in properties["query"]["description"]
    assert "at most 3 compact candidates" in tool.definition()["description"]
    assert "20-byte preview" in tool.definition()["description"]
    assert tool.call({"operation": "scan", "query": "x", "limit": 4})["error"]["code"] == "invalid_arguments"
    assert tool.call({"operation": "read", "ids": [1, 2, 3, 4, 5]})["memories"] == []
    for i in range(5):
        tool.call({"operation": "scan", "query": "x"})
        tool.call({"operation": "put", "content": f"release note {i}"})
    # Without a limit, a scan asks for as many candidates as this store allows.
    assert len(tool.call({"operation": "scan", "query": "release note"})["candidates"]) == 3


def test_a_read_names_as_many_ids_as_it_likes(store: MemoryStore) -> None:
    # "The ID list has no separate record cap. Missing IDs are omitted from the result."
    assert "maxItems" not in shape(input_schema()["properties"]["ids"])
    tool = MemoryTool(store)
    tool.call({"operation": "scan", "query": "x"})
    kept = tool.call({"operation": "put", "content": "In the zephyr repository, release tags are signed."})["memory"]
    wanted = [*range(kept["key"]["id"] + 1, kept["key"]["id"] + 2 * store.limits.rows), kept["key"]["id"]]
    assert len(wanted) > store.limits.rows
    answer = tool.call({"operation": "read", "ids": wanted})
    assert [m["key"] for m in answer["memories"]] == [kept["key"]]
    assert answer["memories"][0]["read_count"] == 1


VALID: dict[str, dict[str, Any]] = {
    "scan": {"query": "release tags", "limit": 2},
    "read": {"ids": [1]},
    "put": {"content": "fits", "replace": {"id": 1, "version": 1}},
    "delete": {"id": 1, "version": 1},
}
"""One well-formed call of each operation, with every field it takes."""

JSON_VALUES: dict[str, object] = {
    "string": "1",
    "integer": 7,
    "number": 1.5,
    "boolean": True,
    "array": [1],
    "object": {"id": 1},
    "null": None,
}


def _malformed() -> list[tuple[str, dict[str, Any], str]]:
    """Every malformed combination: (operation, call, a fragment the refusal must hold)."""
    cases: list[tuple[str, dict[str, Any], str]] = []
    for op in OPERATIONS:
        schema = operation_input_schema(op)
        call = {"operation": op, **VALID[op]}
        for other in OPERATIONS:
            for name, value in VALID[other].items():
                if other != op:
                    cases.append((op, {**call, name: value}, f"'{name}' is a field of {other}, not of {op}"))
        for name in schema["required"]:
            cases.append((op, {k: v for k, v in call.items() if k != name}, f"missing field '{name}'"))
        for name, prop in schema["properties"].items():
            declared = shape(prop)["type"]
            for kind, value in JSON_VALUES.items():
                optional_null = kind == "null" and name not in schema["required"]
                if kind != declared and not (kind == "integer" and declared == "number") and not optional_null:
                    cases.append((op, {**call, name: value}, name))
        cases.append((op, {**call, "extra": 1}, "unknown field 'extra'"))
    return cases


MALFORMED = _malformed()


@pytest.mark.parametrize(("operation", "call", "fragment"), MALFORMED, ids=[json.dumps(c) for _, c, _ in MALFORMED])
def test_every_malformed_combination_says_what_the_operation_needs(
    store: MemoryStore, operation: str, call: dict[str, Any], fragment: str
) -> None:
    result = MemoryTool(store).call(call)
    assert result["operation"] == operation
    assert result["error"]["code"] == "invalid_arguments"
    message = result["error"]["message"]
    assert fragment in message
    assert message.endswith(operation_needs(operation, store.limits))
    for name in operation_input_schema(operation)["required"]:
        assert name in operation_needs(operation)
    assert not store.opened


@pytest.mark.parametrize("operation", ["search", "", "SCAN", 5, None, ["scan"]])
def test_an_unknown_operation_names_every_operation(store: MemoryStore, operation: object) -> None:
    result = MemoryTool(store).call({"operation": operation, "query": "x"})
    assert result["operation"] is None and result["error"]["code"] == "invalid_arguments"
    assert all(op in result["error"]["message"] for op in OPERATIONS)


@pytest.mark.parametrize(
    "name",
    [
        "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",  # long and credential-shaped
        "AKIAFAKE0EXAMPLE07EL",  # short, but a credential
        "k" * 33,  # only too long
    ],
)
@pytest.mark.parametrize("nested", [False, True])
def test_an_unknown_field_name_is_not_repeated_when_long_or_secret(store: MemoryStore, name: str, nested: bool) -> None:
    call: dict[str, Any] = {"operation": "put", "content": "fits", "replace": {"id": 1, "version": 1}}
    if nested:
        call["replace"][name] = 1
    else:
        call[name] = 1
    result = MemoryTool(store).call(call)
    assert result["error"]["code"] == "invalid_arguments"
    message = result["error"]["message"]
    assert "an unknown field" in message and name not in message
    assert not any(name[i : i + 8] in message for i in range(len(name) - 7))
    assert ("in replace" in message) is nested


def test_a_short_plain_unknown_field_is_named(store: MemoryStore) -> None:
    result = MemoryTool(store).call({"operation": "scan", "query": "x", "colour": "red"})
    assert "unknown field 'colour'" in result["error"]["message"]
    nested = MemoryTool(store).call({"operation": "put", "content": "x", "replace": {"id": 1, "version": 1, "force": 1}})
    assert "unknown field 'replace.force'" in nested["error"]["message"]


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


def test_the_results_read_back_say_whether_the_tool_scanned_since_its_last_put(store: MemoryStore) -> None:
    """A run resumed elsewhere reads the tool's results from its saved history: as objects, as JSON
    text, or among messages that are not the tool's results, they say what the tool itself counted."""
    tool = MemoryTool(store)
    steps = [  # a call, and whether the tool has scanned since its last put once it is answered
        ({"operation": "put", "content": "too early"}, False),
        ({"operation": "scan"}, False),  # refused: no query
        ({"operation": "scan", "query": "python"}, True),
        ({"operation": "put", "content": "The api repository pins Python 3.12"}, False),
        ({"operation": "scan", "query": "node"}, True),
        ({"operation": "read", "ids": [1]}, True),
        ({"operation": "put", "content": "x" * 2000}, True),  # refused: too large
    ]
    results: list[object] = []
    for call, scanned in steps:
        results.append(tool.call(call))
        assert scanned_since_put(results) is scanned
        assert scanned_since_put([json.dumps(r) for r in results]) is scanned
        assert scanned_since_put([*results, "The tool call was denied.", None, b"{"]) is scanned
    assert scanned_since_put([]) is False


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
        "message": "memory 1 has no version 3; it is at version 1. Read it again before deleting it",
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
        return await Dispatcher(store, role=Role.ROOT).acall({"operation": "scan", "query": "anything"})

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


def test_a_child_put_is_forbidden_even_when_malformed(store: MemoryStore) -> None:
    child = Dispatcher(store, role=Role.CHILD, refusal_note=" (a sub-agent)")
    for call in ({"operation": "put", "content": 5}, {"operation": "delete", "id": "1"}, {"operation": "put", "x": 1}):
        result = child.call(call)
        assert result["operation"] == call["operation"] and result["error"]["code"] == "forbidden"
        assert result["error"]["message"].endswith("Report the conclusion to your parent agent instead. (a sub-agent)")
    assert child.call({"operation": "scan", "query": 5})["error"]["code"] == "invalid_arguments"
    assert not store.opened


@pytest.mark.parametrize("role", [Role.ROOT, Role.CHILD])
def test_the_dispatcher_decodes_each_call_once(store: MemoryStore, monkeypatch: pytest.MonkeyPatch, role: Role) -> None:
    from tact_memory.tool import memory_tool

    decoded: list[object] = []

    def counting(arguments: Any, limits: Limits) -> Any:
        decoded.append(arguments)
        return wire.decode(arguments, limits)

    monkeypatch.setattr(memory_tool, "decode", counting)
    dispatcher = Dispatcher(store, role=role)
    calls = [
        '{"operation": "scan", "query": "release"}',
        {"operation": "put", "content": "Release tags use vX.Y.Z"},
        {"operation": "read", "ids": [1]},
        {"operation": "delete", "id": 1, "version": 1},
        "{",
    ]
    for number, call in enumerate(calls, start=1):
        dispatcher.call(call)
        assert decoded == calls[:number]


def test_results_match_the_published_output_schemas(store: MemoryStore) -> None:
    from jsonschema import Draft202012Validator

    tool = MemoryTool(store)
    calls: list[Any] = [
        {"operation": "put", "content": "x"},
        {"operation": "scan", "query": "ports"},
        {"operation": "put", "content": "The cache service listens on port 8080"},
        {"operation": "scan", "query": "cache port"},
        {"operation": "put", "content": "The cache service listens on port 9090", "replace": {"id": 1, "version": 1}},
        {"operation": "read", "ids": [1, 2]},
        {"operation": "delete", "id": 1, "version": 1},
        {"operation": "delete", "id": 1, "version": 2},
        {"operation": "search"},
        "not json",
    ]
    results = [tool.call(call) for call in calls]
    assert [r.get("error", {}).get("code") for r in results] == [
        "scan_required", None, None, None, None, None, "version_conflict", None, "invalid_arguments", "invalid_arguments",
    ]  # fmt: skip
    for result in results:
        Draft202012Validator(output_schema()).validate(result)
        if result["operation"] is not None:
            Draft202012Validator(output_schema(result["operation"])).validate(result)
            if "error" not in result:
                assert list(result) == ["operation", *list(output_schema(result["operation"])["properties"])[1:-1]]


def test_the_tool_runs_without_pydantic(tmp_path: Path) -> None:
    """Decoding, running, answering and publishing the schema never load pydantic (it costs a cold process ~90 ms)."""
    code = f"""
import json, sys
from tact_memory.store.sqlite import MemoryStore
from tact_memory.tool import Dispatcher, Role
from tact_memory.tool.schemas import output_schema

store = MemoryStore({str(tmp_path / "memory.db")!r})
root, child = Dispatcher(store, role=Role.ROOT), Dispatcher(store, role=Role.CHILD)
results = [
    root.definition(), output_schema(),
    root.call('{{"operation": "scan", "query": "release tags"}}'),
    root.call({{"operation": "put", "content": "Release tags use the form vX.Y.Z"}}),
    child.call({{"operation": "read", "ids": [1]}}),
    child.call({{"operation": "delete", "id": 1, "version": 1}}),
    root.call(b'{{"operation": "delete", "id": 1, "version": 1}}'),
    root.call({{"operation": "read", "ids": ["1"]}}),
]
store.close()
print(json.dumps({{"pydantic": sorted(m for m in sys.modules if m.split(".")[0] in ("pydantic", "pydantic_core")),
                  "results": results[2:]}}))
"""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    found = json.loads(done.stdout)
    assert found["pydantic"] == []
    codes = [r.get("error", {}).get("code") for r in found["results"]]
    assert codes == [None, None, None, "forbidden", None, "invalid_arguments"]


@pytest.mark.parametrize("namespace", ["alice", "", "x" * 300])
def test_a_local_store_refuses_a_key_that_names_a_namespace_and_changes_nothing(
    store: MemoryStore, namespace: str
) -> None:
    """Keys of a memory no team shares have no namespace: one that names any (copied from a team
    memory) names no record here, and the refusal does not repeat it."""
    tool = MemoryTool(store)
    tool.call({"operation": "scan", "query": "deploys"})
    key = tool.call({"operation": "put", "content": "Deploys of billing-api need two approvals"})["memory"]["key"]
    assert set(key) == {"id", "version"}
    tool.call({"operation": "scan", "query": "deploys"})
    before = store.list_records(order="id")
    for call in (
        {"operation": "put", "content": "Deploys need three approvals", "replace": {**key, "namespace": namespace}},
        {"operation": "delete", **key, "namespace": namespace},
    ):
        error = tool.call(call)["error"]
        assert error["code"] == "not_found" and error["id"] == key["id"]
        assert "namespace" in error["message"] and (not namespace or namespace not in error["message"])
    assert store.list_records(order="id") == before
    # the same key without a namespace, or with a null one, is taken
    assert tool.call({"operation": "put", "content": "Deploys need three approvals", "replace": {**key, "namespace": None}})["replaced"]
    assert "error" not in tool.call({"operation": "delete", "id": key["id"], "version": 2, "namespace": None})


def test_a_dispatcher_has_no_default_role(store: MemoryStore) -> None:
    """I17: an agent is never the root because nobody said otherwise; the role is stated or refused."""
    with pytest.raises(TypeError, match="role"):
        Dispatcher(store)  # type: ignore[call-arg]
    with pytest.raises(ValueError):
        Dispatcher(store, role="admin")  # type: ignore[arg-type]
    assert not store.opened  # nothing was opened for the refused ones
    assert Dispatcher(store, role="child").call({"operation": "put", "content": "x"})["error"]["code"] == "forbidden"


@pytest.mark.parametrize(
    ("arguments", "root"),
    [
        ({"operation": "scan", "query": "zephyr"}, False),
        ({"operation": "read", "ids": [1]}, False),
        ({"operation": "put", "content": "Zephyr uses tabs."}, True),
        ('{"operation": "delete", "id": 1, "version": 1}', True),
        ({"operation": "put"}, False),  # malformed: refused at once, whatever a person would say
        ({"operation": "delete", "id": 0, "version": 1}, False),
        ("not json", False),
    ],
)
def test_would_write_names_the_writes_a_person_may_be_asked_about(tmp_path: Path, arguments: Any, root: bool) -> None:
    store = MemoryStore(tmp_path / "m.sqlite3")
    # A put is asked about before any scan: a scan beside it in one response may run first.
    assert Dispatcher(store, role=Role.ROOT).would_write(arguments) is root
    assert Dispatcher(store, role=Role.CHILD).would_write(arguments) is False
    assert Dispatcher(None, role=Role.ROOT).would_write(arguments) is False
    assert not store.opened  # asking decodes the call and opens nothing
