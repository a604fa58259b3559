"""`tact-memory eval`: the full offline run, its JSON, the report, exit codes and help."""

from __future__ import annotations

import importlib.metadata
import json
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from syrupy.assertion import SnapshotAssertion

from tact_memory.cli.app import cli
from tact_memory.eval import evaluate, runner
from tact_memory.eval.command import summary_lines
from tact_memory.eval.evaluation import Evaluation
from tact_memory.eval.report import bar_chart, render_markdown, write_report
from tact_memory.eval.scenarios import EvalError, default_scenario_dir
from tact_memory.eval.verdict import default_thresholds_path

from ..conftest import NO_PYDANTIC_AI

KEYS = {
    "scan_precision_at_5", "scan_recall_at_5", "read_precision", "mrr", "abstention_accuracy", "duplicate_puts",
    "correct_replacements", "contradiction_rate", "forbidden_writes", "probation_survival", "scanned_never_read",
    "latency_ms", "memory_tokens", "disk_bytes",
}  # fmt: skip


class SteadyTimer:
    """The runner's timer in these tests: each reading is a millisecond after the last, so every
    call measures 1 ms. The latency checks are tested on chosen figures (``test_verdict.py``); a
    run's own figures depend on what else the machine runs (a scan descheduled for 600 ms turns
    the scan check from "pass" to "inconclusive"), which a test of the whole run must not."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        self.now += 0.001
        return self.now


@pytest.fixture(scope="module")
def full() -> tuple[Evaluation, float]:
    begin = time.perf_counter()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(runner, "time", SteadyTimer())
        result = evaluate("scripted")
    return result, time.perf_counter() - begin


def test_the_offline_evaluation_is_fast_complete_and_honest(full: tuple[Evaluation, float]) -> None:
    """The scripted run passes every criterion it has the evidence for, fails none, and says which
    it cannot decide: the non-inferiority rates and abstention have too few cases for their
    intervals, and its registration is not blind."""
    result, seconds = full
    assert seconds < 120
    doc = result.to_json()
    assert doc["scenarios"] >= 36 and doc["splits"]["held_out"] >= 20
    assert KEYS <= set(doc["metrics"])
    assert set(doc["paired"]) >= {"memory_on", "memory_off", "gain", "gain_interval", "p_value", "non_inferiority"}
    assert {"p50", "p95"} <= set(doc["metrics"]["latency_ms"]["scan"])
    assert doc["metrics"]["memory_tokens"]["tokens_without_call"] == 0
    assert doc["metrics"]["memory_tokens"]["memory_off_tokens"] == 0
    assert doc["metrics"]["disk_bytes"]["memory_off_untouched"] is True
    statuses = {c["name"]: c["status"] for c in doc["checks"]}
    assert "fail" not in statuses.values() and statuses["utility"] == "pass"
    assert {name for name, status in statuses.items() if status == "inconclusive"} == {
        "contradiction_rate", "false_retrieval_rate", "cross_workspace_rate", "abstention", "registration",
        # fewer calls than a p95's upper bound needs (72): a budget is not shown to hold by a few
        "latency_read_p95_ms", "latency_put_p95_ms", "latency_delete_p95_ms",
    }  # fmt: skip
    assert statuses["latency_scan_p95_ms"] == "pass" and doc["metrics"]["latency_ms"]["scan"]["n"] >= 72
    assert statuses["bounds"] == "pass"  # each hard bound refused its crossing whole, in the verdict too
    # failure behaviour at every bound of the shipped limits, measured
    bounds = {b["bound"]: b for b in doc["metrics"]["bounds"]}
    assert {name: b["error"] for name, b in bounds.items()} == {
        "record_bytes": "content_too_large", "rows": "record_capacity", "content_bytes": "content_capacity",
        "file_bytes": "database_capacity",
    }  # fmt: skip
    assert all(b["unchanged"] and b["delete_works"] and b["latency_ms"] >= 0 for b in bounds.values())
    assert bounds["file_bytes"]["before"]["file_bytes"] == 4 * 1024 * 1024 and bounds["rows"]["before"]["rows"] == 512
    assert doc["verdict"] == "inconclusive"
    assert doc["registration"]["held_out"] == result.thresholds.registration.held_out  # the registered set ran
    assert doc["registration"]["retrieval"] == result.thresholds.constants.retrieval
    assert doc["metrics"]["correct_retractions"]["expected"] >= 1 and doc["metrics"]["latency_ms"]["delete"]["n"] >= 1
    assert doc["metrics"]["correct_retractions"]["rate"] == 1.0
    assert doc["background"]["used"] and doc["background"]["records"] >= 1 and doc["version"]
    json.dumps(doc)  # serialisable as is


def test_a_fact_the_conversation_itself_carries_is_no_win_for_memory(full: tuple[Evaluation, float]) -> None:
    """In these scenarios the task runs in a forked session whose history states the fact: the
    memory-off arm answers from it too, so the pair is not counted as a gain."""
    results = {r["id"]: r for r in full[0].to_json()["results"]}
    for name in ("preference_03", "workspace_gotcha_03"):
        assert results[name]["memory_on"] and results[name]["memory_off"], results[name]


def test_every_scenario_ran_in_both_arms_with_counterbalanced_order(full: tuple[Evaluation, float]) -> None:
    result, _ = full
    firsts = [p.first for p in result.held_out]
    assert abs(firsts.count("on") - firsts.count("off")) <= 1
    assert all(p.on.scenario == p.off.scenario == p.scenario.id for p in (*result.held_out, *result.tuning))


def test_the_report_has_charts_and_every_section(full: tuple[Evaluation, float], tmp_path: Path) -> None:
    result, _ = full
    paths = write_report(result, tmp_path / "report")
    assert {p.name for p in paths} == {"report.md", "retrieval_by_category.png", "outcomes_by_category.png", "latency_by_operation.png"}
    assert all(p.stat().st_size > 0 for p in paths)
    assert (tmp_path / "report" / "outcomes_by_category.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    for heading in ("Kill criteria", "Paired outcomes", "Metrics", "Bounds", "Categories", "Scenarios", "Tuning split", "Thresholds"):
        assert f"## {heading}" in text
    assert "![retrieval by category](retrieval_by_category.png)" in text


def test_a_report_that_cannot_be_written_is_a_named_error(full: tuple[Evaluation, float], tmp_path: Path) -> None:
    (tmp_path / "report" / "report.md").mkdir(parents=True)  # a folder where the file goes
    with pytest.raises(EvalError, match="report.md: cannot write the report"):
        write_report(full[0], tmp_path / "report")


def test_summary_and_markdown_render_from_the_json_alone(full: tuple[Evaluation, float]) -> None:
    doc = full[0].to_json()
    lines = summary_lines(doc)
    assert lines[-1].startswith("verdict") or any(line.startswith("verdict") for line in lines)
    assert "![" not in render_markdown(doc, charts=False)


def test_the_text_summary_writes_numbers_one_way(full: tuple[Evaluation, float], snapshot: SnapshotAssertion) -> None:
    lines = summary_lines(full[0].to_json())
    assert "\n".join(lines) == snapshot
    assert any("(McNemar p < 0.001)" in line for line in lines)
    assert not any(".000 tokens" in line for line in lines)  # a token count is never 361.000


def test_the_markdown_uses_the_same_numbers(full: tuple[Evaluation, float]) -> None:
    doc = full[0].to_json()
    text = render_markdown(doc, charts=False)
    assert "exact McNemar p < 0.001." in text and "p = p" not in text
    assert "| per_session_mean | 360 |" in text and "| per_session_mean | 1,549 |" in text  # means of tokens, whole numbers
    assert "| delete | n/a | n/a | 0 |" not in text and "| read | " in text  # the withdrawal scenario deletes
    assert "record_bytes: 1,024" in text and "–" not in text
    assert "Arm order: memory on ran first in 19 pairs, off first in 18." in text  # words, not a dict


def test_every_bar_has_its_value_and_a_missing_one_says_n_a() -> None:
    import matplotlib.pyplot as plt

    fig = bar_chart("t", {"on": [0.5, None, 1.0], "off": [0.25, None, 0.0]}, ["a", "b", "c"], "share")
    try:
        [ax] = fig.axes
        assert sorted(t.get_text() for t in ax.texts) == sorted(["0.500", "n/a", "1.000", "0.250", "n/a", "0.000"])
    finally:
        plt.close(fig)


def small_fixture(tmp_path: Path, ids: list[str]) -> Path:
    folder = tmp_path / "scenarios"
    folder.mkdir()
    for name in ids:
        (folder / f"{name}.toml").write_text(default_scenario_dir().joinpath(f"{name}.toml").read_text(encoding="utf-8"), encoding="utf-8")
    return folder


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, ["eval", *args], catch_exceptions=False)


def test_json_output_and_exit_code_one_when_not_a_pass(tmp_path: Path) -> None:
    folder = small_fixture(tmp_path, ["durable_correction_02", "steer_01"])
    result = run("--json", "--scenarios", str(folder))
    assert result.exit_code == 1  # two pairs cannot reach a verdict: inconclusive
    doc = json.loads(result.output)
    # a copy of a few scenarios has no background corpus beside it: the output says so
    assert doc["background"] == {"used": False, "records": 0}
    assert "no background corpus" in summary_lines(doc)[1] and "no background corpus" in render_markdown(doc, charts=False)
    assert doc["version"] == importlib.metadata.version("tact-memory")
    assert doc["scenarios"] == 2 and doc["verdict"] == "inconclusive"
    assert set(doc) >= {"scenarios", "categories", "metrics", "paired", "thresholds", "verdict"}


def test_text_output_report_and_bad_policy(tmp_path: Path) -> None:
    folder = small_fixture(tmp_path, ["durable_correction_02"])
    result = run("--scenarios", str(folder), "--report", str(tmp_path / "out"))
    assert "verdict     inconclusive" in result.output and (tmp_path / "out" / "report.md").exists()
    assert "evaluating" not in result.output  # no progress bar without a terminal
    bad = run("--policy", "nonsense", "--scenarios", str(folder))
    assert bad.exit_code == 2


@pytest.mark.parametrize(
    ("policy", "expected"),
    [
        ("pydantic-ai:nosuchprovider:model-x", "cannot use the model 'nosuchprovider:model-x'"),
        ("pydantic-ai:openai:gpt-4.1", "pip install 'pydantic-ai-slim[openai]'"),
    ],
)
def test_a_model_policy_that_cannot_run_is_one_line_before_any_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, policy: str, expected: str
) -> None:
    import importlib.util

    if importlib.util.find_spec("pydantic_ai") is None:
        pytest.skip(NO_PYDANTIC_AI)
    if "openai" in policy and importlib.util.find_spec("openai") is not None:
        monkeypatch.delenv("OPENAI_API_KEY", raising=False)
        expected = "cannot use the model 'openai:gpt-4.1'"  # installed: the missing key is the reason
    report = tmp_path / "out"
    result = CliRunner().invoke(cli, ["eval", "--policy", policy, "--report", str(report)])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and expected in lines[0], result.output
    assert not report.exists()


def test_the_pydantic_ai_policy_on_a_python_pydantic_ai_does_not_support_says_which_it_needs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On Python 3.10 pydantic-ai does not install, so the line says so rather than to install it."""
    import importlib.util
    import sys

    find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "pydantic_ai" else find_spec(name, *a))
    monkeypatch.setattr(sys, "version_info", (3, 10, 13, "final", 0))
    report = tmp_path / "out"
    result = CliRunner().invoke(cli, ["eval", "--policy", "pydantic-ai:openai:gpt-4.1", "--report", str(report)])
    assert result.exit_code == 2
    assert result.output == (
        "tact-memory: this needs the pydantic-ai extra (pydantic_ai is not installed): "
        "it needs Python 3.11 or later, and this is Python 3.10\n"
    )
    assert not report.exists()


def test_tune_prints_the_sweep_for_the_tuning_split(tmp_path: Path, snapshot: SnapshotAssertion) -> None:
    folder = small_fixture(tmp_path, ["steer_01", "durable_correction_02"])
    result = run("--tune", "--scenarios", str(folder))
    assert result.exit_code == 0
    assert result.output == snapshot
    lines = result.output.splitlines()
    assert lines[0] == "1 tuning scenarios" and "{" not in result.output  # tables, not a dict
    header = next(i for i, line in enumerate(lines) if line.startswith("   k1"))
    assert set(lines[header + 1]) == {"-", " "} and len(lines) - header - 2 == 12


def test_tune_without_tuning_scenarios_is_refused_like_split_tuning(tmp_path: Path) -> None:
    """Sweeping nothing is no result: --tune says there is no tuning scenario, as --split tuning does."""
    folder = small_fixture(tmp_path, ["durable_correction_02"])  # held-out only
    for args in (["--tune"], ["--split", "tuning"]):
        result = run(*args, "--scenarios", str(folder))
        assert result.exit_code == 2 and result.stdout == ""
        assert result.stderr == "tact-memory: no tuning scenarios to run\n"


def test_the_tuning_split_runs_alone_without_a_verdict(tmp_path: Path) -> None:
    """Thresholds are worked out on the tuning split before any held-out run, so it can run alone."""
    folder = small_fixture(tmp_path, ["steer_01", "durable_correction_02"])  # one tuning, one held-out
    result = run("--json", "--split", "tuning", "--scenarios", str(folder))
    assert result.exit_code == 1
    doc = json.loads(result.output)
    assert doc["splits"] == {"held_out": 0, "tuning": 1} and doc["verdict"] == "inconclusive"
    assert [r["id"] for r in doc["results"]] == ["steer_01"]
    assert doc["reasons"] == ["split: a run of the tuning split only gives no verdict"]
    text = run("--split", "tuning", "--scenarios", str(folder)).output  # the text shows the tuning numbers
    assert "the numbers below are the tuning split's" in text and "memory on   1/1 scenarios" in text
    markdown = render_markdown(doc, charts=False)
    assert all(h in markdown for h in ("## Paired outcomes (tuning split)", "## Metrics (memory on, tuning split)", "## Categories (tuning split)"))
    (tmp_path / "other").mkdir()
    only_held_out = small_fixture(tmp_path / "other", ["durable_correction_02"])
    assert run("--split", "tuning", "--scenarios", str(only_held_out)).exit_code == 2  # nothing to run


def test_a_scenario_whose_run_fails_is_left_out_and_said(tmp_path: Path) -> None:
    """A model policy that keeps failing on one scenario does not abort the run: that pair is left
    out, both arms, named in the JSON and the summary, and the verdict cannot be a pass."""
    from tact_memory.eval.scenarios import Brief
    from tact_memory.eval.scripted import ScriptedPolicy

    class Failing:
        name = "failing-on-steer"

        def model(self, brief: Brief) -> Any:
            inner = ScriptedPolicy().model(brief)
            if any(task_id == "typo_pr" for task_id, _, _ in brief.tasks.values()):
                def broken(request: Any) -> Any:
                    raise ConnectionError("the provider keeps dropping the connection")

                return broken
            return inner

    folder = small_fixture(tmp_path, ["steer_02", "durable_correction_02"])
    doc = evaluate(Failing(), scenario_dir=folder).to_json()
    assert [d["id"] for d in doc["dropped"]] == ["steer_02"] and "ConnectionError" in doc["dropped"][0]["error"]
    assert [r["id"] for r in doc["results"]] == ["durable_correction_02"]
    assert doc["verdict"] == "inconclusive" and any(r.startswith("completeness:") for r in doc["reasons"])
    assert any(line.startswith("dropped     steer_02") for line in summary_lines(doc))


def test_a_failing_check_on_unregistered_scenarios_is_inconclusive(tmp_path: Path) -> None:
    """Scenarios other than the registered held-out set decide nothing: a latency budget no
    operation can meet fails its check, which is listed, but the verdict is inconclusive."""
    folder = small_fixture(tmp_path, ["durable_correction_02"])
    text = default_thresholds_path().read_text(encoding="utf-8")
    assert "scan = 250.0" in text
    thresholds = tmp_path / "thresholds.toml"
    thresholds.write_text(text.replace("scan = 250.0", "scan = 0.000001"), encoding="utf-8")
    result = run("--json", "--scenarios", str(folder), "--thresholds", str(thresholds))
    doc = json.loads(result.output)
    statuses = {c["name"]: c["status"] for c in doc["checks"]}
    assert statuses["latency_scan_p95_ms"] == "fail" and statuses["registration"] == "inconclusive"
    assert doc["verdict"] == "inconclusive" and result.exit_code == 1


@pytest.mark.parametrize("where", ["file/sub", "file/sub/deeper"])
def test_a_report_folder_that_cannot_be_one_is_refused_before_the_run(tmp_path: Path, where: str) -> None:
    """A --report path that runs through a file is one line and exit 2 before any scenario runs
    (it was a traceback after the whole run), and nothing is created. (A path that is a file
    itself is click's usage error, exit 2 too.)"""
    folder = small_fixture(tmp_path, ["durable_correction_02"])
    (tmp_path / "file").write_text("not a folder", encoding="utf-8")
    result = run("--scenarios", str(folder), "--report", str(tmp_path / where))
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == f"tact-memory: {tmp_path / where}: cannot be a report folder: {tmp_path / 'file'} is not a folder\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "scenarios"]


def _not_utf8(path: Path) -> None:
    path.write_bytes(path.read_bytes() + b"\n# \xff\n")


@pytest.mark.parametrize("broken", ["scenario", "thresholds", "background"])
def test_a_file_that_is_not_utf8_is_one_line_and_exit_2(tmp_path: Path, broken: str) -> None:
    """An evaluation that cannot run exits 2 with one line naming the file, never a traceback, and
    never 1, which is a verdict other than pass."""
    folder = small_fixture(tmp_path, ["durable_correction_02"])
    (folder / "background").mkdir()
    corpus = folder / "background" / "corpus.toml"
    corpus.write_text(default_scenario_dir().joinpath("background", "corpus.toml").read_text(encoding="utf-8"), encoding="utf-8")
    thresholds = tmp_path / "thresholds.toml"
    thresholds.write_text(default_thresholds_path().read_text(encoding="utf-8"), encoding="utf-8")
    target = {"scenario": folder / "durable_correction_02.toml", "thresholds": thresholds, "background": corpus}[broken]
    _not_utf8(target)
    for extra in ([], ["--tune"]):
        result = CliRunner().invoke(cli, ["eval", "--scenarios", str(folder), "--thresholds", str(thresholds), *extra])
        assert result.exit_code == 2, result.exception  # an uncaught exception would be 1
        assert result.stdout == "" and result.stderr.count("\n") == 1
        assert str(target) in result.stderr and "not UTF-8" in result.stderr and "0xff" in result.stderr


def test_help_has_an_example() -> None:
    out = CliRunner().invoke(cli, ["eval", "--help"]).output
    assert "Example:" in out and "--policy" in out and "--report" in out and "--json" in out
