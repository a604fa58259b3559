"""The MCP server, through the official MCP client: over stdio (the real command) and in memory."""

from __future__ import annotations

import json
import re
import runpy
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from click.testing import CliRunner
from jsonschema import Draft202012Validator
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

from tact_memory.adapters.mcp import PROMPT_NAME, SPLIT_TOOLS, UNSTATED_ROLE_NOTE, ToolLayout, create_server
from tact_memory.cli.app import cli
from tact_memory.config.loading import load_config
from tact_memory.limits import Limits
from tact_memory.runtime.prompt import MEMORY_INSTRUCTIONS
from tact_memory.screening.checkpoint import CHECKPOINT_TEXT
from tact_memory.store.sqlite import MemoryStore
from tact_memory.tool.guard import Role
from tact_memory.tool.schemas import input_schema, operation_input_schema, output_schema

from ..conftest import write_config
from ..tool.test_memory_tool import shape
from .conftest import REMEMBERED, SEEDED

pytestmark = pytest.mark.anyio

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


LAYOUTS: tuple[ToolLayout, ...] = ("one", "split")


def stdio(config_path: Path, *extra: str) -> Client:
    """A client of a real ``mcp`` process; the root unless ``extra`` states a role (``--role``)."""
    role = [] if "--role" in extra or "--no-role" in extra else ["--role", "root"]
    command = ["-m", "tact_memory.cli", "--config", str(config_path), "mcp", *role, *(e for e in extra if e != "--no-role")]
    return Client(StdioServerParameters(command=sys.executable, args=command))


async def call(client: Client, arguments: dict[str, Any], tool: str = "memory") -> dict[str, Any]:
    """One call; checks that the text, the structured content, ``isError`` and the output schema agree."""
    result = await client.call_tool(tool, arguments)
    assert len(result.content) == 1 and result.content[0].type == "text"
    data: dict[str, Any] = json.loads(result.content[0].text)
    assert result.structured_content == data
    assert result.is_error == ("error" in data)
    listed = next((t for t in (await client.list_tools()).tools if t.name == tool), None)
    if listed is not None:  # the client checks only results that are not errors; check every one
        assert listed.output_schema is not None
        Draft202012Validator(listed.output_schema).validate(data)
    return data


def masked(text: str) -> str:
    return re.sub(r'"(\w+_at_ms|probation_until_ms)": \d+', r'"\1": "<ms>"', text)


async def test_stdio_root_and_child_servers_share_the_corpus_and_only_root_writes(
    config_path: Path, seeded: MemoryStore
) -> None:
    async def root() -> None:
        async with stdio(config_path) as client:
            assert client.instructions == MEMORY_INSTRUCTIONS
            (tool,) = (await client.list_tools()).tools
            assert tool.name == "memory"
            assert tool.input_schema == input_schema()
            assert tool.output_schema == output_schema()
            # Nothing the client is handed before a scan carries stored text (I2).
            assert SEEDED not in f"{client.instructions} {tool.model_dump_json()}"
            prompts = (await client.list_prompts()).prompts
            assert [p.name for p in prompts] == [PROMPT_NAME]
            review = await client.get_prompt(PROMPT_NAME)
            assert [(m.role, m.content.text) for m in review.messages] == [("user", CHECKPOINT_TEXT)]
            scan = await call(client, {"operation": "scan", "query": "zephyr release tags"})
            assert [c["preview"] for c in scan["candidates"]] == [SEEDED]
            put = await call(client, {"operation": "put", "content": REMEMBERED})
            assert put["memory"]["content"] == REMEMBERED

    async def child() -> None:
        async with stdio(config_path, "--role", "child") as client:
            assert (await call(client, {"operation": "scan", "query": "zephyr"}))["candidates"]
            refused = await call(client, {"operation": "put", "content": "In `zephyr`, children write."})
            assert refused["error"]["code"] == "forbidden"
            assert (await call(client, {"operation": "delete", "id": 1, "version": 1}))["error"]["code"] == "forbidden"

    async with anyio.create_task_group() as group:
        group.start_soon(root)
        group.start_soon(child)
    assert sorted(r.content for r in seeded.list_records(order="id")) == sorted([SEEDED, REMEMBERED])


async def test_stdio_server_without_a_role_serves_a_child_and_says_how_to_state_the_root(
    config_path: Path, seeded: MemoryStore
) -> None:
    """I17: a server cannot tell a sub-agent from its parent, so without --role it is never the root."""
    async with stdio(config_path, "--no-role") as client:
        (tool,) = (await client.list_tools()).tools
        assert tool.annotations is not None and tool.annotations.read_only_hint is True
        assert (await call(client, {"operation": "scan", "query": "zephyr release tags"}))["candidates"]
        put = await call(client, {"operation": "put", "content": REMEMBERED})
        assert put["error"]["code"] == "forbidden"
        assert put["error"]["message"].endswith(UNSTATED_ROLE_NOTE) and "--role root" in put["error"]["message"]
        deleted = await call(client, {"operation": "delete", "id": 1, "version": 1})
        assert deleted["error"]["code"] == "forbidden" and deleted["error"]["message"].endswith(UNSTATED_ROLE_NOTE)
    assert [r.content for r in seeded.list_records(order="id")] == [SEEDED]


async def test_in_memory_server_is_a_child_unless_the_role_is_stated(config_path: Path, seeded: MemoryStore) -> None:
    config = load_config(config_path)
    for role, code in ((None, "forbidden"), (Role.CHILD, "forbidden"), (Role.ROOT, None)):
        async with Client(create_server(config, role=role, store=seeded)) as client:
            await call(client, {"operation": "scan", "query": "zephyr"})
            put = await call(client, {"operation": "put", "content": f"In `zephyr`, {role} puts."})
            assert (put.get("error") or {}).get("code") == code
            if role is not None and code is not None:
                assert UNSTATED_ROLE_NOTE not in put["error"]["message"]


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_in_memory_results_are_what_the_tool_command_prints(tmp_path: Path, mode: str) -> None:
    calls: list[dict[str, Any]] = [
        {"operation": "put", "content": "too early"},
        {"operation": "scan", "query": "release tags"},
        {"operation": "put", "content": SEEDED},
        {"operation": "read", "ids": [1, 7]},
        {"operation": "delete", "id": 1, "version": 9},
        {"query": "no operation"},
        {"operation": "scan", "query": "x", "role": "root", "extra": 1},
    ]
    cli_config = write_config(tmp_path / "cli")
    printed = CliRunner().invoke(
        cli, ["--config", str(cli_config), "tool", "--role", "root"], input="\n".join(json.dumps(c) for c in calls) + "\n"
    )
    assert printed.exit_code == 0
    config = load_config(write_config(tmp_path / "mcp"))
    with MemoryStore(config.database_path) as store:
        async with Client(create_server(config, role=Role.ROOT, store=store), mode=mode) as client:
            served = [json.dumps(await call(client, c), ensure_ascii=False) for c in calls]
    assert [masked(line) for line in served] == [masked(line) for line in printed.output.splitlines()]


async def test_in_memory_child_is_refused_and_nothing_is_stored(config_path: Path, seeded: MemoryStore) -> None:
    async with Client(create_server(load_config(config_path), role=Role.CHILD, store=seeded)) as client:
        await call(client, {"operation": "scan", "query": "zephyr"})
        refused = await call(client, {"operation": "put", "content": REMEMBERED})
    assert refused["error"]["code"] == "forbidden"
    assert [r.content for r in seeded.list_records()] == [SEEDED]


async def test_disabled_server_starts_and_says_so_in_every_result(disabled_config_path: Path) -> None:
    config = load_config(disabled_config_path)
    async with Client(create_server(config, role=Role.ROOT)) as client:
        assert client.instructions is None
        assert [t.name for t in (await client.list_tools()).tools] == ["memory"]
        assert (await client.list_prompts()).prompts == []
        with pytest.raises(MCPError):
            await client.get_prompt(PROMPT_NAME)
        for arguments in ({"operation": "scan", "query": "x"}, {"operation": "put", "content": "x"}):
            assert (await call(client, arguments))["error"]["code"] == "disabled"
    assert not config.database_path.exists()


async def test_unknown_tool_is_a_protocol_error(tmp_path: Path) -> None:
    async with Client(create_server(load_config(write_config(tmp_path / "c")), role=Role.ROOT)) as client:
        with pytest.raises(MCPError, match="unknown tool") as refused:
            await client.call_tool("remember", {})
        assert "remember" not in str(refused.value)  # a client's tool name is not repeated
        with pytest.raises(MCPError, match="unknown tool"):
            await client.call_tool("memory_scan", {"query": "x"})  # only with --tools split


def test_mcp_command_without_the_extra_says_how_to_install_it(
    config_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "mcp", None)
    monkeypatch.delitem(sys.modules, "tact_memory.adapters.mcp", raising=False)
    result = CliRunner().invoke(cli, ["--config", str(config_path), "mcp"])
    assert result.exit_code == 2
    assert "pip install 'tact-memory[mcp]'" in result.output


def test_example_runs_offline(capsys: pytest.CaptureFixture[str]) -> None:
    runpy.run_path(str(EXAMPLES / "mcp_client.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert "tools: ['memory']" in out
    assert '"abstained": true' in out and '"replaced": false' in out
    assert CHECKPOINT_TEXT.splitlines()[0] in out


# -- annotations and split tools -----------------------------------------------------------------


def hints(tool: Any) -> tuple[bool | None, bool | None, bool | None, bool | None]:
    a = tool.annotations
    return (a.read_only_hint, a.destructive_hint, a.idempotent_hint, a.open_world_hint)


async def test_annotations_say_what_each_tool_may_change(config_path: Path, seeded: MemoryStore) -> None:
    config = load_config(config_path)
    async with Client(create_server(config, role=Role.ROOT, store=seeded)) as client:
        (one,) = (await client.list_tools()).tools
    assert hints(one) == (False, True, False, False)  # the root's tool may overwrite or remove a record
    async with Client(create_server(config, role=Role.CHILD, store=seeded)) as client:
        (child,) = (await client.list_tools()).tools
    assert hints(child) == (True, False, False, False)  # a child's put and delete are refused
    async with Client(create_server(config, role=Role.ROOT, store=seeded, tools="split")) as client:
        split = {t.name: t for t in (await client.list_tools()).tools}
    assert list(split) == ["memory_scan", "memory_read", "memory_put", "memory_delete"]
    assert {name: hints(t) for name, t in split.items()} == {
        "memory_scan": (True, False, False, False),
        "memory_read": (True, False, False, False),
        "memory_put": (False, True, False, False),  # a replace overwrites the record's text
        "memory_delete": (False, True, True, False),  # deleting the same version twice changes nothing more
    }
    for op, name in SPLIT_TOOLS.items():
        assert split[name].input_schema == operation_input_schema(op)
        assert "operation" not in split[name].input_schema["properties"]
        assert split[name].output_schema == output_schema(op)


async def test_split_tools_share_one_dispatcher_and_give_what_the_one_tool_gives(tmp_path: Path) -> None:
    steps: list[tuple[str, dict[str, Any]]] = [
        ("put", {"content": SEEDED}),
        ("scan", {"query": "zephyr release tags"}),
        ("put", {"content": SEEDED}),
        ("scan", {"query": "zephyr release tags", "limit": 1}),
        ("read", {"ids": [1, 9]}),
        ("put", {"content": REMEMBERED, "replace": {"id": 1, "version": 1}}),
        ("delete", {"id": 1, "version": 1}),
        ("read", {"ids": [1]}),
        ("scan", {"query": "x", "content": "another operation's field"}),
        ("read", {"ids": []}),
        ("delete", {"id": 1, "version": 2}),
        ("delete", {"id": 1, "version": 2}),
    ]
    results: dict[str, list[dict[str, Any]]] = {}
    for layout in LAYOUTS:
        config = load_config(write_config(tmp_path / layout))
        with MemoryStore(config.database_path) as store:
            async with Client(create_server(config, role=Role.ROOT, store=store, tools=layout)) as client:
                results[layout] = [
                    await call(client, {"operation": op, **args}) if layout == "one" else await call(client, args, SPLIT_TOOLS[op])
                    for op, args in steps
                ]  # fmt: skip
    assert [masked(json.dumps(r)) for r in results["split"]] == [masked(json.dumps(r)) for r in results["one"]]
    codes = [r["error"]["code"] if "error" in r else r["operation"] for r in results["split"]]
    assert codes == [
        "scan_required", "scan", "put", "scan", "read", "put", "version_conflict", "read",
        "invalid_arguments", "invalid_arguments", "delete", "not_found",
    ]  # fmt: skip


async def test_a_split_call_naming_another_operation_is_refused(config_path: Path, seeded: MemoryStore) -> None:
    async with Client(create_server(load_config(config_path), role=Role.ROOT, store=seeded, tools="split")) as client:
        same = await call(client, {"operation": "scan", "query": "zephyr"}, "memory_scan")
        assert same["candidates"]
        other = await call(client, {"operation": "delete", "id": 1, "version": 1}, "memory_read")
    assert other["operation"] == "read" and other["error"]["code"] == "invalid_arguments"
    assert "memory_read runs read only" in other["error"]["message"]
    assert [r.content for r in seeded.list_records()] == [SEEDED]


async def test_a_split_child_is_offered_scan_and_read_and_refused_the_rest(
    config_path: Path, seeded: MemoryStore
) -> None:
    async with Client(create_server(load_config(config_path), role=Role.CHILD, store=seeded, tools="split")) as client:
        assert [t.name for t in (await client.list_tools()).tools] == ["memory_scan", "memory_read"]
        await call(client, {"query": "zephyr"}, "memory_scan")
        put = await call(client, {"content": REMEMBERED}, "memory_put")
        delete = await call(client, {"id": 1, "version": 1}, "memory_delete")
    assert put["error"]["code"] == delete["error"]["code"] == "forbidden"
    assert [r.content for r in seeded.list_records()] == [SEEDED]


async def test_tool_schemas_carry_the_store_bounds(tmp_path: Path, clock: Any) -> None:
    config = load_config(write_config(tmp_path / "c"))
    limits = Limits(scan_results=2, rows=3)
    with MemoryStore(config.database_path, limits=limits, clock=clock) as store:
        for layout in LAYOUTS:
            async with Client(create_server(config, role=Role.ROOT, store=store, tools=layout)) as client:
                tools = {t.name: t for t in (await client.list_tools()).tools}
            scan = tools["memory"] if layout == "one" else tools["memory_scan"]
            read = tools["memory"] if layout == "one" else tools["memory_read"]
            limit, ids = scan.input_schema["properties"]["limit"], read.input_schema["properties"]["ids"]
            assert shape(limit)["maximum"] == 2  # optional: published as its schema or null
            assert "maxItems" not in (ids if layout == "split" else shape(ids))
            assert "at most 2 compact candidates" in (scan.description or "")


async def test_stdio_split_tools(config_path: Path, seeded: MemoryStore) -> None:
    async with stdio(config_path, "--tools", "split") as client:
        assert [t.name for t in (await client.list_tools()).tools] == list(SPLIT_TOOLS.values())
        scan = await call(client, {"query": "zephyr release tags"}, "memory_scan")
        assert [c["preview"] for c in scan["candidates"]] == [SEEDED]
        assert (await call(client, {"content": REMEMBERED}, "memory_put"))["memory"]["key"] == {"id": 2, "version": 1}


@pytest.mark.parametrize("layout", ["one", "split"])
async def test_stdio_plain_dialect_lists_schemas_without_unions_and_runs_every_operation(
    config_path: Path, seeded: MemoryStore, layout: str
) -> None:
    """``mcp --dialect plain`` (what setup writes for Cursor): the listed schemas are the plain
    dialect's, and a delete by id and version, whose integers Cursor refuses under ``anyOf``, runs."""
    split = layout == "split"
    async with stdio(config_path, "--dialect", "plain", *(["--tools", "split"] if split else [])) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        if split:
            assert {name: tools[name].input_schema for name in SPLIT_TOOLS.values()} == {
                name: operation_input_schema(op, dialect="plain") for op, name in SPLIT_TOOLS.items()
            }
        else:
            assert tools["memory"].input_schema == input_schema(dialect="plain")
        name = SPLIT_TOOLS["scan"] if split else "memory"
        scan = await call(client, {"query": "zephyr release tags", "limit": 1} | ({} if split else {"operation": "scan"}), name)
        key = scan["candidates"][0]["key"]
        name = SPLIT_TOOLS["delete"] if split else "memory"
        deleted = await call(client, {"id": key["id"], "version": key["version"]} | ({} if split else {"operation": "delete"}), name)
        assert "error" not in deleted
