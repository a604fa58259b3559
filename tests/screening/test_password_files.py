"""Lines of the files that hold passwords for a tool: netrc's ``machine … login … password …``,
PostgreSQL's ``host:port:database:user:password`` (``~/.pgpass``) and a Windows answer file's
``<AdministratorPassword><Value>…</Value>``, as a note may quote them."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from tact_memory.screening.credentials import find_secret

from .test_credentials import coincides_with_a_kind_name, credential_values, shares_a_run

HOSTS = ["db.example.com", "localhost", "*", "10.0.0.5", "\\:\\:1", "pg-primary", "db_1.internal"]
PORTS = ["5432", "5433", "6432", "*"]
FIELDS = ["app", "*", "billing_prod", "postgres"]
# What a password there may hold, credential-shaped by construction (a stand-in word is kept there
# as everywhere), with symbols that other files would end a value at.
passwords = st.tuples(credential_values, st.sampled_from(["", "#", ";", "&x", "=", "\\:"])).map("".join)


@given(host=st.sampled_from(HOSTS), port=st.sampled_from(PORTS), database=st.sampled_from(FIELDS),
       user=st.sampled_from(FIELDS), password=passwords, before=st.sampled_from(["", "  ", "pgpass: `", "- ", "x\n"]))  # fmt: skip
def test_a_pgpass_line_is_refused_without_echo(host: str, port: str, database: str, user: str, password: str, before: str) -> None:
    kind = find_secret(f"{before}{host}:{port}:{database}:{user}:{password}")
    assert kind in ("pgpass_password", "credential_assignment", "credential_url")
    assume(not coincides_with_a_kind_name(password))
    assert not shares_a_run(kind, password)


@pytest.mark.parametrize(
    "text",
    [
        "db.example.com:5432:app:app:Tr0ub4dor3",
        "*:*:*:postgres:hunter22",
        "db.internal:6432:app:svc:Xk9\\:q2",  # an escaped colon inside the password
        "Added `10.0.0.5:5432:app:app:hunter22` to ~/.pgpass",
        "#db.example.com:5432:app:app:Tr0ub4dor3",  # commented out
        "+*:*:*:postgres:hunter22",  # a line a diff adds
    ],
)
def test_pgpass_examples_are_refused(text: str) -> None:
    assert find_secret(text) == "pgpass_password"


@pytest.mark.parametrize(
    "text",
    [
        "*:*:*:*:*",  # no password
        "db:5432:app:app:${PGPASSWORD}",  # a stand-in
        "db.example.com:5432:app:app:<password>",
        'ports: ["5432:5432"]',  # a port mapping
        "a:5432:b:c:d:e",  # six fields: not a pgpass line
        "http://x:5432:a:b:c",  # part of a URL's path
        "time 12:5432:app:app:Tr0ub4dor3",  # no host: a number before the port
        "00:11:22:33:44",  # a hardware address
        "x#db.example.com:5432:app:app:Tr0ub4dor3",  # a # inside a word: no comment's mark
        "##db.example.com:5432:app:app:Tr0ub4dor3",
    ],
)
def test_what_is_no_pgpass_line_is_kept(text: str) -> None:
    assert find_secret(text) is None


def test_a_netrc_line_is_refused() -> None:
    assert find_secret("machine api.example.com login bob password Tr0ub4dor3") == "netrc_password"
    assert find_secret("machine api.example.com login bob") is None


# Windows Setup's answer file (unattend.xml) gives each password as a <Value> inside an element named
# for it, in plain text or in the base64 it calls hidden.
ANSWER_FILE = [
    "<AdministratorPassword><Value>{v}</Value><PlainText>true</PlainText></AdministratorPassword>",
    "<AdministratorPassword>\n  <Value>{v}</Value>\n  <PlainText>false</PlainText>\n</AdministratorPassword>",
    '<LocalAccount wcm:action="add">\n  <Password>\n    <Value>{v}</Value>\n  </Password>\n  <Name>admin</Name>',
    "<AutoLogon>\n  <Password>\r\n    <Value>{v}</Value>\r\n  </Password>\n  <Enabled>true</Enabled>",
    '<DomainAccount><Password wcm:keyValue="1"><Value>{v}</Value></Password></DomainAccount>',
]


@given(form=st.sampled_from(ANSWER_FILE), password=credential_values)
def test_a_password_in_a_windows_answer_file_is_refused(form: str, password: str) -> None:
    assert find_secret(form.format(v=password)) == "credential_assignment"


# A <value> whose opening element's name attribute names the credential: .NET's Settings
# (app.config's <setting name="Password" serializeAs="String">) and Spring's <property name="...">.
NAMED_VALUE = [
    '<setting name="{n}" serializeAs="String">\n  <value>{v}</value>\n</setting>',
    '<setting name="{n}" serializeAs="String"><value>{v}</value></setting>',
    "<property name='{n}'>\n    <value>{v}</value>\n</property>",
    '<entry key="{n}"><value>{v}</value></entry>',
]


@given(form=st.sampled_from(NAMED_VALUE), name=st.sampled_from(["Password", "DbPassword", "apiKey", "client_secret", "Smtp:Password"]), password=credential_values)
def test_a_value_under_an_element_whose_name_attribute_is_a_credentials_is_refused(form: str, name: str, password: str) -> None:
    assert find_secret(form.format(n=name, v=password)) == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        '<setting name="Theme" serializeAs="String"><value>Dark2024!</value></setting>',
        '<property name="url"><value>jdbc:postgresql://db/app</value></property>',
        '<setting name="Password" serializeAs="String"><value /></setting>',
        '<setting name="Password" serializeAs="String"><value>${DB_PASSWORD}</value></setting>',
        '<setting name="Password" serializeAs="String"></setting><value>Tr0ub4dor&3</value>',
        '<setting title="Password"><value>Tr0ub4dor&3</value></setting>',
    ],
)
def test_a_value_under_an_element_named_for_something_else_is_kept(text: str) -> None:
    assert find_secret(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "<AdministratorPassword><Value></Value><PlainText>true</PlainText></AdministratorPassword>",
        # What Setup writes over the passwords it has used, also where Markdown would read emphasis.
        "<AdministratorPassword>\n  <Value>*SENSITIVE*DATA*DELETED*</Value>\n</AdministratorPassword>",
        "<Password><Value>*SENSITIVE*DATA*DELETED*</Value></Password>", "password: *SENSITIVE*DATA*DELETED*",
        # A value that no password element opens.
        "<Setting><Value>Tr0ub4dor&3</Value></Setting>", "<Timeout><Value>30</Value></Timeout>",
        "<Password/><Value>Tr0ub4dor&3</Value>", "<Password>x</Password><Value>Tr0ub4dor&3</Value>",
    ],
)
def test_what_no_answer_file_password_holds_is_kept(text: str) -> None:
    assert find_secret(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "awk -F: </etc/passwd '$3 >= 1000 && $3 < 65000 {print $3}'", "less /etc/passwd Xk9mQ2vLp7Zr",
        "cat /run/secrets/password Xk9mQ2vLp7Zr", "cat ~/.pw Xk9mQ2vLp7Zr", "diff ./secrets/passwd Xk9mQ2vLp7Zr.bak",
    ],
)  # fmt: skip
def test_a_password_file_s_path_before_a_word_is_kept(text: str) -> None:
    # the last part of a path names the file; what follows is the command's next argument
    assert find_secret(text) is None, text


@pytest.mark.parametrize("text", ["password Xk9mQ2vLp7Zr", "user/password Xk9mQ2vLp7Zr", "u/pw Xk9mQ2vLp7Zr", "wifi password Xk9mQ2vLp7Zr"])
def test_a_password_s_name_with_a_slash_that_is_no_path_still_gives_it(text: str) -> None:
    assert find_secret(text) == "credential_assignment", text
