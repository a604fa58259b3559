"""The Markdown report and its charts.

:func:`write_report` writes ``report.md`` and three PNG charts into a folder: retrieval precision and
recall per category, memory-on versus memory-off success per category, and p50/p95 latency per
operation. Every bar carries its value, and a category with nothing to measure shows ``n/a`` where
its bar would be, so a missing value never looks like a zero. matplotlib is imported inside
:func:`bar_chart`, with the non-interactive Agg backend, so neither ``import tact_memory`` nor a run
without ``--report`` loads it. The Markdown is built by :func:`render_markdown`, a pure function of
the JSON document, so it can be tested without files. Numbers follow
:mod:`~tact_memory.eval.formatting`, as in the text summary.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .evaluation import Evaluation, measured
from .formatting import confidence, number, p_value
from .scenarios import EvalError

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["bar_chart", "bar_labels", "check_report_dir", "render_markdown", "write_report"]

CHARTS = {
    "retrieval": "retrieval_by_category.png",
    "outcomes": "outcomes_by_category.png",
    "latency": "latency_by_operation.png",
}


def _table(header: list[str], rows: list[list[Any]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(number(cell) for cell in row) + " |" for row in rows]
    return lines + [""]


def render_markdown(doc: dict[str, Any], *, charts: bool = True) -> str:
    """The report for a ``--json`` document."""
    split, numbers = measured(doc)
    m, p, cats = numbers["metrics"], numbers["paired"], numbers["categories"]
    on, off = p["memory_on"], p["memory_off"]
    out = [
        "# tact-memory paired evaluation",
        "",
        f"**Verdict: {doc['verdict']}** (policy `{doc['policy']}`, {doc['splits']['held_out']} held-out scenarios, "
        f"{doc['splits']['tuning']} tuning scenarios, "
        + (f"a background corpus of {number(doc['background']['records'])} records" if doc["background"]["used"] else "no background corpus")
        + f", tact-memory {doc['version'] or 'from a checkout'}, {doc['seconds']:.1f} s).",
        "",
    ]
    out += [f"- {reason}" for reason in doc["reasons"]] + ([""] if doc["reasons"] else [])
    out += ["## Kill criteria (held-out split)", ""]
    out += _table(["check", "status", "value", "threshold", "detail"],
                  [[c["name"], c["status"], c["value"] if not isinstance(c["value"], dict) else "see below",
                    c["threshold"] if not isinstance(c["threshold"], dict) else "registered", c["detail"]]
                   for c in doc["checks"]])  # fmt: skip
    out += [f"## Paired outcomes ({split} split)", ""]
    columns = ["scenarios_passed", "scenario_success", "task_success", "contradiction_rate", "false_retrieval_rate", "cross_workspace_rate"]
    out += _table(["arm", "scenarios passed", "scenario success", "task success", "contradiction rate",
                   "false retrieval rate", "cross-workspace rate"],
                  [["memory on", *(on[c] for c in columns)], ["memory off", *(off[c] for c in columns)]])  # fmt: skip
    level = confidence(p["alpha"])
    out += [f"Gain {number(p['gain'])}, {level} interval {number(p['gain_interval'])}; discordant pairs: "
            f"{number(p['memory_on_only'])} only with memory, {number(p['memory_off_only'])} only without; "
            f"exact McNemar {p_value(p['p_value'])}. Arm order: memory on ran first in "
            f"{number(p['first_arm'].get('on', 0))} pairs, off first in {number(p['first_arm'].get('off', 0))}.", ""]  # fmt: skip
    out += _table(["rate, memory on minus off", "tasks", "counts (both, only on, only off, neither)", "difference", f"{level} interval"],
                  [[name.replace("_", " "), v["tasks"], v["counts"], v["difference"], v["interval"]]
                   for name, v in p["non_inferiority"].items()])  # fmt: skip
    if doc.get("dropped"):
        out += ["Scenarios left out because their run failed:", ""] + [f"- {d['id']}: {d['error']}" for d in doc["dropped"]] + [""]
    refused = [f"- {r['id']} (memory {arm}): {error}" for r in doc["results"] for arm, error in r.get("errors", {}).items()]
    if refused:
        out += ["Arms the provider refused a request of (the tasks they did not reach failed):", "", *refused, ""]
    if charts:
        out += [f"![on versus off]({CHARTS['outcomes']})", ""]
    out += [f"## Metrics (memory on, {split} split)", ""]
    flat = [[k, v] for k, v in m.items() if not isinstance(v, dict) and k != "bounds"]
    out += _table(["metric", "value"], flat)
    out += _table(["operation", "p50 ms", "p95 ms", "calls"],
                  [[op, v["p50"], v["p95"], v["n"]] for op, v in m["latency_ms"].items()])  # fmt: skip
    out += _table(["context memory adds (on minus off, per session)", "value"], [[k, v] for k, v in m["context_added"].items()])
    out += _table(["stored text entering context", "value"], [[k, v] for k, v in m["memory_tokens"].items()])
    out += _table(["writes and disk", "value"],
                  [[f"correct_replacements.{k}", v] for k, v in m["correct_replacements"].items()]
                  + [[f"correct_retractions.{k}", v] for k, v in m["correct_retractions"].items()]
                  + [[f"refused_writes.{k}", v] for k, v in m["refused_writes"].items()]
                  + [[f"disk_bytes.{k}", v] for k, v in m["disk_bytes"].items()]
                  + [[f"operations.{k}", v] for k, v in m["operations"].items() if not isinstance(v, dict)])  # fmt: skip
    if charts:
        out += [f"![latency]({CHARTS['latency']})", ""]
    probes = doc["metrics"].get("bounds", [])
    if probes:
        out += ["## Bounds", "", "Each bound reached in a temporary store, then the operation that would cross it:", ""]
        out += _table(["bound", "limit", "attempt", "error", "nothing changed", "ms", "delete at the bound"],
                      [[p["bound"], p["limit"], p["attempt"], p["error"] or "accepted", p["unchanged"], p["latency_ms"],
                        p["delete_works"]] for p in probes])  # fmt: skip
    out += [f"## Categories ({split} split)", ""]
    out += _table(["category", "scenarios", "on success", "off success", "precision@5", "recall@5", "read precision", "abstention"],
                  [[name, c["scenarios"], c["memory_on_success"], c["memory_off_success"], c["scan_precision_at_5"],
                    c["scan_recall_at_5"], c["read_precision"], c["abstention_accuracy"]] for name, c in cats.items()])  # fmt: skip
    if charts:
        out += [f"![retrieval by category]({CHARTS['retrieval']})", ""]
    out += ["## Scenarios", ""]
    out += _table(["scenario", "category", "split", "first arm", "memory on", "memory off", "failed tasks"],
                  [[r["id"], r["category"], r["split"], r["first"], r["memory_on"], r["memory_off"],
                    "; ".join(f"{arm}: {', '.join(ts)}" for arm, ts in r["failed_tasks"].items() if ts)] for r in doc["results"]])  # fmt: skip
    t = doc["tuning"]
    out += ["## Tuning split (not used for the verdict)", ""]
    out += _table(["metric", "value"], [["gain", t["paired"]["gain"]]] + [[k, v] for k, v in t["metrics"].items() if not isinstance(v, dict)])
    out += ["## Thresholds (pre-registered)", "", "```", _dump(doc["thresholds"]), "```", ""]
    return "\n".join(out)


def _dump(value: Any, indent: str = "") -> str:
    lines = []
    for key, item in value.items():
        if isinstance(item, dict):
            lines.append(f"{indent}{key}:")
            lines.append(_dump(item, indent + "  "))
        else:
            lines.append(f"{indent}{key}: {number(item)}")
    return "\n".join(lines)


def check_report_dir(directory: Path) -> None:
    """Refuse, before any work, a report folder that could not be written: a file in its place or
    on its path, or a folder this process may not write in. Nothing is created; a folder that
    does not exist yet is made by :func:`write_report`.

    Raises:
        EvalError: naming the folder and what is wrong with it.
    """
    existing = directory
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise EvalError(f"{directory}: cannot be a report folder: {existing} is not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise EvalError(f"{directory}: cannot be a report folder: {existing} is not writable")


def write_report(evaluation: Evaluation, directory: Path) -> list[Path]:
    """Write ``report.md`` and the charts into ``directory`` (created if needed); return the paths.

    Raises:
        EvalError: the folder or a file in it cannot be written.
    """
    doc = evaluation.to_json()
    try:
        directory.mkdir(parents=True, exist_ok=True)
        paths = _charts(doc, directory)
        report = directory / "report.md"
        report.write_text(render_markdown(doc), encoding="utf-8")
    except OSError as exc:
        where = exc.filename or directory
        raise EvalError(f"{where}: cannot write the report: {exc.strerror or exc}") from exc
    return [report, *paths]


def bar_labels(values: Sequence[float | None]) -> list[str]:
    """The label over each bar: its value, or ``n/a`` where nothing was measured."""
    return [number(value) for value in values]


def bar_chart(title: str, series: dict[str, list[float | None]], labels: list[str], ylabel: str) -> Figure:
    """Grouped bars, one group per label and one bar per series, each with its value written on it.

    A ``None`` value draws no bar and writes ``n/a`` at the foot of its place.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(max(6.0, len(labels) * 0.9), 4.2))
    width = 0.8 / max(len(series), 1)
    top = max((v for values in series.values() for v in values if v is not None), default=0.0) or 1.0
    for i, (label, values) in enumerate(series.items()):
        xs = [x + i * width for x in range(len(labels))]
        bars = ax.bar(xs, [v or 0.0 for v in values], width, label=label)
        ax.bar_label(bars, labels=bar_labels(values), padding=2, fontsize=7, rotation=90)
    ax.set_xticks([x + width * (len(series) - 1) / 2 for x in range(len(labels))])
    ax.set_xticklabels(labels, rotation=35, ha="right", fontsize=8)
    ax.set_ylim(0, top * 1.45)  # headroom for the value labels and the legend above the bars
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=8, loc="upper right", ncol=len(series))
    fig.tight_layout()
    return fig


def _charts(doc: dict[str, Any], directory: Path) -> list[Path]:
    import matplotlib.pyplot as plt

    numbers = measured(doc)[1]
    names = list(numbers["categories"])
    cats = numbers["categories"]
    lat = numbers["metrics"]["latency_ms"]
    ops = list(lat)

    def values(key: str) -> list[float | None]:
        return [None if cats[n][key] is None else float(cats[n][key]) for n in names]

    def ms(key: str) -> list[float | None]:
        return [None if lat[o][key] is None else float(lat[o][key]) for o in ops]

    charts = [
        (CHARTS["retrieval"], "Scan retrieval per category (memory on)",
         {"precision@5": values("scan_precision_at_5"), "recall@5": values("scan_recall_at_5")}, names, "share"),
        (CHARTS["outcomes"], "Scenario success, memory on versus off",
         {"memory on": values("memory_on_success"), "memory off": values("memory_off_success")}, names, "share"),
        (CHARTS["latency"], "Memory tool latency", {"p50": ms("p50"), "p95": ms("p95")}, ops, "ms"),
    ]  # fmt: skip
    paths = []
    for path, title, series, labels, ylabel in charts:
        fig = bar_chart(title, series, labels, ylabel)
        fig.savefig(directory / path, dpi=110)
        plt.close(fig)
        paths.append(directory / path)
    return paths
