"""CI tests each framework adapter against the lowest release its extra allows."""

from __future__ import annotations

import re
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]


def test_ci_pins_are_the_lower_bounds_of_the_extras() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    bounds = dict(re.fullmatch(r"([\w-]+)(?:\[[\w,-]+\])?>=([\d.]+)", req).groups() for reqs in extras.values() for req in reqs if ">=" in req)
    pins = re.findall(r'"([\w-]+)==([\d.]+) (tests/\S+)"', (ROOT / ".ci" / "run").read_text(encoding="utf-8"))
    assert {name for name, _, _ in pins} == {"pydantic-ai-slim", "openai-agents"}
    for name, version, tests in pins:
        assert version.split(".")[:2] == bounds[name].split(".")[:2] and version.endswith(".0"), name
        assert (ROOT / tests).is_file()
