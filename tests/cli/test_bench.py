"""``tact-memory bench`` computes its figures and its verdict from them; no timing is asserted here."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.cli import bench as bench_module
from tact_memory.cli.app import cli
from tact_memory.cli.bench import BenchReport, corpus, run_bench
from tact_memory.cli.bench_import import parse_importtime
from tact_memory.cli.bench_probes import parse_strace_summary
from tact_memory.cli.bench_screen import HARD_UNITS, hard_kilobytes, slowest_screen
from tact_memory.cli.bench_verdict import verdicts
from tact_memory.limits import DEFAULT_LIMITS

GOOD: dict[str, float | None] = {
    "scan_p50_ms": 1.0,
    "rank_p50_ms": 0.9,
    "fts5_wal_scan_p50_ms": 1.1,
    "own_write_scan_p50_ms": 1.05,
    "own_write_warm_scan_p50_ms": 1.0,
    "put_p95_ms": 3.0,
    "replace_p95_ms": 3.0,
    "delete_p95_ms": 3.0,
    "fdatasync_ms": 1.0,
    "index_update_ms": 0.5,
    "import_own_ms": 20.0,
    "tool_cold_ratio": 5.0,
    "hook_cold_ratio": 2.0,
    "scans_per_s_4": 900.0,
    "locked_scans_per_s_4": 250.0,
}


def test_corpus_fills_the_bounds_exactly() -> None:
    texts = corpus()
    assert len(texts) == DEFAULT_LIMITS.rows == len(set(texts))
    assert sum(len(t.encode()) for t in texts) == DEFAULT_LIMITS.content_bytes


def test_verdict_is_computed_from_the_figures() -> None:
    assert all(v.met for v in verdicts(GOOD))
    missed = {v.name for v in verdicts({**GOOD, "scan_p50_ms": 1.2, "import_own_ms": 30.5}) if v.met is False}
    # 1.2 / 0.9 > 1.2 (scan/rank), 1.2 / 1.1 > 1 (FTS5 WAL); own write is over its own warm scan.
    assert missed == {"scan/rank", "scan/fts5-wal", "import (own)"}
    assert {v.name for v in verdicts({**GOOD, "own_write_warm_scan_p50_ms": 0.9}) if v.met is False} == {"own-write/warm"}
    assert {v.name for v in verdicts({**GOOD, "put_p95_ms": 3.6}) if v.met is False} == {"put p95"}


def test_throughput_target_is_a_floor() -> None:
    """4 processes must scan at least 3x as often as the lock-holding design; below that is missed."""
    found = {v.name: v for v in verdicts(GOOD)}["4-process scans/s"]
    assert found.value == 3.6 and found.met is True and ">= 3x" in found.line()
    slow = {v.name: v for v in verdicts({**GOOD, "scans_per_s_4": 740.0})}["4-process scans/s"]
    assert slow.met is False and "MISSED" in slow.line()
    assert {v.name: v for v in verdicts({**GOOD, "locked_scans_per_s_4": None})}["4-process scans/s"].met is None


def test_unmeasured_figure_is_neither_met_nor_missed() -> None:
    found = {v.name: v for v in verdicts({**GOOD, "fdatasync_ms": None, "tool_cold_ratio": None})}
    assert found["put p95"].met is None and found["tool cold"].met is None
    assert "not measured" in found["tool cold"].line()
    assert "MISSED" not in "".join(v.line() for v in found.values())


@given(st.lists(st.tuples(st.integers(0, 10**7), st.integers(0, 10**7)), min_size=1, max_size=20))
def test_import_figures_are_never_negative(times: list[tuple[int, int]]) -> None:
    lines = ["import time: self [us] | cumulative | imported package"]
    lines += [f"import time: {s:>9} | {c:>10} |   tact_memory.m{i}" for i, (s, c) in enumerate(times)]
    lines.append(f"import time: {5:>9} | {sum(c for _, c in times) + 5:>10} | tact_memory")
    parsed = parse_importtime("\n".join(lines))
    assert parsed.own_ms == round((sum(s for s, _ in times) + 5) / 1000, 3)
    assert parsed.own_ms >= 0 and parsed.total_ms >= 0 and parsed.dependencies_ms >= 0


def test_import_parsing_of_real_importtime_output() -> None:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import tact_memory"], capture_output=True, text=True, check=True
    )
    parsed = parse_importtime(done.stderr)
    assert 0 < parsed.own_ms <= parsed.total_ms
    with pytest.raises(ValueError, match="tact_memory"):
        parse_importtime("import time: self [us] | cumulative | imported package\nimport time: 3 | 3 | json")


def test_strace_summary_is_parsed() -> None:
    text = (
        "% time     seconds  usecs/call     calls    errors syscall\n"
        "------ ----------- ----------- --------- --------- ----------------\n"
        " 60.00    0.000600         100         6           fdatasync\n"
        " 40.00    0.000400         200         2         1 fsync\n"
        "------ ----------- ----------- --------- --------- ----------------\n"
        "100.00    0.001000         125         8         1 total\n"
    )
    assert parse_strace_summary(text) == 8


def _report(**figures: float) -> BenchReport:
    p = {"p50_ms": 1.0, "p95_ms": 1.0, "n": 1.0}
    ops = {name: dict(p) for name in ("rank", "scan", "read", "put", "replace", "delete")}
    for key, value in figures.items():
        name, field = key.split("__")
        ops[name][field] = value
    return BenchReport(
        operations=ops,
        baseline={"rank": dict(p), "scan": dict(p), "scan_wal": dict(p)},
        first_scan={name: dict(p) for name in ("after_other_write", "after_own_write", "after_own_put", "after_own_delete", "warm")},
        processes={"1": {"scans_per_s": 100.0, "busy": 0.0}, "4": {"scans_per_s": 400.0, "busy": 0.0}},
        locked_processes={"4": {"scans_per_s": 100.0, "busy": 0.0}},
        sync_calls=None,
        fdatasync_ms=1.0,
        import_ms=10.0,
        import_own_ms=5.0,
        untouched=True,
        corpus={"rows": 511, "content_bytes": 1, "file_bytes": 1},
        hook_ratio=2.0,
        tool_ratio=4.0,
    )


def test_floors_are_computed_from_the_figures() -> None:
    report = _report()
    assert report.floors() == {"scan/rank": None, "put": None, "removal": None}  # nothing to compute them from
    floored = replace(
        report,
        scan_floor={"p50_ms": 1.3, "p95_ms": 1.5, "n": 1.0},
        append_fdatasync_ms=2.0,
        index_update_ms=0.5,
        screen_ms=0.5,
        sync_calls={"put": 1, "replace": 4, "delete": 3},
    )
    # bound = 3 x 1.0 + 0.5; put = 2.0 + 0.5 + 0.5; a removal makes at most 4 syncs: the file's in
    # place (1.0) and three of the WAL, each growing it (2.0)
    assert floored.floors() == {"scan/rank": 1.3, "put": round(3.0 / 3.5, 3), "removal": round(7.5 / 3.5, 3)}
    assert "floor removal" in floored.render() and "floor scan/rank          1.30x" in floored.render()


@pytest.mark.parametrize(("report", "code"), [(_report(), 0), (_report(scan__p50_ms=2.0), 1)])
def test_check_exits_1_on_a_missed_target(monkeypatch: pytest.MonkeyPatch, report: BenchReport, code: int) -> None:
    monkeypatch.setattr(bench_module, "main", lambda as_json, quick=False, progress=None: report)
    plain = CliRunner().invoke(cli, ["bench", "--quick"])
    checked = CliRunner().invoke(cli, ["bench", "--quick", "--check"])
    assert plain.exit_code == 0 and checked.exit_code == code
    assert ("MISSED" in checked.output) == (code == 1)
    assert "not measured (no usable strace)" in plain.output


@pytest.mark.slow
def test_report_is_computed_from_measurements() -> None:
    stages: list[str] = []
    report = run_bench(
        queries=15, writes=3, import_runs=1, cold_runs=1, process_counts=(1, 2), process_seconds=0.1, progress=stages.append
    )
    assert tuple(stages) == bench_module.STAGES
    data = report.to_json()
    assert data["corpus"]["rows"] == DEFAULT_LIMITS.rows - 1
    assert data["corpus"]["content_bytes"] > 0.99 * DEFAULT_LIMITS.content_bytes
    for name in ("rank", "scan", "read", "put", "replace", "delete"):
        figures = data["operations"][name]
        assert 0 < figures["p50_ms"] <= figures["p95_ms"], name
    for figures in (*data["fts5_baseline"].values(), *data["first_scan"].values()):
        assert 0 < figures["p50_ms"] <= figures["p95_ms"]
    first = data["first_scan"]
    assert set(first) == {"after_other_write", "after_own_write", "after_own_put", "after_own_delete", "warm"}
    assert first["after_own_write"]["n"] == first["after_own_put"]["n"] + first["after_own_delete"]["n"] == first["warm"]["n"] > 0
    assert data["operations"]["put"]["n"] == 3 and data["operations"]["scan"]["n"] == 15
    assert set(data["processes"]) == {"1", "2"} and all(p["scans_per_s"] > 0 for p in data["processes"].values())
    assert set(data["lock_holding_processes"]) == {"1"} and data["lock_holding_processes"]["1"]["scans_per_s"] > 0
    assert data["untouched_when_unused"] is True
    assert data["import_ms"] >= data["import_own_ms"] > 0 and data["fdatasync_ms"] > 0
    assert data["append_fdatasync_ms"] > 0 and data["index_update_ms"] > 0
    assert data["figures"]["index_update_ms"] == data["index_update_ms"]
    assert data["hook_cold_ratio"] > 0 and data["tool_cold_ratio"] > 0
    assert data["screen_ms"] > 0 and 0 < data["scan_floor"]["p50_ms"] <= data["scan_floor"]["p95_ms"]
    assert data["screen_worst_ms"] > 0 and data["screen_worst_unit"] in {name for name, _ in hard_kilobytes()}
    assert f"screening the slowest hard kilobyte ({data['screen_worst_unit']} repeated)" in report.render()
    assert data["floors"]["scan/rank"] > 1 and data["floors"]["put"] > 0  # a floor adds to its baseline's work
    assert "floor scan/rank" in report.render() and "rank + bare telemetry, JSON" in report.render()
    assert data["scrub"]["removals"] == 6 and 0 <= data["scrub"]["rewrites"] <= 6
    assert f"of {data['scrub']['removals']} removals" in report.render()
    if data["sync_calls_per_operation"] is not None:  # strace present and allowed
        assert data["sync_calls_per_operation"]["put"] >= 1
    assert [t["met"] for t in data["targets"]] == [v.met for v in verdicts(report.figures())]
    text = report.render()
    assert "scan after other's write" in text and text.count("target ") == len(data["targets"])


def test_bench_command_help() -> None:
    result = CliRunner().invoke(cli, ["bench", "-h"])
    assert result.exit_code == 0 and "FTS5" in result.output and "--check" in result.output


def test_each_hard_kilobyte_is_its_lead_then_its_unit_to_a_kilobyte() -> None:
    made = hard_kilobytes()
    assert len(made) == len(HARD_UNITS) == len({text for _, text in made})
    for (lead, unit), (name, text) in zip(HARD_UNITS, made):
        assert name == repr(unit) and text.startswith(lead + unit)
        assert 1024 - len(unit.encode()) < len(text.encode()) <= 1024


def test_the_slowest_screen_is_one_of_the_hard_kilobytes_and_its_time_a_ratio_shows() -> None:
    worst, unit = slowest_screen(runs=1)
    assert worst > 0 and unit in {name for name, _ in hard_kilobytes()}
    report = replace(_report(), screen_ms=worst / 4, screen_worst=(worst, unit))
    assert f"({unit} repeated): {worst:.3f} ms, 4.0x a record" in report.render()
    assert report.to_json()["screen_worst_ms"] == worst and report.to_json()["screen_worst_unit"] == unit
    assert "hard kilobyte" not in _report().render()  # not measured: no line
