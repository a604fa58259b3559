"""An MCP server for the memory tool, on the official MCP Python SDK (``tact-memory[mcp]``).

``tact-memory [--config PATH] mcp [--role root|child]`` serves one client over stdio. The server is
the SDK's low-level :class:`mcp.server.lowlevel.Server`, because the tool's input schema is not a
function signature: it is the tool's own closed ``oneOf`` (see :mod:`tact_memory.tool_models`),
``{"type": "object", "oneOf": [...]}``, which already has the object at the top that MCP requires.

What a client gets:

- one tool, ``memory``. A call runs through one :class:`~tact_memory.dispatch.Dispatcher` for the
  life of the server (so scan-before-put holds across calls) with the role chosen on the command
  line, never from the call. The result is the same JSON ``tact-memory tool`` prints, as one text
  block, and the same object as structured content. A refused call is a tool result, not a
  protocol error, with ``isError`` set, as MCP asks for errors a model should see and act on; the
  text is unchanged, so a client that ignores the flag still shows the model the ``error`` object.
- the instructions paragraph (:data:`~tact_memory.prompt.MEMORY_INSTRUCTIONS`) as the server's
  instructions, and the review checkpoint (:data:`~tact_memory.checkpoint.CHECKPOINT_TEXT`) as a
  prompt named ``memory_review`` with one user message.
- with memory disabled, the server still starts and lists the tool, every call returns the
  ``disabled`` error, and there are no instructions and no prompt.

What MCP cannot do: it has no per-turn hook. A server cannot see or change the user's messages, so
it cannot append the checkpoint to every user message after the first turn, or to every steer, as
the other integrations do. The client decides when the checkpoint is shown: to follow the
specification, append the ``memory_review`` prompt's text as its own part of each user message
after the first turn and of each steer, keep it in the model's history, and leave it out of the
transcript you display. A client that never does so gets memory without the review checkpoint.
Likewise, the role is the server's: run a second server with ``--role child`` for sub-agents.
"""

from __future__ import annotations

import json
from importlib import metadata
from typing import Any

import anyio
from mcp import types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError

from ..checkpoint import CHECKPOINT_TEXT
from ..config import Config
from ..dispatch import Dispatcher, Role
from ..prompt import MEMORY_INSTRUCTIONS
from ..records import MemoryBackend
from . import close_store, store_for
from ..tool import TOOL_NAME, ToolResult

__all__ = ["PROMPT_NAME", "SERVER_NAME", "call_result", "create_server", "run_stdio", "serve_stdio"]

SERVER_NAME = "tact-memory"
"""The name the server reports to clients."""

PROMPT_NAME = "memory_review"
"""The prompt that carries the review checkpoint."""

_PROMPT_DESCRIPTION = (
    "The tact-memory review checkpoint. Append its text, as a separate part, to every user message "
    "after the first turn and to every steer; keep it out of the transcript you display."
)


def _version() -> str:
    try:
        return metadata.version("tact-memory")
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return ""


def call_result(result: ToolResult) -> types.CallToolResult:
    """The MCP form of one tool result: its JSON as text and as structured content.

    Args:
        result: What :meth:`Dispatcher.call` returned.
    """
    text = json.dumps(result, ensure_ascii=False)
    return types.CallToolResult(
        content=[types.TextContent(text=text)],
        structured_content=result,
        is_error="error" in result,
    )


def create_server(
    config: Config, *, role: Role = Role.ROOT, store: MemoryBackend | None = None
) -> Server[Any]:
    """An MCP server for one client (one agent) of the corpus that ``config`` selects.

    Args:
        config: The configuration; ``config.memory.enabled`` decides whether calls reach the store.
        role: The role of the agent behind the client; a child may only scan and read.
        store: A backend to use instead of the SQLite store at ``config.database_path``.
    """
    enabled = config.memory.enabled
    dispatcher = Dispatcher(store_for(config, store=store), role=role)
    definition = dispatcher.definition()
    tool = types.Tool(
        name=TOOL_NAME,
        title="Memory",
        description=definition["description"],
        input_schema=definition["input_schema"],
        annotations=types.ToolAnnotations(
            read_only_hint=role is Role.CHILD,
            destructive_hint=role is Role.ROOT,
            idempotent_hint=False,
            open_world_hint=False,
        ),
    )
    prompt = types.Prompt(name=PROMPT_NAME, title="Memory review", description=_PROMPT_DESCRIPTION)

    async def list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[tool])

    async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name != TOOL_NAME:
            raise MCPError(types.INVALID_PARAMS, f"unknown tool {params.name!r}; this server has only {TOOL_NAME!r}")
        return call_result(await dispatcher.acall(params.arguments or {}))

    async def list_prompts(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListPromptsResult:
        return types.ListPromptsResult(prompts=[prompt] if enabled else [])

    async def get_prompt(ctx: ServerRequestContext[Any], params: types.GetPromptRequestParams) -> types.GetPromptResult:
        if params.name != PROMPT_NAME or not enabled:
            raise MCPError(types.INVALID_PARAMS, f"unknown prompt {params.name!r}")
        message = types.PromptMessage(role="user", content=types.TextContent(text=CHECKPOINT_TEXT))
        return types.GetPromptResult(description=_PROMPT_DESCRIPTION, messages=[message])

    return Server(
        SERVER_NAME,
        version=_version(),
        instructions=MEMORY_INSTRUCTIONS if enabled else None,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
    )


async def serve_stdio(config: Config, *, role: Role = Role.ROOT) -> None:
    """Serve one client over stdin and stdout until it disconnects, then close the store.

    Args:
        config: The configuration.
        role: The role of the agent behind the client.
    """
    store = store_for(config)
    server = create_server(config, role=role, store=store)
    try:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())
    finally:
        close_store(store)


def run_stdio(config: Config, *, role: Role = Role.ROOT) -> None:
    """Blocking :func:`serve_stdio`, for the command line."""
    anyio.run(lambda: serve_stdio(config, role=role))
