"""Two real ``serve`` processes on one database learn of each other's writes from notifications."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from tact_memory.team.watch import APPLICATION_NAME, GenerationWatch

from .conftest import Service


def listeners(admin: Any) -> list[int]:
    rows = admin.execute(
        "SELECT pid FROM pg_stat_activity WHERE application_name = %s AND datname = current_database()",
        (APPLICATION_NAME,),
    ).fetchall()
    return [int(pid) for (pid,) in rows]


def eventually(check: Callable[[], bool], what: str, seconds: float = 15) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"never: {what}")
        time.sleep(0.05)


def found(service: Service, token: str, query: str) -> list[str]:
    answer = service.call("POST", "/v1/scan", token, json={"query": query})
    assert answer.status_code == 200, answer.text
    return [c["preview"] for c in answer.json()["candidates"]]


def generation_reads(admin: Any) -> int:
    admin.execute("SELECT pg_stat_clear_snapshot()")
    row = admin.execute(
        "SELECT coalesce(seq_scan, 0) + coalesce(idx_scan, 0) FROM pg_stat_user_tables WHERE relname = 'generations'"
    ).fetchone()
    return int(row[0])


def test_a_put_on_one_process_is_seen_by_a_scan_on_the_other_at_once(
    services: list[Service], admin: Any, make_token: Callable[..., str]
) -> None:
    alice, bob = make_token("alice"), make_token("bob")
    eventually(lambda: len(listeners(admin)) == 2, "both processes listen")
    assert found(services[1], bob, "kafka retention") == []  # the other process's cache is built
    for n in range(5):
        note = f"kafka topic {n} keeps retention of {n + 1} days"
        put = services[0].call("POST", "/v1/put", alice, json={"content": note})
        assert put.status_code == 200, put.text
        assert note in found(services[1], bob, f"kafka topic {n} retention days")


def test_scans_without_writes_do_not_read_the_generations(
    services: list[Service], admin: Any, make_token: Callable[..., str]
) -> None:
    alice, bob = make_token("alice"), make_token("bob")
    eventually(lambda: len(listeners(admin)) == 2, "both processes listen")
    services[0].call("POST", "/v1/put", alice, json={"content": "the nightly backup runs at four"})
    assert found(services[1], bob, "nightly backup") != []
    time.sleep(1.5)  # the statistics of earlier requests reach the collector
    before = generation_reads(admin)
    for _ in range(10):
        assert found(services[1], bob, "nightly backup") != []
    time.sleep(1.5)
    assert generation_reads(admin) - before < 3  # not one read per request


def test_a_killed_listening_connection_falls_back_then_recovers(
    services: list[Service], admin: Any, make_token: Callable[..., str]
) -> None:
    alice, bob = make_token("alice"), make_token("bob")
    eventually(lambda: len(listeners(admin)) == 2, "both processes listen")
    assert found(services[1], bob, "canary rollout") == []
    killed = listeners(admin)
    for pid in killed:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
    # A write while nobody listens: its notification is lost, and still it is seen.
    note = "the canary rollout waits thirty minutes per stage"
    assert services[0].call("POST", "/v1/put", alice, json={"content": note}).status_code == 200
    eventually(lambda: "notifications stopped" in services[1].log_text(), "the process notices the lost connection")
    assert note in found(services[1], bob, "canary rollout stage")  # the fallback: generations read per request
    eventually(lambda: len(set(listeners(admin)) - set(killed)) == 2, "both processes listen again")
    later = "the canary rollout pages the release captain on failure"
    assert services[0].call("POST", "/v1/put", alice, json={"content": later}).status_code == 200
    assert later in found(services[1], bob, "canary rollout release captain")


def test_a_notification_it_cannot_read_sends_the_watch_to_the_table() -> None:
    watch = GenerationWatch("postgresql://nowhere/x")
    unreadable = ["*", "not json", "[" * 100_000, '{"namespace": "a", "generation": 1' + "0" * 5_000 + "}", '{"namespace": "a"}']
    assert [watch._heard(payload) for payload in unreadable] == [False] * len(unreadable)
    assert watch._heard('{"namespace": "a", "generation": 3}')
