"""Secrets a command printed, as a note that keeps a terminal's transcript shows them.

A command that prints a credential (``gh auth token``, ``security find-generic-password -w``, ``op
read op://…/password``, ``echo $DB_PASSWORD``, a Secret's data piped into ``base64 -d``) ends its
line, and the line under it is what it printed. Each command is found by its own words:

- Commands that print a secret and nothing else, whatever they are given (:data:`PRINTING`): a
  token a CLI hands out, a secret manager's value, a key or a password generated on the spot
  (``openssl rand -hex 32``, ``pwgen``).
- Commands that print a variable, a setting, a field or a file by its name (:data:`NAMED`): what
  they print is a secret only when the name is a credential's (``echo $DB_PASSWORD``, ``aws
  configure get aws_secret_access_key``, ``vault kv get -field=password``, ``cat
  /var/jenkins_home/secrets/initialAdminPassword``; not ``echo $HOME`` or ``cat notes.txt``).

The command must end its line, its output going to the terminal (a pipe or a redirection after it
sends the output elsewhere: ``gh auth token | pbcopy``), and the next line must be one word with a
password's texture: a prompt, a command, a word or a number there is none.
"""

from __future__ import annotations

import re

from .leads import compiled, word_start
from .sentences import SentenceChecks
from .vocabulary import MIN_LINKED

__all__ = ["NAMED", "PRINTING", "PrintedChecks"]

_GAP = rb"[A-Za-z0-9_.-]"
_IDENTIFIER = rb"[A-Za-z_][A-Za-z0-9_.-]{0,63}"
_NAME = rb"(?P<name>" + _IDENTIFIER + rb")"
"""A name the command's line ends with (echo $NAME, printenv NAME)."""
_FIELD = rb"(?P<field>" + _IDENTIFIER + rb")"
"""A field's name that the command's other arguments may follow (vault kv get -field=NAME PATH)."""
_END = rb"(?P<rest>[^\r\n|>]{0,160})\r?\n"
"""The rest of the command's line, with no pipe or redirection, and its line break."""

PRINTING = tuple(
    word_start(lead, rest + _END, gap=_GAP)
    for lead, rest in (
        (b"gh auth", rb"[ \t]+token"),
        (b"heroku auth", rb":token"),
        (b"aws ecr", rb"[ \t]+get-login-password"),
        (b"gcloud auth", rb"[ \t]+(?:application-default[ \t]+)?print-(?:access|identity)-token"),
        (b"gcloud secrets", rb"[ \t]+versions[ \t]+access"),
        (b"az account", rb"[ \t]+get-access-token[^\r\n|>]{0,160}?[ \t](?:-o|--output)[ \t]+tsv"),
        (b"az keyvault", rb"[ \t]+secret[ \t]+show[^\r\n|>]{0,160}?[ \t]--query[ \t]+[\"']?value"),
        (b"aws secretsmanager", rb"[ \t]+get-secret-value[^\r\n|>]{0,160}?SecretString[^\r\n|>]{0,64}?[ \t]text"),
        (b"security", rb"[ \t]+find-(?:generic|internet)-password[^\r\n|>]{0,160}?[ \t]-w(?![A-Za-z0-9])"),
        (b"secret-tool", rb"[ \t]+lookup"),
        (b"keyring", rb"[ \t]+get"),
        (b"bw get", rb"[ \t]+password"),
        (b"lpass show", rb"[^\r\n|>]{0,160}?[ \t]--password"),
        (b"pass", rb"[ \t]+show"),
        (b"gopass", rb"[ \t]+show"),
        (b"doppler secrets", rb"[ \t]+get[^\r\n|>]{0,160}?[ \t]--plain"),
        (b"kubectl create", rb"[ \t]+token"),
        (b"openssl rand", rb"[ \t]+(?:-base64|-hex)"),
        (b"pwgen", rb""),
        (b"argocd admin", rb"[ \t]+initial-password"),
    )
)
"""Commands that print a secret and nothing else (see the module)."""

NAMED = tuple(
    word_start(lead, rest + _END, gap=_GAP)
    for lead, rest in (
        (b"echo", rb"[ \t]+(?:-[neE]{1,3}[ \t]+)?[\"']?\$(?:env:|Env:|ENV:)?\{?" + _NAME + rb"\}?[\"']?"),
        (b"printenv", rb"[ \t]+" + _NAME),
        (b"aws configure", rb"[ \t]+get[ \t]+(?:[A-Za-z0-9_-]{1,64}\.){0,3}" + _NAME),
        (b"vault", rb"[ \t]+(?:kv[ \t]+get|read)[^\r\n|>]{0,160}?[ \t]-field=" + _FIELD),
        (b"op read", rb"[ \t]+[\"']?op://[^\s\"'|>]{1,192}/" + _NAME + rb"[\"']?"),
        (b"kubectl get secret", rb"[^\r\n|>]{0,200}?\{\.data\." + _FIELD + rb"\}[^\r\n|]{0,64}\|[ \t]*base64[ \t]+(?:-d|--decode|-D)"),
        # a file named for a credential (cat /var/jenkins_home/secrets/initialAdminPassword,
        # cat ~/.vault-token, cat /run/secrets/db_password.txt)
        (b"cat", rb"[ \t]+(?:[^\s|>;&]{0,192}/)?\.?(?P<name>[A-Za-z_][A-Za-z0-9_-]{0,63})(?:\.(?:txt|secret))?"),
    )
)
"""Commands that print what a name names; the output is a secret when the name is a credential's."""


class PrintedChecks(SentenceChecks):
    """The check of what a command that prints a secret printed on the line under it."""

    name_ends_line = compiled(rb"[ \t`'\"]*(?:#[^\r\n]*)?")
    printed_line = compiled(rb"[ \t]*(?P<value>[^\s$#>`]\S{5,511})[ \t]*(?:\r?\n|\Z)")

    def printed_secret(self, buffer: bytearray, match: re.Match[bytes]) -> bool:
        """Check for the line under a command that prints a secret (see the module): one word of
        its own with a password's texture. A command that prints a name's value must name a
        credential (``echo $DB_PASSWORD``, ``vault kv get -field=password PATH``; not ``echo
        $HOME``), and a variable's or a setting's name must end its line (a closing quote or
        backtick and a comment aside)."""
        groups = match.re.groupindex
        if "name" in groups and self.name_ends_line.fullmatch(buffer, *match.span("rest")) is None:
            return False  # more words after the name: another command's line
        for group in ("name", "field"):
            if group in groups and not self.names_credential(buffer, *match.span(group)):
                return False
        line = self.printed_line.match(buffer, match.end())
        if line is None:
            return False
        return self.looks_secret(buffer, *line.span("value"), shortest=MIN_LINKED)
