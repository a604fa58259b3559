"""Every stored snapshot belongs to a test that exists.

syrupy reports a snapshot no test uses only when one process runs every test; split or parallel
runs (``-m``, ``-k``, ``-n``) say nothing. This check reads the snapshot files and the test
modules' source, so it holds in any run: a snapshot of a test that was renamed or removed fails
here by name. (A parametrization or a ``snapshot(name=...)`` dropped from a test that remains is
left to the one-process run.)
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

TESTS = Path(__file__).parent


def _tests_of(module: Path) -> set[str]:
    """The test functions ``module`` defines, as syrupy names them (``Class.test`` in a class)."""
    names: set[str] = set()
    for node in ast.parse(module.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            names.update(
                f"{node.name}.{item.name}"
                for item in node.body
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name.startswith("test")
            )
    return names


def _test_name(snapshot: str) -> str:
    """The test a snapshot's name comes from: without its parameters or custom name in brackets,
    and without the index of a test's second and later snapshots."""
    return re.sub(r"\.\d+$", "", snapshot.split("[", 1)[0])


def _stored() -> list[tuple[Path, str]]:
    """``(test module, snapshot name)`` of every stored snapshot: the entries of each amber file,
    and the files of a module's folder of image snapshots."""
    found = []
    for folder in sorted(TESTS.rglob("__snapshots__")):
        for path in sorted(folder.iterdir()):
            if path.is_file() and path.suffix == ".ambr":
                module = folder.parent / f"{path.stem}.py"
                text = path.read_text(encoding="utf-8")
                found += [(module, name) for name in re.findall(r"^# name: (.+)$", text, flags=re.MULTILINE)]
            elif path.is_dir():
                found += [(folder.parent / f"{path.name}.py", image.stem) for image in sorted(path.iterdir()) if image.is_file()]
    return found


def test_the_snapshot_files_are_found() -> None:
    stored = _stored()
    assert len({module for module, _ in stored}) >= 9 and len(stored) >= 40


@pytest.mark.parametrize(("module", "snapshot"), _stored(), ids=lambda value: value.name if isinstance(value, Path) else value)
def test_every_snapshot_belongs_to_a_test_that_exists(module: Path, snapshot: str) -> None:
    assert module.is_file(), f"{snapshot}: no test module {module.relative_to(TESTS)} for this snapshot"
    assert _test_name(snapshot) in _tests_of(module), f"{module.relative_to(TESTS)} has no test {_test_name(snapshot)!r}"


@pytest.mark.parametrize(
    ("snapshot", "test"),
    [
        ("test_list_export_and_delete", "test_list_export_and_delete"),
        ("test_each_dialect_snapshot[anthropic-strict]", "test_each_dialect_snapshot"),
        ("test_promoted_steer.1", "test_promoted_steer"),
        ("test_x[v1.2]", "test_x"),
        ("TestScreen.test_list[narrow].2", "TestScreen.test_list"),
    ],
)
def test_a_snapshots_test_is_its_name_without_parameters_or_index(snapshot: str, test: str) -> None:
    assert _test_name(snapshot) == test
