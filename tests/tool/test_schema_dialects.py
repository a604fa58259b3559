"""The published input schema in each provider's dialect, and the calls each one lets a model send.

The default schema is refused in three provider modes; each dialect follows that provider's rules:

- OpenAI function calling with ``strict: true``: every property listed in ``required``,
  ``additionalProperties: false`` on every object, no ``anyOf`` at the root; ``minimum``,
  ``maximum``, ``minItems`` and ``maxItems`` are supported
  (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas,
  https://platform.openai.com/docs/guides/function-calling#strict-mode). A schema with optional
  properties is refused with "'required' is required to be supplied and to be an array including
  every key in properties" (https://github.com/kevinwatt/mysql-mcp/issues/5,
  https://github.com/ash-project/ash_ai/issues/155).
- Anthropic tools with ``strict: true``: ``additionalProperties: false`` on every object; no
  ``minimum``, ``maximum``, ``multipleOf``, ``minLength``, ``maxLength`` or ``maxItems``, and
  ``minItems`` only 0 or 1; ``enum``, ``anyOf``, ``required`` supported
  (https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations).
  The strict schemas of one request together may have at most 24 optional parameters and 16 with
  ``anyOf`` or a list of types (same page, #schema-complexity-limits); past those, or past an
  unpublished grammar size, the request is refused
  (https://github.com/genkit-ai/genkit/issues/5230,
  https://github.com/anthropics/anthropic-sdk-typescript/issues/885), so the dialect makes
  optional fields plain (left out, not nullable) and spends no union.
- Cursor checks each argument of a call against the listed schema itself before the call reaches
  the server, with the value's JavaScript type (``typeof``: ``number`` for an integer): a property
  whose schema has ``anyOf`` passes only when one branch's ``type`` equals that name (or it is
  ``null`` and the value is null), so an integer for ``anyOf: [integer, null]`` is refused
  ("Type mismatch ... expected one of [integer, null]", https://github.com/cursor/cursor/issues/3540;
  a list of types fails too, https://github.com/cursor/cursor/issues/3778). The ``plain`` dialect
  has no union: an optional field is its one type, left out of ``required``.
- Gemini ``FunctionDeclaration.parameters``, a subset of the OpenAPI 3.0 schema object
  (https://ai.google.dev/api/caching#Schema,
  https://ai.google.dev/gemini-api/docs/function-calling#function_declarations): no
  ``additionalProperties`` ("Unknown name "additionalProperties" at ...any_of[0]",
  https://github.com/glowingjade/obsidian-smart-composer/issues/455), a property with only
  ``anyOf`` has no type and is refused (https://github.com/P0luz/Ombre-Brain/issues/119), and
  ``any_of`` must be the only field of its node (https://github.com/googleapis/python-genai/issues/625);
  ``type`` with ``nullable: true`` is accepted (https://github.com/aoci-spec/aoci-code/issues/61).
  ``parametersJsonSchema`` takes JSON Schema, so the default, as it is.

Where an SDK or a framework converts or checks schemas for a provider, our output is run through
their code: the OpenAI Agents SDK's ``ensure_strict_json_schema``, LangChain's strict conversion,
pydantic-ai's OpenAI and Gemini transformers and its count of Anthropic's limits, the Anthropic
SDK's ``transform_schema``, and the body the Google GenAI SDK sends. Each dialect must also describe
exactly the calls the tool takes: the property tests draw calls from each published schema and
check that validation accepts those, and only those, that the default schema's meaning allows.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from syrupy.assertion import SnapshotAssertion

from tact_memory.limits import DEFAULT_LIMITS, Limits
from tact_memory.records import RecordKey
from tact_memory.tool.schemas import DIALECTS, input_schema, operation_input_schema, tool_definition
from tact_memory.tool.wire import (
    OPERATIONS,
    Call,
    DeleteCall,
    InvalidCall,
    PutCall,
    ReadCall,
    ScanCall,
    decode,
    encode_call,
)

from ..conftest import NO_PYDANTIC_AI

if TYPE_CHECKING:
    from tact_memory.tool.schemas import Dialect

SMALL = Limits(scan_results=3, rows=4)
"""Bounds small enough that drawn values cross them."""


def published(dialect: Dialect, limits: Limits = DEFAULT_LIMITS) -> dict[str, dict[str, Any]]:
    """The one tool's schema and each split tool's, by tool name."""
    split = {f"memory_{op}": operation_input_schema(op, limits, dialect) for op in OPERATIONS}
    return {"memory": input_schema(limits, dialect), **split}


NAMES = list(published("default"))


def nodes(schema: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every schema node: the root, properties, items and ``anyOf`` branches, at any depth."""
    yield schema
    for sub in schema.get("properties", {}).values():
        yield from nodes(sub)
    if "items" in schema:
        yield from nodes(schema["items"])
    for branch in schema.get("anyOf", []):
        yield from nodes(branch)


def keywords(schema: dict[str, Any]) -> set[str]:
    return {key for node in nodes(schema) for key in node}


@pytest.mark.parametrize("dialect", DIALECTS)
def test_each_dialect_snapshot(dialect: Dialect, snapshot: SnapshotAssertion) -> None:
    split = {op: operation_input_schema(op, dialect=dialect) for op in OPERATIONS}
    assert {"memory": tool_definition(dialect=dialect), "split": split} == snapshot


def test_the_default_dialect_is_the_schema_published_without_one() -> None:
    assert json.dumps(input_schema(dialect="default")) == json.dumps(input_schema())
    assert json.dumps(tool_definition(SMALL, "default")) == json.dumps(tool_definition(SMALL))
    for op in OPERATIONS:
        assert json.dumps(operation_input_schema(op, dialect="default")) == json.dumps(operation_input_schema(op))


def test_an_unknown_dialect_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="unknown schema dialect 'openai'; use one of default, plain, openai-strict"):
        input_schema(dialect="openai")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown schema dialect"):
        operation_input_schema("scan", dialect="strict")  # type: ignore[arg-type]


# -- OpenAI strict -------------------------------------------------------------------------------

OPENAI_STRICT_KEYWORDS = {
    "type", "description", "enum", "properties", "required", "additionalProperties", "items", "anyOf",
    "minimum", "maximum", "minItems", "maxItems",
}  # fmt: skip
"""The keywords the OpenAI dialect uses, all in OpenAI's list of supported schema keywords."""


@pytest.mark.parametrize("name", NAMES)
def test_openai_strict_lists_every_property_as_required(name: str) -> None:
    schema = published("openai-strict")[name]
    assert not {"anyOf", "oneOf", "allOf"} & set(schema)
    assert keywords(schema) <= OPENAI_STRICT_KEYWORDS
    for node in nodes(schema):
        if node.get("type") == "object":
            assert node["required"] == list(node["properties"]) and node["additionalProperties"] is False


@pytest.mark.parametrize("name", NAMES)
def test_openai_strict_is_a_fixed_point_of_the_agents_sdk_and_langchain(name: str) -> None:
    from agents.strict_schema import ensure_strict_json_schema

    from .test_strict_clients import langchain_strict

    schema = published("openai-strict")[name]
    assert json.dumps(ensure_strict_json_schema(copy.deepcopy(schema))) == json.dumps(schema)
    assert langchain_strict(schema) == schema


def test_pydantic_ai_finds_only_the_openai_strict_dialect_strict_compatible() -> None:
    pytest.importorskip("pydantic_ai", reason=NO_PYDANTIC_AI)
    from pydantic_ai.profiles.openai import OpenAIJsonSchemaTransformer

    for schema in published("openai-strict").values():
        transformer = OpenAIJsonSchemaTransformer(copy.deepcopy(schema), strict=None)
        assert transformer.walk() == schema and transformer.is_strict_compatible
    for dialect in ("default", "anthropic-strict"):  # optional fields: pydantic-ai would not send them strict
        transformer = OpenAIJsonSchemaTransformer(input_schema(dialect=dialect), strict=None)
        transformer.walk()
        assert not transformer.is_strict_compatible


# -- Anthropic strict ----------------------------------------------------------------------------

ANTHROPIC_STRICT_KEYWORDS = {
    "type", "description", "enum", "properties", "required", "additionalProperties", "items", "minItems",
}  # fmt: skip
"""The keywords the Anthropic dialect uses, all in Anthropic's list of supported schema features."""


@pytest.mark.parametrize("name", NAMES)
def test_anthropic_strict_has_no_keyword_strict_mode_refuses(name: str) -> None:
    schema = published("anthropic-strict")[name]
    assert keywords(schema) <= ANTHROPIC_STRICT_KEYWORDS
    for node in nodes(schema):
        assert node.get("minItems", 0) in (0, 1)
        if node.get("type") == "object":
            assert node["additionalProperties"] is False


def without_enum_types(schema: Any) -> Any:
    """``schema`` with no ``type`` beside an ``enum``.

    The Anthropic SDK drops that ``type`` from 2.7 on as redundant; Anthropic's own strict-tool
    example sends it (``"unit": {"type": "string", "enum": [...]}``), so both are taken.
    """
    if isinstance(schema, list):
        return [without_enum_types(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    return {k: without_enum_types(v) for k, v in schema.items() if not (k == "type" and "enum" in schema)}


@pytest.mark.parametrize("name", NAMES)
def test_the_anthropic_sdk_keeps_anthropic_strict_as_it_is(name: str) -> None:
    """``transform_schema`` is what the SDK applies before a strict request: it would move a bound
    it refuses into the description as ``{minimum: 1}``, and it changes nothing of ours."""
    anthropic = pytest.importorskip("anthropic")
    schema = published("anthropic-strict")[name]
    assert without_enum_types(anthropic.transform_schema(copy.deepcopy(schema))) == without_enum_types(schema)
    if name == "memory":
        rewritten = anthropic.transform_schema(input_schema())  # the default is not kept
        assert "{minimum: 1}" in json.dumps(rewritten)


def complexity(schemas: list[dict[str, Any]]) -> tuple[int, int]:
    """Optional parameters, and parameters with ``anyOf`` or a list of types, as Anthropic counts them."""
    optional = union = 0
    for schema in schemas:
        for node in nodes(schema):
            for name, prop in node.get("properties", {}).items():
                optional += name not in node.get("required", [])
                union += "anyOf" in prop or isinstance(prop.get("type"), list)
    return optional, union


def test_anthropic_strict_spends_little_of_the_request_wide_limits() -> None:
    tools = published("anthropic-strict")
    split = [tools[f"memory_{op}"] for op in OPERATIONS]
    assert complexity([tools["memory"]]) == (9, 0)  # of 24 and 16, shared with the request's other strict tools
    assert complexity(split) == (4, 0)
    assert complexity([input_schema()]) == (9, 9)  # the default would spend both
    limits = pytest.importorskip("pydantic_ai.models._anthropic_schema_limits")
    assert limits.exceeded_limit([tools["memory"]], None) is None
    assert limits.exceeded_limit(split, None) is None


def test_a_bound_anthropic_strict_cannot_carry_is_stated_in_the_description() -> None:
    properties = input_schema(SMALL, "anthropic-strict")["properties"]
    assert properties["limit"]["description"].count("1 to 3") == 1  # already said, not repeated
    assert properties["ids"]["description"].endswith("; missing ones are left out. Each item at least 1.")
    assert properties["ids"]["minItems"] == 1  # kept: strict mode takes 0 or 1
    for name in ("id", "version"):
        assert properties[name]["description"].endswith(". At least 1.")
        assert properties["replace"]["properties"][name]["description"].endswith(". At least 1.")
    assert not {"minimum", "maximum", "maxItems"} & keywords(input_schema(SMALL, "anthropic-strict"))


# -- Gemini --------------------------------------------------------------------------------------

GEMINI_SCHEMA_FIELDS = {
    "type", "format", "title", "description", "nullable", "enum", "maxItems", "minItems", "properties",
    "required", "minProperties", "maxProperties", "minLength", "maxLength", "pattern", "example", "anyOf",
    "propertyOrdering", "default", "items", "minimum", "maximum",
}  # fmt: skip
"""The fields of the Gemini API's ``Schema`` (https://ai.google.dev/api/caching#Schema)."""


def gemini_problems(node: dict[str, Any], where: str = "parameters") -> list[str]:
    """What the Gemini API refuses in a ``parameters`` schema as sent (field names camel or snake case)."""
    camel = {"".join(w.capitalize() if i else w for i, w in enumerate(k.split("_"))): v for k, v in node.items()}
    problems = [f"{where}: unknown field {key}" for key in camel if key not in GEMINI_SCHEMA_FIELDS]
    if "type" not in camel:
        problems.append(f"{where}: no type")
    if "anyOf" in camel and len(camel) > 1:
        problems.append(f"{where}: anyOf beside other fields")
    for name, sub in camel.get("properties", {}).items():
        problems += gemini_problems(sub, f"{where}.properties.{name}")
    if "items" in camel:
        problems += gemini_problems(camel["items"], f"{where}.items")
    for i, branch in enumerate(camel.get("anyOf", [])):
        problems += gemini_problems(branch, f"{where}.anyOf[{i}]")
    return problems


def gemini_request(**declaration: Any) -> dict[str, Any]:
    """The one function declaration of the body the Google GenAI SDK sends for a request with it."""
    pytest.importorskip("google.genai")
    import httpx
    from google import genai
    from google.genai import types

    bodies: list[dict[str, Any]] = []

    def answer(request: httpx.Request) -> httpx.Response:
        bodies.append(json.loads(request.content))
        return httpx.Response(200, json={"candidates": [{"content": {"role": "model", "parts": [{"text": "ok"}]}}]})

    tool = types.Tool(function_declarations=[types.FunctionDeclaration(name="memory", description="memory", **declaration)])
    with httpx.Client(transport=httpx.MockTransport(answer)) as http:
        client = genai.Client(api_key="not-a-key", http_options=types.HttpOptions(httpx_client=http))
        client.models.generate_content(model="gemini-2.5-flash", contents="hi", config=types.GenerateContentConfig(tools=[tool]))
    sent: dict[str, Any] = bodies[0]["tools"][0]["functionDeclarations"][0]
    return sent


@pytest.mark.parametrize("name", NAMES)
def test_gemini_has_every_field_typed_and_no_additional_properties(name: str) -> None:
    schema = published("gemini")[name]
    assert gemini_problems(schema) == []
    assert "anyOf" not in keywords(schema) and "additionalProperties" not in keywords(schema)
    for prop_name, prop in schema["properties"].items():
        assert prop.get("nullable", False) is (prop_name not in schema["required"])


@pytest.mark.parametrize("name", NAMES)
def test_the_gemini_sdk_sends_the_gemini_dialect_as_the_api_reads_it(name: str) -> None:
    sent = gemini_request(parameters=published("gemini")[name])["parameters"]
    assert gemini_problems(sent) == []
    refused = gemini_problems(gemini_request(parameters=published("default")[name])["parameters"])
    assert "parameters: unknown field additionalProperties" in refused  # why `parameters` needs the dialect
    if name != "memory_read" and name != "memory_delete":  # these have no optional field
        assert any(problem.endswith("no type") for problem in refused)


def test_the_gemini_sdk_sends_json_schema_parameters_as_they_are() -> None:
    sent = gemini_request(parameters_json_schema=input_schema())
    assert sent.get("parametersJsonSchema", sent.get("parameters_json_schema")) == input_schema()


@pytest.mark.parametrize("name", NAMES)
def test_pydantic_ai_makes_the_gemini_dialect_of_the_default(name: str) -> None:
    """pydantic-ai's converter to Gemini's OpenAPI subset (for ``parameters``) turns the default into
    exactly the gemini dialect, and leaves that as it is."""
    pytest.importorskip("pydantic_ai", reason=NO_PYDANTIC_AI)
    from pydantic_ai.profiles.google import GoogleOpenAPISchemaTransformer

    gemini = published("gemini")[name]
    assert GoogleOpenAPISchemaTransformer(copy.deepcopy(published("default")[name])).walk() == gemini
    assert GoogleOpenAPISchemaTransformer(copy.deepcopy(gemini)).walk() == gemini


# -- the calls each dialect describes ------------------------------------------------------------


def instances(node: dict[str, Any]) -> st.SearchStrategy[Any]:
    """The JSON values ``node`` allows, for the keywords the dialects use (OpenAPI's ``nullable`` too).

    An object that does not forbid other properties (Gemini's) gets one sometimes.
    """
    if "anyOf" in node:
        return st.one_of([instances(branch) for branch in node["anyOf"]])
    if node.get("nullable"):
        return st.one_of(st.none(), instances({k: v for k, v in node.items() if k != "nullable"}))
    if "enum" in node:
        return st.sampled_from(node["enum"])
    kind = node["type"]
    if kind == "null":
        return st.none()
    if kind == "string":
        return st.text(max_size=8)
    if kind == "integer":
        low, high = node.get("minimum"), node.get("maximum")
        near_low = -2 if low is None else low
        near = st.integers(near_low, near_low + 10 if high is None else high)
        return st.one_of(near, st.integers(min_value=low, max_value=high))
    if kind == "array":
        most = node.get("maxItems", SMALL.rows + 3)
        return st.lists(instances(node["items"]), min_size=node.get("minItems", 0), max_size=most)
    assert kind == "object", node
    required = node.get("required", [])
    fields = st.fixed_dictionaries(
        {name: instances(prop) for name, prop in node["properties"].items() if name in required},
        optional={name: instances(prop) for name, prop in node["properties"].items() if name not in required},
    )
    if node.get("additionalProperties") is False:
        return fields
    extra = st.dictionaries(st.sampled_from(["extra", "role"]), st.one_of(st.none(), st.integers(0, 2)), max_size=1)
    return st.builds(lambda own, more: {**more, **own}, fields, extra)


def as_json_schema(node: Any) -> Any:
    """An OpenAPI ``nullable`` node as JSON Schema says it (``anyOf`` with null), to validate with jsonschema."""
    if isinstance(node, list):
        return [as_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {k: as_json_schema(v) for k, v in node.items() if k != "nullable"}
    if node.get("nullable"):
        return {"anyOf": [converted, {"type": "null"}]}
    return converted


def takes_null(node: dict[str, Any]) -> bool:
    return bool(Draft202012Validator(as_json_schema(node)).is_valid(None))


def drawn(dialect: Dialect, layout: str) -> st.SearchStrategy[tuple[dict[str, Any], dict[str, Any]]]:
    """(a call as the tool gets it, the arguments the published schema allowed) for one tool or a split one."""
    if layout == "one":
        schema = input_schema(SMALL, dialect)

        def near(op: str) -> st.SearchStrategy[dict[str, Any]]:
            """Calls of ``op`` whose other operations' fields are left out, or null where the schema takes
            null (always null where it requires every field): a call of fields drawn at random is almost
            never allowed."""
            own = set(operation_input_schema(op)["properties"])
            required = set(schema["required"])
            fields = {name: prop for name, prop in schema["properties"].items() if name != "operation"}
            return st.fixed_dictionaries(
                {"operation": st.just(op)}
                | {name: instances(prop) for name, prop in fields.items() if name in own and name in required}
                | {name: st.none() for name in fields if name not in own and name in required},
                optional={name: instances(prop) for name, prop in fields.items() if name in own and name not in required}
                | {name: st.none() for name, prop in fields.items() if name not in own | required and takes_null(prop)},
            )

        calls = st.one_of(instances(schema), st.sampled_from(OPERATIONS).flatmap(near))
        return calls.map(lambda arguments: (arguments, arguments))

    def of(op: str) -> st.SearchStrategy[tuple[dict[str, Any], dict[str, Any]]]:
        schema = operation_input_schema(op, SMALL, dialect)
        return instances(schema).map(lambda arguments: ({**arguments, "operation": op}, arguments))

    return st.sampled_from(OPERATIONS).flatmap(of)


KNOWN_FIELDS = set(input_schema()["properties"]) - {"operation"}


def allowed(call: dict[str, Any], limits: Limits) -> bool:
    """Whether the default schema's meaning allows ``call``: exactly its operation's fields, a null one absent."""
    op = call["operation"]
    present = {name: value for name, value in call.items() if not (value is None and name in KNOWN_FIELDS)}
    fields = operation_input_schema(op, limits)
    exact = {
        "type": "object",
        "properties": {"operation": {"const": op}, **fields["properties"]},
        "required": ["operation", *fields["required"]],
        "additionalProperties": False,
    }
    return bool(Draft202012Validator(exact).is_valid(present))


def accepted(call: dict[str, Any], limits: Limits) -> bool:
    verdicts = set()
    for arguments in (call, json.dumps(call)):
        try:
            decode(arguments, limits)
        except InvalidCall:
            verdicts.add(False)
        else:
            verdicts.add(True)
    (verdict,) = verdicts
    return verdict


@pytest.mark.parametrize("layout", ["one", "split"])
@pytest.mark.parametrize("dialect", DIALECTS)
def test_validation_accepts_exactly_the_allowed_calls_each_dialect_lets_a_model_send(dialect: Dialect, layout: str) -> None:
    """Calls drawn from each published schema (strict dialects: every field present, null where unused;
    laxer ones: bounds only in words, other fields allowed) are accepted when the default schema's
    meaning allows them and refused otherwise."""
    schemas = {"one": [input_schema(SMALL, dialect)]}
    schemas["split"] = [operation_input_schema(op, SMALL, dialect) for op in OPERATIONS]

    @given(drawn(dialect, layout))
    def check(pair: tuple[dict[str, Any], dict[str, Any]]) -> None:
        call, arguments = pair
        assert any(Draft202012Validator(as_json_schema(s)).is_valid(arguments) for s in schemas[layout])
        assert accepted(call, SMALL) is allowed(call, SMALL), call

    check()


positive = st.integers(1, 2**70)
keys = st.builds(RecordKey, positive, positive, st.one_of(st.none(), st.text(max_size=8)))  # a team key names a namespace
SMALL_CALLS: st.SearchStrategy[Call] = st.one_of(
    st.builds(ScanCall, st.text(), st.one_of(st.none(), st.integers(1, SMALL.scan_results))),
    st.builds(ReadCall, st.lists(positive, min_size=1, max_size=SMALL.rows).map(tuple)),
    st.builds(PutCall, st.text(), st.one_of(st.none(), keys)),
    st.builds(DeleteCall, keys),
)


def every_property(value: Any, node: dict[str, Any]) -> Any:
    """``value`` as a strict client sends it: every property of each object present, null where unused."""
    branches = [b for b in node.get("anyOf", [node]) if b.get("type") == "object"]
    if not isinstance(value, dict) or not branches:
        return value
    (obj,) = branches
    return {name: every_property(value.get(name), prop) for name, prop in obj["properties"].items()}


@pytest.mark.parametrize("dialect", DIALECTS)
def test_every_valid_call_can_be_sent_in_every_dialect(dialect: Dialect) -> None:
    """The other way round: each call the tool takes fits each published schema, sent as its
    dialect asks (OpenAI strict: every property, null for the unused ones), and decodes to itself."""

    @given(SMALL_CALLS)
    def check(call: Call) -> None:
        encoded = encode_call(call)
        one = input_schema(SMALL, dialect)
        split = operation_input_schema(call.operation, SMALL, dialect)
        for schema, with_operation in ((one, True), (split, False)):
            sent = {name: value for name, value in encoded.items() if with_operation or name != "operation"}
            if dialect == "openai-strict":
                sent = every_property(sent, schema)
            assert Draft202012Validator(as_json_schema(schema)).is_valid(sent), sent
            decoded = decode({**sent, "operation": call.operation}, SMALL)
            assert decoded == call
            assert encode_call(decoded) == encoded  # the namespace too, which keys do not compare

    check()


# -- Cursor --------------------------------------------------------------------------------------


def javascript_type(value: Any) -> str:
    """The type name Cursor compares with a schema's: ``typeof``, with arrays named ``array``."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def cursor_refusals(arguments: dict[str, Any], schema: dict[str, Any]) -> list[str]:
    """The arguments Cursor's own check refuses before a call is sent (cursor/cursor#3540), by name."""
    refused = []
    for name, value in arguments.items():
        prop = schema["properties"].get(name)
        if prop is None:
            continue
        kind = javascript_type(value)
        if "anyOf" in prop:
            types = [branch.get("type") for branch in prop["anyOf"]]
            if not any((t == "null" and value is None) or t == kind for t in types):
                refused.append(name)
        elif "type" in prop and kind != prop["type"] and not (prop["type"] == "integer" and kind == "number"):
            refused.append(name)
    return refused


def test_cursor_passes_every_valid_call_in_the_plain_dialect_and_refuses_ids_in_the_default() -> None:
    @given(SMALL_CALLS)
    def check(call: Call) -> None:
        encoded = encode_call(call)
        for schema, sent in (
            (input_schema(SMALL, "plain"), encoded),
            (operation_input_schema(call.operation, SMALL, "plain"), {k: v for k, v in encoded.items() if k != "operation"}),
        ):
            assert cursor_refusals(sent, schema) == [], sent

    check()
    # why setup gives Cursor the plain dialect: the default's optional integers cannot pass
    delete = {"operation": "delete", "id": 3, "version": 1}
    assert cursor_refusals(delete, input_schema(SMALL)) == ["id", "version"]
    assert cursor_refusals({"operation": "scan", "query": "x", "limit": 2}, input_schema(SMALL)) == ["limit"]


# -- Codex ---------------------------------------------------------------------------------------


def codex_type(node: Any) -> Any:
    """The schema Codex gives the model for one MCP property, after its sanitizer (the rule of
    ``sanitize_json_schema`` in codex-rs, reported still in force in 0.111: openai/codex#13768): a
    node without a ``type`` takes one from its keywords (properties: object, items: array, enum,
    const or format: string, a numeric bound: number) or else ``string``; its typed schema then
    keeps ``type`` and drops ``anyOf``, so what the model is shown is that type alone."""
    if not isinstance(node, dict):
        return "string"
    kind = node.get("type")
    if isinstance(kind, list):
        kind = next((t for t in kind if t in ("object", "array", "string", "number", "integer", "boolean")), None)
    if kind is None:
        if {"properties", "required", "additionalProperties"} & node.keys():
            kind = "object"
        elif {"items", "prefixItems"} & node.keys():
            kind = "array"
        elif {"enum", "const", "format"} & node.keys():
            kind = "string"
        elif {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"} & node.keys():
            kind = "number"
        else:
            kind = "string"
    if kind == "array":
        return ["array", codex_type(node.get("items", {"type": "string"}))]
    return kind


def json_type(value: Any) -> Any:
    """:func:`javascript_type`, with an array's item type beside it, as :func:`codex_type` gives it."""
    if isinstance(value, list):
        return ["array", json_type(value[0]) if value else "number"]
    return javascript_type(value)


def codex_mistypes(arguments: dict[str, Any], schema: dict[str, Any]) -> list[str]:
    """The arguments whose type differs from what Codex shows the model, by name: a model that
    follows Codex's schema sends those as the wrong type."""
    def same(shown: Any, sent: Any) -> bool:
        if isinstance(shown, list) and isinstance(sent, list):
            return same(shown[0], sent[0]) and same(shown[1], sent[1])
        return shown == sent or (shown == "integer" and sent == "number")

    return [name for name, value in arguments.items() if name in schema["properties"] and not same(codex_type(schema["properties"][name]), json_type(value))]


def test_codex_shows_every_valid_call_its_types_in_the_plain_dialect_and_strings_for_ids_in_the_default() -> None:
    @given(SMALL_CALLS)
    def check(call: Call) -> None:
        encoded = encode_call(call)
        assert codex_mistypes(encoded, input_schema(SMALL, "plain")) == [], encoded

    check()
    # why setup gives Codex the plain dialect: the default's optional integers are shown as strings
    delete = {"operation": "delete", "id": 3, "version": 1}
    assert codex_mistypes(delete, input_schema(SMALL)) == ["id", "version"]
    assert codex_mistypes({"operation": "scan", "query": "x", "limit": 2}, input_schema(SMALL)) == ["limit"]


def test_plain_has_no_union_and_keeps_every_bound() -> None:
    for name, schema in published("plain").items():
        assert "anyOf" not in keywords(schema) and "nullable" not in keywords(schema), name
        for node in nodes(schema):
            assert not isinstance(node.get("type"), list), name
        default = published("default")[name]
        bounds = {"minimum", "maximum", "minItems", "maxItems"}
        assert keywords(schema) & bounds == keywords(default) & bounds, name
