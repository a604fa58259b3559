"""The public API is exactly ``tact_memory.__all__``, and importing it stays light."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import types
from pathlib import Path

import pytest

import tact_memory

INIT = Path(tact_memory.__file__)


def test_all_is_sorted_unique_and_complete() -> None:
    names = tact_memory.__all__
    assert names == sorted(names, key=lambda n: (0 if n.isupper() else 1 if n[0].isupper() else 2, n))
    assert len(set(names)) == len(names)
    public = {
        name
        for name in dir(tact_memory)
        if not name.startswith("_")
        and name != "annotations"
        and not isinstance(getattr(tact_memory, name), types.ModuleType)
    }
    assert public == set(names)


def test_every_exported_name_has_a_docstring() -> None:
    for name in tact_memory.__all__:
        value = getattr(tact_memory, name)
        if isinstance(value, type) or callable(value):
            assert value.__doc__, name


def test_import_loads_no_framework_tui_or_validation_library() -> None:
    code = "import json, sys, tact_memory; print(json.dumps(sorted(sys.modules)))"
    loaded = set(json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout))
    for heavy in (
        "pydantic", "textual", "mcp", "langchain", "langchain_core", "pydantic_ai", "watchfiles", "click", "asyncio",
        "matplotlib", "confusable_homoglyphs",
    ):  # fmt: skip
        assert heavy not in loaded, heavy


def _loaded_after(code: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", f"{code}; import sys; print(*sorted(sys.modules))"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return set(done.stdout.split())


def test_import_loads_none_of_the_package_modules_nor_their_dependencies() -> None:
    loaded = _loaded_after("import tact_memory")
    assert sorted(m for m in loaded if m.startswith("tact_memory.")) == []
    for heavy in ("sqlite3", "tomllib", "platformdirs", "dataclasses", "typing", "enum", "re", "json.decoder", "inspect"):
        assert heavy not in loaded, heavy


@pytest.mark.parametrize(
    ("name", "module", "not_loaded"),
    [
        ("CHECKPOINT_TEXT", "tact_memory.screening.checkpoint", "tact_memory.store.sqlite"),
        ("TactMemoryError", "tact_memory.errors", "tact_memory.config.loading"),
        ("MemoryStore", "tact_memory.store.sqlite", "tact_memory.runtime.session"),
    ],
)
def test_a_name_loads_its_own_module_on_first_use(name: str, module: str, not_loaded: str) -> None:
    loaded = _loaded_after(f"from tact_memory import {name}")
    assert module in loaded
    assert not_loaded not in loaded


def test_every_name_is_the_object_its_module_defines() -> None:
    exports = tact_memory._EXPORTS
    assert sorted(exports) == sorted(tact_memory.__all__)
    for name, module in exports.items():
        assert getattr(tact_memory, name) is getattr(__import__(f"tact_memory.{module}", fromlist=[name]), name), name


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'NoSuchName'"):
        tact_memory.NoSuchName  # noqa: B018
    assert not hasattr(tact_memory, "_no_such_private_name")


def test_the_type_checking_imports_match_the_lazy_table() -> None:
    """Type checkers and IDEs read the ``if TYPE_CHECKING:`` imports; the interpreter reads ``_EXPORTS``."""
    tree = ast.parse(INIT.read_text(encoding="utf-8"))
    guarded = next(n for n in tree.body if isinstance(n, ast.If) and getattr(n.test, "id", "") == "TYPE_CHECKING")
    seen = {
        alias.name: node.module
        for node in guarded.body
        if isinstance(node, ast.ImportFrom) and node.level == 1
        for alias in node.names
    }
    assert seen == tact_memory._EXPORTS
