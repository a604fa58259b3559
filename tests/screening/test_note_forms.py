"""Forms notes give a credential in that sit beside the separator-and-name rules: an aside in
brackets between the name and its linking word, a value in Markdown's inline code right after its
name, and a VPN's pre-shared key."""

from __future__ import annotations

import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.screening.credentials import find_secret

from .test_clause_values import weak
from .test_sentences import generated, mixed


@given(
    name=st.sampled_from(["the admin password", "The grafana password", "the API key", "our DB password for prod"]),
    aside=st.sampled_from(["(staging)", "(rotated monthly)", "[prod]", "(see the runbook)"]),
    link=st.sampled_from(["is", "was", "is now"]),
    value=weak,
    after=st.sampled_from(["", ".", "\n", " for the demo"]),
)
def test_an_aside_between_the_name_and_its_linking_word_hides_nothing(name: str, aside: str, link: str, value: str, after: str) -> None:
    assert find_secret(f"{name} {aside} {link} {value}{after}") == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "the password (see below) is required",
        "the token (a JWT) is valid for 24 hours",
        "get_password(user) is hunter22",  # a call, not an aside
        "foo(password) is hunter22",
        "tokens[0] is abc123xyz",
        "the key (ed25519) is sha256",
    ],
)
def test_asides_and_calls_that_give_no_credential_are_kept(text: str) -> None:
    assert find_secret(text) is None


@given(before=st.sampled_from(["", "use the ", "user `admin`, ", "SSO: "]), name=st.sampled_from(["password", "API token", "passphrase"]), value=weak)
def test_a_value_in_inline_code_right_after_its_name_is_refused(before: str, name: str, value: str) -> None:
    assert find_secret(f"{before}{name} `{value}`") == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "the token `access_token` is read from the environment",
        "set the `token` parameter to `abc`",
        "the password `None`",
        "the API key `sk-...` goes in .env",
        "pass ``password`` as ``str``",
    ],
)
def test_inline_code_after_a_name_that_is_no_value_is_kept(text: str) -> None:
    assert find_secret(text) is None


@given(name=st.sampled_from(["pre-shared key", "Pre-Shared Key", "preshared key", "VPN pre-shared key"]), separator=st.sampled_from([": ", " = ", " is "]), value=mixed)
def test_a_pre_shared_key_is_a_credential(name: str, separator: str, value: str) -> None:
    assert find_secret(f"{name}{separator}{value}") == "credential_assignment"


@given(
    words=st.sampled_from(["pw for grafana", "the password for prod", "admin password (staging)", "the vault password for CI"]),
    value=weak,
    after=st.sampled_from(["", ".", "\n", " (rotated monthly)"]),
)
def test_a_spaced_equals_after_a_sentence_that_names_the_credential_is_refused(words: str, value: str, after: str) -> None:
    assert find_secret(f"{words} = {value}{after}") == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "max tokens for the model = 4096",
        "secret for signing = HS256",
        "a = password for b",
        "the password for prod == hunter22",  # a comparison
        "for token in tokens: count = total2",
    ],
)
def test_a_spaced_equals_that_gives_no_credential_is_kept(text: str) -> None:
    assert find_secret(text) is None


@given(
    name=st.sampled_from(["the password", "The admin password", "the API token", "our DB password"]),
    link=st.sampled_from(["'s ", "\u2019s ", " value is ", "'s value is ", " value: "]),
    value=weak,
    after=st.sampled_from(["", ".", "\n", " (rotated monthly)"]),
)
def test_is_written_as_s_and_a_name_followed_by_value_still_name_the_credential(name: str, link: str, value: str, after: str) -> None:
    assert find_secret(f"{name}{link}{value}{after}") == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "the password's length is 12",
        "it's hunter22",
        "Bob's hunter22 server",
        "the token's expiry2 date",
        "the default value is hunter22",  # no credential named before "value"
        "the password's hash is sha256",
    ],
)
def test_a_possessive_or_a_value_that_names_no_credential_is_kept(text: str) -> None:
    assert find_secret(text) is None


# A password's name alone before a weak value that ends its clause: a list of a note's facts gives
# one so (..., password hunter22). After "token" or "secret" the same words name models,
# encodings and regions too often, and a user or a verb must give it (test_user_pairs).
@given(
    before=st.sampled_from(["", "staging DB is postgres://app@db:5432/app, ", "The key is in ~/.ssh/id_rsa, ", "- "]),
    name=st.sampled_from(["password", "Password", "passphrase", "passwd", "pwd"]),
    value=weak,
    after=st.sampled_from(["", ".", "\n", " (rotated monthly)", " for staging"]),
)
def test_a_weak_value_that_ends_its_clause_right_after_a_passwords_name_is_refused(before: str, name: str, value: str, after: str) -> None:
    assert find_secret(f"{before}{name} {value}{after}") == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "interactive password provision?  (file? command-line?)",  # a word and a question mark
        "the password hunter2024 works for the staging box",  # the sentence goes on
        "password reset",
        "password sha256.",
        "password x86_64.",
        "token hunter2024",
        "secret hunter22",
    ],
)
def test_what_follows_a_passwords_name_alone_that_is_no_password_is_kept(text: str) -> None:
    assert find_secret(text) is None


@given(label=st.sampled_from(["wifi:", "Wi-Fi", "WLAN:", "SSID"]), network=st.sampled_from(["CoffeeShop", "acme-guest", "HomeNet5G"]), value=weak)
def test_a_wireless_network_and_its_password_around_a_spaced_slash_are_refused(label: str, network: str, value: str) -> None:
    assert find_secret(f"{label} {network} / {value}") == "credential_assignment"


@given(
    label=st.sampled_from(["wifi:", "Wi-Fi", "WLAN:", "SSID"]),
    network=st.sampled_from(["Home Net", "Cafe Guest 5G", "acme-guest"]),
    quote=st.sampled_from(['"', "'"]),
    value=st.one_of(mixed, weak),
)
def test_a_wireless_network_s_quoted_name_and_its_password_around_a_spaced_slash_are_refused(
    label: str, network: str, quote: str, value: str
) -> None:
    text = f"{label} {quote}{network}{quote} / {value}"
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text", ['the "a" / "b" ratio2x', 'title: "Home Net" / Xk9mQ2vLp7', "wifi: 'Home Net' / see the fridge", 'wifi "HomeNet" / WPA2']
)
def test_quoted_names_around_a_slash_that_are_no_network_and_its_password_are_kept(text: str) -> None:
    assert find_secret(text) is None, text


@pytest.mark.parametrize(
    "text",
    [
        "hunter2 is the PASSWORD",  # a sentence that shouts its name
        "Tr0ub4dor&3 is the API KEY",
        "password (prod):\nhunter22",  # an aside before the colon, the value below
        "the DB password (staging):\n```\nTr0ub4dor&3\n```",
    ],
)
def test_shouted_names_and_values_below_an_aside_are_refused(text: str) -> None:
    assert find_secret(text) == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "if value is TOKEN:",
        "abc123 as the TOKEN",  # "as" with no verb that gives it
        "password (optional):\nrequired",
        "def password(self):\n    return hunter22",  # a call's brackets, not an aside
        "if check(token):\n    abc123x",
    ],
)
def test_shouted_names_and_lines_after_a_call_that_give_no_credential_are_kept(text: str) -> None:
    assert find_secret(text) is None


# Plain text writes a dash as two hyphens: the same separator as the arrow and the dash.
@given(
    name=st.sampled_from(["password", "db password", "the admin password", "API token", "passphrase for prod"]),
    value=st.one_of(mixed, weak),
    after=st.sampled_from(["", ".", "\n", " (rotated monthly)"]),
)
def test_a_value_after_two_hyphens_that_stand_for_a_dash_is_refused(name: str, value: str, after: str) -> None:
    assert find_secret(f"{name} -- {value}{after}") == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "--password -- the password to use",
        "password -- see the vault",
        "SELECT password -- hashed with bcrypt",
        "WHERE password = ? -- bcrypt2024",
        "token -- optional, defaults to None",
        "git checkout password -- src/auth.py",
    ],
)
def test_two_hyphens_before_no_password_are_kept(text: str) -> None:
    assert find_secret(text) is None


# A value set off by commas right after the name a determiner opens.
@given(
    name=st.sampled_from(["the password", "The admin password", "our API token", "the staging DB password", "my passphrase", "their secret key"]),
    value=st.one_of(mixed, weak),
    after=st.sampled_from([", works", ", was rotated on Monday.", ", and the user is admin"]),
)
def test_a_value_set_off_by_commas_after_the_name_it_follows_is_refused(name: str, value: str, after: str) -> None:
    assert find_secret(f"{name}, {value}{after}") == "credential_assignment"
    assert find_secret(f"Staging box ({name.lower()}, {value})") == "credential_assignment"
    for quote in "'\"":  # quoted, the comma after the closing quote
        text = f"{name}, {quote}{value}{quote}{after}"
        assert find_secret(text) == "credential_assignment", text


@given(
    name=st.sampled_from(["the password", "The admin password", "our API token", "my passphrase"]),
    head=st.one_of(mixed, weak),
    joint=st.sampled_from(["&", ";", "&&"]),
    tail=st.text(string.ascii_letters + string.digits, min_size=1, max_size=6),
    after=st.sampled_from([", works", ", was rotated on Monday."]),
)
def test_an_ampersand_or_semicolon_inside_a_value_set_off_by_commas_is_the_value_s_own(
    name: str, head: str, joint: str, tail: str, after: str
) -> None:
    text = f"{name}, {head}{joint}{tail}{after}"
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        "f(password, hunter22, x)",
        "f(password, a&b, x)",
        "the password, R&D, and the token are in the vault",
        "the token, &amp;, is escaped",
        "the password, Q&A; FAQ, covers it",
        "def login(user, password, token2fa, retries=3):",
        "SELECT user, password, token, created FROM users",
        "the password, token, and key are stored in the vault",
        "the token, if any, is sent",
        "the secret, HMAC-SHA256, signs it",
        "the key, ed25519, is fine",
        "the password, see the vault, rotates",
        "the token, JWT, expires",
        "Pass the token, e.g. abc123, to the API",
        "f(password, 'x', y)", "the password, 'see vault', is fine", "SELECT user, password, 'x' FROM t",
    ],
)
def test_commas_around_no_password_after_a_name_are_kept(text: str) -> None:
    assert find_secret(text) is None


# "pw" in a note is a password's name as "pwd" is: a weak value that ends its clause after it counts.
@given(
    before=st.sampled_from(["", "staging box, ", "ssh box (", "NAS: user ann, "]),
    name=st.sampled_from(["pw", "Pw", "PW"]),
    value=weak,
    after=st.sampled_from(["", ".", ")", "\n"]),
)
def test_a_weak_value_after_pw_is_refused(before: str, name: str, value: str, after: str) -> None:
    assert find_secret(f"{before}{name} {value}{after}") == "credential_assignment"


@pytest.mark.parametrize("text", ["pw reset", "set pw 42", "the pw field2 is required", "pw length12 chars", "pw: see the vault"])
def test_words_after_pw_that_are_no_password_are_kept(text: str) -> None:
    assert find_secret(text) is None


# A bracket that closes an aside around the name and its value ends the value's clause.
@given(
    name=st.sampled_from(["pw", "password", "passphrase", "pwd"]),
    value=weak,
    after=st.sampled_from([" and restart the runner", ", then reboot", " before the demo."]),
)
def test_a_weak_value_that_closes_an_aside_is_refused(name: str, value: str, after: str) -> None:
    assert find_secret(f"ssh into the build box as deploy ({name} {value}){after}") == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "        def on_token(token: Message) -> None:",
        "        obj = {ROOT_KEY: obj} if cls.custom_root_type else cls._decompose_class(obj)",
        "log(password hunter)) and go",
        "check (password reset) and retry",
    ],
)
def test_a_bracket_after_a_name_in_code_or_around_words_ends_no_password(text: str) -> None:
    assert find_secret(text) is None


# An aside in square brackets before the colon: aws configure prompts with the current value so.
@given(
    name=st.sampled_from(["AWS Secret Access Key", "API key", "Password", "secret key"]),
    aside=st.sampled_from(["None", "****************KEYx", "staging", "none"]),
    value=st.sampled_from(["Xk9mQ2vLp7ZrQwErTy", "Tr0ub4dor&3x", "wJalrXUtnFEMIxK7MDENGxbPxRfiCY9Zx"]),
)
def test_a_value_after_an_aside_in_square_brackets_and_a_colon_is_refused(name: str, aside: str, value: str) -> None:
    text = f"{name} [{aside}]: {value}"
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    ["tokens[0]: Xk9mQ2vLp7ZrQw", "see [password]: docs/password.md", "[1]: https://example.com/Token2024x",
     "Default region name [None]: us-east-1", "API key [see vault]: rotate monthly"],
)  # fmt: skip
def test_an_index_a_link_or_a_setting_before_square_brackets_and_a_colon_is_kept(text: str) -> None:
    assert find_secret(text) is None, text


# An old value, then an arrow to the new one: what a note of a rotation keeps.
@given(
    name=st.sampled_from(["password", "password:", "DB password:", "changed the admin password", "root pw:", "PASSWORD=", "API key:"]),
    old=st.sampled_from(["changeme", "admin", "hunter2", "old-key-2019", "Spring2024!"]),
    arrow=st.sampled_from(["->", "=>", "\u2192", "\u21d2", "\u279c", "\u27f6"]),
    value=st.one_of(mixed, weak),
    after=st.sampled_from(["", ".", "\n", " (rotated today)"]),
)
def test_a_new_value_after_an_arrow_from_the_old_one_is_refused(name: str, old: str, arrow: str, value: str, after: str) -> None:
    assert find_secret(f"{name} {old} {arrow} {value}{after}") == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "password: changeme -> Xk9mQ2vLp7Rt",
        "changed the admin password changeme \u2192 Xk9mQ2vLp7Rt",
        "password changeme => Xk9mQ2vLp7Rt",
        "DB password: hunter2 \u21d2 Tr0ub4dor&3x",
        "PASSWORD=changeme -> Xk9mQ2vLp7Rt",
        "API key: old-key -> 9f8e7d6c5b4a3f2e1d0c9b8a",
    ],
)
def test_rotations_noted_with_an_arrow_are_refused(text: str) -> None:
    assert find_secret(text) == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "password: md5 -> argon2id",  # what the value is made with, not the value
        "password hashing: bcrypt -> argon2id",
        "token: v1 -> v2",
        "JWT secret: HS256 -> RS256",
        "token lifetime: 1h -> 24h",
        "password: required -> optional",
        "auth: basic -> oauth2",
        "password: env -> vault",
        "password: 8 chars -> 12 chars",
        "const check = password => bcrypt.compare(password, storedHash2)",  # code's arrow functions
        "tokens.map(token => token.trim2())",
        "users.filter(password => password.length > 8)",
        "(apiKey: string) => fetchWithKey2(apiKey)",
        "return $this->password;",
        "API key id => 'a0000120'",  # a word that goes on with the name, not an old value
        "password length 8 -> 12",
    ],
)
def test_an_arrow_from_a_description_or_in_code_is_kept(text: str) -> None:
    assert find_secret(text) is None


# What a credential will be, should be or must be, and what a variable holds or equals.
@given(
    name=st.sampled_from(["the password", "API_KEY", "the CI secret FOO_TOKEN", "our DB password"]),
    verb=st.sampled_from(["will be", "should be", "must be", "would be", "can be", "holds", "equals", "will now be"]),
    value=mixed,
    after=st.sampled_from(["", ".", "\n", " from Monday"]),
)
def test_a_value_a_credential_will_be_or_holds_is_refused(name: str, verb: str, value: str, after: str) -> None:
    assert find_secret(f"{name} {verb} {value}{after}") == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "the CI secret FOO_TOKEN holds Xk9mQ2vLp7Rt4Wz8",
        "DB_PASSWORD equals Xk9mQ2vLp7Rt",
        "API_KEY should be Xk9mQ2vLp7Rt4Wz8",
        "the password will be Xk9#mQ2vLp",
    ],
)
def test_modal_and_holding_verbs_give_a_credential_s_value(text: str) -> None:
    assert find_secret(text) == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "the password should not be Xk9#mQ2vLp",  # advice against a value, not the value
        "the token will be rotated",
        "the password must be 12 characters",
        "the API key can be found in Vault",
        "the token holds 3 claims",
        "the secret holds the HMAC key",
        "the password could be anything",
        "tokens should be base64url",
        "if password equals confirmPassword then submit",
        "password.equals(confirmPassword2)",
        "the build will be Release2024x",  # no credential named
    ],
)
def test_what_a_credential_will_be_or_holds_that_is_no_value_is_kept(text: str) -> None:
    assert find_secret(text) is None


# "It" gives the value right after the clause that names the credential, without "now".
@given(
    name=st.sampled_from(["staging admin password?", "the admin password,", "the DB password changed;", "admin password -", "the API token:"]),
    pronoun=st.sampled_from(["it's", "it is", "It's", "it\u2019s"]),
    value=mixed,
    after=st.sampled_from(["", ".", "\n", " (rotated monthly)"]),
)
def test_a_value_it_gives_right_after_the_credential_s_clause_is_refused(name: str, pronoun: str, value: str, after: str) -> None:
    assert find_secret(f"{name} {pronoun} {value}{after}") == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    ["staging admin password? it's Xk9#mQ2vLp7", "the admin password, it's Xk9#mQ2vLp7", "admin password - it is Xk9#mQ2vLp7"],
)
def test_it_after_a_question_a_comma_or_a_dash_gives_the_value(text: str) -> None:
    assert find_secret(text) == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "the token format changed; it's JSON5",
        "the token expired, it's 2024-01-01",
        "check the password, it's case-sensitive",
        "the password? It's in 1Password",
        "the secret rotated; it's v2-signed",
        "password hashing? it's argon2id",
        "password-less login? it's Passkey2FA",  # the word names something else
        "a new password manager, it's KeePassXC2",
    ],
)
def test_what_it_is_after_a_credential_s_clause_that_is_no_value_is_kept(text: str) -> None:
    assert find_secret(text) is None


# A question that asks for a credential, and its answer on the line below.
@given(
    question=st.sampled_from(["Q: staging db password?", "User: what's the admin password?", "staging API key?", "What is the CI token?"]),
    label=st.sampled_from(["", "A: ", "Assistant: ", "Answer: ", "Bob: "]),
    pronoun=st.sampled_from(["", "It's ", "it is "]),
    value=mixed,
    after=st.sampled_from(["", ".", "\n", "\nThanks!"]),
)
def test_a_value_given_as_the_answer_to_a_question_for_a_credential_is_refused(
    question: str, label: str, pronoun: str, value: str, after: str
) -> None:
    assert find_secret(f"{question}\n{label}{pronoun}{value}{after}") == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    ["Q: staging db password?\nA: Xk9#mQ2vLp7", "User: what's the staging db password?\nAssistant: It's Xk9#mQ2vLp7.", "Q: the admin password?\nA: hunter22"],
)
def test_answers_to_a_question_for_a_credential_are_refused(text: str) -> None:
    assert find_secret(text) == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "Q: Where is the password stored?\nA: In Vault2024",  # an answer in words
        "How do I reset my password?\nA: Click Forgot-Password2 on the login page",
        "What's the token format?\nJWT-RS256",  # the question is about something else
        "Q: which password hash?\nA: argon2id",
        "Q: admin password?\nA: see 1Password",
        "Q: where do I find the admin password?\nA: 1Password",
        "Q: what hashes the password?\nA: argon2id",
        "Need the staging password?\nPing me",
        "Is the token valid?\nYes",
    ],
)
def test_answers_that_give_no_credential_are_kept(text: str) -> None:
    assert find_secret(text) is None


# A login's word and a colon that end their line, and the pair below them.
@given(
    label=st.sampled_from(["Credentials:", "The credentials are:", "creds:", "Staging login:", "Login for the demo:"]),
    fence=st.sampled_from(["", "```\n", "```text\n"]),
    user=st.sampled_from(["app", "deploy", "ann@example.com"]),
    joint=st.sampled_from(["\n", " / ", "/", "\n- "]),
    mark=st.sampled_from(["", "- ", "  "]),
    value=mixed,
)
def test_a_pair_below_a_login_s_word_is_refused(label: str, fence: str, user: str, joint: str, mark: str, value: str) -> None:
    text = f"{label}\n{fence}{mark}{user}{joint}{value}" + ("\n```" if fence else "")
    assert find_secret(text) == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "Credentials:\napp\nXk9#mQ2vLp7",
        "The credentials are:\n```\napp\nXk9#mQ2vLp7\n```",
        "Staging login:\napp / Xk9#mQ2vLp7",
        "Credentials:\n- app\n- Xk9#mQ2vLp7",
    ],
)
def test_pairs_below_a_login_s_word_are_refused(text: str) -> None:
    assert find_secret(text) == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "Login:\nClick the button\nthen wait",
        "Credentials:\nsee the vault",
        "logins:\nalice\nbob",
        "Credentials:\nuser\npassword",
        "Login:\nsrc/auth/LoginForm2",
        "credentials:\nvault/prod2db",  # a path
        "credentials:\n  username: app\n  password: ${DB_PASSWORD}",
        "def login(credentials):\n    user\n    Token2024x",
    ],
)
def test_lines_below_a_login_s_word_that_give_no_pair_are_kept(text: str) -> None:
    assert find_secret(text) is None


@given(
    name=st.sampled_from(["DB password", "the admin password", "API key", "Grafana token"]),
    aside=st.sampled_from(["(prod)", "[staging]", "(rotated today)"]),
    arrow=st.sampled_from(["->", "=>", "\u2192", "\u21d2"]),
    value=st.one_of(mixed, weak),
)
def test_an_arrow_after_an_aside_gives_the_value_as_a_colon_does(name: str, aside: str, arrow: str, value: str) -> None:
    text = f"{name} {aside} {arrow} {value}"
    assert find_secret(text) == "credential_assignment", text


@given(
    name=st.sampled_from(["the Twilio auth token", "the staging password", "the two passwords", "our API key"]),
    link=st.sampled_from(["ends up being", "ended up being", "turned out to be", "turns out to be", "happens to be", "are both"]),
    value=st.one_of(mixed, weak),
)
def test_phrases_that_link_a_name_to_its_value_as_is_does_are_read(name: str, link: str, value: str) -> None:
    text = f"{name} {link} {value}"
    assert find_secret(text) == "credential_assignment", text


TYPED_WHEN_ASKED = [
    "For the sudo password, enter {v}", "When asked for the password, type {v}", "When prompted for a password, type in {v}",
    "At the password prompt type {v}", "In the password field, paste {v}", "At the passphrase prompt, enter {v}.",
    "For the VPN password, Enter {v}", "when the installer asks for the admin password, input {v}",
    "When asked for the vault passphrase, answer {v}", "When prompted for the password, reply with {v}",
    "For the sudo password, use {v}", "At the password prompt, give {v}", "when the wizard asks for the token, Provide {v}",
    "For the keystore password, supply {v}", "When the script asks for the root password, respond with {v}",
]  # fmt: skip


@given(form=st.sampled_from(TYPED_WHEN_ASKED), value=st.one_of(mixed, weak))
def test_a_value_to_type_where_a_password_is_asked_for_is_refused(form: str, value: str) -> None:
    text = form.format(v=value)
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize("form", TYPED_WHEN_ASKED)
def test_each_place_a_password_is_asked_for_is_read(form: str) -> None:
    text = form.format(v="Tr0ub4dor3x")
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        # code's return types after its brackets, and an aside that gives no value
        "def token(self) -> str:", "fn token(&self) -> Result<String, Error>", "password (prod) -> see the vault",
        # linking phrases about something else, or with words after them
        "the test turned out to be Flaky2 again", "the tokens are both valid", "the password happens to be in the vault",
        # what to type that is no password, a field or a prompt that no credential names, and advice
        "For the password, enter something memorable", "For password hashing, use Argon2id.", "At the password prompt, press Enter2",
        "For the password, enter your email2", "In the search field, type Xk9mQ2vLp7", "At the prompt type exit2",
        "type PasswordPrompt2 = string", "If the password is wrong, enter it again", "For the password, type a passphrase of 4 words",
        "In the password field, type your name",
        # what to give that is a place, a tool, a name or a keyboard shortcut
        "For the password, use the one in the vault", "For the token, use GITHUB_TOKEN", "For the password, use a password manager",
        "For the API key, use your own", "For the token, use $GH_TOKEN", "For the password hash, use argon2id", "For passwords, use bcrypt",
        "When asked for the password, answer with the one from 1Password", "For the password prompt, use expect",
        "When asked for the password, provide it via stdin", "For the key, use ed25519", "For the SSH key, use id_ed25519",
        "For the password, use Ctrl+V", "For the sudo password, enter Ctrl+Shift+V", "For the password reset, use the admin panel",
    ],
)  # fmt: skip
def test_return_types_other_phrases_and_other_typing_are_kept(text: str) -> None:
    assert find_secret(text) is None, text


@given(
    form=st.sampled_from(['Wi-Fi "{n}": {v}', "wifi '{n}': {v}", 'Wi-Fi network "{n}": {v}', 'wifi_networks = {{"{n}": "{v}"}}', 'SSID "{n}": {v}.']),
    network=st.sampled_from(["Office 5G", "HomeNet", "Cafe Guest"]),
    value=st.one_of(mixed, weak),
)
def test_a_wireless_network_s_quoted_name_a_colon_and_its_password_are_refused(form: str, network: str, value: str) -> None:
    text = form.format(n=network, v=value)
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        '{"wifi": "on", "name": "Xk9mQ2vLp7"}', 'WiFi "Office 5G": see the sign', 'SSID "Office": WPA2', 'title "Office 5G": Xk9mQ2vLp7',
        'wifi "Office 5G": 5GHz',
    ],
)  # fmt: skip
def test_what_follows_a_quoted_name_that_is_no_network_s_password_is_kept(text: str) -> None:
    assert find_secret(text) is None, text


@given(
    condition=st.sampled_from(["If the build asks for a signing password", "if sudo asks for a password", "When the installer wants the admin password",
                               "whenever the VPN client asks for the token", "Once prompted for the keystore passphrase"]),
    link=st.sampled_from(["it's", "it is", "it\u2019s"]),
    value=generated,
    after=st.sampled_from(["", ".", " (rotated monthly)"]),
)  # fmt: skip
def test_a_generated_value_that_it_gives_right_after_a_condition_that_asks_for_a_credential_is_refused(
    condition: str, link: str, value: str, after: str
) -> None:
    text = f"{condition} {link} {value}{after}"
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        "the password it's using is wrong", "the token it's Xk9mQ2vLp7", "if sudo asks for a password it's hunter22",
        "If the password prompt appears it's because SSO2 failed", "if you forget the password it's in 1Password",
        "the key it's signed with is RSA4096",
    ],
)  # fmt: skip
def test_what_it_is_said_to_be_after_a_credential_with_no_condition_or_value_is_kept(text: str) -> None:
    assert find_secret(text) is None, text


@given(
    network=st.sampled_from(["the office wifi is CorpGuest and", "Office WiFi: CorpGuest,", "the SSID is CorpNet and", "wifi CorpNet,"]),
    link=st.sampled_from(["the key is", "the key:", "The key is"]),
    value=st.one_of(mixed, weak),
)
def test_the_key_of_a_wireless_network_named_earlier_in_its_sentence_is_refused(network: str, link: str, value: str) -> None:
    text = f"{network} {link} {value}"
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    ["the wifi is slow and the key is to restart the router2", "The wifi is down. The key is Xk9mQ2vLp7", "the key is Xk9mQ2vLp7 for the demo"],
)
def test_the_key_of_something_else_is_kept(text: str) -> None:
    assert find_secret(text) is None, text


@given(
    question=st.sampled_from(["The password?", "staging db password?", "the admin password for Jenkins?"]),
    value=st.one_of(mixed, weak),
    after=st.sampled_from(["", ".", "\n"]),
)
def test_the_answer_after_a_question_for_a_credential_on_its_line_is_refused(question: str, value: str, after: str) -> None:
    text = f"{question} {value}{after}"
    assert find_secret(text) == "credential_assignment", text


@given(
    adverb=st.sampled_from(["literally", "actually", "really", "temporarily"]),
    value=st.one_of(mixed, weak),
)
def test_an_adverb_between_the_linking_word_and_the_value_hides_nothing(adverb: str, value: str) -> None:
    text = f"the staging password is {adverb} {value}"
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    ["What is the password? See the vault.", "Forgot your password? Reset2 it here", "Is the token valid? Yes2 it is",
     "Which token? gpt-4o", "the token is really long"],
)  # fmt: skip
def test_answers_in_words_and_adverbs_before_words_are_kept(text: str) -> None:
    assert find_secret(text) is None, text
