"""Quoted values after a credential name: a string holds a password whatever characters it has.

Unquoted, a value that starts with ``$``, ``<`` or ``{`` or has a bracket in it is code or a
template (a shell or a YAML file would not take it bare). Inside quotes those characters are a
password's own (``"Tr0ub(4dor&3xZ"``, ``"#9fK2mL!xqW"``, a Django ``SECRET_KEY``), and only a whole
template or reference (``"${DB_PASSWORD}"``, ``'os.environ["DB_PASSWORD"]'``) stands for a value.
Capitalised words are a type in code (``password: SecretStr``) and a passphrase in quotes
(``"CorrectHorseBatteryStaple"``).
"""

from __future__ import annotations

import re
import string
import threading

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from tact_memory.screening import buffers
from tact_memory.screening.credentials import find_secret

from .test_credentials import SHORT_CREDENTIAL_NAMES, coincides_with_a_kind_name, shares_a_run
from .test_sentences import mixed

QUOTED_FORMS = [
    '{n}="{v}"', "{n}='{v}'", '{n} = "{v}"', "{n}: '{v}'", '"{n}": "{v}"', '{{"{n}": "{v}"}}',
    'export {n}="{v}"', "{n} => '{v}',", '{n}: "{v}"  # prod', '{{\\"{n}\\": \\"{v}\\"}}',
]  # fmt: skip

SYMBOL_PASSWORDS = [
    "Tr0ub(4dor&3xZ", "#9fK2mL!xqW", "$9fK2mL!xqW", "%9fK2mL!xqW", "<9fK2mL!xqW", "{9fK2mL!xqW", "[9fK2mL!xqW",
    "(9fK2mL!xqW", "p@ss[word]2024!", "Zq8(vN2#pL5!", "$Tr0ub4dor&3", "$Tr0ub4dor3", "Tr0ub(4dor)", "hunter2()",
    "!Secret", "/e.9M=haX(#@w*8Nk+7B", "x=4b%0p%)zcyc3e", "My-Prod-Passw0rd!", "my-Pr0d-pass!", "Your_Pass_2024",
    "yt46htxpo@63(yo*3*l!*s3tu86wnqqqb645us0amo8y1vj(rn",
]  # fmt: skip


@pytest.mark.parametrize("value", SYMBOL_PASSWORDS)
@pytest.mark.parametrize("form", QUOTED_FORMS)
def test_a_quoted_password_with_symbols_is_refused(value: str, form: str) -> None:
    assert find_secret(form.format(n="DB_PASSWORD", v=value)) == "credential_assignment"


@pytest.mark.parametrize("value", ["my horse battery staple", "My Pass 2024!", "my cat likes tuna", "my dog Rex 2019!"])
@pytest.mark.parametrize("form", QUOTED_FORMS[:4])
def test_a_passphrase_that_starts_with_my_is_still_refused(value: str, form: str) -> None:
    # only "your" or "my" and up to three words before a credential's word is a stand-in phrase
    assert find_secret(form.format(n="DB_PASSWORD", v=value)) == "credential_assignment"


QUOTED_STAND_INS = [
    # templates and environment references, as the whole value
    "${DB_PASSWORD}", "${{ secrets.DB_PASSWORD }}", "$DB_PASSWORD", "$db_password", "$dbPassword", "$this->password",
    "$(pass show db/prod)", "%DB_PASSWORD%", "%(password)s", "%s", "<your-password>", "<password>", "{password}",
    "{0}", "{{ db_password }}", "{{ .Values.db.password | b64enc }}", "{% raw %}", "#{db_password}",
    "${DB_USER}:${DB_PASSWORD}", "{user}:{password}", "[REDACTED]", "(hidden)", "(not set)",
    # calls and subscripts in code's own names
    "get_secret()", "os.getenv(DB_PASSWORD)", "env[DB_PASSWORD]", "vault.read(path).data", "secrets[0]",
    # phrases, paths and option lists
    "your-password-here", "my_secret_key", "insert-password-here", "/run/secrets/db_password", "~/.config/app/token",
    "id=npmrc,src=$HOME/.npmrc", "********", "changeme", "None", "SecretStr", "settings.DB_PASSWORD", "dbPassword",
    # the same phrases with spaces, as SDK READMEs write them; typeshed's stand-in type
    "My API Key", "your api key", "Your Token Here", "YOUR DB PASSWORD", "my password", "Incomplete",
]  # fmt: skip


@pytest.mark.parametrize("value", QUOTED_STAND_INS)
@pytest.mark.parametrize("form", QUOTED_FORMS[:8])
def test_a_whole_template_or_reference_in_quotes_is_kept(value: str, form: str) -> None:
    assert find_secret(form.format(n="DB_PASSWORD", v=value)) is None


# A sentence that names the credential, maybe with what it is for or how it changed, and quotes the
# value after a linking word: judged as after a separator, the value whole.
SENTENCE_FORMS = [
    'the password is "{v}"', 'the password for prod is "{v}"', 'the staging db password was changed to "{v}"',
    "the API key for billing is '{v}'",
]  # fmt: skip


@pytest.mark.parametrize("value", QUOTED_STAND_INS)
@pytest.mark.parametrize("form", SENTENCE_FORMS)
def test_a_whole_template_or_reference_quoted_in_a_sentence_is_kept(value: str, form: str) -> None:
    # Trimming a clause's punctuation takes the closing brace off "${DB_PASSWORD}"; the value is
    # still judged whole, so it stays a template (before, eight of these were refused).
    assert find_secret(form.format(v=value)) is None


@pytest.mark.parametrize("value", SYMBOL_PASSWORDS)
@pytest.mark.parametrize("form", SENTENCE_FORMS)
def test_a_quoted_password_with_symbols_in_a_sentence_is_refused(value: str, form: str) -> None:
    assert find_secret(form.format(v=value)) == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        """DB_PASSWORD = 'os.environ["DB_PASSWORD"]'""",
        """DB_PASSWORD = "os.environ['DB_PASSWORD']\"""",
        """password: 'get_secret("db")'""",
        """password: 'os.getenv("DB_PASSWORD", "dev")'""",
        """password: "{{ secrets['DB_PASSWORD'] }}\"""",
        """password: '{{ required "set the password" .Values.password }}'""",
        """DB_PASSWORD='$(pass show "db/prod")'""",
        """password: "<%= ENV['DB_PASSWORD'] %>\"""",
        """password: "#{ENV['DB_PASSWORD']}\"""",
    ],
)
def test_a_template_or_call_that_holds_a_string_of_its_own_is_kept(text: str) -> None:
    # The value ends at the inner string's quote; what comes before it is an opening, not a password.
    assert find_secret(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "DB_PASSWORD=$DB_PASSWORD_FROM_VAULT",
        "password: ${DB_PASSWORD}",
        "password = get_password()",
        'api_key = os.environ["API_KEY"]',
        "token: !vault |",
        "password: <your-password>",
        "password: [REDACTED]",
    ],
)
def test_unquoted_templates_and_code_are_kept_as_before(text: str) -> None:
    assert find_secret(text) is None


# Printable ASCII without white space, quotes and backslashes: what fits inside a quoted value.
PRINTABLE = "".join(c for c in string.printable[:94] if c not in "\"'`\\")
# A symbol no path, option list, e-mail address or identifier has.
SHELL_SYMBOL = re.compile(r"[!#&()*;<>?\[\]^{|}]")
# What the whole value must not be for the test to hold: a template or a call as a whole, a URL, or
# a reference by scheme (op:..., vault:...). Any other value with such a symbol is a password.
STAND_IN_SHAPE = re.compile(
    r"[{<\[(].*[}>\])]|[$%#][{(].*[})]|%.*%|\$\w+|[A-Za-z_.]+[(\[].*[)\]]|.*://.*|.*<[A-Za-z]+>.*"
    r"|(?i:arn|vault|op|env|file|ssm|sm|gsm|keyvault|secretsmanager|ref|fd|pass):.*"
    # a regular expression's shape: a group such as (?:...), or a class with a range and a quantifier
    r"|.*\(\?(?:[:=!#]|P?<).*|.*\[[^\]]*[A-Za-z0-9]-[A-Za-z0-9][^\]]*\][*+?{(\[].*"
)
# What the screen trims from a value's end before judging it.
TRAILING = buffers.TRAILING.decode()
random_passwords = st.text(PRINTABLE, min_size=10, max_size=40).filter(
    lambda v: SHELL_SYMBOL.search(v.rstrip(TRAILING)) is not None  # not only the punctuation that closes a clause
    and re.search(r"[A-Za-z]", v) is not None
    and re.search(r"[0-9]", v) is not None
    and len(set(v)) >= 4
    # not a mask: "0000000A>)" is 0s and an A before the punctuation that could close a clause,
    # which the screen keeps as it keeps xxxx or aaaa1111
    and len(set(v.rstrip(TRAILING))) >= 3
    and STAND_IN_SHAPE.fullmatch(v) is None
)


@given(name=st.sampled_from(SHORT_CREDENTIAL_NAMES), form=st.sampled_from(QUOTED_FORMS), value=random_passwords)
def test_any_quoted_password_with_symbols_is_refused_without_echo(name: str, form: str, value: str) -> None:
    text = form.format(n=name, v=value)
    kind = find_secret(text)
    assert kind == "credential_assignment", text
    assume(not coincides_with_a_kind_name(value))
    assert not shares_a_run(kind, value)


@given(form=st.sampled_from(SENTENCE_FORMS), value=random_passwords)
def test_any_quoted_password_with_symbols_in_a_sentence_is_refused_without_echo(form: str, value: str) -> None:
    text = form.format(v=value)
    kind = find_secret(text)
    assert kind == "credential_assignment", text
    assume(not coincides_with_a_kind_name(value))
    assert not shares_a_run(kind, value)


DJANGO_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789!@#$%^&*(-_=+)"  # get_random_secret_key()


@given(key=st.text(DJANGO_ALPHABET, min_size=50, max_size=50).filter(lambda k: len(set(k)) >= 8))
def test_a_generated_django_secret_key_is_refused(key: str) -> None:
    assert find_secret(f"SECRET_KEY = 'django-insecure-{key}'") == "django_secret_key"  # its own prefix says so
    assert find_secret(f'SECRET_KEY = "{key}"') == "credential_assignment"


# Lines of code from installed packages (pygments, urllib3, click, anthropic, openai, fontTools,
# textual, agents) that name a credential and quote code rather than a value.
CODE_IN_QUOTES = [
    'token = r"[-!#$%&\'*+.^_`|~0-9a-zA-Z]+"',
    "jsonnet_token = r'[^\\W\\d]\\w*'",
    'TOKEN = "[a-zA-Z_][a-zA-Z0-9_-]*"',
    '_HEX_PAT = "[0-9A-Fa-f]{1,4}"',
    '_LS32_PAT = "(?:{hex}:{hex}|{ipv4})".format(hex=_HEX_PAT, ipv4=_IPV4_PAT)',
    '_IPV6_PAT = "(?:" + "|".join([x % _subs for x in _variations]) + ")"',
    '_UNRESERVED_PAT = r"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._\\-~"',
    "longopt_pat = r'[a-zA-Z](?:[a-zA-Z0-9-]*)'",
    "ident_pattern_token = f'([{uni.xid_start}][{uni.xid_continue}]+)|[{uni.xid_start}]'",
    "LANG_KEY = f'{__name__}.lang'",
    "api_key = `${prefix}-${suffix}`",
    '_token = "(%s)|(%s)|(%s)" % (_instruction, _number, _comment)',
    'def reset_current_span(cls, token: "contextvars.Token[Span[Any] | None]") -> None:',
    'request.headers["Authorization"] = f"Bearer {self._get_token()}"',
    'request.headers["Authorization"] = f"Bearer {await self._ensure_access_token()}"',
    'headers["Authorization"] = f"Basic {base64.b64encode(data).decode()}"',
    'headers["authorization"] = "Basic " + b64encode(b(basic_auth)).decode("utf-8")',
    'Token: "#ddd0c0",',
    'Token.String: "#AB0909",',
    'Token.String: "$text-success",',
]


@pytest.mark.parametrize("line", CODE_IN_QUOTES)
def test_code_in_quotes_is_kept(line: str) -> None:
    assert find_secret(line) is None


# A terminal's escape sequence in quotes is a colour or a cursor move, as a test runner names one
# for a result (PASS = '\033[92m'), whatever the name: the escape byte written as code writes it,
# or as captured output holds it.
terminal_escapes = st.builds(
    lambda escape, params, final, text: f"{escape}[{';'.join(map(str, params))}{final}{text}",
    st.sampled_from(["\\033", "\\33", "\\x1b", "\\x1B", "\\u001b", "\\e", "\x1b"]),
    st.lists(st.integers(0, 107), min_size=1, max_size=3),
    st.sampled_from("mHJKG"),
    st.sampled_from(["", "PASS", "OK", "Pass 12"]),
)


@given(name=st.sampled_from([*SHORT_CREDENTIAL_NAMES, "PASS", "pass"]), form=st.sampled_from(QUOTED_FORMS[:9]), value=terminal_escapes)
def test_a_terminal_escape_in_quotes_is_kept(name: str, form: str, value: str) -> None:
    text = form.format(n=name, v=value)
    assert find_secret(text) is None, text


@pytest.mark.parametrize(
    "text",
    [
        'token = "Tr0ub(4dor&3xZ"',  # a string, not raw: a bracket is a password's
        'TOKEN = "[x9Q]Tr0ub4dor"',  # a class with no range or quantifier after it
        'password = "f{Tr0ub4dor}3"',  # braces in a string that is no f-string
        'Token: "#ddd0c0x1!"',  # more than a colour
        'api_key = "$Tr0ub-4dor"',  # a style variable is lower case
        'password = "(?:Tr0ub4dor"',  # a group opened and never closed, then more
    ],
)
def test_the_same_shapes_with_a_password_are_refused(text: str) -> None:
    assert find_secret(text) == "credential_assignment"


PASSPHRASES = [
    "CorrectHorseBatteryStaple", "SummerVacation", "HunterFalcon", "PurpleMonkeyDishwasher", "Ed25519PrivateKey",
    "OAuth2Token", "QwErTyUiOp", "CXcFpWDjNGxB", "vvklTtzstkjPAsSH",  # random letters that hold "pWD" or "PAsS"
]  # fmt: skip


@pytest.mark.parametrize("value", PASSPHRASES)
@pytest.mark.parametrize("form", QUOTED_FORMS)
def test_capitalised_words_in_quotes_are_a_passphrase(value: str, form: str) -> None:
    assert find_secret(form.format(n="DB_PASSWORD", v=value)) == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "password: SecretStr",
        "password = PasswordField",
        "token: OAuth2Token",
        "api_key: ApiKeyHeader = ApiKeyHeader(name='x-api-key')",
        "auth: BearerAuth | None = None",
        '"password": "SecretStr"',
        'password: "dbPassword"',
    ],
)
def test_type_names_in_code_are_kept(text: str) -> None:
    assert find_secret(text) is None


# Words as people join them into a passphrase, or a generator draws letters: capitalised runs.
words = st.text(string.ascii_lowercase, min_size=2, max_size=9).map(str.capitalize)
passphrases = st.lists(words, min_size=2, max_size=5).map("".join).filter(
    lambda v: len(v) >= 6
    and len(set(v)) >= 4
    and not re.search(r"(?i)pass|pwd|secret|token|credential|api_?key", v)  # dbPassword names a variable
    and v.lower() not in {"changethis", "changeme", "changeit"}
)
mixed_case = st.text(string.ascii_letters, min_size=8, max_size=24).filter(
    lambda v: re.search(r"[a-z]", v) is not None
    and re.search(r"[A-Z]", v) is not None
    and len(set(v)) >= 4
    and not re.search(r"(?i)pass|pwd|secret|token|credential|api_?key", v)
)


@given(name=st.sampled_from(SHORT_CREDENTIAL_NAMES), form=st.sampled_from(QUOTED_FORMS), value=passphrases | mixed_case)
def test_any_quoted_mixed_case_passphrase_is_refused_without_echo(name: str, form: str, value: str) -> None:
    text = form.format(n=name, v=value)
    kind = find_secret(text)
    assert kind == "credential_assignment", text
    assume(not coincides_with_a_kind_name(value))
    assert not shares_a_run(kind, value)


ADVERSARIAL: dict[str, str | None] = {
    # Built to make the stand-in patterns backtrack: long runs of template and call openings that
    # fail at their last byte. A quoted value stops at 256 bytes; the verdicts were checked by hand.
    'password = "' + "$a." * 300: "credential_assignment",  # cut after a "$": no reference
    'password = "' + "${x" * 300: "credential_assignment",  # never closed
    'password = "' + "a(b" * 300: "credential_assignment",
    'password = "' + "ab." * 300: "credential_assignment",
    "password = '" + "ab." * 80 + 'ab("': None,  # a call whose argument is a string of its own
    'password = "' + "{ab}" * 60 + '!"': "credential_assignment",
    'password = "' + "{ab}" * 64 + '"': None,  # templates joined, as "{user}{password}"
    'password = "' + "${a}_" * 50 + '!"': "credential_assignment",
    'password = "' + "a(b)" * 60 + '!"': "credential_assignment",
    "password = '" + "os.environ[" * 20 + '"': "credential_assignment",
    "password = '" + "a[b]." * 40 + "c['": "credential_assignment",
    'password = "' + "%ab" * 80 + '"': "credential_assignment",
    'password = "/' + "ab/" * 80 + '!"': "credential_assignment",
    'password = "' + "a=b," * 60 + '!"': "credential_assignment",
    'password = "' + "$_x" * 85 + "!": "credential_assignment",
    'password = "' + "[ab " * 60 + '!"': "credential_assignment",
    "password = '" + "<%= " * 60 + '"': "credential_assignment",  # longer than a template's opening
    "password = '" + "your-" * 50 + "here!'": "credential_assignment",
    'token: "' + "a[b[c" * 50 + '"': "credential_assignment",  # subscripts nested past one level
    'token: "' + "a[" + "[b]" * 80 + '!"': "credential_assignment",
    'password = "' + "(%s)|" * 50 + '!"': "credential_assignment",  # joiners around templates
    'password = "' + "(" * 250 + '"': None,  # two distinct bytes: a mask
    'password = "' + "([a-b]" * 40 + '"': None,  # classes with a range and another class after them
    'password = "' + "[a-" * 80 + '"': "credential_assignment",
    'password = "' + "(?:a" * 60 + '"': "credential_assignment",
    'headers["Authorization"] = f"Bearer {' + "a(b)." * 40 + '}"': None,  # an f-string's interpolation
}


def test_adversarial_quoted_values_get_their_verdicts_without_hanging() -> None:
    verdicts: dict[str, str | None] = {}
    worker = threading.Thread(target=lambda: verdicts.update({t: find_secret(t) for t in ADVERSARIAL}), daemon=True)
    worker.start()
    worker.join(timeout=60)
    assert not worker.is_alive(), "screening did not finish: catastrophic backtracking?"
    assert verdicts == ADVERSARIAL


# A credential's name and its value as a call's first two arguments (forms from the outside
# review: PHP's define, Python's os.environ.setdefault, Go's os.Setenv, Java's setProperty and
# put, C's setenv, requests' auth pair), beside calls that name a credential and hold no value:
# a tuple of names, a default, a label, a flag's short form, a variable, a template.
REFUSED = "credential_assignment"
CALLS: list[tuple[str, str | None]] = [
    ("define('DB_PASSWORD', 'Xk9mP2vFAKE');", REFUSED),
    ('os.environ.setdefault("API_KEY", "9f8e7d6c5b4a3f2e1d0c")', REFUSED),
    ('os.Setenv("AWS_SECRET_ACCESS_KEY", "FAKEwJalrXUtnEXAMPLE/K7MDENG+bPxRfiCY07e")', REFUSED),
    ('System.setProperty("db.password", "S3cr3t!Pass");', REFUSED),
    ('props.put("password", "S3cr3t!Pass");', REFUSED),
    ('headers.put("X-Api-Key", "3a16750dd36341a48ebd035408f7730f");', REFUSED),
    ('setenv("DB_PASSWORD", "S3cr3t!Pass", 1);', REFUSED),
    ("config.set('api_key', '9f8e7d6c5b4a3f2e1d0c')", REFUSED),
    ('requests.get(url, auth=("admin", "S3cr3tP@ss"))', REFUSED),
    ('es = Elasticsearch(url, basic_auth=("elastic", "S3cr3tP@ss"))', REFUSED),
    ('Elasticsearch(hosts, http_auth=("elastic", "S3cr3tP@ss"))', REFUSED),
    ("session.auth = ('deploy', 'hunter2')", REFUSED),
    ('fields = ("password", "email")', None),
    ('REQUIRED = ["token", "expires_at"]', None),
    ('os.environ.get("API_KEY", "default")', None),
    ('os.getenv("DB_PASSWORD", "")', None),
    ('_("password", "Passwort")', None),
    ('parser.add_argument("--password", "-p")', None),
    ('rename("token", "access_token")', None),
    ('requests.get(url, auth=("admin", password))', None),
    ('Elasticsearch(url, basic_auth=("elastic", password))', None),
    ('auth=("user", "${PASSWORD}")', None),
    ('getattr(settings, "SECRET_KEY", None)', None),
    ('check("token", "expired")', None),
    # the name as a Ruby symbol
    ('config.fetch(:api_key, "9f8e7d6c5b4a3f2e1d0c")', REFUSED),
    ("set(:password, 'S3cr3t!Pass')", REFUSED),
    ('fetch(:api_key, "none")', None),
    ('x = (:password, "S3cr3t!Pass")', None),
    ('fetch(:token, ENV["TOKEN"])', None),
    ('config.fetch(:name, "Acme2024!")', None),
    # WordPress's wp-config.php puts spaces inside the brackets and aligns the values.
    ("define( 'DB_PASSWORD', 'Xk9mP2vFAKE' );", REFUSED),
    ("define( 'AUTH_KEY',         'k9#Xq2!vL8@mZ4$pR7^tW1&yB5*nC3(d' );", REFUSED),
    ('define(\t"DB_PASSWORD", "Xk9mP2vFAKE" );', REFUSED),
    ("define( 'AUTH_KEY',         'put your unique phrase here' );", None),
    ("define( 'DB_PASSWORD', 'password_here' );", None),
    ("fields = ( 'password', 'Xk9mP2vFAKE' )", None),
    # configparser's set(section, option, value): the name is the second argument
    ('cfg.set("db", "password", "S3cr3t!Pass")', REFUSED),
    ("parser.set( 'server', 'api_key', '9f8e7d6c5b4a3f2e1d0c' )", REFUSED),
    ('cfg.set("db", "password", os.environ["PW"])', None),
    ('cfg.set("db", "password", "")', None),
    ('fields = ("db", "password", "S3cr3t!Pass")', None),
    ('f(g("x"), "password", "S3cr3t!Pass")', None),
    # a constant that names a credential, in upper case, maybe after a class or a module
    ('curl_setopt($ch, CURLOPT_PASSWORD, "S3cr3t!Pass");', REFUSED),
    ('curl_easy_setopt(curl, CURLOPT_KEYPASSWD, "S3cr3t!Pass");', REFUSED),
    ('env.put(Context.SECURITY_CREDENTIALS, "S3cr3t!Pass");', REFUSED),
    ('c.setopt(pycurl.PASSWORD, "S3cr3t!Pass")', REFUSED),
    ('cfg.set(Keys.DB_PASSWORD, "9f8e7d6c5b4a3f2e1d0c")', REFUSED),
    ('config->set(Config::DB_PASSWORD, "S3cr3t!Pass")', REFUSED),
    ('env.put(Context.SECURITY_CREDENTIALS, password);', None),
    ('headers = (TOKEN, "Bearer")', None),
    ('raise KeyError(API_KEY, "missing")', None),
    ('translate(PASSWORD, "Passwort")', None),
    ('case PASSWORD, "S3cr3t!Pass":', None),
    ('fields = [PASSWORD, "S3cr3t!Pass"]', None),
    # a pair of a name and its value in brackets, as an element of a list or a map (a tuple alone,
    # or one of three, is as often one of names), an atom's pair in braces, Kotlin's "to"
    ('data = [("username", "ann"), ("password", "S3cr3t!Pass")]', REFUSED),
    ('requests.post(url, data=[\n    ("password", "S3cr3t!Pass"),\n])', REFUSED),
    ('std::map<std::string, std::string> cfg = {{"password", "S3cr3t!Pass"}};', REFUSED),
    ("rows = [['api_key', '9f8e7d6c5b4a3f2e1d0c']]", REFUSED),
    ('[{epgsql, [{host, "db.internal"}, {password, "S3cr3t!Pass"}]}].', REFUSED),
    ('config :app, App.Repo, [{:password, "S3cr3t!Pass"}]', REFUSED),
    ('{password, "S3cr3t!Pass"}', REFUSED),
    ('val params = mapOf("username" to "ann", "password" to "S3cr3t!Pass")', REFUSED),
    ('("password", "S3cr3t!Pass")', None),
    ('x = [("db", "password", "S3cr3t!Pass")]', None),
    ('choices = [("password", "Password"), ("token", "API Token")]', None),
    ('pairs = [("password", "email"), ("token", "none")]', None),
    ('{password, "email"}', None),
    ('{token, "none"}', None),
    ('{x, "S3cr3t!Pass"}', None),
    ('{password, "S3cr3t!Pass", 3}', None),
    ('mapOf("password" to "email")', None),
    ('rename "token" to "access_token"', None),
]


@pytest.mark.parametrize(("text", "verdict"), CALLS)
def test_a_name_and_its_value_given_to_a_call(text: str, verdict: str | None) -> None:
    assert find_secret(text) == verdict


PASSPHRASES = ["correct horse battery staple", "Correct Horse Battery Staple", "purple monkey dishwasher lantern orbit"]


@pytest.mark.parametrize("phrase", PASSPHRASES)
@pytest.mark.parametrize(
    "sentence",
    [
        'the passphrase is "{p}"', "the wifi password is '{p}'", 'use the password "{p}" for the guest network',
        # what it is for, or how it changed, between the name and the linking word
        'the password for the guest network is "{p}"', "the wifi password was changed to '{p}'",
        'The root password for the dev box is "{p}"',
    ],
)  # fmt: skip
def test_a_quoted_passphrase_in_a_sentence_is_refused(sentence: str, phrase: str) -> None:
    # As after a name and a separator (passphrase: correct horse battery staple).
    assert find_secret(sentence.format(p=phrase)) == "credential_assignment"


@pytest.mark.parametrize("phrase", ["blue monkey river", "Blue Monkey River", "velvet orbit canyon"])
@pytest.mark.parametrize(
    "sentence",
    ['use passphrase "{p}" for the gpg key', 'the passphrase is "{p}"', "the passphrase for the gpg key is '{p}'", 'the pass phrase "{p}"'],
)
def test_three_quoted_words_after_a_passphrases_own_name_are_refused(sentence: str, phrase: str) -> None:
    # A passphrase is words by its name; after a password's, three words are kept (below).
    assert find_secret(sentence.format(p=phrase)) == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        'the passphrase is "the one on the fridge"',
        'the password is "Reset Your Password Now"',
        'the token is "valid for thirty days"',
        'the password is "see the team vault"',
        'the password field says "enter your password here"',
        'the token is "three words only"',
        'the password for the dev box is "the one on the fridge"',
        'the password for the form is "Required"',
        'the password is "blue monkey river"',
        'the passphrase "is not set"', 'set the passphrase "ask the admin"', 'the passphrase label "Confirm New Passphrase"',
        'ssh-keygen asks for a passphrase "twice by default"',
    ],
)
def test_quoted_words_that_are_a_sentence_or_short_are_kept(text: str) -> None:
    assert find_secret(text) is None


@given(text=st.binary(max_size=40), data=st.data())
def test_reclosed_adds_only_brackets_the_value_opened(text: bytes, data: st.DataObject) -> None:
    buffer = bytearray(text)
    start = data.draw(st.integers(0, len(buffer)))
    end = data.draw(st.integers(start, len(buffer)))
    whole = buffers.reclosed(buffer, start, end)
    assert end <= whole <= len(buffer)
    pairs = {ord(")"): ord("("), ord("]"): ord("["), ord("}"): ord("{")}
    for at in range(end, whole):
        close = buffer[at]
        assert close in pairs
        assert buffer.count(pairs[close], start, at) > buffer.count(close, start, at)
    if whole < len(buffer) and buffer[whole] in pairs:  # it stopped at a bracket the value did not open
        assert buffer.count(pairs[buffer[whole]], start, whole) <= buffer.count(buffer[whole], start, whole)


@given(name=st.from_regex(r"[A-Z_][A-Z0-9_]{0,15}", fullmatch=True), tail=st.text(buffers.TRAILING.decode(), max_size=3))
def test_reclosed_gives_a_template_back_the_braces_trimming_took(name: str, tail: str) -> None:
    for template in (f"${{{name}}}", f"$({name})", f"{{{{ {name} }}}}", f"#{{{name}}}"):
        buffer = bytearray(f'is "{template}"{tail}'.encode())
        start = 4
        end = start + len(template)
        assert buffers.reclosed(buffer, start, buffers.trimmed(buffer, start, end)) == end


# A list, a tuple or a set of strings under a credential's name: a key kept beside its rotated one
# (Django's SECRET_KEY_FALLBACKS), several accounts' passwords, a pool of tokens.
LISTED_NAMES = ["passwords", "SECRET_KEY_FALLBACKS", "api_key", "DB_PASSWORDS", "recovery_codes", "client_secret", "API_TOKENS",
                "authTokens", "access_tokens"]  # fmt: skip
LISTED_FORMS = [
    '{n} = ["{v}"]', '{n} = ["{w}", "{v}"]', "{n} = ('{v}',)", '{n}: {{"{w}", "{v}"}}', '"{n}": ["{w}", "{v}"]',
    '{n} = [\n    "{w}",\n    "{v}",\n]',
]  # fmt: skip


@given(name=st.sampled_from(LISTED_NAMES), form=st.sampled_from(LISTED_FORMS), value=mixed, word=st.sampled_from(["a", "default", "old"]))
def test_a_generated_value_in_a_list_under_a_credential_name_is_refused(name: str, form: str, value: str, word: str) -> None:
    text = form.format(n=name, v=value, w=word)
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        # names, fields, words, patterns, classes and weak values such a list holds
        'SECRET_FIELDS = ["password", "token"]', 'tokens = ["the", "cat", "sat"]', 'tokens = ["Hello", "World2024"]',
        'secrets = ["DB_PASSWORD", "API_KEY"]', 'TOKEN_TYPES = ["Bearer", "MAC"]', 'tokens = ["<pad>", "<eos>"]',
        'TOKEN_PATTERNS = ["ghp_[A-Za-z0-9]{36}", "xox[baprs]-"]', 'SENSITIVE_TOKENS = ["Authorization", "X-Api-Key"]',
        'PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher", "django.contrib.auth.hashers.Argon2PasswordHasher"]',
        'passwords = ["hunter22", "letmein1"]', 'password_validators = [{"NAME": "MinimumLengthValidator"}]', "passwords = []",
        "token_variants = ['+i6t-not-inline', '+i6t-inline', '+i6t-use-option']",  # pygments' Inform 7 lexer
        'token_chars = ("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",)',  # an alphabet
        'API_TOKENS = ["GITHUB_TOKEN", "NPM_TOKEN"]', "api_tokens: list[str] = []", 'special_tokens = ["<s>", "</s>", "<unk>"]',
        'input_tokens = ["Hello", "World2024"]',
    ],
)  # fmt: skip
def test_what_such_a_list_holds_that_is_no_generated_value_is_kept(text: str) -> None:
    assert find_secret(text) is None, text


@pytest.mark.parametrize(
    "text",
    [
        "max_access_tokens: 50", "max_access_token: 50", "access_tokens: 50", "num_api_keys = 12", "API_TOKENS=25", "passwords: 12",
        "total_secrets: 340", "limit_tokens = 0x10", '"max_api_tokens": "100"', "MIN_PASSWORDS=2.5e3",
    ],
)  # fmt: skip
def test_a_number_under_a_name_that_counts_credentials_is_kept(text: str) -> None:
    """A limit's or a count's word before a credential's name, or its word in the plural, counts
    them: a number there is how many."""
    assert find_secret(text) is None, text


@pytest.mark.parametrize(
    "text", ["access_tokens: Xk9mQ2vLp7ZrQw", "API_TOKENS=Xk9mQ2vLp7ZrQw", "max_password: hunter22", "recovery_codes: 48301957", "token: 482913"]
)
def test_what_is_no_number_under_such_a_name_is_judged_as_before(text: str) -> None:
    assert find_secret(text) == "credential_assignment", text
