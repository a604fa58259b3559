"""Fixtures for the framework adapters: the anyio backend, a disabled config and a seeded corpus."""

from __future__ import annotations

from pathlib import Path

import pytest

from tact_memory.store.sqlite import MemoryStore

from ..conftest import write_config

SEEDED = "In the `zephyr` repository, release tags use vX.Y.Z."
"""A record stored before each scripted conversation; no model may see it before a scan or read."""

REMEMBERED = "In the `zephyr` repository, the user wants tabs, not spaces."
"""What the root agent of each scripted conversation stores in its second turn."""


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def disabled_config_path(tmp_path: Path) -> Path:
    """``config.toml`` with ``[memory] enabled = false``."""
    return write_config(tmp_path / "off", enabled=False)


@pytest.fixture
def seeded(store: MemoryStore) -> MemoryStore:
    """The corpus of the enabled config, holding :data:`SEEDED` as record 1."""
    store.put(SEEDED)
    return store
