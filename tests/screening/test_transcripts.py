"""A mail or file server's login as a session's transcript shows it: the protocol's own commands
(FTP's and POP3's ``USER``/``PASS`` from RFC 959 and RFC 1939, IMAP's tagged ``LOGIN`` from RFC
9051, SMTP's ``AUTH PLAIN`` and ``AUTH LOGIN`` from RFC 4954 and RFC 4616), as typed over
``telnet`` or ``openssl s_client``, or as a client's debug log or an RFC's ``C:``/``S:`` lines show
them."""

from __future__ import annotations

import base64

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.screening.credentials import find_secret

from .test_clause_values import weak
from .test_sentences import mixed

values = st.one_of(weak, mixed).filter(lambda v: "@" not in v)
users = st.sampled_from(["alice", "deploy", "j.doe", "alice@example.com", "svc-mail"])

SESSIONS = [
    "USER {u}\nPASS {v}",
    "USER {u}\r\nPASS {v}\r\n",
    "$ telnet mail.example.com 110\n+OK POP3 ready\nUSER {u}\n+OK\nPASS {v}\n+OK logged in",
    "S: +OK POP3 server ready\nC: USER {u}\nS: +OK\nC: PASS {v}\nS: +OK maildrop locked",
    "ftp> USER {u}\n331 Password required\nftp> PASS {v}\n230 Logged in.",
    "> USER {u}\n> PASS {v}",
    "a001 LOGIN {u} {v}",
    'C: A1 LOGIN "{u}" "{v}"\nS: A1 OK LOGIN completed',
    ". LOGIN {u} {v}\r\n",
    "* OK IMAP4rev1 ready\ntag1 LOGIN {u} {v}",
]  # fmt: skip


@given(form=st.sampled_from(SESSIONS), user=users, value=values)
def test_a_password_a_session_types_is_refused(form: str, user: str, value: str) -> None:
    text = form.format(u=user, v=value)
    assert find_secret(text) == "login_password", text


@given(user=users, value=values, prefix=st.sampled_from(["", "C: ", "> "]))
def test_smtp_auth_plain_and_auth_login_in_base64_are_refused(user: str, value: str, prefix: str) -> None:
    plain = base64.b64encode(f"\0{user}\0{value}".encode()).decode()
    assert find_secret(f"EHLO me\n{prefix}AUTH PLAIN {plain}\n235 2.7.0 Authentication successful") == "login_password"
    login = f"S: 334 VXNlcm5hbWU6\n{prefix}{base64.b64encode(user.encode()).decode()}\nS: 334 UGFzc3dvcmQ6\n{prefix}{base64.b64encode(value.encode()).decode()}\n"
    assert find_secret(login) == "login_password", login


@pytest.mark.parametrize(
    "text",
    [
        # anonymous FTP, a word, a variable, a placeholder, a mask
        "USER anonymous\nPASS guest@example.com", "USER ftp\nPASS Xk9mQ2vLp7", "USER alice\nPASS secret", "USER alice\nPASS $FTP_PASSWORD",
        "USER alice\nPASS <password>", "USER alice\nPASS ********",
        # no USER before it, or PASS inside a line: a test run's results
        "PASS test_login.py::test_user2", "The harness checks that PASS 12 of 40 passed", "results:\nUSER_COUNT 12\nPASS test_user_creation",
        "CI: PASS Xk9mQ2vLp7Test",
        # SQL Server's logins, IMAP's literal, and a tag that is a word
        "ALTER LOGIN sa ENABLE", "DROP LOGIN app2", "a1 LOGIN {5}", "a1 LOGIN alice secret", "then LOGIN alice Xk9mQ2vLp7",
        "a001 LOGIN alice Xk9mQ2vLp7 and more", "the admin LOGIN page2 Xk9mQ2vLp7",
        # base64 that holds no user and password, or a password without a digit, symbol or case step
        "AUTH PLAIN", "AUTH PLAIN dGVzdA==", "AUTH PLAIN AGFsaWNlAHNlY3JldA==", "S: 334 UGFzc3dvcmQ6\nC: c2VjcmV0",
        "We send AUTH PLAIN AGFsaWNlAGh1bnRlcjIy in the docs",
    ],
)  # fmt: skip
def test_what_is_no_password_a_session_types_is_kept(text: str) -> None:
    assert find_secret(text) is None, text
