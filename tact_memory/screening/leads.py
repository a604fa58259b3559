"""How every rule of the screen starts with a literal, and how that literal is read without compiling
the rule.

Speed: every quantifier is bounded or runs over a character class disjoint from what follows it, so
a scan is linear in the input length. Every rule starts with a literal (a token's "must not continue
a longer word" look-behind sits after its prefix, and an assignment is found by its separator, not
its name), which lets the regex engine jump between candidates; a 1 KiB record takes well under a
millisecond. Nothing is compiled on import, and a rule is compiled the first time content holds its
literal lead (:func:`literal_lead`, read from the pattern's text without compiling it): compiling
every rule and check costs some thirty milliseconds, which a cold process that screens a few
ordinary records (a scan serving five cards) should not pay for rules their text cannot reach.
Looking for each rule's lead in turn is most of a screen's time once the rules are compiled, so a
screen that has checked a few dozen contents compiles one pattern that finds every lead in a
single pass (:func:`lead_finder`), which takes half as long.
"""

from __future__ import annotations

import functools
import re

TYPE_CHECKING = False  # typing is not imported: a tool process screens what it serves
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any, AnyStr

__all__ = ["TOKEN_END", "cased", "compiled", "lead_finder", "literal_lead", "spelled", "word_start"]

_TOKEN_GAP = rb"[A-Za-z0-9_-]"
TOKEN_END = rb"(?![A-Za-z0-9_-])"  # a token ends where its run of token characters ends


def word_start(lead: bytes, rest: bytes, gap: bytes = _TOKEN_GAP) -> bytes:
    """``lead`` then ``rest``, where ``lead`` (fixed width) must not continue a run of ``gap``.

    The look-behind follows the lead instead of preceding it, so the pattern still starts with a
    literal and the engine jumps between its occurrences instead of trying every position, which is
    what keeps a screen well under a millisecond.
    """
    return lead + rb"(?<!" + gap + lead + rb")" + rest


def cased(word: bytes, rest: bytes, gap: bytes) -> tuple[bytes, bytes]:
    """Two patterns for a header word as it is written: ``Word``/``word``, and ``WORD``.

    A case-insensitive pattern has no literal prefix for the engine to jump to and is tried at
    every position, which costs as much as a dozen literal rules; the two literal spellings cover
    the ways headers and configuration keys are written.
    """
    tail = word[1:]
    first = b"[" + word[:1].upper() + word[:1] + b"]"
    title = tail + rb"(?<=" + first + tail + rb")(?<!" + gap + first + tail + rb")" + rest
    return title, word_start(word.upper(), rest, gap)


def spelled(word: bytes, rest: bytes, gap: bytes) -> tuple[bytes, bytes, bytes]:
    """Three patterns for a word of prose as it is written: ``word``, ``Word`` and ``WORD``, each
    starting with the whole word. :func:`cased` starts its ``Word`` pattern with the word's tail,
    which a short word shares with many others (``ey`` in they, money, eye)."""
    title = word[:1].upper() + word[1:]
    return word_start(word, rest, gap), word_start(title, rest, gap), word_start(word.upper(), rest, gap)


def compiled(source: AnyStr) -> functools.cached_property[re.Pattern[AnyStr]]:
    """An attribute holding ``source`` compiled, compiled the first time it is read."""
    return functools.cached_property(lambda _screen: re.compile(source))



def literal_lead(source: bytes) -> bytes:
    """Bytes every match of the regular expression ``source`` starts with (``b""`` if none are sure).

    A cheap, conservative reading of the pattern's opening: literal bytes and escaped punctuation
    up to the first other construct, without a byte that a quantifier follows (it may be absent),
    and nothing at all when the pattern has a top-level alternative (``a|b``). Reading it costs
    microseconds, where compiling the pattern costs a quarter of a millisecond or more.
    """
    if b"|" in source and _top_level_alternative(source):  # the byte-by-byte walk, only where it can matter
        return b""
    lead = bytearray()
    i = 0
    while i < len(source):
        byte = source[i]
        if byte == 0x5C:  # a backslash: escaped punctuation is literal, a letter or digit is a class
            if i + 1 >= len(source) or chr(source[i + 1]).isalnum():
                break
            literal, width = source[i + 1], 2
        elif byte in _SPECIAL:
            break
        else:
            literal, width = byte, 1
        if source[i + width : i + width + 1] in (b"*", b"+", b"?", b"{"):
            break
        lead.append(literal)
        i += width
    return bytes(lead)


_SPECIAL = frozenset(b".^$*+?{}[]|()")


def _top_level_alternative(source: bytes) -> bool:
    """Whether ``source`` has a ``|`` outside every group and character class: with escapes and
    classes taken out, groups are taken out innermost first, and what is left is the top level.
    Each step is one pass of the regex engine: for the rules' 155 patterns with a ``|``, 0.8 ms
    against 1.8 ms for a walk byte by byte, in a process that reads them all on its first screen."""
    flat = re.sub(_ESCAPE_OR_CLASS, b"", source, flags=re.DOTALL)
    while True:
        outer = re.sub(rb"\([^()]*\)", b"", flat)
        if outer == flat:
            return b"|" in flat
        flat = outer


_ESCAPE_OR_CLASS = rb"\\.|\[\^?\]?(?:\\.|[^\]\\])*\]"
"""An escaped byte, or a character class (a ``]`` right after its ``[`` or ``[^`` is a member)."""


def lead_finder(leads: Iterable[bytes]) -> bytes:
    """A pattern that finds, at every position of a text, the longest of ``leads`` that starts
    there, as its one group: ``findall`` then lists each lead a text holds, but those that are a
    prefix of a longer one found at the same place (``pass`` under ``password``), which the
    caller adds. The leads are a trie (``pass(?:word|wd)?``), so at each position the engine
    follows one branch per byte instead of trying every lead in turn."""
    trie: dict[int, Any] = {}
    for lead in leads:
        node = trie
        for byte in lead:
            node = node.setdefault(byte, {})
        node[-1] = {}  # a lead ends here

    def branches(node: dict[int, Any]) -> bytes:
        ways = [re.escape(bytes([byte])) + branches(child) for byte, child in sorted(node.items()) if byte >= 0]
        if not ways:
            return b""
        body = ways[0] if len(ways) == 1 else b"(?:" + b"|".join(ways) + b")"
        return b"(?:" + body + b")?" if -1 in node else body

    return b"(?=(" + branches(trie) + b"))"
