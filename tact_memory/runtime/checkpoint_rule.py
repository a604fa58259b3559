"""When the review checkpoint is appended: the one rule that the runtime and every adapter apply.

The specification (rule I5): the checkpoint is appended to every accepted user message after the
first turn, restored and forked sessions included (they start past the first turn), and to every
accepted steer, whether it joins the running turn (in flight) or starts a new one (promoted), also
during the first turn.

:func:`checkpoint_due` is that sentence as a pure function of what the caller knows about the
conversation. Each caller only translates its own view into the three arguments:

- the runtime (:class:`~tact_memory.runtime.middleware.MemoryMiddleware`) knows the kind of every
  submission, the turn it belongs to, and whether its session was restored or forked;
- the pydantic-ai adapter sees a run's first prompt (the user message) and the prompts queued
  during the run (steers), and counts earlier turns from the history the run started with;
- the LangChain adapter sees only human messages; any one after the thread's first is either a
  later turn's user message or a steer, and the rule gives both the checkpoint.

The text itself is :data:`CHECKPOINT_TEXT` (kept with the look-alike screening that keeps it out of
the store), re-exported here so that adapters take the text and the rule from one place. Only root
agents get the checkpoint; who is the root is decided by :mod:`tact_memory.runtime.roles`.
"""

from __future__ import annotations

from typing import Literal

from ..screening.checkpoint import CHECKPOINT_TEXT

__all__ = ["CHECKPOINT_TEXT", "SubmissionKind", "checkpoint_due"]

SubmissionKind = Literal["user", "steer"]
"""A user message (it starts a turn) or a steer (it joins the running turn or starts a new one)."""


def checkpoint_due(kind: SubmissionKind, *, earlier_turns: int, continued: bool = False) -> bool:
    """Whether an accepted submission gets the review checkpoint appended.

    Args:
        kind: ``"user"`` for a user message, ``"steer"`` for a steer (in flight or promoted).
        earlier_turns: How many turns of the conversation started before the one this submission
            starts or joins (0 during the first turn).
        continued: Whether the conversation is a restored or forked one, which starts past its first
            turn whatever it holds.

    Raises:
        ValueError: ``earlier_turns`` is negative or ``kind`` is not a submission kind.
    """
    if earlier_turns < 0:
        raise ValueError(f"earlier_turns must be 0 or more, not {earlier_turns}")
    if kind == "steer":
        return True
    if kind == "user":
        return continued or earlier_turns > 0
    raise ValueError(f"kind must be 'user' or 'steer', not {kind!r}")
