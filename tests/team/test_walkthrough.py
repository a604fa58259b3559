"""The README's team walkthrough, run as written: tokens and serve from the shell, Alice's record
added with the command line under her config, Bob's scan through the command line under his, and
Bob's agent (the MCP SDK's client, where the README has Claude Code) finding it over HTTP."""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
URL_IN_README = "postgresql://postgres:tact@localhost:5432/postgres"
PORT_IN_README = "8765"
ALICES = "The billing-api deploys need two approvals from the platform team"


def walkthrough() -> list[str]:
    """The commands of every block marked ``walkthrough: team``, in order; a heredoc's ``> `` lines join their command."""
    blocks = re.findall(r"<!-- walkthrough: team -->\n```console\n(.*?)```", README, flags=re.S)
    assert len(blocks) == 3, "the README's team walkthrough is three blocks: the server, Alice, Bob"
    steps: list[str] = []
    for line in "".join(blocks).strip().splitlines():
        if line.startswith("> "):
            steps[-1] += "\n" + line[2:]
        else:
            assert line.startswith("$ "), line
            steps.append(line[2:])
    return steps


def test_the_walkthrough_covers_nothing_to_two_users() -> None:
    steps = walkthrough()
    assert steps[0] == "pip install 'tact-memory[team]'"
    assert steps[1].startswith("docker run") and "postgres" in steps[1]
    assert steps[2] == f"export TACT_TEAM_DATABASE_URL={URL_IN_README}"
    assert sum("team token create" in s and "--role writer" in s for s in steps) == 2
    assert any(s.startswith("tact-memory serve") for s in steps)
    assert not any("curl" in s for s in steps)  # every user step goes through tact-memory
    configs = [s for s in steps if s.startswith("cat >>")]
    assert len(configs) == 2 and steps.count("tact-memory init --enable") == 2
    for config, name in zip(configs, ("alice", "bob")):
        assert "[memory.team]" in config and f'namespace = "{name}"' in config
        assert 'token_env = "TACT_TEAM_TOKEN"' in config and f'endpoint = "http://127.0.0.1:{PORT_IN_README}"' in config
    assert f'tact-memory add "{ALICES}"' in steps
    scan = [s for s in steps if s.startswith("tact-memory tool")]
    assert len(scan) == 1 and json.loads(shlex.split(scan[0])[2])["operation"] == "scan"
    claude = shlex.split(steps[-1])
    assert claude[:4] == ["claude", "mcp", "add", "--transport"] and claude[4] == "http"
    assert claude[6] == f"http://127.0.0.1:{PORT_IN_README}/mcp"
    assert claude[7:] == ["--header", "Authorization: Bearer $BOB"]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_the_walkthrough_runs_and_bob_finds_alices_record(pg_database: str, tmp_path: Path) -> None:
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    port = str(_free_port())
    home = tmp_path / "home"  # `~` of the README's commands
    bin_dir = tmp_path / "bin"  # `tact-memory` as the installed command would be
    home.mkdir()
    bin_dir.mkdir()
    (bin_dir / "tact-memory").write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m tact_memory.cli "$@"\n')
    (bin_dir / "tact-memory").chmod(0o755)
    script = ["set -eu"]
    for step in walkthrough():
        if step.startswith(("pip install", "docker run", "claude mcp add")):
            continue  # installing, the database and Claude Code are the test environment's
        step = step.replace(URL_IN_README, shlex.quote(pg_database)).replace(PORT_IN_README, port)
        if step.startswith("tact-memory serve"):
            # Its own terminal in the README; here in the background, waited for.
            script += [
                f"{step} > serve.log 2>&1 &",
                "echo SERVE_PID=$!",
                f"until (exec 3<>/dev/tcp/127.0.0.1/{port}) 2>/dev/null; do sleep 0.2; done",
            ]
        elif step.startswith("tact-memory add"):
            script.append(f"echo ADD=$({step})")
        elif step.startswith("tact-memory tool"):
            script.append(f"echo SCAN=$({step})")
        else:
            script.append(step)
    script += ["echo ALICE=$ALICE", "echo BOB=$BOB"]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TACT_", "XDG_"))}
    env.update(HOME=str(home), PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}", PYTHONPATH=str(ROOT))
    ran = subprocess.run(["bash", "-c", "\n".join(script)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    values = dict(line.split("=", 1) for line in ran.stdout.splitlines() if "=" in line)
    try:
        assert ran.returncode == 0, ran.stderr[-2000:]
        assert values["ALICE"].startswith("tmt_") and values["BOB"].startswith("tmt_")
        assert values["ADD"].startswith("added memory ")
        [card] = json.loads(values["SCAN"])["candidates"]  # Bob's scan, through the command line
        assert card["key"]["namespace"] == "alice" and card["preview"].startswith("The billing-api deploys")
        for person in ("tact-alice", "tact-bob"):  # the team store only: no local memory was created
            assert sorted(os.listdir(home / person)) == ["config.toml"]

        async def bobs_agent() -> dict[str, Any]:
            headers = {"Authorization": f"Bearer {values['BOB']}"}
            async with create_mcp_http_client(headers=headers) as http:
                url = f"http://127.0.0.1:{port}/mcp"
                async with Client(streamable_http_client(url, http_client=http), mode="legacy") as client:
                    scan = await client.call_tool("memory", {"operation": "scan", "query": "who approves billing-api deploys"})
                    [card] = scan.structured_content["candidates"]  # type: ignore[index]
                    read = await client.call_tool("memory", {"operation": "read", "ids": [card["key"]["id"]]})
                    return read.structured_content["memories"][0]  # type: ignore[index,no-any-return]

        memory = anyio.run(bobs_agent)
        assert memory["key"]["namespace"] == "alice"
        assert memory["content"] == ALICES
    finally:
        if "SERVE_PID" in values:
            os.kill(int(values["SERVE_PID"]), signal.SIGTERM)
