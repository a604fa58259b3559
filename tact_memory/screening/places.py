"""Places that always hold a credential, whatever its length: a provider's token, an authorization
header, a cookie, a URL's password, a command-line option, a netrc or PostgreSQL password file's
entry, a private key's armour, a Kubernetes Secret's data.
"""

from __future__ import annotations

import binascii
import bisect
import re

from .buffers import (
    NAME_CHARS,
    base64_decoded,
    comment_word,
    digits_only,
    distinct,
    escaped_newline,
    opening_quote,
    quoted_with_colon,
    same_bytes,
    trimmed,
    trimmed_line,
    unwrapped,
)
from .comment_marks import MARK_BYTES
from .leads import compiled
from .names import (
    BASE64_DATA,
    COOKIE_ATTRIBUTE,
    COOKIE_PAIR,
    ECHOED,
    KEY_HEADER,
    MAX_COMMAND,
    MAX_ENTRIES,
    MAX_NAME,
    OPTION_TOOL,
    PASSWORD_TOOL,
    SECRET_DATA,
    SECRET_ENTRY,
    SESSION_COOKIE,
    SESSION_COOKIE_NAME,
    STDIN_READER,
)
from .sentences import SentenceChecks
from .vocabulary import MIN_DISTINCT, MIN_LINKED, NEXT_FLAG, URL_STAND_IN, URLSAFE_BYTES

__all__ = ["PlaceChecks"]


def command_start(buffer: bytearray, pos: int) -> int:
    """Where the command line that ``pos`` is on starts: after the line break before it, looking
    back at most :data:`.names.MAX_COMMAND` bytes (a longer line is judged by its last part)."""
    return buffer.rfind(b"\n", max(0, pos - MAX_COMMAND), pos) + 1


def line_end(buffer: bytearray, pos: int) -> int:
    """Where the line that ``pos`` is on ends: at its line break, or at the end of ``buffer``."""
    end = buffer.find(b"\n", pos)
    return len(buffer) if end < 0 else end


def given_word(match: re.Match[bytes]) -> tuple[int, int]:
    """Where the word a shell is given (:data:`.names.ECHOED`, :data:`.names.HERE_STRING`) lies in
    ``match``, without its quotes."""
    group = next(name for name in ("double", "single", "bare") if match.start(name) >= 0)
    return match.span(group)

_USERINFO_REACH = 260
"""How far before an ``@`` a user and a password are looked for: 128 bytes of each and a colon."""
_LABEL_REACH = 24  # the longest ADDRESS_LABEL with the spaces around its separator
ADDRESS_LABEL = (
    rb"(?<![A-Za-z0-9_.-])(?i:s?ftps?|lftp|ssh|scp|rsync|smb|cifs|smbclient|webdav|redis|rediss|amqps?|rabbitmq"
    rb"|mqtts?|smtps?|imaps?|pop3s?|ldaps?|mysql|mariadb|postgres(?:ql)?|psql|mongo(?:db)?|mssql|git|svn|clone)"
    rb"(?:[ \t]*[:=][ \t]*|[ \t]+)\Z"
)
"""The service or the tool whose account a user and a password before a host with no scheme log
in to, ending where the user starts: its name and a colon or ``=``, or a command's word and a space."""

HOST_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.*-")
"""What a password file's host field is written with (besides an escaped colon)."""
MAX_HOST = 255
MAX_BLOCK = 512
"""How far before a Terraform variable's default its ``variable "NAME" {`` is looked for."""
MAX_PROMPT = 256
"""How far before a script's send the prompt it answers is looked for."""
ARMOUR_ENCODED = 56
"""How many base64 characters hold the longest armour line a private key starts with (``-----BEGIN
ENCRYPTED PRIVATE KEY-----``, 37 bytes, and the next line's first byte)."""
MAX_JWK = 4096
"""How far from a JSON Web Key's ``"kty"`` its object's braces are looked for (an RSA key's
members run to some three kilobytes)."""


def marked_line(buffer: bytearray, at: int) -> bool:
    """Whether a ``#`` or a ``+`` alone starts the line before ``at`` (``#db.example.com:…``)."""
    return buffer[at - 1] in b"#+" and (at == 1 or buffer[at - 2] == ord("\n"))


_BEFORE_ARMOUR = MARK_BYTES + b" \t`"
"""What may stand before a key's armour line on its line: a comment's or a quote's marks
(:mod:`.comment_marks`), a string's quote or a code span's backtick, and spaces."""

_OPTION_JOINT = rb"(?i:and|or|nor|with|plus|vs\.?|then)"
"""A word that joins options a sentence lists (``--password and --token``)."""

_DEFAULT_COMMUNITIES = frozenset((b"public", b"private"))
"""The SNMP communities agents ship with, read-only and read-write."""
MAX_BEFORE_OPTION = 96
"""How far before an option the words that say what it is may start: the option a sentence lists
before it (:meth:`PlaceChecks.flag_value`), a user's option and the user
(:meth:`PlaceChecks.password_after_user`)."""


class PlaceChecks(SentenceChecks):
    """The checks of places that always hold a credential, one per kind of rule."""

    # The patterns of these checks, each compiled on its first use.
    next_flag = compiled(NEXT_FLAG)
    ends_authorization = compiled(rb"(?i:authorization)\Z")
    key_header_name = compiled(KEY_HEADER)
    cookie_pair = compiled(COOKIE_PAIR)
    cookie_attribute = compiled(COOKIE_ATTRIBUTE)
    session_cookie = compiled(SESSION_COOKIE)
    password_tool = compiled(PASSWORD_TOOL)
    echoed = compiled(ECHOED)
    stdin_reader = compiled(STDIN_READER)
    command_break = compiled(rb"[|;&]")
    session_cookie_name = compiled(SESSION_COOKIE_NAME)
    secret_data = compiled(SECRET_DATA)
    secret_entry = compiled(SECRET_ENTRY)
    base64_data = compiled(BASE64_DATA)
    net_use = compiled(rb"(?i:net[ \t]+use)[ \t]")
    url_stand_in = compiled(URL_STAND_IN)
    anonymous_user = compiled(rb"(?i:anonymous)")
    opening_bracket = compiled(rb"[(\[]")
    # A Windows option's name right before its colon, after its "/" or "-" at a word's start.
    option_name_before = compiled(rb"(?<![^\s\"'])[/-](?P<name>[A-Za-z][A-Za-z0-9_.-]{0,63})\Z")
    slash_user = compiled(rb"[ \t]/(?i:u)[ \t]+[^\s/]")
    run_as_user = compiled(rb"[ \t]/(?i:ru)[ \t]+[^\s/]")
    registry_line_name = compiled(rb"[ \t]*(?P<name>[A-Za-z][A-Za-z0-9_.-]{0,63})[ \t]+")
    registry_name = compiled(rb"[ \t]/v[ \t]+(?P<q>\"?)(?P<name>[A-Za-z][A-Za-z0-9_.-]{0,63})(?P=q)[ \t]")
    as_plain_text = compiled(rb"[ \t]-(?i:asplaintext)(?![A-Za-z])")
    logon_value = compiled(rb"[^\s@\"'`]{1,128}")
    # After a logon's password: its database, a role, or the tool's next keyword's value (expdp
    # app/... directory=dumps).
    logon_end = compiled(rb"@|[ \t]+(?i:as)[ \t]+(?i:sys)|(?P<keyword>[ \t]+[A-Za-z_]{2,32}=)")
    file_extension = compiled(rb"\.[A-Za-z]{1,4}\Z")
    curl_word = compiled(rb"(?<![A-Za-z0-9_-])curl(?![A-Za-z0-9_-])")
    httpie_word = compiled(rb"(?<![^\s;&|(`])https?[ \t]")
    # A word that goes on a sentence about an option rather than giving its value (docker login -p
    # is deprecated, sshpass -p takes the password): unquoted and followed by a word in lower case.
    option_prose = compiled(
        rb"(?:is|isn't|in|the|a|an|to|of|for|and|or|was|are|can|must|should|will|with|without|flag|option"
        rb"|takes|expects|sets|prompts|asks|means|works|reads|gives|only|here|there|also|still|now)(?=[ \t]+[a-z])"
    )
    # A user given right before an option: -u admin, -U sa, --user admin, --username=admin.
    user_option_before = compiled(rb"(?<![^ \t\n])(?:-u|-U|--user(?:name)?)(?:[ \t]+|=)[A-Za-z_][^\s\"'`=:/]{0,63}[ \t]+\Z")
    port_like = compiled(rb"[0-9][0-9:.,/-]*")
    option_joint = compiled(_OPTION_JOINT)
    scheme_given = compiled(rb"[A-Za-z][ \t]+\Z")  # the header pattern took a scheme word before the value
    authorization_prefix = compiled(rb"(?i:x[-_])?(?i:proxy[-_]|http_)?")  # before Authorization: Proxy-, HTTP_
    contraction = compiled(rb"[A-Za-z]+n't(?![A-Za-z0-9])")  # if -keypass isn't provided
    # What a sentence calls the option it names (the --password flag, the --token options), and a
    # manual's name for what the option takes (gpg --passwd user-id, keytool -keypass old_key,
    # --try-secret-key name).
    option_word = compiled(
        rb"(?i:options?|flags?|param(?:eter)?s?|arg(?:ument)?s?|switch(?:es)?|settings?|fields?|values?|prompts?)"
        rb"|(?:[a-z]+[-_])?(?:id|uid|name|file|filename|path|string|key|user)"
        rb"|[A-Z][A-Z0-9_]*=[a-z][a-z0-9_-]*"  # blkid --match-token NAME=value, LABEL=label
    )
    # An option a sentence lists after another: "--user and " before "--password together".
    lower_word = compiled(rb"[a-z]{1,16}")
    listed_after = compiled(rb"(?<![^ \t\n(`\"'])--?[A-Za-z0-9][A-Za-z0-9-]{0,63}`?,?[ \t]+" + _OPTION_JOINT + rb"[ \t]+`?\Z")
    brace = compiled(rb"[{}]")
    urlsafe_run = compiled(rb"[A-Za-z0-9_-]+")
    jwk_private = compiled(rb"\"d\"[ \t\r\n]*:[ \t\r\n]*\"(?P<body>[A-Za-z0-9_-]{16,})\"")
    jwk_secret = compiled(rb"\"k\"[ \t\r\n]*:[ \t\r\n]*\"(?P<body>[A-Za-z0-9_-]{16,})\"")
    field_shown = compiled(rb"(?<![A-Za-z0-9_-])lpass[ \t]+show(?:[ \t]+-[^\s]{1,32})*[ \t]+\Z")
    docker_secret = compiled(rb"\"(?:auth|password|identitytoken)\"[ \t\r\n]*:[ \t\r\n]*\"(?P<value>[^\"\\]{1,2048})\"")
    decoded_pair = compiled(rb"(?=[A-Za-z0-9._@+-]*[A-Za-z])[A-Za-z0-9._@+-]{1,128}:(?P<password>(?!//)[\x21-\x7e]{6,192})")
    terraform_variable = compiled(rb"(?<![A-Za-z0-9_.-])variable[ \t]+\"(?P<name>[A-Za-z0-9_-]{1,64})\"[ \t]*\{")
    expect_word = compiled(rb"(?<![A-Za-z0-9_])expect(?:_exact)?(?![A-Za-z0-9_])")
    send_word = compiled(rb"(?<![A-Za-z0-9])(?:exp_)?send(?:line)?(?![A-Za-z0-9_])")
    # The prompt an expect waits for, quoted right after it (options, brackets and an opening
    # brace between): "Password:", '[Pp]assword:', {\n "Enter passphrase" {...
    password_prompt = compiled(
        rb"(?:[ \t]+-[A-Za-z_]+)*[ \t\r\n{(\[]{0,16}[rbu]?([\"'])[^\"'\r\n]{0,64}?(?i:assword|assphrase|asscode)[^\"'\r\n]{0,64}\1"
    )
    sent_line_end = compiled(rb"(?:\\[rn])+\Z")
    # A URL's user and password right before an "@" (the end of the search), the user starting the
    # word: root:PW in "root:PW@tcp(...)" or DSN="root:PW@...".
    userinfo_before = compiled(rb"(?<![^\s\"'`=(,;])(?P<user>[^\s:/?#@\"'`<>()=,;]{0,128}):(?P<body>[^\s@\"'`<>]{1,128})\Z")
    # What says a user, a password and a host with no scheme are an account's address: the service
    # or the tool right before them (FTP: deploy:PW@ftp.example.com, sftp deploy:PW@files...,
    # git clone deploy:PW@git.example.com/app.git).
    address_label = compiled(ADDRESS_LABEL)
    account_statement = compiled(
        rb"(?<![A-Za-z0-9_])(?i:(?:create|alter)[ \t]+(?:user|role|login)|grant)(?![A-Za-z0-9_])"
    )
    pgpass_host = compiled(rb"\*|[A-Za-z0-9_.-]*[A-Za-z.][A-Za-z0-9_.-]*|[0-9.]{7,15}|(?:[0-9A-Fa-f]{0,4}\\:){2,7}[0-9A-Fa-f]{0,4}")

    def value_follows(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a bearer token in prose: the value must look generated."""
        found = self.value_at(buffer, match.end(), tight=False)
        return found is not None and self.looks_secret(buffer, found[0], found[1])

    def given_value(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for places that always hold a value (netrc, ``sshpass -p``, ``mysql -pVALUE``)."""
        found = self.value_at(buffer, match.end())
        return found is not None and self.is_value(buffer, found[0], found[1])

    def pgpass_entry(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a line of PostgreSQL's password file, ``host:port:database:user:password``
        (found by its port, the one part it always has in a few forms): a host field before the
        port (a name, an address, its colons escaped in IPv6, or ``*``; not a path or another
        field) that starts its line or word, or follows a ``#`` or a ``+`` alone at its line's
        start (the entry commented out, or a line a diff adds), and a password that is a value
        of its own (not ``*``, a template or a stand-in)."""
        host = match.start()
        while host > max(0, match.start() - MAX_HOST):
            if buffer[host - 1] == ord(":") and host > 1 and buffer[host - 2] == ord("\\"):
                host -= 2  # an escaped colon, as in an IPv6 address
            elif buffer[host - 1] in HOST_BYTES:
                host -= 1
            else:
                break
        if host == match.start() or (host > 0 and buffer[host - 1] not in b" \t\r\n\"'`([" and not marked_line(buffer, host)):
            return False
        if self.pgpass_host.fullmatch(buffer, host, match.start()) is None:
            return False
        start, end = match.span("body")
        return (
            distinct(buffer, start, end) > 1
            and self.url_stand_in.fullmatch(buffer, start, end) is None
            and self.placeholder_word.fullmatch(buffer, start, end) is None
        )

    def flag_value(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for ``--password VALUE``: certain when quoted, last, or followed by another option;
        as the next item of a list that quotes every item, only a value with a digit, a symbol or a
        case step in it.
        LastPass's ``lpass show --password`` names the field it shows, not a value. A word that
        joins options in a sentence (``--password and --token``) is none, and the
        option a sentence lists after another takes no unquoted word in lower case unless it looks
        generated (``use --password and --token together``)."""
        found = self.value_at(buffer, match.end(), tight=False)
        if found is None or found[0] >= found[1] or buffer[found[0]] == ord("-"):  # none, or the next option
            return False
        if self.field_shown.search(buffer, command_start(buffer, match.start()), match.start()) is not None:
            return False  # lpass show --password NAME: which field to show, then the entry's name
        start, end, certain = found
        if "item" in match.re.groupindex and opening_quote(buffer, start):
            return self.own_value(buffer, start, end, texture=True)  # a list quotes every item: ["--pass", "through"]
        if not opening_quote(buffer, start) and (
            self.option_joint.fullmatch(buffer, start, end) is not None
            or self.contraction.match(buffer, start) is not None
            or self.grammar_word.fullmatch(buffer, start, trimmed(buffer, start, end)) is not None
            or self.option_word.fullmatch(buffer, start, trimmed(buffer, start, end)) is not None
        ):
            # "--password and --token": options a sentence lists; "use the --password flag",
            # "accepts --password for ...", "if --password was given": a sentence about the option
            return False
        if (
            self.lower_word.fullmatch(buffer, start, end) is not None
            and not opening_quote(buffer, start)
            and self.listed_after.search(buffer, max(0, match.start() - MAX_BEFORE_OPTION), match.start()) is not None
        ):
            return self.looks_secret(buffer, start, end)
        if certain or self.next_flag.match(buffer, end) is not None:
            return self.is_value(buffer, start, end)
        return self.looks_secret(buffer, start, end)

    def generated_option(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for the value of an option whose name abbreviates a credential's as well as other
        things (``--pat``: a personal access token, or a pattern): quoted or not, only a value
        that looks generated and is one run of letters, digits, ``_`` and ``-``, as the tokens
        are, counts (``--pat hello2``, ``--pat src/*.py`` are kept)."""
        found = self.value_at(buffer, match.end(), tight=False)
        if found is None or found[0] >= found[1] or buffer[found[0]] == ord("-"):
            return False
        start, end = unwrapped(buffer, found[0], trimmed(buffer, found[0], found[1]))
        return self.urlsafe_run.fullmatch(buffer, start, end) is not None and self.looks_secret(buffer, start, end)

    def short_option(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for ``-p``, ``-a``, ``-w``, ``-P``, ``-N``, ``-U``, rar's ``-hp``, codecov's
        ``-t`` or SNMP's ``-c`` given to a tool that takes the password there: the nearest such
        tool before it on its line (``zip -r a.zip . && sshpass -p ...`` is sshpass's). Samba's
        ``-U`` takes ``user%password``, and only the part after ``%`` is judged (``-U admin``
        prompts); SNMP's default communities, ``public`` and ``private``, are kept."""
        line = command_start(buffer, match.start())
        tool = self.tool_before(buffer, line, match.start())
        if tool is None and buffer[match.start() + 1] in b"pP" and not buffer.startswith(b"hp", match.start() + 1):
            return self.password_after_user(buffer, line, match)
        if tool is None or tool[1] not in OPTION_TOOL[buffer[match.start() + 1]]:
            return False
        found = self.value_at(buffer, match.end())
        if found is None or found[0] >= found[1] or buffer[found[0]] == ord("-"):
            return False
        first, last = found[0], found[1]
        attached = first == match.end() or (first == match.end() + 1 and buffer[match.end()] in b"\"'`")
        if tool[1] in ("attached", "rar") and not attached:
            return False  # "mysql -p dbname" prompts for the password and opens dbname; -p'VALUE' is one
        if tool[1] in ("azure", "openssl", "nuget") and first == match.end():
            return False  # another option that starts with the letter (openssl req -keyout)
        if tool[1] == "samba":
            first = buffer.find(b"%", first, last) + 1
            if not first:
                return False
        if tool[1] == "snmp" and bytes(buffer[first:last]).strip(b"\"'").lower() in _DEFAULT_COMMUNITIES:
            return False  # the communities agents ship with, in every example
        if tool[1] == "codecov" and not opening_quote(buffer, first):
            return self.looks_secret(buffer, first, last, shortest=MIN_LINKED)  # "codecov -t is optional"
        if not attached and (prose := self.option_prose.match(buffer, first)) is not None and prose.end() == last:
            return False  # "docker login -p is deprecated": the option named in a sentence
        return self.is_value(buffer, first, last)

    def password_after_user(self, buffer: bytearray, line: int, match: re.Match[bytes]) -> bool:
        """Check for ``-p`` or ``-P`` right after a user's option and the user (``influx setup -u
        admin -p ...``, ``-U sa -P ...``, ``--user admin -p ...``) on a tool's command line that
        no known tool starts: there it is the user's password when its value has a digit, a
        symbol or a case step. A user that is a number is a process's (``docker run -u 1000``),
        and a number, a port mapping, a path or a URL after ``-p`` is a port, a file or an
        address (``-u app -p 8080:80``); a user with a colon is curl's ``user:password`` already."""
        if self.user_option_before.search(buffer, max(line, match.start() - MAX_BEFORE_OPTION), match.start()) is None:
            return False
        at = match.end() + (match.end() < len(buffer) and buffer[match.end()] in b" \t=")
        found = self.value_at(buffer, at)
        if found is None or found[0] != at + (at < len(buffer) and buffer[at] in b"\"'"):
            return False  # -pVALUE, -p VALUE, -p=VALUE or quoted, nothing between
        first, last = found[0], trimmed(buffer, found[0], found[1])
        if last <= first or buffer[first] in b"-/.~$" or self.port_like.fullmatch(buffer, first, last) is not None:
            return False
        if buffer.find(b"://", first, last) >= 0:
            return False  # a URL (curl -u … -p https://…: -p there tunnels through a proxy)
        return self.is_value(buffer, first, last) and self.header_texture.fullmatch(buffer, first, last) is not None

    def tool_before(self, buffer: bytearray, start: int, end: int) -> tuple[int, str] | None:
        """Where the last tool that takes a password in an option (:data:`.names.PASSWORD_TOOL`)
        ends between ``start`` and ``end``, and its group's name; ``None`` when none does. The
        tools are found in one pass per screen, then looked up, so a line of a thousand options
        costs one pass, not one per option."""
        found = getattr(self.calls, "tools", None)
        if found is None:
            tools = self.password_tool.finditer(buffer)
            found = self.calls.tools = [(tool.start(), tool.end(), tool.lastgroup or "") for tool in tools]
        at = bisect.bisect_right(found, end, key=lambda tool: tool[1]) - 1
        if at < 0 or found[at][0] < start:
            return None
        return found[at][1], found[at][2]

    def echoed_password(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a password or a secret a command line echoes into a tool that reads it from
        its input (``echo "..." | docker login --password-stdin``, ``printf '...' | sudo -S``,
        ``echo 'user:...' | chpasswd``, ``echo "..." | wrangler secret put NAME``): the last
        ``echo`` or ``printf`` before a pipe earlier on the line (:data:`.names.ECHOED`), judged
        by :meth:`read_secret`."""
        echoed = self.piped_in(buffer, match.start())
        return echoed is not None and self.read_secret(buffer, *given_word(echoed), match.start())

    def piped_in(self, buffer: bytearray, at: int) -> re.Match[bytes] | None:
        """The last ``echo`` or ``printf`` before a pipe on the command line ``at`` is on
        (:data:`.names.ECHOED`), when nothing starts another command between it and ``at``;
        ``None`` when nothing is echoed, or into another command (``echo hi | grep h && sudo -S ls``)."""
        echoed = None
        for echoed in self.echoed.finditer(buffer, command_start(buffer, at), at):
            pass
        if echoed is None or self.command_break.search(buffer, echoed.end(), at) is not None:
            return None
        return echoed

    def echoed_encoded(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a value ``echo`` or ``printf`` pipes into ``base64`` right before it, to encode
        (``echo -n '...' | base64``): one of its own with a generated one's texture
        (:meth:`prose_texture`; ``echo -n admin:admin | base64`` is a tutorial's)."""
        echoed = self.piped_in(buffer, match.start())
        if echoed is None:
            return False  # nothing piped, or into another command (echo done; base64 key.bin)
        first, last = given_word(echoed)
        if buffer.find(b" ", first, last) >= 0:
            return False  # words, as a tutorial encodes them (echo -n "Hello World 2024!" | base64)
        return self.is_value(buffer, first, last) and self.prose_texture(buffer, first, last, joined=False)

    def echoed_into_file(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a value ``echo`` or ``printf`` writes into a file named for a credential
        (``echo "..." > ~/.vault-pass``, ``printf '%s' '...' > secrets/db_password.txt``,
        ``echo ... >> token``, ``> /etc/app/db.password``): the file's name without its folder
        and its leading dots, or without its extension too, is a credential's name, and the value
        is one of its own (``$TOKEN`` is none) with a password's texture (``echo reset >
        passwords.md`` is a note's)."""
        start, end = match.span("file")
        base = buffer.rfind(b"/", start, end) + 1 or start
        while base < end and buffer[base] == ord("."):
            base += 1  # a hidden file's dot
        extension = buffer.rfind(b".", base, end)
        if not (self.names_credential(buffer, base, end) or (extension > base and self.names_credential(buffer, base, extension))):
            return False
        first, last = given_word(match)
        return self.is_value(buffer, first, last) and self.looks_secret(buffer, first, last, shortest=MIN_LINKED)

    def here_string_password(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a here-string given to a tool that reads a password or a secret from its
        input, earlier on its command line (``wrangler secret put NAME <<< "..."``, ``chpasswd <<<
        'user:...'``), judged by :meth:`read_secret`; another tool's (``grep x <<< "..."``) is none."""
        return self.given_to_reader(buffer, match.start(), *given_word(match))

    def given_to_reader(self, buffer: bytearray, at: int, first: int, last: int) -> bool:
        """Whether ``buffer[first:last]``, given on the input of the command line that ``at`` is
        on, is the secret of the last tool before ``at`` that reads one there (:meth:`read_secret`)."""
        line = command_start(buffer, at)
        reader = None
        for reader in self.stdin_reader.finditer(buffer, line, at):
            pass
        if reader is None:
            return False
        return self.read_secret(buffer, first, last, reader.start())

    def here_document_password(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for the first line of a here-document given to a tool that reads a password or a
        secret from its input (``docker login -u ann --password-stdin <<EOF``, ``chpasswd <<EOF``
        then ``user:...``, ``kinit ann <<EOF``, ``cat <<EOF | docker login --password-stdin``),
        judged as a here-string is (:meth:`here_string_password`); a line that is the document's
        delimiter holds nothing."""
        if buffer[match.start("bare") : match.end("bare")] == buffer[match.start("tag") : match.end("tag")]:
            return False
        opening_end = buffer.find(b"\n", match.end("tag"))  # the reader may follow on that line: cat <<EOF | docker login ...
        return self.given_to_reader(buffer, opening_end, *match.span("bare"))

    def read_secret(self, buffer: bytearray, first: int, last: int, reader: int) -> bool:
        """Whether ``buffer[first:last]``, on the input of the tool that starts at ``reader``, is
        its secret: a value of its own (a variable or a file, ``$TOKEN``, is none); for chpasswd
        the part after the user's colon, and for base64 the password of a ``user:password`` pair
        (a Basic Authorization header's), which must have a password's texture, as base64 encodes
        anything."""
        encoded = buffer.startswith(b"base64", reader)
        if encoded or buffer.startswith(b"chpasswd", reader):
            first = buffer.find(b":", first, last) + 1
            if not first:
                return False
            if encoded:
                return self.looks_secret(buffer, first, last, shortest=MIN_LINKED)
        return self.is_value(buffer, first, last)

    def prompted_password(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for what a script sends to a password prompt (Tcl expect's ``send "...\\r"``,
        pexpect's ``child.sendline('...')``): the first send after the last ``expect`` within
        :data:`MAX_PROMPT` bytes before it, when the prompt quoted right after that expect asks for
        a password, passphrase or passcode. It is quoted, so any value of its own counts, without
        the line ending it sends (``\\r``, ``\\n``); a variable (``"$pass\\r"``) or a Tcl command
        (``[lindex $argv 0]``) is none."""
        near = max(0, match.start() - MAX_PROMPT)
        prompt = None
        for prompt in self.expect_word.finditer(buffer, near, match.start()):
            pass
        if prompt is None or self.send_word.search(buffer, prompt.end(), match.start()) is not None:
            return False  # no prompt near, or an earlier send answered it
        if self.password_prompt.match(buffer, prompt.end(), match.start()) is None:
            return False
        found = self.value_at(buffer, match.end())
        if found is None:
            return False
        first, last = found[0], found[1]
        ending = self.sent_line_end.search(buffer, first, last)
        if ending is not None:
            last = ending.start()
        if last - first < 2 or buffer[first] == ord("[") or buffer.find(b"$", first, last) >= 0:
            return False
        return self.is_value(buffer, first, last)

    def encoded_pair(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a user and a password in base64 (``dXNlcjo...``), as a Basic Authorization
        header and a Docker config's ``auth`` hold them, given after a word of authentication or
        credentials where no header or key says what it is (``the docker auth is ...``, ``use
        Basic ...``, ``the registry creds in base64: ...``). Read back, it must be a pair and
        nothing else: printable ASCII without a space, a user of a name's or an address's
        characters with a letter, a colon, and a password of six bytes or more with a letter and
        a digit, a symbol or a case step (``user:password`` and a URL's ``https://...`` are none).
        Base64 of other text rarely reads so."""
        decoded = base64_decoded(buffer, *match.span("encoded"))
        if decoded is None:
            return False
        pair = self.decoded_pair.fullmatch(decoded)
        return pair is not None and self.header_texture.fullmatch(decoded, pair.start("password")) is not None

    def encoded_docker_config(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a Docker config in base64 (a Kubernetes Secret's ``.dockerconfigjson``,
        ``kubectl get secret -o yaml`` prints it so): read back, a registry's ``auth``,
        ``password`` or ``identitytoken`` holds a value of its own, four different bytes or more
        and no template (``{"auths":{}}`` and ``"auth":"${AUTH}"`` are none)."""
        decoded = base64_decoded(buffer, *match.span())
        if decoded is None:
            return False
        return any(
            distinct(decoded, *found.span("value")) >= MIN_DISTINCT and self.url_stand_in.fullmatch(decoded, *found.span("value")) is None
            for found in self.docker_secret.finditer(decoded)
        )

    def htpasswd_value(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for ``htpasswd -b``, which takes the password as its last argument, after the
        file and the user (``-nb``: after the user alone). Without ``-b`` it prompts."""
        options_start, options_end = match.span("options")
        if buffer.find(b"b", options_start, options_end) < 0:
            return False
        pos = match.end()
        for _ in range(1 if buffer.find(b"n", options_start, options_end) >= 0 else 2):  # the file, the user
            while pos < len(buffer) and buffer[pos] not in b" \t\r\n":
                pos += 1
            while pos < len(buffer) and buffer[pos] in b" \t":
                pos += 1
        found = self.value_at(buffer, pos)
        if found is None or found[0] >= found[1] or buffer[found[0]] == ord("-"):
            return False
        return self.is_value(buffer, found[0], found[1])

    def argument_password(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a password a tool takes as an argument after its own words (``net user NAME
        ...``, ``openssl passwd -6 ...``, ``rabbitmqctl add_user NAME ...``, ``IDENTIFIED BY
        ...``): quoted, any value of its own; unquoted, one with a password's texture, since prose
        names these tools too (``the net user command``, ``identified by name.``). An option
        (``-stdin``, ``/add``) or ``*`` (a prompt) is none."""
        found = self.value_at(buffer, match.end())
        if found is None or found[0] >= found[1] or buffer[found[0]] in b"-/*":
            return False
        if opening_quote(buffer, found[0]):
            return self.is_value(buffer, found[0], found[1])
        return self.looks_secret(buffer, found[0], found[1], shortest=MIN_LINKED)

    def logon_password(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for the password of an Oracle logon, ``user/password@database`` (``sqlplus
        app/...@orcl``, ``... as sysdba``, or a keyword's value after it: ``expdp system/...
        directory=dumps``): it runs to the ``@``, a space or a quote, and must
        have a password's texture, since prose names these tools too. Without a database or a
        role after it, a path (``sqlplus scripts/Setup_v2.sql``) or prose (``CONNECT Client/Server2
        model``) has the same shape, and it is kept."""
        value = self.logon_value.match(buffer, match.end())
        end = None if value is None else self.logon_end.match(buffer, value.end())
        if value is None or end is None:
            return False
        if end.start("keyword") >= 0 and self.file_extension.search(buffer, match.end(), value.end()) is not None:
            return False  # a file and its script's arguments (sqlplus scripts/setup.sql mode=full)
        return self.looks_secret(buffer, match.end(), value.end(), shortest=MIN_LINKED)

    def sql_password(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for SQL's ``IDENTIFIED BY ...`` in a statement that makes or changes an account
        (``CREATE USER``, ``ALTER ROLE``, ``GRANT ... TO``, earlier on its line), judged as
        :meth:`argument_password` judges a tool's; in prose, "identified by" names anything."""
        line = command_start(buffer, match.start())
        statement = self.account_statement.search(buffer, line, match.start())
        return statement is not None and self.argument_password(buffer, match)

    def option_password(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for the value of an option that sets a stored secret (``gh secret set NAME --body
        ...``, ``az keyvault secret set ... --value ...``, a Wi-Fi QR code's ``P:...``): any value
        of its own; another option is none."""
        found = self.value_at(buffer, match.end())
        if found is None or found[0] >= found[1] or buffer[found[0]] == ord("-"):
            return False
        return self.is_value(buffer, found[0], found[1])

    def secure_parameter(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for ``aws ssm put-parameter --value ...`` where the command line gives the type
        ``SecureString`` (before the value or after it), judged as :meth:`option_password` judges
        a value; a ``String`` parameter's value is a setting."""
        line = command_start(buffer, match.start())
        return buffer.find(b"SecureString", line, line_end(buffer, match.end())) >= 0 and self.option_password(buffer, match)

    def named_argument(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for ``aws configure set NAME VALUE`` where the name is a credential's
        (``aws_secret_access_key``, ``aws_session_token``; not ``region`` or ``aws_access_key_id``),
        judged as a value after that name and ``=`` is."""
        start, end = match.span("name")
        return self.names_credential(buffer, start, end) and self.option_password(buffer, match)

    def variable_default(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for the default of a Terraform variable that names a credential (``variable
        "db_password" { default = "..." }``): the last ``variable "NAME" {`` within
        :data:`MAX_BLOCK` bytes before it, whose block is still open there and holds it at its
        own level, after any nested block (``validation { ... }``) has closed."""
        block = None
        for block in self.terraform_variable.finditer(buffer, max(0, match.start() - MAX_BLOCK), match.start()):
            pass
        if block is None:
            return False
        depth = 0
        for brace in self.brace.finditer(buffer, block.end(), match.start()):
            depth += 1 if buffer[brace.start()] == ord("{") else -1
            if depth < 0:
                return False  # the variable's block closed before the default
        if depth:
            return False  # a default inside a nested block is no default of the variable
        return self.names_credential(buffer, *block.span("name")) and self.option_password(buffer, match)

    def plain_secure_string(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for PowerShell's ``ConvertTo-SecureString "..." -AsPlainText``: the quoted string
        is the password when ``-AsPlainText`` follows on its line or stands before it
        (``ConvertTo-SecureString -AsPlainText "..." -Force``); without it, the string is an
        encrypted standard string, no password in the clear."""
        found = self.value_at(buffer, match.end())
        if found is None or not found[2]:
            return False
        if self.as_plain_text.search(buffer, match.start(), found[0]) is not None:  # -AsPlainText "..."
            return self.is_value(buffer, found[0], found[1])
        return self.as_plain_text.search(buffer, found[1], line_end(buffer, found[1])) is not None and (
            self.is_value(buffer, found[0], found[1])
        )

    def windows_password(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for the password of a Windows-style command line: FreeRDP's ``/p:...`` (after
        ``/u:`` or the tool's name), an option that names a password (``cmdkey /pass:...``,
        ``/password:...``), and ``net use ... /user:NAME PASSWORD``, whose ``*`` prompts and whose
        next ``/option`` is none."""
        line = command_start(buffer, match.start())
        if "user" in match.re.groupindex:
            if self.net_use.search(buffer, line, match.start()) is None:
                return False
        elif match.end() - match.start() == 3:  # /p: alone names no password
            user = b" -u:" if buffer[match.start()] == ord("-") else b" /u:"
            if buffer.find(b"freerdp", line, match.start()) < 0 and buffer.find(user, line, match.start()) < 0:
                return False
        return self.windows_value(buffer, match.end())

    def windows_value(self, buffer: bytearray, pos: int) -> bool:
        """Whether a Windows option's value of its own starts at ``pos``: not another ``/option``."""
        found = self.value_at(buffer, pos)
        if found is None or found[0] >= found[1] or buffer[found[0]] == ord("/"):
            return False
        return self.is_value(buffer, found[0], found[1])

    def named_windows_option(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a Windows-style option whose name ends in a credential's word, joined to its
        value by a colon (``sqlpackage /TargetPassword:...``, ``appcmd ...
        /processModel.password:...``, ``/token:...``): the name, after its ``/`` or ``-`` at the
        start of a word, must name a credential, and the value, right after the colon, is one of its
        own (:meth:`windows_value`)."""
        if match.end() >= len(buffer) or buffer[match.end()] in b" \t\r\n":
            return False  # a value after a space: a label's or a diff's line (-secret: db-credentials)
        name = self.option_name_before.search(buffer, max(0, match.start() - MAX_NAME), match.end() - 1)
        if name is None or not self.credential_named(buffer, name.start("name"), match.end() - 1):
            return False
        return self.windows_value(buffer, match.end())

    def windows_spaced_password(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a Windows command's ``/p VALUE`` after its ``/u USER`` on the same command
        line (``schtasks /create /s host /u ann /p ...``, ``systeminfo``, ``taskkill``) and
        schtasks' ``/rp VALUE`` after ``/ru``: a value of its own with a password's texture, since
        ``/p`` means more elsewhere."""
        line = command_start(buffer, match.start())
        user = self.run_as_user if buffer[match.start() + 1] in b"rR" else self.slash_user
        if user.search(buffer, line, match.start()) is None:
            return False
        return self.textured_value_at(buffer, match.end())

    def registry_value(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a registry value named for a credential and its data: ``reg add KEY /v
        Password /t REG_SZ /d ...`` (the name after ``/v`` earlier on the command line), or a line
        that ``reg query`` prints (``DefaultPassword    REG_SZ    ...``, the name first on it). The
        data must be a value of its own with a password's texture."""
        line = command_start(buffer, match.start())
        if buffer[match.start()] == ord("/"):
            name = self.registry_name.search(buffer, line, match.start())
        else:
            name = self.registry_line_name.fullmatch(buffer, line, match.start())  # the one word before REG_SZ
        if name is None or not self.credential_named(buffer, *name.span("name")):
            return False
        return self.textured_value_at(buffer, match.end())

    def header_value(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for authorization headers, whose base64 values may be letters only; a variable
        named for the header (``authorization=authorization``, ``= dest.authorization``) is code."""
        value = self.value.match(buffer, match.end())
        if value is not None and value.start("bare") >= 0:
            first, last = value.start("bare"), trimmed(buffer, *value.span("bare"))
            if self.path.fullmatch(buffer, first, last) and self.ends_authorization.search(buffer, first, last):
                return False
        if self.quoted_header_name(buffer, match):
            return False
        return self.credential_after(buffer, match.end(), tight=False, header=True)

    def authorization_value(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for an Authorization or Proxy-Authorization header's value (:meth:`header_value`),
        where the name is the header's: alone, or after ``Proxy-``, ``X-`` or a server's
        ``HTTP_`` (``HTTP_AUTHORIZATION``), or any name when a scheme comes before the value
        (``Basic …``). Another word joined before it makes another name (gcloud's
        ``--binary-authorization=POLICY``, ``DNS_AUTHORIZATION : …``)."""
        # the name's first letter: the pattern starts after it, looking behind at it, but for AUTHORIZATION
        first = match.start() if buffer.startswith(b"AUTHORIZATION", match.start()) else match.start() - 1
        start = first
        while start and buffer[start - 1] in NAME_CHARS and buffer[start - 1] != ord("."):
            start -= 1
        if self.authorization_prefix.fullmatch(buffer, start, first) is None and (
            self.scheme_given.search(buffer, match.start(), match.end()) is None
        ):
            return False  # with a scheme before the value (DNS_AUTHORIZATION: Basic ...), a header's still
        return self.header_value(buffer, match)

    def quoted_header_name(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Whether the header's name that ``match`` read is quoted with its colon, as prose names a
        header (``the "Authorization:" header``): the quote before its first letter closes right
        after the colon, so what follows is the sentence, not a value."""
        colon = buffer.find(b":", match.start(), match.end())
        if colon < 2 or buffer[colon - 1] in b"\"'":
            return False  # "Authorization": "Bearer ..." closes the name before the colon
        start = colon
        while start and buffer[start - 1] in NAME_CHARS:
            start -= 1
        return quoted_with_colon(buffer, start, colon)

    def key_header(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for ``X-Api-Key:``-style headers: a known name before the ending, then a value."""
        start = self.name_ending_at(buffer, match.start())
        return (
            start is not None
            and self.key_header_name.fullmatch(buffer, start, match.start()) is not None
            and self.header_value(buffer, match)
        )

    def cookie(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for ``Cookie:`` headers: a ``name=value`` pair with a real value, when the name
        says the cookie carries a session or a login (:data:`SESSION_COOKIE`) or the value looks
        generated. A preference (``theme=dark``, ``lang=en-US``) is no credential."""
        pos = match.end()
        for _ in range(32):
            pair = self.cookie_pair.match(buffer, pos)
            if pair is None or pair.end() == pos:
                return False
            name, (first, last) = pair.span(1), pair.span(2)
            if self.cookie_attribute.fullmatch(buffer, *name) is None and self.is_value(buffer, first, last):
                if self.session_cookie.fullmatch(buffer, *name) is not None:
                    return True
                if self.looks_secret(buffer, first, last, header=True):
                    return True
            pos = pair.end()
        return False

    def session_value(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a session cookie given outside a header (``_gitlab_session=...``,
        ``cookies={"sessionid": "..."}``): a name frameworks give one (:data:`SESSION_COOKIE_NAME`)
        and a value that looks generated, sixteen bytes or more."""
        end = match.start("end")
        start = self.name_ending_at(buffer, end)
        if start is None or self.session_cookie_name.fullmatch(buffer, start, end) is None:
            return False
        found = self.value_at(buffer, match.end())
        return found is not None and self.looks_secret(buffer, found[0], found[1], shortest=16)

    def secret_object(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a Kubernetes Secret (``kind: Secret`` anywhere in the record) whose ``data:``
        holds a value in base64 of ten characters or more, whatever its key (``extra: ...``,
        ``.dockercfg: |`` over the value). A stand-in there (``<base64>``, ``{{ .Values.x |
        b64enc }}``) is no base64, and ``stringData:`` is judged as any other setting."""
        for data in self.secret_data.finditer(buffer):
            indent = data.end("indent") - data.start("indent")
            pos = data.end()
            for _ in range(MAX_ENTRIES):
                entry = self.secret_entry.match(buffer, pos)
                if entry is None or entry.end() == pos or entry.end("indent") - entry.start("indent") <= indent:
                    break
                pos = entry.end()
                first, last = entry.span("value")
                if first < 0:
                    continue
                block = self.block_line.match(buffer, first)
                if block is not None and self.block_marker.fullmatch(buffer, first, trimmed_line(buffer, first, last)):
                    first, last = block.span("line")
                    pos = block.end()
                if self.base64_data.fullmatch(buffer, first, last) is not None and distinct(buffer, first, last) >= MIN_DISTINCT:
                    return True
        return False

    def armour_alone(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a private-key armour line on a line of its own (in prose it is only mentioned),
        also in a quote or a comment (``> -----BEGIN ...``, ``# -----BEGIN ...``, ``-- …``, a
        batch file's ``REM …`` or ``:: …``)."""
        start, end = match.start(), match.end()
        quoted = start > 0 and buffer[start - 1] in b"\"'`"  # the whole of a quoted value: "-----BEGIN..."
        while start and buffer[start - 1] in _BEFORE_ARMOUR:
            start -= 1
        if start < match.start():
            start = comment_word(buffer, start)
        while end < len(buffer) and buffer[end] in b" \t\"'`,":
            end += 1
        before = quoted or start == 0 or buffer[start - 1] in b"\r\n" or escaped_newline(buffer, start - 2)
        after = end == len(buffer) or buffer[end] in b"\r\n" or escaped_newline(buffer, end)
        return before and after

    def url_password(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for credential URLs: any password except a placeholder, however short. One
        character, or one repeated (``u:p@h``, ``:1@``, ``:***@``), is how documentation and tests
        write a password they do not show.

        A password written with ``/``, ``?`` or ``#`` unescaped (as many connection-string parsers
        take it) is one too, unless what comes before the first of them is a port: then the ``@``
        belongs to the path (``https://host:8443/@scope/pkg``). A URL's password is delimited as a
        quoted value is, so it stands for one only as a whole template (``${DB_PASSWORD}``, ``%s``,
        ``{password}``) or a call as code writes one (``get_password()``; see
        :data:`.vocabulary.URL_STAND_IN`): one that starts with a percent-encoded byte (``%40...``)
        or a symbol is a password. One that repeats the user's name is a well-known local default,
        as in curl's ``-u 'test:test'`` (``amqp://guest:guest@localhost``,
        ``postgres://postgres:postgres@...``), and anonymous FTP's is by convention an address or
        a word, never a secret (``ftp://anonymous:guest@...``, RFC 1635)."""
        start, end = match.span("body")
        if same_bytes(buffer, match.span("user"), (start, end)) or self.anonymous_user.fullmatch(buffer, *match.span("user")):
            return False
        cut = min((i for i in (buffer.find(c, start, end) for c in b"/?#") if i >= 0), default=end)
        if cut < end and (cut == start or bytes(buffer[start:cut]).isdigit()):
            return False
        return (
            self.url_stand_in.fullmatch(buffer, start, end) is None
            and self.placeholder_word.fullmatch(buffer, start, end) is None
            and distinct(buffer, start, end) > 1
            and not self.token_stand_in(buffer, start, end)
        )

    def proxy_password(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a proxy's address with a user and a password and no scheme, as a URL's
        password is checked (:meth:`url_password`), unless the user is a type of IAM member, which
        writes an account as ``type:address`` (``serviceAccount:sql-proxy@project.iam...``). Found
        by ``-x``, it is curl's option only where curl comes before it on its command line."""
        if buffer[match.start()] == ord("-"):
            line = command_start(buffer, match.start())
            if self.curl_word.search(buffer, line, match.start()) is None:
                return False  # tar -x, set -x: another tool's option
        return self.iam_member_type.fullmatch(buffer, *match.span("user")) is None and self.url_password(buffer, match)

    def address_password(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a user and a password before an address with no scheme (Go's MySQL DSN,
        ``root:...@tcp(localhost:3306)/app``), judged as a URL's password (:meth:`url_password`)."""
        found = self.userinfo_ending_at(buffer, match.start())
        return found is not None and self.url_password(buffer, found)

    def port_password(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a user and a password before a host and a port with no scheme
        (``admin:...@db.internal:5432/app``): a URL's password (:meth:`url_password`) that also
        looks generated (:meth:`generated_pair`), since nothing but the shape says it is one."""
        found = self.userinfo_ending_at(buffer, match.start())
        if found is None or found.start("user") == found.end("user"):
            return False
        return self.generated_pair(buffer, *found.span("user"), *found.span("body")) and self.url_password(buffer, found)

    def labelled_address_password(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a user and a password before a host with no scheme and no port, right after
        the name of the service or the tool they log in to (``FTP: deploy:...@ftp.example.com``,
        ``redis = app:...@cache.internal``, ``lftp deploy:...@ftp.example.com``), judged as a
        URL's password (:meth:`url_password`). Without such a name the shape is an e-mail
        address's as often (``email:John.Smith1990@gmail.com``), and kept."""
        at = match.start()
        if buffer.find(b":", max(0, at - _USERINFO_REACH), at) < 0:
            return False  # looked for first: most addresses have no user and password before them
        found = self.userinfo_ending_at(buffer, at)
        if found is None or found.start("user") == found.end("user"):
            return False
        start = found.start("user")
        if self.address_label.search(buffer, max(0, start - _LABEL_REACH), start) is None:
            return False
        if found.end("body") - found.start("body") <= 5 and digits_only(buffer, *found.span("body")):
            return False  # a host and its port before another name (redis: cache:6379@...) as often as digits alone
        return self.iam_member_type.fullmatch(buffer, *found.span("user")) is None and self.url_password(buffer, found)

    def userinfo_ending_at(self, buffer: bytearray, at: int) -> re.Match[bytes] | None:
        """The user and the password (groups ``user`` and ``body``) that end at the ``@`` at ``at``,
        the user starting its word; ``None`` when none do."""
        return self.userinfo_before.search(buffer, max(0, at - _USERINFO_REACH), at)

    def user_password(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for ``curl -u user:password``: a password as :meth:`url_password` takes one (not a
        template, a stand-in word, or one character or one repeated: ``--user "xxx:yyy"``), and
        not the user's own name again, which is how examples write a default (``-u 'test:test'``)."""
        pos = match.end()
        opened = match.start("open")
        closed = pos - 2 != opened and buffer[pos - 2] in b"\"'"  # "admin":"...": the user quoted apart
        if opened >= 0 and not closed and pos < len(buffer) and buffer[pos] == buffer[opened]:
            return False  # -u ":" or -u "user:": no password, curl asks for one
        if match.start() and pos < len(buffer) and buffer[pos] in b"\"'`" and buffer[match.start() - 1] == buffer[pos]:
            return False  # the option quoted whole in a sentence, "Sending a '-u :' is enough"
        if pos >= len(buffer) or buffer[pos] in b" \t\r\n":
            return False  # nothing after the colon: curl asks (curl -u admin: https://...), or prose (-u options: edit)
        found = self.value_at(buffer, pos)
        if found is None:
            return False
        first, last = found[0], trimmed(buffer, found[0], found[1])
        if same_bytes(buffer, match.span("user"), (first, last)):
            return False
        return (
            distinct(buffer, first, last) > 1
            and self.placeholder_word.fullmatch(buffer, first, last) is None
            and (self.is_value(buffer, first, found[1]) or self.bracketed_password(buffer, first, found[1]))
        )

    def httpie_password(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for httpie's ``-a user:password`` (``http -a deploy:... example.org``): judged as
        curl's ``-u`` (:meth:`user_password`) where the command line runs ``http`` or ``https``
        before it; other tools' ``-a`` means anything (``wget -a log.txt``, ``git commit -a``)."""
        line = command_start(buffer, match.start())
        return self.httpie_word.search(buffer, line, match.start()) is not None and self.user_password(buffer, match)

    def bracketed_password(self, buffer: bytearray, first: int, end: int) -> bool:
        """Whether ``buffer[first:end]``, which :meth:`is_value` reads as a call, is a password with
        brackets among its symbols where, as in a URL, nothing is run (``-u 'admin:kdTQp(8J)'``;
        ``end`` is untrimmed, since its last bracket may be its own): it starts with a letter or a
        digit, closes a bracket it opened, and is no call as code writes one
        (:data:`.vocabulary.URL_STAND_IN`: ``get_password()``, ``os.getenv(KEY)``)."""
        opening = self.opening_bracket.search(buffer, first, end)
        return (
            opening is not None
            and self.alnum.match(buffer, first) is not None
            and buffer.find(b")" if opening[0] == b"(" else b"]", opening.end(), end) >= 0
            and self.url_stand_in.fullmatch(buffer, first, end) is None
            and distinct(buffer, first, end) > 2
        )

    def token_user(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a URL's user that is a generated token: upper and lower case, digits, and ten
        distinct characters or more (a login name such as ``deploy-bot-2024`` has no capitals)."""
        start, end = match.span("body")
        with memoryview(buffer) as view:
            part = view[start:end]
            kinds = (any(0x41 <= c <= 0x5A for c in part), any(0x61 <= c <= 0x7A for c in part), any(0x30 <= c <= 0x39 for c in part))
        return all(kinds) and distinct(buffer, start, end) >= 10

    def encoded_armour(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a private key's PEM in base64 (``LS0tLS1CRUdJTi...``, ``-----BEGIN``): the
        armour line, read back from the first :data:`ARMOUR_ENCODED` characters alone (no more of
        the key is decoded), names a private key; a certificate's or a public key's is kept."""
        end = match.start() + min(ARMOUR_ENCODED, (match.end() - match.start()) // 4 * 4)
        armour = base64_decoded(buffer, match.start(), end)
        return armour is not None and b"PRIVATE KEY" in armour

    def private_jwk(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a JSON Web Key's private member in the object around its ``"kty"``: ``"d"``
        (an EC, RSA or OKP key's private part) or, for a symmetric key (``"oct"``), ``"k"``, a
        run of base64url judged as a token's body is (:meth:`body`). A public key has neither."""
        opening = buffer.rfind(b"{", max(0, match.start() - MAX_JWK), match.start())
        closing = buffer.find(b"}", match.end(), match.end() + MAX_JWK)
        if opening < 0 or closing < 0:
            return False
        member = self.jwk_secret if buffer.startswith(b"oct", match.start("kty")) else self.jwk_private
        found = member.search(buffer, opening, closing)
        return found is not None and self.body(buffer, found)

    def body(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for provider shapes: the random part is not a run of one character or a placeholder.

        The part is delimited by its shape, as a quoted value is by its quotes, so it stands for a
        value only as a whole template: a signature or a cookie that starts with a percent-encoded
        byte (``sig=%2B...``, ``xoxd-%2F...``) is one.
        """
        start, end = match.span("body") if "body" in match.re.groupindex else (-1, -1)
        if start < 0:  # no body group, or it sits in an alternative that did not take part
            start, end = match.span()
        token = min(start, match.start()), max(end, match.end())  # a marked token's body may precede its match
        if (
            distinct(buffer, start, end) >= MIN_DISTINCT
            and self.placeholder_word.fullmatch(buffer, start, end) is None
            and self.quoted_stand_in.fullmatch(buffer, start, end) is None
            and self.published_example.fullmatch(buffer, start, end) is None
            and self.published_example.fullmatch(buffer, *token) is None
        ):
            return True
        # A placeholder: kept here, and wherever else the whole of it is a value (GITHUB_TOKEN=ghp_xxxx...).
        stand_ins = getattr(self.calls, "stand_ins", None)
        if stand_ins is None:
            stand_ins = self.calls.stand_ins = set()
        stand_ins.update(((start, end), token))
        return False

    def discord_bot(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for a Discord bot token: its first part, read back from base64, is a decimal id."""
        dot = match.start()
        start = dot
        while start and buffer[start - 1] in URLSAFE_BYTES:
            start -= 1
        first = bytes(buffer[start:dot])
        if not 23 <= len(first) <= 28 or first[:1] not in (b"M", b"N", b"O"):
            return False
        import base64

        try:
            decoded = base64.urlsafe_b64decode(first + b"=" * (-len(first) % 4))
        except (binascii.Error, ValueError):
            return False
        return decoded.isdigit() and 17 <= len(decoded) <= 20 and self.body(buffer, match)
