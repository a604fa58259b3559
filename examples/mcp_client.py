"""Talk to `tact-memory mcp` over stdio with the official MCP client.

A throwaway config with memory enabled keeps your own memory untouched. In a client's server list
the command is `tact-memory mcp --role root` (`--role child` for a sub-agent's server).
"""

import sys
import tempfile
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters

CALLS = [
    {"operation": "scan", "query": "commonware release tags"},
    {"operation": "put", "content": "In the `commonware` repository, release tags use vX.Y.Z."},
]


async def main(config: Path) -> None:
    command = ["-m", "tact_memory.cli", "--config", str(config), "mcp", "--role", "root"]
    async with Client(StdioServerParameters(command=sys.executable, args=command)) as client:
        print("tools:", [tool.name for tool in (await client.list_tools()).tools])
        for arguments in CALLS:
            result = await client.call_tool("memory", arguments)
            print(result.content[0].text)  # the same JSON `tact-memory tool` prints
        # MCP has no per-turn hook: the client shows this after the first turn and with steers.
        review = await client.get_prompt("memory_review")
        print("review prompt:", review.messages[0].content.text.splitlines()[0])


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as home:
        config = Path(home, "config.toml")
        config.write_text("[memory]\nenabled = true\n")
        anyio.run(main, config)
