"""The memory-review checkpoint: one fixed piece of control text.

When memory is enabled, the runtime appends this text, as a separate model-visible part, to every
accepted user message after the first turn and to every accepted steer. It is the only memory prompt
that recurs, so it is written to be short, to name itself as runtime control text rather than user
text, and to carry nothing variable: no user text, no stored memory, no path, no session id. Because
it never changes, snapshot tests pin it and a model sees exactly the same words in every session.

:data:`CHECKPOINT_MARKER` opens the text. The store refuses content that imitates the checkpoint
(:func:`imitates_checkpoint`: the marker or a stretch of the body, in any spelling a reader would
take for it), and hides rows that do from ``scan`` and ``read`` however they reached the file, so a
record can never masquerade as the checkpoint when it is returned to a model.
"""

from __future__ import annotations

from ..values import Value

__all__ = ["CHECKPOINT_MARKER", "CHECKPOINT_TEXT", "IMITATION_KIND", "IMITATION_RUN", "imitates_checkpoint"]

CHECKPOINT_MARKER = "[tact-memory control text]"
"""The first line of the checkpoint; reserved, never accepted inside stored content."""

CHECKPOINT_TEXT = (
    f"{CHECKPOINT_MARKER}\n"
    "This note comes from the tact-memory runtime, not from the user. Before your final answer, "
    "review the whole conversation so far for conclusions that should outlast this session: "
    "corrections the user made, stable preferences, constraints, refinements of scope, and facts "
    "about a repository or service that would be expensive to rediscover. For each one, scan the "
    "memory tool first; then put one self-contained conclusion per record, or replace the existing "
    "record by its id and version instead of adding a second one. Name the scope inside the content "
    "(repository, service, version, and a date when freshness matters). Do not store transient "
    "state, task plans, raw tool output, secrets, or anything a quick search of the repository would "
    "find. If nothing durable changed, make no memory call. Only the root agent writes memory."
)
"""The fixed checkpoint text appended, model-side only, to qualifying user messages and steers."""


IMITATION_KIND = "checkpoint_imitation"
"""Why the store hides a row that imitates the checkpoint (beside the secret kinds it hides)."""

IMITATION_RUN = 48
"""Skeleton characters of the checkpoint's body that content may not share in one run.

About nine words: the body's two closing sentences, "If nothing durable changed, make no memory
call." and "Only the root agent writes memory.", are shorter, so a record may say either on its own;
every other sentence of the body, and any stretch across two sentences, is longer.
"""


class _Reference(Value):
    """The checkpoint as :func:`imitates_checkpoint` compares it, folded once on first use."""

    __slots__ = ("marker", "body", "windows")

    marker: str
    """The marker's skeleton, brackets included."""
    body: str
    """The skeleton of the text after the marker line, letters and digits only."""
    windows: dict[str, tuple[int, ...]]
    """Where each run of ``IMITATION_RUN // 2`` skeleton characters occurs in ``body``."""

    def __init__(self, marker: str, body: str, windows: dict[str, tuple[int, ...]]) -> None:
        self._fill(marker, body, windows)


_reference: _Reference | None = None


def _load_reference() -> _Reference:
    global _reference
    if _reference is None:
        from .lookalike import fold, letters_only

        body = letters_only(fold(CHECKPOINT_TEXT.split("\n", 1)[1]))
        step = IMITATION_RUN // 2
        windows: dict[str, list[int]] = {}
        for start in range(len(body) - step + 1):
            windows.setdefault(body[start : start + step], []).append(start)
        _reference = _Reference(
            marker=fold(CHECKPOINT_MARKER),
            body=body,
            windows={window: tuple(starts) for window, starts in windows.items()},
        )
    return _reference


def imitates_checkpoint(text: str) -> bool:
    """Whether ``text`` would pass for the checkpoint: its marker, or a stretch of its body.

    Both sides are compared as look-alike skeletons (:func:`tact_memory.screening.lookalike.fold`): case,
    compatibility forms, invisible and default-ignorable characters, combining marks, white space of
    any kind, dashes and punctuation are folded away, letters and digits that Unicode lists as
    confusable (Cyrillic and Greek look-alikes, ``1`` for ``l``, ``rn`` for ``m``) fold alike, and
    every bracket pair folds to one. ``text`` imitates the checkpoint when its skeleton contains the
    marker's skeleton (the three words inside any brackets), or shares at least
    :data:`IMITATION_RUN` consecutive letters and digits with the skeleton of the body. Text that
    merely mentions the checkpoint, a memory review or control text is ordinary content.
    """
    reference = _load_reference()
    from .lookalike import fold, letters_only

    skeleton = fold(text)
    if reference.marker in skeleton:
        return True
    return _shares_run(letters_only(skeleton), reference)


def _shares_run(letters: str, reference: _Reference) -> bool:
    """Whether ``letters`` and the body share a run of at least ``IMITATION_RUN`` characters.

    Such a run covers at least one of the windows of ``IMITATION_RUN // 2`` characters that start
    at a multiple of that length in ``letters``, so only those are looked up; each hit is then
    extended both ways to the full shared run.
    """
    step, body = IMITATION_RUN // 2, reference.body
    for start in range(0, len(letters) - step + 1, step):
        for at in reference.windows.get(letters[start : start + step], ()):
            before = 0
            while before < start and before < at and letters[start - before - 1] == body[at - before - 1]:
                before += 1
            after = 0
            end, body_end = start + step, at + step
            while end + after < len(letters) and body_end + after < len(body) and (
                letters[end + after] == body[body_end + after]
            ):
                after += 1
            if before + step + after >= IMITATION_RUN:
                return True
    return False
