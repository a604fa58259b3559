"""Team memory fixtures: a real PostgreSQL database per module and real ``serve`` processes on it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from ..pgcluster import pg_database, pg_server  # noqa: F401  (fixtures)

pytest.importorskip("psycopg", reason="the team extra (psycopg) is not installed")
pytest.importorskip("httpx", reason="httpx is not installed")


@dataclass
class Service:
    """One running ``tact-memory serve`` process."""

    url: str
    log: Path
    process: subprocess.Popen[bytes]

    def call(self, method: str, path: str, token: str | None = None, **kwargs: Any) -> Any:
        import httpx

        headers = dict(kwargs.pop("headers", {}))
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        timeout = kwargs.pop("timeout", 30)
        return httpx.request(method, self.url + path, headers=headers, timeout=timeout, **kwargs)

    def log_text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_service(
    dsn: str, folder: Path, *extra: str, env: dict[str, str] | None = None, cwd: Path | None = None
) -> Service:
    """Start ``tact-memory serve`` on a free port (with ``env`` added to the environment, in the
    folder ``cwd`` or this one) and wait until it answers."""
    import httpx

    port = _free_port()
    log = folder / f"serve-{port}.log"
    handle = log.open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "tact_memory.cli", "serve", "--database", dsn, "--listen", f"127.0.0.1:{port}", *extra],
        stdout=handle, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})}, cwd=cwd,
    )  # fmt: skip
    handle.close()
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"serve exited: {log.read_text()[-500:]}")
        try:
            httpx.get(url + "/v1/session", timeout=1)
            return Service(url, log, process)
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("serve did not start in 30 s")


def stop_service(service: Service) -> None:
    service.process.terminate()
    try:
        service.process.wait(10)
    except subprocess.TimeoutExpired:
        service.process.kill()
        service.process.wait()


@pytest.fixture(scope="module")
def services(pg_database: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Service]]:  # noqa: F811
    """Two ``serve`` processes on this module's database (small body cap, to reach it)."""
    folder = tmp_path_factory.mktemp("serve")
    started = [start_service(pg_database, folder, "--max-body", "8192") for _ in range(2)]
    yield started
    for service in started:
        stop_service(service)


@pytest.fixture(scope="module")
def service(services: list[Service]) -> Service:
    return services[0]


@pytest.fixture
def admin(pg_database: str) -> Iterator[Any]:  # noqa: F811
    """A direct connection to the module's database, emptied of memories (not of tokens) first."""
    import psycopg

    with psycopg.connect(pg_database, autocommit=True) as conn:
        conn.execute("TRUNCATE memories, generations")
        yield conn


@pytest.fixture
def make_token(admin: Any) -> Callable[..., str]:
    """``make_token("alice", "writer", expires_in_ms=…, readable=…)`` → a fresh token."""
    from tact_memory.team.tokens import create_token

    def make(namespace: str, role: str = "writer", **kwargs: Any) -> str:
        token, _ = create_token(admin, namespace=namespace, role=role, now_ms=time.time_ns() // 1_000_000, **kwargs)
        return token

    return make


def corpus(admin: Any) -> list[tuple[Any, ...]]:
    """Every row with every column: what a refused request must leave unchanged."""
    return admin.execute("SELECT * FROM memories ORDER BY id").fetchall() + admin.execute(
        "SELECT * FROM generations ORDER BY namespace"
    ).fetchall()
