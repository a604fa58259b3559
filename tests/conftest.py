"""Shared fixtures: a temporary config directory, a clean environment, a fake clock."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tact_memory.store.sqlite import MemoryStore

# Property tests draw new examples on every run ("explore"), so a developer's runs keep searching;
# CI (.ci/run sets HYPOTHESIS_PROFILE=ci) draws the same examples every time, so a clean run of a
# commit is one the next run of that commit repeats.
settings.register_profile("explore", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", settings.get_profile("explore"), derandomize=True, database=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "explore"))

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
NO_PYDANTIC_AI = "pydantic-ai is not installed (it needs Python 3.11 or later)"
"""Why a test of pydantic-ai skips: on Python 3.10, ``[dev]`` installs without it."""


def fixture_path(*parts: str) -> Path:
    """A file under ``fixtures/``: the one place test data is loaded from."""
    return FIXTURES.joinpath(*parts)


@pytest.fixture(autouse=True)
def _clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in list(os.environ):
        if name.startswith("TACT_"):
            monkeypatch.delenv(name)
    # The platform fallback must never reach the real user config dir during tests.
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


def write_config(folder: Path, *, enabled: bool = True, extra: str = "") -> Path:
    """Write ``folder/config.toml`` and return its path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "config.toml"
    path.write_text(f"[memory]\nenabled = {'true' if enabled else 'false'}\n{extra}", encoding="utf-8")
    return path


@pytest.fixture
def config_dir(tmp_path: Path) -> Path:
    """A config directory holding ``config.toml`` with memory enabled."""
    folder = tmp_path / "tact"
    write_config(folder)
    return folder


@pytest.fixture
def config_path(config_dir: Path) -> Path:
    return config_dir / "config.toml"


@pytest.fixture
def db_path(config_dir: Path) -> Path:
    return config_dir / "memory" / "v1.sqlite3"


class FakeClock:
    """Milliseconds that move only when a test says so."""

    def __init__(self, start: int = 1_800_000_000_000) -> None:
        self.now = start

    def __call__(self) -> int:
        return self.now

    def advance(self, ms: int) -> None:
        self.now += ms


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def store(db_path: Path, clock: FakeClock) -> Iterator[MemoryStore]:
    with MemoryStore(db_path, clock=clock) as s:
        yield s


@pytest.fixture
def make_store(db_path: Path, clock: FakeClock) -> Iterator[Callable[..., MemoryStore]]:
    made: list[MemoryStore] = []

    def make(**kwargs: object) -> MemoryStore:
        kwargs.setdefault("clock", clock)
        s = MemoryStore(kwargs.pop("path", db_path), **kwargs)  # type: ignore[arg-type]
        made.append(s)
        return s

    yield make
    for s in made:
        s.close()
