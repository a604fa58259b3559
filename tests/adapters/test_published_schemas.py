"""Every tool definition we publish is one that Anthropic's and OpenAI's APIs accept.

The rules, as their documentation states them: Anthropic's Messages API takes a tool's
``input_schema`` as a JSON Schema whose root is ``{"type": "object", ...}`` and refuses the whole
request when that root carries ``oneOf``, ``anyOf`` or ``allOf``; OpenAI function calling takes
``parameters`` as a JSON Schema object whose root is an object and not a combinator. Both limit a
tool name to ``^[a-zA-Z0-9_-]{1,64}$``. We add: no ``$ref`` anywhere (some clients do not resolve
one), and a schema that is itself valid JSON Schema. Checked on every face that publishes one: the
``schema`` command in each dialect, the MCP server in both layouts and roles, the pydantic-ai
capability (as given and as its OpenAI profile sends it) and the LangChain middleware (as LangChain
hands it to OpenAI).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from jsonschema import Draft202012Validator
from langchain_core.utils.function_calling import convert_to_openai_tool
from mcp import Client

from ..conftest import NO_PYDANTIC_AI

pytest.importorskip("pydantic_ai", reason=NO_PYDANTIC_AI)

from pydantic_ai import Agent  # noqa: E402
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart  # noqa: E402
from pydantic_ai.models.function import AgentInfo, FunctionModel  # noqa: E402
from pydantic_ai.profiles.openai import OpenAIJsonSchemaTransformer  # noqa: E402

from tact_memory.adapters.langchain import MemoryAgentMiddleware  # noqa: E402
from tact_memory.adapters.mcp import ToolLayout, create_server  # noqa: E402
from tact_memory.adapters.pydantic_ai import MemoryCapability  # noqa: E402
from tact_memory.cli.app import cli  # noqa: E402
from tact_memory.config.loading import load_config  # noqa: E402
from tact_memory.store.sqlite import MemoryStore  # noqa: E402
from tact_memory.tool.guard import Role  # noqa: E402
from tact_memory.tool.schemas import DIALECTS  # noqa: E402

NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
ROOT_COMBINATORS = {"oneOf", "anyOf", "allOf"}
LAYOUTS: tuple[ToolLayout, ...] = ("one", "split")

Definition = tuple[str, str, dict[str, Any]]
"""Where it was published, the tool name, and the schema of its input (or output)."""


def violations(name: str, schema: object) -> list[str]:
    """What in one tool definition breaks Anthropic's or OpenAI's rules (empty when none)."""
    found = []
    if not NAME.match(name):
        found.append(f"name {name!r} is not ^[a-zA-Z0-9_-]{{1,64}}$")
    if not isinstance(schema, dict) or schema.get("type") != "object":
        found.append("root is not {'type': 'object'}")
        return found
    if ROOT_COMBINATORS & set(schema):
        found.append(f"root has {sorted(ROOT_COMBINATORS & set(schema))}")
    if '"$ref"' in json.dumps(schema):
        found.append("has a $ref")
    if not isinstance(schema.get("properties"), dict):
        found.append("root has no properties object")
    if errors := list(Draft202012Validator(Draft202012Validator.META_SCHEMA).iter_errors(schema)):
        found.append(f"not valid JSON Schema: {errors[0].message}")
    return found


@pytest.mark.parametrize(
    ("name", "schema"),
    [
        ("memory", {"oneOf": [{"type": "object"}]}),
        ("memory", {"type": "object", "properties": {}, "anyOf": [{"required": ["a"]}]}),
        ("memory", {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {}}}),
        ("memory tool", {"type": "object", "properties": {}}),
        ("memory", {"type": "object", "properties": {"a": {"type": 5}}}),
    ],
)
def test_the_rules_catch_what_the_apis_refuse(name: str, schema: dict[str, Any]) -> None:
    assert violations(name, schema)


def cli_definitions(tmp_path: Path) -> list[Definition]:
    found: list[Definition] = []
    for dialect in DIALECTS:  # the rules above hold in each (a provider's stricter ones: test_schema_dialects)
        out = CliRunner().invoke(cli, ["--config", str(tmp_path / "missing.toml"), "schema", "--dialect", dialect])
        definition = json.loads(out.output)
        found.append((f"cli schema --dialect {dialect}", definition["name"], definition["input_schema"]))
    return found


async def mcp_definitions(config_path: Path, store: MemoryStore) -> list[Definition]:
    found: list[Definition] = []
    config = load_config(config_path)
    for layout in LAYOUTS:
        for role in Role:
            server = create_server(config, role=role, store=store, tools=layout)
            async with Client(server) as client:
                for tool in (await client.list_tools()).tools:
                    found.append((f"mcp {layout} {role.value} input", tool.name, tool.input_schema))
                    assert tool.output_schema is not None
                    found.append((f"mcp {layout} {role.value} output", tool.name, tool.output_schema))
    return found


async def pydantic_ai_definitions(config_path: Path, store: MemoryStore) -> list[Definition]:
    shown: list[AgentInfo] = []

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        shown.append(info)
        return ModelResponse(parts=[TextPart("ok")])

    agent = Agent(FunctionModel(model), capabilities=[MemoryCapability.from_config(config_path, store=store)])
    await agent.run("hello")
    (tool,) = [t for t in shown[0].function_tools if t.name == "memory"]
    as_openai = OpenAIJsonSchemaTransformer(tool.parameters_json_schema, strict=tool.strict).walk()
    return [("pydantic-ai", tool.name, tool.parameters_json_schema), ("pydantic-ai for openai", tool.name, as_openai)]


def langchain_definitions(config_path: Path, store: MemoryStore) -> list[Definition]:
    (tool,) = MemoryAgentMiddleware.from_config(config_path, store=store).tools
    function = convert_to_openai_tool(tool)["function"]
    return [("langchain", tool.name, function["parameters"])]


@pytest.mark.anyio
async def test_every_published_definition_follows_anthropic_and_openai_rules(
    tmp_path: Path, config_path: Path, store: MemoryStore
) -> None:
    definitions = [
        *cli_definitions(tmp_path),
        *await mcp_definitions(config_path, store),
        *await pydantic_ai_definitions(config_path, store),
        *langchain_definitions(config_path, store),
    ]
    assert {where.split()[0] for where, _, _ in definitions} == {"cli", "mcp", "pydantic-ai", "langchain"}
    broken = {f"{where}: {name}": found for where, name, schema in definitions if (found := violations(name, schema))}
    assert broken == {}
