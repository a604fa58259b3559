"""A user and a password written as a pair in a note about logging in: ``admin:…`` right after the
colon (also before a host, ``admin:…@db.internal``, when the password looks generated), or ``admin
/ …`` around a spaced slash, after a word that introduces a login; around a spaced slash, also an
account systems come with and no such word (``Grafana: admin / …``)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.screening.credentials import find_secret

from .test_clause_values import weak
from .test_sentences import ends, generated, mixed

CONTEXTS = ["Grafana login", "the staging login is", "DB creds:", "credentials", "the admin account is", "sign in with", "Username and password:", "basic auth", "BasicAuth:", "basic-auth",
            "Kafka SASL:", "SASL PLAIN"]  # fmt: skip
USERS = ["admin", "app", "root", "ann@example.com", "svc-deploy", "j.doe"]


@given(context=st.sampled_from(CONTEXTS), user=st.sampled_from(USERS), separator=st.sampled_from([":", " / "]), value=mixed, after=st.sampled_from(["", ".", " (rotate monthly)", "\n"]))
def test_a_pair_after_a_login_word_is_refused(context: str, user: str, separator: str, value: str, after: str) -> None:
    assert find_secret(f"{context} {user}{separator}{value}{after}") == "credential_assignment"


@given(
    context=st.sampled_from(CONTEXTS),
    user=st.sampled_from(["admin", "app", "root", "svc-deploy"]),
    value=mixed.filter(lambda v: "@" not in v and "!" not in v and "#" not in v and "*" not in v),
    host=st.sampled_from(["db.internal", "build.corp.example", "pg-1.staging.example.com"]),
)
def test_a_pair_before_a_host_after_a_login_word_is_refused(context: str, user: str, value: str, host: str) -> None:
    # user:password@host, as a connection is written without its scheme: the part before the "@"
    # looks generated, as an address's local part (user:ann@example.com) does not.
    assert find_secret(f"{context} {user}:{value}@{host}") == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        # No word of a login before the pair.
        "chown -R user:Staff2 /srv",
        "read / Write2Access for the user",
        # A login word inside another word, a label's colon followed by a space.
        "User-callable method: `~.Axes.clabel`",
        "user method: Xk9v2LmQ7t",
        # What a colon after a user-like word joins that is no password: a number of an account, a
        # key's path, a URL, an IAM member, a port, an image's tag.
        "the account 123456789012:role/DeployRole2",
        "The cache key for user sessions is user:1234:profile.",
        "credentials supplied. See http:\\/\\/go\\/rpcsp",
        "a Google service account). Example: https://www.googleapis.com/auth",
        "--grantees='user:user1@google.com,group:group1@google.com'",
        "login: ann:Ann.Smith@corp.example", "the login is admin:hunter22@db.internal",
        "login: serviceAccount:Sa-Bot2024x@proj.iam.gserviceaccount.com",
        "account: group:Ops-Team2024@corp.example", "the user login is domain:Corp-Example2024@corp.example",
        "the login service at db2:5432 is slow",
        "the user image python:3.11-slim is pulled",
        # SASL's settings, no pair
        "sasl.mechanism: PLAIN", "SASL: SCRAM-SHA-512", "SASL is app:${KAFKA_PASSWORD}",
        # A short password of one or two kinds of character, as after a name with no verb.
        "login admin:hunter2 is the default for the demo",
    ],
)
def test_what_such_a_colon_or_slash_joins_that_is_no_password_is_kept(text: str) -> None:
    assert find_secret(text) is None


# A user given in words right before a password's name: the password after the name needs only to
# end its clause, as after "is" (before, it needed three kinds of character).
USERS_IN_WORDS = [
    "user bob", "username bob /", "login: admin,", "log in as root with", "account svc-ci and", "User: ann@example.com;",
    "the superuser is postgres,", "the user is bob,", "username is ann and",
]  # fmt: skip
NAMES_AFTER_USER = ["password", "Password", "passphrase", "pwd", "pass", "pw"]


@given(
    user=st.sampled_from(USERS_IN_WORDS),
    name=st.sampled_from(NAMES_AFTER_USER),
    value=weak,
    after=st.sampled_from(["", ".", "\n", " (rotated monthly)", " for staging"]),
)
def test_a_weak_password_after_a_user_given_in_words_is_refused(user: str, name: str, value: str, after: str) -> None:
    assert find_secret(f"{user} {name} {value}{after}") == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "user bob password reset",  # a word
        "user bob password hunter2 expired yesterday",  # the sentence goes on after the value
        "as admin, password x86_64",  # a name joined by _
        "user bob password sha256",  # an algorithm
        "the user table password column",  # no user given
        "token hunter2024",  # no user at all: after a token's name (not a password's) it stays kept
        # "pass" as a verb, "as" in other senses, an option that is passed.
        "we pass hunter2 to login",
        "as admin pass the flag",
        "user bob pass hunter2 to the script",
        "Users pass `retention=` to `prompt_cache_outlook`",
        "To send these tokens as written, pass `profile=x` to the model",
        "for the user admin pass --force",
        "user is admin, pass the flag", "the user is new, password reset required",
    ],
)
def test_what_follows_a_user_and_a_password_name_that_is_no_password_is_kept(text: str) -> None:
    assert find_secret(text) is None


# A verb that gives the credential right before its name: the value after the name needs only to end
# its clause, or to say what it is "to" do, as after a user given in words.
VERBS_BEFORE = ["log in with", "connect using", "ssh in with the", "Use", "use the staging db", "Try", "enter our", "sign in with the admin"]
NAMES_AFTER_VERB = ["password", "Password", "passphrase", "passwd", "pwd", "secret", "token"]


@given(
    verb=st.sampled_from(VERBS_BEFORE),
    name=st.sampled_from(NAMES_AFTER_VERB),
    value=weak,
    after=st.sampled_from(["", ".", "\n", " (rotated monthly)", " for staging", " to log in", " to connect."]),
)
def test_a_weak_password_after_a_verb_that_gives_it_is_refused(verb: str, name: str, value: str, after: str) -> None:
    assert find_secret(f"{verb} {name} {value}{after}") == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "Login for grafana is admin with password hunter22",
        "set password to hunter22 and restart",  # "to" after the name is the linking word's rule
        "use the password hunter22 to log in",
    ],
)
def test_a_password_given_by_a_verb_in_a_note_is_refused(text: str) -> None:
    assert find_secret(text) == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        # Words, descriptions and names after the name.
        "log in with password authentication",
        "authenticate with password hashing",
        "using password auth via PAM",
        "with password-less login",
        "with password length 12",
        "with password policy v1.2",
        "use token cl100k to count",
        "set secret v2 to rotate",
        "use secret key1",
        "with token limit 4096",
        "pass token x86_64 to the build",
        # The sentence goes on after the value, or no verb gives the name.
        "with password reset2 flow",
        "use the password hunter22 and the user bob",
        "the password hunter22 works for staging",
        "token hunter2024",
        # A verb inside another word, or too far before the name.
        "refuse token hunter22",
        "use it when the first of many keys, or the token hunter22",
    ],
)
def test_what_follows_a_verb_and_a_credential_name_that_is_no_password_is_kept(text: str) -> None:
    assert find_secret(text) is None


# An account systems come with names a login on its own, around a spaced slash.
@given(
    before=st.sampled_from(["Grafana: ", "SSH into the box with ", "Grafana (staging) — ", "- ", ""]),
    user=st.sampled_from(["admin", "root", "Administrator", "sa", "ec2-user", "guest"]),
    value=weak,
    after=st.sampled_from(["", ".", "\n", " (rotated monthly)"]),
)
def test_a_default_account_and_a_password_around_a_spaced_slash_are_refused(before: str, user: str, value: str, after: str) -> None:
    assert find_secret(f"{before}{user} / {value}{after}") == "credential_assignment"


# A pair written as an aside in brackets: the bracket that closes the aside is no part of the
# password, as it is none after a password's name ("the staging DB (password: ...)").
@given(
    form=st.sampled_from(["Grafana ({u} / {v})", "Grafana ({u}:{v})", "the box (login {u}:{v}).", "[creds: {u} / {v}]", "Jenkins: {u} / {v})"]),
    user=st.sampled_from(["admin", "root", "guest"]),
    value=generated,
)
def test_a_pair_in_an_aside_that_a_bracket_closes_is_refused(form: str, user: str, value: str) -> None:
    text = form.format(u=user, v=value)
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    ["total = (admin / count(x))", "x = (root / f(2))", "login (admin:get_pw())", "Grafana (admin / users)", "(admin:label=Prod2)",
     "the roles (admin / root2 split)"],
)  # fmt: skip
def test_code_and_words_in_an_aside_after_a_default_account_are_kept(text: str) -> None:
    assert find_secret(text) is None, text


# An email address and a generated password around a spaced slash need no word of a login either.
ADDRESSES = ["ann@example.com", "mailer@mail.example.co.uk", "svc-ci+builds@corp.example", "j.doe@example.org"]


@given(text=st.builds("{}{} / {}{}".format, st.sampled_from(["", "SMTP: ", "- ", "the mailer is "]), st.sampled_from(ADDRESSES), generated, ends))
def test_an_address_and_a_generated_password_around_a_spaced_slash_are_refused(text: str) -> None:
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        "ann@example.com / hunter22",  # a weak value needs a word of a login here
        "Contact: ann@example.com / +1-555-0100",
        "ann@example.com / @annsmith",
        "reviewers: ann@example.com / Bob-Smith2",
        "ann@example.com / bob@example.com",
        "see https://ann@example.com / Xk7pQ2mZ9w",  # the address is a URL's
    ],
)
def test_what_a_spaced_slash_joins_to_an_address_that_is_no_password_is_kept(text: str) -> None:
    assert find_secret(text) is None


def test_a_default_account_before_a_password_is_refused_without_a_word_of_a_login() -> None:
    assert find_secret("Use admin / Tr0ub4dor&3 to log in") == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "DB options: postgres / mysql8.",  # products, not an account and its password
        "ubuntu / debian12.",
        "admin / users",
        "root / sudo",
        "the admin / root2 split",
        "admin/hunter22 for the staging grafana",  # an unspaced slash is a path's as often
    ],
)
def test_what_a_spaced_slash_joins_that_is_no_default_account_and_password_is_kept(text: str) -> None:
    assert find_secret(text) is None


# Any user after a label that starts the line (a service's name and a colon), around a spaced
# slash, when the password looks generated with a symbol and both cases in it; a label over two
# names, a ratio or a path has the same shape, with no such value.
SERVICE_LABELS = ["Jenkins:", "staging db:", "- Grafana:", "* VPN:", "Kafka UI:", "Jenkins -", "The vendor portal (portal.example.com) -",
                  "Grafana (staging):", "- NAS (basement) \u2014", "# Jenkins:", "// staging db:", "REM The vendor portal (example.com) -",
                  "1. Kafka UI:"]  # fmt: skip
symbolled = generated.filter(
    lambda v: any(not c.isalnum() for c in v) and any(c.isupper() for c in v) and any(c.islower() for c in v) and any(c.isdigit() for c in v)
) | st.sampled_from(["Xk29pqLm7!", "Tr0ub4dor&3", "Blue#42x9Q"])


@given(label=st.sampled_from(SERVICE_LABELS), user=st.sampled_from(["deploy", "app", "ann.lee", "svc_ci", "ops2"]), value=symbolled, after=ends)
def test_a_user_and_a_generated_password_after_a_service_s_label_are_refused(label: str, user: str, value: str, after: str) -> None:
    text = f"{label} {user} / {value}{after}"
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        "Repo: acme / MyApp2024", "Ratio: 3 / 4", "Path: src / Main2.java", "Jenkins: deploy / hunter22", "Dirs: src / build-2.0!",
        "Jenkins: deploy / (see vault)", "Stack: react / Next14", "Owners: ann / bob", "Teams: red / blue",
        "We compared a / b and then Xk29pqLm7! / y", "Repo (github) - acme / MyApp2024", "Ratio - 3 / 4", "Fix the bug - ann / Bob2024x",
    ],
)  # fmt: skip
def test_what_a_spaced_slash_joins_after_a_label_that_is_no_pair_is_kept(text: str) -> None:
    assert find_secret(text) is None, text


# A user and a password with a space between after a login's label and its colon, when the
# password has a symbol, a digit and both cases and ends its clause.
@given(
    label=st.sampled_from(["login:", "Login details:", "admin login:", "Basic auth:", "Basic auth for staging:", "LOGIN:"]),
    user=st.sampled_from(["deploy", "app", "ann.lee", "svc_ci", "ann@example.com"]),
    value=symbolled,
    after=st.sampled_from(["", ".", "\n", " (rotate monthly)"]),
)
def test_a_user_and_a_password_after_a_login_s_label_and_a_space_are_refused(label: str, user: str, value: str, after: str) -> None:
    text = f"{label} {user} {value}{after}"
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        "login: deploy (see vault)", "login: deploy Build2024", "login: use SSO2024!", "login: deploy Xk29pqLm7! then run it",
        "Login: the Okta2FA! page", "login: via SSO4you!", "login: deploy hunter22", "Basic auth: enabled by default",
    ],
)  # fmt: skip
def test_what_follows_a_login_s_label_that_is_no_pair_is_kept(text: str) -> None:
    assert find_secret(text) is None, text


# An account systems come with, as an aside in brackets before a colon, stands for the password's
# name: a generated value after it is refused.
ACCOUNT_ASIDES = ["Jenkins (admin)", "Grafana (root)", "- NAS (user admin)", "the box (Administrator)", "Jenkins ( admin )", "SQL Server (sa)"]


@given(text=st.builds("{}: {}{}".format, st.sampled_from(ACCOUNT_ASIDES), generated, ends))
def test_a_generated_password_after_a_default_account_in_brackets_is_refused(text: str) -> None:
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        "Jenkins (admin): hunter22",  # a weak value: only a password's texture counts here
        "Permissions (admin): read, write",
        "Jenkins (admin): see 1Password",
        "Jenkins (ann): Xk7pQ2mZ9w",  # no account systems come with
        "Role (admin): arn:aws:iam::123456789012:role/Admin",
        "Scopes (admin): Repo.ReadWrite.All",
        "The console (admin): https://console.example.com/Admin2",
        "def f(admin): Xk7pQ2mZ9w",  # a call's brackets, not an aside
    ],
)
def test_what_follows_a_default_account_in_brackets_that_is_no_password_is_kept(text: str) -> None:
    assert find_secret(text) is None


# With no spaces around the slash, the word of a login must be there too: a path joins names so.
@given(
    context=st.sampled_from(["creds: ", "Grafana login ", "credentials for the NAS: ", "user account "]),
    user=st.sampled_from(["admin", "Admin", "root", "Administrator", "superuser", "vagrant"]),
    value=st.one_of(mixed, weak),
    after=st.sampled_from(["", ".", "\n", " (rotated monthly)"]),
)
def test_a_default_account_and_a_password_around_an_unspaced_slash_after_a_login_word_are_refused(
    context: str, user: str, value: str, after: str
) -> None:
    assert find_secret(f"{context}{user}/{value}{after}") == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "credentials: vault/prod2db",  # a vault's path: no account of a system's before the slash
        "https://example.com/admin/Secret123",
        "user: admin/settings",
        "login page at /admin/login2",
        "credentials: admin/config.yaml",
        "account admin/v2",
        "the users/admin/Profile2 route",
    ],
)
def test_an_unspaced_slash_that_joins_a_path_is_kept(text: str) -> None:
    assert find_secret(text) is None


# Right after a login's word and a colon or "is", any user and a generated password, with no space
# around a slash, after a comma or joined by "and".
@given(
    text=st.builds(
        "{}{}{}{}{}".format,
        st.sampled_from(["Staging login: ", "Credentials for the demo: ", "the NAS login is ", "creds: ", "Logins: ", "CREDENTIALS: ",
                         "VPN creds in case 1Password is down: ", "creds (staging): ", "login when SSO is down: ", "creds if the portal asks: "]),
        st.sampled_from(["ann", "demo", "j.doe", "svc-deploy", "ann@example.com", "admin"]),
        st.sampled_from(["/", ", ", " and "]),
        mixed.filter(lambda v: "@" not in v),
        st.sampled_from(["", ".", "\n", " (rotate monthly)"]),
    )
)
def test_a_user_and_a_generated_password_joined_by_a_slash_a_comma_or_and_right_after_a_login_word_are_refused(text: str) -> None:
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        "login: ann/hunter2",  # a weak value: such a slash joins a path's parts as often
        "Login: src/auth/LoginForm2",  # a path of three parts
        "login: ann/Xk7pQ2mZ9w/profile",
        "Login: SSO/Okta",
        "logins: alice, bob2024",  # a list
        "logins: alice and bob2024",
        "Credentials are ann and see the vault",
        "login: admin, then run make deploy",
        "login: admin, see the vault",
        "the login page: docs/LoginPage2x",  # the pair must follow the login's word at once
        "Login is handled by auth/OAuth2Flow",
        "the blogin: ann/Xk7pQ2mZ9w",  # a login's word inside another word
        # Code: a constant is no user, a quoted value after a comma is an argument.
        "assert credentials is None, 'Cannot provide both `credentials` and `Source2x`'",
        "assert credentials is not None, Xk7pQ2mZ9w",
        'login = login is True, "Xk7pQ2mZ9w"',
        # when it serves or an aside, then no pair
        "creds in case of doubt: ask ann, then bob", "login when SSO fails: use the break-glass account, see vault",
        "creds (staging): see vault, ask ops",
    ],
)
def test_what_a_slash_a_comma_or_and_joins_right_after_a_login_word_that_is_no_pair_is_kept(text: str) -> None:
    assert find_secret(text) is None


# Short labels: u/p before a pair, and p: after a user given after u: on the same line.
@given(
    form=st.sampled_from(
        ["u/p: {user}/{value}", "u/pw: {user} / {value}", "u: {user} p: {value}", "U: {user}, P: {value}", "user: {user} / p: {value}",
         "u={user} p={value}", "creds: u={user}, p={value}", "login={user}; p={value}"]
    ),
    user=st.sampled_from(["admin", "root", "ann", "svc-backup"]),
    value=st.one_of(mixed, weak),
    after=st.sampled_from(["", ".", "\n", " (rotated monthly)"]),
)
def test_a_pair_under_short_labels_is_refused(form: str, user: str, value: str, after: str) -> None:
    if form.startswith("u/p:") and user not in ("admin", "root"):
        user = "admin"  # around a slash without spaces only an account systems come with is a user
    assert find_secret(form.format(user=user, value=value) + after) == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "def f(u: int, p: float2)",
        "{ u: int, p: float2 }",
        "u: 1.0 p: 0.05",
        "user: bob p: value",
        "step p: x2",
        "see docs/u/p: admin/x",
        "?u=123&p=2", "f(u=user, p=p)", "plot(u=x, p=0.05)", "u=1.0 p=0.05",
    ],
)
def test_short_labels_that_give_no_password_are_kept(text: str) -> None:
    assert find_secret(text) is None


# "and" between an account systems come with and its password, after a word of a login.
@given(
    context=st.sampled_from(["log in with ", "creds are ", "Grafana login: ", "the NAS account is "]),
    user=st.sampled_from(["admin", "root", "Administrator", "vagrant"]),
    value=st.one_of(mixed, weak),
    after=st.sampled_from(["", ".", "\n", " (rotated monthly)"]),
)
def test_a_default_account_and_its_password_joined_by_and_after_a_login_word_are_refused(
    context: str, user: str, value: str, after: str
) -> None:
    assert find_secret(f"{context}{user} and {value}{after}") == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "admin and hunter22",  # no word of a login: a list
        "the admin and root2 users",
        "user accounts: admin and guest2",
        "accounts: root and Admin2",
        "log in as admin and then reboot2",
    ],
)
def test_and_after_an_account_that_joins_no_password_is_kept(text: str) -> None:
    assert find_secret(text) is None


# A colon or a slash with no space between an account systems come with and a generated
# password, no login word.
@given(
    context=st.sampled_from(["", "Grafana ", "Grafana: ", "Jenkins -> ", "NAS (lab) ", "- "]),
    user=st.sampled_from(["admin", "Admin", "ADMIN", "root", "administrator", "guest", "vagrant", "sysadmin"]),
    joint=st.sampled_from([":", "/"]),
    value=mixed,
    after=st.sampled_from(["", " on the box", ".", "\n", ", rotate monthly"]),
)
def test_a_default_account_and_a_generated_password_around_a_colon_or_slash_are_refused(
    context: str, user: str, joint: str, value: str, after: str
) -> None:
    text = f"{context}{user}{joint}{value}{after}"
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        "admin:hunter22",  # no login word: a weak value may be anything
        "'root:xnu-792.25.20~1/RELEASE_I386",  # a Darwin kernel's build string
        "root:x:0:0:root:/root:/bin/bash",
        "admin:label=ADMIN_NAME",
        "{root:r}=R.win32.parse(S",
        "scopes: admin:public_key, admin:repo_hook, admin:org",
        "admin:ann2@example.com",
        "ns:admin:Xk9mQ2vLp",
        "/srv/admin:Xk9mQ2vLp",
        "admin:{{ vault_admin_password }}",
        "admin:<Password2>",
        "root:get_pass(Key2)",
        "admin/hunter22 works on staging",  # a weak value after a slash needs a login word too
        "users/admin/Profile2",
        "admin/users/Profile2",
        "https://example.com/admin/dQw4w9WgXcQ",
        "admin/ApiKeysController",
    ],
)
def test_a_colon_or_slash_after_an_account_that_joins_no_password_is_kept(text: str) -> None:
    assert find_secret(text) is None


# A label that names a user and a password together, as notes write it before the pair.
PAIR_LABELS = ["username/password:", "user/pass:", "Username / Password:", "login/pw =", "u/p", "USER/PASSWORD:", "email/password:", "User/Pwd -"]


@given(
    label=st.sampled_from(PAIR_LABELS),
    user=st.sampled_from(["ann", "svc-deploy", "j.doe", "ann@example.com"]),
    joiner=st.sampled_from(["/", ":", " / "]),
    value=mixed.filter(lambda v: "@" not in v),
    after=st.sampled_from(["", " (staging)", ".", "\n"]),
)
def test_a_pair_after_a_label_that_names_both_is_refused(label: str, user: str, joiner: str, value: str, after: str) -> None:
    # The slash without spaces joins a path's parts elsewhere; after such a label it joins the pair.
    text = f"{label} {user}{joiner}{value}{after}"
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        "username/password: admin/admin", "username/password: ann/changeme", "username/password: <user>/<password>",
        "username/password: $USER/$PASS", "user/pass: see vault/prod", "the user/password form posts to /login",
        "user/password auth via src/auth/Login2.ts", "see docs/user/password: the reset flow", "u/p: ann / (ask Bob)",
    ],
)  # fmt: skip
def test_a_label_that_names_both_without_a_password_after_it_is_kept(text: str) -> None:
    assert find_secret(text) is None, text


# A login's verb, the user it logs in as, then "with" or "using" and the password itself.
LOGINS_AS = ["log in as {u} with", "Log in as {u} using", "sign in as {u} with", "logged in as {u} with", "connect as {u} using", "ssh in as {u} with", "authenticate as {u} with",
             "connected as {u} using", "authenticated as {u} with", "log into staging as {u} with", "logged into the staging box as {u} with",
             "signed into prod-db as {u} using"]


@given(form=st.sampled_from(LOGINS_AS), user=st.sampled_from(USERS), value=st.one_of(weak, mixed), after=st.sampled_from(["", ".", " on the build box", ", then run the migrations"]))
def test_a_password_after_the_user_a_login_logs_in_as_is_refused(form: str, user: str, value: str, after: str) -> None:
    text = f"{form.format(u=user)} {value}{after}"
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        # a way in that is no password, a word, a path or a flag
        "log in as admin with SSO", "log in as root with sudo", "ssh in as root with id_ed25519", "login as ubuntu with key.pem",
        "sign in as ann using GitHub", "log in as bob with 2FA enabled", "connect as root with the -i flag",
        "authenticate as the service account using workload identity", "log in as admin with MFA then",
        "signed in as deploy with gh auth login", "log in as bob with the token from vault",
        # no login's verb before "as"
        "served as admin with Xk9qrvPq72mZb4 distinction", "run it as root with sudo -E", "works as admin with hunter2 too",
        "turned it into a list as of today with Xk29pqLm7!", "put the file into place as root with sudo2024!",
        "log into staging as admin with SSO",
    ],
)  # fmt: skip
def test_what_follows_a_user_a_login_logs_in_as_that_is_no_password_is_kept(text: str) -> None:
    assert find_secret(text) is None, text


# An account given as a login's, a user's or an account's value, then "with" or "using" and the
# password: only a generated value, as such an account is given a way in as often.
ACCOUNTS_WITH = ["The shared login is {u} with", "login: {u} with", "the test user is {u} with", "User: {u} using", "Username: {u} with",
                 "the admin account is {u} using", "LOGIN: {u} with", "Account is {u} with"]  # fmt: skip


@given(form=st.sampled_from(ACCOUNTS_WITH), user=st.sampled_from(USERS), value=generated, after=st.sampled_from(["", ".", " on the build box", ", then run the migrations"]))
def test_a_generated_password_after_an_account_given_as_a_login_s_value_is_refused(form: str, user: str, value: str, after: str) -> None:
    text = f"{form.format(u=user)} {value}{after}"
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        # a way in, a weak word or an attribute that is no password
        "The shared login is ops@corp.com with SSO", "the login is ann with Google", "Login is admin with the usual password",
        "The login is admin with hunter22", "username: ann with id 4821", "the user is bob with UID 1001", "the user is root with uid0",
        "The account is ann with role admin2", "the user is bob with ssh-ed25519",
        # a state the account is in, or a word of grammar where the user stands
        "the account is disabled with reason2FA", "the account is Locked with code AX93kd2", "the user is in with Xk9qrvPq72mZb4",
    ],
)  # fmt: skip
def test_what_follows_an_account_given_as_a_login_s_value_that_is_no_password_is_kept(text: str) -> None:
    assert find_secret(text) is None, text


# A user and a password on either side of a spaced colon, after a word of a login or with an
# address for the user: only a generated value.
@given(
    before=st.sampled_from(["creds for the test tenant -> ", "Staging login: ", "credentials ", "the admin login is ", "", "SMTP relay - "]),
    user=st.sampled_from(["ann@example.com", "mailer@mail.example.co.uk", "svc-ci+builds@corp.example"]),
    value=generated,
    after=st.sampled_from(["", ".", " (rotated monthly)", "\nthen run the migrations"]),
)
def test_an_address_and_a_generated_password_around_a_spaced_colon_are_refused(before: str, user: str, value: str, after: str) -> None:
    text = f"{before}{user} : {value}{after}"
    assert find_secret(text) == "credential_assignment", text


@given(before=st.sampled_from(["Staging login ", "DB creds: ", "the staging login is ", "credentials for the demo: "]), user=st.sampled_from(USERS), value=generated)
def test_a_user_and_a_generated_password_around_a_spaced_colon_after_a_login_word_are_refused(before: str, user: str, value: str) -> None:
    text = f"{before}{user} : {value}"
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        "x = user ? login : Other2x", "Login : ann", "login = is_admin ? admin : Guest2024x", "email: ann@example.com : Phone2 555",
        "the staging login is admin : hunter22", "creds: ann@example.com : see vault", "Ratio : 3:4", "Title : Report2024 draft",
        "ann@example.com : sent 2024-05-01",
    ],
)  # fmt: skip
def test_what_a_spaced_colon_joins_that_is_no_pair_is_kept(text: str) -> None:
    assert find_secret(text) is None, text


# A login's verb and "with", the password, then the user it logs in as: only a generated value.
@given(
    verb=st.sampled_from(["Logged in with", "log in with", "signed in using", "login with", "Authenticated with"]),
    value=generated,
    user=st.sampled_from(USERS),
)
def test_a_generated_password_right_after_a_login_s_with_and_before_its_user_is_refused(verb: str, value: str, user: str) -> None:
    text = f"{verb} {value} as {user}"
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text", ["signed in with Google as ann", "logged in with SSO as admin", "log in with GitHub as bob", "logged in with password as admin"]
)
def test_a_way_in_right_after_a_login_s_with_is_kept(text: str) -> None:
    assert find_secret(text) is None, text


# A login's verb and "with" or "using", maybe after what it logs into, then a password alone with
# a symbol, a digit and both cases that ends its clause.
@given(
    verb=st.sampled_from(["log in with", "We log in with", "sign in to the dashboard with", "We log into the dashboard with", "Logged into staging using",
                          "login with", "authenticate with"]),
    value=symbolled,
    after=st.sampled_from(["", ".", "\n", " (rotate monthly)", " for staging"]),
)  # fmt: skip
def test_a_password_alone_after_a_login_s_with_is_refused(verb: str, value: str, after: str) -> None:
    text = f"{verb} {value}{after}"
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        "log in with SSO", "log in with ann@Example1.com", "log into grafana with Xk29pqLm7! and check the panel", "log in with hunter22",
        "moved into the folder with Xk29pqLm7!", "went into production with Release!2024", "log in with Build2024",
        "authenticate with OAuth2.0.", "sign in with Python3.12+", "Sign in with Apple (iOS17+) works now.",
    ],
)  # fmt: skip
def test_what_follows_a_login_s_with_that_is_no_password_is_kept(text: str) -> None:
    assert find_secret(text) is None, text


# An address and a password that "use" or "enter" gives together, joined by "and" or "with".
@given(
    verb=st.sampled_from(["use", "Use", "For the demo account use", "enter"]),
    joint=st.sampled_from(["and", "with"]),
    value=symbolled,
    after=st.sampled_from(["", ".", "\n", " to log in", ", then submit"]),
)
def test_an_address_and_a_password_given_together_are_refused(verb: str, joint: str, value: str, after: str) -> None:
    text = f"{verb} demo@example.com {joint} {value}{after}"
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    ["use ann@example.com and the team alias", "use ann@example.com and bob@example.com", "Use ops@example.com with Build-2.0 tags",
     "use ann@example.com and Slack2024 for alerts", "use ann@example.com and Xk29pqLm7! then more words"],
)  # fmt: skip
def test_an_address_and_what_is_no_password_are_kept(text: str) -> None:
    assert find_secret(text) is None, text


# A login's verb and "with" or "using", then a user and a generated password joined by "and".
LOGINS_WITH = ["log in with {u} and", "Log in with {u} and", "sign in with {u} and", "login with {u} and", "LOGIN WITH {u} and", "Logged in with {u} and",
               "authenticate using {u} and", "Connect with {u} and", "ssh in with {u} and"]


@given(form=st.sampled_from(LOGINS_WITH), user=st.sampled_from(["deploy", "ann", "svc_ci", "j.doe"]), value=mixed.filter(lambda v: "@" not in v),
       after=st.sampled_from(["", ".", " to reach the console", ", then run the migrations"]))
def test_a_user_and_a_generated_password_after_a_login_with_are_refused(form: str, user: str, value: str, after: str) -> None:
    text = f"{form.format(u=user)} {value}{after}"
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        # ways in, a list of accounts, a weak or a path-like value, no login's verb
        "login with SSO and MFA", "log in with Google and GitHub", "Log in with your GitHub account and 2FA", "Log in with Okta and Duo Push",
        "sign in with email and password", "log in with admin and guest2", "connect with psql and pgcli", "log in with deploy and hunter22",
        "log in with deploy and src/keys/id2", "plug in with cable and Adapter2X", "check in with ann and Xk9mQ2vLp",
    ],
)  # fmt: skip
def test_what_and_joins_after_a_login_with_that_is_no_pair_is_kept(text: str) -> None:
    assert find_secret(text) is None, text


@given(
    label=st.sampled_from(["Grafana", "Test account", "Staging DB", "- jenkins"]),
    dash=st.sampled_from(["-", "\u2013", "\u2014"]),
    user=st.sampled_from(["admin", "app", "qa@example.com", "svc-deploy"]),
    value=generated,
    after=st.sampled_from(["", ".", " - rotate monthly", "\n"]),
)
def test_a_label_a_user_and_a_password_set_off_by_dashes_are_refused(label: str, dash: str, user: str, value: str, after: str) -> None:
    text = f"{label} {dash} {user} {dash} {value}{after}"
    assert find_secret(text) == "credential_assignment", text


@given(user=st.sampled_from(["ann", "app", "svc-vpn"]), value=st.sampled_from(["Tr0ub4dor&3", "Xk9!mQ2vLp", "q8W#v2Lm9Z"]))
def test_a_pair_that_use_gives_around_a_spaced_slash_is_refused(user: str, value: str) -> None:
    text = f"For the VPN use {user} / {value}"
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        # words set off by dashes: a title, a list, a sum, a weak word after a user
        "Q3 \u2014 revenue \u2014 Up12%", "1984 \u2014 George Orwell \u2014 Penguin2003", "London - Paris - Berlin2",
        "Jenkins \u2014 deploy \u2014 hunter22", "release \u2014 v2.1 \u2014 shipped", "x = a - b - Ctr2x", "Monday - standup - Zoom3x!",
        "Chapter 3 \u2014 Setup \u2014 Step2b",
        # what "use" gives around a slash that is no pair
        "use tabs / Spaces2x", "Use src / Build2024", "use 3 / 4 of the budget", "use either / Both-Ways2",
    ],
)  # fmt: skip
def test_words_set_off_by_dashes_and_choices_after_use_are_kept(text: str) -> None:
    assert find_secret(text) is None, text
