"""The reference loop's one error and one export; which store a configuration gives, and closing it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import tact_memory
import tact_memory.adapters
import tact_memory.errors
import tact_memory.runtime.loop
import tact_memory.runtime.stores
import tact_memory.testing
from tact_memory.backend import MemoryBackend
from tact_memory.config.loading import load_config
from tact_memory.errors import MaxStepsExceeded, TactMemoryError
from tact_memory.runtime.stores import close_store, config_store, store_for
from tact_memory.store.sqlite import MemoryStore
from tact_memory.testing import ScriptedModel, call

from ..conftest import write_config
from .test_session import runtime_for


def test_max_steps_exceeded_is_in_the_one_tree_with_a_stable_code(tmp_path: Path) -> None:
    assert issubclass(MaxStepsExceeded, TactMemoryError) and MaxStepsExceeded.code == "max_steps_exceeded"
    assert issubclass(MaxStepsExceeded, RuntimeError)  # caught as before by code written for earlier releases
    assert tact_memory.MaxStepsExceeded is tact_memory.runtime.loop.MaxStepsExceeded is MaxStepsExceeded
    drawing = (tact_memory.errors.__doc__ or "").split("```")[1]
    assert "MaxStepsExceeded" in drawing and "max_steps_exceeded" in drawing
    session = runtime_for(tmp_path, enabled=True).new_session()
    session.submit("loop forever")
    forever = ScriptedModel([call("shell", {"cmd": "true"}) for _ in range(3)])
    with pytest.raises(MaxStepsExceeded) as raised:
        tact_memory.run_agent(session.root, forever, max_steps=3)
    assert raised.value.code == "max_steps_exceeded" and not session.turn_running
    session.submit("again")
    with pytest.raises(TactMemoryError):
        asyncio.run(tact_memory.arun_agent(session.root, ScriptedModel([call("shell", {})]).acall, max_steps=1))


def test_run_agent_has_one_definition_and_testing_re_exports_it() -> None:
    assert tact_memory.testing.run_agent is tact_memory.run_agent is tact_memory.runtime.loop.run_agent
    assert tact_memory.testing.arun_agent is tact_memory.arun_agent is tact_memory.runtime.loop.arun_agent


def test_store_for_follows_the_config_and_adapters_re_export_it(tmp_path: Path) -> None:
    enabled = load_config(write_config(tmp_path / "on", enabled=True))
    disabled = write_config(tmp_path / "off", enabled=False)
    assert store_for(disabled) is None and store_for(disabled, store=config_store(enabled)) is None
    made = store_for(enabled)
    assert isinstance(made, MemoryStore) and made.path == enabled.database_path
    assert not enabled.database_path.exists()  # constructing opens nothing (I13)
    given = config_store(enabled)
    assert store_for(enabled, store=given) is given
    assert tact_memory.adapters.store_for is store_for and tact_memory.adapters.close_store is close_store


class Closing:
    """The smallest stand-in for a backend whose closing is observed."""

    def __init__(self) -> None:
        self.closed = 0

    def close(self) -> None:
        self.closed += 1


def test_close_store_closes_through_the_protocol() -> None:
    backend = Closing()
    close_store(backend)  # type: ignore[arg-type]
    close_store(None)
    assert backend.closed == 1
    assert "close" in MemoryBackend.__dict__
