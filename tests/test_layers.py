"""The package's layers, checked from the source: who may import whom, and no import cycles.

Every ``import`` and ``from … import`` in the package is read with :mod:`ast`, at module level and
inside functions (a lazy import is still a dependency), except under ``if TYPE_CHECKING:``; the
package's lazy export table (``_EXPORTS``: name -> module, imported on first use) counts too. The
rules are the map in the README: pure logic at the bottom, then configuration, storage, the tool,
the runtime, and the faces and adapters on top; each layer imports only from below it.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "tact_memory"

PURE = {"values", "errors", "limits", "records", "backend", "clock", "deadline", "retrieval", "screening"}
LAYERS: dict[str, set[str]] = {
    # part of the package -> the parts it may import (besides itself)
    "values": set(),
    "errors": set(),
    "limits": {"values"},
    "clock": set(),
    "deadline": set(),
    "records": {"limits", "values"},
    "backend": {"limits", "records", "values"},
    "retrieval": {"limits", "errors", "values"},
    "screening": {"limits", "retrieval", "values"},
    "config": {"errors", "limits", "values"},
    "store": PURE,
    "tool": PURE,
    "runtime": PURE | {"config", "tool", "store"},
    "testing": PURE | {"config", "tool", "runtime"},
    "adapters": PURE | {"config", "tool", "runtime"},
    "integrations": {"adapters"},
    "hooks": {"screening"},  # runs before every prompt: the standard library and the checkpoint text
    "team": PURE | {"config", "store", "tool", "runtime", "adapters"},
    "browser": PURE | {"config", "store"},
    "cli": PURE | {"config", "store", "tool", "runtime", "testing", "adapters", "browser", "eval", "hooks", "team"},
    "eval": PURE | {"config", "store", "tool", "runtime", "testing"},
    "__init__": PURE | {"config", "store", "tool", "runtime"},
}
"""What each top-level part of the package may import. ``__init__`` is the public face."""

FOREIGN_BANNED: dict[str, set[str]] = {
    "retrieval": {"sqlite3", "pydantic", "typing", "click", "textual", "mcp", "pydantic_ai", "langchain", "langchain_core"},
    "screening": {"sqlite3", "pydantic", "typing", "click", "textual", "mcp", "pydantic_ai", "langchain", "langchain_core"},
    "values": {"sqlite3", "pydantic", "dataclasses", "typing"},
    "records": {"sqlite3", "pydantic", "typing"},
    "limits": {"sqlite3", "pydantic", "typing"},
    "errors": {"sqlite3", "pydantic", "typing"},
    "clock": {"typing"},
    "deadline": {"typing"},
    "store": {"pydantic", "click", "textual", "mcp", "pydantic_ai", "langchain", "langchain_core"},
    "config": {"sqlite3", "pydantic", "click", "textual", "mcp", "pydantic_ai", "langchain", "langchain_core"},
    "runtime": {"sqlite3", "click", "textual", "mcp", "pydantic_ai", "langchain", "langchain_core"},
}
"""Third-party modules (and sqlite3, or typing) a part must not import at all, outside ``if TYPE_CHECKING:``.

Every ``tact-memory tool`` process imports the pure parts, and one that imports :mod:`typing` pays
for it in each call (``tests/cli/test_entry.py`` checks the whole process)."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports_of(path: Path) -> Iterator[str]:
    """Absolute names of every module ``path`` imports outside ``if TYPE_CHECKING:``."""
    module = module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))

    def walk(node: ast.AST) -> Iterator[str]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for other in child.orelse:
                    yield from walk(other)
                continue
            if isinstance(child, ast.Import):
                yield from (alias.name for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")
                    base = base[: len(base) - (child.level - 1)]
                    target = ".".join(base + ([child.module] if child.module else []))
                else:
                    target = child.module or ""
                yield target
                for alias in child.names:  # `from . import errors` imports a module
                    candidate = f"{target}.{alias.name}"
                    if _exists(candidate):
                        yield candidate
            yield from walk(child)

    yield from walk(tree)
    yield from (f"{package}.{target}" for target in _lazy_exports(tree))


def _lazy_exports(tree: ast.Module) -> Iterator[str]:
    """The modules named by a module-level ``_EXPORTS = {name: module}`` table (PEP 562 exports)."""
    for node in tree.body:
        if not isinstance(node, ast.AnnAssign):
            continue
        if isinstance(node.target, ast.Name) and node.target.id == "_EXPORTS" and isinstance(node.value, ast.Dict):
            yield from (v.value for v in node.value.values if isinstance(v, ast.Constant) and isinstance(v.value, str))


def _exists(module: str) -> bool:
    if not module.startswith("tact_memory"):
        return False
    rel = Path(*module.split(".")[1:]) if "." in module else Path()
    return (PACKAGE / rel).with_suffix(".py").is_file() or (PACKAGE / rel / "__init__.py").is_file()


def part_of(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1:
        return "__init__"
    return parts[1]


def graph() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        edges[module_name(path)] = set(imports_of(path))
    return edges


GRAPH = graph()


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_each_module_imports_only_from_the_layers_below(module: str) -> None:
    part = part_of(module)
    assert part in LAYERS, f"{module}: add its part to LAYERS and to the README's map"
    allowed = LAYERS[part] | {part}
    wrong = sorted(
        target for target in GRAPH[module]
        if target.startswith("tact_memory.") and part_of(target) not in allowed
    )  # fmt: skip
    assert not wrong, f"{module} ({part}) may not import {wrong}"
    banned = FOREIGN_BANNED.get(part, set())
    foreign = sorted(t for t in GRAPH[module] if t.split(".")[0] in banned)
    assert not foreign, f"{module} ({part}) may not import {foreign}"


def test_no_import_cycles() -> None:
    """Module-level and lazy imports alike: a cycle means two modules that are really one."""
    edges = {
        m: {t for t in targets if t in GRAPH and t != m and not m.startswith(t + ".")}
        for m, targets in GRAPH.items()
    }
    # A package's __init__ that re-exports its modules is not a cycle with them.
    for m in edges:
        edges[m] = {t for t in edges[m] if not t.startswith(m + ".")}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    counter = 0
    limit = sys.getrecursionlimit()

    def connect(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for target in edges[node]:
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    sys.setrecursionlimit(max(10_000, limit))
    try:
        for node in sorted(edges):
            if node not in index:
                connect(node)
    finally:
        sys.setrecursionlimit(limit)  # later tests (a config nested too deeply) rely on the usual limit
    assert cycles == []


def test_the_checker_sees_lazy_and_relative_imports() -> None:
    """The rules above would pass vacuously if the reader missed imports; prove it reads them."""
    assert "tact_memory.store.sqlite" in GRAPH["tact_memory.store"]
    assert any(t.startswith("tact_memory.retrieval") for t in GRAPH["tact_memory.store.sqlite"])
    assert "tact_memory.errors" in GRAPH["tact_memory.store.sqlite"]
    assert {"tact_memory.store.sqlite", "tact_memory.runtime.session"} <= GRAPH["tact_memory"]
