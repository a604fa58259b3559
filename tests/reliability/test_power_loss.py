"""Power loss (I18): a worker's every write, flush and acknowledgement is traced, and the memory
folder is rebuilt as a power loss at hundreds of moments could leave it (:mod:`.crash`).

Whatever part of the unflushed writes survives, the file opens intact, every put, replacement and
delete acknowledged before that moment is in it, and the call in flight is wholly there or wholly
absent. Telemetry (a scan's or read's counts) may be lost, never half written. The worker mixes
every operation, so removals (whose commits rely on the scrub's checkpoint to sync them),
telemetry commits that do not wait for the disk, the scrub's truncation of the WAL and the WAL
started again all meet the loss.
"""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path

import pytest

from . import crash
from .helpers import (
    ROOT,
    child_env,
    integrity,
    raw_folder_bytes,
    raw_rows,
    replay,
    seeded_database,
    settle,
    stored_records,
    strace_problem,
)

SEEDS = [int(s) for s in os.environ.get("TACT_POWER_LOSS_SEEDS", "1,2").split(",")]
"""The workers' seeds (``TACT_POWER_LOSS_SEEDS=1,2,3,...`` runs more of them)."""
OPS = 60
"""Calls the traced worker makes: enough for about a dozen removals and as many scans."""


def _held_to_the_acknowledgements(folder: Path, lines: list[str], base: dict[int, tuple[int, str]]) -> None:
    db = folder / "v1.sqlite3"
    model = dict(base)
    _, in_flight = replay(model, lines)
    settle(model, in_flight, stored_records(db))
    assert integrity(db) == "ok"


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
def test_a_power_loss_at_any_moment_keeps_every_acknowledged_write(tmp_path: Path, seed: int) -> None:
    why_not = strace_problem()
    if why_not:
        pytest.skip(why_not)
    db = tmp_path / "memory" / "v1.sqlite3"
    seeded_database(db, 6)
    before = raw_folder_bytes(db)
    assert sorted(before) == ["v1.sqlite3"]  # the store closed: the WAL was copied in and removed
    base = raw_rows(db)
    events = crash.trace(
        [sys.executable, "-m", "tests.reliability.workers", "mixed", str(db), str(seed), str(OPS)],
        out=tmp_path / "trace", cwd=ROOT, env=child_env(),
    )  # fmt: skip
    real = {name: data for name, data in raw_folder_bytes(db).items() if not name.endswith("-shm")}
    assert crash.seen_by_the_process(events, db.parent, before) == real  # the trace missed no write
    output = crash.printed(events, len(events))
    acknowledged = crash.acknowledged(output)
    assert len(acknowledged) == OPS
    assert {entry[1] for entry in acknowledged} >= {"put", "replace", "delete", "scan"}
    assert any(entry[4] == "pinned" for entry in acknowledged)  # a delete no checkpoint could copy in
    done = json.loads(output[-1])
    assert done[:2] == ["done", "rewrites"] and done[2] >= 1  # scrubs that rewrote the file (VACUUM)
    rng = random.Random(seed)
    lost = tmp_path / "lost" / "memory"
    moments = list(crash.moments(events, extra=40, rng=rng))
    assert len(moments) > 250  # every flush and every line, and more
    for at in moments:
        lines = crash.printed(events, at)
        for variant in (None, random.Random(rng.random()), random.Random(rng.random())):
            crash.lay_out(crash.crash_states(events, db.parent, before, upto=at, rng=variant), lost)
            try:
                _held_to_the_acknowledgements(lost, lines, base)
            except AssertionError as exc:
                kind = "flushed writes only" if variant is None else "a random part of the unflushed writes"
                raise AssertionError(f"power lost before event {at} of {len(events)} ({kind}): {exc}") from exc


def test_the_model_keeps_only_what_was_flushed(tmp_path: Path) -> None:
    """The simulation itself: without a flush a write is lost in the strict state; a flush keeps
    everything written before it; a file created since the folder was last flushed is gone."""
    folder = tmp_path / "memory"
    events = [
        crash.Event("write", f"{folder}/a", 0, b"kept"),
        crash.Event("sync", f"{folder}/a"),
        crash.Event("write", f"{folder}/a", 2, b"ST"),
        crash.Event("create", f"{folder}/b"),
        crash.Event("write", f"{folder}/b", 0, b"new"),
        crash.Event("sync", f"{folder}/b"),
        crash.Event("truncate", f"{folder}/a", 1),
    ]
    before = {"a": b"", "a-shm": b"index"}
    assert crash.crash_states(events, folder, before, upto=2, rng=None) == {"a": b"kept"}
    assert crash.crash_states(events, folder, before, upto=len(events), rng=None) == {"a": b"kept"}
    events.append(crash.Event("sync", str(folder)))
    assert crash.crash_states(events, folder, before, upto=len(events), rng=None) == {"a": b"kept", "b": b"new"}
    seen = {crash.crash_states(events, folder, before, upto=len(events), rng=random.Random(n))["a"] for n in range(64)}
    assert seen == {b"kept", b"keST", b"k"}  # any subset of the unflushed changes, in order


def test_a_removal_from_the_folder_lasts_once_the_folder_is_flushed(tmp_path: Path) -> None:
    """An unlinked file may still be there after a power loss until its folder is flushed; then
    it is gone for good. A file made and removed before any flush of the folder is never there."""
    folder = tmp_path / "memory"
    events = [
        crash.Event("unlink", f"{folder}/old-wal"),
        crash.Event("create", f"{folder}/brief"),
        crash.Event("unlink", f"{folder}/brief"),
    ]
    before = {"old-wal": b"frames", "db": b"pages"}
    assert crash.crash_states(events, folder, before, upto=len(events), rng=None) == before
    kept = {tuple(sorted(crash.crash_states(events, folder, before, upto=len(events), rng=random.Random(n)))) for n in range(32)}
    assert kept == {("db",), ("db", "old-wal")}
    events.append(crash.Event("sync", str(folder)))
    assert crash.crash_states(events, folder, before, upto=len(events), rng=None) == {"db": b"pages"}
    assert crash.seen_by_the_process(events, folder, before) == {"db": b"pages"}


def test_a_file_made_again_under_a_removed_name_may_lose_to_the_old_one(tmp_path: Path) -> None:
    """A WAL removed and made again before the folder is flushed: a power loss may leave the new
    file's entry, the old one's (with its old frames), or neither, never the old one in strict state
    lost; once the folder is flushed only the new file can be there."""
    folder = tmp_path / "memory"
    events = [
        crash.Event("unlink", f"{folder}/w"),
        crash.Event("create", f"{folder}/w"),
        crash.Event("write", f"{folder}/w", 0, b"new"),
        crash.Event("sync", f"{folder}/w"),
    ]
    before = {"w": b"old"}
    assert crash.crash_states(events, folder, before, upto=len(events), rng=None) == {"w": b"old"}
    seen = {crash.crash_states(events, folder, before, upto=len(events), rng=random.Random(n)).get("w") for n in range(64)}
    assert seen == {b"old", b"new", None}
    assert crash.crash_states([*events[:2], crash.Event("unlink", f"{folder}/w")], folder, before, upto=3, rng=None) == before
    events.append(crash.Event("sync", str(folder)))
    assert crash.crash_states(events, folder, before, upto=len(events), rng=None) == {"w": b"new"}
    assert crash.seen_by_the_process(events, folder, before) == {"w": b"new"}


def test_the_reader_takes_long_dumps_and_refuses_what_it_cannot_replay(tmp_path: Path) -> None:
    """Past 1 MiB strace numbers a dump's lines with six hex digits; a dump that does not hold what
    the call wrote is an error, and so is a call the model does not replay on a file of the folder."""
    folder = tmp_path / "memory"
    size = 0x100010
    data = (bytes(range(256)) * (size // 256 + 1))[:size]
    lines = [f'7  pwrite64(5<{folder}/v1.sqlite3-wal>, ""..., {size}, 32) = {size}']
    for at in range(0, size, 16):
        chunk = data[at : at + 16]
        hexed = " ".join(f"{b:02x}" for b in chunk[:8]) + "  " + " ".join(f"{b:02x}" for b in chunk[8:])
        lines.append(f" | {at:05x}  {hexed:<48}  {'.' * 16} |")
    [event] = crash.parse(lines)
    assert event.kind == "write" and event.offset == 32 and event.data == data
    with pytest.raises(ValueError, match="dumped"):
        crash.parse(lines[:-1])
    writev = [f'7  pwritev(5<{folder}/v1.sqlite3>, [...], 2, 0) = 8192']
    with pytest.raises(ValueError, match="pwritev"):
        crash.crash_states(crash.parse(writev), folder, {}, upto=1, rng=None)
    shared = [f"7  mmap(NULL, 32768, PROT_READ|PROT_WRITE, MAP_SHARED, 4<{folder}/v1.sqlite3-shm>, 0) = 0x7f0000000000"]
    assert crash.crash_states(crash.parse(shared), folder, {}, upto=1, rng=None) == {}  # the -shm index is not modelled


def test_the_trace_is_read_as_the_files_saw_it(tmp_path: Path) -> None:
    """The parser against a real trace: SQLite's writes with their bytes, its flushes, the files
    it creates and the lines printed, in the order they happened."""
    why_not = strace_problem()
    if why_not:
        pytest.skip(why_not)
    db = tmp_path / "t.sqlite3"
    script = (
        "import sqlite3, sys; c = sqlite3.connect(sys.argv[1], isolation_level=None); "
        "c.execute('PRAGMA journal_mode = WAL'); c.execute('PRAGMA synchronous = FULL'); "
        "c.execute('CREATE TABLE t (x)'); print('[\"made\"]', flush=True); "
        "c.execute(\"INSERT INTO t VALUES ('a marker row')\"); print('[\"ack\"]', flush=True)"
    )
    events = crash.trace([sys.executable, "-c", script, str(db)], out=tmp_path / "trace", cwd=tmp_path, env=child_env())
    mine = [e for e in events if e.path.startswith(str(db)) or e.kind == "print"]
    assert any(e.kind == "create" and e.path.endswith("-wal") for e in mine)
    assert any(e.kind == "sync" and e.path.endswith("-wal") for e in mine)
    printed = [i for i, e in enumerate(mine) if e.kind == "print"]
    assert crash.printed(mine, len(mine)) == ['["made"]', '["ack"]']
    assert crash.printed(mine, printed[0] + 1) == []  # print() wrote the line, then its newline
    made = next(i for i in printed if mine[i].data == b'["made"]')
    acked = next(i for i in printed if mine[i].data == b'["ack"]')
    marker = next(i for i, e in enumerate(mine) if e.kind == "write" and b"a marker row" in e.data)
    assert made < marker < acked
    assert any(e.kind == "sync" and e.path.endswith("-wal") for e in mine[marker:acked])
    at_ack = events.index(mine[acked]) + 1
    left = crash.crash_states(events, tmp_path, {}, upto=at_ack, rng=None)
    assert b"a marker row" in left["t.sqlite3-wal"]  # flushed by the commit (synchronous = FULL)
    # The connection closes at exit: it copies the WAL into the file, flushes it, and removes the
    # WAL without flushing the folder, so a power loss may still find the WAL there.
    assert "t.sqlite3-wal" in crash.crash_states(events, tmp_path, {}, upto=len(events), rng=None)
    assert sorted(crash.seen_by_the_process(events, tmp_path, {})) == ["t.sqlite3"]
