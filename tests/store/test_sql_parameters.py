"""SQL names its parameters by ``?`` in order or by ``:name``, never by number (``?1``).

Python 3.12.0 to 3.12.3 take a numbered parameter for a named one and warn, on every scan and
read, that a sequence given for it will be an error from 3.14 (CPython gh-117995, fixed in 3.12.4);
an application that runs with warnings as errors then fails every call. Every string in the
package's modules that run SQL is read from the source, so a new statement is held to it too.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

from tact_memory.store.sqlite import SCAN_TELEMETRY

PACKAGE = Path(__file__).resolve().parents[2] / "tact_memory"
NUMBERED = re.compile(r"(?<=[\s(,=])\?[0-9]")
"""A numbered parameter, where SQL writes a value: after a space, a bracket, a comma or ``=`` (a
regular expression's ``?`` follows what it makes optional)."""


def sql_modules() -> list[Path]:
    return sorted(path for path in PACKAGE.rglob("*.py") if re.search(r"\.execute(?:many)?\(", path.read_text(encoding="utf-8")))


def test_no_statement_numbers_its_parameters() -> None:
    found = []
    modules = sql_modules()
    assert len(modules) >= 5, modules  # the store, the benchmark, the import, ...
    for path in modules:
        source = path.read_text(encoding="utf-8")
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.STRING and NUMBERED.search(token.string):
                found.append(f"{path.relative_to(PACKAGE)}:{token.start[0]}")
    assert found == []


def test_the_check_finds_a_numbered_parameter_and_passes_the_others() -> None:
    assert NUMBERED.search("SELECT id FROM memories WHERE id = ?2")
    assert NUMBERED.search("VALUES (?1, ?2)")
    assert not NUMBERED.search("SELECT id FROM memories WHERE id = ? AND version = :version")
    assert not NUMBERED.search(r"(?:\.[0-9])?1")  # a pattern's group, then a literal
    assert not NUMBERED.search(r"v?2")
    assert not NUMBERED.search(r"[0-9]?1")


def test_the_scan_telemetry_names_its_parameters() -> None:
    """The statement the benchmark shares with the store: what it binds, by name."""
    assert set(re.findall(r"(?<![\w:]):([a-z_]+)", SCAN_TELEMETRY)) == {"now", "id", "version"}
