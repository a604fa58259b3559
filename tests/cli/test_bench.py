"""``tact-memory bench`` computes its figures; no timing is asserted here."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from tact_memory.cli.app import cli
from tact_memory.cli.bench import corpus, run_bench
from tact_memory.limits import DEFAULT_LIMITS


def test_corpus_fills_the_bounds_exactly() -> None:
    texts = corpus()
    assert len(texts) == DEFAULT_LIMITS.rows == len(set(texts))
    assert sum(len(t.encode()) for t in texts) == DEFAULT_LIMITS.content_bytes


@pytest.mark.slow
def test_report_is_computed_from_measurements() -> None:
    report = run_bench(queries=15, writes=3)
    data = report.to_json()
    assert data["corpus"]["rows"] == DEFAULT_LIMITS.rows - 1
    assert data["corpus"]["content_bytes"] > 0.99 * DEFAULT_LIMITS.content_bytes
    for name in ("rank", "scan", "read", "put", "replace", "delete"):
        figures = data["operations"][name]
        assert 0 < figures["p50_ms"] <= figures["p95_ms"], name
    assert data["operations"]["put"]["n"] == 3 and data["operations"]["scan"]["n"] == 15
    ours, theirs = data["operations"]["scan"]["p95_ms"], data["fts5_baseline"]["scan"]["p95_ms"]
    assert data["ratios"]["scan_p95"] == round(ours / theirs, 3)
    assert data["untouched_when_unused"] is True
    assert data["import_ms"] >= 0 and data["import_own_ms"] >= 0
    assert data["targets"]["met"]["import"] == (data["import_own_ms"] < 50.0)
    assert data["targets"]["met"]["scan"] == (data["ratios"]["scan_p95"] <= 1.0)
    assert "ratio scan_p95" in report.render()
    assert data["hook_cold_ratio"] > 0 and data["targets"]["met"]["hook"] == (data["hook_cold_ratio"] <= 3.0)
    assert "prompt hook, cold process" in report.render()


def test_bench_command_help() -> None:
    result = CliRunner().invoke(cli, ["bench", "-h"])
    assert result.exit_code == 0 and "FTS5" in result.output
