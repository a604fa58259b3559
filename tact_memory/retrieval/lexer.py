"""Turning record text into search terms, previews and duplicate keys.

Retrieval is lexical on purpose. The specification asks for a BM25 baseline over an inspectable
table before any model-dependent retrieval, and coding-agent memories are dense with exact names
(repositories, paths, commands, identifiers) that lexical matching finds exactly where a learned
similarity could blur them. Everything here is a pure function of its input;
:mod:`tact_memory.retrieval.bm25` builds the index on top of it, and ``tests/retrieval/test_quality.py``
measures each choice below on a fixture corpus.

Tokenizer. Text is NFC-normalized, then cut into runs of Unicode letters, digits and ``_``
(combining marks stay in their run, so accented and Indic words stay whole). Each run emits:

* its whole, case-folded (``max_page_count``, ``httpservererror``);
* its parts, when there is more than one, each once: the run split on ``_``, on lower-to-upper
  and (ASCII) digit-to-upper changes, as the shipped Rust tokenizer splits it (``useEffect``
  gives ``use``, ``effect``; ``IPv4Address`` gives ``ipv4``, ``address``; ``OAuth2Session``
  gives ``oauth2``, ``session``);
* and, for a part that starts with an acronym of two or more capitals, that acronym and the
  word after it as well (``HTTPServerError`` gives ``httpserver`` and ``error`` as parts, and
  ``http`` and ``server`` besides). ``URLs`` and ``PRs`` are plural acronyms, not ``UR`` + ``Ls``.

Punctuation separates runs, so ``src/store/migrations.py`` is found by ``store`` or ``migrations``
and ``billing-api`` by ``billing``. Letters and digits are not split apart (``python3`` stays one
term): on the fixtures that split changed nothing while adding a one-letter term for every version
string. Chinese and Japanese put no spaces between words, so their characters form runs of their own
(``Kafkaのトピック`` still yields ``kafka``) that also emit overlapping character pairs.

Stop words, queries only, for abstention only. A question such as "what should I do next?"
carries no searchable meaning, yet BM25 scores any shared term, so it would return five records
that happen to contain "should". Common English function words, question words and chat in the
*query* therefore cannot make a record a candidate, which lets such a scan abstain. They still
count once a content term has matched: "read-only replica" shares ``read`` and ``replica`` with a
record, and ``only`` then adds its BM25 weight, so the record that says "read-only" outranks one
that merely says "read". Records keep every term, so document lengths and BM25 statistics stay
honest. The list is broad on purpose: on the fixtures, taking out any of the borderline words
(``help``, ``work``, ``like``, ``next``, ``on``/``off``, ``before``/``after``) lowered abstention
and raised nothing, and since a stop word still weighs once a content word matched, keeping one
costs only the query made of nothing else ("the ``will`` keyword" abstains). The list is English
only. Stop words cannot make an off-topic question abstain when it shares a content word with some
record ("book a flight" meets "MacBook"); only an absent vocabulary does that.

Inflection folding, both sides. Agents ask "how do we deploy?" of a record that says "deploys", and
about "caching" where it says "cached". A handful of suffix rules (plural ``-s``/``-es``/``-ies``,
``-ed``, ``-ing``, a silent final ``e``, final ``y``/``i``) give such variants one key; ``-er`` and
derivations (``migrate``/``migration``) are left alone. Only plain ASCII words of four letters or
more are folded, never identifiers (anything with a digit or ``_``) or other languages, and a short
list of words that merely look inflected (``kubernetes``, ``news``, ``lens``, ``bias``) is kept. The
cost: keys are not always words (``query`` becomes ``queri``), a few unrelated words meet
(``settings`` and ``set``, ``match`` and ``matching``), and an off-topic question abstains slightly
less often.

Why this module is longer than ~300 lines: the tokenizer, the inflection folding and the stop words
are one lexer whose parts must agree on what a term is; previews and byte sizes are small and sit
with it.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterator

__all__ = [
    "BIDI_CONTROLS",
    "BIDI_OPENERS",
    "STOP_WORDS",
    "document_terms",
    "first_open_bidi",
    "fold_for_duplicate",
    "fold_word",
    "preview",
    "query_terms",
    "split_query",
    "utf8_size",
]

STOP_WORDS: frozenset[str] = frozenset(
    """
    a an the this that these those some any each every all both either neither no none other
    another such same own much many more most few several enough
    i me my mine myself we us our ours ourselves you your yours yourself yourselves he him his
    she her hers it its itself they them their theirs themselves one ones someone anyone
    everyone somebody anybody something anything everything nothing
    am is are was were be been being do does did doing done have has had having can could
    shall should will would may might must ought
    s t d ll re ve m don doesn didn isn aren wasn weren won wouldn shouldn couldn hasn haven
    hadn ain cannot let
    about above across after against along among around at before behind below beside between
    beyond by down during except for from in inside into near of off on onto out outside over
    per since than through till to toward towards under until up upon via with within without
    and or but nor so yet if then else because as while whether though although unless also too
    what which who whom whose when where why how whatever whichever whoever whenever wherever
    not yes very just only really again already always never ever often still now here there
    soon later maybe perhaps well even quite rather almost actually basically anyway ok okay
    sure please thanks thank hi hello hey sorry like
    know knows tell think thinks want wants mean means say said help work works going gonna
    thing things stuff way lot next today tomorrow yesterday
    """.split()
)
"""Query terms that never make a scan match: English function words, question words and chat."""

# Words that look inflected but are not, or whose folded form would meet another word.
_KEEP = frozenset(
    """
    this does goes news lens series species always perhaps whereas alias bias canvas atlas
    kubernetes postgres redis jenkins windows pandas embed
    """.split()
)
_MIN_FOLD = 4
_VOWELS = frozenset("aeiouy")
# One syllable ending consonant-vowel-consonant ("cod", "not", "stor"): its silent "e" is kept,
# so "code"/"coded"/"coding" share "code" and never meet "cod" or "not".
_SHORT = re.compile(r"[^aeiouy]*[aeiouy][^aeiouywx]")
# Everything but white space and ASCII punctuation, symbols and controls: an ASCII match is a
# run as it stands, and the rare non-ASCII one is sorted out character by character.
_CANDIDATE = re.compile(r"[^\x00-\x2f\x3a-\x40\x5b-\x5e\x60\x7b-\x7f\s]+")
_ASCII_UPPER = re.compile(r"[A-Z]")
_ACRONYM_PLURAL = re.compile(r"[A-Z]{2,}s")


def utf8_size(text: str) -> int:
    """Return the size of ``text`` in UTF-8 bytes.

    Args:
        text: Any string.

    Returns:
        ``len(text.encode("utf-8"))``.

    Raises:
        ValueError: ``text`` holds a lone surrogate, which UTF-8 cannot encode.
    """
    return len(_encode(text))


def _encode(text: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValueError(
            f"text is not valid Unicode: lone surrogate {text[exc.start]!r} at index {exc.start}"
        ) from exc


def preview(content: str, limit_bytes: int = 64) -> str:
    """Return ``content`` cut to at most ``limit_bytes`` UTF-8 bytes without splitting a code point.

    A cut never leaves a bidirectional embedding, override or isolate open: the text after the
    preview (the rest of a candidate card, of a prompt, of a terminal line) would otherwise be
    reordered or shown right to left. When the longest fitting prefix would end inside such a run,
    the preview ends just before the run's opening control instead, so it stays a prefix of the
    content, possibly a much shorter one. Content that fits is returned whole, as the
    specification asks, even if it leaves a run open itself: that is the record as a ``read``
    returns it.

    Args:
        content: The record content.
        limit_bytes: Largest preview size in UTF-8 bytes.

    Returns:
        ``content`` itself when it fits, else its longest prefix that fits and closes every
        bidirectional run it opens.

    Raises:
        ValueError: ``limit_bytes`` is negative, or ``content`` holds a lone surrogate.
    """
    if limit_bytes < 0:
        raise ValueError(f"limit_bytes must not be negative, got {limit_bytes}")
    encoded = _encode(content)
    if len(encoded) <= limit_bytes:
        return content
    # The input is valid UTF-8, so the only bytes "ignore" can drop are those of the code point
    # the cut went through.
    cut = encoded[:limit_bytes].decode("utf-8", errors="ignore")
    return cut[: first_open_bidi(cut)]


BIDI_OPENERS: frozenset[str] = frozenset("\u202a\u202b\u202d\u202e\u2066\u2067\u2068")
"""Controls that open a bidirectional run: LRE, RLE, LRO, RLO (closed by PDF) and LRI, RLI, FSI
(closed by PDI)."""

BIDI_CONTROLS: frozenset[str] = BIDI_OPENERS | frozenset("\u202c\u2069\u200e\u200f\u061c")
"""Every bidirectional formatting character: the openers, PDF, PDI, and the LRM, RLM and ALM
marks."""

_ISOLATES = frozenset("\u2066\u2067\u2068")
_PDF, _PDI = "\u202c", "\u2069"
# Bidi class B: a paragraph break ends every run that is still open.
_PARAGRAPH_BREAKS = frozenset("\n\r\x1c\x1d\x1e\x85\u2029")


def first_open_bidi(text: str) -> int:
    """Return where the outermost bidirectional run still open at the end of ``text`` starts.

    Runs nest as the Unicode bidirectional algorithm (UAX #9) nests them, without its depth
    limit: PDF closes the innermost embedding or override unless an isolate was opened after it,
    PDI closes the innermost isolate and everything opened inside it, an unmatched PDF or PDI
    does nothing, and a paragraph break closes everything.

    Args:
        text: Any string.

    Returns:
        The index of the opening control of the outermost open run, or ``len(text)`` when every
        run is closed; ``text[:index]`` then closes every run it opens.
    """
    if not BIDI_CONTROLS.intersection(text):
        return len(text)
    stack: list[tuple[int, bool]] = []  # (index of the opener, whether it opened an isolate)
    for index, ch in enumerate(text):
        if ch in BIDI_OPENERS:
            stack.append((index, ch in _ISOLATES))
        elif ch == _PDF:
            if stack and not stack[-1][1]:
                stack.pop()
        elif ch == _PDI:
            if any(isolate for _, isolate in stack):
                while not stack.pop()[1]:
                    pass
        elif ch in _PARAGRAPH_BREAKS:
            stack.clear()
    # The outermost open run began when nothing was open, so everything before it is closed.
    return stack[0][0] if stack else len(text)


def fold_for_duplicate(content: str) -> str:
    """Return the key under which two contents count as duplicates.

    Args:
        content: The record content.

    Returns:
        ``content`` case-folded, with every run of white space collapsed to one space and the
        ends stripped.
    """
    return " ".join(content.casefold().split())


@functools.lru_cache(maxsize=1 << 15)
def fold_word(term: str) -> str:
    """Return the inflection key of one lower-case term.

    Plain ASCII words of at least four letters lose inflectional suffixes (``deploys``,
    ``deployed``, ``deploying`` all give ``deploy``); anything else is returned unchanged.

    Args:
        term: A lower-case term as the tokenizer emits it.

    Returns:
        The key, never empty for a non-empty term; ``fold_word(fold_word(t)) == fold_word(t)``.
    """
    if len(term) < _MIN_FOLD or not (term.isascii() and term.isalpha()) or term in _KEEP:
        return term
    # Each step shortens the word or turns a final "y" into "i", so this reaches a fixed point;
    # iterating makes "settings" meet "setting" and the key idempotent.
    for _ in range(len(term)):
        folded = _fold_once(term)
        if folded == term:
            break
        term = folded
    return term


def _fold_once(word: str) -> str:
    if len(word) < _MIN_FOLD or word in _KEEP:
        return word
    if word.endswith(("ies", "ied")):
        if len(word) > 4:  # "queries", "queried" -> "queri", the key of "query"
            return word[:-3] + "i"
        return word[:-1] if word.endswith("s") else word[:-2] + "e"  # "ties", "died"
    if word.endswith("s"):
        if word[-2] in "su":  # class, status, focus
            return word
        stem = word[:-1]
        return _drop_e(stem) if stem.endswith("e") else stem
    if word.endswith("eed"):  # need, speed, proceed
        return word
    for suffix in ("ed", "ing"):
        stem = word[: -len(suffix)]
        if word.endswith(suffix) and _VOWELS.intersection(stem):  # not "shed", "string"
            return _restore(stem)
    if word.endswith("e"):
        return _drop_e(word)
    if word[-1] == "y" and word[-2] not in _VOWELS:
        return word[:-1] + "i"
    return word


def _strippable_s(stem: str) -> bool:
    return stem.endswith("s") and stem[-2:-1] not in ("s", "u") and stem not in _KEEP


def _is_short(stem: str) -> bool:
    return len(stem) < 3 or _SHORT.fullmatch(stem) is not None


def _drop_e(word: str) -> str:
    stem = word[:-1]
    # "release" keeps its "e": "releas" would lose its "s" on the next step.
    if _is_short(stem) or stem.endswith("e") or _strippable_s(stem):
        return word
    return stem


def _restore(stem: str) -> str:
    """Undo the spelling change of ``-ed``/``-ing``: "stopp" -> "stop", "cod" -> "code".

    A doubled ``l``, ``s``, ``f`` or ``z`` belongs to the word itself ("install", "pass", "diff").
    """
    if len(stem) > 3 and stem[-1] == stem[-2] and stem[-1] not in "aeiouylsfz":
        return stem[:-1]
    if _is_short(stem) or _strippable_s(stem):
        return stem + "e"
    return stem


def _is_cjk(ch: str) -> bool:
    code = ord(ch)
    return (
        0x3040 <= code <= 0x30FF  # hiragana, katakana
        or 0x3400 <= code <= 0x4DBF  # CJK extension A
        or 0x4E00 <= code <= 0x9FFF  # CJK unified ideographs
        or 0xF900 <= code <= 0xFAFF  # compatibility ideographs
        or 0x20000 <= code <= 0x2FFFF  # supplementary ideographs
    )


def _runs(text: str) -> Iterator[str]:
    """Yield the runs of letters, digits, ``_`` and combining marks in ``text``."""
    text = unicodedata.normalize("NFC", text)
    for candidate in _CANDIDATE.findall(text):
        if candidate.isascii():
            yield candidate
        else:
            yield from _non_ascii_runs(candidate)


def _non_ascii_runs(candidate: str) -> Iterator[str]:
    # Chinese and Japanese characters form runs of their own, so "Kafkaのトピック" still yields
    # "Kafka": that text runs Latin words into its own without a space.
    start, cjk = -1, False
    for index, ch in enumerate(candidate):
        if ch.isalnum() or ch == "_":
            here = _is_cjk(ch)
            if start >= 0 and here != cjk:
                yield candidate[start:index]
                start = -1
            if start < 0:
                start, cjk = index, here
        elif start >= 0 and not unicodedata.category(ch).startswith("M"):
            yield candidate[start:index]
            start = -1
    if start >= 0:
        yield candidate[start:]


def _pieces(run: str) -> list[str]:
    """Split one run into its original-case parts: those the shipped tokenizer makes, then the
    acronym sub-parts of any of them (see the module docstring)."""
    pieces: list[str] = []
    for chunk in run.split("_"):
        if not chunk:
            continue
        begin = 0
        for i in range(1, len(chunk)):
            before = chunk[i - 1]
            if chunk[i].isupper() and (before.islower() or before in "0123456789"):
                pieces.append(chunk[begin:i])
                begin = i
        pieces.append(chunk[begin:])
    return pieces + [sub for piece in pieces for sub in _acronym_parts(piece)]


def _acronym_parts(piece: str) -> list[str]:
    """``HTTPServer`` -> ``HTTP``, ``Server``: a piece that starts with two or more capitals and goes
    on in lower case, split before the capital that starts the word; nothing for any other piece
    (``IPv4``, ``OAuth2``, ``URLs``: one capital before the lower case, or a plural ``s``)."""
    if _ACRONYM_PLURAL.fullmatch(piece):
        return []
    upper = 0
    while upper < len(piece) and piece[upper].isupper():
        upper += 1
    if upper < 3 or upper == len(piece) or not piece[upper].islower():
        return []
    return [piece[: upper - 1], piece[upper - 1 :]]


def _key(piece: str, fold: bool) -> str:
    if not fold:
        return piece.casefold()
    if _ACRONYM_PLURAL.fullmatch(piece):  # "PRs" -> "pr", so it meets "PR"
        return piece[:-1].casefold()
    return fold_word(piece.casefold())


def _terms(text: str, fold: bool) -> Iterator[tuple[str, str]]:
    """Yield ``(surface, key)`` pairs: the lower-cased term before folding, and its index key."""
    for run in _runs(text):
        whole = run.casefold()
        if run.isascii():
            if "_" not in run and not _ASCII_UPPER.search(run, 1):  # a plain word
                yield whole, fold_word(whole) if fold else whole
                continue
        elif _is_cjk(run[0]):
            # No spaces between words: overlapping character pairs stand in for them.
            yield whole, whole
            if len(run) > 2:
                for first, second in zip(run, run[1:]):
                    yield first + second, first + second
            continue
        pieces = _pieces(run)
        if pieces == [run]:
            yield whole, _key(run, fold)
            continue
        # An identifier is one term as written (folding cannot touch "_" or digits, and folds
        # "getUsers" as it would fold "getusers" typed in lower case) and its parts are words,
        # each counted once ("cache_cache" is about a cache once, as the shipped tokenizer has it).
        yield whole, fold_word(whole) if fold else whole
        seen = {whole}
        for piece in pieces:
            lowered = piece.casefold()
            if lowered not in seen:
                seen.add(lowered)
                yield lowered, _key(piece, fold)


def document_terms(content: str, *, fold: bool = True) -> list[str]:
    """Return every indexed term of a record, with multiplicity.

    Args:
        content: The record content.
        fold: Apply inflection folding (see the module docstring).

    Returns:
        The terms in text order; their counts are the term frequencies and their number is the
        document length used by BM25.
    """
    return [key for _, key in _terms(content, fold)]


def query_terms(query: str, *, stop_words: bool = True, fold: bool = True) -> frozenset[str]:
    """Return the set of content terms of a scan query: the terms that can make a record match.

    Args:
        query: The query text.
        stop_words: Leave out :data:`STOP_WORDS` (matched before folding).
        fold: Apply the same inflection folding as :func:`document_terms`.

    Returns:
        The distinct terms; an empty set means the scan abstains.
    """
    return split_query(query, stop_words=stop_words, fold=fold)[0]


def split_query(
    query: str, *, stop_words: bool = True, fold: bool = True
) -> tuple[frozenset[str], frozenset[str]]:
    """Return the content terms and the stop-word terms of a scan query.

    A key that some word of the query gives as content is content, even if a stop word gives it
    too ("thinking" makes ``think`` content in "think thinking").

    Args:
        query: The query text.
        stop_words: Tell :data:`STOP_WORDS` apart; without it every term is content.
        fold: Apply the same inflection folding as :func:`document_terms`.

    Returns:
        ``(content, stop)``, two disjoint sets of index keys.
    """
    content: set[str] = set()
    stop: set[str] = set()
    for surface, key in _terms(query, fold):
        (stop if stop_words and surface in STOP_WORDS else content).add(key)
    return frozenset(content), frozenset(stop - content)
