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
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

from tact_memory.checkpoint import CHECKPOINT_TEXT
from tact_memory.cli import cli
from tact_memory.config import load_config
from tact_memory.dispatch import Role
from tact_memory.integrations.mcp import PROMPT_NAME, create_server
from tact_memory.prompt import MEMORY_INSTRUCTIONS
from tact_memory.store import MemoryStore
from tact_memory.tool_models import input_schema

from ..conftest import write_config
from .conftest import REMEMBERED, SEEDED

pytestmark = pytest.mark.anyio

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def stdio(config_path: Path, *extra: str) -> Client:
    command = ["-m", "tact_memory.cli", "--config", str(config_path), "mcp", *extra]
    return Client(StdioServerParameters(command=sys.executable, args=command))


async def call(client: Client, arguments: dict[str, Any]) -> dict[str, Any]:
    """One call; checks that the text, the structured content and ``isError`` agree."""
    result = await client.call_tool("memory", arguments)
    assert len(result.content) == 1 and result.content[0].type == "text"
    data: dict[str, Any] = json.loads(result.content[0].text)
    assert result.structured_content == data
    assert result.is_error == ("error" in data)
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
            assert tool.input_schema == {"type": "object", **input_schema()}
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
        cli, ["--config", str(cli_config), "tool"], input="\n".join(json.dumps(c) for c in calls) + "\n"
    )
    assert printed.exit_code == 0
    config = load_config(write_config(tmp_path / "mcp"))
    with MemoryStore(config.database_path) as store:
        async with Client(create_server(config, store=store), mode=mode) as client:
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
    async with Client(create_server(config)) as client:
        assert client.instructions is None
        assert [t.name for t in (await client.list_tools()).tools] == ["memory"]
        assert (await client.list_prompts()).prompts == []
        with pytest.raises(MCPError):
            await client.get_prompt(PROMPT_NAME)
        for arguments in ({"operation": "scan", "query": "x"}, {"operation": "put", "content": "x"}):
            assert (await call(client, arguments))["error"]["code"] == "disabled"
    assert not config.database_path.exists()


async def test_unknown_tool_is_a_protocol_error(tmp_path: Path) -> None:
    async with Client(create_server(load_config(write_config(tmp_path / "c")))) as client:
        with pytest.raises(MCPError, match="unknown tool"):
            await client.call_tool("remember", {})


def test_mcp_command_without_the_extra_says_how_to_install_it(
    config_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "mcp", None)
    monkeypatch.delitem(sys.modules, "tact_memory.integrations.mcp", raising=False)
    result = CliRunner().invoke(cli, ["--config", str(config_path), "mcp"])
    assert result.exit_code == 2
    assert "pip install 'tact-memory[mcp]'" in result.output


def test_example_runs_offline(capsys: pytest.CaptureFixture[str]) -> None:
    runpy.run_path(str(EXAMPLES / "mcp_client.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert "tools: ['memory']" in out
    assert '"abstained": true' in out and '"replaced": false' in out
    assert CHECKPOINT_TEXT.splitlines()[0] in out
