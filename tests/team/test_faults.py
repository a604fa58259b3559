"""Faults: a ``serve`` process killed mid-stream, and PostgreSQL restarted under running clients."""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from ..pgcluster import EXISTING_DSN, Cluster, make_cluster
from .conftest import Service, start_service, stop_service

pytestmark = pytest.mark.slow


def put(service: Service, token: str, content: str, timeout: float = 10) -> Any:
    return service.call("POST", "/v1/put", token, json={"content": content}, timeout=timeout)


def test_sigkill_during_a_stream_of_writes_loses_no_acknowledged_write(
    pg_database: str, tmp_path: Path, make_token: Callable[..., str]
) -> None:
    import httpx

    token = make_token("alice")
    victim, witness = (start_service(pg_database, tmp_path) for _ in range(2))
    acknowledged: dict[int, str] = {}
    failures: list[str] = []

    def writer(worker: int) -> None:
        for i in range(10_000):
            content = f"fact {worker}-{i} about service{worker}x{i} deployments"
            try:
                answer = put(victim, token, content)
            except httpx.TransportError:
                return  # the server is gone; whatever was not answered was not acknowledged
            if answer.status_code == 200:
                acknowledged[answer.json()["memory"]["key"]["id"]] = content
            else:
                failures.append(answer.text)

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(4)]
    try:
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 30
        while len(acknowledged) < 60 and time.monotonic() < deadline:
            time.sleep(0.02)
        victim.process.send_signal(signal.SIGKILL)  # mid-stream: four writers have requests in flight
        for thread in threads:
            thread.join(30)
        assert victim.process.wait(10) == -signal.SIGKILL
        assert len(acknowledged) >= 60 and failures == []
        # Every acknowledged put is there, whole, through the other server process.
        ids = sorted(acknowledged)
        found: dict[int, str] = {}
        for start in range(0, len(ids), 64):
            answer = witness.call("POST", "/v1/read", token, json={"ids": ids[start : start + 64]})
            found.update({m["key"]["id"]: m["content"] for m in answer.json()["memories"]})
        assert found == acknowledged
        # The witness still takes writes (no namespace lock was left behind by the killed process).
        assert put(witness, token, "after the crash the witness still writes").status_code == 200
    finally:
        for service in (victim, witness):
            stop_service(service)


@pytest.fixture
def own_cluster() -> Iterator[Cluster]:
    """A cluster of this test alone, since the test stops and starts it."""
    if EXISTING_DSN:
        pytest.skip("restarting PostgreSQL needs a throwaway cluster, not TACT_TEST_PG_DSN")
    cluster = make_cluster()
    try:
        yield cluster
    finally:
        cluster.remove()


def test_postgres_restart_gives_unavailable_then_recovers_without_restarting_anyone(
    own_cluster: Cluster, tmp_path: Path
) -> None:
    import httpx
    import psycopg

    from tact_memory.team.migrations import migrate
    from tact_memory.team.tokens import create_token

    with psycopg.connect(own_cluster.admin_dsn, autocommit=True) as conn:
        migrate(conn)
        token, _ = create_token(conn, namespace="alice", role="writer", now_ms=time.time_ns() // 1_000_000)
    service = start_service(own_cluster.admin_dsn, tmp_path, "--timeout", "4")
    pid = service.process.pid
    answers: list[tuple[float, int, str]] = []  # (when, status, code)
    acknowledged: dict[int, str] = {}
    stop = threading.Event()

    def client() -> None:
        # One client for the whole run: it is never restarted and keeps its connection pool.
        with httpx.Client(base_url=service.url, headers={"Authorization": f"Bearer {token}"}, timeout=15) as http:
            i = 0
            while not stop.is_set():
                i += 1
                content = f"fact {i} about the restart drill on cluster{i}"
                answer = http.post("/v1/put", json={"content": content})
                code = "ok" if answer.status_code == 200 else answer.json()["error"]["code"]
                answers.append((time.monotonic(), answer.status_code, code))
                if answer.status_code == 200:
                    acknowledged[answer.json()["memory"]["key"]["id"]] = content
                time.sleep(0.05)

    thread = threading.Thread(target=client)
    try:
        thread.start()
        deadline = time.monotonic() + 20
        while len(acknowledged) < 10 and time.monotonic() < deadline:
            time.sleep(0.05)
        own_cluster.stop("fast")
        down_at = time.monotonic()
        time.sleep(5)  # longer than the service's 4 s timeout, so an answer lands inside even on a loaded machine
        opening = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "drill", "version": "1"}}}
        mcp_answer = httpx.post(
            service.url + "/mcp", json=opening, timeout=15,
            headers={"Authorization": f"Bearer {token}", "Accept": "application/json, text/event-stream"},
        )  # fmt: skip
        starting_at = time.monotonic()  # from here the server may accept connections before pg_ctl returns
        assert own_cluster.start() is None
        up_at = time.monotonic()
        deadline = up_at + 30
        while time.monotonic() < deadline and not any(t > up_at and c == "ok" for t, _, c in answers[-3:]):
            time.sleep(0.1)
        time.sleep(1)
    finally:
        stop.set()
        thread.join(30)
    try:
        during = [(status, code) for t, status, code in answers if down_at + 0.5 < t < starting_at]
        assert during, "no request was answered during the outage"
        assert set(during) == {(503, "unavailable")}, set(during)
        # /mcp names the outage as /v1 does, with its reason
        assert mcp_answer.status_code == 503 and mcp_answer.json()["error"]["code"] == "unavailable"
        assert mcp_answer.json()["error"]["reason"] == "unreachable"
        # Every answer of the run was a success or unavailable: never a timeout or an internal error.
        assert {code for _, _, code in answers} == {"ok", "unavailable"}
        after = [code for t, _, code in answers if t > up_at]
        assert after[-1] == "ok" and after[-3:] == ["ok"] * 3
        assert service.process.poll() is None and service.process.pid == pid
        # Nothing acknowledged before, during or after the outage is lost.
        ids = sorted(acknowledged)
        found: dict[int, str] = {}
        for start in range(0, len(ids), 64):
            answer = service.call("POST", "/v1/read", token, json={"ids": ids[start : start + 64]})
            found.update({m["key"]["id"]: m["content"] for m in answer.json()["memories"]})
        assert found == acknowledged
        log = service.log_text()
        assert "unavailable" in log and "Traceback" not in log
        # The pool's reconnection messages are logged without the server's diagnostics.
        assert "details withheld" in log and own_cluster.sockets not in log
    finally:
        stop_service(service)
