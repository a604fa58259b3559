"""Credentials named in words: the name that ends before a value, and the sentences that give one.

Design:

- A sentence names a credential and gives its value after a linking word, without a separator:
  ``the staging password is Tr0ub4dor&3``, ``set the API key to 9f8e7d6c5b4a3f2e``, ``the token is
  now ...``. What follows such a word is mostly a description (``the token is expired``, ``the
  secret is base64-encoded``, ``the key is ed25519``), so the value must look generated, or end its
  clause and be no plain word (``the admin password is hunter2.``, ``... is hunter2 for staging``);
  a word joined to a description by a hyphen, an algorithm or an encoding is kept. The name may be
  followed by what it is for, in up to four words (``the password for the staging DB is ...``). A
  colon may stand after those words (``the password for the intern account: ...``, ``the password
  is: ...``).
  With no verb at all (``login with password Hunter2024``), only a value that no word of prose
  has the texture of counts: three of lower case, upper case, digits and symbols, or an unbroken
  hex or base32 run of sixteen or more (after a key's two-word name, thirty-two: a PGP key's id
  is sixteen).
- A note may say how the credential changed between its name and the word or colon
  (``the root password was changed to ...``, ``Password updated: ...``), put an arrow, a dash or an
  aside in brackets where the colon would be (``new password -> ...``, ``password (prod): ...``),
  or give a user and a password as a pair after a word that introduces a login (``Grafana login
  admin:...``, ``DB creds: app / ...``); each is judged as the colon's form is: a value with a
  password's texture, or one that ends its clause as after "is" (``the password for prod:
  hunter2``, ``login admin:hunter2``).
"""

from __future__ import annotations

import bisect
import re

from .buffers import NAME_CHARS, distinct, is_linking, is_word, margin_end, trimmed, trimmed_line
from .leads import compiled
from .names import (
    CREDENTIAL_NAME,
    MAX_NAME,
    NAME_BEFORE,
    NAME_ONLY_WORD,
    NOT_CREDENTIAL_NAME,
    PASS_NAME,
    SPACED_KEY_END,
    SPACED_KEY_NAME,
    SPACED_PASSWORD_NAME,
)
from .value_checks import ValueChecks
from .vocabulary import (
    CHANGED,
    CREDENTIAL_WORD,
    DEFAULT_ACCOUNT,
    FENCE_OPENING,
    GIVEN_BEFORE,
    GIVING_VERB,
    LATIN_KEY_WORDS,
    LOGIN_AS,
    LOGIN_CONTEXT,
    LOGIN_TO_WITH,
    LOGIN_WITH,
    MAX_ASIDE,
    MAX_CHANGED,
    MAX_GIVEN,
    MAX_LOGIN_AS,
    MAX_LOGIN_CONTEXT,
    MAX_NAMED,
    MAX_NAMING,
    MAX_PASS_HOLDER,
    MAX_PURPOSE,
    MAX_QUOTED,
    MAX_USER_BEFORE,
    MIN_DISTINCT,
    MIN_LINKED,
    MIN_VALUE,
    NAMING_BEFORE,
    PASS_HOLDER,
    PURPOSE,
    SHORT_PASSPHRASE,
    USER_BEFORE,
    VALUE_BEFORE,
)

__all__ = ["SentenceChecks"]

_CONSTANTS = (b"None", b"True", b"False", b"null", b"nil", b"not")
"""Code's constants, which a statement may put where a pair's user stands (``assert credentials
is None, '...'``)."""
MAX_NETWORK_NAME = 32
"""The longest name of a wireless network (an SSID's 32 bytes)."""
MAX_NETWORK_REACH = 80
"""How far before "the key" its sentence may name the wireless network it opens."""
MAX_PATH = 128
"""The longest path before a password's name that :meth:`SentenceChecks.bare_after_password_name` looks back over."""
_PAIR_USER = 64
"""The longest user of a pair (``pair_user``), an address included."""
_WHICH_ONE = rb"(?:(?:current|new|old|latest|previous|next|right|real|actual)[ \t]+)?"
"""What may say which of a credential's values "one" or "value" stands for (the new one, the current value)."""
MAX_SERVICE_LABEL = 96
"""How far before a user a line that starts with a service's label may start (``Jenkins: deploy /
...``)."""
MAX_GIVEN_BEFORE = 144
"""How far before "to log in" the verb that gives the value may start: the verb, a space and the
longest value it is given, quoted."""

_ARROWS = tuple(arrow.encode() for arrow in ("->", "=>", "\u2192", "\u21d2", "\u27f6", "\u2794", "\u279c"))
"""The arrows among the prose separators (the rest are dashes and brackets' colons)."""
_MAX_OLD = 48
"""The longest old value between a credential's name and the arrow to its new one."""
_OLD_VALUE_STOPS = b" \t\r\n:=()[]{}<>\"'`,;"
"""What no old value before an arrow holds: a space ends it, and the rest are code's."""

_MAX_MODAL = 16
"""The longest modal verb before "be", with its spaces and a word after it (" should also")."""

_VALUE_WORDS = (b"'s value", "\u2019s value".encode(), b" value", b" Value")
"""What may follow a credential's name and still name it: its value (``the token value is …``,
``the API key's value: …``)."""

_SHORTCUT = rb"(?:(?i:ctrl|alt|shift|cmd|command|option|super|meta|win|fn)\+)+\S+"
"""A keyboard shortcut (``Ctrl+Shift+V``)."""


class SentenceChecks(ValueChecks):
    """The words before a value that name a credential, and the checks of sentences that give one."""

    # The patterns of these checks, each compiled on its first use.
    credential_name = compiled(CREDENTIAL_NAME)
    name_only_word = compiled(NAME_ONLY_WORD)
    not_credential_name = compiled(NOT_CREDENTIAL_NAME)
    name_before = compiled(NAME_BEFORE)
    spaced_key_name = compiled(SPACED_KEY_NAME)
    spaced_key_end = compiled(SPACED_KEY_END)
    spaced_password_name = compiled(SPACED_PASSWORD_NAME)
    pass_word = compiled(PASS_NAME)
    being = compiled(rb" (?:is|was|are|were|remains|stays)[ \t]")
    word_gap = compiled(rb"\s")
    path = compiled(rb"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
    credential_word = compiled(CREDENTIAL_WORD)
    purpose = compiled(PURPOSE)
    changed = compiled(CHANGED)
    line_rest = compiled(rb"[.!]?[ \t]*(?:\r?\n|\Z)")
    modal = compiled(rb" (?:will|should|must|would|shall|can|could|may|might)(?: (?:now|then|soon|also|still|always))?\Z")
    login_context = compiled(LOGIN_CONTEXT)
    letter = compiled(rb"[A-Za-z]")
    pair_path = compiled(rb"[^\s]*:|[/\\]")
    pair_address = compiled(rb"[A-Za-z0-9._%+-]+@[A-Za-z][A-Za-z0-9-]*(?:\.[A-Za-z0-9-]+)*(?![^\s,;'\"`\\)\]}>])")
    # The types of an IAM member, which writes an account as type:address (serviceAccount:name@...).
    iam_member_type = compiled(rb"serviceAccount|group|domain|deleted|principal(?:Set)?")
    network_word = compiled(rb"(?<![A-Za-z0-9])(?i:wi-?fi|wlan|wpa[23]?|wireless|ssid)(?![A-Za-z0-9])")
    network_quote = compiled(rb"[\"'`]")
    condition_opening = compiled(rb"(?:^|(?<=[\s,;(]))(?i:if|when|whenever|once)[ \t]")
    sentence_end = compiled(rb"[.!?;](?:[ \t]|\Z)")
    used_user = compiled(rb"(?<![A-Za-z])(?i:use)[ \t]+[A-Za-z0-9][A-Za-z0-9._%+@-]{0,63}\Z")
    # A path up to the name after it: /etc/passwd, ~/.pw, ./secrets/password (not user/password).
    path_end = compiled(rb"(?<![^\s<>(\"'`=])(?:~|\.{1,2})?/(?:[A-Za-z0-9_.-]+/)*\.?\Z")
    pair_user = compiled(rb"[A-Za-z0-9][A-Za-z0-9._%+@-]{0,63}\Z")  # _PAIR_USER bytes at most
    unspaced = compiled(rb"[^\s]{1,256}")
    prompt_before = compiled(rb"(?<![A-Za-z])(?i:prompt|prompted|field|box|dialog)\Z")
    giving_verb_word = compiled(rb"(?i:use|see|ask|try|enter|type|paste|set|run|check)")
    comma_aside = compiled(rb"[ \t]+[A-Za-z]{1,16}(?:[ \t]+[A-Za-z]{1,16}){0,3}")
    service_label = compiled(
        rb"[ \t]*(?:[-*+][ \t]+)?[A-Za-z][A-Za-z0-9._-]{0,31}(?:[ \t][A-Za-z0-9._-]{1,32}){0,2}(?:[ \t]*\([^()\r\n]{1,64}\))?"
        rb"(?::|[ \t]+-)[ \t]+"
    )
    standing_one = compiled(
        rb"(?<![A-Za-z])(?:(?i:the|a|this|that)?[ \t]*" + _WHICH_ONE + rb"one|(?:(?i:the|its|their)[ \t]+)?" + _WHICH_ONE + rb"(?i:value)"
        rb"|(?<=\()(?i:new|current|latest|old|previous))\Z"  # an aside's label: rotated the API key (new: …)
    )
    prose_word = compiled(rb"[A-Za-z][A-Za-z0-9_-]*")
    # What ends a credential word's phrase: a clause's mark, a verb or a preposition; a verb that
    # also names a kind of thing only at its clause's end ("Password reset: the new one is …", not
    # "password reset emails; the new one …").
    phrase_head = compiled(
        rb"[ \t]*(?:[,;.:(?]|-(?=[ \t])|(?:is|was|has|had|got|expired|expires|rotates|rotated|changed|changes|leaked"
        rb"|revoked|stopped|broke|needs|needed|must|will|should|in|for|on|at|of|from|to)(?![A-Za-z])"
        rb"|(?:reset|updated|renewed|regenerated)[ \t]*(?:[,;.:!(\r\n-]|\Z|to(?![A-Za-z])))"
    )
    code_operand = compiled(rb"[^\s]*[\[\](){}]")
    pair_marks = compiled(rb"[/\\:=\[\](){}<>]")
    another_name = compiled(rb"[a-z_][a-z0-9_.-]{0,31}=")
    fingerprint = compiled(rb"(?:0x)?[0-9A-Fa-f]{40}(?![0-9A-Za-z_])")
    naming_before = compiled(NAMING_BEFORE)
    value_before = compiled(VALUE_BEFORE)
    giving_verb = compiled(GIVING_VERB)
    clause_mark = compiled(rb"[.;:!?]")
    user_before = compiled(USER_BEFORE)
    # The rest of a line that ends after a colon, then, past a blank line or a code fence's
    # opening, a line of one run (quoted or not) alone.
    next_line = compiled(
        rb"[ \t]*\r?\n(?:[ \t]*\r?\n)?(?P<fence>" + FENCE_OPENING + rb")?"
        rb"[ \t]{0,16}(?P<quote>[\"'`]?)(?P<value>[^\s\"'`]{1,256})(?P=quote)[ \t]*(?:\r?\n|\Z)"
    )
    default_account = compiled(DEFAULT_ACCOUNT)
    # A verb that gives a value and the value, right before what it is for: "use ... " before "to log in".
    value_given_before = compiled(rb"(?<![A-Za-z])(?i:use|uses|used|enter|type|paste)[ \t]+[\"'`]?(?P<value>[^\s\"'`]{6,128})[\"'`]?[ \t]*\Z")
    tool_or_shortcut = compiled(rb"(?:[A-Z]?[a-z]+|[A-Z]+(?![a-z]))+(?:[0-9]+(?:\.[0-9]+)*\+?)?|" + _SHORTCUT)
    shortcut = compiled(_SHORTCUT)
    account_state = compiled(
        rb"(?i:active|inactive|enabled|disabled|locked|unlocked|suspended|expired|created|deleted|blocked|verified"
        rb"|unverified|configured|provisioned|shared|linked|required|protected|secured|ready|new)"
    )
    pass_holder = compiled(rb"(?<![A-Za-z0-9_-])" + PASS_HOLDER + rb"[ \t]+\Z")
    aside_account = compiled(rb"[ \t]*(?:(?i:user|login|account)[ \t]+)?" + DEFAULT_ACCOUNT + rb"[ \t]*")
    address_user = compiled(rb"(?<![^\s(,;])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,24}\Z")
    numbered_account = compiled(DEFAULT_ACCOUNT + rb"[0-9]{0,4}(?![A-Za-z0-9_.-])")
    given_before = compiled(GIVEN_BEFORE)
    login_as = compiled(LOGIN_AS)
    login_with = compiled(LOGIN_WITH)
    login_to_with = compiled(LOGIN_TO_WITH)
    hyphenated_words = compiled(rb"[a-z]{2,12}(?:-[a-z]{2,12}){3,7}|[A-Z][a-z]{1,11}(?:-[A-Z][a-z]{1,11}){3,7}")
    password_name = compiled(rb"(?i:pass(?:word|phrase|wd)|pwd)")
    passphrase_name = compiled(rb"(?i:pass[ _-]?phrase)")
    short_passphrase = compiled(SHORT_PASSPHRASE)
    to_purpose = compiled(rb"[ \t]+to[ \t]+[A-Za-z]")
    # What opens a noun phrase in a sentence, and up to three words before its name: "the staging
    # admin" (password), "our" (API token). Code's parameter lists have no such word.
    determiner = compiled(rb"(?<![A-Za-z])(?i:the|our|your|my|its|their|this|that|his|her)[ \t]+(?:[A-Za-z][A-Za-z0-9_-]*[ \t]+){0,3}\Z")

    def spent(self, budget: str) -> bool:
        """Count one more of a sentence check's searches under ``budget`` in this screen (each
        :meth:`first_kind` sets them to 0), and whether that passes :data:`MAX_NAMED`: past it the
        check answers no, which bounds the work a kilobyte can cause."""
        count = getattr(self.calls, budget, 0) + 1
        setattr(self.calls, budget, count)
        return count > MAX_NAMED

    def name_ending_at(self, buffer: bytearray, end: int) -> int | None:
        """Where the name that ends at ``end`` starts; ``None`` when no name ends there, or one
        longer than any credential name worth matching."""
        name = self.name_before.search(buffer, max(0, end - MAX_NAME), end)
        if name is None or (name.start() and buffer[name.start() - 1] in NAME_CHARS):
            return None
        return name.start()

    def credential_named(self, buffer: bytearray, start: int, end: int) -> bool:
        """Whether the name ``buffer[start:end]`` names a credential, alone, as the last word of a
        two-word name such as ``API key`` or ``security answer``, or as the end of French ``mot de
        passe`` or of ``pass phrase``."""
        if self.names_credential(buffer, start, end):
            return True
        if start < 2 or buffer[start - 1] not in b" \t":
            return False
        if 5 <= end - start <= 7 and self.spaced_password_name.search(buffer, max(0, end - 16), end) is not None:
            return True  # the last word of "mot de passe" or "pass phrase"
        if self.spaced_key_end.fullmatch(buffer, start, end) is None:
            return False
        word = self.name_ending_at(buffer, start - 1)
        if word is not None and self.spaced_key_name.fullmatch(buffer, word, end) is not None:
            return True
        return self.network_key(buffer, start, end)

    def network_key(self, buffer: bytearray, start: int, end: int) -> bool:
        """Whether ``key`` at ``buffer[start:end]``, after "the", is a wireless network's: one is
        named earlier in its sentence, on its line (``the office wifi is CorpGuest and the key is
        ...``); elsewhere "the key is" says what matters (``the key is to retry``)."""
        if not is_word(buffer, start, end, b"key") or not buffer[max(0, start - 4) : start].lower().endswith(b"the "):
            return False
        line = buffer.rfind(b"\n", max(0, start - MAX_NETWORK_REACH), start) + 1
        network = None
        for network in self.network_word.finditer(buffer, max(line, start - MAX_NETWORK_REACH), start):
            pass
        return network is not None and self.sentence_end.search(buffer, network.end(), start) is None

    def names_credential(self, buffer: bytearray, start: int, end: int) -> bool:
        """Whether the name ``buffer[start:end]`` is one :data:`.names.CREDENTIAL_NAME` takes, asked
        of its long pattern only when the name holds a word such a name needs."""
        return self.holds_name_word(buffer, start, end) and self.credential_name.fullmatch(buffer, start, end) is not None

    def holds_name_word(self, buffer: bytearray, start: int, end: int) -> bool:
        """Whether ``buffer[start:end]`` holds a credential word, ``login`` or ``salt``: every name
        that :data:`.names.CREDENTIAL_NAME` or :data:`.names.SUFFIXED_CREDENTIAL` takes holds one
        (see :data:`.names.NAME_ONLY_WORD`), so a name without one is turned down before either is
        compiled."""
        return (
            self.credential_word.search(buffer, start, end) is not None
            or self.name_only_word.search(buffer, start, end) is not None
        )

    def sentence_credential(self, buffer: bytearray, start: int, end: int) -> bool:
        """Whether ``buffer[start:end]``, a word of a sentence, names a credential (``1Password``,
        a product, starts with a digit and is none). ``PAT`` in capitals names a personal access
        token there, as a name in code it does not (``pat`` is a pattern)."""
        return (
            chr(buffer[start]).isalpha()
            and (start == 0 or buffer[start - 1] not in NAME_CHARS)
            and (self.credential_named(buffer, start, end) or (end - start == 3 and buffer.startswith(b"PAT", start)))
            and self.not_credential_name.fullmatch(buffer, start, end) is None
        )

    def word_within_reach(self, buffer: bytearray, end: int, reach: int = MAX_PURPOSE) -> bool:
        """Whether a credential word (:data:`CREDENTIAL_WORD`) starts within ``reach`` bytes
        before ``end``. The words' places are found in one pass per screen, then looked up."""
        starts = getattr(self.calls, "words", None)
        if starts is None:
            starts = self.calls.words = [found.start() for found in self.credential_word.finditer(buffer)]
        at = bisect.bisect_left(starts, max(0, end - reach))
        return at < len(starts) and starts[at] < end

    def named_before(self, buffer: bytearray, end: int) -> bool:
        """Whether the words that end at ``end`` name a credential: the name itself (``the admin
        password``), or the name and what it is for (``the password for the staging DB``, ``the
        API key of the billing service``), in the sentence's own words.

        It is asked only after a value that could be a password, and searches only where a
        credential word stands within reach, so prose asks it rarely. Past :data:`MAX_NAMED`
        times in one screen it answers no: that bounds the work a kilobyte can cause, and every
        rule that needs no sentence (a name with a separator, a provider's token) still runs.
        """
        if not self.word_within_reach(buffer, end):
            return False  # nothing to look for, and nothing spent
        if self.spent("named"):
            return False
        for words in _VALUE_WORDS:  # the password value, the API key's value
            if buffer.endswith(words, max(0, end - len(words)), end):
                end -= len(words)
                break
        start = self.name_ending_at(buffer, end)
        if start is not None and self.sentence_credential(buffer, start, end):
            return True
        at = max(0, end - MAX_PURPOSE)
        for _ in range(4):  # the cache for the token for prod: the nearer name may be the one
            phrase = self.purpose.search(buffer, at, end)
            if phrase is None:
                return False
            if self.sentence_credential(buffer, phrase.start("name"), phrase.end("name")):
                return True
            at = phrase.end("name")
        return False

    def linked_value(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for an unquoted value after a credential name and a linking word, in a sentence
        (``the staging password is Tr0ub4dor&3``, ``set the API key to 9f8e7d6c5b4a3f2e``), also
        when the sentence says how it changed between the name and the word (``the root password
        was changed to hunter2``, ``the API key has been rotated to ...``) or an aside in brackets
        stands between them (``the admin password (staging) is hunter2``), or one set off by
        commas (``the password, for the record, is hunter2``).

        Prose says much after such words (``the token is expired``, ``the secret is base64-encoded``),
        so a value counts when it looks generated, or when it ends its clause and is no plain word:
        six bytes or more, four distinct, a letter with a digit or a symbol (``is hunter2.``). A
        word joined to a description (``HS256-signed``, ``256-bit``) is a description. The value is
        looked at first: linking words are common, values that could be a credential are not.
        """
        return self.linked_at(buffer, match.start(), match.end())

    def linked_at(self, buffer: bytearray, link: int, value: int) -> bool:
        """:meth:`linked_value` for the linking word that starts (with the space before it) at
        ``link`` and the value at ``value``: also where a colon follows the word (``the wifi
        password is: ...``), which changes nothing about what the sentence gives."""
        found = self.value_at(buffer, value, tight=False)
        if found is None:
            return False
        first, last = found[0], trimmed(buffer, found[0], found[1])
        joined = self.joined_passphrase(buffer, first, last)
        if not joined:
            if not self.looks_secret(buffer, first, last, shortest=MIN_LINKED if self.ends_clause(buffer, found) else MIN_VALUE):
                return False
            if self.description.fullmatch(buffer, first, last) is not None:
                return False
        end: int | None = link
        if buffer.startswith(b" be", link):  # what it will be: the password will be ..., API_KEY should be ...
            modal = self.modal.search(buffer, max(0, link - _MAX_MODAL), link)
            if modal is not None:
                end = modal.start()
        if end and buffer[end - 1] in b")]":  # an aside between the name and the word: password (prod) is
            end = self.before_aside(buffer, end - 1)
        elif end and buffer[end - 1] == ord(","):  # or one set off by commas: the password, for the record, is
            end = self.before_comma_aside(buffer, end - 1)
        if end is None:
            return False
        if joined:
            return self.password_named(buffer, end)
        return self.named_or_changed(buffer, end) or (
            self.pass_or_changed(buffer, end, link) and self.prose_texture(buffer, first, last, joined=False)
        )

    def password_named(self, buffer: bytearray, end: int) -> bool:
        """Whether a password's or a passphrase's name is within reach before ``end``, on its line,
        and the sentence names its credential there (:meth:`named_or_changed`): what a passphrase
        of joined words is given after (:meth:`joined_passphrase`); a token's or a key's such
        value is its name (``the key is ssh-ed25519-cert-v01``)."""
        line = buffer.rfind(b"\n", max(0, end - MAX_PURPOSE - MAX_CHANGED), end) + 1
        return self.password_name.search(buffer, max(line, end - MAX_PURPOSE - MAX_CHANGED), end) is not None and (
            self.named_or_changed(buffer, end)
        )

    def password_phrase(self, buffer: bytearray, pos: int, end: int) -> bool:
        """Whether the value at ``pos`` is a passphrase of joined words (:meth:`joined_passphrase`)
        given for a password named before ``end`` (:meth:`password_named`), as after "is": the
        same value after a colon, an arrow or a dash (``the vault passphrase is:
        correct-horse-battery-staple``, ``Wifi password -> ...``). Right after the name with no
        mark between, such words are as often a name of something else (``password
        rate-limit-retry-budget for the staging box``) and are kept."""
        found = self.value_at(buffer, pos, tight=False)
        return (
            found is not None
            and self.joined_passphrase(buffer, found[0], trimmed(buffer, found[0], found[1]))
            and self.password_named(buffer, end)
        )

    def joined_passphrase(self, buffer: bytearray, first: int, last: int) -> bool:
        """Whether ``buffer[first:last]`` is a passphrase of four to eight words joined by dashes,
        all in lower case or each capitalised (``correct-horse-battery-staple``, as diceware and
        password managers make them), none a word of grammar, a stand-in or a name
        (:meth:`phrase_part`): ``auto-generated-on-first-boot`` is a description."""
        return self.hyphenated_words.fullmatch(buffer, first, last) is not None and all(
            self.phrase_part(buffer, *word.span()) for word in self.letters.finditer(buffer, first, last)
        )

    def pass_or_changed(self, buffer: bytearray, end: int, link: int) -> bool:
        """Whether the word that ends at ``end`` is ``pass`` alone and the linking word at ``link`` a
        form of "be" (``the wifi pass is ...``; ``pass to`` and ``pass as`` are the verb), or that
        word and then how it changed (``the wifi pass was changed`` to ...). ``pass`` names a
        password in a note as often as a step or a result (``the first pass is O(n)``, ``the pass
        is needed``), so after it only a value with :meth:`prose_texture` counts, which no such
        description has."""
        if self.being.match(buffer, link) is not None and self.pass_before(buffer, end):
            return True
        verb = self.changed.search(buffer, max(0, end - MAX_CHANGED), end)
        return verb is not None and self.pass_before(buffer, verb.start())

    def pass_before(self, buffer: bytearray, end: int) -> bool:
        """Whether the word that ends at ``end`` is ``pass`` alone."""
        start = end - 4
        return (
            start >= 0
            and (start == 0 or buffer[start - 1] not in NAME_CHARS)
            and self.pass_word.fullmatch(buffer, start, end) is not None
        )

    def named_or_changed(self, buffer: bytearray, end: int) -> bool:
        """:meth:`named_before`, or the name and then how it changed (:data:`CHANGED`): ``the
        root password was changed`` (to ...), ``Password updated`` (: ...); or ``one`` standing
        for a credential named earlier in the sentence (:meth:`named_earlier`). Each needs a
        credential word within reach, looked up first."""
        if self.latin_key_before(buffer, end) or self.latin_key_for(buffer, end):
            return True
        if not self.word_within_reach(buffer, end, MAX_PURPOSE + MAX_CHANGED):
            return False  # no name, nor a name before how it changed
        if self.named_before(buffer, end):
            return True
        verb = self.changed.search(buffer, max(0, end - MAX_CHANGED), end)
        if verb is not None and self.named_before(buffer, verb.start()):
            return True
        return self.standing_one.search(buffer, max(0, end - 32), end) is not None and self.named_earlier(buffer, end)

    @staticmethod
    def latin_key_before(buffer: bytearray, end: int) -> bool:
        """Whether one of :data:`LATIN_KEY_WORDS` ends at ``end`` as a word of its own."""
        for word in LATIN_KEY_WORDS:
            start = end - len(word)
            if start >= 0 and buffer.startswith(word, start) and (start == 0 or buffer[start - 1] not in NAME_CHARS):
                return True
        return False

    def latin_key_for(self, buffer: bytearray, end: int) -> bool:
        """Whether one of :data:`LATIN_KEY_WORDS` and then what it is for (:data:`PURPOSE`) end at
        ``end``: ``la clé API du service``, ``der API-Schlüssel für Produktion``, ``la chiave API
        del servizio``. Looked for only where such a word stands within :data:`MAX_PURPOSE` bytes."""
        at = max(0, end - MAX_PURPOSE)
        if not any(buffer.find(word, at, end) >= 0 for word in LATIN_KEY_WORDS):
            return False
        for _ in range(4):  # la clave de API del servicio: the first phrase found is "clave de API ..."
            phrase = self.purpose.search(buffer, at, end)
            if phrase is None:
                return False
            if self.latin_key_before(buffer, phrase.end("name")):
                return True
            at = phrase.end("name")
        return False

    def named_earlier(self, buffer: bytearray, end: int) -> bool:
        """Whether a word that names a credential stands on the line within :data:`MAX_PURPOSE`
        bytes before ``end``, as the end of its phrase: a verb or a clause's end follows it (``the
        staging db password rotates monthly; the current one``). Followed by another noun, the
        phrase names something else (``a new password manager; the new one``)."""
        if not self.word_within_reach(buffer, end):
            return False
        line = buffer.rfind(b"\n", max(0, end - MAX_PURPOSE), end) + 1
        for word in self.prose_word.finditer(buffer, max(line, end - MAX_PURPOSE), end):
            if (
                self.credential_word.search(buffer, *word.span()) is not None
                and self.phrase_head.match(buffer, word.end()) is not None
                and self.sentence_credential(buffer, *word.span())
            ):
                return True
        return False

    def bare_after_name(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for an unquoted value right after a credential word in prose, with no verb or
        separator (``login with password Hunter2024``, ``TOTP secret JBSWY3DPEHPK3PXP``).

        Many words follow these names in prose (``password reset``, ``token cl100k_base``,
        ``secret us-east-1``), so only a value that could not be one counts (:meth:`prose_value`,
        with ``/`` joining words as in ``meta-llama/Llama-3.1-8B``); or, when a user is given
        right before the name (``user bob password hunter2``, ``log in as root with password
        ...``) or a verb that gives the credential (``log in with password hunter2``, ``use the
        staging password hunter2 to ...``), one that ends its clause as after "is"
        (:meth:`clause_value`), or is followed by what it is "to" do.
        """
        return self._bare_after(buffer, match, alone=False)

    def bare_after_password_name(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """:meth:`bare_after_name` after a password's own name (password, passphrase, passwd,
        pwd, pw), where a value that ends its clause counts with no user or verb before the name
        (``…, password hunter2024``): "token" and "secret" name models, encodings and regions
        with such words after them, a password's name does not. The last part of a path names a
        file (``awk -F: </etc/passwd '...'``, ``~/.pw``)."""
        if self.path_end.search(buffer, max(0, match.start() - MAX_PATH), match.start()) is not None:
            return False
        return self._bare_after(buffer, match, alone=True)

    def bare_after_other_password_word(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a value right after a password's word in another language, with no mark
        between (``Passwort Xk9…``, ``пароль Xk9…``, ``şifresi Xk9…``): as after "password",
        but only a value with a generated one's texture counts (:meth:`bare_value`), as these
        words start sentences about the password as often (``Passwort vergessen``)."""
        return self.bare_value(buffer, match.end())

    def _bare_after(self, buffer: bytearray, match: re.Match[bytes], *, alone: bool) -> bool:
        if not self.bare_value(buffer, match.end()) and not (
            (alone and self.clause_value(buffer, match.end()))
            or (self.user_given_before(buffer, match.start(), or_verb=True) and self.purposed_value(buffer, match.end()))
        ):
            return False
        return self.named_before(buffer, trimmed_line(buffer, match.start(), match.end()))

    def appositive_value(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a value set off by commas right after the credential it names (``the admin
        password, hunter22, works``, ``our API token, ghp_…, expires Friday``).

        In code the same shape is a list of names (``f(password, hunter22, x)``, ``SELECT user,
        password, token``), so a determiner must open the name's phrase (:attr:`determiner`),
        the value must be closed by a comma or a bracket (a ``&`` or ``;`` before the comma is the
        value's own: ``Tr0ub4dor&3,``), and it must end its clause as after "is"
        (:meth:`clause_value`) or have a generated value's texture (:meth:`bare_value`)."""
        found = self.value_at(buffer, match.end(), tight=False)
        if found is None:
            return False
        last, after = trimmed(buffer, found[0], found[1]), bytes(buffer[found[1] : found[1] + 1])
        if found[2] and after in (b"'", b'"') and buffer[found[1] + 1 : found[1] + 2] == b",":
            after = b","  # a quoted value and its comma: their password, 'Tr0ub4dor&3', works
        if after == b"," or buffer[last : last + 1] == b")":  # a closing bracket is trimmed off
            if not (self.clause_value(buffer, match.end()) or self.bare_value(buffer, match.end())):
                return False
        elif after in (b"&", b";"):  # the value goes on to its comma (Tr0ub4dor&3,) and is judged whole
            run = self.joined_run.match(buffer, found[0])
            comma = -1 if run is None else run.end("run") - 1
            if comma < 0 or buffer[comma] != ord(",") or buffer.find(b",", found[0], comma) >= 0:
                return False
            if not self.weak_password(buffer, found[0], trimmed(buffer, found[0], comma)):
                return False
        else:
            return False
        end = buffer.rfind(b",", match.start(), match.end())
        start = self.name_ending_at(buffer, end)
        if start is None:
            return False
        line = buffer.rfind(b"\n", max(0, start - MAX_PURPOSE), start) + 1
        return self.determiner.search(buffer, max(line, start - MAX_PURPOSE), start) is not None and self.named_before(buffer, end)

    def purposed_value(self, buffer: bytearray, pos: int) -> bool:
        """:meth:`clause_value`, or a value of the same kind followed by what it is "to" do
        (``hunter2 to log in``), as after a name that a user or a verb gives."""
        if self.clause_value(buffer, pos):
            return True
        found = self.value_at(buffer, pos, tight=False)
        if found is None or self.to_purpose.match(buffer, found[1]) is None:
            return False
        return self.weak_password(buffer, found[0], trimmed(buffer, found[0], found[1]))

    def pass_after_user(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a password after ``pass`` or ``pw`` with no verb or separator, where a user is
        given in words right before (``user bob pass hunter2``, ``login admin pw Tr0ub4dor&3``):
        alone, these words are a verb and an abbreviation of much else, so the user must be there
        and the value must end its clause, as after "is" (:meth:`clause_value`), or have a
        password's texture. Right after what the password opens (:data:`.vocabulary.PASS_HOLDER`:
        ``keystore pass ...``, ``wifi pw ...``, ``root pass ...``) only that texture counts
        (:meth:`bare_value`; ``as admin pass the flag`` is kept)."""
        held = self.pass_holder.search(buffer, max(0, match.start() - MAX_PASS_HOLDER), match.start()) is not None
        if held:
            if self.spent("holders"):
                return False
        elif not self.user_given_before(buffer, match.start()):
            return False
        found = self.value_at(buffer, match.end(), tight=False)
        if found is None or buffer.find(b"=", found[0], found[1]) >= 0:
            return False  # an option a command is passed (pass `retention=` to ...)
        return self.bare_value(buffer, match.end()) or (not held and self.clause_value(buffer, match.end()))

    def user_given_before(self, buffer: bytearray, start: int, *, or_verb: bool = False) -> bool:
        """Whether a user is given in words right before the name that starts at ``start``
        (:data:`.vocabulary.USER_BEFORE`): ``user bob``, ``username: bob,``, ``as root with``; with
        ``or_verb``, or a verb that gives the credential (:data:`.vocabulary.GIVEN_BEFORE`): ``log
        in with``, ``use the staging``. Past :data:`MAX_NAMED` questions in one screen it answers
        no, as :meth:`named_before` does."""
        if self.spent("users"):
            return False
        line = buffer.rfind(b"\n", max(0, start - MAX_USER_BEFORE), start) + 1
        if self.user_before.search(buffer, max(line, start - MAX_USER_BEFORE), start) is not None:
            return True
        return or_verb and self.given_before.search(buffer, max(line, start - MAX_GIVEN), start) is not None

    def bare_value(self, buffer: bytearray, pos: int, *, unbroken: int = 16) -> bool:
        """Whether the value at ``pos``, right after a name with no verb, could not be a word of
        prose (:meth:`prose_value`; a hex or base32 run counts from ``unbroken`` characters) and is
        no name with a value of its own (``the API key id=...``)."""
        return self.another_name.match(buffer, pos) is None and self.prose_value(buffer, pos, joined=False, unbroken=unbroken)

    def prose_separator(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a value after an arrow or a dash that stands for a colon in a note (``new
        password -> ...``, ``password for prod - ...``), or after a colon that follows an aside in
        brackets (``password (prod): ...``; square ones too, as ``aws configure`` prompts with the
        current value: ``AWS Secret Access Key [None]: ...``). Only a value with a password's
        texture counts, as after a name with no verb (:meth:`bare_after_name`), or one that ends
        its clause (:meth:`clause_value`); the name is the sentence's, as after a colon (the name
        itself, what it is for, or how it changed). An aside that names an account systems come with stands
        for the name (``Jenkins (admin): ...``, ``Grafana (user root): ...``), and then only a
        value with a password's texture counts (:meth:`bare_value`). An arrow may follow an aside
        too (``DB password (prod) -> ...``)."""
        end = match.start()
        if buffer[end] not in b")]" and any(arrow in match.group() for arrow in _ARROWS):
            close = end
            while close and buffer[close - 1] in b" \t":
                close -= 1
            if close and buffer[close - 1] in b")]" and self.before_aside(buffer, close - 1) is not None:
                end = close - 1  # the aside's closing bracket, read as before a colon
        if buffer[end] in b")]":
            before = self.before_aside(buffer, end)
            if before is None:
                return False  # a call (password(...): ...), an index (keys[0]: ...) or no aside on this line
            if self.aside_account.fullmatch(buffer, buffer.find(b"(" if buffer[end] == ord(")") else b"[", before, end) + 1, end) is not None:
                found = self.value_at(buffer, match.end())  # no path's, ARN's or URL's marks in it
                return found is not None and self.pair_marks.search(buffer, *found[:2]) is None and self.bare_value(buffer, match.end())
            end = before
        while end and buffer[end - 1] in b" \t":
            end -= 1  # before an arrow or a dash
        if not self.word_within_reach(buffer, end):
            return False
        if not (self.prose_value(buffer, match.end()) or self.clause_value(buffer, match.end()) or self.next_line_value(buffer, match.end())):
            return self.password_phrase(buffer, match.end(), end)
        if (end and buffer[end - 1] in b"])") or self.code_operand.match(buffer, match.end()) is not None:
            return False  # code: len(tokens) - 1, state.tokens[i].token - 1].type
        start = self.name_ending_at(buffer, end)
        if start and buffer[start - 1] == ord("."):
            return False  # an attribute in code: endDelim.token - offset
        if self.named_or_changed(buffer, end):
            return True
        arrow = match.group()
        return any(a in arrow for a in _ARROWS) and self.named_before_old_value(buffer, end)

    def named_before_old_value(self, buffer: bytearray, end: int) -> bool:
        """Whether a credential's old value ends at ``end`` right after its name, as a note gives the
        old value and then an arrow to the new one (``password: changeme -> ...``, ``the admin
        password changeme → ...``): one run of at most :data:`_MAX_OLD` bytes with no bracket,
        quote, comma or semicolon in it (code's ``check = password => compare(password)`` has none
        of this shape), after the name or how it changed (:meth:`named_or_changed`) and a colon,
        an equals sign, or a space when it has an old value's shape (:meth:`old_value_shape`)."""
        start = end
        while start > 0 and end - start <= _MAX_OLD and buffer[start - 1] not in _OLD_VALUE_STOPS:
            start -= 1
        if start == end or start == 0 or end - start > _MAX_OLD or buffer[start - 1] not in b" \t:=":
            return False
        name_end = start
        while name_end and buffer[name_end - 1] in b" \t":
            name_end -= 1
        if name_end and buffer[name_end - 1] in b":=":
            name_end -= 1
            while name_end and buffer[name_end - 1] in b" \t":
                name_end -= 1
        elif not self.old_value_shape(buffer, start, end):
            return False  # a word that goes on with the name: API key id => ..., password field -> ...
        return name_end > 0 and self.named_or_changed(buffer, name_end)

    def old_value_shape(self, buffer: bytearray, start: int, end: int) -> bool:
        """Whether ``buffer[start:end]``, after a credential's name and only a space, reads as its
        old value rather than a word of the name: a digit or a symbol in it (``hunter2``), a word
        that stands for a value (``changeme``, ``password``) or an account systems come with
        (``admin``)."""
        return (
            self.digit.search(buffer, start, end) is not None
            or self.symbol.search(buffer, start, end) is not None
            or self.placeholder_word.fullmatch(buffer, start, end) is not None
            or self.default_account.fullmatch(buffer, start, end) is not None
        )

    def next_line_value(self, buffer: bytearray, pos: int) -> bool:
        """Whether the line after a credential's name and a colon that ends its line holds its
        value alone (``Admin password:`` and ``Tr0ub4dor&3`` below it; YAML reads an indented
        plain scalar there as the value), also after a blank line or inside a fenced code block
        that opens there (Markdown). The value is judged as one that ends its clause after
        "is": six bytes or more, a letter with a digit or a symbol, no stand-in or reference, so a
        word of a description (``Password:`` then ``required``) is kept; a line of more than one
        word, a key of its own (``secretKeyRef:``), a list item or a comment is no value."""
        line = self.next_line.match(buffer, pos)
        if line is None:
            return False
        first, last = line.span("value")
        if buffer[first] in b"-#*>|" or buffer[last - 1] == ord(":"):
            return False
        return self.looks_secret(buffer, first, last, shortest=MIN_LINKED)

    @staticmethod
    def before_aside(buffer: bytearray, close: int) -> int | None:
        """Where the words before an aside in brackets end, the aside closing at ``close`` (``)`` or
        ``]``: ``password (prod)``, ``API key [staging]``); ``None`` when no aside of at most
        :data:`MAX_ASIDE` bytes opens after a space on the same line (a call: ``password(x)``)."""
        opening = buffer.rfind(b"(" if buffer[close] == ord(")") else b"[", max(0, close - MAX_ASIDE), close)
        if opening < 1 or buffer[opening - 1] not in b" \t" or buffer.find(b"\n", opening, close) >= 0:
            return None
        while opening and buffer[opening - 1] in b" \t":
            opening -= 1
        return opening

    def before_comma_aside(self, buffer: bytearray, close: int) -> int | None:
        """Where the words before an aside set off by commas end, the aside's second comma at
        ``close`` (``the password, for the record, is``, ``the admin password, as of today,
        is``): at most four words of letters between the commas, on one line; ``None`` otherwise
        (a list: ``user, host, password,``)."""
        opening = buffer.rfind(b",", max(0, close - MAX_ASIDE), close)
        if opening < 1 or self.comma_aside.fullmatch(buffer, opening + 1, close) is None:
            return None
        return opening

    def user_pair(self, buffer: bytearray, user_end: int, value: int, *, account: bool = False, labelled: bool = False) -> bool:
        """Whether a user and a password are given as a pair, the user ending at ``user_end`` and
        the password starting at ``value`` after a ``:`` or a spaced ``/`` (``the staging login
        is admin:Tr0ub4dor3``, ``DB creds: app / Xk9v2LmQ7t``): a word that introduces a login
        (:data:`LOGIN_CONTEXT`) stands on the line within :data:`MAX_LOGIN_CONTEXT` bytes before
        the user (or, with ``account``, the user is an account systems come with:
        :data:`.vocabulary.DEFAULT_ACCOUNT`, ``Grafana: admin / hunter2``), the user is a name or
        an address, and the password has a password's texture, as after a name with no verb
        (:meth:`bare_after_name`), or ends its clause (:meth:`clause_value`: ``Grafana login
        admin:hunter2``). With ``labelled``, a label that names the pair has come before the user,
        and no other word of a login is needed."""
        user = self.pair_user.search(buffer, max(0, user_end - _PAIR_USER), user_end)
        if user is None or (user.start() and buffer[user.start() - 1] not in b" \t,(\n"):
            return False
        line = buffer.rfind(b"\n", max(0, user.start() - MAX_LOGIN_CONTEXT), user.start()) + 1
        context = max(line, user.start() - MAX_LOGIN_CONTEXT)
        if not labelled and self.login_context.search(buffer, context, user.start()) is None and not (
            account and self.default_account.fullmatch(buffer, user.start(), user_end) is not None
        ):
            return False
        if self.letter.search(buffer, user.start(), user_end) is None:
            return False  # an account's number and what follows it (123456789012:role/Deploy)
        if self.pair_path.match(buffer, value) is not None:
            return False  # a key's path of colons (user:1234:profile), a URL (https://, http:\/\/)
        address = self.pair_address.match(buffer, value)
        if address is not None:  # an IAM member (user:ann@example.com), or a user:password@host
            return self.address_pair(buffer, user.start(), user_end, value, address.end())
        if not (self.prose_value(buffer, value, joined=False) or self.clause_value(buffer, value)):
            return False
        # A bracket in the value makes it code's (a / b[i], user:get(key)); one that closes the
        # clause after it closes an aside the pair stands in (Grafana (admin / ...)).
        found = self.value_at(buffer, value, tight=False)
        end = len(buffer) if found is None else trimmed(buffer, found[0], found[1])
        return self.code_operand.match(buffer, value, end) is None

    def address_pair(self, buffer: bytearray, user: int, user_end: int, value: int, end: int) -> bool:
        """Whether ``user:value@host`` after a word of a login (``buffer[value:end]`` reads as an
        address) gives a password before the host (``the staging login is admin:...@db.internal``)
        rather than an IAM member (``user:ann@example.com``, ``group:ops@example.com``)
        (:meth:`generated_pair`)."""
        return self.generated_pair(buffer, user, user_end, value, buffer.find(b"@", value, end))

    def generated_pair(self, buffer: bytearray, user: int, user_end: int, first: int, last: int) -> bool:
        """Whether ``buffer[first:last]``, the password of a pair before a host whose user is
        ``buffer[user:user_end]``, looks generated (eight bytes or more that mix three classes), as
        no address's local part does, and the user is no type of IAM member."""
        return (
            last - first >= 8
            and distinct(buffer, first, last) >= MIN_DISTINCT
            and self.mixed(buffer, first, last)
            and self.iam_member_type.fullmatch(buffer, user, user_end) is None
        )

    def slashed_pair(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a user and a password on either side of a spaced slash (:meth:`user_pair`),
        where a word of a login comes before the user or the user is an account systems come
        with; or where the user is an email address and the password looks generated
        (:meth:`bare_value`: ``SMTP: mailer@example.com / ...``; not ``ann@example.com /
        hunter22`` or ``ann@example.com / +1-555-0100``); or where a label that starts the line
        (a service's name and a colon) stands right before the user and the password looks
        generated with a symbol and both cases in it (``Jenkins: deploy / ...``, ``staging db: app
        / ...``), as no name a label gives has (``Repo: acme / MyApp2024``, ``Ratio: 3 / 4``);
        or where "use" stands right before the user and the password looks generated so (``For
        the VPN use ann / ...``; not ``use tabs / Spaces2x``); or a wireless network's quoted name
        before it (:meth:`quoted_network_pair`)."""
        if self.user_pair(buffer, match.start(), match.end(), account=True):
            return True
        if match.start() and buffer[match.start() - 1] in b"\"'":
            return self.quoted_network_pair(buffer, match.start() - 1, match.end())
        if self.used_user.search(buffer, max(0, match.start() - _PAIR_USER - 8), match.start()) is not None:
            return self.symbolled_value(buffer, match.end()) and self.user_pair(buffer, match.start(), match.end(), labelled=True)
        if self.service_user(buffer, match.start()) and self.symbolled_value(buffer, match.end()):
            return self.user_pair(buffer, match.start(), match.end(), labelled=True)
        return (
            self.address_before(buffer, match.start())
            and self.bare_value(buffer, match.end())
            and self.user_pair(buffer, match.start(), match.end(), labelled=True)
        )

    def address_before(self, buffer: bytearray, end: int) -> bool:
        """Whether an email address ends at ``end`` (a pair's user); the ``@`` is looked for first,
        as most slashes and colons follow no address."""
        near = max(0, end - _PAIR_USER)
        return buffer.find(b"@", near, end) >= 0 and self.address_user.search(buffer, near, end) is not None

    def spaced_colon_pair(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a user and a password on either side of a colon with spaces around it, where
        a word of a login comes before the user or the user is an email address (``creds for the
        test tenant -> ann@example.com : ...``), and the password looks generated
        (:meth:`bare_value`). A spaced colon is also a label's (``Login : ann``) and a conditional
        expression's, so not after a question mark on its line (``login = is_admin ? admin :
        Guest2024x``)."""
        line = buffer.rfind(b"\n", max(0, match.start() - MAX_LOGIN_CONTEXT), match.start()) + 1
        if buffer.find(b"?", line, match.start()) >= 0 or not self.bare_value(buffer, match.end()):
            return False
        if self.user_pair(buffer, match.start(), match.end()):
            return True
        return self.address_before(buffer, match.start()) and self.user_pair(buffer, match.start(), match.end(), labelled=True)

    def quoted_network_value(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a wireless network's quoted name, a colon and its password (``Wi-Fi "Office
        5G": ...``), judged as around a spaced slash (:meth:`quoted_network_pair`)."""
        return self.quoted_network_pair(buffer, match.start(), match.end(), named_next=True)

    def quoted_network_pair(self, buffer: bytearray, close: int, value: int, *, named_next: bool = False) -> bool:
        """Whether a wireless network's quoted name and its password stand on either side of the
        spaced slash or the colon after the quote that closes the name at ``close``, the value
        at ``value`` (``wifi: "Home Net" / ...``, ``Wi-Fi 'Cafe Guest' / ...``, ``Wi-Fi "Office
        5G": ...``): the network named by a word of its own before the quote, on the line (with
        ``named_next``, no other quote between them: ``{"wifi": "x", "name": ...}`` is JSON's),
        and a value that could be a password (:meth:`clause_value`) or looks generated
        (:meth:`bare_value`)."""
        opening = buffer.rfind(buffer[close : close + 1], max(0, close - MAX_NETWORK_NAME - 1), close)
        if opening < 1 or buffer.find(b"\n", opening, close) >= 0:
            return False
        line = buffer.rfind(b"\n", max(0, opening - MAX_NETWORK_REACH), opening) + 1
        networks = list(self.network_word.finditer(buffer, max(line, opening - MAX_NETWORK_REACH), opening))
        if not networks or (named_next and self.network_quote.search(buffer, networks[-1].end(), opening) is not None):
            return False
        return self.clause_value(buffer, value) or self.bare_value(buffer, value)

    def dashed_pair(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a label, a user and a password set off by two spaced dashes of one kind
        (``Grafana - admin - ...``, ``Test account — qa@example.com — ...``; the screen reads
        every dash as a hyphen), the first read as the label's colon and the second as a pair's
        slash: the password looks generated (:meth:`bare_value`), and the pair is one as after a
        label (:meth:`user_pair`)."""
        dash = match.group().strip(b" \t")
        user_end = match.start()
        while user_end and buffer[user_end - 1] in b" \t":
            user_end -= 1
        user = self.pair_user.search(buffer, max(0, user_end - _PAIR_USER), user_end)
        if user is None:
            return False
        dash_end = user.start()
        while dash_end and buffer[dash_end - 1] in b" \t":
            dash_end -= 1
        first = dash_end - len(dash)  # where the first dash starts
        if dash_end == user.start() or first < 1 or buffer[first:dash_end] != dash or buffer[first - 1] not in b" \t":
            return False  # no spaced dash of the same kind right before the user
        line = buffer.rfind(b"\n", max(0, first - MAX_SERVICE_LABEL), first) + 1
        if not bytes(buffer[line:first]).strip() or (not line and first > MAX_SERVICE_LABEL):
            return False  # no label before the first dash on this line
        if buffer.count(b"(", line, first) > buffer.count(b")", line, first):
            return False  # inside a call's arguments: code's subtraction, f(offset - sizeLocator - sizeDir64, 2)
        return self.bare_value(buffer, match.end()) and self.user_pair(buffer, user_end, match.end(), labelled=True)

    def service_user(self, buffer: bytearray, user_end: int) -> bool:
        """Whether a user ends at ``user_end`` right after a label that starts its line (after its
        margin: a comment's or a quote's marks, a list's), maybe with an aside, and a colon or a
        spaced dash (``Jenkins: deploy``, ``- staging db: app``, ``# The vendor portal
        (portal.example.com) - ann``)."""
        user = self.pair_user.search(buffer, max(0, user_end - _PAIR_USER), user_end)
        if user is None:
            return False
        line = buffer.rfind(b"\n", max(0, user.start() - MAX_SERVICE_LABEL), user.start()) + 1
        if not (line or user.start() < MAX_SERVICE_LABEL):
            return False
        return self.service_label.fullmatch(buffer, margin_end(buffer, line, user.start()), user.start()) is not None

    def symbolled_value(self, buffer: bytearray, pos: int) -> bool:
        """Whether the value at ``pos`` looks generated (:meth:`bare_value`) and has a symbol, a
        digit, a lower-case and an upper-case letter in it (``Xk29pqLm7!``; not ``build-2.0!``)."""
        run = self.unspaced.match(buffer, pos)  # the value's own reading stops at a shell's & or ;
        if run is None:
            return False
        first, last = pos, trimmed(buffer, pos, run.end())
        return (
            self.symbol.search(buffer, first, last) is not None
            and self.digit.search(buffer, first, last) is not None
            and self.lower.search(buffer, first, last) is not None
            and self.upper.search(buffer, first, last) is not None
            and self.bare_value(buffer, pos)
        )

    def labelled_pair(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a user and a password after a label that names both (``username/password:
        ann/...``, ``user/pass = ann:...``): the label is the pair's word of a login, so a slash
        without spaces joins the pair here, as it joins a path's parts elsewhere (:meth:`user_pair`)."""
        return self.user_pair(buffer, match.end("user"), match.end(), labelled=True)

    def abbreviated_password(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a password after ``p:`` where a user was given after ``u:`` or ``user:`` right
        before it on the line (``u: admin p: hunter2``, ``U: ann, P: Tr0ub4dor3``; the rule's
        pattern finds both labels and the user): alone, ``p:`` labels anything. The value is judged
        as after a colon (:meth:`clause_value`) or by a generated value's texture
        (:meth:`bare_value`)."""
        return self.clause_value(buffer, match.end()) or self.bare_value(buffer, match.end())

    def account_pair(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for an account systems come with and a password after it, joined as the rule's
        match says: by "and" (:meth:`account_and_pair`), or by a slash (:meth:`account_slash_pair`)
        or a colon, with no space, where a generated password needs no word of a login
        (:meth:`account_generated_pair`)."""
        if match.start("joint") >= 0:
            return self.account_and_pair(buffer, match)
        if match.start("slash") >= 0 and self.account_slash_pair(buffer, match):
            return True
        return self.account_generated_pair(buffer, match)

    def account_slash_pair(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for an account systems come with and a password around an unspaced slash after a
        word of a login (``creds: admin/hunter2``, ``login root/Tr0ub4dor3``): the same pair as
        around a spaced slash (:meth:`user_pair`), but the login's word must be there, since a
        slash without spaces also joins the parts of a path (``users/admin/settings``)."""
        return self.user_pair(buffer, match.end() - 1, match.end())

    def login_joined_pair(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a user and a password right after a login's word and a colon or "is", joined
        with no space around a slash, by a comma or by "and" (``Staging login: ann/...``,
        ``Credentials for the demo: demo, ...``, ``the DB creds are app and ...``): judged as the
        pair around a spaced slash (:meth:`user_pair`), the login's word being the rule's own, but
        only a value with a generated one's texture counts (:meth:`bare_value`), since such a
        slash also joins a path's parts and such a comma or "and" a list's (``credentials:
        vault/prod2db``, ``logins: alice, bob2024``, ``logins: alice and bob2024``); a value with
        another slash is a path (``login: src/auth/LoginForm2``). Code's ``assert credentials is
        None, '...'`` is no pair: a constant is no user, and a quoted value after a comma is an
        argument. Past :data:`MAX_NAMED` such pairs in one screen it answers no."""
        value = match.end()
        if value == len(buffer) or buffer[value] in b"'\"`([{" or match.group("user") in _CONSTANTS:
            return False
        if self.spent("pairs"):
            return False
        found = self.value_at(buffer, value, tight=False)
        if found is None or buffer.find(b"/", found[0], found[1]) >= 0 or not self.bare_value(buffer, value):
            return False
        return self.user_pair(buffer, match.start("joint"), value, labelled=True)

    def unlocking_value(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a password given to what it unlocks, decrypts, unseals, protects or locks,
        after "with" or "using" (``Unlock the keychain with ...``, ``decrypt backup.tar.gpg using
        ...``, ``the zip is protected with ...``): only a
        value with a generated one's texture (:meth:`bare_value`) that is no name in camel case
        with a number after it and no keyboard shortcut, since such a verb is given tools, keys
        and devices as often (``unlock with YubiKey5``, ``decrypt using KMSKey2024``, ``unlock
        the screen with Ctrl+Alt+L``, ``unlock it with Touch ID``, ``decrypt with utf8mb4``)."""
        value = match.end()
        found = self.value_at(buffer, value, tight=False)
        if found is None or self.tool_or_shortcut.fullmatch(buffer, found[0], trimmed(buffer, found[0], found[1])) is not None:
            return False
        return self.bare_value(buffer, value)

    def conditional_pronoun_value(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a value that "it" gives right after a condition that asks for a credential,
        with no mark between (``if the build asks for a signing password it's ...``, ``when sudo
        asks for the password it is ...``): the credential's name ends right before "it", the
        condition opens its clause on the line, and the value looks generated
        (:meth:`bare_value`), as "it" is said of much (``the password it's using is wrong``)."""
        end = match.start()
        start = self.name_ending_at(buffer, end)
        if start is None or not self.sentence_credential(buffer, start, end):
            return False
        line = buffer.rfind(b"\n", max(0, start - MAX_PURPOSE), start) + 1
        condition = self.condition_opening.search(buffer, max(line, start - MAX_PURPOSE), start)
        return condition is not None and self.bare_value(buffer, match.end())

    def pronoun_value(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a value that "it" gives for a credential named earlier on its line (``the DB
        password changed; it's now ...``): the name ends its phrase there (:meth:`named_earlier`),
        and the value looks generated (:meth:`bare_value`), as "it" stands for anything (``the
        token format changed; it's now v2-signed``, ``it's now in Vault``)."""
        return self.named_earlier(buffer, match.start()) and self.bare_value(buffer, match.end())

    def typed_when_asked(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a value to type or give where a password is asked for: "enter", "type",
        "paste", "input", "answer", "reply", "respond", "give", "use", "supply" or "provide" (maybe
        with "in" or "with" after it) opening a clause after a comma, where the clause before
        names a credential at the end of a phrase (``For the sudo password, enter ...``, ``When
        asked for the vault passphrase, answer ...``; :meth:`named_earlier`), or right after a
        prompt or a field that a credential word names (``At the password prompt type ...``, ``In
        the password field, type ...``). The value must end its clause and could be a password
        (:meth:`clause_value`), or look generated (:meth:`bare_value`), and be no keyboard
        shortcut (``use Ctrl+V``)."""
        end = match.start()
        while end and buffer[end - 1] in b" \t":
            end -= 1
        comma = end > 0 and buffer[end - 1] == ord(",")
        end -= comma
        named = (comma and self.named_earlier(buffer, end)) or (
            self.prompt_before.search(buffer, max(0, end - 24), end) is not None and self.word_within_reach(buffer, end, 48)
        )
        if not named:
            return False
        found = self.value_at(buffer, match.end(), tight=False)
        if found is not None and self.shortcut.fullmatch(buffer, found[0], trimmed(buffer, found[0], found[1])) is not None:
            return False
        return self.clause_value(buffer, match.end()) or self.bare_value(buffer, match.end())

    def answered_value(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a value given as the answer, on the line below or as the rest of its line, to a
        question that asks for a credential (``Q: staging db password?`` then ``A: ...``; a
        transcript's ``User: what's the admin password?`` then ``Assistant: It's ...``; ``The
        password? ...``): the question names the credential at the
        end of a phrase (:meth:`named_earlier`), and the answer is one value that ends its line and
        looks generated (:meth:`bare_value`) or could be a password (:meth:`clause_value`), so an
        answer in words is kept (``A: In the vault``, ``A: Click Forgot-Password2 on the login
        page``, ``A: argon2id`` to ``Q: which password hash?``)."""
        if not self.named_earlier(buffer, match.start()):
            return False
        found = self.value_at(buffer, match.end(), tight=False)
        if found is None or self.line_rest.match(buffer, found[1]) is None:
            return False
        return self.bare_value(buffer, match.end()) or self.clause_value(buffer, match.end())

    def value_to_log_in(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a value given with the login or the unlocking it is for after it (``use ...
        to log in``, ``enter ... to unlock the vault``): "use", "enter" or "type" right before
        the value, which must look generated (:meth:`bare_value`) and be no tool or keyboard
        shortcut (``use YubiKey5 to log in``, ``type Ctrl+Alt+L to unlock``), as after an
        unlocking verb (:meth:`unlocking_value`); a user's name has the same place (``use
        deploy2 to log in``), so a weak value is kept."""
        found = self.value_given_before.search(buffer, max(0, match.start() - MAX_GIVEN_BEFORE), match.start())
        if found is None:
            return False
        first, last = found.span("value")
        if self.tool_or_shortcut.fullmatch(buffer, first, trimmed(buffer, first, last)) is not None:
            return False
        return self.bare_value(buffer, first)

    def account_generated_pair(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for an account systems come with and a password after a colon or a slash with no
        space and no word of a login (``Grafana admin:Xk9mQ2vLp``, ``root/Tr0ub4dor&3 on the
        box``): only a value with a generated one's texture (:meth:`bare_value`) counts, and none
        with a path's, a field's or a call's marks in it (``/``, ``:``, ``=``, a bracket), which
        an OS build string (``root:xnu-792.25.20~1/RELEASE_I386``), a passwd line
        (``root:x:0:0``), a label (``admin:label=...``) and a path (``admin/users/Profile2``)
        have, nor an address (``admin:ann@example.com``)."""
        if match.start() and buffer[match.start() - 1] in b":@":
            return False  # a name's part after another's (ns:admin:..., ann@admin:...)
        found = self.value_at(buffer, match.end())
        if found is None or self.pair_marks.search(buffer, found[0], trimmed(buffer, found[0], found[1])) is not None:
            return False  # a bracket that closes the clause after the value is an aside's: Grafana (admin:...)
        return self.bare_value(buffer, match.end()) and self.pair_address.match(buffer, match.end()) is None

    def login_as_value(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a password after a login and the user it logs in as, joined by "with" or
        "using" (``log in as bob with Tr0ub4dor&3``, ``sign in as admin using hunter2.``): the
        login's verb and ``as`` right before the user (:data:`LOGIN_AS`), and a value with a
        generated one's texture (:meth:`bare_value`) or one that ends its clause and could be a
        password (:meth:`clause_value`). ``log in as admin with SSO`` and ``ssh in as root with
        id_ed25519`` name a way in, not a password; ``served as admin with ...`` is no login."""
        user = match.start("user")
        line = buffer.rfind(b"\n", max(0, user - MAX_LOGIN_AS), user) + 1
        if self.login_as.search(buffer, max(line, user - MAX_LOGIN_AS), user) is None:
            return False
        return self.bare_value(buffer, match.end()) or self.clause_value(buffer, match.end())

    def account_with_value(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a password after an account that a login's, a user's or an account's name
        gives, joined to it by "with" or "using" (``the shared login is ops@example.com with ...``,
        ``user: deploy using ...``): the user is no word of grammar (``the user is in with ...``)
        nor a state the account is in (``the account is locked with reason2FA``), and the value
        has a generated one's texture (:meth:`bare_value`), as such an account is given a way in
        as often (``the login is ann with Google``, ``user: admin with SSO``)."""
        user = match.span("user")
        if self.grammar_word.fullmatch(buffer, *user) is not None or self.account_state.fullmatch(buffer, *user) is not None:
            return False
        return self.bare_value(buffer, match.end())

    def spaced_login_pair(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a user and a password with a space between them after a login's label and
        its colon (``login: deploy ...``, ``Basic auth for staging: deploy ...``): the user is no
        word of grammar (``login: use SSO2024!``), and the password has a symbol, a digit and both
        cases (:meth:`symbolled_value`) and ends its clause (``login: deploy Build2024`` and
        ``login: deploy (see vault)`` are kept)."""
        user = match.span("user")
        if self.grammar_word.fullmatch(buffer, *user) is not None or self.giving_verb_word.fullmatch(buffer, *user) is not None:
            return False
        found = self.symbolled_found(buffer, match.end())
        return found is not None and self.ends_clause(buffer, found)

    def symbolled_found(self, buffer: bytearray, pos: int, *, address: bool = True) -> tuple[int, int, bool] | None:
        """The value at ``pos`` as :meth:`value_at` reads it loosely, when it has a symbol, a digit
        and both cases (:meth:`symbolled_value`); unless ``address``, not when it is an address
        (``ann@Example1.com``)."""
        if (not address and self.pair_address.match(buffer, pos) is not None) or not self.symbolled_value(buffer, pos):
            return None
        return self.value_at(buffer, pos, tight=False)

    def login_with_value(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a password right after a login's verb and "with", the user after it (``logged
        in with ... as admin``): the verb before "with" (:data:`LOGIN_WITH`), and a value with a
        generated one's texture (:meth:`bare_value`), as such a verb is given ways in as often
        (``signed in with Google as ann``, ``logged in with SSO as admin``)."""
        end = match.end()
        line = buffer.rfind(b"\n", max(0, end - MAX_LOGIN_AS), end) + 1
        return self.login_with.search(buffer, max(line, end - MAX_LOGIN_AS), end) is not None and self.bare_value(buffer, end)

    def login_with_password(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a password alone after a login's verb and "with" or "using", maybe after what
        it logs into (``log in with …``, ``we log into the dashboard with …``): the verb before
        "with" (:data:`LOGIN_TO_WITH`), and a value that ends its clause and has a symbol, a digit
        and both cases (:meth:`symbolled_value`), as such a verb is given ways in and addresses as
        often (``log in with SSO``, ``sign in with Google``, ``log in with ann@example.com``)."""
        end = match.end()
        found = self.symbolled_found(buffer, end, address=False)
        if found is None or not self.ends_clause(buffer, found):
            return False
        if self.tool_or_shortcut.fullmatch(buffer, found[0], trimmed(buffer, found[0], found[1])) is not None:
            return False  # a way in and its version: authenticate with OAuth2.0
        line = buffer.rfind(b"\n", max(0, end - MAX_LOGIN_AS - 32), end) + 1
        return self.login_to_with.search(buffer, max(line, end - MAX_LOGIN_AS - 32), end) is not None

    def given_address_pair(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for an address and a password given together by "use" or "enter", joined by
        "and" or "with" (``for the demo account use demo@example.com and …``): a password with a
        symbol, a digit and both cases (:meth:`symbolled_value`) that ends its clause or is
        followed by what it is "to" do (``… to log in``). Two addresses, or an address and a
        word, are a list (``use ann@example.com and the team alias``)."""
        found = self.symbolled_found(buffer, match.end(), address=False)
        return found is not None and (self.ends_clause(buffer, found) or self.to_purpose.match(buffer, found[1]) is not None)

    def login_with_pair(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a user and a password joined by "and" after a login's verb and "with" or
        "using" (``log in with deploy and ...``, ``authenticate using svc_ci and ...``): the verb
        right before the user (:data:`LOGIN_WITH`), and judged as the pair after a login's word
        and a colon (:meth:`login_joined_pair`): only a value with a generated one's texture
        counts, since such a verb is given ways in as often (``sign in with SSO and MFA``,
        ``log in with Google and GitHub``), and a second account after "and" makes a list."""
        user = match.start("user")
        line = buffer.rfind(b"\n", max(0, user - MAX_LOGIN_AS), user) + 1
        if self.login_with.search(buffer, max(line, user - MAX_LOGIN_AS), user) is None:
            return False
        if self.numbered_account.match(buffer, match.end()) is not None or self.spent("pairs"):
            return False
        found = self.value_at(buffer, match.end(), tight=False)
        if found is None or buffer.find(b"/", found[0], found[1]) >= 0 or not self.bare_value(buffer, match.end()):
            return False
        return self.user_pair(buffer, match.start("joint"), match.end(), labelled=True)

    def account_and_pair(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for an account systems come with and a password joined by "and" after a word of a
        login (``log in with admin and hunter2``, ``creds are root and Tr0ub4dor3``), judged as
        the pair around a slash is (:meth:`user_pair`); without the login's word, or with a second
        account after "and", it is a list."""
        if self.numbered_account.match(buffer, match.end()) is not None:
            return False  # two accounts (user accounts: admin and guest2)
        return self.user_pair(buffer, match.start("joint"), match.end())

    def named_after_value(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a value that its sentence names only after it, the name ending its clause or
        followed by what it is for: ``hunter2 is the password``, ``Tr0ub4dor&3 was the staging db
        password.``, ``use hunter2 as the password for the demo``, ``Tr0ub4dor&3 (the staging db
        password)``, ``Tr0ub4dor&3 - that's the wifi password``.

        After "is", "was" or "that's", or before the aside's bracket, the value must start its clause (a
        line, a bullet, a comment's marks, or after a colon, a full stop, a comma or a bracket:
        ``Note: hunter2 is the password``); after "as" a verb that gives it must stand before it
        in its clause (use, set, enter, type, with...). The
        value is judged as one that ends its clause after "is" (:meth:`weak_password`), or by a
        password's texture when ``-``, ``_``, ``.`` or ``/`` join it; ``<|endoftext|> is the
        special token``, ``ed25519 is the key`` and ``it is the password`` are kept. Past
        :data:`MAX_NAMED` names in one screen that have one of those words near, it answers no,
        as :meth:`named_before` does."""
        near = max(0, match.start() - MAX_NAMING)
        if all(buffer.find(word, near, match.start()) < 0 for word in (b" is", b" was", b" as", b"(", b"hat")):
            return False  # looked for first: these names end many a clause that names no value
        if self.spent("named_after"):
            return False
        end = match.end()
        start = self.name_ending_at(buffer, end)
        if start is None or not self.sentence_credential(buffer, start, end):
            return False
        line = buffer.rfind(b"\n", max(0, start - MAX_NAMING - MAX_QUOTED), start) + 1
        link = self.naming_before.search(buffer, max(line, start - MAX_NAMING), start)
        if link is None:
            return False
        found = self.value_before.search(buffer, max(line, link.start() - MAX_QUOTED), link.start())
        if found is None:
            return False
        first, last = found.span("value")
        if link.group("link") == b"as":
            verb = self.giving_verb.search(buffer, max(line, found.start() - MAX_GIVEN), found.start())
            if verb is None or self.clause_mark.search(buffer, verb.end(), found.start()) is not None:
                return False
        elif not self.clause_start(buffer, line, found.start()):
            return False
        if not self.is_value(buffer, first, last):
            return False
        return self.weak_password(buffer, first, last) or self.prose_texture(buffer, first, last, joined=False)

    @staticmethod
    def clause_start(buffer: bytearray, line: int, pos: int) -> bool:
        """Whether ``pos`` starts a clause: only spaces, a bullet's mark, a comment's or a quote's
        marks (``# hunter2 is the password``, ``REM …``, ``% …``) or nothing before it on its line,
        or a colon, a full stop, a comma, a semicolon or an opening bracket."""
        while pos > line and buffer[pos - 1] in b" \t":
            pos -= 1
        return pos == line or buffer[pos - 1] in b":.;,!?(-*>#/" or margin_end(buffer, line, pos) >= pos

    def quoted_passphrase(self, buffer: bytearray, first: int, close: int, *, short: bool = False) -> bool:
        """Whether the quoted words ``buffer[first:close]`` are a passphrase: four words or more
        of letters in one case (:data:`.vocabulary.PASSPHRASE`), or three when ``short`` (after
        a passphrase's own name, which says they are one), none a word of grammar, a stand-in or
        a name (``the passphrase is "correct horse battery staple"``, ``use passphrase "blue
        monkey river"``; not ``"the one on the fridge"``), as a passphrase after a name and a
        separator is judged."""
        shape = self.short_passphrase if short else self.passphrase
        return shape.fullmatch(buffer, first, close) is not None and all(
            self.phrase_part(buffer, *word.span()) for word in self.phrase_word.finditer(buffer, first, close)
        )

    def bare_after_key(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """:meth:`bare_after_name` after ``key``, which names a credential only as the end of a
        two-word name (``the secret key 8f14e45fceea167a5a36dedd4bea2543``, not ``the cache key``).
        A hex run counts from 32 characters, as long as a 128-bit key is, except 40: a PGP key is
        named by its fingerprint of 40 or its id of 16 (``the signing key 4AEE18F83AFDEB23``), and
        both are public. The name ends at ``key``: in ``the passphrase for key '...'`` the value
        is the key's and no credential."""
        if self.fingerprint.match(buffer, match.end()) is not None or not self.bare_value(buffer, match.end(), unbroken=32):
            return False
        end = trimmed_line(buffer, match.start(), match.end())
        start = self.name_ending_at(buffer, end)
        return start is not None and self.sentence_credential(buffer, start, end)

    def quoted_after_name(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a quoted value right after a credential name in prose (``use the password
        "hunter2"``), or after the name and a linking word, where the name may be followed by what
        it is for or how it changed (``the password for the dev box is "..."``): one word, closed
        by the same quote, that is a value of its own and is not a plain word (it has a digit, a
        symbol or a capital inside), or words that are a passphrase (:meth:`quoted_passphrase`)."""
        first = match.end()
        close = buffer.find(buffer[match.start()], first, first + MAX_QUOTED)
        if close < first + 4:
            return False  # no closing quote near, or too short to be a password
        end = match.start() - 1  # the space before the quote
        start = self.name_ending_at(buffer, end)
        linked = False
        if start is not None and start >= 2 and buffer[start - 1] == ord(" ") and is_linking(buffer, start, end):
            linked, end = True, start - 1  # the password is "hunter2": the name is before the verb
            start = self.name_ending_at(buffer, end)
        named = (
            start is not None
            and self.credential_named(buffer, start, end)
            and self.not_credential_name.fullmatch(buffer, start, end) is None
        )
        if not (named or linked):
            return False
        if self.word_gap.search(buffer, first, close) is not None:
            line = buffer.rfind(b"\n", max(0, first - MAX_PURPOSE), first) + 1
            short = self.passphrase_name.search(buffer, max(line, first - MAX_PURPOSE), first) is not None
            value = self.quoted_passphrase(buffer, first, close, short=short)
        else:
            value = (
                distinct(buffer, first, close) >= 3
                and self.is_value(buffer, first, close)
                and self.header_texture.fullmatch(buffer, first, close) is not None
            )
        # without the name right there, the name and what it is for, or how it changed, asked last
        # as the costliest: the password for the dev box is "...", the password was changed to "..."
        return value and (named or self.named_or_changed(buffer, end))
