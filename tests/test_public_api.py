"""The public API is exactly ``tact_memory.__all__``, and importing it stays light."""

from __future__ import annotations

import json
import subprocess
import sys
import types

import tact_memory


def test_all_is_sorted_unique_and_complete() -> None:
    names = tact_memory.__all__
    assert names == sorted(names, key=lambda n: (0 if n.isupper() else 1 if n[0].isupper() else 2, n))
    assert len(set(names)) == len(names)
    public = {
        name
        for name, value in vars(tact_memory).items()
        if not name.startswith("_") and not isinstance(value, types.ModuleType) and name != "annotations"
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
