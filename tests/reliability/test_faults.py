"""Faults: killed writers, unusable files, read-only places, full files and disks, held locks (I7, I8).

Each fault must give a named error result, leave the files as they were, and let the agent loop go
on: the same tool instance answers the next call, and works again once the cause is removed.
"""

from __future__ import annotations

import json
import os
import random
import resource
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import tact_memory.store.sqlite
from tact_memory.limits import Limits
from tact_memory.store.sqlite import MemoryStore
from tact_memory.tool.guard import Dispatcher, Role

from ..conftest import write_config
from .helpers import (
    ROOT,
    ToolSession,
    check_result,
    child_env,
    cli_command,
    folder_bytes,
    integrity,
    permission_respecting_preexec,
    raw_folder_bytes,
    raw_rows,
    replay,
    seeded_database,
    settle,
    sidecars,
    stored_records,
    strace_problem,
)

KILL_ROUNDS = int(os.environ.get("TACT_KILL_ROUNDS", "6"))
SCAN = {"operation": "scan", "query": "service port"}


def put(tool: Dispatcher | ToolSession, content: str, **replace: int) -> dict[str, Any]:
    """Scan, then put (the tool asks for a scan since the last put)."""
    check_result(tool.call(SCAN))
    call: dict[str, Any] = {"operation": "put", "content": content}
    if replace:
        call["replace"] = replace
    return check_result(tool.call(call), sent=call)


def put_ok(tool: Dispatcher | ToolSession, content: str) -> dict[str, Any]:
    """Scan, then put, and require that the put was acknowledged."""
    result = put(tool, content)
    assert "error" not in result and result["memory"]["content"] == content, result
    return result


def four_calls(tool: Dispatcher | ToolSession) -> list[dict[str, Any]]:
    """One call of each operation, as an agent would make them."""
    calls: list[dict[str, Any]] = [
        {"operation": "scan", "query": "service port"},
        {"operation": "read", "ids": [1, 2]},
        {"operation": "put", "content": "the billing service listens on port 8443"},
        {"operation": "delete", "id": 1, "version": 1},
    ]
    return [check_result(tool.call(c), sent=c) for c in calls]


# -- killed processes ------------------------------------------------------------------------------


@pytest.mark.slow
def test_sigkill_mid_stream_loses_no_acknowledged_write(tmp_path: Path) -> None:
    """I7/durability: a writer killed with SIGKILL at a random point keeps every write it had
    acknowledged; the one write in flight is either wholly there or wholly absent; the file passes
    ``integrity_check`` and reopens."""
    db = tmp_path / "memory" / "v1.sqlite3"
    rng = random.Random(20240611)
    model: dict[int, tuple[int, str]] = {}
    acknowledged = wal_left = in_flight_landed = 0
    for round_ in range(KILL_ROUNDS):
        lines: list[str] = []
        with subprocess.Popen(
            [sys.executable, "-m", "tests.reliability.workers", "stream", str(db), f"r{round_}", str(round_)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=child_env(), cwd=ROOT,
        ) as proc:  # fmt: skip
            assert proc.stdout is not None and proc.stderr is not None
            target = rng.randint(1, 60)
            while sum(line.startswith('["ack"') for line in lines) < target:
                line = proc.stdout.readline()
                assert line, f"the writer stopped early: {proc.stderr.read()}"
                lines.append(line)
            time.sleep(rng.random() * 0.004)  # spread the kill over the next call; nothing is timed
            proc.send_signal(signal.SIGKILL)
            lines += proc.stdout.read().splitlines()  # through the same buffer readline filled
            assert proc.wait(timeout=60) == -signal.SIGKILL, proc.stderr.read()
        assert not Path(f"{db}-journal").exists()  # WAL mode: a killed writer leaves no rollback journal
        wal = Path(f"{db}-wal")
        wal_left += wal.exists() and wal.stat().st_size > 0  # looked at before anything reopens the file
        count, in_flight = replay(model, lines)
        acknowledged += count
        stored = stored_records(db)  # the first open reads the WAL's committed frames
        assert integrity(db) == "ok"
        in_flight_landed += settle(model, in_flight, stored)
        after_kill_is_writable(db, model, f"written after kill {round_}")
    print(
        f"\nkill: {KILL_ROUNDS} SIGKILLs at random points, {acknowledged} acknowledged writes all kept, "
        f"{wal_left} left a WAL with frames, {in_flight_landed} in-flight writes had committed"
    )


def after_kill_is_writable(db: Path, model: dict[int, tuple[int, str]], content: str) -> None:
    """The reopened file takes a new write, and closing the store leaves no sidecar behind (the
    WAL and -shm a killed writer left are checkpointed and removed by the last connection)."""
    with MemoryStore(db) as store:
        key = store.put(content).memory.key
    model[key.id] = (key.version, content)
    assert sidecars(db) == []


def left_frames(db: Path) -> None:
    """Leave committed frames in the WAL, as a writer killed before its closing checkpoint does;
    the next store to open the file cannot know what they removed, so its first write is followed
    by the full scrub (``VACUUM``)."""
    code = (
        "import os, sys; from tact_memory.store.sqlite import MemoryStore; "
        "store = MemoryStore(sys.argv[1]); store.put('a write whose process never closed its store'); os._exit(0)"
    )
    subprocess.run([sys.executable, "-c", code, str(db)], env=child_env(), cwd=ROOT, check=True, timeout=60)
    assert Path(f"{db}-wal").stat().st_size > 0


Call = tuple[str, str, str]
"""One traced call: the syscall, the file it hit and its remaining arguments (``strace -y``)."""


TRACED = "pwrite64,pread64,fdatasync,ftruncate"
"""The syscalls an uninjected trace records, to find a kill point among them."""


def traced_calls(db: Path) -> list[Call]:
    """The :data:`TRACED` syscalls the stream writer makes, in order, from an uninjected run on a copy of ``db``'s folder."""
    copy = db.parent.parent / "dry"
    shutil.copytree(db.parent, copy / db.parent.name)
    out = copy / "trace"
    try:
        subprocess.run(
            [str(shutil.which("strace")), "-f", "-y", "-qq", "-o", str(out), "-e", f"trace={TRACED}",
             sys.executable, "-m", "tests.reliability.workers", "stream", str(copy / db.parent.name / db.name), "s", "1"],
            capture_output=True, env=child_env(), cwd=ROOT, timeout=4, check=False,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        pass  # the stream writes until stopped; a few seconds trace far more steps than needed
    calls = []
    for line in out.read_text(encoding="utf-8", errors="replace").splitlines():
        name, _, rest = line.split(None, 1)[-1].partition("(")
        fd_path, _, args = rest.partition(">")
        calls.append((name, fd_path.partition("<")[2], args))
    shutil.rmtree(copy)
    return calls


def nth(calls: list[Call], index: int) -> int:
    """The 1-based count of ``calls[index]`` among the calls of its syscall, as ``strace -e inject=...:when=`` counts."""
    return sum(1 for c in calls[: index + 1] if c[0] == calls[index][0])


def the_scrub_check_read(calls: list[Call]) -> int:
    """The scrub's read of the whole main file for its check (after its FULL checkpoint)."""
    header_or_page = (", 100, 0) = 100", ", 4096, 0) = 4096")
    return next(
        i
        for i, (name, path, args) in enumerate(calls)
        if name == "pread64" and path.endswith(".sqlite3") and not args.rstrip().endswith(header_or_page) and ", 0) = " in args
    )


def a_vacuum_frame(calls: list[Call]) -> int:
    """A page frame ``VACUUM`` writes: in a file another writer left frames in, the first WAL write
    after the first put's commit (its WAL sync)."""
    commit = next(i for i, (name, path, _) in enumerate(calls) if name == "fdatasync" and path.endswith("-wal"))
    return next(i for i, (name, path, _) in enumerate(calls) if i > commit and name == "pwrite64" and path.endswith("-wal"))


COMMIT_STEPS: list[tuple[str, int | Callable[[list[Call]], int], bool]] = [
    ("pwrite64", 9, False),  # the first WAL header, written by the first put
    ("fdatasync", 2, False),  # the folder sync after the WAL file was created
    ("pwrite64", 14, False),  # a page frame of the first put's commit
    ("fdatasync", 3, False),  # the WAL sync that makes the first put durable (the commit point)
    ("pwrite64", 19, False),  # a page frame of the replacement that follows (its commit does not sync)
    ("fdatasync", 4, False),  # the scrub's FULL checkpoint syncing the WAL: the replacement's commit point
    ("pwrite64", 25, False),  # the checkpoint's write of a page into the main file
    ("ftruncate", 2, False),  # the checkpoint setting the main file's length
    ("fdatasync", 5, False),  # the checkpoint's sync of the main file
    ("pread64", the_scrub_check_read, False),  # the scrub reading the file to search it for the old text
    ("ftruncate", 3, False),  # the WAL truncated to zero bytes after the check
    ("pwrite64", 28, False),  # the header of the WAL the scrub starts again after the truncation
    ("fdatasync", 6, False),  # the sync of that new header (paid by the removal, not the next write)
    ("pwrite64", 30, False),  # page 1, the one frame of that restart (its commit, at NORMAL)
    ("pwrite64", a_vacuum_frame, True),  # a frame of the full scrub (VACUUM) owed for another writer's frames
]
"""Kill points: the n-th call of the syscall in the writer, from its first open (the numbers follow
the stream of seed 1 from five seeded records: its -shm setup takes the first eight page writes and
one ftruncate, then put, replace + scrub, put, ...; ``strace -f -y`` shows which file each hits).
A function finds its call in an uninjected trace of the same run instead, where a count would
depend on what the interpreter reads while it starts. The flag leaves WAL frames of another writer
first (:func:`left_frames`)."""


@pytest.mark.parametrize(("syscall", "when", "frames_left"), COMMIT_STEPS)
def test_kill_at_each_step_of_a_commit_rolls_back_cleanly(
    tmp_path: Path, syscall: str, when: int | Callable[[list[Call]], int], frames_left: bool
) -> None:
    """Durability inside a commit: strace kills the writer on entry to a chosen WAL write, sync,
    checkpoint write, check read or truncation, so a transaction or the scrub after it is always cut
    in the middle. Acknowledged writes stay, the write in flight is wholly there or wholly absent,
    the file is intact, and no retired text survives a scrub that completed."""
    why_not = strace_problem()
    if why_not:
        pytest.skip(why_not)
    db = tmp_path / "memory" / "v1.sqlite3"
    seeded_database(db, 5)
    if frames_left:
        left_frames(db)
    model = raw_rows(db)
    if callable(when):
        calls = traced_calls(db)
        when = nth(calls, when(calls))
    strace = [
        str(shutil.which("strace")), "-f", "-qq", "-o", os.devnull,
        "-e", f"trace={syscall}", "-e", f"inject={syscall}:signal=SIGKILL:when={when}",
    ]  # fmt: skip
    proc = subprocess.run(
        [*strace, sys.executable, "-m", "tests.reliability.workers", "stream", str(db), "s", "1"],
        capture_output=True, text=True, env=child_env(), cwd=ROOT, timeout=120, check=False,
    )  # fmt: skip
    lines = proc.stdout.splitlines()
    assert lines and json.loads(lines[-1])[0] == "intent", proc.stderr  # killed inside a call
    retired = [json.loads(line)[4] for line in lines if json.loads(line)[0] == "ack"]
    _, in_flight = replay(model, lines)
    # The kill lands before the commit point (the WAL sync), after it (the write is there, its ack
    # was not printed), or in the scrub after a committed removal: settle() below requires the
    # write in flight to be wholly there or wholly absent either way.
    stored = stored_records(db)
    settle(model, in_flight, stored)
    assert integrity(db) == "ok"
    after_kill_is_writable(db, model, "written after the kill")
    live = {content for _, content in model.values()}
    data = b"".join(raw_folder_bytes(db).values())
    assert [t for t in retired if t and t not in live and t.encode() in data] == []  # the next store's first write scrubbed


# -- unusable files ---------------------------------------------------------------------------------


def make_unusable(kind: str, db: Path) -> None:
    db.parent.mkdir(parents=True, exist_ok=True)
    if kind == "garbage":
        db.write_bytes(bytes(range(256)) * 64)
        return
    seeded_database(db, 40)
    data = bytearray(db.read_bytes())
    if kind == "truncated":
        db.write_bytes(bytes(data[: 4096 + 512]))
    elif kind == "header_only":
        db.write_bytes(bytes(data[:100]))
    elif kind == "scrambled_pages":
        data[4096:] = bytes([0xA5]) * (len(data) - 4096)
        db.write_bytes(bytes(data))
    elif kind == "newer_schema":
        with sqlite3.connect(db) as conn:
            conn.execute("PRAGMA user_version = 99")
        conn.close()
    elif kind == "foreign_database":
        db.unlink()
        with sqlite3.connect(db) as conn:
            conn.execute("CREATE TABLE notes (body TEXT)")
            conn.execute("INSERT INTO notes VALUES ('another program owns this file')")
        conn.close()


@pytest.mark.parametrize(
    ("kind", "reason"),
    [
        ("garbage", "not_a_database"),
        ("truncated", "not_a_database"),
        ("header_only", "not_a_database"),
        ("scrambled_pages", "not_a_database"),
        ("newer_schema", "newer_schema"),
        ("foreign_database", "foreign_database"),
    ],
)
def test_unusable_file_gives_a_named_error_and_is_left_untouched(db_path: Path, kind: str, reason: str) -> None:
    """A corrupt, foreign or newer file: every operation answers ``unavailable`` with the reason,
    the bytes stay as they were, and once the file is moved aside the same tool works again."""
    store = MemoryStore(db_path)
    tool = Dispatcher(store, role=Role.ROOT)
    tool.call(SCAN)  # while the file is healthy, so the put below gets past scan-before-put
    store.close()
    make_unusable(kind, db_path)
    before = folder_bytes(db_path)
    for result in four_calls(tool):
        assert result["error"]["code"] == "unavailable", result
        assert result["error"]["reason"] == reason
        assert str(db_path) in result["error"]["message"]
    assert folder_bytes(db_path) == before
    assert store.status().problem == reason

    db_path.rename(db_path.with_suffix(".broken"))  # what a person would do
    assert put(tool, "the billing service listens on port 8443")["memory"]["key"] == {"id": 1, "version": 1}
    assert db_path.with_suffix(".broken").read_bytes() == before[db_path.name]
    store.close()


# -- places that cannot be written ----------------------------------------------------------------


def test_folder_under_a_regular_file_gives_a_named_error(tmp_path: Path) -> None:
    """The memory folder cannot be created because its parent is a file (works as root too)."""
    blocker = tmp_path / "tact"
    blocker.write_text("a file where the config folder should be")
    db = blocker / "memory" / "v1.sqlite3"
    with MemoryStore(db) as store:
        tool = Dispatcher(store, role=Role.ROOT)
        results = four_calls(tool)
        # The put never reaches the store: no scan could succeed, and the tool asks for one first.
        assert [r["error"]["code"] for r in results] == ["unavailable", "unavailable", "scan_required", "not_found"]
        assert {r["error"].get("reason") for r in results[:2]} == {"os_error"}
        assert blocker.read_text() == "a file where the config folder should be"
        blocker.unlink()
        put_ok(tool, "the billing service listens on port 8443")
    assert stat.S_IMODE(db.parent.stat().st_mode) == 0o700


def test_missing_folder_is_created_private_on_first_use(tmp_path: Path) -> None:
    """A config folder that does not exist yet: the first write creates it, private (0700)."""
    db = tmp_path / "not" / "yet" / "there" / "memory" / "v1.sqlite3"
    with MemoryStore(db) as store:
        put_ok(Dispatcher(store, role=Role.ROOT), "the billing service listens on port 8443")
    assert stat.S_IMODE(db.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(db.stat().st_mode) == 0o600


def test_folder_removed_while_open_gives_a_named_error_then_recovers(db_path: Path) -> None:
    """Someone deletes the memory folder while a session runs: the write is refused by name (it
    would have gone to a deleted file), and the next call starts a fresh database in its place."""
    store = MemoryStore(db_path)
    tool = Dispatcher(store, role=Role.ROOT)
    put(tool, "the billing service listens on port 8443")
    shutil.rmtree(db_path.parent)
    result = check_result(tool.call(SCAN))  # a scan with a hit writes telemetry
    assert result["error"]["code"] == "unavailable", result
    assert result["error"]["reason"] == "moved"
    assert not db_path.parent.exists()
    assert put(tool, "the search service listens on port 9200")["memory"]["key"]["version"] == 1
    assert raw_rows(db_path) == {1: (1, "the search service listens on port 9200")}  # a new file numbers from 1
    store.close()


READ_ONLY_CASES = {
    # case: (open the database before the mode changes?, expected code of scan, read, put, delete)
    "folder_without_file": (False, ["unavailable", "unavailable", "scan_required", "not_found"]),
    # WAL mode: a session that opened the file before the folder became read-only keeps its -wal
    # and -shm open, and writing into existing files needs no folder permission, so it goes on.
    "folder_with_file": (True, [None] * 4),
    # Nobody had it open: SQLite cannot create the -wal and -shm a WAL file needs, even to read.
    "folder_with_closed_file": (False, ["unavailable", "unavailable", "scan_required", "unavailable"]),
    "file": (False, ["unavailable", "unavailable", "scan_required", "unavailable"]),
}


@pytest.mark.parametrize("case", sorted(READ_ONLY_CASES))
def test_read_only_places_give_named_errors_and_recover(config_dir: Path, db_path: Path, case: str) -> None:
    """A read-only memory folder or file, as the CLI tool sees it: named errors, files untouched,
    and the same session works once the mode is restored. Root children drop CAP_DAC_OVERRIDE so
    that ``chmod`` binds them too. (A put after a failed scan is ``scan_required``: the tool asks
    for a successful scan first.)"""
    preexec, why_not = permission_respecting_preexec()
    if why_not:
        pytest.skip(why_not)
    open_first, expected = READ_ONLY_CASES[case]
    if case == "folder_without_file":
        db_path.parent.mkdir(mode=0o700)
    else:
        seeded_database(db_path)
    target = db_path if case == "file" else db_path.parent
    mode = stat.S_IMODE(target.stat().st_mode)
    try:
        with ToolSession(config_dir / "config.toml", preexec_fn=preexec) as session:
            if open_first:
                assert session.call({"operation": "scan", "query": "nothing matches zzqx"})["abstained"]
            target.chmod(0o400 if case == "file" else 0o500)
            before = folder_bytes(db_path)
            results = four_calls(session)
            assert [r.get("error", {}).get("code") for r in results] == expected, results
            for result in results:
                if result.get("error", {}).get("code") == "unavailable":
                    assert result["error"]["reason"] in {"permission_denied", "read_only"}, result
            if case != "folder_with_file":
                assert without_new_wal_index(before, folder_bytes(db_path)) == before
            if case == "folder_with_closed_file":  # reading by hand is refused by name too
                listed = subprocess.run(
                    cli_command(config_dir / "config.toml", "list"), capture_output=True, text=True,
                    env=child_env(), preexec_fn=preexec, timeout=120, check=False,
                )  # fmt: skip
                assert listed.returncode == 1 and listed.stderr.count("\n") == 1, listed
                assert "read-only" in listed.stderr, listed.stderr
            target.chmod(mode)
            put_ok(session, "the search service listens on port 9200")
            assert session.close() == ""
    finally:
        target.chmod(mode)
    assert integrity(db_path) == "ok"


def without_new_wal_index(before: dict[str, bytes], after: dict[str, bytes]) -> dict[str, bytes]:
    """``after`` less the -shm and the empty -wal that a WAL reader creates beside the file while
    its connection is open (they are removed when the last connection closes)."""
    return {
        name: data
        for name, data in after.items()
        if name in before or not (name.endswith("-shm") or (name.endswith("-wal") and data == b""))
    }


# -- full file, full disk --------------------------------------------------------------------------


def test_page_limit_refuses_whole_and_the_loop_goes_on(make_store: Callable[..., MemoryStore], db_path: Path) -> None:
    """I8: at the 4 MiB-style page limit a put is ``database_capacity`` and writes nothing;
    scan, read and delete still work, and a put fits again after a delete."""
    tool = Dispatcher(make_store(limits=Limits(file_bytes=8 * 4096, content_bytes=10**6, rows=10**4)), role=Role.ROOT)
    acknowledged: dict[int, str] = {}
    for i in range(200):
        content = f"filler record {i} " + "padding words that take room " * 30
        result = put(tool, content)
        if "error" in result:
            assert result["error"]["code"] == "database_capacity", result
            break
        acknowledged[result["memory"]["key"]["id"]] = content
        tool.call({"operation": "read", "ids": [result["memory"]["key"]["id"]]})  # graduated: never pruned
    else:
        pytest.fail("the page limit was never reached")
    before = folder_bytes(db_path)
    assert put(tool, "one more filler record " + "x " * 400)["error"]["code"] == "database_capacity"
    assert folder_bytes(db_path) == before
    assert db_path.stat().st_size <= 8 * 4096
    assert "error" not in tool.call({"operation": "scan", "query": "filler record"})
    assert "error" not in tool.call({"operation": "read", "ids": sorted(acknowledged)[:2]})
    first = min(acknowledged)
    assert tool.call({"operation": "delete", "id": first, "version": 1}) == {"operation": "delete", "id": first}
    del acknowledged[first]
    put_ok(tool, "a short record after the delete")
    assert {i: c for i, (_, c) in raw_rows(db_path).items() if i in acknowledged} == acknowledged
    assert integrity(db_path) == "ok"


def test_scan_and_read_still_answer_at_the_file_bound(make_store: Callable[..., MemoryStore], db_path: Path) -> None:
    """I8: when the file is at its page limit, a scan whose telemetry would need one more page
    still returns its candidates (the telemetry is skipped), and reads still return records."""
    store = make_store(limits=Limits(file_bytes=8 * 4096, content_bytes=10**6, rows=10**4))
    tool = Dispatcher(store, role=Role.ROOT)
    count = 0
    while "error" not in put(tool, f"item{count} " + "abc " * 20):
        count += 1
    before = raw_rows(db_path)
    for i in range(count):
        result = check_result(tool.call({"operation": "scan", "query": f"item{i}", "limit": 1}))
        assert [c["key"]["id"] for c in result.get("candidates", [])] == [i + 1], result
        read = check_result(tool.call({"operation": "read", "ids": [i + 1]}))
        assert read["memories"][0]["content"] == before[i + 1][1], read
    assert raw_rows(db_path) == before
    assert db_path.stat().st_size <= 8 * 4096 and integrity(db_path) == "ok"


def test_disk_that_refuses_writes_gives_a_named_error(config_dir: Path, db_path: Path) -> None:
    """A real write failure from the OS (``RLIMIT_FSIZE``: the file may not grow, as on a full
    disk): ``unavailable``/``io_error``, the main file unchanged, acknowledged records kept, and
    delete and fitting puts still work in the same session."""
    seeded_database(db_path, 12)
    limit = max(db_path.stat().st_size, 64 * 1024)  # room for the 32 KiB -shm; the WAL reaches it first

    def cap_file_size() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    acknowledged = raw_rows(db_path)
    refused = None
    with ToolSession(config_dir / "config.toml", preexec_fn=cap_file_size) as session:
        for i in range(60):
            session.call({"operation": "scan", "query": "nothing matches zzqx"})
            call = {"operation": "put", "content": f"large record {i} " + "grows the file " * 60}
            result = session.call(call)
            if "error" in result:
                refused = result
                # The refused commit's frames are ignored, and a checkpoint the limit cut short is
                # redone from the WAL; what counts is the rows, checked below, and the integrity.
                assert integrity(db_path) == "ok"
                break
            acknowledged[result["memory"]["key"]["id"]] = (1, result["memory"]["content"])
        assert refused is not None, "the file-size limit was never reached"
        assert refused["error"]["code"] == "unavailable" and refused["error"]["reason"] == "io_error", refused
        deleted = min(acknowledged)
        assert session.call({"operation": "delete", "id": deleted, "version": 1}) == {"operation": "delete", "id": deleted}
        del acknowledged[deleted]
        assert session.close() == ""
    assert raw_rows(db_path) == acknowledged
    assert integrity(db_path) == "ok"
    assert sidecars(db_path) == []


def test_a_full_disk_at_delete_says_the_disk_is_full(config_dir: Path, db_path: Path) -> None:
    """strace makes every page write of ``tact-memory delete`` after the eight that size the new
    ``-shm`` index fail with ENOSPC, as on a full disk: one line that says so (not the file-bound advice to delete records), exit 1, the file
    unchanged and no journal left behind."""
    why_not = strace_problem()
    if why_not:
        pytest.skip(why_not)
    write_config(config_dir)
    seeded_database(db_path)
    before = folder_bytes(db_path)
    strace = [str(shutil.which("strace")), "-f", "-qq", "-o", os.devnull, "-e", "trace=pwrite64", "-e", "inject=pwrite64:error=ENOSPC:when=9+"]
    proc = subprocess.run(
        [*strace, sys.executable, "-m", "tact_memory.cli", "--config", str(config_dir / "config.toml"), "delete", "1", "--version", "1", "--yes"],
        capture_output=True, text=True, env=child_env(), cwd=ROOT, timeout=120, check=False,
    )  # fmt: skip
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "the disk is full" in proc.stderr, proc.stderr
    assert "delete records" not in proc.stderr
    assert folder_bytes(db_path) == before


REFUSED_FLUSH = """
import sys
from tact_memory.records import RecordKey
from tact_memory.store.sqlite import MemoryStore
store = MemoryStore(sys.argv[1])
store.scan("service port")  # opens the file and its WAL
print("DELETE-START", flush=True)
try:
    store.delete(RecordKey(1, 1))
    print("ACK", flush=True)
except Exception as exc:
    print("ERROR", getattr(exc, "reason", ""), exc, flush=True)
"""


def test_a_delete_whose_flush_the_disk_refuses_is_not_acknowledged(tmp_path: Path) -> None:
    """A delete commits without a sync of its own; the scrub's checkpoint flushes the WAL for it.
    strace makes that flush fail (EIO), as a failing disk does. The delete answers ``unavailable``
    (``io_error``) saying it is written but not durable, where it used to flush the WAL once more
    and answer success (on Linux a second ``fdatasync`` after a failed one can succeed with the
    pages it could not write already dropped). The file stays intact and usable."""
    why_not = strace_problem()
    if why_not:
        pytest.skip(why_not)
    db = tmp_path / "memory" / "v1.sqlite3"
    seeded_database(db, 4)
    copy = tmp_path / "dry"
    shutil.copytree(db.parent, copy)
    trace = tmp_path / "trace"
    base = [str(shutil.which("strace")), "-f", "-y", "-qq", "-o", str(trace), "-e", "trace=fdatasync,write"]
    run = [sys.executable, "-c", REFUSED_FLUSH]
    subprocess.run([*base, *run, str(copy / db.name)], capture_output=True, env=child_env(), cwd=ROOT, timeout=120, check=True)
    syncs = [line for line in trace.read_text().splitlines() if "fdatasync(" in line or "DELETE-START" in line]
    start = next(i for i, line in enumerate(syncs) if "DELETE-START" in line)
    first_wal_sync = next(i for i, line in enumerate(syncs) if i > start and "-wal>" in line)
    when = sum(1 for line in syncs[: first_wal_sync + 1] if "fdatasync(" in line)
    inject = ["-e", f"inject=fdatasync:error=EIO:when={when}"]
    proc = subprocess.run([*base, *inject, *run, str(db)], capture_output=True, text=True, env=child_env(), cwd=ROOT, timeout=120, check=False)
    assert proc.stdout.splitlines()[0] == "DELETE-START", proc.stderr
    result = proc.stdout.splitlines()[1]
    assert result.startswith("ERROR io_error ") and "refused to flush" in result, proc.stdout
    assert "(INJECTED)" in trace.read_text().split("DELETE-START", 1)[1]  # the refused flush was the delete's
    assert integrity(db) == "ok"
    with MemoryStore(db) as store:
        store.put("the queue service listens on port 5672")
        assert len(store.list_records()) == 4  # the delete is written (whether it lasts is what the error said), and the put


# -- a lock held too long -------------------------------------------------------------------------


def test_lock_held_past_the_timeout_is_unavailable_busy_never_raw(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another connection holds the write lock past the busy timeout: each operation answers
    ``unavailable``/``busy`` (never SQLite's "database is locked"), and works once it is released."""
    monkeypatch.setattr(tact_memory.store.sqlite, "BUSY_TIMEOUT_S", 0.05)
    seeded_database(db_path)
    store = MemoryStore(db_path)
    tool = Dispatcher(store, role=Role.ROOT)
    tool.call(SCAN)
    holder = sqlite3.connect(db_path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        before = folder_bytes(db_path)
        for result in four_calls(tool):
            assert result["error"]["code"] == "unavailable" and result["error"]["reason"] == "busy", result
        assert store.status().problem is None  # WAL: reading takes no lock the writer holds
        assert len(store.list_records()) == 3
        assert {k: v for k, v in folder_bytes(db_path).items() if not k.endswith("-journal")} == before
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert tool.call({"operation": "read", "ids": [1]})["memories"][0]["key"] == {"id": 1, "version": 1}
    put_ok(tool, "the search service listens on port 9200")
    store.close()


def test_every_fault_leaves_a_usable_cli_session(config_dir: Path, db_path: Path) -> None:
    """The CLI tool keeps answering, one JSON line per call, through a corrupt file and after it."""
    write_config(config_dir)
    make_unusable("garbage", db_path)
    with ToolSession(config_dir / "config.toml") as session:
        assert session.call(SCAN)["error"]["reason"] == "not_a_database"
        assert session.call("not json at all")["error"]["code"] == "invalid_arguments"
        db_path.unlink()
        put_ok(session, "the billing service listens on port 8443")
        assert session.close() == ""
