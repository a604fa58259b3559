"""Pydantic models of the memory tool's input and output, and the schema a model is given.

Kept apart from :mod:`tact_memory.tool` so that importing the library stays fast: pydantic is
loaded the first time a call is validated or a schema is asked for, not at ``import tact_memory``.
The input is a closed union tagged by ``operation``; the JSON schema is generated from the same
models that validate calls, so the schema and the parser cannot drift. Unknown fields are refused
and integers are strict (``"3"`` and ``true`` are not ids).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, StrictInt, TypeAdapter, ValidationError

from . import errors
from .records import Candidate, MemoryRecord
from .tool import OPERATIONS, TOOL_DESCRIPTION, TOOL_NAME, load_arguments, peek_operation

__all__ = [
    "DeleteCall",
    "DeleteOutput",
    "ErrorOutput",
    "MemoryCall",
    "PutCall",
    "PutOutput",
    "ReadCall",
    "ReadOutput",
    "ReplaceKey",
    "ScanCall",
    "ScanOutput",
    "input_schema",
    "parse_call",
    "tool_definition",
]

PositiveId = Annotated[StrictInt, Field(ge=1)]


class _Closed(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class ScanCall(_Closed):
    """Search the memory for candidates."""

    operation: Literal["scan"]
    query: str = Field(
        description="Words to search for (at most 512 bytes): names of repositories, tools, errors, topics."
    )
    """Words to search for."""
    limit: Annotated[StrictInt, Field(ge=1, le=5)] = Field(
        default=5, description="How many candidates at most (1 to 5)."
    )
    """How many candidates at most."""


class ReadCall(_Closed):
    """Read complete records chosen from a scan."""

    operation: Literal["read"]
    ids: list[PositiveId] = Field(min_length=1, description="Ids of the records to read.")
    """Ids of the records to read; missing ones are omitted from the result."""


class ReplaceKey(_Closed):
    """The record a put replaces, at the version the agent saw."""

    id: PositiveId = Field(description="Id of the record to replace.")
    """Id of the record to replace."""
    version: PositiveId = Field(description="The version you saw; a newer one refuses the put.")
    """The version the agent saw."""


class PutCall(_Closed):
    """Store one conclusion, or replace a known record."""

    operation: Literal["put"]
    content: str = Field(
        description="One self-contained conclusion (at most 1,024 UTF-8 bytes) that names its scope."
    )
    """The conclusion to store."""
    replace: ReplaceKey | None = Field(
        default=None, description="Set to replace an existing record instead of adding one."
    )
    """The record to replace, if any."""


class DeleteCall(_Closed):
    """Remove a known record."""

    operation: Literal["delete"]
    id: PositiveId = Field(description="Id of the record to delete.")
    """Id of the record to delete."""
    version: PositiveId = Field(description="The version you saw; a newer one refuses the delete.")
    """The version the agent saw."""


MemoryCall = Annotated[Union[ScanCall, ReadCall, PutCall, DeleteCall], Field(discriminator="operation")]
"""One call of the memory tool."""

_CALL_ADAPTER: TypeAdapter[ScanCall | ReadCall | PutCall | DeleteCall] = TypeAdapter(MemoryCall)


class ScanOutput(BaseModel):
    """What a scan returns."""

    operation: Literal["scan"] = "scan"
    abstained: bool
    """True when no record shares a searchable term with the query."""
    candidates: list[Candidate]
    """At most five cards, best first."""


class ReadOutput(BaseModel):
    """What a read returns."""

    operation: Literal["read"] = "read"
    memories: list[MemoryRecord]
    """Complete records, in the order the ids were first named; missing ids are omitted."""


class PutOutput(BaseModel):
    """What a put returns."""

    operation: Literal["put"] = "put"
    memory: MemoryRecord
    """The stored record."""
    replaced: bool
    """True when an existing record was replaced."""


class DeleteOutput(BaseModel):
    """What a delete returns."""

    operation: Literal["delete"] = "delete"
    id: int
    """The id that was removed from retrieval."""


class ErrorDetail(BaseModel):
    """Why a call was refused; some codes add fields (``current_version``, ``key`` …)."""

    model_config = ConfigDict(extra="allow")
    code: str
    """A stable code from :mod:`tact_memory.errors`."""
    message: str
    """A sentence for the model; it never contains a rejected secret."""


class ErrorOutput(BaseModel):
    """A refused call. Nothing was changed."""

    operation: str | None
    """The operation the call named, if it named a known one."""
    error: ErrorDetail


def _inline_refs(node: Any, defs: Mapping[str, Any]) -> Any:
    if isinstance(node, dict):
        if "$ref" in node:
            return _inline_refs(defs[node["$ref"].rsplit("/", 1)[-1]], defs)
        return {k: _inline_refs(v, defs) for k, v in node.items() if k != "$defs"}
    if isinstance(node, list):
        return [_inline_refs(item, defs) for item in node]
    return node


@functools.cache
def _schema_json() -> str:
    raw = _CALL_ADAPTER.json_schema()
    schema: dict[str, Any] = _inline_refs(raw, raw.get("$defs", {}))
    schema.pop("discriminator", None)
    # Most model APIs (and MCP) require an object at the top; every variant is one.
    return json.dumps({"type": "object", **schema})


def input_schema() -> dict[str, Any]:
    """The JSON schema of one call: an object that is a closed ``oneOf`` tagged by ``operation``, no ``$ref``.

    Generated once per process (every model request carries it); each call returns a fresh copy,
    so a caller may change what it gets.
    """
    schema: dict[str, Any] = json.loads(_schema_json())
    return schema


def tool_definition() -> dict[str, Any]:
    """Name, description and input schema, the shape most model APIs take for a function tool."""
    return {"name": TOOL_NAME, "description": TOOL_DESCRIPTION, "input_schema": input_schema()}


_MAX_FIELD_NAME = 64
"""Longest field name an error repeats; a call can name any field, so the echo is bounded."""


def _describe(exc: ValidationError) -> str:
    problems = []
    for err in exc.errors()[:3]:
        where = ".".join(str(p) for p in err["loc"][1:]) or "call"
        if len(where) > _MAX_FIELD_NAME:
            where = where[: _MAX_FIELD_NAME - 1] + "…"
        if err["type"] == "extra_forbidden":
            problems.append(f"unknown field {where!r}")
        elif err["type"] == "missing":
            problems.append(f"missing field {where!r}")
        else:
            problems.append(f"{where}: {err['msg']}")
    return "; ".join(problems)


def parse_call(arguments: str | bytes | Mapping[str, Any]) -> ScanCall | ReadCall | PutCall | DeleteCall:
    """Validate one call.

    Raises:
        InvalidArguments: not JSON, not an object, unknown operation or field, or a bad value.
    """
    data = load_arguments(arguments)
    if "operation" not in data:
        raise errors.InvalidArguments("missing field 'operation' (one of scan, read, put, delete)")
    if peek_operation(data) is None:
        raise errors.InvalidArguments("unknown operation; use one of scan, read, put, delete")
    try:
        return _CALL_ADAPTER.validate_python(dict(data))
    except ValidationError as exc:
        raise errors.InvalidArguments(_describe(exc)) from None
    except (RecursionError, ValueError, TypeError) as exc:
        raise errors.InvalidArguments(f"arguments could not be validated: {type(exc).__name__}") from None
