"""What the store derives from one version's content, and how the file keeps it between processes.

Screening a record (:func:`~tact_memory.store.policy.hidden_reason`) and tokenizing it for BM25
are the costly parts of building the in-process index, so a process that starts cold over a full
corpus would spend most of its time on them. Each row therefore carries, in its ``derived`` column,
what was derived from its current version: the visibility verdict, a digest of its duplicate key and
its term counts, as one JSON array::

    [rules, version, verdict or null, duplicate digest (hex), "term term term ..."]

Rules for trusting it, since the file is data anyone with local access can edit:

- It is an optimisation only. A value is used when it names the rules this code screens and
  tokenizes with (:func:`rules`, a digest of their source) and the row's current version; anything
  else (an older rule set, another version, a malformed value) is derived again from the content.
  So a new rule set screens every row once more, and a row matching a newer rule becomes hidden.
- A stored verdict decides only what is ranked. Whatever is served to a model (the cards of a scan,
  the records of a read) is screened again from the content being served
  (:meth:`~tact_memory.store.index.CorpusIndex.served_verdict`), so an edited verdict cannot let a
  secret or a checkpoint imitation through; at worst it hides a record or changes a ranking.
- The terms are derived from the content and live in the same row, so they are written, replaced
  and deleted in the same statement as the content (deletion hygiene treats them alike).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from functools import lru_cache

from ..limits import DEFAULT_RANKING
from .policy import duplicate_key, hidden_reason

try:  # the same BLAKE2b, without loading OpenSSL (hashlib's import) into every tool process
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - an interpreter built without it
    from hashlib import blake2b

TYPE_CHECKING = False  # typing is not imported: every tool process imports this module
if TYPE_CHECKING:
    from collections.abc import Callable

    from ..retrieval.bm25 import Words

__all__ = ["Derived", "content_digest", "decode", "derive", "digest", "encode", "rules"]

_FORMAT = 1
"""The layout of the stored array; part of :func:`rules`."""

_SOURCES = (
    "screening/credentials.py",
    "screening/rules.py",
    "screening/checks.py",
    "screening/value_checks.py",
    "screening/sentences.py",
    "screening/assignments.py",
    "screening/sections.py",
    "screening/defaults.py",
    "screening/conditionals.py",
    "screening/logins.py",
    "screening/transcripts.py",
    "screening/printed.py",
    "screening/places.py",
    "screening/codes.py",
    "screening/inserts.py",
    "screening/vocabulary.py",
    "screening/names.py",
    "screening/buffers.py",
    "screening/leads.py",
    "screening/lead_table.py",
    "screening/providers.py",
    "screening/checkpoint.py",
    "screening/lookalike.py",
    "screening/markup.py",
    "screening/delimited.py",
    "screening/margins.py",
    "screening/comment_marks.py",
    "screening/escapes.py",
    "retrieval/lexer.py",
)
"""The modules whose rules decide a verdict, a duplicate key or a term (relative to the package)."""


class Derived:
    """What the store keeps of one version's content (one is made for every row a process loads;
    a plain class, so that a tool process imports no :mod:`typing` for it)."""

    __slots__ = ("hidden", "duplicate", "terms")

    hidden: str | None
    """Why it is hidden from models (a secret kind or the checkpoint imitation), or ``None``."""
    duplicate: bytes
    """A 128-bit digest of its duplicate key."""
    terms: Counter[str] | Words
    """Its BM25 terms: counts, or as read from the file, the words (see :class:`~tact_memory.retrieval.bm25.Words`)."""

    def __init__(self, hidden: str | None, duplicate: bytes, terms: Counter[str] | Words) -> None:
        self.hidden = hidden
        self.duplicate = duplicate
        self.terms = terms


@lru_cache(maxsize=1)
def rules() -> str:
    """A digest of the screening, folding and tokenizing rules this code applies.

    Taken over the source of the modules that hold them, the stored format and the ranking's
    ``fold`` setting, so any change to a rule changes it. Without the sources (a frozen
    installation) it is unique to the process, and nothing stored is ever reused.
    """
    h = blake2b(f"{_FORMAT} {DEFAULT_RANKING.fold}".encode(), digest_size=12)
    package = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    try:
        for name in _SOURCES:
            with open(os.path.join(package, *name.split("/")), "rb") as source:
                h.update(source.read())
    except OSError:
        import secrets

        h.update(secrets.token_bytes(16))
    return h.hexdigest()


def digest(content: str) -> bytes:
    """The 128-bit digest of ``content``'s duplicate key."""
    return blake2b(duplicate_key(content).encode("utf-8"), digest_size=16).digest()


def content_digest(content: str) -> bytes:
    """The 128-bit digest of ``content`` itself (lone surrogates included), naming what was screened."""
    return blake2b(content.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def derive(content: str) -> Derived:
    """Screen and tokenize one version's content (the costly part)."""
    from ..retrieval.bm25 import count_terms

    return Derived(hidden_reason(content), digest(content), count_terms(content, fold=DEFAULT_RANKING.fold))


def encode(version: int, derived: Derived) -> str | None:
    """The stored form of ``derived`` for ``version``; ``None`` if a term could not be kept (never, for our lexer)."""
    terms = derived.terms
    if not isinstance(terms, str):
        distinct = list(terms)
        # Each term one non-empty run without whitespace: splitting the joined terms gives them back.
        if " ".join(distinct).split() != distinct:
            return None
    words = terms if isinstance(terms, str) else " ".join(terms.elements())
    return json.dumps([rules(), version, derived.hidden, derived.duplicate.hex(), words], ensure_ascii=False)


def decode(stored: object, version: int) -> Derived | None:
    """What ``stored`` says of ``version``, or ``None`` unless it is well formed and current."""
    if not isinstance(stored, str):
        return None
    try:
        value = _loads(stored)
    except (ValueError, RecursionError):  # not JSON, a number too long for int(), or nested too deeply
        return None
    if type(value) is not list or len(value) != 5:
        return None
    stamp, for_version, hidden, duplicate, words = value
    if stamp != rules() or type(for_version) is not int or for_version != version:
        return None
    if not (hidden is None or isinstance(hidden, str)) or not isinstance(duplicate, str) or not isinstance(words, str):
        return None
    try:
        raw = bytes.fromhex(duplicate)
    except ValueError:
        return None
    if len(raw) != 16:
        return None
    return Derived(hidden, raw, _words()(words))


def _loads(text: str) -> object:
    """``json.loads(text)``, without its per-call overhead for a value with nothing around it.

    A cold process decodes every row's value, so this is on the path of each first scan.
    """
    try:
        value, end = _scan(text, 0)
    except (StopIteration, ValueError):
        pass
    else:
        if end == len(text):
            return value
    return json.loads(text)  # the reference: surrounding whitespace, or the error to raise


_scan: Callable[[str, int], tuple[object, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]


@lru_cache(maxsize=1)
def _words() -> type[Words]:
    from ..retrieval.bm25 import Words

    return Words
