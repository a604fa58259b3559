"""The memory tool's calls as they arrive: their fields, and the one decode that validates them.

A call is JSON text, bytes or an already decoded object. :func:`decode` turns it into one of four
frozen values (:data:`Call`) or raises :class:`InvalidCall`, and nothing after it looks at the
raw arguments again: the role guard, the tool and every face work on the decoded call.

Validation is closed and tagged: a call names its ``operation`` and is checked against that
operation's fields alone, so fields of another operation, unknown fields, missing fields and wrong
types are all ``invalid_arguments``. Integers are strict (``"3"``, ``1.0`` and ``true`` are not
ids). The bounds that depend on the store (most candidates, longest content and query) come from
its :class:`~tact_memory.limits.Limits`. The id list of a read has no bound of its own: a read
returns the records it names that exist, which the row bound already limits. A refusal lists at
most three problems and ends with what the operation needs.

The fields of each operation are declared once, in :data:`FIELDS`; the published schemas
(:mod:`tact_memory.tool.schemas`) are built from the same table. Nothing here needs pydantic.

Why this module is longer than ~300 lines: the field table, the call types and the one decode that
reads the table belong together; results and schemas are their own modules.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from .. import errors
from ..limits import DEFAULT_LIMITS, Limits
from ..records import RecordKey
from ..screening.credentials import find_secret
from ..values import Value

TYPE_CHECKING = False  # typing is not imported: every tool process imports this module
if TYPE_CHECKING:
    from typing import Any, ClassVar, Literal

__all__ = [
    "FIELDS",
    "OPERATIONS",
    "Call",
    "DeleteCall",
    "FieldSpec",
    "InvalidCall",
    "PutCall",
    "ReadCall",
    "RepeatedName",
    "ScanCall",
    "decode",
    "encode_call",
    "loads_once",
    "operation_needs",
]

if TYPE_CHECKING:  # names for type checkers only
    Operation = Literal["scan", "read", "put", "delete"]
    """The name of one of the tool's operations."""

    Shape = Literal["string", "positive", "limit", "ids", "key"]
    """What a field holds: a string, an integer from 1, a scan limit, a list of ids, or ``{id, version}``."""


class ScanCall(Value):
    """Search the memory for candidates."""

    __slots__ = ("query", "limit")

    operation: ClassVar[Operation] = "scan"
    query: str
    """Words to search for."""
    limit: int | None
    """How many candidates at most; ``None`` means as many as the store's bound allows."""

    def __init__(self, query: str, limit: int | None = None) -> None:
        self._fill(query, limit)


class ReadCall(Value):
    """Read complete records chosen from a scan."""

    __slots__ = ("ids",)

    operation: ClassVar[Operation] = "read"
    ids: tuple[int, ...]
    """Ids of the records to read, as named; missing ones are left out of the result."""

    def __init__(self, ids: tuple[int, ...]) -> None:
        self._fill(ids)


class PutCall(Value):
    """Store one conclusion, or replace a known record."""

    __slots__ = ("content", "replace")

    operation: ClassVar[Operation] = "put"
    content: str
    """The conclusion to store."""
    replace: RecordKey | None
    """The record to replace, at the version the agent saw, if any."""

    def __init__(self, content: str, replace: RecordKey | None = None) -> None:
        self._fill(content, replace)


class DeleteCall(Value):
    """Remove a known record."""

    __slots__ = ("key",)

    operation: ClassVar[Operation] = "delete"
    key: RecordKey
    """The record to remove, at the version the agent saw."""

    def __init__(self, key: RecordKey) -> None:
        self._fill(key)


Call = ScanCall | ReadCall | PutCall | DeleteCall
"""One decoded call of the memory tool."""

OPERATIONS: tuple[Operation, ...] = ("scan", "read", "put", "delete")
"""The four operations, in the order the tool documents them."""


class FieldSpec(Value):
    """One field of a call, as :func:`decode` checks it and the schema publishes it."""

    __slots__ = ("name", "shape", "required", "description", "fields")

    name: str
    """The field's name in the call."""
    shape: Shape
    """What it holds; ``limit`` and ``ids`` are bounded by the store's limits."""
    required: bool
    """Whether a call must send it (an optional field may also be sent as null)."""
    description: str
    """For the model; ``{limits.…}`` is filled in with the bounds of the store."""
    fields: tuple[FieldSpec, ...]
    """The fields of a ``key`` object."""

    def __init__(
        self, name: str, shape: Shape, required: bool, description: str, fields: tuple[FieldSpec, ...] = ()
    ) -> None:
        self._fill(name, shape, required, description, fields)


_KEY_NAMESPACE = "Team memory only: the namespace the key showed."
"""A key's ``namespace``: a key is taken back as a scan or read showed it, so a team record's key,
which names its author's namespace, can be copied whole."""

FIELDS: dict[str, tuple[FieldSpec, ...]] = {
    "scan": (
        FieldSpec(
            "query",
            "string",
            True,
            "Words to search for (at most {limits.query_bytes:,} UTF-8 bytes): names of repositories, tools, "
            "errors, topics.",
        ),
        FieldSpec("limit", "limit", False, "How many candidates at most (1 to {limits.scan_results}; that many if omitted)."),
    ),
    "read": (
        FieldSpec("ids", "ids", True, "Ids of the records to read, as many as you choose; missing ones are left out."),
    ),
    "put": (
        FieldSpec(
            "content",
            "string",
            True,
            "One self-contained conclusion (at most {limits.record_bytes:,} UTF-8 bytes) that names its scope.",
        ),
        FieldSpec(
            "replace",
            "key",
            False,
            "The record to replace, as {{id, version}} from a scan or read; leave out to add a new record.",
            (
                FieldSpec("id", "positive", True, "Id of the record to replace."),
                FieldSpec("version", "positive", True, "The version you saw; a newer one refuses the put."),
                FieldSpec("namespace", "string", False, _KEY_NAMESPACE),
            ),
        ),
    ),
    "delete": (
        FieldSpec("id", "positive", True, "Id of the record to delete."),
        FieldSpec("version", "positive", True, "The version you saw; a newer one refuses the delete."),
        FieldSpec("namespace", "string", False, _KEY_NAMESPACE),
    ),
}
"""The fields of each operation, in the order they are checked and published."""

_OWNER = {spec.name: operation for operation, specs in FIELDS.items() for spec in specs}
"""Which operation each field belongs to, to say so when a call sends another operation's field."""

_AN_ID = FieldSpec("id", "positive", True, "A record id.")
"""One item of ``read.ids``."""

_MAX_FIELD_NAME = 32
"""Longest unknown field name a refusal repeats; a call can name any field, so the echo is short."""

_MAX_PROBLEMS = 3
"""How many problems one refusal lists."""


class InvalidCall(errors.InvalidArguments):
    """``invalid_arguments`` for a call, knowing which operation it named (``None`` if no known one).

    Args:
        message: What was wrong and what to do instead.
        operation: The known operation the call named, if any.
    """

    def __init__(self, message: str, *, operation: Operation | None = None) -> None:
        super().__init__(message)
        self.operation: Operation | None = operation


def operation_needs(operation: str, limits: Limits = DEFAULT_LIMITS) -> str:
    """One sentence saying which fields ``operation`` needs and takes (it ends every refusal of a call)."""
    return {
        "scan": f"scan needs query (a string of at most {limits.query_bytes:,} UTF-8 bytes) and takes "
        f"limit (an integer from 1 to {limits.scan_results})",
        "read": "read needs ids (a non-empty list of record ids, integers from 1)",
        "put": f"put needs content (a string of at most {limits.record_bytes:,} UTF-8 bytes) and takes "
        "replace (an object {id, version} of the record to replace, integers from 1, with the namespace "
        "its key showed, if any)",
        "delete": "delete needs id and version (integers from 1) of the record to delete and takes the "
        "namespace its key showed, if any",
    }[operation]


class RepeatedName(ValueError):
    """A JSON object of the input names one field twice (:func:`loads_once`)."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name

    def named(self) -> str:
        """The field as a refusal may name it: by name if it is one of the tool's own, else not at all."""
        return repr(self.name) if self.name in _OWNER or self.name in _KEY_NAMES else "one field"


_KEY_NAMES = frozenset(("operation", "id", "version", "namespace"))
"""Field names of a call besides the operations' own (:data:`_OWNER`), which a refusal may repeat."""


def _distinct_names(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for name, value in pairs:
        if name in found:
            raise RepeatedName(name)
        found[name] = value
    return found


def loads_once(text: str | bytes, **options: Any) -> Any:
    """``json.loads``, except that an object naming a field twice is refused (:class:`RepeatedName`).

    JSON leaves open which of two values of one name counts (RFC 8259, section 4), and parsers
    differ: Python's keeps the last, others the first or either. A call such as
    ``{"operation": "read", "operation": "delete", ...}`` or a ``replace`` with two versions must
    not be read one way here and another way by whoever checked it, so it is refused whole.
    ``options`` go to ``json.loads`` (``parse_float``, ``parse_constant``).
    """
    return json.loads(text, object_pairs_hook=_distinct_names, **options)


def _load(arguments: object) -> Mapping[Any, Any]:
    """JSON text or bytes decoded, or the object as given; anything but an object is refused."""
    if isinstance(arguments, (str, bytes)):
        try:
            arguments = loads_once(arguments)
        except RepeatedName as exc:
            raise InvalidCall(
                f"arguments name {exc.named()} twice; JSON leaves open which value counts, so send each field once"
            ) from None
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise InvalidCall(f"arguments are not valid JSON: {exc}") from None
        except RecursionError:
            raise InvalidCall("arguments cannot be read: they are nested too deeply for a call") from None
        except ValueError:  # the only other one: an integer with more digits than Python converts
            raise InvalidCall("arguments cannot be read: a number has too many digits for a call") from None
    if not isinstance(arguments, Mapping):
        raise InvalidCall("arguments must be a JSON object with an 'operation' field")
    return arguments


class _Reader:
    """Checks one operation's fields and collects every problem, in field order, then unknown fields."""

    def __init__(self, operation: Operation, limits: Limits) -> None:
        self.operation = operation
        self.limits = limits
        self.problems: list[str] = []

    def fields(self, data: Mapping[Any, Any], specs: tuple[FieldSpec, ...], path: tuple[str, ...]) -> dict[str, Any]:
        """The values of ``specs`` found in ``data`` (an object at ``path``); problems are collected."""
        values: dict[str, Any] = {}
        for spec in specs:
            where = ".".join((*path, spec.name))
            if spec.name not in data:
                if spec.required:
                    self.problems.append(f"missing field {where!r}")
                continue
            value = data[spec.name]
            if value is None:  # a null field is absent (strict clients send every field)
                if spec.required:
                    self.problems.append(f"missing field {where!r} (null counts as absent)")
                continue
            values[spec.name] = self.value(spec, value, where)
        known = {spec.name for spec in specs} | ({"operation"} if not path else set())
        for name in data:
            if name in known:
                continue
            if not path and data[name] is None and isinstance(name, str) and name in _OWNER:
                continue  # another operation's field sent as null (strict clients send them all): absent
            self.problems.append(self.unknown(path, name))
        return values

    def value(self, spec: FieldSpec, value: object, where: str) -> Any:
        """``value`` if it fits ``spec`` (a :class:`RecordKey` for a ``key``), else ``None`` and a problem."""
        if spec.shape == "string":
            return value if isinstance(value, str) else self.problem(f"{where} should be a string")
        if spec.shape in ("positive", "limit"):
            if isinstance(value, bool) or not isinstance(value, int):  # strict: true is not 1
                return self.problem(f"{where} should be an integer")
            if value < 1:
                return self.problem(f"{where} should be at least 1")
            if spec.shape == "limit" and value > self.limits.scan_results:
                return self.problem(f"{where} should be at most {self.limits.scan_results}")
            return value
        if spec.shape == "ids":
            if not isinstance(value, list):
                return self.problem(f"{where} should be a list")
            if not value:
                return self.problem(f"{where} should not be empty")
            return tuple(self.value(_AN_ID, item, f"{where}.{i}") for i, item in enumerate(value))
        if not isinstance(value, dict):
            return self.problem(f"{where} should be an object")
        key = self.fields(value, spec.fields, tuple(where.split(".")))
        return RecordKey(key["id"], key["version"], key.get("namespace")) if {"id", "version"} <= key.keys() else None

    def problem(self, text: str) -> None:
        """Note one problem; returns ``None`` to stand for the refused value."""
        self.problems.append(text)

    def unknown(self, path: tuple[str, ...], name: object) -> str:
        """How a refusal names an unknown field: by name only if short and not credential-like."""
        text = str(name)
        unnamed = f"an unknown field{' in ' + '.'.join(path) if path else ''}"
        if len(text) > _MAX_FIELD_NAME:
            return f"{unnamed} (its name is too long to repeat)"
        if find_secret(text) is not None:
            return f"{unnamed} (its name looks like a credential, so it is not repeated)"
        if not isinstance(name, str):  # only from a decoded object: JSON names are strings
            return f"{'.'.join((*path, text))} keys should be strings"
        owner = _OWNER.get(text) if not path else None
        if owner is not None and owner != self.operation:
            return f"{text!r} is a field of {owner}, not of {self.operation}"
        return f"unknown field {'.'.join((*path, text))!r}"

    def refusal(self) -> InvalidCall:
        """The refusal listing the first problems and ending with what the operation needs."""
        listed = self.problems[:_MAX_PROBLEMS]
        if len(self.problems) > _MAX_PROBLEMS:
            listed.append(f"{len(self.problems) - _MAX_PROBLEMS} more")
        needs = operation_needs(self.operation, self.limits)
        return InvalidCall(f"{'; '.join(listed)}. {needs}", operation=self.operation)


def decode(arguments: str | bytes | Mapping[str, Any], limits: Limits = DEFAULT_LIMITS) -> Call:
    """Decode and validate one call against the fields of the operation it names.

    Args:
        arguments: The call, as JSON text (or UTF-8 bytes) or a decoded object.
        limits: The bounds of the store the call is for (most candidates, longest query and content).

    Raises:
        InvalidCall: not JSON, not an object, unknown operation or field, a field of another
            operation, a missing field or a bad value; its ``operation`` is the one the call named,
            if known, and the message ends with what that operation needs.
    """
    data = _load(arguments)
    if "operation" not in data:
        raise InvalidCall("missing field 'operation' (one of scan, read, put, delete)")
    named = data["operation"]
    operation = next((op for op in OPERATIONS if isinstance(named, str) and named == op), None)
    if operation is None:
        raise InvalidCall("unknown operation; use one of scan, read, put, delete")
    reader = _Reader(operation, limits)
    values = reader.fields(data, FIELDS[operation], ())
    if reader.problems:
        raise reader.refusal()
    if operation == "scan":
        return ScanCall(values["query"], values.get("limit"))
    if operation == "read":
        return ReadCall(values["ids"])
    if operation == "put":
        return PutCall(values["content"], values.get("replace"))
    return DeleteCall(RecordKey(values["id"], values["version"], values.get("namespace")))


def encode_call(call: Call) -> dict[str, Any]:
    """The JSON object of a call, as a model would send it (``decode(encode_call(c)) == c``)."""
    if isinstance(call, ScanCall):
        return {"operation": call.operation, "query": call.query, **({} if call.limit is None else {"limit": call.limit})}
    if isinstance(call, ReadCall):
        return {"operation": call.operation, "ids": list(call.ids)}
    if isinstance(call, PutCall):
        replace = {} if call.replace is None else {"replace": _key_fields(call.replace)}
        return {"operation": call.operation, "content": call.content, **replace}
    return {"operation": call.operation, **_key_fields(call.key)}


def _key_fields(key: RecordKey) -> dict[str, Any]:
    """A key's fields as a call sends them: ``id``, ``version`` and the namespace when it has one."""
    return {"id": key.id, "version": key.version, **({} if key.namespace is None else {"namespace": key.namespace})}
