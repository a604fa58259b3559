"""The stored form of what a row derives: a term that cannot round-trip is never kept."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.store import derived as stored

TERMS = st.dictionaries(st.text(max_size=6), st.integers(min_value=1, max_value=4), max_size=8).map(Counter)


@given(terms=TERMS)
def test_terms_are_kept_exactly_when_each_is_one_run_without_whitespace(terms: Counter[str]) -> None:
    keepable = all(term and not any(c.isspace() for c in term) for term in terms)
    text = stored.encode(3, stored.Derived(None, bytes(16), terms))
    assert (text is not None) == keepable
    if text is not None:
        back = stored.decode(text, 3)
        assert back is not None and back.hidden is None and back.duplicate == bytes(16)
        assert Counter(back.terms.split()) == terms  # type: ignore[union-attr]
        assert stored.decode(text, 4) is None  # stamped with the version it was derived for


def _imported_modules(path: Path) -> set[str]:
    """The package's own modules that the module at ``path`` imports (relative imports), as paths
    relative to the package."""
    package = Path(stored.__file__).resolve().parent.parent
    here = path.parent
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = here
            for _ in range(node.level - 1):
                base = base.parent
            names = [node.module] if node.module else [alias.name for alias in node.names]
            for name in names:
                target = base.joinpath(*name.split("."))
                module = target.with_suffix(".py")
                if module.is_file():
                    found.add(module.relative_to(package).as_posix())
    return found


def test_the_rules_digest_covers_every_module_its_rules_come_from() -> None:
    """A stored verdict is reused while the digest holds, so a rule in a module the digest does not
    read (as the provider table once was) would leave rows judged by the old rules."""
    package = Path(stored.__file__).resolve().parent.parent
    sources = set(stored._SOURCES)
    seen: set[str] = set()
    todo = list(sources)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo.extend(m for m in _imported_modules(package / name) if m.startswith(("screening/", "retrieval/")))
    assert seen <= sources


def test_a_change_to_any_rule_source_changes_the_digest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = Path(stored.__file__).resolve().parent.parent
    copy = tmp_path / "tact_memory"
    for name in stored._SOURCES:
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        (copy / name).write_bytes((package / name).read_bytes())
    (copy / "store").mkdir()
    monkeypatch.setattr(stored, "__file__", str(copy / "store" / "derived.py"))
    digest = stored.rules.__wrapped__  # the process caches its own digest; this reads the copy afresh
    before = digest()
    assert digest() == before
    for name in stored._SOURCES:
        original = (copy / name).read_bytes()
        (copy / name).write_bytes(original + b"\n# changed\n")
        assert digest() != before, name
        (copy / name).write_bytes(original)
