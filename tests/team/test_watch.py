"""Two real ``serve`` processes on one database learn of each other's writes from notifications, which
nobody else can forge into a stale cache."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from typing import Any

import pytest

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


def test_a_forged_notification_pins_nothing(pg_database: str, admin: Any) -> None:
    """Any role that can connect may NOTIFY the channel with any payload: a forged generation
    far ahead of the real one must not keep a deleted record in the scans of a process."""
    import itertools
    import os

    import psycopg
    from psycopg.conninfo import make_conninfo
    from psycopg_pool import ConnectionPool

    from tact_memory.store.postgres import PostgresStore
    from tact_memory.team.watch import CHANNEL, GenerationWatch

    role = f"mallory_{os.getpid()}"
    admin.execute(f'DROP ROLE IF EXISTS "{role}"')
    admin.execute(f'CREATE ROLE "{role}" LOGIN')  # no privilege on any table of the service
    watch = GenerationWatch(pg_database, heartbeat_s=0.5)
    watch.start()
    pool = ConnectionPool(pg_database, min_size=1, max_size=4, open=True, kwargs={"autocommit": True})
    markers = itertools.count()
    try:
        eventually(lambda: watch.generations() is not None, "the watch listens")
        writer = PostgresStore(pool, namespace="alice")
        marker = PostgresStore(pool, namespace="zed")
        reader = PostgresStore(pool, namespace="ci", role="reader", known_generations=watch.generations)

        def heard_so_far() -> None:
            """Wait until the watch has heard every notification sent so far (they arrive in order)."""
            marker.put(f"marker number {next(markers)} of the ordering check")
            real = admin.execute("SELECT generation FROM generations WHERE namespace = 'zed'").fetchone()[0]
            eventually(lambda: (watch.generations() or {}).get("zed") == real, "the watch hears the marker")

        record = writer.put("The wombatgrid cluster is retired").memory
        with psycopg.connect(make_conninfo(pg_database, user=role), autocommit=True) as mallory:
            forged = json.dumps({"namespace": "alice", "generation": 2**62})
            mallory.execute("SELECT pg_notify(%s, %s)", (CHANNEL, forged))
        heard_so_far()
        assert [c.key.id for c in reader.scan("wombatgrid cluster")] == [record.key.id]
        writer.delete(record.key)
        heard_so_far()
        assert reader.scan("wombatgrid cluster") == []
    finally:
        watch.stop()
        pool.close()
        admin.execute(f'DROP ROLE IF EXISTS "{role}"')


def test_a_store_keeps_its_own_writes_while_the_watch_is_behind(pg_database: str, admin: Any) -> None:
    """The watch hears of a commit a moment after it: meanwhile a store's own put stays in its
    scans, whether the watch knows no generation of the namespace yet or an older one."""
    from tact_memory.store.postgres import PostgresStore

    heard: dict[str, int] = {}  # a watch that has heard nothing yet
    with PostgresStore(pg_database, namespace="alice", known_generations=lambda: dict(heard)) as alice:
        first = alice.put("The wombatgrid cluster is retired").memory.key
        assert [c.key for c in alice.scan("wombatgrid")] == [first]
        heard.update(admin.execute("SELECT namespace, generation FROM generations").fetchall())
        second = alice.put("The quokkanet cluster is new").memory.key
        assert [c.key for c in alice.scan("quokkanet")] == [second]
        assert [c.key for c in alice.scan("wombatgrid")] == [first]


def test_a_notification_it_cannot_read_sends_the_watch_to_the_table() -> None:
    unreadable = ["*", "not json", "[" * 100_000, '{"namespace": "a", "generation": 1' + "0" * 5_000 + "}", '{"generation": 3}', '{"namespace": 7}']
    assert [GenerationWatch._hint(payload) for payload in unreadable] == [None] * len(unreadable)
    assert GenerationWatch._hint('{"namespace": "a", "generation": 3}') == "a"


def watch_through_an_outage(dsn: str, caplog: pytest.LogCaptureFixture, seconds: float, *, restore: bool) -> list[str]:
    """What the watch logs through ``seconds`` of an outage (and its end, when ``restore``)."""
    from .tcp_switch import Switch

    switch = Switch(dsn)
    watch = GenerationWatch(switch.dsn, heartbeat_s=0.5, retry_s=0.05)
    caplog.set_level(logging.WARNING, logger="tact_memory.team.watch")
    watch.start()
    try:
        eventually(lambda: watch.generations() is not None, "listening")
        switch.cut()
        eventually(lambda: watch.generations() is None, "the outage noticed")
        time.sleep(seconds)
        if restore:
            switch.restore()
            eventually(lambda: watch.generations() is not None, "listening again")
    finally:
        watch.stop()
        switch.close()
    return [r.getMessage() for r in caplog.records if r.name == "tact_memory.team.watch"]


def test_an_outage_is_logged_when_it_starts_and_when_it_ends(pg_database: str, caplog: pytest.LogCaptureFixture) -> None:
    lines = watch_through_an_outage(pg_database, caplog, 2, restore=True)  # some forty reconnections fail
    assert len(lines) == 2, lines
    assert lines[0] == "team database: the change notifications stopped; reconnecting (details withheld)"
    failures = int(lines[1].rsplit(" ", 2)[-2])
    assert failures >= 10 and lines[1] == f"team database: the change notifications resumed after {failures} failures"


def test_a_long_outage_is_logged_again_at_most_once_a_period(
    pg_database: str, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tact_memory.team import watch as module

    monkeypatch.setattr(module, "_REPORT_EVERY_S", 0.5)
    lines = watch_through_an_outage(pg_database, caplog, 2.2, restore=False)
    assert 3 <= len(lines) <= 6, lines  # 2.2 s of failures, one line each half second at most
    assert lines[0] == "team database: the change notifications stopped; reconnecting (details withheld)"
    counts = [int(line.split("(")[1].split()[0]) for line in lines[1:]]
    assert counts == sorted(counts) and counts[0] > 1
    assert all(line.endswith("failures so far); reconnecting (details withheld)") for line in lines[1:])
