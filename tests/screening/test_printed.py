"""What a command that prints a secret printed, as a terminal's transcript shows it on the line under
the command (``tact_memory/screening/printed.py``)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.screening.credentials import find_secret

from .test_clause_values import weak
from .test_sentences import mixed

PRINTING = [
    "gh auth token", "gh auth token --hostname github.example.com", "heroku auth:token", "aws ecr get-login-password --region eu-west-1",
    "gcloud auth print-access-token", "gcloud auth application-default print-access-token",
    "gcloud secrets versions access latest --secret=db-password", "az account get-access-token --query accessToken -o tsv",
    "az keyvault secret show --vault-name kv --name db --query value -o tsv",
    "aws secretsmanager get-secret-value --secret-id prod/db --query SecretString --output text",
    "security find-generic-password -s svc -a ann -w", "secret-tool lookup service db user ann", "keyring get system ann",
    "bw get password github", "lpass show --password github", "pass show db/prod", "gopass show -o db/prod",
    "doppler secrets get DB_PASSWORD --plain", "kubectl create token deployer", "openssl rand -hex 32", "openssl rand -base64 24",
    "pwgen -s 16 1", "argocd admin initial-password -n argocd",
]  # fmt: skip
NAMED = [
    "echo $DB_PASSWORD", 'echo "$API_TOKEN"', "echo ${GITHUB_TOKEN}", "echo -n $SECRET_KEY", "echo $env:API_KEY",
    "printenv DB_PASSWORD", "aws configure get aws_secret_access_key", "aws configure get profile.dev.aws_session_token",
    "vault kv get -field=password secret/db", "vault read -field=token auth/token/lookup-self",
    "op read op://Private/db/password", "op read 'op://Work/GitHub/token'",
    "kubectl get secret db -o jsonpath='{.data.password}' | base64 -d", 'kubectl get secret app -o jsonpath="{.data.api-key}" | base64 --decode',
    "cat /var/jenkins_home/secrets/initialAdminPassword", "docker exec jenkins cat /var/jenkins_home/secrets/initialAdminPassword",
    "cat /run/secrets/db_password.txt", "sudo cat /etc/app/api_token",
]  # fmt: skip
PROMPTS = ["$ ", "% ", "ann@host:~$ ", "PS C:\\> ", "", "> "]


@given(
    command=st.sampled_from(PRINTING + NAMED),
    prompt=st.sampled_from(PROMPTS),
    value=st.one_of(mixed, weak).filter(lambda v: v[0] not in "$#>`"),
    after=st.sampled_from(["", "\n", "\n$ exit\n", "\nurl: db.example.com"]),
    code=st.booleans(),
)
def test_a_secret_printed_under_the_command_that_prints_it_is_refused(command: str, prompt: str, value: str, after: str, code: bool) -> None:
    line = f"`{command}`" if code else prompt + command
    text = f"{line}\n{value}{after}"
    assert find_secret(text) == "printed_secret", text


@pytest.mark.parametrize(
    "text",
    [
        # A name that is no credential's, and an option or a field that names none.
        "$ echo $HOME\n/root", "$ echo $DB_HOST\ndb2.internal", "$ printenv DB_HOST\ndb2-Replica1", "$ aws configure get region\nus-east-1",
        "$ vault kv get -field=url secret/db\nhttps://x.example.com/a1", "$ kubectl get secret db -o jsonpath='{.data.host}' | base64 -d\ndb2-Main1",
        "$ op read op://Private/db/hostname\ndb2-Main1",
        # Output sent elsewhere, a command that goes on, nothing printed under it, and a next command.
        "$ gh auth token | pbcopy\nXk29pqLm7Vb3", "$ echo $DB_PASSWORD > /tmp/pw\nXk29pqLm7Vb3", "$ echo $DB_PASSWORD is set\nXk29pqLm7Vb3",
        "echo $DB_PASSWORD\nexit 1", "echo $API_TOKEN\n\nXk29pqLm7Vb3", "$ gh auth token\n$ git push", "$ pwgen -s 16 1\n",
        "$ openssl rand -hex 32\n# paste it into the vault", "gh auth token\n`gh auth status`",
        # Words and numbers under such a command, and the commands named in prose.
        "$ gh auth token\nno oauth token found", "$ pass show db/prod\nError: db/prod is not in the password store.",
        "$ openssl rand -hex 4\n1a2b", "Run `gh auth token` to print it.\nThen log in again.", "$ printenv\nPATH=/usr/bin",
        "pwgen makes passwords\nlike this one", "$ keyring get system ann\n(none)",
        # files no credential names, or one named with another extension (code about it)
        "$ cat notes.txt\nXk29pqLm7!", "$ cat token.go\npackage main", "cat password_policy.md\nMin12chars!",
        "$ cat /etc/hostname\nweb-01Prod", "$ cat db_password.txt | wc -c\n17",
    ],
)  # fmt: skip
def test_other_output_and_other_commands_are_kept(text: str) -> None:
    assert find_secret(text) is None, text
