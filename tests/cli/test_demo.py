"""``tact-memory demo``: the scripted story shows every rule it claims to."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from syrupy.assertion import SnapshotAssertion

from tact_memory.cli.demo import render_text, run_demo
from tact_memory.screening.checkpoint import CHECKPOINT_TEXT


def fixed_clock() -> Any:
    ticks = itertools.count()
    return lambda: 1_800_000_000_000 + 1000 * next(ticks)


def demo_json(tmp_path: Path) -> dict[str, Any]:
    return run_demo(tmp_path, clock=fixed_clock()).to_json()


def test_demo_json_snapshot(tmp_path: Path, snapshot: SnapshotAssertion) -> None:
    assert demo_json(tmp_path) == snapshot


def test_demo_shows_the_checkpoint_rules(tmp_path: Path) -> None:
    data = demo_json(tmp_path)
    assert data["checkpoint"] == CHECKPOINT_TEXT
    first, second = data["sessions"]
    assert (first["kind"], second["kind"]) == ("new", "new")
    root_requests = [r for r in first["model_requests"] if r["agent"] == "root"]
    final = root_requests[-1]["messages"]
    submissions = [m for m in final if m["kind"] in ("user", "steer")]
    assert [m["kind"] for m in submissions] == ["user", "user", "steer"]
    assert CHECKPOINT_TEXT not in submissions[0]["parts"]
    assert submissions[1]["parts"][-1] == CHECKPOINT_TEXT and submissions[2]["parts"][-1] == CHECKPOINT_TEXT
    assert all(CHECKPOINT_TEXT not in e["text"] for s in data["sessions"] for e in s["transcript"])
    assert [e["text"] for e in first["transcript"] if e["role"] == "user"][1].startswith("No: in commonware")


def test_demo_child_is_refused_and_the_later_session_reads_the_facts_back(tmp_path: Path) -> None:
    data = demo_json(tmp_path)
    first, second = data["sessions"]
    child = [r for r in first["model_requests"] if r["agent"] != "root"][-1]["messages"]
    results = [json.loads(m["parts"][0]) for m in child if m["kind"] == "tool_result"]
    assert [r.get("error", {}).get("code") for r in results] == [None, None, "forbidden"]
    assert len(results[1]["memories"]) == 2
    later = second["model_requests"][-1]["messages"]
    read = [json.loads(m["parts"][0]) for m in later if m["kind"] == "tool_result"][-1]
    assert {m["key"]["id"] for m in read["memories"]} == {1, 2}
    assert "commonware-v" in read["memories"][1]["content"]
    assert [r["content"] for r in data["records"]] == [m["content"] for m in sorted(read["memories"], key=lambda m: m["key"]["id"])]
    first_request = second["model_requests"][0]
    assert all("commonware-vX" not in p for m in first_request["messages"] for p in m["parts"])  # I2


def test_demo_text_is_readable(tmp_path: Path, snapshot: SnapshotAssertion) -> None:
    text = render_text(run_demo(tmp_path, clock=fixed_clock()))
    assert "[+ review checkpoint, model-only]" in text and '"code": "forbidden"' in text
    assert text == snapshot


def test_demo_command_runs_offline_in_a_real_process(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "tact_memory.cli", "demo", "--json"],
        capture_output=True, text=True, timeout=120, check=True, cwd=tmp_path,
    )  # fmt: skip
    assert json.loads(proc.stdout)["checkpoint"] == CHECKPOINT_TEXT
    assert list(tmp_path.iterdir()) == []  # the demo cleans up after itself
