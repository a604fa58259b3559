"""The memory-review checkpoint: one fixed piece of control text.

When memory is enabled, the runtime appends this text, as a separate model-visible part, to every
accepted user message after the first turn and to every accepted steer. It is the only memory prompt
that recurs, so it is written to be short, to name itself as runtime control text rather than user
text, and to carry nothing variable: no user text, no stored memory, no path, no session id. Because
it never changes, snapshot tests pin it and a model sees exactly the same words in every session.

:data:`CHECKPOINT_MARKER` opens the text. The store refuses content that contains the marker, so a
record can never masquerade as the checkpoint when it is later returned by ``scan`` or ``read``.
"""

from __future__ import annotations

import unicodedata

__all__ = ["CHECKPOINT_MARKER", "CHECKPOINT_TEXT", "imitates_checkpoint"]

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


_MARKER_SKELETON = "".join(CHECKPOINT_MARKER.casefold().split())
"""The marker with case and white space folded away, as :func:`imitates_checkpoint` compares it."""


def imitates_checkpoint(text: str) -> bool:
    """Whether ``text`` contains the reserved marker, also in forms a reader would not tell apart.

    Case, white space (inside the brackets too), compatibility forms such as full-width letters,
    invisible format characters (zero-width space, soft hyphen) and dash variants are folded away
    before comparing. Letters from other scripts that merely look alike are not folded.
    """
    folded = "".join(
        "-" if unicodedata.category(ch) == "Pd" else ch
        for ch in unicodedata.normalize("NFKC", text)
        if unicodedata.category(ch) != "Cf"
    )
    return _MARKER_SKELETON in "".join(folded.casefold().split())
