"""Code that runs in child processes: load workers, contention rounds, first use, and a put stream to kill.

Kept in its own module so the ``spawn`` start method can import it by name, and so
``python -m tests.reliability.workers stream DB SEED`` can run it as a plain subprocess.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from collections import Counter
from typing import Any

from tact_memory import errors
from tact_memory.records import RecordKey
from tact_memory.store.sqlite import MemoryStore
from tact_memory.tool.guard import Dispatcher, Role

SHARED_ID = 1
"""The record every load worker competes to replace."""

WORDS = (
    "cache queue schema deploy release index shard backup migrate lint build pipeline "
    "kernel socket broker ledger cursor router module widget tensor sampler parser"
).split()

OWN_LIVE_CAP = 24
"""Each load worker keeps at most this many records, so eight stay far from the 512-row bound."""


def load_content(worker: int, serial: int, rng: random.Random) -> str:
    words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 40)))
    return f"worker{worker} serial{serial}: in repository repo{worker}, the {words} setting is documented"


def load_worker(path: str, worker: int, ops: int, seed: int) -> dict[str, Any]:
    """Run ``ops`` tool calls of every kind against the shared database; return what happened.

    Own records are touched only by this worker, so their expected final state is exactly the
    replay of the acknowledged operations logged here. The shared record is replaced by everyone.
    Anything a correct store would never do is reported in ``violations``.
    """
    rng = random.Random(seed)
    tool = Dispatcher(MemoryStore(path), role=Role.ROOT)
    own: dict[int, tuple[int, str]] = {}
    log: list[tuple[str, int, int, str]] = []  # (kind, id, version, content) of acknowledged writes
    wins: list[tuple[int, str]] = []  # (version, content) of shared-record replacements won
    codes: Counter[str] = Counter()
    violations: list[str] = []
    latencies: list[float] = []  # seconds per tool call, reported, never asserted on
    seen: dict[int, int] = {}  # the newest version this process has observed per id
    shared_seen = 1
    serial = 0
    calls = 0

    def call(arguments: dict[str, Any], allowed: frozenset[str]) -> dict[str, Any]:
        nonlocal calls
        calls += 1
        started = time.perf_counter()
        result = tool.call(arguments)
        latencies.append(time.perf_counter() - started)
        if "error" not in result:
            return result
        error = result["error"]
        codes[error["code"]] += 1
        if error["code"] not in allowed or "database is locked" in error["message"].lower():
            violations.append(f"{arguments['operation']}: unexpected {error}")
        if error["code"] == "unavailable" and error.get("reason") != "busy":
            violations.append(f"{arguments['operation']}: unavailable for a reason other than a busy lock: {error}")
        return result

    def observe(id_: int, version: int) -> None:
        if version < seen.get(id_, 0):
            violations.append(f"id {id_} went back from version {seen[id_]} to {version}")
        seen[id_] = max(seen.get(id_, 0), version)
        if id_ in own and own[id_][0] != version:
            violations.append(f"own record {id_} is at version {version}, expected {own[id_][0]}")

    busy = frozenset({"unavailable"})
    while calls < ops:
        op = rng.choices(
            ["scan", "read", "list", "put", "replace", "delete", "contend"], weights=[18, 14, 6, 22, 14, 10, 16]
        )[0]
        if op in ("replace", "delete") and not own:
            op = "put"
        if op == "put" and len(own) >= OWN_LIVE_CAP:
            op = "delete"
        if op == "scan":
            query = f"repo{rng.randrange(8)} " + " ".join(rng.sample(WORDS, 2))
            result = call({"operation": "scan", "query": query}, busy)
            for card in result.get("candidates", []):
                observe(card["key"]["id"], card["key"]["version"])
        elif op == "read":
            ids = rng.sample(sorted(own), min(len(own), 3)) + [SHARED_ID, rng.randrange(1, 10_000)]
            result = call({"operation": "read", "ids": ids}, busy)
            for memory in result.get("memories", []):
                observe(memory["key"]["id"], memory["key"]["version"])
                if memory["key"]["id"] in own and memory["content"] != own[memory["key"]["id"]][1]:
                    violations.append(f"own record {memory['key']['id']} has content {memory['content']!r}")
        elif op == "list":
            try:
                with MemoryStore(path) as reader:
                    records = reader.list_records(order="id")
            except errors.StoreUnavailable as exc:
                codes[exc.code] += 1
                if exc.reason != "busy":
                    violations.append(f"list: {exc.reason}: {exc.message}")
                continue
            for record in records:
                observe(record.key.id, record.key.version)
        elif op == "put":
            if "error" in call({"operation": "scan", "query": "setting documented"}, busy):
                continue
            serial += 1
            content = load_content(worker, serial, rng)
            result = call({"operation": "put", "content": content}, busy)
            if "error" not in result:
                key = result["memory"]["key"]
                if key["version"] != 1 or key["id"] <= max(seen, default=0):
                    violations.append(f"a new put came back as {key}, an id or version seen before")
                own[key["id"]] = (1, content)
                observe(key["id"], 1)
                log.append(("put", key["id"], 1, content))
        elif op == "replace":
            if "error" in call({"operation": "scan", "query": "setting documented"}, busy):
                continue
            id_ = rng.choice(sorted(own))
            version = own[id_][0]
            serial += 1
            content = load_content(worker, serial, rng)
            replace = {"id": id_, "version": version}
            result = call({"operation": "put", "content": content, "replace": replace}, busy)
            if "error" not in result:
                key = result["memory"]["key"]
                if key != {"id": id_, "version": version + 1}:
                    violations.append(f"replacing {id_} at {version} gave {key}")
                own[id_] = (key["version"], content)
                observe(id_, key["version"])
                log.append(("replace", id_, key["version"], content))
        elif op == "delete":
            id_ = rng.choice(sorted(own))
            if "error" not in call({"operation": "delete", "id": id_, "version": own[id_][0]}, busy):
                log.append(("delete", id_, own.pop(id_)[0], ""))
        else:  # contend for the shared record from the version last seen
            if "error" in call({"operation": "scan", "query": "shared contended"}, busy):
                continue
            serial += 1
            content = f"shared contended record, last written by worker{worker} serial{serial}"
            replace = {"id": SHARED_ID, "version": shared_seen}
            result = call({"operation": "put", "content": content, "replace": replace}, busy | {"version_conflict"})
            if "error" not in result:
                version = result["memory"]["key"]["version"]
                if version != shared_seen + 1:
                    violations.append(f"shared record replaced from {shared_seen} became {version}")
                wins.append((version, content))
                shared_seen = version
            elif result["error"]["code"] == "version_conflict":
                if result["error"]["current_version"] <= shared_seen:
                    violations.append(f"conflict at {shared_seen} reported current version {result['error']}")
                shared_seen = result["error"]["current_version"]
            observe(SHARED_ID, shared_seen)
    return {
        "worker": worker,
        "calls": calls,
        "log": log,
        "wins": wins,
        "codes": dict(codes),
        "latencies": latencies,
        "violations": violations,
        "created": [id_ for kind, id_, _, _ in log if kind == "put"],
    }


def contend_worker(path: str, worker: int, rounds: int, barrier: Any, queue: Any) -> None:
    """Each round: read the shared record, wait for everyone, then all replace it from that version.

    The last round deletes it instead. Sends ``(worker, [(round, seen, outcome), ...])``, where the
    outcome is the new version, ``"deleted"``, or the error code.
    """
    store = MemoryStore(path)
    tool = Dispatcher(store, role=Role.ROOT)
    outcomes: list[tuple[int, int, object]] = []
    for round_ in range(rounds + 1):
        tool.call({"operation": "scan", "query": "contended"})
        barrier.wait(timeout=120)
        record = store.get(SHARED_ID)  # a plain read: no telemetry, no write lock
        assert record is not None
        seen = record.key.version
        barrier.wait(timeout=120)
        if round_ < rounds:
            content = f"contended round {round_} written by worker {worker}"
            result = tool.call({"operation": "put", "content": content, "replace": {"id": SHARED_ID, "version": seen}})
            outcome: object = result["error"]["code"] if "error" in result else result["memory"]["key"]["version"]
            if "error" in result and result["error"]["code"] == "version_conflict":
                outcome = ("version_conflict", result["error"]["current_version"])
        else:
            result = tool.call({"operation": "delete", "id": SHARED_ID, "version": seen})
            outcome = result["error"]["code"] if "error" in result else "deleted"
        outcomes.append((round_, seen, outcome))
    store.close()
    queue.put((worker, outcomes))


def first_use_worker(root: str, worker: int, trials: int, barrier: Any, queue: Any) -> None:
    """Each trial: wait for everyone, then put one record into that trial's missing database.

    Every worker starts on the same fresh path at the same moment, so they race to create the file
    and its schema. Sends ``(worker, [(trial, id or None, content or error), ...])``.
    """
    outcomes: list[tuple[int, int | None, str]] = []
    for trial in range(trials):
        content = f"first use trial {trial}: worker {worker} owns port {3000 + worker}"
        barrier.wait(timeout=120)
        store = MemoryStore(f"{root}/trial{trial}/memory/v1.sqlite3")
        try:
            outcomes.append((trial, store.put(content).memory.key.id, content))
        except errors.TactMemoryError as exc:
            outcomes.append((trial, None, f"{exc.code}/{getattr(exc, 'reason', '')}: {exc.message}"))
        finally:
            store.close()
    queue.put((worker, outcomes))


def stream_content(tag: str, serial: int) -> str:
    service = WORDS[serial % len(WORDS)]
    return f"stream {tag} serial {serial}: the {service} service of team{serial % 13} runs on port {2000 + serial}"


def stream(path: str, tag: str, seed: int) -> None:
    """Write forever (until killed): puts, replacements and deletes, one line per step.

    Before each call it prints ``intent …`` and after the call returns ``ack …``, flushed, so the
    parent knows exactly which writes were acknowledged and which single one may have been in flight.
    """
    rng = random.Random(seed)
    store = MemoryStore(path)
    known = {r.key.id: r.key.version for r in store.list_records(order="id")}
    out = sys.stdout
    for serial in range(1_000_000):
        op = rng.choices(["put", "replace", "delete"], weights=[6, 3, 1])[0]
        if not known or (op == "put" and len(known) >= 300):
            op = "put" if not known else "delete"
        content = stream_content(tag, serial)
        if op == "put":
            out.write(json.dumps(["intent", "put", 0, 0, content]) + "\n")
            out.flush()
            key = store.put(content).memory.key
            known[key.id] = key.version
            out.write(json.dumps(["ack", "put", key.id, key.version, content]) + "\n")
        elif op == "replace":
            id_ = rng.choice(sorted(known))
            out.write(json.dumps(["intent", "replace", id_, known[id_], content]) + "\n")
            out.flush()
            key = store.put(content, replace=RecordKey(id_, known[id_])).memory.key
            known[id_] = key.version
            out.write(json.dumps(["ack", "replace", key.id, key.version, content]) + "\n")
        else:
            id_ = rng.choice(sorted(known))
            out.write(json.dumps(["intent", "delete", id_, known[id_], ""]) + "\n")
            out.flush()
            store.delete(RecordKey(id_, known[id_]))
            out.write(json.dumps(["ack", "delete", id_, known.pop(id_), ""]) + "\n")
        out.flush()


def mixed(path: str, seed: int, ops: int) -> None:
    """``ops`` calls of every kind (puts, replacements, deletes, scans, reads) through one store,
    printed as :func:`stream` prints them (a scan or read is acknowledged with no change to the
    records), then exit without closing the store, as a process the power left would.

    Every other delete is made while another connection reads the file, so that no checkpoint can
    copy the delete into the file (or sync the WAL) before the call returns; its line says ``pinned``.
    Every third scrub's check reports removed text left in the file, so that it is rewritten with
    ``VACUUM`` (which a real file needs about once in a few hundred removals).
    """
    import sqlite3

    import tact_memory.store.sqlite
    from tact_memory.store import residue

    tact_memory.store.sqlite.BUSY_TIMEOUT_S = 0.05  # a checkpoint gives up on the reader at once
    checks = 0
    holds_any = residue.runs_hold_any

    def every_third_holds_text(*args: Any) -> bool:
        nonlocal checks
        checks += 1
        return checks % 3 == 0 or holds_any(*args)

    residue.runs_hold_any = every_third_holds_text
    rng = random.Random(seed)
    store = MemoryStore(path)
    reader = sqlite3.connect(path, isolation_level=None)
    deletes = 0
    known = {r.key.id: r.key.version for r in store.list_records(order="id")}
    out = sys.stdout
    for serial in range(ops):
        op = rng.choices(["put", "replace", "delete", "scan", "read"], weights=[4, 3, 2, 3, 2])[0]
        if not known:
            op = "put"
        content = stream_content(f"mixed{seed}", serial)
        id_ = rng.choice(sorted(known)) if known else 0
        target = [id_, known[id_]] if op in ("replace", "delete") else [0, 0]
        out.write(json.dumps(["intent", op, *target, content if op in ("put", "replace") else ""]) + "\n")
        out.flush()
        pinned = False
        if op == "put":
            key = store.put(content).memory.key
            known[key.id] = key.version
            line = ["ack", "put", key.id, key.version, content]
        elif op == "replace":
            key = store.put(content, replace=RecordKey(id_, known[id_])).memory.key
            known[id_] = key.version
            line = ["ack", "replace", key.id, key.version, content]
        elif op == "delete":
            deletes += 1
            pinned = deletes % 2 == 0
            if pinned:
                # Copy what the WAL holds first, so that the reader reads the file alone and a
                # checkpoint cannot copy (nor sync) a single frame while it reads.
                reader.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                reader.execute("BEGIN")
                reader.execute("SELECT count(*) FROM memories").fetchone()
            store.delete(RecordKey(id_, known[id_]))
            line = ["ack", "delete", id_, known.pop(id_), "pinned" if pinned else ""]
        elif op == "scan":
            store.scan(f"{WORDS[serial % len(WORDS)]} service team{serial % 13} port")
            line = ["ack", "scan", 0, 0, ""]
        else:
            store.read(sorted(known)[:3])
            line = ["ack", "read", 0, 0, ""]
        out.write(json.dumps(line) + "\n")
        out.flush()
        if pinned:
            reader.execute("COMMIT")  # only once the delete is acknowledged
    out.write(json.dumps(["done", "rewrites", store._scrubber.rewrites, 0, ""]) + "\n")
    out.flush()
    os._exit(0)  # no close: the WAL stays as a running process leaves it


if __name__ == "__main__":
    if sys.argv[1] == "stream":
        stream(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    elif sys.argv[1] == "mixed":
        mixed(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:  # pragma: no cover
        raise SystemExit(f"unknown mode {sys.argv[1]!r}")


def replacing_worker(path: str, started: Any, stop: Any) -> None:
    """Replace one record of its own over and over until ``stop`` is set: every replacement is a
    removal, so this process scrubs (and checkpoints) as often as it can."""
    store = MemoryStore(path)
    serial = 0
    key = store.put(f"background record {serial} of the replacing worker").memory.key
    started.set()
    while not stop.is_set():
        serial += 1
        key = store.put(f"background record {serial} of the replacing worker", replace=key).memory.key
    store.close()
