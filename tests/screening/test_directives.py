"""Passwords a configuration file gives after a directive whose name ends in a password's word,
and the commands an option or a setting runs to print one (:mod:`tact_memory.screening.logins`)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.screening.credentials import find_secret

from .test_clause_values import weak
from .test_sentences import mixed

# A directive's name that ends in a password's word as identifiers write it (after an underscore
# or a dash, in camel case, or joined: bindpw, rpcpassword), opening its line or a block opened
# earlier on it, its value ending the line or closed by a semicolon, a brace or a comment.
DIRECTIVES = [
    "auth_pass {v}", "    auth_pass {v}", "vrrp_instance VI_1 {{\n  authentication {{\n    auth_type PASS\n    auth_pass {v}\n  }}\n}}",
    "authentication {{ auth_type PASS auth_pass {v} }}", "\tauth_pass {v}  # eight characters at most",
    "bindpw {v}", "binddn cn=nslcd,dc=example,dc=com\nbindpw {v}", "SmtpPass {v}", "DB_PASS {v}", "smtp-pass {v}",
    "rpcpassword {v}", 'auth_pass "{v}";', "admin_pass {v} ; the panel's",
]  # fmt: skip

# The command an option or a setting runs to get a password, echoing one.
COMMANDS = [
    "restic -r s3:bucket backup --password-command 'echo {v}'", 'passwordeval "echo {v}"', 'PassCmd "echo {v}"',
    "password_command = 'printf %s {v}'", 'export RESTIC_PASSWORD_COMMAND="echo -n {v}"', "token_cmd: 'echo {v}'",
    "borg create --passcommand 'echo {v}' ::today ~",
]  # fmt: skip


@given(form=st.sampled_from(DIRECTIVES), value=st.one_of(mixed, weak))
def test_a_password_after_a_directive_named_for_one_is_refused(form: str, value: str) -> None:
    text = form.format(v=value)
    assert find_secret(text) == "credential_assignment", text


@given(form=st.sampled_from(COMMANDS), value=st.one_of(mixed, weak))
def test_a_password_a_configured_command_echoes_is_refused(form: str, value: str) -> None:
    text = form.format(v=value)
    assert find_secret(text) in ("command_line_credential", "credential_assignment"), text


@pytest.mark.parametrize("form", DIRECTIVES + COMMANDS)
def test_each_form_refuses_a_password(form: str) -> None:
    """Each form once: the property tests draw forms at random, and may pass over one."""
    text = form.format(v="Tr0ub4dor3x")
    assert find_secret(text) is not None, text


@pytest.mark.parametrize(
    "text",
    [
        # directives that forward a request, with an address, a socket or a path
        "proxy_pass http://127.0.0.1:8080;", "location /api/ {\n    proxy_pass http://backend_v2;\n}", "fastcgi_pass 127.0.0.1:9000;",
        "uwsgi_pass unix:/run/uwsgi/app2.sock;", "grpc_pass grpc://10.0.0.5:50051;", "ProxyPass /app2 http://backend2/",
        "scgi_pass localhost:4000;", "memcached_pass 127.0.0.1:11211;",
        # keepalived's own example, a variable, and a word or a number no one picks as a password
        "auth_pass 1111", "auth_pass ${VRRP_PASS}", "auth_pass <password>", "bindpw secret", "SmtpPass changeme", "DB_PASS 42",
        # a declaration in C's family, prose about a directive, and a word before it on its line
        "    VkRenderPass shadowPass2;", "RenderPass mainPass3;", "the auth_pass directive takes up to 8 characters",
        "Set auth_pass Tr0ub4dor3x in the block", "- auth_pass is at most eight characters long",
        # a value that goes on with more words, as prose does
        "auth_pass Tr0ub4dor3x is too long for VRRP",
        # the configured command reads another store, a variable or a file
        "passwordeval \"gpg -q --for-your-eyes-only --no-tty -d ~/.msmtp.gpg\"", 'PassCmd "pass show mail/ann"',
        "restic backup --password-command 'echo $RESTIC_PW'", 'PassCmd "cat ~/.mailpass"', "echo 'Tr0ub4dor3x is an example'",
    ],
)  # fmt: skip
def test_forwarding_directives_declarations_prose_and_references_are_kept(text: str) -> None:
    assert find_secret(text) is None, text
