"""Load: 8 client processes of mixed calls against two ``serve`` processes on one database."""

from __future__ import annotations

import multiprocessing
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from .conftest import Service, start_service, stop_service

pytestmark = pytest.mark.slow

CLIENTS = 8
CALLS = 300


@dataclass
class Outcome:
    """What one client process saw: its live records as last acknowledged, and what went wrong."""

    live: dict[int, tuple[int, str]] = field(default_factory=dict)
    """id → (version, content) of every record this client put and did not delete."""
    deleted: set[int] = field(default_factory=set)
    calls: int = 0
    problems: list[str] = field(default_factory=list)


def client(worker: int, token: str, urls: list[str], seed: int) -> Outcome:
    """One client process: scans, reads, puts, replaces and deletes, alternating between the servers.

    Two clients share each namespace, so their writes contend for the same namespace lock and
    bounds; each client changes only its own records, so it knows what must be there afterwards.
    Every change is checked at once through the other server (read-your-writes across processes).
    """
    import httpx

    rng = random.Random(seed)
    outcome = Outcome()
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.Client(headers=headers, timeout=30) as http:

        def call(path: str, body: object) -> httpx.Response:
            outcome.calls += 1
            return http.post(urls[outcome.calls % 2] + path, json=body)

        for i in range(CALLS):
            roll = rng.random()
            mine = sorted(outcome.live)
            if roll < 0.3 or not mine:
                content = f"client{worker} fact{i} about module{worker}x{i} and its owner w{worker}n{i}"
                answer = call("/v1/put", {"content": content})
                if answer.status_code != 200:
                    outcome.problems.append(f"put: {answer.status_code} {answer.text[:200]}")
                    continue
                key = answer.json()["memory"]["key"]
                outcome.live[key["id"]] = (key["version"], content)
            elif roll < 0.45:
                id_ = rng.choice(mine)
                version, _ = outcome.live[id_]
                content = f"client{worker} revised fact{i} on record{id_} by w{worker}r{i}"
                answer = call("/v1/put", {"content": content, "replace": {"id": id_, "version": version}})
                if answer.status_code != 200:
                    outcome.problems.append(f"replace: {answer.status_code} {answer.text[:200]}")
                    continue
                key = answer.json()["memory"]["key"]
                if key["id"] != id_ or key["version"] != version + 1:
                    outcome.problems.append(f"replace gave {key}, expected version {version + 1} of {id_}")
                outcome.live[id_] = (key["version"], content)
            elif roll < 0.55:
                id_ = rng.choice(mine)
                version, _ = outcome.live[id_]
                answer = call("/v1/delete", {"id": id_, "version": version})
                if answer.status_code != 200:
                    outcome.problems.append(f"delete: {answer.status_code} {answer.text[:200]}")
                    continue
                del outcome.live[id_]
                outcome.deleted.add(id_)
            elif roll < 0.8:
                answer = call("/v1/scan", {"query": f"module{worker}x{rng.randrange(i + 1)} owner"})
                if answer.status_code != 200:
                    outcome.problems.append(f"scan: {answer.status_code} {answer.text[:200]}")
                continue
            else:
                ids = rng.sample(mine, min(len(mine), 5))
                answer = call("/v1/read", {"ids": ids})
                if answer.status_code != 200:
                    outcome.problems.append(f"read: {answer.status_code} {answer.text[:200]}")
                    continue
                got = {m["key"]["id"]: (m["key"]["version"], m["content"]) for m in answer.json()["memories"]}
                if got != {id_: outcome.live[id_] for id_ in ids}:
                    outcome.problems.append(f"read of {ids} gave other versions than acknowledged")
                continue
            # The change just acknowledged is visible at once through the other server.
            last = max(outcome.live, default=None) if roll < 0.3 else None
            if last is not None:
                seen = call("/v1/read", {"ids": [last]}).json()["memories"]
                if [(m["key"]["version"], m["content"]) for m in seen] != [outcome.live[last]]:
                    outcome.problems.append(f"record {last} was not visible through the other server")
    return outcome


def test_eight_clients_two_servers_nothing_acknowledged_is_lost(
    pg_database: str, tmp_path: Path, make_token: Callable[..., str]
) -> None:
    started = time.monotonic()
    servers: list[Service] = [start_service(pg_database, tmp_path) for _ in range(2)]
    try:
        tokens = [make_token(f"team{worker // 2}") for worker in range(CLIENTS)]
        urls = [s.url for s in servers]
        with multiprocessing.get_context("spawn").Pool(CLIENTS) as pool:
            outcomes = pool.starmap(client, [(w, tokens[w], urls, 1000 + w) for w in range(CLIENTS)])
        assert [o.problems for o in outcomes] == [[] for _ in outcomes]
        assert sum(o.calls for o in outcomes) >= CLIENTS * CALLS
        # Afterwards, through one server: every acknowledged record at its acknowledged version,
        # every acknowledged delete gone.
        for worker, outcome in enumerate(outcomes):
            ids = sorted(outcome.live) + sorted(outcome.deleted)
            found: dict[int, tuple[int, str]] = {}
            for start in range(0, len(ids), 64):
                answer = servers[0].call("POST", "/v1/read", tokens[worker], json={"ids": ids[start : start + 64]})
                found.update({m["key"]["id"]: (m["key"]["version"], m["content"]) for m in answer.json()["memories"]})
            assert found == outcome.live
        for namespace in range(CLIENTS // 2):
            status = servers[1].call("GET", "/v1/status", tokens[2 * namespace]).json()
            assert status["rows"] == len(outcomes[2 * namespace].live) + len(outcomes[2 * namespace + 1].live)
        assert all(s.process.poll() is None for s in servers)
        assert "Traceback" not in servers[0].log_text() + servers[1].log_text()
    finally:
        for service in servers:
            stop_service(service)
    assert time.monotonic() - started < 120
