"""Every command with only the base install: it works, or it names the extra it needs in one line.

The base install is rebuilt from package metadata: the distributions ``tact-memory`` requires
without extras, and theirs, recursively, are linked into one folder, and each command runs in a
fresh interpreter started with ``-S`` (no site-packages) and that folder plus the source tree on
``PYTHONPATH``. The extras' packages (Textual, the MCP SDK, pydantic-ai, LangChain, matplotlib)
are therefore not importable, exactly as after ``pip install tact-memory``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from ..conftest import write_config

ROOT = Path(__file__).resolve().parents[2]
EXTRA_MODULES = ("textual", "mcp", "pydantic_ai", "langchain", "matplotlib")


def _base_distributions() -> dict[str, metadata.Distribution]:
    """``tact-memory`` and the closure of its requirements, no extras, for this interpreter."""
    found: dict[str, metadata.Distribution] = {}
    todo = ["tact-memory"]
    while todo:
        name = todo.pop()
        key = re.sub(r"[-_.]+", "-", name).lower()
        if key in found:
            continue
        dist = metadata.distribution(name)
        found[key] = dist
        for line in dist.requires or []:
            requirement = Requirement(line)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(requirement.name)
    return found


@pytest.fixture(scope="module")
def base_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    site = tmp_path_factory.mktemp("base-site")
    for key, dist in _base_distributions().items():
        if key == "tact-memory":
            continue  # the source tree goes on the path itself
        for file in dist.files or []:
            if ".." in file.parts or file.suffix == ".pth":
                continue
            source = Path(str(dist.locate_file(file)))
            target = site / file
            if not source.is_file() or target.exists():
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.symlink_to(source)
    return site


def command(base_site: Path, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TACT_", "PYTHON"))}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(base_site)])
    env["HOME"] = str(tmp_path / "home")
    env["XDG_CONFIG_HOME"] = str(tmp_path / "xdg")
    code = "import sys; from tact_memory.cli.app import main; sys.argv[0] = 'tact-memory'; main()"
    return subprocess.run(
        [sys.executable, "-S", "-c", code, *args], capture_output=True, text=True, env=env, timeout=120
    )


def test_the_base_site_has_no_extra(base_site: Path, tmp_path: Path) -> None:
    probe = "import importlib.util as u, json; print(json.dumps({m: u.find_spec(m) is not None for m in %r}))"
    env = {"PYTHONPATH": os.pathsep.join([str(ROOT), str(base_site)]), "PATH": os.environ.get("PATH", "")}
    out = subprocess.run(
        [sys.executable, "-S", "-c", probe % (EXTRA_MODULES + ("pydantic", "click", "tact_memory"),)],
        capture_output=True, text=True, env=env, check=True,
    )  # fmt: skip
    found = json.loads(out.stdout)
    assert not any(found[m] for m in EXTRA_MODULES), found
    assert found["pydantic"] and found["click"] and found["tact_memory"]


@pytest.mark.parametrize(
    ("args", "extra"),
    [
        (("browse",), "browser"),
        (("mcp",), "mcp"),
        (("eval", "--report", "REPORT"), "eval"),
        (("eval", "--policy", "pydantic-ai:openai:gpt-4.1"), "pydantic-ai"),
        (("eval", "--json", "--policy", "pydantic-ai:test"), "pydantic-ai"),
    ],
)
def test_a_missing_extra_is_one_line_and_exit_two(
    base_site: Path, tmp_path: Path, args: tuple[str, ...], extra: str
) -> None:
    config = write_config(tmp_path / "tact")
    report = tmp_path / "report"
    argv = [str(report) if a == "REPORT" else a for a in args]
    done = command(base_site, tmp_path, "--config", str(config), *argv)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    if extra == "pydantic-ai" and sys.version_info < (3, 11):  # pydantic-ai does not install there
        assert lines[0].endswith(f"it needs Python 3.11 or later, and this is Python 3.{sys.version_info[1]}"), lines[0]
    else:
        assert f"pip install 'tact-memory[{extra}]'" in lines[0]
    assert not report.exists(), "the command did work before it noticed the missing extra"
    assert not (tmp_path / "tact" / "memory").exists()


@pytest.mark.parametrize(
    "args",
    [
        ("schema",),
        ("schema", "--dialect", "gemini"),
        ("status",),
        ("list",),
        ("tool", '{"operation": "scan", "query": "release tags"}'),
        ("demo",),
        ("--help",),
    ],
)
def test_base_commands_work_without_any_extra(base_site: Path, tmp_path: Path, args: tuple[str, ...]) -> None:
    config = write_config(tmp_path / "tact")
    done = command(base_site, tmp_path, "--config", str(config), *args)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout.strip()


def test_export_of_an_empty_corpus_works_without_any_extra(base_site: Path, tmp_path: Path) -> None:
    config = write_config(tmp_path / "tact")
    done = command(base_site, tmp_path, "--config", str(config), "export")
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
