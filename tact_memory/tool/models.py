"""Pydantic models of the memory tool's input and output, and the schemas a model and a client are given.

Kept apart from :mod:`tact_memory.tool.memory_tool` so that importing the library stays fast: pydantic is
loaded the first time a call is validated or a schema is asked for, not at ``import tact_memory``.

Validation is closed and tagged: a call names its ``operation`` and is checked against that
operation's model alone, so fields of another operation, unknown fields, missing fields and wrong
types are all ``invalid_arguments``, and integers are strict (``"3"`` and ``true`` are not ids).
The bounds that depend on the store (most candidates, most ids) come from its
:class:`~tact_memory.limits.Limits`, given as the validation context.

The *published* input schema is flatter than that: one object with ``operation`` as a required
string enum and every other field an optional property whose description says which operation
uses it. Model APIs take nothing else at the top of a tool schema (Anthropic's Messages API refuses
a root ``oneOf``, ``anyOf`` or ``allOf``, and OpenAI function calling wants an object), and some
clients do not resolve ``$ref``, so every published schema is an object with no combinator at its
root and no reference anywhere. It is still generated from the models that validate calls, so the
two cannot drift apart on a field's type or bounds.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Annotated, Any, Literal, Union

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    ValidationError,
    ValidationInfo,
    field_validator,
)
from pydantic_core import PydanticCustomError

from .. import errors
from ..limits import DEFAULT_LIMITS, Limits
from ..records import Candidate, MemoryRecord
from ..screening.credentials import find_secret
from .memory_tool import (
    OPERATIONS,
    TOOL_NAME,
    load_arguments,
    peek_operation,
    tool_description,
)

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
    "operation_input_schema",
    "operation_needs",
    "output_schema",
    "parse_call",
    "tool_definition",
]

PositiveId = Annotated[StrictInt, Field(ge=1)]


def _limits(info: ValidationInfo) -> Limits:
    return info.context if isinstance(info.context, Limits) else DEFAULT_LIMITS


class _Closed(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


# Descriptions are templates: ``{limits.…}`` is filled in with the bounds of the store the schema
# is published for.


class ScanCall(_Closed):
    """Search the memory for candidates."""

    operation: Literal["scan"]
    query: str = Field(
        description="Words to search for (at most {limits.query_bytes:,} UTF-8 bytes): names of "
        "repositories, tools, errors, topics."
    )
    """Words to search for."""
    limit: Annotated[StrictInt, Field(ge=1)] | None = Field(
        default=None, description="How many candidates at most (1 to {limits.scan_results}; that many if omitted)."
    )
    """How many candidates at most; ``None`` means as many as the store's bound allows."""

    @field_validator("limit")
    @classmethod
    def _within_scan_results(cls, value: int | None, info: ValidationInfo) -> int | None:
        bound = _limits(info).scan_results
        if value is not None and value > bound:
            raise PydanticCustomError("scan_results", "should be at most {bound}", {"bound": bound})
        return value


class ReadCall(_Closed):
    """Read complete records chosen from a scan."""

    operation: Literal["read"]
    ids: list[PositiveId] = Field(
        min_length=1, description="Ids of the records to read (1 to {limits.rows}); missing ones are left out."
    )
    """Ids of the records to read; missing ones are omitted from the result."""

    @field_validator("ids", mode="before")
    @classmethod
    def _within_rows(cls, value: object, info: ValidationInfo) -> object:
        # Checked before the items, so a huge list is refused without validating each element.
        bound = _limits(info).rows
        if isinstance(value, list) and len(value) > bound:
            raise PydanticCustomError("rows", "should hold at most {bound} ids", {"bound": bound})
        return value


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
        description="One self-contained conclusion (at most {limits.record_bytes:,} UTF-8 bytes) that names its scope."
    )
    """The conclusion to store."""
    replace: ReplaceKey | None = Field(
        default=None,
        description="The record to replace, as {{id, version}} from a scan or read; leave out to add a new record.",
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

_CALLS: dict[str, type[ScanCall | ReadCall | PutCall | DeleteCall]] = {
    "scan": ScanCall,
    "read": ReadCall,
    "put": PutCall,
    "delete": DeleteCall,
}


class ScanOutput(BaseModel):
    """What a scan returns."""

    operation: Literal["scan"] = "scan"
    abstained: bool = Field(description="True when no record shares a searchable term with the query.")
    """True when no record shares a searchable term with the query."""
    candidates: list[Candidate] = Field(description="Compact cards, best first (at most {limits.scan_results}).")
    """At most five cards, best first."""


class ReadOutput(BaseModel):
    """What a read returns."""

    operation: Literal["read"] = "read"
    memories: list[MemoryRecord] = Field(
        description="Complete records, in the order the ids were first named; missing ids are left out."
    )
    """Complete records, in the order the ids were first named; missing ids are omitted."""


class PutOutput(BaseModel):
    """What a put returns."""

    operation: Literal["put"] = "put"
    memory: MemoryRecord = Field(description="The stored record.")
    """The stored record."""
    replaced: bool = Field(description="True when an existing record was replaced.")
    """True when an existing record was replaced."""


class DeleteOutput(BaseModel):
    """What a delete returns."""

    operation: Literal["delete"] = "delete"
    id: int = Field(description="The id that was removed from retrieval.")
    """The id that was removed from retrieval."""


_OUTPUTS: dict[str, type[BaseModel]] = {
    "scan": ScanOutput,
    "read": ReadOutput,
    "put": PutOutput,
    "delete": DeleteOutput,
}


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


# -- published schemas ---------------------------------------------------------------------------


def _inline_refs(node: Any, defs: Mapping[str, Any]) -> Any:
    if isinstance(node, dict):
        if "$ref" in node:
            return _inline_refs(defs[node["$ref"].rsplit("/", 1)[-1]], defs)
        return {k: _inline_refs(v, defs) for k, v in node.items() if k != "$defs"}
    if isinstance(node, list):
        return [_inline_refs(item, defs) for item in node]
    return node


def _keyword_order(node: dict[str, Any]) -> dict[str, Any]:
    """``type`` and ``description`` first, so a person reading the schema sees them first."""
    head: dict[str, Any] = {key: node[key] for key in ("type", "const", "enum", "description") if key in node}
    return {**head, **{key: value for key, value in node.items() if key not in head}}


def _published(node: Any, limits: Limits, *, nullable: bool) -> Any:
    """One schema node as published: no titles, bounds filled in.

    With ``nullable`` false (inputs), an optional field is published as its own type: a caller
    leaves it out rather than send null. With ``nullable`` true (outputs), a value that may be null
    is ``"type": [T, "null"]``.
    """
    if not isinstance(node, dict):
        return node
    node = dict(node)
    options = node.get("anyOf")
    if isinstance(options, list) and {"type": "null"} in options and len(options) == 2:
        (kept,) = [o for o in options if o != {"type": "null"}]
        if nullable and set(kept) == {"type"} and isinstance(kept["type"], str):
            del node["anyOf"]
            node = {"type": [kept["type"], "null"], **node}
        elif not nullable:
            del node["anyOf"]
            if node.get("default", 0) is None:
                del node["default"]
            node = {**kept, **node}
    node.pop("title", None)
    if isinstance(node.get("description"), str):
        node["description"] = node["description"].format(limits=limits)
    for key in ("items", "additionalProperties"):
        if isinstance(node.get(key), dict):
            node[key] = _published(node[key], limits, nullable=nullable)
    for key in ("anyOf", "oneOf", "allOf"):
        if isinstance(node.get(key), list):
            node[key] = [_published(option, limits, nullable=nullable) for option in node[key]]
    if isinstance(node.get("properties"), dict):
        node["properties"] = {
            name: _published(prop, limits, nullable=nullable) for name, prop in node["properties"].items()
        }
    return _keyword_order(node)


def _model_schema(model: type[BaseModel], limits: Limits, *, nullable: bool) -> dict[str, Any]:
    raw = model.model_json_schema()
    schema: dict[str, Any] = _published(_inline_refs(raw, raw.get("$defs", {})), limits, nullable=nullable)
    return schema


def _bounds(operation: str, field: str, limits: Limits) -> dict[str, Any]:
    """Bounds a field's schema gets from the store's limits (validation enforces the same ones)."""
    if (operation, field) == ("scan", "limit"):
        return {"maximum": limits.scan_results}
    if (operation, field) == ("read", "ids"):
        return {"maxItems": limits.rows}
    return {}


def _fields(operation: str, limits: Limits) -> tuple[dict[str, Any], list[str]]:
    """The published properties of one operation (without ``operation``) and which are required."""
    schema = _model_schema(_CALLS[operation], limits, nullable=False)
    properties = {
        name: _keyword_order({**prop, **_bounds(operation, name, limits)})
        for name, prop in schema["properties"].items()
        if name != "operation"
    }
    required = [name for name in schema.get("required", []) if name != "operation"]
    return properties, required


@functools.cache
def _input_schema_json(limits: Limits) -> str:
    properties: dict[str, Any] = {
        "operation": {
            "type": "string",
            "enum": list(OPERATIONS),
            "description": "Which operation to run. Send only the fields that operation uses; each "
            "field below says which operation it belongs to, and a field of another operation is refused.",
        }
    }
    for operation in OPERATIONS:
        fields, required = _fields(operation, limits)
        for name, prop in fields.items():
            if name in properties:  # pragma: no cover - guarded by a test on the models
                raise AssertionError(f"field {name!r} is used by two operations")
            need = "required" if name in required else "optional"
            properties[name] = {**prop, "description": f"`{operation}` ({need}): {prop['description']}"}
    return json.dumps(
        {"type": "object", "properties": properties, "required": ["operation"], "additionalProperties": False}
    )


def input_schema(limits: Limits = DEFAULT_LIMITS) -> dict[str, Any]:
    """The published JSON schema of one call of the ``memory`` tool.

    A root object: ``operation`` is a required string enum and every other field is an optional
    property whose description names the operation that uses it; no combinator at the root, no
    ``$ref``. Validation (:func:`parse_call`) is stricter: it holds each operation to its own fields.
    Generated once per process and bounds (every model request carries it); each call returns a
    fresh copy, so a caller may change what it gets.

    Args:
        limits: The bounds of the store the tool is built with.
    """
    schema: dict[str, Any] = json.loads(_input_schema_json(limits))
    return schema


@functools.cache
def _operation_schema_json(operation: str, limits: Limits) -> str:
    fields, required = _fields(operation, limits)
    return json.dumps({"type": "object", "properties": fields, "required": required, "additionalProperties": False})


def operation_input_schema(operation: str, limits: Limits = DEFAULT_LIMITS) -> dict[str, Any]:
    """The JSON schema of one operation's fields, without ``operation`` (for a tool that runs only it).

    Args:
        operation: ``scan``, ``read``, ``put`` or ``delete``.
        limits: The bounds of the store the tool is built with.
    """
    schema: dict[str, Any] = json.loads(_operation_schema_json(operation, limits))
    return schema


def _error_codes() -> list[str]:
    codes: list[str] = []
    pending: list[type[errors.MemoryOperationError]] = [errors.MemoryOperationError]
    while pending:
        cls = pending.pop(0)
        if cls.code != errors.MemoryOperationError.code and cls.code not in codes:
            codes.append(cls.code)
        pending.extend(cls.__subclasses__())
    return sorted(codes)


def _error_schema() -> dict[str, Any]:
    return {
        "type": "object",
        "description": "Present when the call was refused: nothing was changed, and no other result field is set.",
        "properties": {
            "code": {"type": "string", "enum": _error_codes(), "description": "A stable, machine-readable reason."},
            "message": {"type": "string", "description": "What was wrong and what to do instead."},
        },
        "required": ["code", "message"],
        "additionalProperties": True,
    }


@functools.cache
def _output_schema_json(operation: str | None, limits: Limits) -> str:
    operations = OPERATIONS if operation is None else (operation,)
    properties: dict[str, Any] = {}
    for name in operations:
        schema = _model_schema(_OUTPUTS[name], limits, nullable=True)
        for field, prop in schema["properties"].items():
            if field != "operation":
                label = f"`{name}` result" if operation is None else "Result"
                properties[field] = {**prop, "description": f"{label}: {prop.get('description', '')}".rstrip()}
    if operation is None:
        op: dict[str, Any] = {
            "type": ["string", "null"],
            "enum": [*OPERATIONS, None],
            "description": "The operation the call named; null when it named no known operation.",
        }
    else:
        op = {"type": "string", "const": operation, "description": "Always this tool's operation."}
    return json.dumps(
        {
            "type": "object",
            "properties": {"operation": op, **properties, "error": _error_schema()},
            "required": ["operation"],
            "additionalProperties": False,
        }
    )


def output_schema(operation: str | None = None, limits: Limits = DEFAULT_LIMITS) -> dict[str, Any]:
    """The JSON schema of a result: an object with ``operation`` and either its fields or ``error``.

    Flat like :func:`input_schema` (no root combinator, no ``$ref``): each property says which
    operation's result carries it, and a refused call carries only ``operation`` and ``error``.

    Args:
        operation: One operation's results only, or ``None`` for the ``memory`` tool's.
        limits: The bounds of the store the tool is built with.
    """
    schema: dict[str, Any] = json.loads(_output_schema_json(operation, limits))
    return schema


def tool_definition(limits: Limits = DEFAULT_LIMITS) -> dict[str, Any]:
    """Name, description and input schema, the shape most model APIs take for a function tool.

    Args:
        limits: The bounds of the store the tool is built with.
    """
    return {"name": TOOL_NAME, "description": tool_description(limits), "input_schema": input_schema(limits)}


# -- validation ----------------------------------------------------------------------------------


def operation_needs(operation: str, limits: Limits = DEFAULT_LIMITS) -> str:
    """One sentence saying which fields ``operation`` needs and takes (it ends every refusal of a call)."""
    return {
        "scan": f"scan needs query (a string of at most {limits.query_bytes:,} UTF-8 bytes) and takes "
        f"limit (an integer from 1 to {limits.scan_results})",
        "read": f"read needs ids (a list of 1 to {limits.rows} record ids, integers from 1)",
        "put": f"put needs content (a string of at most {limits.record_bytes:,} UTF-8 bytes) and takes "
        "replace (an object {id, version} of the record to replace, integers from 1)",
        "delete": "delete needs id and version (integers from 1) of the record to delete",
    }[operation]


_MAX_FIELD_NAME = 32
"""Longest unknown field name an error repeats; a call can name any field, so the echo is short."""

_MAX_PROBLEMS = 3
"""How many problems one refusal lists."""

_FIELD_OWNER = {name: op for op, model in _CALLS.items() for name in model.model_fields if name != "operation"}
"""Which operation each field belongs to, to say so when a call sends another operation's field."""

_MESSAGES = {
    "string_type": "should be a string",
    "int_type": "should be an integer",
    "list_type": "should be a list",
    "model_type": "should be an object",
    "dict_type": "should be an object",
    "greater_than_equal": "should be at least {ge}",
    "too_short": "should not be empty",
}
"""Our wording for pydantic's error types (pydantic's own names classes and Python types)."""


def _unknown_field(operation: str, path: tuple[str, ...], name: object) -> str:
    """How a refusal names an unknown field: by name only if short and not credential-like."""
    where = "".join(f"{p}." for p in path)
    text = name if isinstance(name, str) else repr(name)
    unnamed = f"an unknown field{' in ' + '.'.join(path) if path else ''}"
    if len(text) > _MAX_FIELD_NAME:
        return f"{unnamed} (its name is too long to repeat)"
    if find_secret(text) is not None:
        return f"{unnamed} (its name looks like a credential, so it is not repeated)"
    owner = _FIELD_OWNER.get(text) if not path else None
    if owner is not None and owner != operation:
        return f"{text!r} is a field of {owner}, not of {operation}"
    return f"unknown field {where + text!r}"


def _describe(operation: str, exc: ValidationError, limits: Limits) -> str:
    problems: list[str] = []
    found = exc.errors(include_url=False, include_input=False)
    for err in found[:_MAX_PROBLEMS]:
        loc = tuple(err["loc"])
        path = tuple(str(p) for p in loc[:-1])
        if err["type"] == "extra_forbidden" and loc:
            problems.append(_unknown_field(operation, path, loc[-1]))
            continue
        where = ".".join(str(p) for p in loc) or "call"
        if err["type"] == "missing":
            problems.append(f"missing field {where!r}")
        elif err["type"] in _MESSAGES:
            problems.append(f"{where} {_MESSAGES[err['type']].format(**err.get('ctx', {}))}")
        else:
            problems.append(f"{where} {err['msg'][:1].lower()}{err['msg'][1:]}")
    if len(found) > _MAX_PROBLEMS:
        problems.append(f"{len(found) - _MAX_PROBLEMS} more")
    return f"{'; '.join(problems)}. {operation_needs(operation, limits)}"


def parse_call(
    arguments: str | bytes | Mapping[str, Any], *, limits: Limits = DEFAULT_LIMITS
) -> ScanCall | ReadCall | PutCall | DeleteCall:
    """Validate one call against the fields of the operation it names.

    Args:
        arguments: The call, as JSON text or a decoded object.
        limits: The bounds of the store the call is for (most candidates, most ids).

    Raises:
        InvalidArguments: not JSON, not an object, unknown operation or field, a field of another
            operation, a missing field or a bad value; the message ends with what the operation needs.
    """
    data = load_arguments(arguments)
    if "operation" not in data:
        raise errors.InvalidArguments("missing field 'operation' (one of scan, read, put, delete)")
    operation = peek_operation(data)
    if operation is None:
        raise errors.InvalidArguments("unknown operation; use one of scan, read, put, delete")
    try:
        return _CALLS[operation].model_validate(dict(data), context=limits)
    except ValidationError as exc:
        raise errors.InvalidArguments(_describe(operation, exc, limits)) from None
    except (RecursionError, ValueError, TypeError) as exc:
        raise errors.InvalidArguments(f"arguments could not be validated: {type(exc).__name__}") from None
