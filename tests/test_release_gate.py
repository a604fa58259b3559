"""The ``release_gate`` marker selects exactly the tests the README maps to the specification."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def marked_tests() -> set[str]:
    found = set()
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if any("release_gate" in ast.unparse(d) for d in node.decorator_list):
                    found.add(f"{path.relative_to(ROOT).as_posix()}::{node.name}")
    return found


def readme_tests() -> set[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Release gate", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"`(tests/[\w/]+\.py::\w+)`", section))


def test_readme_maps_every_gate_test_and_no_other() -> None:
    assert marked_tests() == readme_tests()


def test_every_specification_item_has_a_test() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Release gate", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and "tests/" in line]
    items = " ".join(row.split("|")[1] for row in rows)
    for item in ("zero corpus tokens", "child mutation", "version", "atomic", "storage bounds", "output bounds", "delete confirmation", "secret"):
        assert item in items, item
