"""Credential URLs: a password between a URL's user and its "@", whatever follows the "@".

A connection string for a Unix socket has an empty host, with the path, the query or the port
right after the "@" (Cloud SQL's ``postgresql+pg8000://app:PW@/app?unix_sock=...``), or the
socket's directory percent-encoded as the host (``postgres://u:PW@%2Fvar%2Frun%2Fpostgresql/db``).
A port before a path that holds an "@" (``https://host:8443/@scope/pkg``) is no password.
"""

from __future__ import annotations

import re
import string
import threading

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from tact_memory.screening.credentials import find_secret

from .test_credentials import coincides_with_a_kind_name, shares_a_run

EMPTY_OR_ENCODED_HOSTS = [
    "/app?unix_sock=/cloudsql/proj:region:inst/.s.PGSQL.5432", "/app?unix_socket=/cloudsql/proj:region:inst",
    "/app?host=/cloudsql/proj:region:inst", "/db", "%2Fvar%2Frun%2Fpostgresql/app", "%2Ftmp/db",
    "?host=/var/run/postgresql", ":5432/app",
]  # fmt: skip


@pytest.mark.parametrize("host", EMPTY_OR_ENCODED_HOSTS)
@pytest.mark.parametrize(
    "form",
    [
        "postgresql+pg8000://app:FAKEk9n86TkVYCM@{h}", "mysql+pymysql://u:FAKEk9n86TkVYCM@{h}",
        "postgres://u:FAKEk9n86TkVYCM@{h}", "DATABASE_URL=postgresql://app:FAKEk9n86TkVYCM@{h}",
        'SQLALCHEMY_DATABASE_URI = "mysql+pymysql://root:FAKE(pw)2024!@{h}"', "redis://:FAKEk9n86TkVYCM@{h}",
    ],
)  # fmt: skip
def test_a_password_before_an_empty_or_encoded_host_is_refused(form: str, host: str) -> None:
    assert find_secret(form.format(h=host)) == "credential_url"


@pytest.mark.parametrize(
    "password", ["%40FAKEk9n86TkVYCM", "(FAKEk9n86TkVYCM", "$FAKEk9n86TkV2", "[FAKEk9n86TkVYCM", "{FAKEk9n86TkVYCM"]
)
def test_a_url_password_that_starts_with_a_symbol_or_an_encoded_byte_is_refused(password: str) -> None:
    assert find_secret(f"postgres://app:{password}@db.internal/app") == "credential_url"


@pytest.mark.parametrize(
    "text",
    [
        "https://host:8443/@scope/pkg",
        "http://localhost:3000/@vite/client",
        "https://registry.npmjs.org:443/@babel/core",
        "https://example.com:8080/path?next=/a@/b",
        "https://unpkg.com/react@18/umd/react.production.min.js",
        "https://cdn.jsdelivr.net/npm/@scope/pkg@1.2.3/dist/index.js",
        "postgres://user:password@/db",
        "mysql://root:${MYSQL_PWD}@/app",
        "postgres://app:$DB_PASSWORD@/app",
        "postgres://%s:%s@%s/%s",
        "postgres://{user}:{password}@{host}/{db}",
        "postgres://app:<password>@/app",
        "postgres://app:****@/app",
        "postgresql://app@/app?host=/cloudsql/proj:region:inst",
        "postgresql:///mydb?host=/var/run/postgresql",
        # anonymous FTP's password is an address or a word by convention (RFC 1635), never a secret
        "ftp://anonymous:guest@ftp.example.com/pub",
        "ftp://Anonymous:ann@example.com@ftp.example.com/",
    ],
)
def test_urls_without_a_password_are_kept(text: str) -> None:
    assert find_secret(text) is None


def code_call(text: str) -> bool:
    """Whether ``text`` is a call as code writes one, which stands for a password in a URL: a callee
    in code's case (lower case first, camel-case steps into lower case) and arguments that are
    numbers or names not mixing lower case, upper case and digits (``os.getenv(KEY)``)."""
    callee = r"[a-z_][a-z0-9_]*(?:[A-Z][a-z0-9_]+)*"
    found = re.fullmatch(rf"{callee}(?:\.{callee})*(?:\((?P<round>.*)\)|\[(?P<square>.*)\])", text)
    if found is None:
        return False
    arguments = found.group("round") if found.group("round") is not None else found.group("square")
    if arguments == "":
        return True

    def plain(argument: str) -> bool:
        if argument.isdigit():
            return len(argument) <= 8
        mixed = any(c.islower() for c in argument) and any(c.isupper() for c in argument) and any(c.isdigit() for c in argument)
        return re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", argument) is not None and not mixed

    return all(plain(argument) for argument in re.split(r", ?", arguments))


URL_PASSWORD = string.ascii_letters + string.digits + "!$&()*+,;=-._~"  # RFC 3986 userinfo, unescaped
url_passwords = st.text(URL_PASSWORD, min_size=6, max_size=40).filter(
    lambda p: len(set(p)) >= 4 and any(c.isdigit() for c in p) and any(c.isalpha() for c in p) and p[0].isalnum()
)


@given(
    scheme=st.sampled_from(["postgresql", "postgresql+psycopg", "postgresql+pg8000", "mysql+pymysql", "mysql", "redis", "amqp", "mongodb"]),
    user=st.sampled_from(["app", "root", "svc_billing", ""]),
    password=url_passwords,
    host=st.sampled_from(EMPTY_OR_ENCODED_HOSTS),
)  # fmt: skip
def test_any_password_before_an_empty_or_encoded_host_is_refused_without_echo(scheme: str, user: str, password: str, host: str) -> None:
    assume(not code_call(password))
    text = f"{scheme}://{user}:{password}@{host}"
    kind = find_secret(text)
    assert kind == "credential_url", text
    assume(not coincides_with_a_kind_name(password))
    assert not shares_a_run(kind, password)


@given(
    host=st.sampled_from(["host", "localhost", "registry.example.com", "10.0.0.5"]),
    port=st.integers(1, 65535),
    path=st.lists(st.text(string.ascii_lowercase + string.digits + "-._", min_size=1, max_size=12), max_size=3).map("/".join),
    after=st.sampled_from(["@scope/pkg", "@/x", "users/@me", "@vite/client", "a@b"]),
)
def test_a_port_before_a_path_with_an_at_sign_is_kept(host: str, port: int, path: str, after: str) -> None:
    text = f"https://{host}:{port}/{path + '/' if path else ''}{after}"
    assert find_secret(text) is None, text


@given(
    password=st.sampled_from(URL_PASSWORD).flatmap(lambda c: st.integers(1, 12).map(lambda n: c * n)),
    host=st.sampled_from(["db/app", "example.com", "localhost:6379/0", "h/db", *EMPTY_OR_ENCODED_HOSTS]),
)
def test_a_url_password_of_one_character_or_one_repeated_is_kept(password: str, host: str) -> None:
    # Documentation and tests write a password they do not show that way (u:p@h, :x@, :***@).
    text = f"postgres://admin:{password}@{host}"
    assert find_secret(text) is None, text


@pytest.mark.parametrize("password", ["ab", "a1", "x1", "pq"])
def test_a_url_password_of_two_distinct_characters_is_refused(password: str) -> None:
    assert find_secret(f"postgres://admin:{password}@db/app") == "credential_url"


ADVERSARIAL: dict[str, str | None] = {
    ("://" + "a:b@/" * 205)[:1024]: None,  # one-character passwords, as in a mask
    ("postgres://u:" + "%2F@" * 253)[:1024]: "credential_url",
    ("postgres://:" + "$a" * 600)[:1020] + "@/db": None,  # no "@" within a password's reach
    ("https://h:1/" + "@/" * 511)[:1024]: None,
}


def test_adversarial_urls_get_their_verdicts_without_hanging() -> None:
    verdicts: dict[str, str | None] = {}
    worker = threading.Thread(target=lambda: verdicts.update({t: find_secret(t) for t in ADVERSARIAL}), daemon=True)
    worker.start()
    worker.join(timeout=60)
    assert not worker.is_alive(), "screening did not finish: catastrophic backtracking?"
    assert verdicts == ADVERSARIAL


@pytest.mark.parametrize(
    "text",
    [
        "postgresql://app:A(000)@/app?unix_sock=/cloudsql/proj:region:inst/.s.PGSQL.5432",  # found by hypothesis
        "postgresql://app:A(00=)@/app?unix_sock=/cloudsql/proj:region:inst/.s.PGSQL.5432",  # and this, later
        # In a URL, brackets that code would not write: a password's own symbols.
        "postgres://app:y(0Jm)@db/app",
        "postgres://app:kdTQp(8J)@db/app",
        "postgres://app:t[qeG1K]@db/app",
        "postgres://app:Summer(2024)@db.internal/app",
        'password = "Summer(2024)"',
        "PASSWORD=Summer(2024)",
        "password: Welcome(1)!",
    ],
)
def test_a_word_and_a_number_in_brackets_is_a_password_not_a_call(text: str) -> None:
    """A capitalised word with a number in brackets is how people make a password of a word and a
    year; code's calls that credentials are assigned from keep their own case or a dot."""
    assert find_secret(text) in ("credential_url", "credential_assignment")


BRACKETED = ["y(0Jm)", "kdTQp(8J)", "t[qeG1K]", "Summer(2024)", "Welcome(1)!", "Xk9(mQ2v)Lp"]
CALLS = ["get_password()", "os.getenv(DB_PASSWORD)", "env[TOKEN]", "getpass(0)", "keyring.get_password(svc, user)"]
CURL_FORMS = ["curl -u app:{}", "curl -u 'app:{}' https://api.example.com", 'curl --user "app:{}" https://x', "wget --user=app:{} x",
              "http -a app:{} example.org", "$ https -a 'app:{}' POST api.example.com/items"]  # fmt: skip


@pytest.mark.parametrize("value", BRACKETED)
@pytest.mark.parametrize("form", CURL_FORMS)
def test_brackets_in_a_password_given_to_curl_are_its_own_as_in_a_url(form: str, value: str) -> None:
    """curl runs nothing in its ``-u`` value, so it takes a password as a URL does."""
    assert find_secret(form.format(value)) == "command_line_credential"


@pytest.mark.parametrize("value", [*CALLS, "$(pass show api)", "(hidden)", "[REDACTED]", "x(1)", "pass(word"])
@pytest.mark.parametrize("form", CURL_FORMS)
def test_a_call_or_a_stand_in_given_to_curl_is_kept(form: str, value: str) -> None:
    assert find_secret(form.format(value)) is None


@pytest.mark.parametrize(
    "text",
    [
        "SECRET_KEY = secrets.token_hex(32)",
        "password = getpass(0)",
        "postgres://app:get_password()@db/app",
        "postgres://app:os.getenv(DB_PASSWORD)@db/app",
        "postgres://app:env[TOKEN]@db/app",
        "postgres://app:getpass(0)@db/app",
        'password = "get_password()"',
        "API_KEY=os.getenv(KEY)",
    ],
)
def test_calls_in_codes_own_case_are_still_kept(text: str) -> None:
    assert find_secret(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "DB_PASSWORD=Xk9(mQ2!zL",
        "export API_KEY=v#j(3R+Di%9-T92.8",
        "DB_PASSWORD=Xk9mQ2!zL[",
        "password: igDoOV()M?I(##B7",
    ],
)
def test_an_unquoted_password_with_a_bracket_among_its_symbols_is_refused(text: str) -> None:
    """A bracket made any unquoted value code; code holds names, numbers and operators after it,
    and a generated password its other symbols (about one such password in three was kept)."""
    assert find_secret(text) == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        'password = getpass.getpass("Password: ")',
        "key = d.get(k, None)",
        "secret = base64.b64encode(os.urandom(32))",
        'api_key = config["openai"]["key"]',
        "auth = (user, password)",
        "TOKEN=$(cat token.txt)",
        "input_token_details=InputTokenDetails(**{k: v for k, v in details.items()})",
        "auth: *(optional)* An authentication class to use when sending the request.",
        'headers["authorization"] = "Basic " + b64encode(b(basic_auth)).decode("utf-8")',
    ],
)
def test_unquoted_code_with_a_bracket_is_still_kept(text: str) -> None:
    assert find_secret(text) is None
