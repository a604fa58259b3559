"""What the screen takes for a value where a rule finds one, and when it takes it for a credential.

Design:

- Prose uses the same separators, so context decides. A value is taken as certain when it is
  written tight against its separator (``password=x``, ``password:x``), quoted, or ends its clause
  (``password: x`` at the end of a line, before a comment, a comma or a closing bracket). A word
  followed by more words (``token: see the docs``, ``Secret: rotate it every 90 days``) is prose,
  and only a value that looks generated there is refused: eight or more bytes, four distinct
  characters, a letter together with a digit or a symbol. Words to the end of their line after a
  credential name are refused as one value with spaces in it when none of them is a word of
  grammar, a stand-in or a reference (``see the vault entry``, ``ask Alice``, ``the one from the
  team vault`` are prose) and they mix three of lower case, upper case inside a word, digits and
  symbols (``PASSWORD: Summer 2024!``), or are four plain words or more in one case, a passphrase
  (``password: correct horse battery staple``).
"""

from __future__ import annotations

from .buffers import (
    cut_by_escaped_quote,
    cut_by_other_quote,
    distinct,
    opening_quote,
    reclosed,
    string_prefix,
    trimmed,
    unwrapped,
    wrapped_line_end,
)
from .leads import compiled
from .vocabulary import (
    BETWEEN_STRINGS,
    CLAUSE_END,
    DESCRIPTION,
    ELIDED_PREFIX,
    GRAMMAR_WORD,
    GROUPED_KEY,
    HEADER_TEXTURE,
    HTML_ENTITY,
    JOINED_PAIR,
    JOINED_RUN,
    LONG_WORD,
    MAX_ASIDE,
    MIN_DISTINCT,
    MIN_LINKED,
    MIN_VALUE,
    NAMED_THING,
    NODE_PROPERTIES,
    OPEN_STAND_IN,
    PASSPHRASE,
    PATTERN_CLASS,
    PATTERN_CONSTRUCT,
    PATTERN_RANGE,
    PHRASE,
    PLACEHOLDER,
    PLACEHOLDER_WORD,
    PUBLIC_VALUE,
    PUBLISHED_EXAMPLE,
    QUOTED_REFERENCE,
    QUOTED_STAND_IN,
    SPOKEN_WORD,
    TERMINAL_ESCAPE,
    TEXTURE,
    TYPE_NAME,
    UNQUOTED_REFERENCE,
    VALUE,
    VARIABLE_END,
    WORD,
)

__all__ = ["ValueChecks"]


class ValueChecks:
    """What a value is, where a rule finds one: the judgements every check shares."""

    def __init__(self) -> None:
        import _thread  # threading.local is _thread._local; a cold process need not import threading

        self.calls = _thread._local()
        """What one screen has spent and seen, per thread: ``named`` counts its sentence-name searches,
        ``words`` holds where credential words start, ``stand_ins`` where placeholder tokens lie,
        ``tools`` where the tools that take a password in an option are."""

    # The patterns of these checks, each compiled on its first use.
    value = compiled(VALUE)
    node_properties = compiled(NODE_PROPERTIES)
    joined_run = compiled(JOINED_RUN)
    joined_pair = compiled(JOINED_PAIR)
    html_entity = compiled(HTML_ENTITY)
    separator = compiled(rb"[,;&]")
    variable_name = compiled(rb"[A-Za-z_][A-Za-z0-9_]*")
    clause_end = compiled(CLAUSE_END)
    question = compiled(rb"[A-Za-z]+\?")
    closing_tag = compiled(rb"</[A-Za-z]")
    aside_or_purpose = compiled(rb"[ \t]+(?:\([^()\r\n]{1,%d}\)|(?:for|on|in|at|until|since)[ \t])" % MAX_ASIDE)
    placeholder = compiled(PLACEHOLDER)
    reference = compiled(UNQUOTED_REFERENCE)
    placeholder_word = compiled(PLACEHOLDER_WORD)
    quoted_reference = compiled(QUOTED_REFERENCE)
    quoted_stand_in = compiled(QUOTED_STAND_IN)
    public_value = compiled(PUBLIC_VALUE)
    published_example = compiled(PUBLISHED_EXAMPLE)
    elided_prefix = compiled(ELIDED_PREFIX)
    open_stand_in = compiled(OPEN_STAND_IN)
    pattern_construct = compiled(PATTERN_CONSTRUCT)
    terminal_escape = compiled(TERMINAL_ESCAPE)
    pattern_class = compiled(PATTERN_CLASS)
    pattern_range = compiled(PATTERN_RANGE)
    between_strings = compiled(BETWEEN_STRINGS)
    texture = compiled(TEXTURE)
    header_texture = compiled(HEADER_TEXTURE)
    type_name = compiled(TYPE_NAME)
    word = compiled(WORD)
    spoken_word = compiled(SPOKEN_WORD)
    long_word = compiled(LONG_WORD)
    phrase = compiled(PHRASE)
    phrase_word = compiled(rb"[^ \t]+")
    passphrase = compiled(PASSPHRASE)
    contraction_end = compiled(rb"'t(?![A-Za-z0-9])")  # the rest of don't, isn't, can't
    # The verb a changelog's or a commit's line starts with, after its area's name and a colon
    # (refresh_token: fix race condition bug, api_key: add rotation support docs).
    change_verb = compiled(
        rb"(?i:fix|fixes|fixed|add|adds|remove|removes|drop|update|updates|use|make|allow|avoid|handle|support|bump|rename"
        rb"|move|refactor|improve|document|clarify|revert|simplify|replace|reject|accept|enable|disable|ensure|skip"
        rb"|implement|introduce|deprecate|validate|check|prefer|split|merge|cache|store|log|warn)[ \t]"
    )
    grouped_key = compiled(GROUPED_KEY)
    grammar_word = compiled(GRAMMAR_WORD)
    word_after = compiled(rb"[ \t]+[a-z]")
    alnum = compiled(rb"[A-Za-z0-9]")
    letters = compiled(rb"[A-Za-z]+")
    named_thing = compiled(NAMED_THING)
    lower = compiled(rb"[a-z]")
    upper = compiled(rb"[A-Z]")
    digit = compiled(rb"[0-9]")
    joiner = compiled(rb"[-_.]")
    symbol = compiled(rb"[\x00-\x2c\x3a-\x40\x5b-\x5e\x60\x7b-\x7f]")  # ASCII, not alnum, - . _ or /
    redacted = compiled(
        rb".*<(?i:redacted|removed|hidden|masked|omitted|elided|snip|snipped|censored|truncated|secret|password|token|key)>"
    )
    template = compiled(
        rb"(?:(?i:basic|bearer|token|digest|apikey|key)[ \t]+)?\{(?:await[ \t]+)?[A-Za-z_][A-Za-z0-9_]*"
        rb"(?:\.[A-Za-z_][A-Za-z0-9_]*|\([^(){}\"']{0,64}\)|\[[^\[\]{}]{1,64}\])*\}"
    )
    description = compiled(DESCRIPTION)
    unjoined_part = compiled(rb"[^-_./]{8,}")
    inner_digit = compiled(rb"[A-Za-z][0-9]+[A-Za-z]")
    block_marker = compiled(rb"[|>][-+]?[0-9]?")
    block_line = compiled(rb"[|>][-+]?[0-9]?[ \t]*(?:#[^\r\n]{0,256})?\r?\n(?P<indent>)[ ]{0,64}(?P<line>[^\s#][^\r\n]{0,1024})")

    def value_at(self, buffer: bytearray, pos: int, *, tight: bool = True) -> tuple[int, int, bool] | None:
        """The value that starts at ``pos``, as ``(start, end, certain)``, or ``None`` if there is none.

        ``certain`` says the context makes it a value rather than a word of prose: it is quoted,
        it ends its clause or the element around it (a closing tag such as ``</code>`` ends an
        unquoted value), or (when ``tight``) it follows its separator without a space and does not
        start a sentence (:meth:`sentence_start`). A YAML anchor or string tag before it
        (``password: &db !!str ...``) is passed over.
        """
        value = self.value.match(buffer, self.past_properties(buffer, pos))
        if value is None:
            return None
        if value.start("quoted") >= 0:
            return value.start("quoted"), value.end("quoted"), True
        start, end = value.span("bare")
        closed = self.closing_tag.search(buffer, start, end)
        if closed is not None:  # HTML around prose: <code>secret Name</code> ends the value at "<"
            if closed.start() == start:
                return None
            return start, closed.start(), True
        certain = (tight and start == pos and not self.sentence_start(buffer, start, end)) or self.clause_end.match(buffer, end) is not None
        return start, end, certain or self.closes_aside(buffer, start, end)

    def sentence_start(self, buffer: bytearray, start: int, end: int) -> bool:
        """Whether the unquoted ``buffer[start:end]`` is a word of grammar that a word in lower case
        follows: a sentence about the value starts there (``password:must be rotated``, as NFKC
        reads a full-width colon's ``password：must…``), not the value."""
        return self.grammar_word.fullmatch(buffer, start, end) is not None and self.word_after.match(buffer, end) is not None

    def closes_aside(self, buffer: bytearray, start: int, end: int) -> bool:
        """Whether the unquoted value ``buffer[start:end]`` ends with the bracket that closes an
        aside in prose around it (``(pw hunter2) and ...``): a ``)`` that no part of the value
        opened, whose ``(`` stands on the line after a space or at its start. A call's bracket
        follows a name (``on_token(token: Message)``)."""
        if buffer.find(b")", start, end) < 0:
            return False  # most values: nothing to trim
        last = trimmed(buffer, start, end)
        if last >= end or buffer[last] != ord(")"):
            return False
        line = buffer.rfind(b"\n", 0, start) + 1
        opening = buffer.rfind(b"(", line, start)
        return opening >= 0 and (opening == line or buffer[opening - 1] in b" \t") and buffer.find(b")", opening, start) < 0

    def past_properties(self, buffer: bytearray, pos: int) -> int:
        """Where the value at ``pos`` starts past a YAML anchor or string tag (``&db !!str ...``)."""
        properties = self.node_properties.match(buffer, pos)
        return pos if properties is None else properties.end()

    def textured_value_at(self, buffer: bytearray, pos: int) -> bool:
        """Whether a value of its own with a digit, a symbol or a case step in it (:meth:`own_value`)
        starts at ``pos``, judged without the punctuation that ends it."""
        found = self.value_at(buffer, pos)
        return found is not None and self.own_value(buffer, found[0], trimmed(buffer, found[0], found[1]), texture=True)

    def own_value(self, buffer: bytearray, first: int, last: int, *, texture: bool) -> bool:
        """Whether ``buffer[first:last]`` is a value of its own (with a digit, a symbol or a case
        step in it, when ``texture``)."""
        return self.is_value(buffer, first, last) and (
            not texture or self.header_texture.fullmatch(buffer, first, trimmed(buffer, first, last)) is not None
        )

    def is_value(self, buffer: bytearray, start: int, end: int) -> bool:
        """Whether ``buffer[start:end]`` is a value of its own rather than a stand-in or a reference.

        A single byte is never one (``token = 0``, ``"token": i``), nor is a format template
        that fills in a variable (``f"Bearer {api_key}"``), a value with a redaction marker
        (``ya29.<redacted>``, ``Hunter<REDACTED>``) or a key its provider publishes as public
        (:data:`PUBLIC_VALUE`: ``pk_live_...``).

        A quoted value is a string, whatever characters it holds: it stands for a value only as a
        whole template or reference (:data:`QUOTED_STAND_IN`), and capitalised words in it are a
        passphrase (``"CorrectHorseBatteryStaple"``), not a type name as they are in code
        (``password: SecretStr``, ``token = OAuth2Token``).

        A value is judged whole: when trimming a clause's punctuation took off brackets that close
        ones it opened (``is "${DB_PASSWORD}"``), the value with them must be one too.
        """
        whole = reclosed(buffer, start, end)
        if whole > end and not self.is_value(buffer, start, whole):
            return False
        if end > start and buffer[end - 1] in b"nN" and self.contraction_end.match(buffer, end) is not None:
            return False  # a word a contraction's apostrophe cut, which is no closing quote: password: don't ...
        if self.template.fullmatch(buffer, start, end) is not None or self.redacted.fullmatch(buffer, start, end):
            return False
        quoted = opening_quote(buffer, start)
        if quoted and self.between_strings.match(buffer, start, end) is not None:
            quoted = 0  # not a string: code between two of them, judged as code
        if quoted and self.quoted_code(buffer, start, end, quoted):
            return False
        last = trimmed(buffer, start, end)
        if last - start <= 1 or self.public_value.fullmatch(buffer, start, last) is not None:
            return False
        if self.token_stand_in(buffer, start, last):
            return False
        if buffer.startswith(b"...", last) and self.elided_prefix.fullmatch(buffer, start, last) is not None:
            return False
        if distinct(buffer, start, last) <= 2 and last - start >= 4:  # a mask such as xxxx, 0000 or aaaa1111
            return False
        if quoted:
            return (
                self.placeholder_word.fullmatch(buffer, start, last) is None
                and self.quoted_reference.fullmatch(buffer, start, last) is None
            )
        return (
            self.placeholder.fullmatch(buffer, start, last) is None
            and self.reference.fullmatch(buffer, start, last) is None
            and self.grammar_word.fullmatch(buffer, start, last) is None  # see LoadCredential= above, "password: is"
            and not self.is_type_name(buffer, start, last)
            and not self.worded_variable(buffer, start, last)
        )

    def worded_variable(self, buffer: bytearray, start: int, end: int) -> bool:
        """Whether ``buffer[start:end]`` starts with a variable whose name mixes cases and digits
        as a class name made of words does (``$Base32String``, ``$Sha256Digest``): the other names
        that mix them are a password's (``$Y9nq5``), and the rest are in :data:`PLACEHOLDER`."""
        if buffer[start] != ord("$"):
            return False
        name = self.variable_name.match(buffer, start + 1, end)
        if name is None or (name.end() < end and buffer[name.end()] not in VARIABLE_END):
            return False
        return self.is_type_name(buffer, *name.span())

    def token_stand_in(self, buffer: bytearray, start: int, end: int) -> bool:
        """Whether ``buffer[start:end]`` is the whole of a provider's token that its rule found a
        placeholder (a body of fewer than four distinct characters: ``ghp_aaaa...``), or a value its
        publisher prints as an example (:data:`PUBLISHED_EXAMPLE`): a stand-in wherever it is given.

        The rules that find tokens run before every rule that judges a value (see :data:`RULES`),
        so by then each placeholder token in the content has been seen and its place noted.
        """
        stand_ins = getattr(self.calls, "stand_ins", None)
        if stand_ins and (start, end) in stand_ins:
            return True
        return self.published_example.fullmatch(buffer, start, end) is not None

    def quoted_code(self, buffer: bytearray, start: int, end: int, quote: int) -> bool:
        """Whether the quoted value ``buffer[start:end]``, opened by ``quote``, stands for a value
        or is code: a whole template, reference, call or colour; the opening of one that a string
        inside it cuts short; an f-string or a JavaScript template literal that interpolates
        (``f'{__name__}.lang'``, a backquoted ``${prefix}-key``); a terminal's escape sequence
        (``'\\033[92m'``, a colour a test runner prints a result in); or a regular expression, which
        a raw string holding a bracket, an escape or an operator is (``r'[^\\W\\d]\\w*'``)."""
        if self.quoted_stand_in.fullmatch(buffer, start, end) is not None:
            return True
        cut = cut_by_other_quote(buffer, end, quote) or cut_by_escaped_quote(buffer, start, end, quote)
        if cut and self.open_stand_in.fullmatch(buffer, start, end) is not None:
            return True
        prefix = string_prefix(buffer, start - 1)
        if ord("f") in prefix and buffer.find(b"{", start, end) >= 0:
            return True
        if quote == ord("`") and buffer.find(b"${", start, end) >= 0:
            return True
        if ord("r") in prefix and any(buffer.find(c, start, end) >= 0 for c in b"[(\\^|*+?{"):
            return True
        if self.pattern_construct.search(buffer, start, end) is not None:
            return True
        if self.terminal_escape.search(buffer, start, end) is not None:
            return True
        return any(
            self.pattern_range.search(buffer, found.start(), found.end()) is not None
            for found in self.pattern_class.finditer(buffer, start, end)
        )

    def looks_secret(self, buffer: bytearray, start: int, end: int, *, header: bool = False, shortest: int = MIN_VALUE) -> bool:
        """Whether ``buffer[start:end]``, met in prose, has the shape of a generated credential
        (``shortest`` bytes or more); Markdown's emphasis around it is no part of it."""
        start, end = unwrapped(buffer, start, trimmed(buffer, start, end))
        texture = self.header_texture if header else self.texture
        return (
            end - start >= shortest
            and distinct(buffer, start, end) >= MIN_DISTINCT
            and texture.fullmatch(buffer, start, end) is not None
            and self.is_value(buffer, start, end)
        )

    def is_type_name(self, buffer: bytearray, start: int, end: int) -> bool:
        """Whether ``buffer[start:end]`` reads as a class name made of words (with a digit among
        them, words that are words: :data:`SPOKEN_WORD`, one a :data:`LONG_WORD`). No name in
        code starts with a digit (``0AaaAabcd`` is no class's)."""
        if start < end and 0x30 <= buffer[start] <= 0x39:
            return False
        if self.type_name.fullmatch(buffer, start, end) is None:
            return False
        words = [found.span() for found in self.word.finditer(buffer, start, end)]
        if len(words) < 2:
            return False
        if self.digit.search(buffer, start, end) is None:
            return True
        return all(self.spoken_word.fullmatch(buffer, *span) is not None for span in words) and any(
            self.long_word.fullmatch(buffer, *span) is not None for span in words
        )

    def credential_after(
        self, buffer: bytearray, pos: int, *, tight: bool = True, header: bool = False, spaced: bool = False
    ) -> bool:
        """Whether a credential value starts at ``pos``: any real value in a certain context, else
        one that looks generated, or (when ``spaced``) words that are one (:meth:`spaced_value`)."""
        found = self.value_at(buffer, pos, tight=tight)
        if found is None:
            return self.joined_value(buffer, pos)
        start, end, certain = found
        if certain and self.block_marker.fullmatch(buffer, start, end) is not None and not opening_quote(buffer, start):
            return self.block_value(buffer, start)
        if certain and self.is_value(buffer, start, end):
            return True
        if not certain and (self.looks_secret(buffer, start, end, header=header) or (spaced and self.spaced_value(buffer, start))):
            return True
        return self.joined_value(buffer, pos)

    def joined_value(self, buffer: bytearray, pos: int) -> bool:
        """Whether the unquoted run at ``pos`` is a generated value that holds ``,``, ``;`` or ``&``
        (``Xk9,mQ2!zL9``, ``p&OO@RO7P!Y&BvE``, ``&jFY7pgXlm9f%Eb``), where the value found stopped
        at the first of them and was too short, or not there, to be judged.

        Only a run that goes on past a separator counts, and only when no item after one starts
        with a name and ``=`` or ``:`` (a query string, a list of pairs), none is an HTML entity,
        and the items together mix three of lower case, upper case, digits and other symbols, the
        separators not counted (``key1,key2,key3`` is a list); then it is judged as a value in prose
        is (:meth:`looks_secret`), so code and stand-ins are kept as they are elsewhere.
        """
        run = self.joined_run.match(buffer, self.past_properties(buffer, pos))
        if run is None:
            return False
        start, end = run.span("run")
        end = trimmed(buffer, start, end)
        cuts = [found.start() for found in self.separator.finditer(buffer, start, end)]
        if not cuts or self.html_entity.search(buffer, start, end) is not None:
            return False
        if any(self.joined_pair.match(buffer, cut + 1, end) is not None for cut in cuts):
            return False
        items = list(zip([start, *(cut + 1 for cut in cuts)], [*cuts, end]))
        classes = sum(
            any(pattern.search(buffer, first, last) is not None for first, last in items)
            for pattern in (self.lower, self.upper, self.digit, self.symbol)
        )
        return classes >= 3 and self.looks_secret(buffer, start, end)

    def block_value(self, buffer: bytearray, marker: int) -> bool:
        """Whether the YAML block scalar that the marker at ``marker`` opens (``password: |``,
        ``password: >-``) holds a value: its first line, indented past its name's line, judged as
        a value of its own, or as words with spaces in them (:meth:`spaced_value`), so a template
        or a stand-in there (``{{ vault_password }}``, ``<your password>``) is kept."""
        block = self.block_line.match(buffer, marker)
        if block is None:
            return False
        line = buffer.rfind(b"\n", 0, marker) + 1
        indent = line
        while indent < marker and buffer[indent] == ord(" "):
            indent += 1
        first, last = block.span("line")
        if first - block.start("indent") <= indent - line:
            return False  # not indented past the name: the block is empty
        while last > first and buffer[last - 1] in b" \t\r":
            last -= 1
        if buffer.find(b" ", first, last) >= 0 or buffer.find(b"\t", first, last) >= 0:
            return self.spaced_value(buffer, first)
        return self.is_value(buffer, first, last)

    def spaced_value(self, buffer: bytearray, start: int) -> bool:
        """Whether the unquoted words from ``start`` to the end of their line are a value with
        spaces in it: a password (``Summer 2024!``: three of lower case, upper case, digits and
        symbols, where a capital that starts a word does not count, as prose capitalises names:
        ``Release Train 2024``), a passphrase (four words or more of letters in one case:
        ``correct horse battery staple``) or a one-time password's secret in groups of four
        (``KRUG S4ZA NFZS AYLO``: :data:`.vocabulary.GROUPED_KEY`).

        Prose and code write words there too, so none of them may be a word of grammar (``the one
        from the team vault``, ``token if token else None``), a stand-in or a reference (``see the
        vault entry``, ``ask Alice``, ``same as staging``, ``Optional[str] = None``), a description
        or a name (``expires 2025-01-01``, ``check 1Password``), or punctuation alone (``| None``).

        The words may also end before the quote that closes a line a quote opens (a note wrapped
        whole: ``"password: correct horse battery staple"``); a string in code is not its line.
        """
        phrase = self.phrase.match(buffer, start)
        if phrase is None:
            close = wrapped_line_end(buffer, start)
            phrase = None if close is None else self.phrase.match(buffer, start, close)
            if phrase is None:
                return False
        end = trimmed(buffer, start, phrase.end())
        if self.grouped_key.fullmatch(buffer, start, end) is not None:
            return distinct(buffer, start, end) >= 8  # its groups are no words; not a mask (2222 2222 ...)
        lower = upper = digit = symbol = False
        for word in self.phrase_word.finditer(buffer, start, end):
            first, last = word.start(), trimmed(buffer, *word.span())
            if not self.phrase_part(buffer, first, last):
                return False
            lower = lower or self.lower.search(buffer, first, last) is not None
            upper = upper or self.upper.search(buffer, first + 1, last) is not None
            digit = digit or self.digit.search(buffer, first, last) is not None
            symbol = symbol or self.symbol.search(buffer, first, last) is not None
        if self.passphrase.fullmatch(buffer, start, end) is not None:
            # not a changelog's or a commit's line after its area's name: refresh_token: fix race condition bug
            return self.change_verb.match(buffer, start) is None
        return end - start >= MIN_VALUE and lower + upper + digit + symbol >= 3

    def phrase_part(self, buffer: bytearray, first: int, last: int) -> bool:
        """Whether the word ``buffer[first:last]`` may be part of a value with spaces in it: a
        letter or a digit in it, and no word of grammar, stand-in, reference, description or name."""
        if last <= first or self.alnum.search(buffer, first, last) is None:
            return False
        if self.grammar_word.fullmatch(buffer, first, last) is not None:
            return False
        if last - first == 1:
            return True  # one digit or letter between words (Tr0ub 4 dor!), which is_value takes for none
        if not self.is_value(buffer, first, last):
            return False
        if self.letters.fullmatch(buffer, first, last) is not None:
            return True  # a word (Summer, horse); a name or a description has a digit or a joiner
        return (
            self.description.fullmatch(buffer, first, last) is None
            and self.named_thing.fullmatch(buffer, first, last) is None
        )

    def mixed(self, buffer: bytearray, start: int, end: int, *, joined: bool = True, unbroken: int = 16) -> bool:
        """Whether ``buffer[start:end]`` mixes three of lower case, upper case, digits and symbols,
        or is an unbroken run of ``unbroken`` (sixteen) or more letters of one case and digits,
        with both (hex, base32). ``-``, ``_`` and ``.`` join words and are no symbol; a byte of a non-ASCII letter
        is neither. Unless ``joined``, ``/`` joins words too, and a value with a joiner in it and
        no symbol does not count, unless one of its parts mixes three classes on its own in eight
        bytes or more, with a digit between letters, and is no class name (``Ab3_xY9kLm2Qw``; not
        ``Qwen2.5-7B`` or ``ResNet50_v2``). Each class is one search in the engine, not a loop here."""
        lower = self.lower.search(buffer, start, end) is not None
        upper = self.upper.search(buffer, start, end) is not None
        digit = self.digit.search(buffer, start, end) is not None
        symbol = self.symbol.search(buffer, start, end) is not None or (joined and buffer.find(b"/", start, end) >= 0)
        joiner = self.joiner.search(buffer, start, end) is not None or (not joined and buffer.find(b"/", start, end) >= 0)
        if joiner and not symbol and not joined:
            return any(
                self.mixed(buffer, *part.span())
                and self.inner_digit.search(buffer, *part.span()) is not None
                and self.named_thing.fullmatch(buffer, *part.span()) is None
                for part in self.unjoined_part.finditer(buffer, start, end)
            )
        if lower + upper + digit + symbol >= 3:
            return True
        return end - start >= unbroken and not (symbol or joiner) and digit and lower != upper and distinct(buffer, start, end) >= 8

    def ends_clause(self, buffer: bytearray, found: tuple[int, int, bool]) -> bool:
        """Whether the value ``found`` by :meth:`value_at` ends its clause: it is certain, or an
        aside in brackets or what it is for follows it (``hunter2 (rotated monthly)``, ``hunter2
        for staging``, ``hunter2 until Friday``)."""
        return found[2] or self.aside_or_purpose.match(buffer, found[1]) is not None

    def clause_value(self, buffer: bytearray, pos: int) -> bool:
        """Whether the value at ``pos`` ends its clause and could be a password, judged as a value
        after "is" is (``the password for prod: hunter2``, ``login admin:hunter2.``): six bytes or
        more, four distinct, a letter with a digit or a symbol, no stand-in, reference, description
        or name (``base64``, ``sha256``, ``ERC20``). A value with ``-``, ``_``, ``.`` or ``/`` in it
        reads as a name here (``gpt-4o``, ``x86_64``, ``v2.1``) and counts only by
        :meth:`prose_value`'s stronger texture."""
        found = self.value_at(buffer, pos, tight=False)
        if found is None or not self.ends_clause(buffer, found):
            return False
        return self.weak_password(buffer, found[0], trimmed(buffer, found[0], found[1]))

    def weak_password(self, buffer: bytearray, first: int, last: int) -> bool:
        """Whether ``buffer[first:last]``, which a sentence gives as a credential, could be a password
        of the kind people pick (``hunter2``, ``summer2024``): :meth:`clause_value`'s test. A word
        and a question mark asks a question (``password provision?``)."""
        return (
            self.joiner.search(buffer, first, last) is None
            and buffer.find(b"/", first, last) < 0
            and self.question.fullmatch(buffer, first, last) is None
            and self.looks_secret(buffer, first, last, shortest=MIN_LINKED)
            and self.description.fullmatch(buffer, first, last) is None
            and self.named_thing.fullmatch(buffer, first, last) is None
        )

    def prose_value(self, buffer: bytearray, pos: int, *, joined: bool = True, unbroken: int = 16) -> bool:
        """Whether the unquoted value at ``pos`` has a texture no word of prose has: eight bytes or
        more that mix three of lower case, upper case, digits and symbols, or an unbroken hex or
        base32 run of sixteen or more; and is not a name, a description, a type, an address or a
        digest (``ERC20Token``, ``v1.2.3-Beta``, ``0xA0b8...``, ``sha512-...``, ``C:/Users/...``).
        Unless ``joined``, parts joined by ``-``, ``_``, ``.`` or ``/`` without a symbol are a name
        (``Qwen2.5-7B``, ``meta-llama/Llama-3.1-8B``), as a value right after a name with no verb
        so often is. ``unbroken`` is the shortest hex or base32 run that counts."""
        found = self.value_at(buffer, pos, tight=False)
        if found is None:
            return False
        first, last = found[0], trimmed(buffer, found[0], found[1])
        return self.prose_texture(buffer, first, last, joined=joined, unbroken=unbroken) and self.is_value(
            buffer, first, found[1]  # untrimmed: is_value reads a closing ">" first
        )

    def prose_texture(self, buffer: bytearray, first: int, last: int, *, joined: bool = True, unbroken: int = 16) -> bool:
        """:meth:`prose_value`'s test of the value ``buffer[first:last]`` itself, without asking
        whether it is a value of its own."""
        first, last = unwrapped(buffer, first, last)
        return (
            last - first >= MIN_VALUE
            and self.mixed(buffer, first, last, joined=joined, unbroken=unbroken)
            and self.description.fullmatch(buffer, first, last) is None
            and self.named_thing.fullmatch(buffer, first, last) is None
        )
