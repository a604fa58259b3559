"""The ``mcp`` command's stdio wire, line by line as a client writes it: every request gets an
answer, also one whose text the MCP SDK's parser refuses."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

from mcp import types  # noqa: E402

from tact_memory.adapters.mcp import UNREADABLE_TEXT  # noqa: E402
from tact_memory.store.sqlite import MemoryStore  # noqa: E402


class Wire:
    """A ``tact-memory mcp --role root`` process and its stdout, read on a thread."""

    def __init__(self, config_path: Path) -> None:
        command = [sys.executable, "-m", "tact_memory.cli", "--config", str(config_path), "mcp", "--role", "root"]
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8"
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def answer(self, timeout: float = 30) -> dict[str, Any]:
        return dict(json.loads(self.lines.get(timeout=timeout)))

    def start(self) -> None:
        self.send(json.dumps({
            "jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": types.LATEST_PROTOCOL_VERSION, "capabilities": {},
                       "clientInfo": {"name": "wire-test", "version": "1"}},
        }))  # fmt: skip
        assert self.answer()["id"] == 1
        self.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()


def tool_call(request_id: int, arguments: str) -> str:
    """A ``tools/call`` line whose ``arguments`` are the JSON text given, as it is."""
    return (
        f'{{"jsonrpc": "2.0", "id": {request_id}, "method": "tools/call", '
        f'"params": {{"name": "memory", "arguments": {arguments}}}}}'
    )


@pytest.mark.parametrize(
    "arguments",
    [
        r'{"operation": "scan", "query": "\ud800"}',
        r'{"operation": "put", "content": "In the cairn repository, \udfff builds are nightly."}',
        r'{"operation": "put", "content": "a smile \ud83d cut in half"}',
    ],
)
def test_a_request_with_half_a_character_is_answered_and_runs_nothing(
    config_path: Path, db_path: Path, arguments: str
) -> None:
    wire = Wire(config_path)
    try:
        wire.start()
        wire.send(tool_call(7, arguments))
        refused = wire.answer()
        assert refused == {"jsonrpc": "2.0", "id": 7, "error": {"code": types.INVALID_PARAMS, "message": UNREADABLE_TEXT}}
        # the session goes on: the next calls are served as usual (a put needs a scan first)
        for request_id, arguments in (
            (8, '{"operation": "scan", "query": "cairn builds"}'),
            (9, '{"operation": "put", "content": "In the cairn repository, builds are nightly."}'),
        ):
            wire.send(tool_call(request_id, arguments))
            served = wire.answer()
            assert served["id"] == request_id and served["result"]["isError"] is False
    finally:
        wire.close()
    store = MemoryStore(db_path)
    try:
        assert [r.content for r in store.list_records(order="id")] == ["In the cairn repository, builds are nightly."]
    finally:
        store.close()


def test_a_notification_with_half_a_character_gets_no_answer_and_a_string_id_is_kept(config_path: Path) -> None:
    wire = Wire(config_path)
    try:
        wire.start()
        wire.send(r'{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "\ud800"}}')
        wire.send(tool_call(9, r'{"operation": "scan", "query": "\udc00"}').replace('"id": 9', '"id": "nine"'))
        refused = wire.answer()
        assert refused["id"] == "nine" and refused["error"]["code"] == types.INVALID_PARAMS  # the first answer
    finally:
        wire.close()
    assert wire.process.returncode == 0
