"""The bounds probe: each hard bound reached in a real store, crossed, and what happened recorded."""

from __future__ import annotations

from pathlib import Path

from tact_memory.eval.bounds import _push, _record, probe_bounds
from tact_memory.limits import Limits
from tact_memory.store.sqlite import MemoryStore

SMALL = Limits(record_bytes=64, rows=8, content_bytes=300, file_bytes=8 * 4096)
CODES = {"record_bytes": "content_too_large", "rows": "record_capacity", "content_bytes": "content_capacity",
         "file_bytes": "database_capacity"}  # fmt: skip


def test_each_bound_refuses_the_crossing_whole_and_delete_still_works() -> None:
    probes = probe_bounds(SMALL)
    assert [p.bound for p in probes] == list(CODES)
    for probe in probes:
        assert probe.error == CODES[probe.bound], probe
        assert probe.unchanged and probe.before == probe.after and probe.delete_works, probe
        assert probe.limit == getattr(SMALL, probe.bound) and probe.latency_ms >= 0
    by_bound = {p.bound: p for p in probes}
    assert by_bound["rows"].before["rows"] == SMALL.rows
    assert by_bound["content_bytes"].before["content_bytes"] == SMALL.content_bytes
    assert by_bound["file_bytes"].before["file_bytes"] == SMALL.file_bytes


def test_records_are_distinct_and_exactly_their_size() -> None:
    texts = [_record(n, 200) for n in range(50)]
    assert len(set(texts)) == 50 and {len(t.encode()) for t in texts} == {200}


def test_an_operation_that_crosses_nothing_is_reported_as_accepted_and_changing(tmp_path: Path) -> None:
    """The probe reads the store, not the operation's word: a put that was accepted shows no error
    and a changed store, which the summary and the report flag."""
    with MemoryStore(tmp_path / "m.sqlite3", limits=SMALL) as store:
        probe = _push(store, "rows", SMALL.rows, "a put with room left", lambda: store.put(_record(1, 40), probation=False))
    assert probe.error is None and not probe.unchanged
    assert probe.after["rows"] == probe.before["rows"] + 1


def test_the_verdict_passes_the_bounds_only_when_each_refused_its_crossing_whole(tmp_path: Path) -> None:
    from dataclasses import replace

    from tact_memory.eval.bounds import PROBED, check_bounds

    probes = probe_bounds(SMALL)
    assert check_bounds(probes).status == "pass"
    with MemoryStore(tmp_path / "m.sqlite3", limits=SMALL) as store:
        accepted = _push(store, "rows", SMALL.rows, "a put with room left", lambda: store.put(_record(1, 40), probation=False))
    for broken, said in (
        (accepted, "rows accepted its crossing"),
        (replace(probes[2], unchanged=False), "content_bytes changed the store when it refused"),
        (replace(probes[3], delete_works=False), "file_bytes kept a delete from working"),
    ):
        others = [p for p in probes if p.bound != broken.bound]
        check = check_bounds([*others, broken])
        assert check.status == "fail" and check.detail == said, check
    # A bound not probed was not measured: never a pass.
    missing = check_bounds(probes[:3])
    assert missing.status == "inconclusive" and missing.detail == "bounds not probed: file_bytes"
    assert check_bounds([]).status == "inconclusive" and list(PROBED) == [p.bound for p in probes]
