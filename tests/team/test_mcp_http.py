"""MCP over streamable HTTP at ``/mcp``: the official MCP client against real ``serve`` processes."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import anyio
import pytest

from .conftest import Service, corpus

pytest.importorskip("mcp", reason="the MCP SDK is not installed")

from mcp import Client  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402
from mcp.shared._httpx_utils import create_mcp_http_client  # noqa: E402

from tact_memory.runtime.prompt import MEMORY_INSTRUCTIONS  # noqa: E402
from tact_memory.tool.schemas import input_schema, output_schema  # noqa: E402

NOTE = "The billing-api deploys need two approvals from the platform team"


@contextlib.asynccontextmanager
async def connect(service: Service, token: str | None, **kwargs: Any) -> AsyncIterator[Client]:
    """An MCP client of ``service``'s ``/mcp`` that sends ``token`` as a bearer token on every request."""
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    async with create_mcp_http_client(headers=headers) as http:
        async with Client(streamable_http_client(service.url + "/mcp", http_client=http), **kwargs) as client:
            yield client


async def call(client: Client, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool("memory", arguments)
    assert len(result.content) == 1 and result.content[0].type == "text"
    data: dict[str, Any] = json.loads(result.content[0].text)
    assert result.structured_content == data
    assert result.is_error == ("error" in data)
    return data


def run(coroutine: Callable[[], Any]) -> Any:
    return anyio.run(coroutine)


def test_writer_puts_and_another_writer_finds_it_over_mcp(
    services: list[Service], make_token: Callable[..., str]
) -> None:
    alice, bob = make_token("alice"), make_token("bob")

    async def session() -> None:
        async with connect(services[0], alice, mode="legacy") as client:
            assert client.instructions == MEMORY_INSTRUCTIONS
            (tool,) = (await client.list_tools()).tools
            assert tool.name == "memory" and tool.input_schema == input_schema()
            assert tool.output_schema == output_schema()
            assert tool.annotations is not None and tool.annotations.read_only_hint is False
            refused = await call(client, {"operation": "put", "content": NOTE})
            assert refused["error"]["code"] == "scan_required"
            assert (await call(client, {"operation": "scan", "query": "billing deploys"}))["abstained"] is True
            put = await call(client, {"operation": "put", "content": NOTE})
            assert put["memory"]["key"]["namespace"] == "alice" and put["replaced"] is False
        # Bob's agent, on the other server process, finds it and reads it whole.
        async with connect(services[1], bob, mode="legacy") as client:
            scan = await call(client, {"operation": "scan", "query": "who approves billing deploys"})
            [card] = scan["candidates"]
            assert card["key"] == put["memory"]["key"]
            [memory] = (await call(client, {"operation": "read", "ids": [card["key"]["id"]]}))["memories"]
            assert memory["content"] == NOTE and memory["key"]["namespace"] == "alice"
            # Bob may not change Alice's record, with its key as shown or without the namespace:
            # the store refuses it, naming no content.
            for key in (card["key"], {k: card["key"][k] for k in ("id", "version")}):
                delete = await call(client, {"operation": "delete", **key})
                assert delete["error"]["code"] == "forbidden"

    run(session)


def test_a_key_is_taken_back_as_a_scan_showed_it_namespace_and_all(
    service: Service, make_token: Callable[..., str], admin: Any
) -> None:
    """A model copies a card's key whole into the replace or delete it sends; a namespace that is
    not the writer's is refused without being repeated."""
    alice = make_token("alice")
    forged = "x" * 300

    async def session() -> None:
        async with connect(service, alice, mode="legacy") as client:
            await call(client, {"operation": "scan", "query": "billing"})
            await call(client, {"operation": "put", "content": NOTE})
            [card] = (await call(client, {"operation": "scan", "query": "billing approvals"}))["candidates"]
            assert card["key"]["namespace"] == "alice"
            for namespace in ("bob", forged):
                refused = await call(
                    client, {"operation": "put", "content": NOTE + " and QA", "replace": {**card["key"], "namespace": namespace}}
                )
                assert refused["error"]["code"] == "forbidden" and namespace not in refused["error"]["message"]
                refused = await call(client, {"operation": "delete", **card["key"], "namespace": namespace})
                assert refused["error"]["code"] == "forbidden" and namespace not in refused["error"]["message"]
            assert admin.execute("SELECT content, version FROM memories").fetchall() == [(NOTE, 1)]
            put = await call(client, {"operation": "put", "content": NOTE + " and QA", "replace": card["key"]})
            assert put["replaced"] is True and put["memory"]["key"] == {**card["key"], "version": 2}
            deleted = await call(client, {"operation": "delete", **put["memory"]["key"]})
            assert "error" not in deleted
        assert admin.execute("SELECT content FROM memories").fetchall() == []

    run(session)


def test_reader_token_is_a_child_whose_put_is_forbidden(
    service: Service, make_token: Callable[..., str], admin: Any
) -> None:
    writer, reader = make_token("alice"), make_token("carol", "reader")

    async def session() -> None:
        async with connect(service, writer, mode="legacy") as client:
            await call(client, {"operation": "scan", "query": "billing"})
            await call(client, {"operation": "put", "content": NOTE})
        before = corpus(admin)
        async with connect(service, reader, mode="legacy") as client:
            (tool,) = (await client.list_tools()).tools
            assert tool.annotations is not None and tool.annotations.read_only_hint is True
            scan = await call(client, {"operation": "scan", "query": "billing approvals"})
            assert len(scan["candidates"]) == 1
            # A made-up role in the call changes nothing: the token decides.
            put = await call(client, {"operation": "put", "content": "carol was here", "role": "root"})
            assert put["error"]["code"] == "forbidden"
            assert "reader token" in put["error"]["message"]
        # The refused put changed nothing; the scan above counted its candidate, nothing else.
        after = corpus(admin)
        assert len(after) == len(before) and "carol was here" not in repr(after)

    run(session)


def test_scan_before_put_is_per_mcp_session(service: Service, make_token: Callable[..., str]) -> None:
    alice = make_token("alice")

    async def session() -> None:
        async with connect(service, alice, mode="legacy") as first, connect(service, alice, mode="legacy") as second:
            await call(first, {"operation": "scan", "query": "billing"})
            # The second agent (its own MCP session) has not scanned, even with the same token.
            assert (await call(second, {"operation": "put", "content": NOTE}))["error"]["code"] == "scan_required"
            assert "memory" in await call(first, {"operation": "put", "content": NOTE})

    run(session)


def test_the_sessionless_protocol_era_works_too(service: Service, make_token: Callable[..., str]) -> None:
    alice = make_token("alice")

    async def session() -> None:
        async with connect(service, alice) as client:  # the client's default: probe, then the newest protocol
            assert [t.name for t in (await client.list_tools()).tools] == ["memory"]
            await call(client, {"operation": "scan", "query": "billing"})
            assert (await call(client, {"operation": "put", "content": NOTE}))["memory"]["key"]["namespace"] == "alice"

    run(session)


@pytest.mark.parametrize("header", [None, "Bearer tmt_" + "x" * 43, "Basic abc"])
def test_requests_without_a_valid_token_are_401_before_any_mcp_handling(
    service: Service, header: str | None
) -> None:
    import httpx

    initialize = {
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}},
    }  # fmt: skip
    headers = {"Accept": "application/json, text/event-stream"}
    if header is not None:
        headers["Authorization"] = header
    answer = httpx.post(service.url + "/mcp", json=initialize, headers=headers, timeout=30)
    assert answer.status_code == 401
    assert answer.headers["www-authenticate"].startswith("Bearer")
    assert answer.json()["error"]["code"] in {"token_missing", "token_invalid"}
    assert "mcp-session-id" not in answer.headers
    assert "x" * 43 not in answer.text


def test_the_client_without_a_token_fails_to_connect(service: Service) -> None:
    from mcp.shared.exceptions import MCPError

    async def session() -> None:
        async with connect(service, None, mode="legacy") as client:
            await client.list_tools()  # pragma: no cover - the connection is refused first

    def leaves(exc: BaseException) -> list[BaseException]:
        inner = getattr(exc, "exceptions", None)
        return [leaf for e in inner for leaf in leaves(e)] if inner else [exc]

    with pytest.raises(BaseException) as failure:  # the SDK's task groups wrap it
        run(session)
    assert any(isinstance(leaf, MCPError) for leaf in leaves(failure.value))


def test_a_session_is_bound_to_the_token_that_opened_it(service: Service, make_token: Callable[..., str]) -> None:
    import httpx

    alice, bob = make_token("alice"), make_token("bob")
    base = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    initialize = {
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}},
    }  # fmt: skip
    opened = httpx.post(service.url + "/mcp", json=initialize, headers={**base, "Authorization": f"Bearer {alice}"}, timeout=30)
    assert opened.status_code == 200, opened.text
    session_id = opened.headers["mcp-session-id"]
    listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
    extra = {"mcp-session-id": session_id, "mcp-protocol-version": "2025-06-18"}
    stolen = httpx.post(
        service.url + "/mcp", json=listing, headers={**base, **extra, "Authorization": f"Bearer {bob}"}, timeout=30
    )
    assert stolen.status_code == 404
    own = httpx.post(
        service.url + "/mcp", json=listing, headers={**base, **extra, "Authorization": f"Bearer {alice}"}, timeout=30
    )
    assert own.status_code == 200 and own.json()["result"]["tools"][0]["name"] == "memory"


def test_mcp_requests_are_logged_without_content_or_tokens(service: Service, make_token: Callable[..., str]) -> None:
    alice = make_token("alice")
    unique = "zanzibar quokka migration runbook lives in the ops wiki"

    async def session() -> None:
        async with connect(service, alice, mode="legacy") as client:
            await call(client, {"operation": "scan", "query": "quokka migration"})
            await call(client, {"operation": "put", "content": unique})

    run(session)
    log = service.log_text()
    lines = [json.loads(line) for line in log.splitlines() if line.startswith("{") and '"/mcp"' in line]
    assert lines and all(set(line) == {"method", "path", "status", "code", "ms", "namespace", "role"} for line in lines)
    assert any(line["namespace"] == "alice" and line["role"] == "writer" for line in lines)
    assert "quokka" not in log and "zanzibar" not in log and alice not in log


@contextlib.asynccontextmanager
async def connect_split(service: Service, token: str, **kwargs: Any) -> AsyncIterator[Client]:
    """An MCP client of ``/mcp?tools=split``: the URL is all a client's configuration has to change."""
    headers = {"Authorization": f"Bearer {token}"}
    async with create_mcp_http_client(headers=headers) as http:
        async with Client(streamable_http_client(service.url + "/mcp?tools=split", http_client=http), **kwargs) as client:
            yield client


async def call_split(client: Client, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(name, arguments)
    data: dict[str, Any] = json.loads(result.content[0].text)  # type: ignore[union-attr]
    assert result.structured_content == data
    return data


@pytest.mark.parametrize("mode", ["legacy", None])
def test_split_tools_over_http_follow_the_token(
    services: list[Service], make_token: Callable[..., str], admin: Any, mode: str | None
) -> None:
    writer, reader = make_token("alice"), make_token("carol", "reader")
    options = {} if mode is None else {"mode": mode}

    async def session() -> None:
        async with connect_split(services[0], writer, **options) as client:
            names = [t.name for t in (await client.list_tools()).tools]
            assert names == ["memory_scan", "memory_read", "memory_put", "memory_delete"]
            assert (await call_split(client, "memory_scan", {"query": "billing"}))["abstained"] is True
            put = await call_split(client, "memory_put", {"content": NOTE})
            assert put["memory"]["key"]["namespace"] == "alice"
        before = corpus(admin)
        async with connect_split(services[1], reader, **options) as client:
            tools = (await client.list_tools()).tools
            assert [t.name for t in tools] == ["memory_scan", "memory_read"]
            assert all(t.annotations is not None and t.annotations.read_only_hint for t in tools)
            [card] = (await call_split(client, "memory_scan", {"query": "billing approvals"}))["candidates"]
            [memory] = (await call_split(client, "memory_read", {"ids": [card["key"]["id"]]}))["memories"]
            assert memory["content"] == NOTE
            # Calling the unlisted tools by name is refused by the token's role, not by a prompt.
            refused = await call_split(client, "memory_put", {"content": "carol was here"})
            assert refused["error"]["code"] == "forbidden" and "reader token" in refused["error"]["message"]
            key = {k: card["key"][k] for k in ("id", "version")}
            assert (await call_split(client, "memory_delete", key))["error"]["code"] == "forbidden"
        after = corpus(admin)
        assert len(after) == len(before) and "carol was here" not in repr(after)

    run(session)


@pytest.mark.parametrize("query", ["?tools=three", "?tools=one&tools=split", "?tools="])
def test_an_unknown_tool_layout_is_refused_by_name(service: Service, make_token: Callable[..., str], query: str) -> None:
    import httpx

    alice = make_token("alice")
    initialize = {
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}},
    }  # fmt: skip
    headers = {"Accept": "application/json, text/event-stream", "Authorization": f"Bearer {alice}"}
    answer = httpx.post(service.url + "/mcp" + query, json=initialize, headers=headers, timeout=30)
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "invalid_arguments"
    assert "mcp-session-id" not in answer.headers


def test_mcp_refuses_a_namespace_the_token_is_not_of(service: Service, make_token: Callable[..., str]) -> None:
    """As on /v1: ``X-Tact-Namespace`` that is not the token's namespace is refused by name."""
    import httpx

    alice = make_token("alice")
    headers = {"Accept": "application/json, text/event-stream", "Authorization": f"Bearer {alice}"}
    initialize = {
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}},
    }  # fmt: skip
    other = httpx.post(service.url + "/mcp", json=initialize, headers={**headers, "X-Tact-Namespace": "bob"}, timeout=30)
    assert other.status_code == 403 and other.json()["error"]["code"] == "namespace_mismatch"
    assert "mcp-session-id" not in other.headers
    own = httpx.post(service.url + "/mcp", json=initialize, headers={**headers, "X-Tact-Namespace": "alice"}, timeout=30)
    assert own.status_code == 200
