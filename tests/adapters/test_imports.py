"""Each adapter imports its own framework and no other; the package itself imports none."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import tact_memory.adapters

FRAMEWORKS = {"mcp", "mcp_types", "pydantic_ai", "pydantic_graph", "langchain", "langchain_core", "langgraph", "agents"}
OWN = {
    "mcp": {"mcp"},
    "pydantic_ai": {"pydantic_ai"},
    "langchain": {"langchain", "langchain_core", "langgraph"},
    "openai_agents": {"agents"},
}
PACKAGE = Path(tact_memory.adapters.__file__).parent


def imported_packages(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.partition(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.partition(".")[0])
    return names


@pytest.mark.parametrize("module", sorted(OWN))
def test_an_adapter_imports_only_its_own_framework(module: str) -> None:
    assert imported_packages(PACKAGE / f"{module}.py") & FRAMEWORKS == OWN[module]


def test_the_package_imports_no_framework() -> None:
    assert imported_packages(PACKAGE / "__init__.py") & FRAMEWORKS == set()
    code = "import json, sys, tact_memory.adapters; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert not FRAMEWORKS & set(json.loads(out))
