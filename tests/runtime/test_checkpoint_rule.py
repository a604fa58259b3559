"""The one checkpoint rule (I5), against the specification's sentence, and the runtime that applies it.

The specification: the checkpoint is appended to every accepted user message after the first turn
(restored and forked sessions start past the first turn) and to every accepted steer, in flight or
promoted, also during the first turn. :func:`spec_says` is that sentence over a list of events,
written apart from the implementation; the properties compare the rule and a real session with it.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.config.loading import Config, load_config
from tact_memory.runtime.checkpoint_rule import CHECKPOINT_TEXT, checkpoint_due
from tact_memory.runtime.messages import Message
from tact_memory.runtime.session import Runtime, Session, SessionKind, SessionState

from ..conftest import write_config

Event = Literal["user", "steer", "end"]
"""A user message, a steer (in flight when a turn runs, else promoted), or the end of the turn."""

events = st.lists(st.sampled_from(["user", "steer", "end"]), max_size=12)
kinds = st.sampled_from(["new", "restored", "forked"])


def spec_says(kind: SessionKind, script: list[Event]) -> list[bool]:
    """For each accepted submission of ``script``, whether the specification wants the checkpoint."""
    continued = kind != "new"  # restored and forked sessions start past the first turn
    turns_started, running = 0, False
    wanted: list[bool] = []
    for event in script:
        if event == "end":
            running = False
            continue
        if event == "steer":
            wanted.append(True)  # every steer, in flight or promoted, also during the first turn
        else:
            wanted.append(continued or turns_started > 0)  # a user message after the first turn
        if event == "user" or not running:  # a user message or a promoted steer starts a turn
            turns_started, running = turns_started + 1, True
    return wanted


@pytest.fixture(scope="module")
def config() -> Iterator[Config]:
    with tempfile.TemporaryDirectory() as folder:
        yield load_config(write_config(Path(folder), enabled=True))


def session_of(config: Config, kind: SessionKind) -> Session:
    runtime = Runtime(config)
    if kind == "new":
        return runtime.new_session()
    saved = runtime.new_session()
    state = SessionState(system="", history=list(saved.root.history), transcript=[], turns=0)
    return runtime.restore_session(state) if kind == "restored" else runtime.fork_session(state)


def carries_checkpoint(message: Message) -> bool:
    return message.parts[-1].text == CHECKPOINT_TEXT and message.parts[-1].control


@given(kind=st.sampled_from(["user", "steer"]), earlier=st.integers(0, 10_000), continued=st.booleans())
def test_the_rule_is_the_specification_sentence(kind: Literal["user", "steer"], earlier: int, continued: bool) -> None:
    after_the_first_turn = earlier > 0 or continued
    assert checkpoint_due(kind, earlier_turns=earlier, continued=continued) == (kind == "steer" or after_the_first_turn)


@given(kind=kinds, script=events)
def test_a_session_applies_the_rule_to_every_accepted_submission(config: Config, kind: SessionKind, script: list[Event]) -> None:
    session = session_of(config, kind)
    got: list[bool] = []
    for event in script:
        if event == "end":
            session.abandon_turn()
        else:
            message = session.submit("do it") if event == "user" else session.steer("also this")
            got.append(carries_checkpoint(message))
    assert got == spec_says(kind, script)
    # the display keeps what was typed; only the model-visible message carries control text
    assert all(CHECKPOINT_TEXT not in entry.text for entry in session.transcript)


def test_bad_arguments_are_named_errors() -> None:
    with pytest.raises(ValueError, match="earlier_turns"):
        checkpoint_due("user", earlier_turns=-1)
    with pytest.raises(ValueError, match="kind"):
        checkpoint_due("assistant", earlier_turns=0)  # type: ignore[arg-type]
