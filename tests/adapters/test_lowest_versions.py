"""CI tests the framework adapters, the browser and the command line against the lowest releases
the project allows them, and the README says which."""

from __future__ import annotations

import re
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]

PINNED_PACKAGES = {"pydantic-ai-slim", "langchain", "langchain-core", "mcp", "openai-agents", "textual", "click"}


def _release(version: str) -> tuple[int, ...]:
    parts = tuple(int(p) for p in version.split("."))
    return parts + (0,) * (3 - len(parts))


def _bounds() -> dict[str, list[str]]:
    """Every ``name>=version`` of the dependencies and the extras: name → the lower bounds it is
    given (one per list that names it)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    bounds: dict[str, list[str]] = {}
    for requirements in [project["dependencies"], *project["optional-dependencies"].values()]:
        for requirement in requirements:
            match = re.fullmatch(r"([\w-]+)(?:\[[\w,-]+\])?>=([\d.]+)(?:; .*)?", requirement)
            if match is not None:
                bounds.setdefault(match.group(1), []).append(match.group(2))
    return bounds


def _ci_pins() -> dict[str, str]:
    block = re.search(r"^lowest=\((.*?)^\)", (ROOT / ".ci" / "run").read_text(encoding="utf-8"), flags=re.S | re.M)
    assert block is not None, ".ci/run has no lowest=( ... ) list"
    return dict(re.findall(r"([\w-]+)==([\d.]+)", block.group(1)))


def test_ci_pins_are_the_lower_bounds_of_the_extras() -> None:
    bounds, pins = _bounds(), _ci_pins()
    assert set(pins) == PINNED_PACKAGES
    for name, version in pins.items():
        # Every extra that names the package (mcp is in [mcp] and [team]) allows the same lowest release.
        assert {_release(b) for b in bounds[name]} == {_release(version)}, name


def test_the_readme_lists_the_tested_lowest_releases() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("### Supported releases") :]
    rows = dict(re.findall(r"^\| `([\w-]+)` \| ([\d.]+) \|", section, flags=re.M))
    assert rows == _ci_pins()
