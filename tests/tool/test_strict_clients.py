"""Clients in strict mode make every published field required: leaving one out means sending null.

OpenAI's strict function calling, LangChain's ``bind_tools(strict=True)`` (which ``create_agent``
sets for OpenAI models when ``response_format`` is given) and the Agents SDK's strict MCP schemas
rewrite a tool's schema so that every property is required. A field that is not nullable then has
to be sent with a value, which the tool refuses as another operation's field. The schemas are run
through the frameworks' own converters here, and a call of each operation shaped the way a strict
model must send it (every field present, the unused ones null) is accepted.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from agents.strict_schema import ensure_strict_json_schema
from langchain_core.utils.function_calling import convert_to_openai_tool

from tact_memory.tool.schemas import OPERATIONS, input_schema, operation_input_schema

from .test_memory_tool import VALID


def langchain_strict(schema: dict[str, Any]) -> dict[str, Any]:
    tool = {"name": "memory", "description": "memory", "parameters": copy.deepcopy(schema)}
    converted: dict[str, Any] = convert_to_openai_tool(tool, strict=True)["function"]["parameters"]
    return converted


def agents_strict(schema: dict[str, Any]) -> dict[str, Any]:
    return ensure_strict_json_schema(copy.deepcopy(schema))


def nullable(prop: dict[str, Any]) -> bool:
    return {"type": "null"} in prop.get("anyOf", []) or "null" in (prop.get("type") if isinstance(prop.get("type"), list) else [])


def as_strict_model_sends(schema: dict[str, Any], fields: dict[str, Any]) -> dict[str, Any]:
    """Every property of ``schema``: the call's own values, and null for the rest."""
    assert set(schema["required"]) == set(schema["properties"])  # what strict mode makes of it
    return {name: fields.get(name) for name in schema["properties"]}


@pytest.mark.parametrize("strict", [langchain_strict, agents_strict], ids=["langchain", "agents-sdk"])
@pytest.mark.parametrize("operation", OPERATIONS)
def test_the_one_tool_takes_a_strict_call_of_every_operation(strict: Any, operation: str, make_store: Any) -> None:
    from tact_memory.tool.memory_tool import MemoryTool

    schema = strict(input_schema())
    assert all(nullable(prop) for name, prop in schema["properties"].items() if name != "operation")
    tool = MemoryTool(make_store())
    tool.call({"operation": "scan", "query": "anything"})  # scan before put, as the tool asks
    call = as_strict_model_sends(schema, {"operation": operation, **VALID[operation]})
    if operation == "put":
        call["replace"] = None  # a new record
    result = tool.call(call)
    assert result.get("error", {}).get("code") != "invalid_arguments", result


@pytest.mark.parametrize("strict", [langchain_strict, agents_strict], ids=["langchain", "agents-sdk"])
def test_a_split_put_can_still_add_a_new_record(strict: Any) -> None:
    """Under strict mode ``replace`` must be sent; null says there is none."""
    schema = strict(operation_input_schema("put"))
    assert nullable(schema["properties"]["replace"]) and not nullable(schema["properties"]["content"])


def test_a_null_field_of_another_operation_is_absent_and_a_value_is_still_refused(make_store: Any) -> None:
    from tact_memory.tool.memory_tool import MemoryTool

    tool = MemoryTool(make_store())
    assert "candidates" in tool.call({"operation": "scan", "query": "x", "ids": None, "content": None})
    refused = tool.call({"operation": "scan", "query": "x", "ids": [1]})
    assert refused["error"]["code"] == "invalid_arguments" and "'ids' is a field of read" in refused["error"]["message"]
    assert tool.call({"operation": "scan", "query": None})["error"]["code"] == "invalid_arguments"  # required

