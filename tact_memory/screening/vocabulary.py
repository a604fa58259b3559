"""What the secret screen takes for a value, and what it takes for a stand-in for one.

The patterns here are regular-expression sources (bytes), compiled by :class:`.checks.Checks` the
first time a check needs one; this module is data only and compiles nothing.

Design:

- A value assigned to a credential-like name, given to a password flag, or carried by an
  ``Authorization``, ``Proxy-Authorization``, API-key or ``Cookie`` header is refused whatever its
  length (a session cookie outside a header, under a framework's name for it, only when its value
  looks generated), unless it stands for a value instead of being one: empty, a template or environment
  reference (``<token>``, ``${API_KEY}``, ``$(pass show db)``, ``%TOKEN%``, ``{{ secret }}``), a mask
  (``****``, ``xxxx``), a word that marks a missing value (``None``, ``null``, ``changeme``,
  ``redacted``, ``required``), a type (``str``, ``SecretStr``), or a reference to where the value
  lives (``settings.KEY``, ``os.getenv(...)``, ``API_KEY_V2``, ``dbPassword``, paths, URLs, ARNs).
  A quoted value is a string: it stands for a value only when the whole of it is a template, a
  reference or a call (``"${API_KEY}"``, ``"{{ secret }}"``, ``'os.environ["KEY"]'``), or when it
  is code (an f-string that interpolates, a regular expression, a colour, a terminal's escape
  sequence such as ``"\\033[92m"``); a bracket, ``$``, ``%``, ``<`` or ``#`` anywhere else in it
  is a password's own character (``"Tr0ub(4dor&3"``, ``"#9fK2mL!xqW"``, a Django ``SECRET_KEY``),
  and capitalised words in it are a passphrase (``"CorrectHorseBatteryStaple"``), not a type.
- Values a provider prints in its documentation and never issues are kept, as an exact list
  (:data:`PUBLISHED_EXAMPLE`): AWS's example key ids (the suffix ``EXAMPLE``, as in
  ``AKIAIOSFODNN7EXAMPLE``) and its two example secret access keys, and the account key Azurite,
  Microsoft's storage emulator, gives every developer. They fill tutorials and test configuration,
  and refusing them would teach that the screen refuses what is plainly no secret; a key that
  differs from them by one character is refused.
"""

from __future__ import annotations

__all__ = [
    "ACCENTED_LETTER",
    "BARE_PASSWORD_WORDS",
    "BETWEEN_STRINGS",
    "CHANGED",
    "CLAUSE_END",
    "CREDENTIAL_WORD",
    "DEFAULT_ACCOUNT",
    "DESCRIPTION",
    "ELIDED_PREFIX",
    "GIVEN_BEFORE",
    "GIVING_VERB",
    "GRAMMAR_WORD",
    "GROUPED_KEY",
    "HEADER_TEXTURE",
    "HTML_ENTITY",
    "JOINED_PAIR",
    "JOINED_RUN",
    "LATIN_KEY_WORDS",
    "LOGIN_AS",
    "LOGIN_CONTEXT",
    "LOGIN_WITH",
    "MAX_ASIDE",
    "MAX_CHANGED",
    "MAX_GIVEN",
    "MAX_LOGIN_AS",
    "MAX_LOGIN_CONTEXT",
    "MAX_NAMED",
    "MAX_NAMING",
    "MAX_PASS_HOLDER",
    "MAX_PURPOSE",
    "MAX_QUOTED",
    "MAX_UNPACKED",
    "MAX_USER_BEFORE",
    "MIN_DISTINCT",
    "MIN_LINKED",
    "MIN_VALUE",
    "NAME_CHAR",
    "NAMED_THING",
    "NAMING_BEFORE",
    "NEXT_FLAG",
    "NODE_PROPERTIES",
    "OPEN_STAND_IN",
    "OTHER_FOR",
    "OTHER_KEY_WORDS",
    "OTHER_PARTICLES",
    "OTHER_PASSWORD_WORDS",
    "PASSPHRASE",
    "PASSWORD_WORD",
    "PASS_HOLDER",
    "PATTERN_CLASS",
    "PATTERN_CONSTRUCT",
    "PATTERN_RANGE",
    "PHRASE",
    "PLACEHOLDER",
    "PLACEHOLDER_WORD",
    "PROMPTED_PATH",
    "PUBLIC_VALUE",
    "PUBLISHED_EXAMPLE",
    "PURPOSE",
    "QUOTED_REFERENCE",
    "QUOTED_STAND_IN",
    "SHORT_PASSPHRASE",
    "TERMINAL_ESCAPE",
    "TEXTURE",
    "TOKEN_RUN",
    "TYPE_NAME",
    "UNQUOTED_REFERENCE",
    "URLSAFE_BYTES",
    "URL_STAND_IN",
    "USER_BEFORE",
    "VALUE",
    "VALUE_BEFORE",
    "VARIABLE_END",
    "WORD",
]

MIN_VALUE = 8
MAX_QUOTED = 256  # how far a quoted value after a credential name may run to its closing quote
MIN_DISTINCT = 4
MAX_PURPOSE = 160  # how far before a linking word "<name> for <what it is for>" may start
# An accented Latin letter (two bytes in UTF-8), as some languages' words for a password have them
# (contraseña, lösenord, hasło); and a name's characters: ASCII letters, digits, joiners and those.
ACCENTED_LETTER = rb"[\xc3-\xc5][\x80-\xbf]"
NAME_CHAR = rb"(?:[A-Za-z0-9_.-]|" + ACCENTED_LETTER + rb")"
# "Password" in languages that write it in Latin letters, with its accents and without them, as
# code often writes it (contraseña and contrasena, lösenord and losenord, hasło and haslo), and
# with the definite ending of the Scandinavian ones (lösenordet): German, Spanish, French,
# Portuguese, Dutch, Swedish, Norwegian, Danish, Finnish, Polish, Czech and Hungarian; and Java's
# keytool and keystore settings (storepass, keypass). Names ending in one are credential names.
PASSWORD_WORD = (
    rb"passwort|kennwort|contrase(?:n|\xc3\xb1)a|mot[_.-]?de[_.-]?passe|senha|wachtwoord"
    rb"|l(?:o|\xc3\xb6)senord(?:et)?|passord(?:et)?|adgangskoden?|salasana|has(?:l|\xc5\x82)o|heslo|jelsz(?:o|\xc3\xb3)"
    rb"|storepass|keypass"
)
CREDENTIAL_WORD = rb"(?i:pass|pw|psk|pat|secret|token|key|seed|cred|auth|" + PASSWORD_WORD + rb")"
"""A part of every credential's name a sentence gives, or of the words just before it (``pass`` of
``pass phrase``); SonarQube's ``sonar.login``, named only before a separator, has none. A sentence
is searched for a name only where one of these stands within reach (:meth:`Checks.word_within_reach`)."""
MAX_NAMED = 24  # sentence-name searches one screen makes; past them, no sentence names a credential
MAX_UNPACKED = 16  # values on the right of an unpacking that are looked at before it is judged a value
MIN_LINKED = 6  # the shortest unquoted value that ends its clause after "is", "to" (is hunter2.)

# What a value is: after up to eight spaces and an optional string prefix (f"...", b'...', C#'s
# verbatim @"..." and interpolated $"...", Objective-C's @"...", C and C++'s L"...", u8"...", SQL
# Server's N'...' and PostgreSQL's E'...', those two before a single quote only: a placeholder's N
# before Markdown's closing backtick is no prefix, `--token N`), either
# a quoted run (the quote may be escaped, as in JSON inside a string; Python's and TOML's triple
# quotes open one as a quote does) or one bare run up to white space, a quote, a list separator, a
# query-string "&" or an escape sequence.
VALUE = (
    rb"[ \t]{0,8}(?:(?:u8|[bBrRuUfFL@$]{1,2})(?=\\{0,3}[\"'`])|[NE](?='))?"
    rb"(?:(?:(?:\"\"\"|''')(?![\"'])|\\{0,3}[\"'`])(?P<quoted>(?:[^\"'`\\\r\n]|\\(?!\\{0,3}[\"'`nrt])){0,256})"
    rb"|(?P<bare>(?:[^\s\"'`,;&\\]|\\(?![\\\"'`nrt])){1,256}))"
)
# What YAML may write before a value: an anchor (&db_password) and the string tag (!!str), each
# followed by a space. Rust's references (&mut, &dyn, &impl) are not anchors.
NODE_PROPERTIES = rb"[ \t]{0,8}(?:(?:&(?!(?:mut|dyn|impl)[ \t])[A-Za-z0-9_-]{1,64}|!!str)[ \t]+){1,2}"
# A value run as a password may write it: up to white space, a quote or a backslash, with the
# list, command and query-string separators (, ; &) that end a value elsewhere kept inside it.
JOINED_RUN = rb"[ \t]{0,8}(?P<run>[^\s\"'`\\]{1,256})"
# What, after such a separator, begins another item rather than going on with one value: a name
# and its value (user=admin, ?token=...&next=/home, {token:e,user:t}); and an HTML entity (&lt;).
JOINED_PAIR = rb"[A-Za-z_][A-Za-z0-9_.\[\]-]{0,63}[=:]"
HTML_ENTITY = rb"&(?:[A-Za-z][A-Za-z0-9]{1,31}|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6});"
# What may follow a value that ends its clause: the end, a line break (also escaped), a comment, a
# closing bracket or quote, a list or command separator, or a sentence end. After a space, a quote
# closes something only where the line or a bracket ends; before a word it opens inline code or a
# quotation (api_key: explicit `api_key` is ...).
CLAUSE_END = (
    rb"[.!?:]?(?:[\"'`]|[ \t]*(?:\Z|[\r\n,;)}\]#|&]|\\[nrt\"'`\\]|[\"'`]+[ \t]*(?:\Z|[\r\n,;)}\]#|&])))"
)
# A value that is followed by another command-line option ("--password x --host db").
NEXT_FLAG = rb"[ \t]+-"

# Values that stand for a secret without being one: masks, YAML block markers (|, >-: the block's
# first line is judged instead, see block_value), words that
# say the value is missing or elsewhere, type names, and authorization scheme names given without a
# credential. "your-api-key-here" and "my_secret_key" are phrases, words joined by dashes or
# underscores, as is jwt.io's "your-256-bit-secret" (a number inside, a word last);
# "My-Prod-Passw0rd!" has a digit and a symbol, and is a password, as is "my-secret-2024".
# The credential words themselves are here too: "password=password" is how documentation writes a
# value it does not show, also in other languages (http://Benutzer:Passwort@Server/), and "token:
# Token" is a type annotation.
PLACEHOLDER_WORD = (
    rb"\*+|\.+|x+|X+|-+|_+|\?+|[|>][-+]?[0-9]?"
    rb"|(?i:(?:your|my|insert|replace|put|enter)(?:[-_][a-z0-9]+)*[-_][a-z]+|(?:[a-z]+[-_])+here"
    # the same phrase with spaces, as SDK READMEs write it (api_key="My API Key", "Your Token Here")
    rb"|(?:your|my|insert|replace|put|enter)(?:[ ][a-z0-9][a-z0-9.-]*){0,3}[ ]"
    rb"(?:pass(?:word|phrase)?|pwd|pw|token|secret|key|credentials?|creds|pat)(?:[ ]here)?"
    rb"|pass(?:word|wd|phrase|code)?s?|pwd|pw|secrets?|tokens?|keys?|api[-_]?keys?|credentials?|creds|auth"
    rb"|" + PASSWORD_WORD + rb"|changeme|changeit|change[-_]?me|changethis|generate[-_]?me|redacted|removed|placeholder|hidden|masked|omitted"
    rb"|elided|sensitive|confidential|censored|none|null|nil|nothing|undefined|undef|unset|empty"
    rb"|blank|true|false|yes|no|on|off|required|optional|missing|invalid|expired|revoked|rotated"
    rb"|disabled|enabled|todo|tbd|tba|n/?a|see|same|ditto|default|auto|prompt|ask|stdin|env"
    # what a changelog or a review says happened to it (gnutls_..._secret: Added, signing-key: Updated.)
    rb"|added|updated|changed|unchanged|fixed|deprecated|renamed|deleted|moved|reverted|unused|new"
    rb"|str|string|bytes|bytearray|int|integer|bool|boolean|number|any|object|text|char|varchar"
    rb"|incomplete"  # typeshed's stand-in type for what a stub does not describe yet (TOKEN: Incomplete)
    rb"|file|filename|path"  # what a manual says an option takes (--private-key=file)
    rb"|eof"  # a lexer's end-of-input token (token=EOF)
    # a SASL mechanism, as a mail or directory server advertises it (AUTH=CRAM-MD5, auth: SCRAM-SHA-256)
    rb"|(?:cram|scram|digest)-(?:md5|sha-?1|sha-?256|sha-?512)(?:-plus)?|plain|login|xoauth2|oauthbearer|gssapi|anonymous"
    rb"|secretstr|secretbytes|basic|bearer|digest|negotiate|ntlm"
    # what Windows Setup writes over an answer file's passwords once it has used them (without
    # its outer asterisks where Markdown reads the rest as emphasis)
    rb"|\*?sensitive\*data\*deleted\*?)"
    rb"|value|val"  # the variable code names a value by (api_key = value); VALUE is how a command stands one in
    rb"|(?i:basic|bearer|token|digest)[ \t]+"  # the scheme alone, the credential joined on after it
)

# A quoted value stands for one only when the whole of it is a template or a reference: ${API_KEY}
# (also with a default), ${{ secrets.X }}, $API_KEY, $(pass show db), %API_KEY%, %(password)s, %s,
# <your-token>, {password}, {{ secret }}, {% raw %}, #{password}, or a stand-in word in brackets
# ([REDACTED], (hidden)); several of them joined by punctuation ("${USER}:${PASS}", a format
# string such as "(%s)|(%s)") too: no letter or digit outside them. A dollar sign before a name
# with upper case, lower case and digits all mixed ("$Tr0ub4dor") is a password. No two
# alternatives match the same text, so a value that fails late is not tried two ways a template.
# A name between percent signs, as Windows writes a variable (%APPDATA%, %ProgramFiles(x86)%) and
# Symfony a parameter (%kernel.secret%, %env(APP_SECRET)%, %env(json:file:SECRETS_FILE)%): letters,
# never a digit outside the brackets.
_PERCENT_NAME = rb"%[A-Za-z_][A-Za-z_.]+(?:\([A-Za-z0-9_:.-]{1,128}\))?%"
# A name as code and shells write one: not upper case, lower case and digits all mixed, as in a
# password ("Tr0ub4dor").
_PLAIN_NAME = rb"(?!(?=[A-Za-z0-9_]*[a-z])(?=[A-Za-z0-9_]*[A-Z])[A-Za-z0-9_]*[0-9])[A-Za-z_][A-Za-z0-9_]*"
_TEMPLATE = (
    # each $ may be doubled, as Compose files and Makefiles escape it: $$DB_PASSWORD, $${TOKEN}
    rb"\$?\$\{\{[^{}]{0,128}\}\}|\$?\$\{[^{}]{0,128}\}|\$?\$\([^()]{0,128}\)"
    rb"|\$?\$(?:::)?" + _PLAIN_NAME +  # Tcl's global namespace too: $::env(NAME)
    rb"(?:(?:->|\.)[A-Za-z_][A-Za-z0-9_]*)*"
    rb"|\$[a-z_][a-z0-9_]*(?:-[a-z0-9_]+)+"  # a style sheet's variable: $text-success
    rb"|\$(?i:env):[A-Za-z_][A-Za-z0-9_]*"  # PowerShell's environment variable, which "..." fills in
    rb"|%[A-Za-z_][A-Za-z0-9_]*%|" + _PERCENT_NAME + rb"|%\([A-Za-z_][A-Za-z0-9_]*\)[sdr]|%[-+ 0#]?[0-9]*(?:\.[0-9]+)?[sdvqrxf]"
    rb"|<[A-Za-z_][A-Za-z0-9 _.:/|-]{0,127}>|<%[=-]?[^<>]{0,128}%>"  # <password>, <your-token>, ERB
    rb"|\{\{[^{}]{0,128}\}\}|\{%[^{}]{0,128}%\}|\{#[^{}]{0,128}#\}|#\{[^{}]{0,128}\}#?"
    # the tokens a release pipeline replaces (#{DB_PASSWORD}#, @@DB_PASSWORD@@), a name in one case
    rb"|@@(?:[A-Z_][A-Z0-9_.]{0,127}|[a-z_][a-z0-9_.-]{0,127})@@"
    # A format field as Python, .NET and most template languages write one: {password}, {0},
    # {user.name}, {env[TOKEN]!r:>12}; not any text between braces, which random symbols hold.
    rb"|\{ ?[A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*|\[[A-Za-z0-9_]{1,32}\])*(?:![rsa])?"
    rb"(?::(?:[^{}]?[<>=^])?[-+ ]?#?0?[0-9]*[,_]?(?:\.[0-9]+)?[A-Za-z%]?)? ?\}"
    rb"|\[[A-Za-z][A-Za-z _.-]{0,63}\]|\([A-Za-z][A-Za-z _.-]{0,63}\)"
)
# A call or a subscript in code's own names, as the whole value: get_secret(), os.getenv(KEY),
# env[TOKEN], vault.read(path).data, and a type written as a string ("contextvars.Token[Span[Any]
# | None]"). The callee is a dotted name without a digit, as in code_name.
_SUBSCRIPT = rb"\[(?:[A-Za-z0-9_., :|-]|\[[A-Za-z0-9_., :|-]{0,64}\]){0,128}\]"
# A capitalised word with a number in brackets, and at most a few symbols after it, as the whole
# value (its closing bracket may be trimmed off as punctuation): how people make a password of a
# word and a year ("Summer(2024)", "Welcome(1)!"), not a call code stores as a credential (a
# callee there is in code's case or dotted: token_hex(32)).
_WORD_AND_NUMBER = rb"(?![A-Z][a-z]*\([0-9]{1,8}(?:\)[!#$%&*?@^~.]{0,4})?\Z)"
_CALL = (
    _WORD_AND_NUMBER + rb"[A-Za-z_]+(?:\.[A-Za-z_]+)*(?:\([A-Za-z0-9_., =:-]{0,128}\)|" + _SUBSCRIPT + rb")+"
    rb"(?:\.[A-Za-z_]+(?:\([A-Za-z0-9_., =:-]{0,128}\)|" + _SUBSCRIPT + rb")*)*"
)
# A colour, as style sheets and syntax themes write one (Token.String: "#AB0909").
_COLOUR = rb"#(?:[0-9A-Fa-f]{3,4}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})"
# Unquoted, a value stands for one when it starts like code or a template: a tag, a brace, a list
# or a tuple (<token>, {{ secret }}, JSX's {password}, [REDACTED], (hidden)); a variable, with
# what a shell or a path adds after it ($API_KEY, ${API_KEY:-none}, $HOME/.token, $env:API_KEY,
# $(pass show db), $1, $RANDOM$RANDOM); a format field or a variable between percent signs (%s,
# %(password)s, %APPDATA%, %env(APP_SECRET)%); a template, a colour or an anchor after "#"
# (#{password}, #AB0909, #set-via-env, #TODO); a YAML tag (!vault, !Ref, !!binary); or a stand-in
# word between asterisks (***REDACTED***, Windows Setup's *SENSITIVE*DATA*DELETED*). What follows
# "$", "%", "#" or "!" otherwise is a password's own: a generated one starts with such a symbol
# often enough ("$Y9nq5^%&dL", "%jy0S^@Sp5Q", "#NAKtaRp2W$w45"), and a name mixing cases and
# digits is one too. Inside quotes
# only a whole template stands for a value (see QUOTED_STAND_IN).
# What may follow a variable's name in the value: the end, or what a path, a default, code or
# markup adds after it ($HOME/.token, ${X:-y}, $env:API_KEY, $_ENV[X], $TOKEN</code>, $X | y).
VARIABLE_END = b"/.:[]{}()<>|-"
_LEAD_END = rb"(?![^" + VARIABLE_END.replace(b"[", rb"\[").replace(b"]", rb"\]") + rb"])"
_UNQUOTED_LEAD = (
    rb"[<{\[(]|\$?\$[{(]|(?:\$\$?(?:[0-9]|[$@*#?!-]|(?:::)?" + _PLAIN_NAME + rb"))+" + _LEAD_END  # $$X: Compose, make
    + rb"|" + _PERCENT_NAME + rb"|%\([A-Za-z_][A-Za-z0-9_]*\)[sdr]|%[-+ 0#]?[0-9]*(?:\.[0-9]+)?[sdvqrxf]" + _LEAD_END
    + rb"|#\{|(?:" + _COLOUR + rb"|#(?:[a-z]{3,}(?:[-_][a-z0-9]+)*|[A-Z]{3,}(?:_[A-Z]+)*))" + _LEAD_END
)
PLACEHOLDER = (
    rb"(?:" + _UNQUOTED_LEAD + rb").*|!!?(?:[a-z]+|(?:[A-Z][a-z]+)+)|.*[>}]|\*{1,8}(?:" + PLACEHOLDER_WORD + rb")\*{1,8}|"
    + PLACEHOLDER_WORD
)
_JOINER = rb"[-_.:/@,;|()\[\] ]{0,4}"
# An Azure App Service setting that reads its value from Key Vault.
_KEY_VAULT_REFERENCE = rb"@Microsoft\.KeyVault\([^()\"'`]{1,256}\)"
_TEMPLATES = _JOINER + rb"(?:" + _TEMPLATE + rb")(?:" + _JOINER + rb"(?:" + _TEMPLATE + rb"))*" + _JOINER
QUOTED_STAND_IN = _TEMPLATES + rb"|" + _CALL + rb"|" + _COLOUR + rb"|" + _KEY_VAULT_REFERENCE
# A URL's password (and curl's) is never run, so a call stands for a value there only as code
# writes one: a callee in code's case (get_password, os.getenv, tokenHex) and arguments that are
# names as code writes them or numbers (os.getenv(KEY), getpass(0), env[TOKEN]). Anything else
# between brackets is a password's own symbols ("y(0Jm)", "A(00=)", "kdTQp(8J)", "t[qeG1K]").
_CODE_NAME = rb"[a-z_][a-z0-9_]*(?:[A-Z][a-z0-9_]+)*"
_ARGUMENT = rb"(?:" + _PLAIN_NAME + rb"|[0-9]{1,8})"
_ARGUMENTS = rb"(?:" + _ARGUMENT + rb"(?:, ?" + _ARGUMENT + rb")*)?"
_CODE_CALL = _CODE_NAME + rb"(?:\." + _CODE_NAME + rb")*(?:\(" + _ARGUMENTS + rb"\)|\[" + _ARGUMENTS + rb"\])"
URL_STAND_IN = _TEMPLATES + rb"|" + _CODE_CALL + rb"|" + _KEY_VAULT_REFERENCE
# A token's published prefix with the rest left out (sk-..., sk_live_..., ghp_...), as notes and
# documentation show which kind of key goes where. The prefix ends at its separator: a value
# that goes on past it before the dots (hunter2...) is a value cut short, not a prefix.
ELIDED_PREFIX = rb"[A-Za-z]{1,8}(?:[-_][A-Za-z0-9]{1,8}){0,2}[-_]"
# Quoted strings that are code whatever else they hold: a regular expression (a group such as
# (?:...), a class escape such as \w, or a character class with a range that a quantifier or
# another class follows: [0-9A-Fa-f]{1,4}, [a-zA-Z_][a-zA-Z0-9_-]*), and what lies between two
# string literals, which a value's parse sees from the first one's closing quote ("Basic " +
# b64encode(pair) + "). Random symbols hold such a shape about once in a thousand passwords.
PATTERN_CONSTRUCT = rb"\(\?(?:[:=!#]|P?<)(?:[^()]{0,64}\)|\Z)|\\[wdsWDSbB]"
PATTERN_CLASS = rb"\[\^?[^\]\s\[]{1,64}\](?=[*+?{(\[])"
PATTERN_RANGE = rb"[A-Za-z0-9]-[A-Za-z0-9]"
BETWEEN_STRINGS = rb"[ \t]+(?:[-+%*.&|]|(?:or|and|if|else|in|for)[ \t])"
# A terminal's escape sequence, as code writes the escape byte (\033, \x1b, \u001b, \e) or as
# captured output holds it: a colour or a cursor move ("\033[92m"), never part of a password.
TERMINAL_ESCAPE = rb"(?:\x1b|\\(?:0?33|x1[bB]|u001[bB]|e))\["
# A quoted value cut short by a quote of the other kind, which opens a string inside it: what
# precedes that string is a template's or a call's opening (os.environ[, get_secret(, os.getenv(KEY,
# ${{ secrets[, {{ required , $(pass show , <%= ENV[, #{ENV[), not a password.
OPEN_STAND_IN = (
    rb"(?:\$\{\{?|\{\{-?|\{%-?|<%[=-]?|#\{|\$\()[^\"'`]{0,128}"
    rb"|[A-Za-z_]+(?:\.[A-Za-z_]+)*(?:\([A-Za-z0-9_., =:-]{0,128}\)|\[[A-Za-z0-9_., :-]{0,128}\])*"
    rb"[(\[][A-Za-z0-9_., =:-]{0,128}"
)

# Values that name where a secret lives, or name something else, rather than containing a secret.
# People choose passwords with dots, dashes and underscores (hunter-2, Prod.Pass2024, summer.2024,
# postgres_dev_2024, super-secret-jwt-key), so a separator alone never makes a reference. What does:
# an attribute path that ends in a name as code writes one (settings.SECRET_KEY, config.api_key,
# ed25519.PrivateKey, self.password: an underscore, a capital or a credential word, never a digit);
# an upper-case environment name (OPENAI_API_KEY_V2); an algorithm's name (hmac-sha256,
# aes-256-gcm); an identifier that names a credential variable in code's own style, with a
# separator or a case step and no digit (dbPassword, confirm_password).
_ALGORITHM = (
    rb"(?i:hmac|sha[0-9]{0,3}|md5|aes[0-9]{0,3}|rsa|ecdsa|ecdh|ed25519|ed448|x25519|pbkdf2|bcrypt|scrypt|ssh|nistp[0-9]{3}"
    rb"|argon2(?:id|i|d)?|chacha20|poly1305|blake2[bs]?|gcm|cbc|ctr|ecb|p[0-9]{3}|hs[0-9]{3}|rs[0-9]{3}"
    rb"|es[0-9]{3}|ps[0-9]{3}|[0-9]{2,4})"
)
_REFERENCE = (
    rb"[A-Za-z_][A-Za-z0-9_]*(?:(?:\.|->)[A-Za-z_][A-Za-z0-9_]*)*(?:\.|->)"
    rb"(?:[A-Za-z_]*[_A-Z][A-Za-z_]*|(?i:pass(?:word|wd|phrase|code)?|pwd|secrets?|tokens?|keys?|api_?key|credentials?"
    rb"|creds|auth))"  # settings.SECRET_KEY, ed25519.PrivateKey, self.password
    rb"|[A-Z]+[0-9]{0,2}(?:_[A-Z]+[0-9]{0,2})+"  # OPENAI_API_KEY_V2, but not a random RUN_OF_CAPS7X2
    rb"|" + _ALGORITHM + rb"(?:[-_]" + _ALGORITHM + rb")+"  # hmac-sha256, aes-256-gcm
    # dbPassword, confirm_password, DB_PASSWORD_FILE: the credential word in one of code's cases
    # (random letters hold "pWd" or "PAsS" by chance, and are a password)
    rb"|(?=[A-Za-z_]*(?:_|[a-z][A-Z]))[A-Za-z_]*"
    rb"(?:[Pp]ass(?:word|wd)?|PASS(?:WORD|WD)?|[Ss]ecret|SECRET|[Tt]oken|TOKEN|[Cc]redential|CREDENTIAL"
    rb"|[Aa]pi_?[Kk]ey|API_?KEY|[Pp]wd|PWD)[A-Za-z_]*"
    rb"|[a-z0-9_-]+(?:/[a-z0-9_.-]+)+"  # projects/123/secrets/db
    # a Terraform resource's attribute (random_password.db.result, aws_db_instance.main.password)
    rb"|(?:data\.|module\.)?(?:random|aws|azurerm|azuread|google|kubernetes|vault|tls|cloudflare|github"
    rb"|digitalocean|hcloud|null|terraform)_[a-z_]+(?:\.[a-z_]+){2,}"
    rb"|[A-Za-z][A-Za-z0-9+.-]*://.*"  # URLs; embedded passwords have their own rule
    rb"|(?i:arn|vault|op|env|file|ssm|sm|gsm|keyvault|secretsmanager|ref|fd|pass):.*"
    rb"|[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+"  # email addresses
    # an IP address, which no token is (systemd-networkd's IPv6 Token=::1a:2b:3c:4d, token: 10.0.0.5)
    rb"|(?:25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])(?:\.(?:25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])){3}(?::[0-9]{1,5})?"
    rb"|(?=[0-9A-Fa-f:]*::|(?:[0-9A-Fa-f]{1,4}:){3})(?:[0-9A-Fa-f]{0,4}:){2,7}[0-9A-Fa-f]{0,4}"
    rb"|(?:self|this|cls)\.[A-Za-z_][A-Za-z_.]*"  # an attribute of the object in code: self.current
    rb"|__[a-z]+(?:_[a-z]+)*__|_{1,2}[A-Za-z]+(?:_[A-Za-z]+)+|_{1,2}[A-Z][a-z]+(?:[A-Z][a-z]+)+"  # __root__,
    # _digest_auth, _BearerAuth: a private or special name, two words or more and no digit
    rb"|[Xx](?:-[A-Za-z]+){2,}"  # a header's name (X-API-Key, x-auth-token), not its value
)
YAML_ALIAS = rb"[ \t]*\*[a-z][a-z0-9]*(?:[_-][a-z0-9]+)*[ \t]*(?:#[^\r\n]*)?(?:\r?\n|\Z)"
"""A YAML alias to an anchored value, alone after a key's colon (``password: *db_password``), named
as anchors are, in lower case: the value is the anchor's, written elsewhere. After "=" a "*"
starts a value like any other symbol (``PASS=*a0``)."""
# Unquoted: a file path, an option list such as id=npmrc,src=$HOME/.npmrc (an option's name in
# lower case, its value of the characters names, paths and variables have: not base64 padding,
# nor a password with "=" after its first letters, as "rDar9eO=L=!Ih$7", "x=#z+t7YB#sh!"), a shell's
# command substitution, and code with a bracket in it: a call, a subscript or a tuple, whole or as
# the value's end at the first quote or space cuts it short (os.getenv("X") is read as os.getenv(,
# d.get(key, None) as d.get(key,), Details(**{k: v} as Details(**{k:). After its first bracket code
# holds names, numbers, operators and braces, not the other symbols a generated password mixes in
# (Xk9(mQ2!zL is a password), which passes for code only without them.
_CODE_AFTER_BRACKET = rb"[A-Za-z0-9_., =:()\[\]{}*+/-]*"
UNQUOTED_REFERENCE = (
    _REFERENCE + rb"|(?:~|\.{1,2})?/.*|[A-Za-z]:\\.*|[a-z][a-z0-9_-]*=(?:[A-Za-z0-9_.~/:@%+-]|\$(?=[A-Z_{(])|[{}()])+|\$\(.*"
    # the next long option, with what options take: SECRET --data-file=PATH, (CREDENTIAL : --location=L)
    rb"|--[a-z][a-z0-9-]*(?:=[A-Za-z0-9_./:@%+,=\[\]-]*)?"
    # a file's name by what key, certificate or settings files are called (private_key=key.pem, api_key: secrets.json)
    rb"|[A-Za-z0-9_.-]*[A-Za-z0-9_-]\.(?:pem|key|crt|cer|der|csr|p8|p12|pfx|jks|keystore|pub|ppk|asc|gpg|pgp|kdbx"
    rb"|json|ya?ml|toml|ini|conf|cfg|env|txt)"
    rb"|" + _WORD_AND_NUMBER + rb"(?:" + BETWEEN_STRINGS + rb"[ \t]*)?"  # code after a string: " + b64encode(
    rb"\*{0,2}(?:[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)?[(\[]" + _CODE_AFTER_BRACKET
    # a whole call in code's case whose arguments reach a member as C and PHP do, or a PHP
    # variable: strdup(data->pw), trim($row->password)
    + rb"|" + _CODE_NAME + rb"(?:\." + _CODE_NAME + rb")*\((?:->(?=[A-Za-z_])|\$(?=[A-Za-z_])|[A-Za-z0-9_., ()\[\]])*\)?"  # its closing bracket may be trimmed off
)
# Quoted, a path or an option list (two pairs or more) is made of the characters paths and option
# values have; a quoted value with a bracket in it is a reference only as a whole call (_CALL). A
# generated password starts with a slash or has an equals sign after its first letters often
# enough ("/e.9M=haX(#@w*8Nk+7B", "x=4b%0p%)zcyc3e..."), and its symbols tell it from a path.
QUOTED_REFERENCE = (
    _REFERENCE + rb"|(?:~|\.{1,2})?/[A-Za-z0-9_.~/@:+=,-]*|[A-Za-z]:\\[A-Za-z0-9_.~\\ :+=,-]*"
    rb"|[A-Za-z_][A-Za-z0-9_]*=[A-Za-z0-9_.~/$:-]*(?:,[A-Za-z_][A-Za-z0-9_]*=[A-Za-z0-9_.~/$:-]*)+"
)

# Keys their providers publish as safe to ship to a browser or an app, whatever name holds them:
# Stripe's publishable keys (pk_live_..., pk_test_...; Clerk and Paystack give theirs the same
# shape) and Mapbox's public tokens (pk. and a JWT-like body; its secret ones start with sk.). The
# prefix says what the key is, so STRIPE_KEY=pk_live_... is kept and STRIPE_KEY=sk_live_... is not.
PUBLIC_VALUE = rb"pk_(?:live|test)_[A-Za-z0-9]{16,250}|pk\.eyJ[A-Za-z0-9_-]{10,400}\.[A-Za-z0-9_-]{10,200}"

# Values their publishers print as stand-ins and never issue, as exact values (and one published
# suffix): AWS's documentation examples (an access key id whose last seven characters are EXAMPLE,
# as in AKIAIOSFODNN7EXAMPLE, and the two example secret access keys the AWS CLI's and IAM's
# guides pair with them), and the account key Azurite, Microsoft's storage emulator, ships to every
# developer for its devstoreaccount1. A key that differs from one of them by a character is a key.
PUBLISHED_EXAMPLE = (
    rb"A(?:KIA|SIA|BIA|CCA)[A-Z0-9]{9}EXAMPLE"
    rb"|wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY|je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY"
    rb"|Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
)

# A letter together with a digit or a symbol: "hunter2x", "pa$$word". Letters alone are too often
# type and variable names (credentials: OAuthCredentials); a header value may also qualify by a
# lower-to-upper step, as base64 of a short user:password pair ("dXNlcjpwYXNz") does.
TEXTURE = rb"(?=.*[A-Za-z]).*(?:[0-9]|[!@#$%^&*+=?~|\\]).*"
HEADER_TEXTURE = rb"(?=.*[A-Za-z]).*(?:[0-9]|[!@#$%^&*+=?~|\\]|[a-z][A-Z]).*"

# Words to the end of their line after a credential name and a spaced separator, up to eight and
# before a comment (password: correct horse battery staple, PASSWORD: Summer 2024!). A word does
# not start with "#", which starts a comment after a space.
PHRASE = (
    rb"[^\s\"'`,;&\\#][^\s\"'`,;&\\]{0,63}(?:[ \t]{1,4}[^\s\"'`,;&\\#][^\s\"'`,;&\\]{0,63}){1,7}"
    rb"(?=[ \t]*(?:\Z|[\r\n]|\\[nr])|[ \t]+#)"
)
# A one-time password's secret as authenticator apps show it to be typed: base32 in groups of four
# (KRUG S4ZA NFZS AYLO, or in lower case), four to eight groups, with a letter and a digit.
GROUPED_KEY = (
    rb"(?=[^\r\n]*[A-Za-z])(?=[^\r\n]*[2-7])"
    rb"(?:[A-Z2-7]{4}(?:[ \t][A-Z2-7]{4}){3,7}|[a-z2-7]{4}(?:[ \t][a-z2-7]{4}){3,7})"
)
# Four words or more of letters alone, in one case (correct horse battery staple, Correct Horse
# Battery Staple): a passphrase. A sentence starts with a capital and goes on in lower case.
_PASSPHRASE_OF = rb"[a-z]+(?:[ \t]+[a-z]+){%d,}|[A-Z][a-z]+(?:[ \t]+[A-Z][a-z]+){%d,}"
PASSPHRASE = _PASSPHRASE_OF % (3, 3)
# Three such words, where a passphrase's own name says they are one (use passphrase "blue monkey river").
SHORT_PASSPHRASE = _PASSPHRASE_OF % (2, 2)
# The words of a sentence's grammar (articles and determiners, pronouns, prepositions,
# conjunctions, auxiliary and modal verbs, adverbs of time and frequency) and of code's (await,
# lambda, return): words that hold one are a sentence (the one from the team vault, leave empty
# for none, synced nightly from prod) or code, not a password.
GRAMMAR_WORD = (
    rb"(?i:a|an|the|this|that|these|those|each|every|all|some|not|nor|its|their|our|your|my|his|her"
    rb"|it|you|we|they|he|she|i|me|us|them|of|in|on|at|to|for|from|with|without|within|by|as|into"
    rb"|onto|under|over|after|before|via|per|than|about|between|through|until|and|or|but|if|so|then"
    rb"|else|when|where|while|unless|because|is|are|was|were|be|been|being|am|has|have|had|do|does"
    rb"|did|can|could|will|would|shall|should|may|might|must|there|here|how|what|which|who|why|only"
    rb"|also|just|e\.g|i\.e|etc|now|later|soon|again|already|still|never|always|often|once|yet|too"
    rb"|very|instead|anymore|above|below|hourly|daily|nightly|weekly|monthly|quarterly|yearly|annually"
    rb"|await|yield|lambda|return|import|elif|except|raise|del|global)"
)

# "for", "of" or "from" in the languages whose "is" the linking words know (du serveur, für den
# Router, del servicio), and in Swedish and Dutch.
OTHER_FOR = rb"du|de|des|pour|f\xc3\xbcr|vom|del|para|da|do|di|per|f\xc3\xb6r|voor|van"
# What a prompt names what it asks for with: a quoted name, a URL or a path (git's Password for
# 'https://bob@github.com', ssh's Enter passphrase for key '/home/u/.ssh/id_ed25519', Enter
# passphrase for /home/u/.ssh/id_rsa); a name's closing quote stands past where a name ends.
PROMPTED_PATH = rb"[~/][^\s:'\"]{0,128}"
URL_SCHEME = rb"[A-Za-z][A-Za-z0-9+.-]{1,15}:"
"""A URL's scheme and its colon (``https:``, ``git+ssh:``)."""
FENCE_OPENING = rb"[ \t]{0,3}(?:```|~~~)[A-Za-z0-9_+-]{0,20}[ \t]*\r?\n"
"""The line that opens a fenced code block in Markdown, with its language."""
# One term of what a credential is for that plain words do not spell: a quoted name, a path, or
# the account or the place it is for as an address or a user at a host (ann@example.com,
# deploy@10.0.0.5) or a URL (https://ci.example.com).
_PURPOSE_TERM = (
    rb"'[^'\r\n]{1,128}(?:'|\Z)|\"[^\"\r\n]{1,128}(?:\"|\Z)|" + PROMPTED_PATH
    + rb"|[A-Za-z0-9_.+-]{1,64}@[A-Za-z0-9_.-]{1,128}|" + URL_SCHEME + rb"//[^\s'\"]{1,128}"
)
# A credential's name followed by what it is for, where it came from, since or until when, in up
# to four words, or a clause that says which it is, in up to seven, or by "again" or "now" alone,
# ending where a linking word follows (the password for the staging DB, the API key of the billing
# service, the password from the seed script, the password until Friday, the password we agreed
# on, the token that the vendor gave us for the portal, the password again; in the languages
# whose "is" the linking words know: le mot de passe du serveur d'exemple, das Passwort für den
# Router); or by the account or the service it opens alone, as those languages put it after the
# noun (le mot de passe admin, la contraseña root, la password wifi).
_PURPOSE_WORD = rb"[ \t]+(?:(?:[A-Za-z0-9_.'-]|" + ACCENTED_LETTER + rb"){1,32}|" + _PURPOSE_TERM + rb")"
PURPOSE = (
    rb"(?P<name>[A-Za-z]" + NAME_CHAR + rb"{0,63})[ \t]+"
    rb"(?:(?:for|of|on|in|at|to|from|after|since|until|till|during|with|between|across|among|" + OTHER_FOR + rb")"
    rb"(?:" + _PURPOSE_WORD + rb"){1,4}|(?:that|which|we|I|you|they)(?:" + _PURPOSE_WORD + rb"){1,7}|again|now"
    rb"|(?i:admin(?:istrat(?:or|eur))?|administrador|amministratore|root|superuser|wifi|wi-fi|wlan|ssh|vpn|sudo))\Z"
)
# What a sentence may say between a credential's name and the "to" or "as" before its new value,
# or the colon before it: the password was changed to ..., the API key has been rotated from ...
# to ..., the token got reset as ..., Password updated: ...
CHANGED = (
    rb"[ \t]+(?:(?:is|are|was|were|has|have|had|got|gets|will|would|should|must|be|been|being|just|now"
    rb"|recently|since|then|also|finally)[ \t]+){0,3}"
    rb"(?:changed|set|reset|updated|rotated|switched|renewed|regenerated|reissued|rolled|replaced|defaults|defaulted|default)"
    rb"(?:[ \t]+from[ \t]+[^\s]{1,64})?\Z"
)
# The type a name is declared with, between its colon and an "=": str, String, Optional[str],
# str | None, String?, Rust's &str and &'static str; and a Go declaration, var apiKey string,
# right before the "=" (the end of the search).
_TYPE = rb"(?:&(?:'[a-z]+[ \t]+)?)?\*?[A-Za-z_][A-Za-z0-9_.]*(?:\[[^\]\r\n=]{0,64}\])?\??"
ANNOTATED_TYPE = rb"[ \t]*" + _TYPE + rb"(?:[ \t]*\|[ \t]*" + _TYPE + rb"){0,4}[ \t]*"
GO_DECLARATION = rb"(?<![A-Za-z0-9_])(?:var|const)[ \t]+(?P<name>[A-Za-z_][A-Za-z0-9_]*)[ \t]+" + _TYPE + rb"[ \t]*\Z"
# ... and SQL's, a variable declared with its type and maybe a size: T-SQL's DECLARE @password
# NVARCHAR(100) = ..., DECLARE @token AS VARCHAR(MAX) = ...
SQL_DECLARATION = (
    rb"(?<![A-Za-z0-9_])(?i:declare)[ \t]+@?(?P<name>[A-Za-z_][A-Za-z0-9_]*)[ \t]+(?:(?i:as)[ \t]+)?[A-Za-z_][A-Za-z0-9_]*"
    rb"(?:[ \t]*\([ \t]*(?:[0-9]{1,5}(?:[ \t]*,[ \t]*[0-9]{1,3})?|(?i:max))[ \t]*\))?[ \t]*\Z"
)
# ... and Visual Basic's, its type after "As": Dim password As String = ..., Private Const ApiKey
# As String = ..., Public Shared ReadOnly Token As String = ...
VB_DECLARATION = (
    rb"(?<![A-Za-z0-9_])(?i:dim|const|private|public|friend|protected|shared|static|readonly)"
    rb"(?:[ \t]+(?i:shared|readonly|const|static))*[ \t]+(?P<name>[A-Za-z_][A-Za-z0-9_]*)[ \t]+(?i:as)[ \t]+" + _TYPE + rb"[ \t]*\Z"
)
MAX_ANNOTATED = 160  # how far before its "=" a typed name may start
MAX_FALLBACKS = 4  # references a chain of fallbacks may give before its literal
MAX_CHANGED = 128  # how far before the linking word or colon that phrase may start
# "Password" in scripts other than Latin's and in Latin words of more than one (the single Latin
# words are credential names, names.py): Japanese, Chinese, Korean, Russian and Ukrainian, Arabic,
# Hebrew, Hindi, Thai, Greek, Turkish, Vietnamese, Indonesian and French, each as it is written.
OTHER_PASSWORD_WORDS = tuple(
    word.encode()
    for word in (
        "パスワード", "暗証番号", "密码", "密碼", "口令", "비밀번호", "пароль", "Пароль", "ПАРОЛЬ",
        "كلمة المرور", "كلمة السر", "סיסמה", "סיסמא", "पासवर्ड", "รหัสผ่าน", "κωδικός πρόσβασης",
        "Κωδικός πρόσβασης", "şifre", "Şifre", "ŞİFRE", "mật khẩu", "Mật khẩu", "kata sandi", "Kata sandi",
        "mot de passe", "Mot de passe", "MOT DE PASSE", "parolă", "Parolă",
    )
)  # fmt: skip
# A password's word, in other languages, that a generated value may follow with no mark between as
# it follows "password" (Passwort Xk9…, пароль Xk9…): the words in Latin letters that
# PASSWORD_WORD knows and the ones above, and Romanian's and Turkish's, whose "is" the linking words
# do not know (parolă, şifre and its possessive şifresi). Italian's "parola" is a word, not a password.
BARE_PASSWORD_WORDS = tuple(
    word.encode()
    for word in (
        "passwort", "kennwort", "contraseña", "senha", "wachtwoord", "lösenord", "passord", "adgangskode",
        "salasana", "hasło", "heslo", "jelszó", "mot de passe", "parolă", "şifre", "şifresi", "Şifre", "Şifresi",
        "пароль", "Пароль", "κωδικός πρόσβασης", "Κωδικός πρόσβασης", "סיסמה", "كلمة المرور", "mật khẩu", "kata sandi",
    )
)  # fmt: skip
# An API key, an access token, a secret or private key, named in those languages as plainly as
# "password" is: Japanese, Chinese, Korean, Russian and Ukrainian, French, Spanish, Portuguese,
# Italian and German. A word that also names a unit of text (トークン, 令牌, токен, 토큰) is left out.
OTHER_KEY_WORDS = tuple(
    word.encode()
    for word in (
        "APIキー", "API キー", "アクセストークン", "アクセスキー", "シークレットキー", "シークレット", "秘密鍵",
        "API密钥", "API 密钥", "密钥", "秘钥", "金鑰", "访问令牌",
        "API 키", "API키", "액세스 토큰", "비밀 키", "비밀키", "시크릿 키",
        "ключ API", "Ключ API", "API-ключ", "API ключ", "секретный ключ", "Секретный ключ", "ключ доступа", "токен доступа",
        "секретний ключ", "токен доступу",
        "clé API", "Clé API", "clé d'API", "clé secrète", "Clé secrète", "jeton d'accès", "Jeton d'accès", "jeton API", "Jeton API",
        "jeton d'API", "Jeton d'API",
        "clave de API", "Clave de API", "clave API", "clave secreta", "Clave secreta",
        "chave de API", "Chave de API", "chave API", "chave secreta", "chiave API", "Chiave API", "chiave segreta",
        "API-Schlüssel", "geheimer Schlüssel",
    )
)  # fmt: skip
LATIN_KEY_WORDS = tuple(word for word in OTHER_KEY_WORDS if all(letter < "\u0250" for letter in word.decode()))
"""Of :data:`OTHER_KEY_WORDS`, those in Latin letters (French, Spanish, Portuguese, Italian, German),
whose words for "is" and "for" are the linking words' and :data:`PURPOSE`'s; none holds a word
:data:`CREDENTIAL_WORD` knows."""
# Words that introduce a user and a password given as a pair (the staging login is admin:...,
# DB creds: app / ..., the admin account is admin@example.com / ..., u/p: admin/..., Kafka's
# SASL: app:...), and how far
# before the user they may stand on its line.
LOGIN_CONTEXT = (
    rb"(?i:(?<![A-Za-z])(?:log[ -]?in|sign[ -]?in|cred(?:s|entials?)|account|user(?:name)?|basic[ \t_-]?auth|sasl|wi-?fi|wlan|ssid"
    rb"|u/pw?)(?![A-Za-z-]))"
)
MAX_LOGIN_CONTEXT = 48
# What a password opens, named right before "pass" or "pw" with no verb (keystore pass ..., wifi pw
# ..., root pass ...): there the word is the password's name, not the verb.
PASS_HOLDER = (
    rb"(?i:key(?:store|chain)?|trust ?store|wi-?fi|wlan|root|sudo|admin|db|database|vault|zip|pfx|p12|jks|ssh|smtp|ftp|vnc|rdp|bios)"
)
MAX_PASS_HOLDER = 24
# The accounts systems come with, which name a login on their own when a spaced slash pairs one with
# a password (Grafana: admin / ..., SSH in with root / ...); not those named after a product or a
# system (postgres, ubuntu), which a slash pairs with another product as often (postgres / mysql8).
DEFAULT_ACCOUNT = rb"(?i:admin(?:istrator)?|root|sa|ec2-user|azureuser|guest|superuser|sysadmin|dbadmin|vagrant)"
# What stands between "password" in those scripts and a value written right after it, with no
# space: Japanese は, Chinese 是, 为 and 為, Korean 는 and 은 (パスワードは..., 密码是...).
OTHER_PARTICLES = tuple(particle.encode() for particle in ("は", "是", "为", "為", "는", "은"))
# A value that a sentence names only after it: "hunter2 is the password", "use Tr0ub4dor&3 as the
# admin password", "Tr0ub4dor&3 (the staging db password)", "Tr0ub4dor&3 - that's the wifi
# password". What ends at the name's first word: "is", "was" or "as", an aside's opening bracket
# after a space, or a comma or a dash and "that's" (that is, that was), a determiner, and up
# to three words that say which (staging, db, Wi-Fi), none of them a negation ("hunter2 is not the
# password"); and what ends at that word: the value, quoted or not, one run of no markup that
# starts a word. Two patterns, each searched where the other ended, so each try fails fast.
NAMING_BEFORE = (
    rb"(?: (?P<link>is|was|as)[ \t]+|[ \t]\(|[ \t]*[,-][ \t]*(?i:that)(?:'s|\xe2\x80\x99s|[ \t]+(?:is|was))[ \t]+)"
    rb"(?:(?:the|a|an|my|our|your|their|its|this|that)[ \t]+)?"
    rb"(?:(?!(?i:not|no|never|also|only)[ \t])[A-Za-z][A-Za-z0-9-]{0,24}[ \t]+){0,3}\Z"
)
MAX_NAMING = 128  # how far before a credential's name "is", "was" or "as" may stand
VALUE_BEFORE = rb"(?<![^\s(\"'`*])(?P<quote>[\"'`]?)(?P<value>[^\s\"'`<>(\[][^\s\"'`<>]{5,127})(?P=quote)[ \t]*\Z"
# A user given right before a password's name in words: "user bob password ...", "username: bob,
# password ...", "the superuser is postgres, pass ...", "log in as root with password ...".
# Searched so that it ends at the name.
USER_BEFORE = (
    rb"(?<![A-Za-z])(?i:(?:super)?user(?:name)?|login|account|(?:log(?:ged)?|sign(?:ed)?)[ -]?in[ \t]+as|connect(?:ed)?[ \t]+as)"
    rb"(?:[ \t]*[:=][ \t]*|[ \t]+(?:(?i:is)[ \t]+)?)[A-Za-z0-9][A-Za-z0-9._%+@-]{0,63}"
    rb"[ \t]*[,/;]?[ \t]*(?:(?i:and|with)[ \t]+(?:(?i:the)[ \t]+)?)?\Z"
)
MAX_USER_BEFORE = 96  # how far before a password's name that user may start
# A login's verb and the "as" that names its user: "log in as bob with ...", "sign in as",
# "connect as", "authenticate as", "ssh in as". Searched so that it ends at the user.
_LOGIN_VERB = rb"(?<![A-Za-z])(?i:(?:log(?:ged)?|sign(?:ed)?)[ -]?in|login|connect(?:ed)?|authenticat(?:e|ed|es)|ssh(?:[ \t]+in)?)"
# ... and "as", or "into" and what it logs into first (log into staging as admin with ...).
LOGIN_AS = _LOGIN_VERB + rb"(?:(?<=[Ii][Nn])(?i:to)(?:[ \t]+[^\s]{1,32}){1,3})?[ \t]+(?i:as)[ \t]+\Z"
LOGIN_WITH = _LOGIN_VERB + rb"[ \t]+(?i:with|using)[ \t]+\Z"
"""A login's verb and "with" right before the user a pair gives (log in with deploy and ...)."""
LOGIN_TO_WITH = (
    _LOGIN_VERB + rb"(?:(?:(?<=[Ii][Nn])|[ \t]+)(?i:to)(?:[ \t]+[^\s]{1,32}){1,3})?[ \t]+(?i:with|using)[ \t]+\Z"
)
"""... or before the password alone, maybe after what it logs into (log into the dashboard with ...)."""
MAX_LOGIN_AS = 64  # how far before the user that verb may start
MAX_GIVEN = 64  # how far before a value given "as" a credential, or a credential's name, its verb may stand
GIVING_VERB = (
    rb"(?<![A-Za-z])(?i:use|used|using|uses|set|sets|setting|enter|entered|type|typed|pick|picked|choose|chose"
    rb"|try|tried|put|paste|pasted|give|gave|supply|supplied|provide|provided|pass|passed|with)[ \t]"
)
# A verb that gives a credential right before its name: "log in with password ...", "use the
# staging db password ...". Up to two words may say which credential. Searched so that it ends at
# the name.
GIVEN_BEFORE = (
    GIVING_VERB + rb"[ \t]*(?:(?i:the|a|an|this|that|my|our|your|their)[ \t]+)?(?:[A-Za-z][A-Za-z0-9-]{0,24}[ \t]+){0,2}\Z"
)
MAX_ASIDE = 48  # how long an aside in brackets between a credential's name and its colon may be
# A description that prose gives after "is" or "to": a word or number joined by a hyphen to a
# lower-case word (HS256-signed, base64-encoded, 256-bit, sha1-only), never a generated value.
# The name of an algorithm or an encoding is described the same way (the secret is sha256).
DESCRIPTION = (
    rb"[A-Za-z0-9]{1,16}(?:-[a-z]{2,16}){1,3}"
    rb"|(?i:(?:hmac-?)?sha-?(?:1|224|256|384|512)|md5|aes-?(?:128|192|256)(?:-[a-z]{3})?|[rhep]s(?:256|384|512)"
    rb"|ed25519|ed448|x25519|p-?(?:256|384|521)|argon2(?:id|i|d)?|pbkdf2|rsa-?(?:1024|2048|3072|4096)"
    rb"|utf-?(?:8|16|32)|base(?:16|32|58|64)(?:url)?|v[0-9]{1,3}(?:\.[0-9]{1,3}){0,2}"
    rb"|oauth-?[12](?:\.[0-9])?|saml-?2(?:\.0)?|http-?[123](?:\.[01])?|tls-?1(?:\.[0-3])?|ipv[46]|x\.?509"
    rb"|pkcs-?(?:1|7|8|11|12)|ecdsa-?p?(?:256|384|521)|uuid-?v?[1-8]"
    # A tokenizer's encoding (the token is cl100k), and a quantity with its unit (is 8chars long).
    rb"|(?:cl100k|o200k|p50k|r50k)(?:_base|_edit)?"
    rb"|[0-9]{1,5}(?:chars?|characters|bytes?|bits?|digits?|days?|hours?|hrs?|mins?|minutes?|secs?|seconds?"
    rb"|weeks?|months?|years?|kb|mb|gb|ms))"
)

# What prose names after a credential word that is no credential: a class or type name
# (ERC20Token, T5Tokenizer), an address (0x and 40 hex digits), a digest with its algorithm
# (sha256:..., sha512-...), a version with a suffix (v1.2.3-beta), a Windows path (C:/Users/...),
# words joined by slashes (MyApp/Prod/DbCreds names where a secret is kept), a time (ISO 8601), a
# host and port, an image reference and a model's name (org/Model-7B).
NAMED_THING = (
    rb"(?:[A-Z][a-z]?[0-9]{1,6})?(?:[A-Z]{0,6}[0-9]{0,6}[A-Z][a-z]{2,})+"
    rb"|0x[0-9A-Fa-f]{40}"
    rb"|(?i:sha(?:1|224|256|384|512)|md5|blake2[bs]?)[:-][A-Za-z0-9+/=]+"
    rb"|v?[0-9]{1,4}(?:\.[0-9]{1,4}){1,3}(?:-[A-Za-z0-9.]{1,32})?(?:\+[A-Za-z0-9.]{1,32})?"
    rb"|[A-Za-z]:[/\\].*"
    rb"|[A-Z]?[a-z]+(?:[A-Z][a-z]+)*-?[0-9]{0,4}(?:/[A-Z]?[a-z]+(?:[A-Z][a-z]+)*-?[0-9]{0,4})+"  # KeyVault/Prod-2
    rb"|[0-9]{4}-[0-9]{2}-[0-9]{2}(?:[T ][0-9]{2}:[0-9]{2}(?::[0-9]{2})?(?:\.[0-9]{1,9})?)?(?:Z|[+-][0-9]{2}:?[0-9]{2})?"
    rb"|[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*:[0-9]{1,5}"  # a host and port
    rb"|[a-z0-9-]+(?:\.[a-z0-9-]+)*(?:/[a-z0-9._-]+)+(?::[A-Za-z0-9._-]{1,64})?"  # an image: ghcr.io/acme/app:v1.2
    rb"|[A-Za-z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)*/[A-Za-z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)+"  # a model: Qwen/Qwen2.5-7B
)

# A class name with digits in it (Ed25519PrivateKey, PKCS7PrivateKeyTypes, OAuth2Token): blocks
# of an optional acronym, optional digits and a capitalised word of three letters or more, with at
# least two such words. Short base64 ("ZmFrZTpleGFt") steps between cases too often to pass.
TYPE_NAME = rb"(?:[A-Z][a-z]?[0-9]{1,6})?(?:[A-Z]{0,6}[0-9]{0,6}[A-Z][a-z]{2,})+"
WORD = rb"[A-Z][a-z]{2,}"
# With a digit among them, random letters and digits pass for such a name about once in a few
# hundred draws of eight to twenty ("F3CgqEoc", "Iuoi75Zkjg"), so a name with a digit also needs
# words that are words: each with a vowel, or one of the abbreviations type names spell without
# one (Http2Connection, Aes256GcmCipher), and one of five letters or more (Private, Token).
SPOKEN_WORD = (
    rb"[A-Z][a-z]*[aeiouy][a-z]*|[AEIOUY][a-z]+"
    rb"|(?:Http|Https|Xml|Sql|Tcp|Udp|Rpc|Grpc|Ssl|Tls|Dns|Jwt|Jwk|Jws|Ssh|Gpg|Pgp|Smtp|Ftp|Sftp|Html|Css"
    rb"|Crc|Gcm|Cbc|Ctr|Ecb|Kdf|Hkdf|Pbkdf|Cfg|Ctx|Msg|Mgr|Svc|Src|Pkg|Std|Cmd|Str|Cls|Hdr|Txn|Ttl|Csv|Pdf|Png|Svg)"
)
LONG_WORD = rb"[A-Z][a-z]{4,}"


TOKEN_RUN = rb"[A-Za-z0-9_.~+/%=-]{16}"  # what every token of :mod:`.providers` has somewhere
URLSAFE_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
"""The characters of that run (base64url), as byte values."""
