"""Look-alike folding: text reduced to what a reader would take it for, for comparison only.

:func:`fold` maps text to a *skeleton* so that two strings a person (or a model) would read as the
same text get the same skeleton. It is used to recognise imitations of fixed runtime text; it is
never shown and never stored.

Design:

- Each character is first mapped to its *prototype* from Unicode's confusable data (Unicode
  Technical Standard #39, ``confusables.txt``, as shipped by the ``confusable-homoglyphs``
  package): Cyrillic ``а`` and Greek ``α`` become ``a``, ``1`` and ``|`` and capital ``I`` become
  ``l``, ``m`` becomes ``rn`` (so ``rn`` and ``m`` agree), the minus sign becomes ``-``.
- Then compatibility decomposition (NFKD) and case folding: full-width, mathematical, circled and
  superscript letters and ligatures become plain letters, accents become separate marks, and the
  prototype of the result is taken once more, so case never matters (``i`` joins ``I`` and ``l``;
  small capitals read as their letter).
- Every *default-ignorable* code point (Unicode's ``Default_Ignorable_Code_Point`` property, derived
  below from its definition, since :mod:`unicodedata` does not expose it) folds to nothing, and so
  does every combining mark: zero-width spaces and joiners, soft hyphens, bidirectional controls,
  variation selectors, the combining grapheme joiner, Hangul fillers, tag characters, accents.
- Opening brackets of every kind (``[``, ``(``, ``{``, ``<``, ``⟦``, ``【`` …) become ``(`` and closing
  ones ``)``. Everything else that is not a letter or digit (white space of any kind, including
  U+2800 BRAILLE PATTERN BLANK; dashes and what TS #39 files with them; other punctuation and
  symbols) folds to nothing.

So a skeleton is a string of letter and digit prototypes and the two bracket marks. It is coarser
than the standard's own skeleton (case, marks, spacing and punctuation are gone), which suits a
detector of imitations: it errs towards "reads the same". The confusable data is loaded on the
first call on text that is not ASCII (some 50 to 100 ms), never at import; after that, a 1 KiB
record folds in tens of microseconds. ASCII text takes a bytes shortcut from a table kept in this
module (checked against the data by a test), so it never needs the data.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterable

__all__ = ["CLOSE", "OPEN", "fold", "is_default_ignorable", "letters_only"]

OPEN = "("
"""What every opening bracket folds to."""

CLOSE = ")"
"""What every closing bracket folds to."""

# Default_Ignorable_Code_Point is defined (DerivedCoreProperties.txt) as
#   Other_Default_Ignorable_Code_Point + Cf + Variation_Selector
#   - White_Space - FFF9..FFFB - 13430..1343F - Prepended_Concatenation_Mark.
# The three fixed lists below are the PropList.txt properties it names; Cf comes from unicodedata.
_OTHER_DEFAULT_IGNORABLE = (
    (0x034F, 0x034F), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x2065, 0x2065), (0x3164, 0x3164),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0xE0000, 0xE0000), (0xE0002, 0xE001F), (0xE0080, 0xE00FF),
    (0xE01F0, 0xE0FFF),
)  # fmt: skip
_VARIATION_SELECTORS = ((0x180B, 0x180D), (0x180F, 0x180F), (0xFE00, 0xFE0F), (0xE0100, 0xE01EF))
_NOT_IGNORABLE_FORMAT = (
    (0xFFF9, 0xFFFB),  # interlinear annotation controls: they delimit visible text
    (0x13430, 0x1343F),  # Egyptian hieroglyph format controls: they arrange visible signs
    # Prepended_Concatenation_Mark: visible number signs that span the digits after them.
    (0x0600, 0x0605), (0x06DD, 0x06DD), (0x070F, 0x070F), (0x0890, 0x0891), (0x08E2, 0x08E2),
    (0x110BD, 0x110BD), (0x110CD, 0x110CD),
)  # fmt: skip


def _within(cp: int, ranges: Iterable[tuple[int, int]]) -> bool:
    return any(low <= cp <= high for low, high in ranges)


def is_default_ignorable(ch: str) -> bool:
    """Whether ``ch`` has Unicode's Default_Ignorable_Code_Point property (shown as nothing)."""
    cp = ord(ch)
    if _within(cp, _OTHER_DEFAULT_IGNORABLE) or _within(cp, _VARIATION_SELECTORS):
        return True
    return unicodedata.category(ch) == "Cf" and not ch.isspace() and not _within(cp, _NOT_IGNORABLE_FORMAT)


def _preferred(a: str, b: str) -> bool:
    """Of two characters that name only each other, whether ``a`` is the prototype.

    The one that compatibility decomposition leaves alone wins (a CJK ideograph over the Kangxi
    radical that decomposes to it), then the lower code point.
    """
    a_plain, b_plain = unicodedata.normalize("NFKD", a) == a, unicodedata.normalize("NFKD", b) == b
    return a_plain > b_plain or (a_plain == b_plain and a < b)


def _prototypes() -> dict[str, str]:
    """TS #39's map from a confusable character to its prototype, as far as the data tells it.

    The data package records each ``source ; prototype`` line of ``confusables.txt`` in both
    directions and takes the characters from the comment column, where right-to-left characters
    are wrapped in direction marks for display (those marks are not data). The direction comes
    back from the shape of the table: every source has exactly one prototype and no prototype is a
    source, so a character with several look-alikes, or a sequence of several characters, is a
    prototype. Where two characters name only each other, :func:`_preferred` picks one; either
    choice gives the same classes. The package's data file is read directly: its modules would
    also load script tables that are not needed here.
    """
    from importlib import resources  # with its own imports, only when the data is needed

    table = json.loads(resources.files("confusable_homoglyphs").joinpath("confusables.json").read_bytes())
    linked: dict[str, set[str]] = {}
    for key, entries in table.items():
        key = key.replace("\u200e", "").replace("\u200f", "")
        for entry in entries:
            other = entry["c"].replace("\u200e", "").replace("\u200f", "")
            linked.setdefault(key, set()).add(other)
            linked.setdefault(other, set()).add(key)
    prototype: dict[str, str] = {}
    for ch, others in linked.items():
        if len(ch) != 1:
            continue
        if len(others) == 1:
            (other,) = others
            if len(other) > 1 or len(linked[other]) > 1 or _preferred(other, ch):
                prototype[ch] = other
        elif any(len(o) > 1 for o in others):
            prototype[ch] = min(o for o in others if len(o) > 1)
    return prototype


_SMALL_CAPITAL = "LATIN LETTER SMALL CAPITAL "
"""Small capitals read as their letter once case is ignored."""

_DROPPED = frozenset({"Mn", "Me", "Pd", "Zs", "Zl", "Zp", "Cc"})
"""Categories that fold to nothing: combining marks, dashes, white space, controls."""


class _Folding(dict[int, str]):
    """A ``str.translate`` table from code point to skeleton text, filled in as characters appear."""

    def __init__(self) -> None:
        super().__init__()
        self._prototype = _prototypes()
        # Dashes are dropped by category; characters that TS #39 files with a dash (the minus sign,
        # the long vowel mark that stands for an em dash) are dropped with them.
        self._dashes = {self._prototype.get(ch, ch) for ch in self._prototype if unicodedata.category(ch) == "Pd"}
        self._dashes.update(ch for ch, p in self._prototype.items() if p in self._dashes)
        # TS #39 is case-sensitive and files capital I with l; after case folding, i would differ
        # from it. Where a capital letter's skeleton is not its small letter's, both fold alike.
        self._alias: dict[str, str] = {}
        for small in "abcdefghijklmnopqrstuvwxyz":
            upper, lower = self._fold_char(small.upper()), self._fold_char(small)
            if upper != lower and len(upper) == len(lower) == 1:
                self._alias[lower] = upper
        # ASCII text (most records) takes a bytes path: one C-level translate, then a replacement
        # for each of the few characters that fold to several letters (m and M to rn).
        table, drop, expansions = bytearray(range(256)), bytearray(), {}
        for cp in range(128):
            text = self[cp]
            assert text.isascii(), "an ASCII character folds to ASCII"
            if not text:
                drop.append(cp)
            elif len(text) == 1:
                table[cp] = ord(text)
            else:
                placeholder = chr(cp).lower()
                table[cp] = ord(placeholder)
                expansions[placeholder.encode()] = text.encode()
        assert not set(expansions) & {bytes([table[c]]) for c in range(128) if len(self[c]) == 1}
        self._ascii_table, self._ascii_drop = bytes(table), bytes(drop)
        self._expansions = list(expansions.items())

    def fold(self, text: str) -> str:
        """See :func:`fold`."""
        text = unicodedata.normalize("NFD", text)
        if not text.isascii():
            return text.translate(self)
        data = text.encode("ascii").translate(self._ascii_table, self._ascii_drop)
        for placeholder, expansion in self._expansions:
            data = data.replace(placeholder, expansion)
        return data.decode("ascii")

    def __missing__(self, cp: int) -> str:
        text = self._fold_char(chr(cp))
        self[cp] = text
        return text

    def _skeleton(self, text: str) -> str:
        """Prototypes first (TS #39 maps canonical forms), then compatibility decomposition."""
        mapped = "".join(self._prototype.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
        return unicodedata.normalize("NFKD", mapped)

    def _fold_char(self, ch: str) -> str:
        category = unicodedata.category(ch)
        if category in _DROPPED or is_default_ignorable(ch) or ch in self._dashes:
            return ""
        if category == "Ps":
            return OPEN
        if category == "Pe":
            return CLOSE
        out = []
        for part in self._skeleton(self._skeleton(ch).casefold()).casefold():
            if part == "<" or unicodedata.category(part) == "Ps":
                out.append(OPEN)
            elif part == ">" or unicodedata.category(part) == "Pe":
                out.append(CLOSE)
            elif part.isalnum() and part not in self._dashes and not is_default_ignorable(part):
                name = unicodedata.name(part, "")
                if name.startswith(_SMALL_CAPITAL) and len(name) == len(_SMALL_CAPITAL) + 1:
                    part = name[-1].lower()  # TS #39 files Greek tau with small capital T
                out.append(self._alias.get(part, part))
        return "".join(out)


_folding: _Folding | None = None

ASCII_DROPPED = bytes([*range(0x20), *b" !\"#$&'*+,-./:;=?@\\^_`~", 0x7F])
"""The ASCII characters whose skeleton is empty, as the confusable data decides them."""
ASCII_SKELETONS = {
    **{chr(c): chr(c).lower() for c in range(ord("A"), ord("Z") + 1)},
    **{"%": "oo", "0": "o", "1": "l", "I": "l", "i": "l", "|": "l", "M": "rn", "m": "rn"},
    **{"<": OPEN, "[": OPEN, "{": OPEN, ">": CLOSE, "]": CLOSE, "}": CLOSE},
}
"""The other ASCII characters whose skeleton is not themselves, as the confusable data decides them.

Kept here so that ASCII text, most records, folds without loading that data (tens of
milliseconds in a process that screens a few records); ``tests/screening/test_checkpoint.py``
checks both against what :class:`_Folding` derives from the data.
"""


def _ascii_table() -> tuple[bytes, list[tuple[bytes, bytes]]]:
    """A ``bytes.translate`` table for :data:`ASCII_SKELETONS`, and the expansions applied after it."""
    table, expansions = bytearray(range(256)), []
    for ch, skeleton in ASCII_SKELETONS.items():
        if len(skeleton) == 1:
            table[ord(ch)] = ord(skeleton)
        else:  # several letters: a placeholder (the character's own small form), replaced afterwards
            placeholder = ch.lower()
            table[ord(ch)] = ord(placeholder)
            if (placeholder.encode(), skeleton.encode()) not in expansions:
                expansions.append((placeholder.encode(), skeleton.encode()))
    return bytes(table), expansions


_ASCII_TABLE, _ASCII_EXPANSIONS = _ascii_table()


def fold(text: str) -> str:
    """The look-alike skeleton of ``text``: letters and digits by class, brackets as ``(`` / ``)``.

    ASCII text folds by :data:`ASCII_SKELETONS`. Other text loads the confusable data on its first
    call; later calls are one normalisation and one ``str.translate`` over the text.
    """
    text = unicodedata.normalize("NFD", text)
    if text.isascii():
        data = text.encode("ascii").translate(_ASCII_TABLE, ASCII_DROPPED)
        for placeholder, expansion in _ASCII_EXPANSIONS:
            data = data.replace(placeholder, expansion)
        return data.decode("ascii")
    global _folding
    if _folding is None:
        _folding = _Folding()
    return _folding.fold(text)


def letters_only(skeleton: str) -> str:
    """A skeleton from :func:`fold` without its bracket marks."""
    return skeleton.replace(OPEN, "").replace(CLOSE, "")
