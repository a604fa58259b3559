"""Secrets that are neither a password nor a key, each in the shape it is issued in: a PIN, a
lock's combination, a wallet's seed phrase, an account's recovery codes, a device's unlock or a
licence's activation code.

Design:

- Each is found by the word that names it, then the value in that shape after a colon, ``=`` or
  "is", and what it is for before them (``PIN: 4921``, ``the SIM PIN is 4921``,
  ``MNEMONIC="…twelve words…"``, ``GitHub recovery codes for the admin account: 3f9a2-c81d0 …``).
  Without the name, four digits or twelve words are anything.
- A PIN is four to eight digits, not part of a longer number, a date or a version (a door's, a
  gate's or an alarm's code is one by another name: ``door code: 4921``, as is a passcode or an
  unlock code of digits, and a SIM's PUK); one digit repeated or a run up or down (``0000``,
  ``1234``, ``654321``) is the default or an example, and kept. Right after ``PIN`` (or ``PUK``)
  in capitals it needs no colon or "is" when it ends its clause or says what it is for (``PIN 4921
  for the office door``). A pin of a circuit is no PIN: ``GPIO_PIN = 17`` is joined to its name,
  and a board's pins are numbered below a thousand.
- A lock's combination is numbers of one or two digits apart by dashes or spaces (``Safe
  combination: 31-7-22``), or digits as a PIN's after a lock's name (``padlock combo: 4821``);
  a run or one number repeated is an example, and a ratio's slashes are no combination's.
- A seed phrase (BIP-39) is 12, 15, 18, 21 or 24 lower-case words of three to eight letters;
  a sentence of that many such words after the name is unlikely, and one that repeats words
  (Hardhat's ``test test … junk``) is a well-known example, kept.
- A recovery or backup code (or key) is groups of letters and digits joined by dashes
  (``3f9a2-c81d0``, ``8F3K-2LQ9-XM4P``, or two groups of five digits, ``48291-37465``), four
  groups or more of capitals or digits alone (a disk encryption's recovery key), or eight to ten
  digits (``4830 1957``). Codes joined by dashes, or
  two codes of digits or more, say what they are without a colon: after a space, a dash or on the
  lines below the name (``GitHub recovery codes\n3f9a2-c81d0\n7b2e1-a9d44``). In no such shape,
  one run after a colon or "is" counts when it looks generated. Unlock and activation codes (a
  phone's, a licence's key) are read as recovery codes are.
- An app password as Google issues one is four groups of four lower-case letters (``app password:
  abcd efgh ijkl mnop``); after its name, four such words are none of prose's.
"""

from __future__ import annotations

import re

from .buffers import same_bytes
from .leads import compiled
from .value_checks import ValueChecks

__all__ = ["CodeChecks"]

_FOR = rb"(?:[ \t]+(?:for|of|on|to)(?:[ \t]+[^\s:=]{1,32}){1,4}?)"
"""What a secret is for, in up to four words after its name (``for the office door``)."""
CODE_SEPARATOR = _FOR + rb"?(?:[ \t]*[:=][ \t]*|[ \t]+(?:is|was|are|were)[ \t]+)[\"'`]?"
"""What stands between such a secret's name and its value: what it is for, in up to four words
(``the PIN for the office door is``, ``recovery codes for the admin account:``), then a colon,
``=`` or "is", and a quote."""

PIN_VALUE = rb"(?P<value>[0-9]{4,8})(?![0-9A-Za-z_:/-]|[.,][0-9])"
COMBINATION = (
    rb"(?P<value>[0-9]{1,2}(?:(?:[ \t]*-[ \t]*|[ \t]+)[0-9]{1,2}){2,4}|[0-9]{3,8})"
    rb"(?=[ \t]*(?:[.,;:()!]|\r|\n|\Z)|[ \t]+(?:for|of|on|to)[ \t])"
)
"""A lock's combination that ends its clause or says what it is for: three to five numbers of one or
two digits apart by dashes or spaces (not slashes, which a ratio's are: 50/30/20), or three to
eight digits."""
_NOTE_FOR = rb"(?:" + _FOR + rb"|[ \t]*\([^()\r\n]{1,40}\))?"
NOTE_SEPARATOR = _NOTE_FOR + rb"(?:[ \t]*[:=][ \t]*|[ \t]+(?:is|was|are|were)(?:[ \t]*:)?[ \t]+|[ \t]+-[ \t]+)[\"'`]?"
"""What stands between a seed phrase's or a lock's combination's name and its value on its line, as
notes write them: what it is for or an aside in brackets, then a colon, ``=``, "is" (or "is:"),
or a spaced dash (the screen reads every dash as a hyphen), and a quote."""
SEED_BELOW = _NOTE_FOR + rb"[ \t]*(?:[:-][ \t]*)?\r?\n(?:[ \t]*\r?\n)?"
"""What stands between a seed phrase's name and its words on the lines below: what it is for or an
aside, maybe a colon or a dash, the end of the line and maybe a blank line."""
_WORD_NUMBER = rb"(?:[0-9]{1,2}(?:[.):][ \t]*|[ \t]+))?"
SEED_WORDS = (
    rb"(?P<words>" + _WORD_NUMBER + rb"[a-z]{3,8}(?:(?:[ \t]+|[ \t]*,[ \t]*)" + _WORD_NUMBER + rb"[a-z]{3,8}){11,23})"
    rb"(?![A-Za-z0-9_-])"
)
"""A seed phrase's words on one line, apart by spaces or commas, each maybe numbered (``1. legal
2. winner …``)."""
SEED_LINES = rb"(?P<words>(?:[ \t]*(?:[-*][ \t]+)?" + _WORD_NUMBER + rb"[a-z]{3,8}[ \t]*(?:\r?\n|\Z)){12,24})"
"""A seed phrase's words one to a line (maybe numbered, or a list's items): the phrase ends where a
line holds anything else."""
_WORD_NUMBERED = rb"[0-9]{1,2}(?:[.):][ \t]*|[ \t]+)[a-z]{3,8}"
SEED_GRID = rb"(?P<words>(?:[ \t]*" + _WORD_NUMBERED + rb"(?:[ \t]+" + _WORD_NUMBERED + rb"){0,5}[ \t]*(?:\r?\n|\Z)){2,24})"
"""A seed phrase's words in a grid, as a wallet shows them: lines of up to six numbered words each
(``1. legal   2. winner   3. thank``); the phrase ends where a line holds anything else."""
RECOVERY_CODE = (
    rb"(?P<code>(?=[A-Za-z0-9-]*[0-9])(?=[A-Za-z0-9-]*[A-Za-z])[A-Za-z0-9]{4,6}(?:-[A-Za-z0-9]{4,6}){1,7}"
    rb"|[A-Z0-9]{4,6}(?:-[A-Z0-9]{4,6}){3,7}|[0-9]{5}-[0-9]{5}|[0-9]{4}[ -]?[0-9]{4}|[0-9]{8,10})(?![0-9A-Za-z_:/-]|\.[0-9A-Za-z])"
)
LISTED_SEPARATOR = (
    _FOR + rb"?(?:[ \t]*(?:[:-]|\xe2\x80[\x93\x94])?[ \t]*\r?\n[ \t]*(?:\r?\n[ \t]*)?(?:[-*][ \t]+)?|[ \t]+(?:-|\xe2\x80[\x93\x94])[ \t]+|[ \t]+)"
)
"""What stands between recovery codes' name and the codes when no colon or "is" on the same line
does: a space, a dash, or the end of the line (after a colon too; a blank line and a list's item
marker may follow), after what they are for."""
LISTED_CODE = (
    rb"(?P<code>(?=[A-Za-z0-9-]*[0-9])(?=[A-Za-z0-9-]*[A-Za-z])[A-Za-z0-9]{4,6}(?:-[A-Za-z0-9]{4,6}){1,7}"
    rb"|[A-Z0-9]{4,6}(?:-[A-Z0-9]{4,6}){3,7}"
    rb"|[0-9]{8,10}(?=[ \t]*[,\r\n][ \t]*(?:[-*][ \t]+)?[0-9]{8,10}|[ \t]+[0-9]{8,10}))(?![0-9A-Za-z_:/-]|\.[0-9A-Za-z])"
)
"""Recovery codes in the shapes that say what they are without a colon: groups joined by dashes,
or digits that a second code of digits follows (``38192047, 59201834``)."""
GENERATED_CODE = rb"(?P<code>[A-Za-z0-9][A-Za-z0-9_+/=.-]{7,63})(?![A-Za-z0-9_+/=-]|\.[A-Za-z0-9])"
"""A code in no shape of its own after a colon or "is": one run, judged as a generated value."""
_SEED_LENGTHS = frozenset((12, 15, 18, 21, 24))


class CodeChecks(ValueChecks):
    """The checks of PINs, seed phrases and recovery codes, on the content's bytes in place. Each
    rule finds a name; the check reads the separator and the value after it."""

    pin_value = compiled(CODE_SEPARATOR + PIN_VALUE)
    bare_pin = compiled(rb"[ \t]+" + PIN_VALUE + rb"(?=[ \t]*(?:[.,;:()!]|\r|\n|\Z)|[ \t]+(?:for|of|on|to)[ \t])")
    passcode = compiled(rb"(?i:passcode)")
    named_code = compiled(rb"[ _-]?(?i:code)\Z")
    combination_value = compiled(NOTE_SEPARATOR + COMBINATION)
    lock_before = compiled(rb"(?i:safe|lock|padlock|locker|vault|bike|gym)[ \t]+\Z")
    seed_words = compiled(NOTE_SEPARATOR + SEED_WORDS)
    seed_below = compiled(SEED_BELOW + rb"[ \t]*" + SEED_WORDS)
    seed_lines = compiled(SEED_BELOW + SEED_LINES)
    seed_grid = compiled(SEED_BELOW + SEED_GRID)
    recovery_value = compiled(CODE_SEPARATOR + RECOVERY_CODE)
    recovery_listed = compiled(LISTED_SEPARATOR + LISTED_CODE)
    recovery_run = compiled(CODE_SEPARATOR + GENERATED_CODE)
    seed_word = compiled(rb"[a-z]+")
    app_password_value = compiled(CODE_SEPARATOR + rb"(?P<code>[a-z]{4}(?:[ \t][a-z]{4}){3})(?![A-Za-z0-9_-])")
    digits = compiled(rb"[0-9]+")

    def pin(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Whether digits that are a PIN follow a PIN's name: not one digit repeated, not a run.
        Right after ``PIN`` (or ``PUK``) in capitals, ``passcode`` in any case (a meeting's:
        ``Zoom 823 4567 8901, passcode 482913``) or a door's, a gate's or an alarm's code written
        out (``alarm code 48291``), with no colon or "is", the digits must end their
        clause or say what they are for (``PIN 4921 for the office door``); ``PIN 2024 rollout``
        and a lower-case ``pin 4921`` (a board's) are kept."""
        value = self.pin_value.match(buffer, match.end())
        if value is None and (
            (match.end() - match.start() == 3 and buffer.startswith((b"PIN", b"PUK"), match.start()))
            or (match.end() - match.start() == 8 and self.passcode.fullmatch(buffer, match.start(), match.end()) is not None)
            or self.named_code.search(buffer, match.start(), match.end()) is not None
        ):
            value = self.bare_pin.match(buffer, match.end())
        return value is not None and not self.example_digits(buffer, *value.span("value"))

    def combination(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Whether a lock's combination follows its name: numbers apart by dashes or spaces
        (``Safe combination: 31-7-22``, ``the lock combo is 12 34 56``), or, after a lock's
        name (a safe's, a padlock's, a locker's), digits as a PIN's (``padlock combo: 4821``); it
        ends its clause or says what it is for, and is not one number repeated or a run
        (``combo: 1-2-3``). ``the combination of flags: 3`` and ``combination: 10-20-30 mix`` are
        kept."""
        value = self.combination_value.match(buffer, match.end())
        if value is None:
            return False
        numbers = [_number(buffer, *found.span()) for found in self.digits.finditer(buffer, *value.span("value"))]
        if len(numbers) == 1:
            return not self.example_digits(buffer, *value.span("value")) and (
                self.lock_before.search(buffer, max(0, match.start() - 16), match.start()) is not None
            )
        return {b - a for a, b in zip(numbers, numbers[1:])} not in ({0}, {1}, {-1})

    def seed_phrase(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Whether a seed phrase follows its name, on its line, one word to a line below it or in a
        grid of numbered words: as many words as a seed phrase has, three in four of them different
        (compared in place: a word's copy would be the secret's), and at most one in six a word of
        grammar (the wordlist has a few, such as ``that`` and ``when``; a sentence has more)."""
        phrase = (
            self.seed_words.match(buffer, match.end())
            or self.seed_below.match(buffer, match.end())
            or self.seed_lines.match(buffer, match.end())
            or self.seed_grid.match(buffer, match.end())
        )
        if phrase is None:
            return False
        words = [found.span() for found in self.seed_word.finditer(buffer, *phrase.span("words"))]
        different = sum(
            not any(same_bytes(buffer, word, earlier) for earlier in words[:i]) for i, word in enumerate(words)
        )
        grammar = sum(self.grammar_word.fullmatch(buffer, *word) is not None for word in words)
        return len(words) in _SEED_LENGTHS and different * 4 >= len(words) * 3 and grammar * 6 <= len(words)

    def recovery_code(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Whether a recovery code follows its name: four different characters or more besides
        its dashes and spaces, and digits alone not repeated or a run; after a colon or "is", or
        with no word between when its shape says what it is (:data:`LISTED_CODE`); or one run in
        no such shape, after a colon or "is", that looks generated (``Recovery code: 7Hq2kP9xLm``;
        not ``Recovery code: sent by email``); or, after a recovery phrase's name, whether a seed
        phrase follows."""
        if match.start("phrase") >= 0:
            return self.seed_phrase(buffer, match)
        code = self.recovery_value.match(buffer, match.end()) or self.recovery_listed.match(buffer, match.end())
        if code is None:
            run = self.recovery_run.match(buffer, match.end())
            return run is not None and self.looks_secret(buffer, *run.span("code")) and self.mixed(buffer, *run.span("code"))
        start, end = code.span("code")
        with memoryview(buffer) as view:
            characters = set(view[start:end]) - {ord("-"), ord(" ")}
        return len(characters) >= 4 and not self.example_digits(buffer, start, end)

    def app_password(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Whether an app password in the shape Google issues one follows its name: four groups
        of four lower-case letters (``the app password for Gmail is abcd efgh ijkl mnop``), at
        least three of them different and none a word of grammar (``is also sent when`` is prose)."""
        code = self.app_password_value.match(buffer, match.end())
        if code is None:
            return False
        groups = [found.span() for found in self.seed_word.finditer(buffer, *code.span("code"))]
        different = sum(not any(same_bytes(buffer, group, earlier) for earlier in groups[:i]) for i, group in enumerate(groups))
        return different >= 3 and not any(self.grammar_word.fullmatch(buffer, *group) for group in groups)

    def example_digits(self, buffer: bytearray, start: int, end: int) -> bool:
        """Whether ``buffer[start:end]`` is digits that an example gives: one repeated, or a run up
        or down (``0000``, ``1234``, ``87654321``)."""
        if self.digits.fullmatch(buffer, start, end) is None:
            return False
        return {buffer[i + 1] - buffer[i] for i in range(start, end - 1)} in ({0}, {1}, {-1})


def _number(buffer: bytearray, start: int, end: int) -> int:
    """The number that the digits ``buffer[start:end]`` write, read in place (no copy of them)."""
    number = 0
    for i in range(start, end):
        number = number * 10 + buffer[i] - 0x30
    return number
