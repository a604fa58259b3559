"""The body of ``tact-memory eval``: progress, output, report and exit code.

Kept here so the command in :mod:`tact_memory.cli.app` stays a few lines and the eval package is loaded
only when the command runs. Output goes to stdout (JSON or a short text summary); the progress bar
goes to stderr, and only when stderr is a terminal and ``--json`` is off.

Exit codes: 0 for a ``pass``, 1 for ``fail`` or ``inconclusive`` (:data:`VERDICT_NOT_PASSED`), and 2
when the evaluation could not run (:data:`COULD_NOT_RUN`: a scenario, thresholds or background file
that cannot be used, no scenario of the split, a policy that cannot run, a report folder that cannot
be written), with one line on stderr, as for bad command-line usage. So a CI job can accept a
verdict other than pass and still stop on an evaluation that never happened.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Literal

import click

from .evaluation import Evaluation, evaluate, measured, run_order
from .formatting import confidence, number, p_value, text_table
from .policies import Policy, resolve_policy
from .scenarios import EvalError

__all__ = ["COULD_NOT_RUN", "VERDICT_NOT_PASSED", "bounds_lines", "run_command", "summary_lines", "tune_lines"]

VERDICT_NOT_PASSED = 1
"""The exit code of a verdict of ``fail`` or ``inconclusive``."""
COULD_NOT_RUN = 2
"""The exit code of an evaluation that could not run (an :class:`EvalError`), like bad usage."""

SWEEP_COLUMNS = ("k1", "b", "stop_words", "fold", "limit", "scan_recall", "mrr", "scan_precision", "scan_abstention")
"""The columns of the ``--tune`` table: the constants tried, then the scores they got."""
SWEEP_ROWS = 12


def summary_lines(doc: dict[str, Any]) -> list[str]:
    """The text summary printed without ``--json``."""
    split, numbers = measured(doc)
    p, m = numbers["paired"], numbers["metrics"]
    on, off = p["memory_on"], p["memory_off"]
    added = m["context_added"]

    f = number
    level = confidence(p["alpha"])
    lines = [
        f"policy      {doc['policy']}",
        f"scenarios   {doc['splits']['held_out']} held-out (verdict), {doc['splits']['tuning']} tuning, "
        + (f"background corpus of {number(doc['background']['records'])} records" if doc["background"]["used"]
           else "no background corpus")
        + ("" if split == "held-out" else "; the numbers below are the tuning split's"),
        f"memory on   {f(on['scenarios_passed'])}/{f(p['scenarios'])} scenarios, task success {f(on['task_success'])}",
        f"memory off  {f(off['scenarios_passed'])}/{f(p['scenarios'])} scenarios, task success {f(off['task_success'])}",
        f"gain        {f(p['gain'])}, {level} interval {f(p['gain_interval'])} (McNemar {p_value(p['p_value'])})",
        f"retrieval   precision@5 {f(m['scan_precision_at_5'])}, recall@5 {f(m['scan_recall_at_5'])}, "
        f"read precision {f(m['read_precision'])}, MRR {f(m['mrr'])}, lookups {f(m['lookup_rate'])}",
        f"abstention  {f(m['abstention_accuracy'])} over {f(m['abstention_cases'])} cases, interval {f(m['abstention_interval'])}",
        f"context     {_signed(added['per_session_mean'])} tokens a session (mean), {_signed(added['per_session_max'])} at most; "
        f"{f(m['memory_tokens']['tokens_without_call'])} stored tokens without a call",
    ]
    lines += bounds_lines(doc["metrics"].get("bounds", []))
    if doc.get("dropped"):
        lines.append(f"dropped     {', '.join(d['id'] for d in doc['dropped'])} (their runs failed)")
    refused = [f"{r['id']} (memory {arm})" for r in doc.get("results", []) for arm in r.get("errors", {})]
    if refused:
        lines.append(f"refused     {', '.join(refused)} (the provider refused a request; that arm's tasks failed)")
    lines.append(f"verdict     {doc['verdict']}")
    return lines + [f"  - {reason}" for reason in doc["reasons"]]


def bounds_lines(probes: list[dict[str, Any]]) -> list[str]:
    """The summary's line on the bounds probe: each bound with the error its crossing got, and
    whether every refusal left the store as it was and a delete still worked (timings are in the
    JSON and the report, so this line reads the same on every machine)."""
    if not probes:
        return []
    each = ", ".join(f"{p['bound']} {number(p['limit'])} {p['error'] or 'ACCEPTED'}" for p in probes)
    kept = all(p["unchanged"] for p in probes)
    deleted = all(p["delete_works"] for p in probes)
    return [f"bounds      {each}; {'nothing changed' if kept else 'A REFUSAL CHANGED THE STORE'}, "
            f"{'delete works at each' if deleted else 'A DELETE FAILED AT A BOUND'}"]  # fmt: skip


def _signed(value: float | None) -> str:
    return "n/a" if value is None else ("+" if value >= 0 else "-") + number(abs(value))


def run_command(
    *,
    as_json: bool,
    report_dir: str | None,
    policy: str,
    scenarios: str | None,
    thresholds: str | None,
    tune: bool,
    split: Literal["all", "tuning"] = "all",
) -> int:
    """Run the evaluation the way the command line asked; returns the exit code."""
    chosen: str | Policy = policy
    if policy != "scripted":
        # Resolve a model policy before any work: a missing provider or an unknown model is a
        # problem of the command line or the environment (exit 2), not an evaluation outcome.
        try:
            chosen = resolve_policy(policy)
        except EvalError as exc:
            click.echo(f"tact-memory: {exc.message}", err=True)
            return COULD_NOT_RUN
    try:
        if report_dir is not None and not tune:
            from .report import check_report_dir

            check_report_dir(Path(report_dir))  # before the run, not after an hour of it
        if tune:
            return _tune(chosen, scenarios, thresholds)
        evaluation = _run(as_json, chosen, scenarios, thresholds, split)
    except EvalError as exc:
        click.echo(f"tact-memory: {exc.message}", err=True)
        return COULD_NOT_RUN
    finally:
        close = getattr(chosen, "close", None)
        if callable(close):
            close()
    doc = evaluation.to_json()
    if as_json:
        click.echo(json.dumps(doc, ensure_ascii=False))
    else:
        click.echo("\n".join(summary_lines(doc)))
    if report_dir is not None:
        from .report import write_report

        try:
            written = write_report(evaluation, Path(report_dir))
        except EvalError as exc:
            click.echo(f"tact-memory: {exc.message}", err=True)
            return COULD_NOT_RUN
        if not as_json:
            click.echo(f"report      {written[0]}")
    return 0 if evaluation.verdict.outcome == "pass" else VERDICT_NOT_PASSED


def _run(
    as_json: bool, policy: str | Policy, scenarios: str | None, thresholds: str | None, split: Literal["all", "tuning"]
) -> Evaluation:
    folder = Path(scenarios) if scenarios else None
    limits = Path(thresholds) if thresholds else None
    if as_json or not sys.stderr.isatty():
        return evaluate(policy, scenario_dir=folder, thresholds_path=limits, split=split)
    from .scenarios import load_scenarios

    total = len(run_order(load_scenarios(folder), split))
    with click.progressbar(length=total, label="evaluating", file=sys.stderr) as bar:
        return evaluate(policy, scenario_dir=folder, thresholds_path=limits, split=split, progress=lambda _: bar.update(1))


def _tune(policy: str | Policy, scenarios: str | None, thresholds: str | None) -> int:
    from .runner import run_pairs
    from .scenarios import load_background, load_scenarios
    from .tuning import retrieval_cases, sweep
    from .verdict import load_thresholds

    folder = Path(scenarios) if scenarios else None
    registered = load_thresholds(Path(thresholds) if thresholds else None)
    loaded, background = load_scenarios(folder), load_background(folder)
    tuning = run_order(loaded, "tuning")
    chosen = resolve_policy(policy, options=registered.scripted_policy.model_dump()) if isinstance(policy, str) else policy
    pairs = run_pairs(tuning, chosen, background=background)
    rows = sweep(retrieval_cases(pairs))
    click.echo("\n".join(tune_lines(len(tuning), registered.constants.model_dump(), rows)))
    return 0


def tune_lines(scenarios: int, registered: dict[str, Any], rows: list[dict[str, Any]]) -> list[str]:
    """The ``--tune`` output: the registered constants, then the best rows of the sweep, as tables."""
    lines = [f"{number(scenarios)} tuning scenarios", "", "registered constants (thresholds.toml)"]
    lines += text_table(("constant", "value"), [(name, _constant(value)) for name, value in registered.items()])
    lines += ["", f"sweep, best {number(min(SWEEP_ROWS, len(rows)))} of {number(len(rows))}"]
    lines += text_table(SWEEP_COLUMNS, [[row[name] for name in SWEEP_COLUMNS] for row in rows[:SWEEP_ROWS]])
    return lines


def _constant(value: Any) -> Any:
    """A registered constant for a table cell: lists and sets joined, numbers left to :func:`number`."""
    if isinstance(value, (list, tuple, set, frozenset)):
        return ", ".join(str(item) for item in value)
    return value
