"""The one decode of a memory tool call: total over JSON, exact about what it refuses, and reversible."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory import errors
from tact_memory.limits import DEFAULT_LIMITS, Limits
from tact_memory.records import RecordKey
from tact_memory.tool.wire import (
    FIELDS,
    OPERATIONS,
    Call,
    DeleteCall,
    InvalidCall,
    PutCall,
    ReadCall,
    ScanCall,
    decode,
    encode_call,
    operation_needs,
)

SMALL = Limits(scan_results=3, rows=4)

NAMES = st.one_of(
    st.sampled_from(["operation", "query", "limit", "ids", "content", "replace", "id", "version", "role"]),
    st.text(max_size=40),
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 8),
    st.integers(),
    st.floats(),
    st.text(max_size=8),
    st.sampled_from(list(OPERATIONS)),
)
JSON = st.recursive(
    SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=6), st.dictionaries(NAMES, inner, max_size=5)), max_leaves=16
)
CALL_SHAPED = st.builds(
    lambda operation, fields: {"operation": operation, **fields},
    st.sampled_from(list(OPERATIONS)),
    st.dictionaries(NAMES, JSON, max_size=4),
)

positive = st.integers(1, 2**70)
keys = st.builds(RecordKey, positive, positive)
CALLS: st.SearchStrategy[Call] = st.one_of(
    st.builds(ScanCall, st.text(), st.one_of(st.none(), st.integers(1, DEFAULT_LIMITS.scan_results))),
    st.builds(ReadCall, st.lists(positive, min_size=1, max_size=DEFAULT_LIMITS.rows).map(tuple)),
    st.builds(PutCall, st.text(), st.one_of(st.none(), keys)),
    st.builds(DeleteCall, keys),
)


@given(st.one_of(JSON, CALL_SHAPED), st.sampled_from([DEFAULT_LIMITS, SMALL]))
def test_any_json_value_decodes_to_a_call_or_invalid_arguments(value: Any, limits: Limits) -> None:
    for arguments in (value, json.dumps(value), json.dumps(value).encode("utf-8")):
        try:
            call = decode(arguments, limits)
        except InvalidCall as exc:
            assert exc.code == "invalid_arguments" and exc.message
            named = value.get("operation") if isinstance(value, dict) else None
            assert exc.operation == (named if named in OPERATIONS else None)
            if exc.operation is not None:
                assert exc.message.endswith(operation_needs(exc.operation, limits))
        else:
            assert isinstance(call, (ScanCall, ReadCall, PutCall, DeleteCall))
            assert call.operation == value["operation"]


@given(CALLS)
def test_a_valid_call_survives_encode_and_decode(call: Call) -> None:
    assert decode(encode_call(call)) == call
    assert decode(json.dumps(encode_call(call))) == call


@given(st.binary(max_size=40))
def test_any_bytes_decode_to_a_call_or_invalid_arguments(raw: bytes) -> None:
    try:
        decode(raw)
    except errors.InvalidArguments:
        pass


def test_every_field_in_the_table_belongs_to_one_operation() -> None:
    assert tuple(FIELDS) == OPERATIONS
    names = [spec.name for op in OPERATIONS for spec in FIELDS[op]]
    assert len(names) == len(set(names)) and "operation" not in names


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (b"\xff\xfe{", "arguments are not valid JSON: "),
        ("[" * 100_000, "arguments cannot be read: they are nested too deeply for a call"),
        ('{"operation": "read", "ids": [1' + "0" * 5_000 + "]}", "arguments cannot be read: a number has too many digits for a call"),
        ('{"operation": "read", "ids": [true, 1.0, "2", 0, -1]}', "ids.0 should be an integer; ids.1 should be an integer; ids.2 should be an integer; 2 more. "),
        ('{"operation": "scan", "query": "x", "limit": false}', "limit should be an integer. "),
        ('{"operation": "scan", "query": "x", "limit": null}', None),
        ('{"operation": "put", "content": "x", "replace": null}', None),
        ('{"operation": "put", "content": null}', "missing field 'content' (null counts as absent). "),
        ('{"operation": "put", "content": "x", "replace": [1, 1]}', "replace should be an object. "),
        ('{"operation": "delete", "id": 1, "version": 1, "query": "x", "ids": [1]}', "'query' is a field of scan, not of delete; 'ids' is a field of read, not of delete. "),
    ],
)  # fmt: skip
def test_refusals_name_each_problem(arguments: str | bytes, message: str | None) -> None:
    if message is None:
        decode(arguments)
        return
    with pytest.raises(InvalidCall) as caught:
        decode(arguments)
    assert caught.value.message.startswith(message)


def test_bounds_come_from_the_limits_given() -> None:
    assert decode({"operation": "scan", "query": "x", "limit": 5}) == ScanCall("x", 5)
    with pytest.raises(InvalidCall, match="limit should be at most 3"):
        decode({"operation": "scan", "query": "x", "limit": 4}, SMALL)
    assert decode({"operation": "read", "ids": [4, 4, 1, 2]}, SMALL) == ReadCall((4, 4, 1, 2))
    # The row bound does not bound a read's ids: a longer list is a valid call.
    assert decode({"operation": "read", "ids": [7] * (SMALL.rows + 1)}, SMALL) == ReadCall((7,) * (SMALL.rows + 1))


def test_a_name_that_is_not_a_string_is_refused() -> None:
    # Only a decoded object can carry one; JSON names are always strings.
    with pytest.raises(InvalidCall, match="^query should be a string; 5 keys should be strings; unknown field 'x'"):
        decode({"operation": "scan", 5: 1, "query": 3, "x": 1})
    with pytest.raises(InvalidCall, match="^replace.1 keys should be strings"):
        decode({"operation": "put", "content": "x", "replace": {1: 2, "id": 1, "version": 1}})


def test_the_published_error_codes_do_not_depend_on_what_else_is_imported() -> None:
    """A subprocess that imports only the tool publishes the same output schema as one that has
    loaded every module with errors of its own (the CLI's transfer, the team service)."""
    import json
    import subprocess
    import sys

    probe = "import json, sys; {imports}from tact_memory.tool.schemas import output_schema; print(json.dumps(output_schema()))"
    bare = subprocess.run([sys.executable, "-c", probe.format(imports="")], capture_output=True, text=True, check=True)
    loaded = subprocess.run(
        [sys.executable, "-c", probe.format(imports="import tact_memory.cli.transfer; ")],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert json.loads(bare.stdout) == json.loads(loaded.stdout)


REPEATED = [
    ('{"operation": "read", "operation": "delete", "id": 2, "version": 1}', "'operation'"),
    ('{"operation": "put", "content": "a", "replace": {"id": 1, "version": 9, "version": 1}}', "'version'"),
    ('{"operation": "read", "ids": [1], "ids": [2]}', "'ids'"),
    ('{"operation": "scan", "query": "a", "query": "b"}', "'query'"),
    ('{"operation": "scan", "query": "a", "ghp_abcdefghijklmnopqrstuvwxyz0123456789": 1, '
     '"ghp_abcdefghijklmnopqrstuvwxyz0123456789": 2}', "one field"),
    ('{"operation": "scan", "query": "a", "whatever": 1, "whatever": 1}', "one field"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "named"), REPEATED)
@pytest.mark.parametrize("as_bytes", [False, True])
def test_a_call_naming_a_field_twice_is_refused_whole(text: str, named: str, as_bytes: bool) -> None:
    """JSON leaves open which of two values of one name counts (RFC 8259, 4), and parsers differ:
    a call read one way here and another way by whoever checked it must not run."""
    with pytest.raises(InvalidCall) as refused:
        decode(text.encode() if as_bytes else text)
    assert refused.value.message.startswith(f"arguments name {named} twice")
    assert "ghp_" not in refused.value.message and "whatever" not in refused.value.message


@given(st.dictionaries(st.text(max_size=8), st.integers(), min_size=1, max_size=5), st.data())
def test_loads_once_reads_every_object_with_distinct_names_as_json_does_and_refuses_any_repeat(
    obj: dict[str, int], data: st.DataObject
) -> None:
    from tact_memory.tool.wire import RepeatedName, loads_once

    text = json.dumps({"outer": [obj]})
    assert loads_once(text) == json.loads(text)
    name = data.draw(st.sampled_from(sorted(obj)))
    repeated = text[:-3] + f", {json.dumps(name)}: 0" + text[-3:]  # the same name again, in the same object
    with pytest.raises(RepeatedName) as seen:
        loads_once(repeated)
    assert seen.value.name == name
