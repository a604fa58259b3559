"""The README's examples are the files the tests run, and they run."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
EXAMPLES = re.findall(r"<!-- example: (\S+) -->\n```python\n(.*?)```", README, flags=re.S)


def test_readme_starts_with_the_two_setup_commands() -> None:
    block = re.search(r"```bash\n(.*?)```", README, flags=re.S)
    assert block is not None and README.index(block.group(0)) < README.index("## ")
    install, test = block.group(1).strip().splitlines()
    assert install.endswith("tact-memory demo") and "pip install -e ." in install
    assert "pip install -e '.[dev]'" in test and test.endswith("-m pytest")
    ci = (ROOT / ".ci" / "run").read_text()
    assert "pip install -q -e '.[dev]'" in ci and "-m pytest" in ci


def test_the_first_example_wraps_a_loop() -> None:
    assert EXAMPLES and EXAMPLES[0][0] == "examples/wrap_a_loop.py"


@pytest.mark.parametrize(("path", "code"), EXAMPLES, ids=[p for p, _ in EXAMPLES])
def test_readme_example_is_the_file_and_runs(path: str, code: str, tmp_path: Path) -> None:
    assert (ROOT / path).read_text(encoding="utf-8") == code
    proc = subprocess.run([sys.executable, str(ROOT / path), str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip()
