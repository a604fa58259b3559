"""The README's examples are the files the tests run, and they run."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
import pytest

from .conftest import NO_PYDANTIC_AI

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

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
    assert "pip install -q -e '.[dev]'" in ci and "-m pytest" in ci and ".venv/bin/tact-memory demo" in ci


def test_the_first_example_wraps_a_loop() -> None:
    assert EXAMPLES and EXAMPLES[0][0] == "examples/wrap_a_loop.py"


@pytest.mark.parametrize(("path", "code"), EXAMPLES, ids=[p for p, _ in EXAMPLES])
def test_readme_example_is_the_file_and_runs(path: str, code: str, tmp_path: Path) -> None:
    assert (ROOT / path).read_text(encoding="utf-8") == code
    if path == "examples/pydantic_ai_agent.py":
        pytest.importorskip("pydantic_ai", reason=NO_PYDANTIC_AI)
    proc = subprocess.run([sys.executable, str(ROOT / path), str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip()


def _section(title: str) -> str:
    start = README.index(f"\n### {title}\n")
    return README[start : README.index("\n## ", start)]


def _click_options(command: Any) -> set[str]:
    options = (p for p in command.params if isinstance(p, click.Option) and not p.hidden)  # hidden: for tests only
    return {o for p in options for o in p.opts if o.startswith("--")} - {"--help"}


def _click_commands(command: Any, path: tuple[str, ...] = ()) -> dict[tuple[str, ...], set[str]]:
    """Every command that runs (the root and the leaves; a group's own options count on the root only)."""
    found = {path: _click_options(command)} if not path or not isinstance(command, click.Group) else {}
    for name, sub in getattr(command, "commands", {}).items():
        found.update(_click_commands(sub, (*path, name)))
    return found


def test_every_command_and_option_is_in_the_readme_table_and_nothing_else() -> None:
    from tact_memory.cli import cli

    rows = re.findall(r"^\| `tact-memory([^`]*)` \|((?:[^|\\]|\\.)*)\|", _section("Every command and option"), flags=re.M)
    documented = {
        tuple(w for w in words.split() if re.fullmatch(r"[a-z][a-z-]*", w)): set(re.findall(r"--[a-z][a-z-]*", options))
        for words, options in rows
    }
    assert documented == _click_commands(cli)


def test_the_fixture_counts_in_the_guarantees_are_the_fixtures() -> None:
    def cases(*path: str) -> dict[str, Any]:
        return tomllib.loads((ROOT / "fixtures" / Path(*path)).read_text(encoding="utf-8"))

    prose = (ROOT / "fixtures" / "secrets" / "prose.txt").read_text(encoding="utf-8").splitlines()
    marker = cases("injection", "marker.toml")
    counts = {
        r"The (\d+) maintained secret fixtures": len(cases("secrets", "reject.toml")["case"]),
        r"refuses all (\d+) with their kind": len(cases("secrets", "reject.toml")["case"]),
        r"keeps all (\d+) maintained developer notes": len(cases("secrets", "keep.toml")["case"]),
        r"all (\d+) lines of the prose corpus": len([line for line in prose if line.strip() and not line.startswith("#")]),
        r"(\d+) records and \d+ repository files in `fixtures/injection/`": len(cases("injection", "records.toml")["case"]),
        r"\d+ records and (\d+) repository files in `fixtures/injection/`": len(list((ROOT / "fixtures" / "injection" / "repository").iterdir())),
        r"(\d+) imitations of the checkpoint": len(marker["refused"]),
        r"while (\d+) near misses": len(marker["kept"]),
    }
    for pattern, count in counts.items():
        stated = re.search(pattern, README)
        assert stated is not None and int(stated.group(1)) == count, pattern


TRANSCRIPTS = re.findall(r"<!-- transcript: cli -->\n```console\n(.*?)```", README, flags=re.S)


def _steps(block: str) -> list[tuple[str, str]]:
    """A console block as (command, the output it shows) pairs; a command may go on over lines."""
    steps: list[tuple[str, list[str]]] = []
    continued = False
    for line in block.splitlines():
        if line.startswith("$ ") or continued:
            if not continued:
                steps.append((line[2:], []))
            else:
                steps[-1] = (steps[-1][0] + "\n" + line, steps[-1][1])
            continued = line.endswith("\\")
        else:
            steps[-1][1].append(line)
    return [(command, "\n".join(output)) for command, output in steps]


def _normal(text: str, home: Path) -> str:
    text = text.replace(str(home), "/home/me")
    text = re.sub(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}", "YYYY-MM-DD HH:MM", text)
    return re.sub(r'("\w+_ms"): \d+', r"\1: N", text)


@pytest.mark.parametrize("block", TRANSCRIPTS, ids=[b.splitlines()[0] for b in TRANSCRIPTS])
def test_readme_command_line_transcript_is_what_the_commands_print(block: str, tmp_path: Path) -> None:
    """Each shown command runs in a home folder of its own, and prints what the README shows."""
    home = tmp_path / "home"
    home.mkdir()
    separator = "@@ next step @@"
    script = [f'tact-memory() {{ {sys.executable} -m tact_memory.cli "$@"; }}', f"cd {home}"]
    for command, _ in _steps(block):
        script += [f"{{ {command}\n}} 2>&1", f"echo '{separator}'"]
    env = {k: v for k, v in os.environ.items() if k not in ("TACT_CONFIG", "TACT_HOME", "XDG_CONFIG_HOME", "VISUAL", "EDITOR")}
    env.update(HOME=str(home), PYTHONPATH=str(ROOT), COLUMNS="200")
    proc = subprocess.run(["bash", "-c", "\n".join(script)], capture_output=True, text=True, env=env, timeout=300)
    outputs = proc.stdout.split(separator + "\n")[:-1]
    assert len(outputs) == len(_steps(block)), proc.stderr
    for (command, shown), printed in zip(_steps(block), outputs):
        assert _normal(printed.rstrip("\n"), home) == _normal(shown, home), command
