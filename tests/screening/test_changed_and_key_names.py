"""Two ways notes give a credential in a sentence: a key's two-word name right before its value
(``the secret key 8f14...``), and a change told between the name and its new value (``the root
password was changed to hunter2``)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.screening.credentials import find_secret

from .test_clause_values import weak
from .test_sentences import mixed  # three of lower case, upper case, digits and symbols

KEY_NAMES = [
    "secret key", "API key", "api key", "Access Key", "SIGNING KEY", "private key", "master key", "encryption key", "webhook key",
    "wifi key", "Wi-Fi key", "WPA2 key", "WPA key", "WEP key", "wireless key", "WLAN key",
    # Keys named for what they unseal, recover, encrypt or sign (Vault, Fernet, a JWT, an HMAC).
    "unseal key", "Unseal Key", "recovery key", "fernet key", "JWT key", "HMAC key",
]  # fmt: skip
NOT_KEY_NAMES = [
    "cache key", "primary key", "public key", "sort key", "partition key", "foreign key", "idempotency key", "GPG key", "the key",
    "security key", "network key",
]  # fmt: skip
BEFORE = ["", "the ", "use the ", "our staging "]
AFTER = ["", " for signing", " (rotate monthly)", "."]

hex_key = st.sampled_from([32, 48, 64]).flatmap(lambda n: st.text("0123456789abcdef", min_size=n, max_size=n)).filter(
    lambda v: any(c.isdigit() for c in v) and any(c.isalpha() for c in v) and len(set(v)) >= 8
)


@given(name=st.sampled_from(KEY_NAMES), before=st.sampled_from(BEFORE), after=st.sampled_from(AFTER), value=st.one_of(hex_key, mixed))
def test_a_generated_value_right_after_a_keys_two_word_name_is_refused(name: str, before: str, after: str, value: str) -> None:
    assert find_secret(f"{before}{name} {value}{after}") == "credential_assignment"


@given(name=st.sampled_from(NOT_KEY_NAMES), before=st.sampled_from(BEFORE), after=st.sampled_from(AFTER), value=hex_key)
def test_the_same_value_after_a_key_that_is_no_credential_is_kept(name: str, before: str, after: str, value: str) -> None:
    assert find_secret(f"{before}{name} {value}{after}") is None


@pytest.mark.parametrize(
    "text",
    [
        # A PGP key's id (16 hex digits) and fingerprint (40), which are public.
        "the signing key 4AEE18F83AFDEB23 signs the releases",
        "the signing key 9DC858229FC7DD38854AE2D88D81803C0EBFCD88 signs the releases",
        "import the signing key 0x9dc858229fc7dd38854ae2d88d81803c0ebfcd88 first",
        # Words and names after a key's name, as after any credential word.
        "the API key Qwen2.5-7B costs less",
        "the secret key rotation runs nightly",
        "the master key Argon2id hashing",
        "the SSH key id_ed25519 is in ~/.ssh",
        "the SSH key SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8 is on the server",
        "the license key XXXX-XXXX-XXXX-XXXX goes here",
    ],
)
def test_public_names_and_words_after_a_keys_name_are_kept(text: str) -> None:
    assert find_secret(text) is None


NUMBERED_NAMES = ["Unseal Key", "Recovery Key", "Password", "API key", "token", "client secret", "- Password", "JWT key"]
NOT_NUMBERED_NAMES = ["Step", "Key", "primary key", "Python", "Section", "Attempt"]


@given(name=st.sampled_from(NUMBERED_NAMES), number=st.integers(1, 99), value=st.one_of(mixed, hex_key), tight=st.booleans())
def test_a_value_after_a_credentials_name_and_its_number_is_refused(name: str, number: int, value: str, tight: bool) -> None:
    # Vault's init prints "Unseal Key 1: ..." to "Unseal Key 5: ..."; notes number keys and passwords alike.
    assert find_secret(f"{name} {number}:{'' if tight else ' '}{value}") == "credential_assignment"


@given(name=st.sampled_from(NOT_NUMBERED_NAMES), number=st.integers(1, 99), value=st.one_of(mixed, hex_key))
def test_the_same_value_after_a_number_of_another_name_is_kept(name: str, number: int, value: str) -> None:
    assert find_secret(f"{name} {number}: {value}") is None


@pytest.mark.parametrize(
    "text",
    [
        "Password 1: see the vault", "Token 2: none", "API key 2: rotated on 2026-11-01", "Python 3: 3.11.7",
        "the API key 12345: Xk8mKq2Lz9Ab3Cd5Ef7Gh9", "Unseal Key 1 to 5 and the root token",
        "recovery_key: /etc/vault/recovery.txt", "fernet_key = Fernet.generate_key()", 'jwt_key_id = "kid-2024-01"',
    ],
)
def test_what_follows_a_numbered_or_new_key_name_that_is_no_value_is_kept(text: str) -> None:
    assert find_secret(text) is None


@pytest.mark.parametrize(
    "text",
    ["The wifi key is Tr0ub4dor&3", "Wi-Fi key: hunter22", "the WPA2 key for the guest network: guest2024", "WLAN key -> Tr0ub4dor&3"],
)
def test_a_wireless_networks_key_is_a_password(text: str) -> None:
    assert find_secret(text) == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    ["the wifi key is printed on the router", "Wi-Fi key: on the sticker", "the WPA2 key is 256-bit", "security key: registered"],
)
def test_what_is_said_of_a_wireless_key_is_kept(text: str) -> None:
    assert find_secret(text) is None


NAMES = ["password", "root password", "staging DB password", "API key", "token", "secret", "passphrase"]
CHANGES = [
    "was changed", "has been reset", "got rotated", "was just updated", "is now set", "will be set", "had been replaced",
    "defaults", "will default", "has defaulted",
]  # fmt: skip


@given(
    name=st.sampled_from(NAMES),
    change=st.sampled_from(CHANGES),
    link=st.sampled_from(["to", "as"]),
    value=st.one_of(mixed, hex_key),
    after=st.sampled_from(["", ".", " by ops", " yesterday"]),
)
def test_a_value_after_a_change_told_between_name_and_word_is_refused(name: str, change: str, link: str, value: str, after: str) -> None:
    assert find_secret(f"the {name} {change} {link} {value}{after}") == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "the root password was changed to hunter2",
        "The staging DB password was recently changed to Tr0ub4dor&3 by ops",
        "the API key has been rotated to 9f8e7d6c5b4a3f2e1d0c",
    ],
)
def test_the_notes_that_tell_a_change_are_refused(text: str) -> None:
    assert find_secret(text) == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        "the password was changed to expire in 90 days",
        "the password was changed to something stronger",
        "the token was rotated to v2",
        "the token was rotated to v2-signed",
        "the token was changed to HS256",
        "the API key was rotated to the new one on 2024-07-01",
        "the password defaults to the value of DB_PASSWORD", "the key defaults to 32 bytes",
        "the password defaults to 12 characters", "the token defaults to cl100k_base",
        "the secret was moved to vault/prod/db2",
        # Not a credential's name before the change.
        "the password policy was changed to require12chars",
        "the user was changed to admin2024",
        "our tokenizer was updated to cl100k_base",
        # The change far from the name: no name within the phrase's reach.
        "the password " + "x" * 80 + " was changed to Hunter2024",
    ],
)
def test_what_a_change_says_that_is_no_value_is_kept(text: str) -> None:
    assert find_secret(text) is None


@pytest.mark.parametrize("tag", ["code", "b", "p", "li", "em", "a"])
@pytest.mark.parametrize("word", ["Name", "ID", "Arn", "Value", "Key"])
@pytest.mark.parametrize("name", ["secret", "token", "password", "signing key", "API key"])
def test_a_word_that_its_element_closes_is_no_value(name: str, word: str, tag: str) -> None:
    # HTML in documentation (botocore's, for one): <code>secret Name</code>, <p>signing key ID</p>.
    assert find_secret(f"<{tag}>the {name} {word}</{tag}> is described below") is None


@given(name=st.sampled_from(["password", "secret", "token", "secret key", "API key"]), value=mixed, tag=st.sampled_from(["code", "b", "li"]))
def test_a_value_that_its_element_closes_is_still_judged(name: str, value: str, tag: str) -> None:
    assert find_secret(f"<{tag}>the {name} {value}</{tag}>") == "credential_assignment"
    assert find_secret(f"<{tag}>{name.replace(' ', '_')}={value}</{tag}>") == "credential_assignment"


@pytest.mark.parametrize("text", ["the API key id=a00001*0 names it", "secret key_ref=vault/Db2:Pw!x", "token kind=Bearer2!x"])
def test_a_name_and_its_own_value_after_a_credential_word_is_kept(text: str) -> None:
    assert find_secret(text) is None


@pytest.mark.parametrize("path", ["/Users/<user>/.ssh/id_rsa", "/Users/Bob2/.ssh/id_rsa", "C:/Keys/Deploy#2.pem"])
def test_the_value_after_a_key_that_a_credential_is_for_is_the_keys(path: str) -> None:
    # ssh-add's prompt, as Node's release guide quotes it: the passphrase is for the key at the path.
    assert find_secret(f"Enter passphrase for key '{path}':") is None


# A prompt that names what it asks the password for with a quoted name, a URL or a path (git's,
# ssh's, ssh-add's, curl's), with the password typed after it, as a pasted transcript holds it.
PROMPTS = [
    "Password for 'https://bob@github.com': {v}", "Enter passphrase for key '/home/u/.ssh/id_ed25519': {v}",
    "Enter passphrase for /home/u/.ssh/id_rsa: {v}", 'Enter passphrase for "/Users/ann/.ssh/id_rsa": {v}',
    "Enter host password for user 'bob': {v}", "password for ~/.ssh/deploy_key: {v}",
]  # fmt: skip


@given(form=st.sampled_from(PROMPTS), value=st.one_of(mixed, hex_key))
def test_a_value_typed_after_a_prompt_that_names_a_path_or_a_quoted_name_is_refused(form: str, value: str) -> None:
    text = form.format(v=value)
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        "Password for 'https://bob@github.com': ", "Password for 'https://github.com': see the credential helper",
        "Enter passphrase for key '/home/u/.ssh/id_ed25519': (typed it)", "Token for /api/v2: 3600",
        "look for /etc/notes: Xk29pqLm7Vb3", "arn:aws:secretsmanager:us-east-1:123:secret:prod/db: Xk29pqLm7Vb3",
        # A quote before a colon that opens a string (httpcore's proxy credentials), not one that closes a name.
        'userpass = username + b":" + password', 'db_password = username + b":" + password', "auth = user + f':' + token",
    ],
)  # fmt: skip
def test_a_prompt_with_nothing_typed_and_paths_that_name_nothing_are_kept(text: str) -> None:
    assert find_secret(text) is None, text


SEPARATORS = ["->", "-", "\u2192", "\u2013", "\u2014"]
NOTE_NAMES = ["password", "new password", "password for prod", "the API key for billing", "DB token", "Password updated"]


@given(name=st.sampled_from(NOTE_NAMES), separator=st.sampled_from(SEPARATORS), value=st.one_of(mixed, hex_key), after=st.sampled_from(["", " (rotate monthly)", "."]))
def test_a_value_after_an_arrow_or_a_dash_in_a_note_is_refused(name: str, separator: str, value: str, after: str) -> None:
    assert find_secret(f"{name} {separator} {value}{after}") == "credential_assignment"


@given(name=st.sampled_from(NOTE_NAMES), aside=st.sampled_from(["prod", "azure portal", "rotated 2024-07-01", "see #ops"]), value=st.one_of(mixed, hex_key))
def test_a_value_after_an_aside_and_its_colon_is_refused(name: str, aside: str, value: str) -> None:
    assert find_secret(f"{name} ({aside}): {value}") == "credential_assignment"


@given(name=st.sampled_from(NAMES), change=st.sampled_from(["updated", "changed", "was rotated", "has been reset", "rotated from Xk9v2LmQ7t"]), value=mixed)
def test_a_value_after_a_change_and_a_colon_is_refused(name: str, change: str, value: str) -> None:
    assert find_secret(f"{name} {change}: {value}") == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        # Words, names and dates after the same separators.
        "password -> hashed with Argon2id",
        "token - see the vault",
        "password for prod \u2014 ask the on-call",
        "Token updated: 2024-07-01T10:00:00Z",
        "Password changed: yes",
        "Password reset: see the runbook",
        "the token \u2192 ERC20Token contract",
        # Code: a return annotation, a call before a colon, a docstring's argument.
        "def token(self) -> Token2Type:",
        "def set_password(pw): Xk9v2LmQ7t",
        "    password (str): The user's password.",
        "    token (Optional[str]): Defaults to None.",
        # Arithmetic and a list item are no separators after a name.
        "offset = token_count - Xk9v2LmQ7t_len",
        "- Xk9v2LmQ7t",
    ],
)
def test_what_follows_those_separators_that_is_no_value_is_kept(text: str) -> None:
    assert find_secret(text) is None


@pytest.mark.parametrize(
    "text",
    [
        # markdown-it's strikethrough rule: an attribute minus one, then an index's closing bracket.
        'if state.tokens[endDelim.token - 1].type == "text":',
        "last = tokens[len(tokens) - 1]",
        "width = password_field.width - Xk9v2LmQ7t",
        "n = (token) - Xk9v2LmQ7t",
        "gap = token - Xk9v2Lm(Q7t)",
    ],
)
def test_subtraction_in_code_is_no_separator(text: str) -> None:
    assert find_secret(text) is None


@given(
    name=st.sampled_from(["password", "staging db password", "API key", "token", "passphrase", "Password", "DB_PASSWORD", "GitHub Token"]),
    said=st.sampled_from(["expired,", "was revoked;", "rotates monthly;", "leaked.", "changed:"]),
    one=st.sampled_from(["the new one", "current one", "The new one", "the real one"]),
    value=st.one_of(mixed, hex_key),
)
def test_a_value_given_for_one_that_stands_for_a_credential_is_refused(name: str, said: str, one: str, value: str) -> None:
    assert find_secret(f"the old {name} {said} {one} is {value}") == "credential_assignment"


# An aside labelled with which value it gives, after a credential's name: rotated the API key
# (new: …); a name followed by another noun is something else's (the password policy (new: …)).
@given(
    name=st.sampled_from(["API key", "admin password", "token", "DB_PASSWORD"]),
    label=st.sampled_from(["new", "New", "current", "old"]),
    value=st.one_of(mixed, hex_key),
)
def test_a_value_in_an_aside_labelled_new_after_a_credential_is_refused(name: str, label: str, value: str) -> None:
    assert find_secret(f"We rotated the {name} ({label}: {value}) today") == "credential_assignment"


@pytest.mark.parametrize(
    "text", ["the password policy (new: Strict2024!)", "we moved the docs (new: Docs/Page2x)", "password manager (new: 1Password8)"]
)
def test_an_aside_labelled_new_after_no_credential_is_kept(text: str) -> None:
    assert find_secret(text) is None


# How it changed, said as a verb alone after the name, ends its phrase at its clause's end too: a
# note's "Password reset: the new one is …".
@given(
    name=st.sampled_from(["Password", "API key", "Token", "GitHub token", "DB password"]),
    said=st.sampled_from(["reset:", "updated -", "renewed.", "regenerated;", "reset,", "updated:"]),
    one=st.sampled_from(["the new one is", "the new one:", "The new one is", "new one ="]),
    value=st.one_of(mixed, hex_key),
)
def test_one_after_a_credential_that_was_reset_or_updated_is_refused(name: str, said: str, one: str, value: str) -> None:
    assert find_secret(f"{name} {said} {one} {value}") == "credential_assignment"


@pytest.mark.parametrize(
    "text",
    [
        # "one" stands for something else: the credential's word is followed by another noun.
        "we moved to a new password manager; the new one is 1Password",
        "the password field moved; the new one is field2x",
        "the old token format is gone, the new one is v2-signed",
        # No credential named before it on the line.
        "the path changed, the new one is /srv/app2",
        "current one is Xk9v2LmQ7t",
        # "reset" and "updated" name a kind of thing when a noun follows: the one is that thing's.
        "Password reset emails: the new one is Template2024!",
        "the password reset flow; the new one is v2 of Auth2024x",
        "API key updated docs, the new one is at Docs/Page2x",
    ],
)
def test_one_that_stands_for_no_credential_is_kept(text: str) -> None:
    assert find_secret(text) is None


# "The value" stands for a credential named earlier on the line as "one" does, after what is said
# of it, a place it is kept in or an aside's bracket.
@given(
    name=st.sampled_from(["DB password", "API key", "token", "Password", "DB_PASSWORD", "GitHub Token", "API_KEY"]),
    said=st.sampled_from(["rotates monthly;", "expired,", "in Vault;", "for staging:", "(", "changed.", ";"]),
    value_word=st.sampled_from(["the value is", "its new value is", "the current value is", "value:", "The value:", "Value ="]),
    value=st.one_of(mixed, hex_key),
)
def test_a_value_given_as_the_value_of_a_credential_named_earlier_is_refused(name: str, said: str, value_word: str, value: str) -> None:
    text = f"Set the {name} {said} {value_word} {value}"
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        # What is said of the value, a setting's value, and a value of something else.
        "The password field is optional; the value is ignored", "token in header, value: base64",
        "The password for staging; value: none", "Token (value: 3600 seconds)", "password length (value: 12)",
        "API_KEY (value: see 1Password)", "password in plain text; value: redacted", "The API key expired; the value is base64-encoded",
        "The token header is X-Auth; the value is Bearer plus the JWT", "The secret rotated; the value is in Vault",
        "the password manager export; the value is Xk9v2LmQ7t", "the region changed; the value is eu-west-2",
        "The value is Xk9v2LmQ7t",
    ],
)  # fmt: skip
def test_a_value_that_stands_for_no_credential_or_holds_none_is_kept(text: str) -> None:
    assert find_secret(text) is None, text


# A one-time password's secret: base32, under the names authenticator apps and code give it.
BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
otp_secrets = st.text(BASE32, min_size=16, max_size=32).filter(
    lambda v: any(c.isalpha() for c in v) and any(c.isdigit() for c in v) and len(set(v)) >= 8
)
OTP_NAMES = ["TOTP seed", "2FA seed", "MFA seed", "otp_seed", "OTP_SEED", "totpSeed", "setup key", "authenticator key", "2FA key", "TOTP key",
             "totp_key", "MFA_KEY", "otpKey"]  # fmt: skip


@given(name=st.sampled_from(OTP_NAMES), separator=st.sampled_from([": ", "=", " = ", " is "]), value=otp_secrets)
def test_a_one_time_password_s_secret_under_its_names_is_refused(name: str, separator: str, value: str) -> None:
    text = f"{name}{separator}{value}"
    assert find_secret(text) == "credential_assignment", text


# An account's way back in, under the names code and configuration give it: a security question's
# answer, two-factor recovery or backup codes.
WAY_BACK_NAMES = ["security_answer", "SECURITY_ANSWER", "secretAnswer", "secret-answer", "recovery_code", "recoveryCodes",
                  "BACKUP_CODES", "backup_code_1", "Security answer", "the secret answer"]


@given(name=st.sampled_from(WAY_BACK_NAMES), separator=st.sampled_from([": ", "=", " = ", ': "']), value=st.one_of(mixed, weak))
def test_a_security_answer_or_a_recovery_code_under_its_name_is_refused(name: str, separator: str, value: str) -> None:
    text = f"{name}{separator}{value}" + ('"' if separator.endswith('"') else "")
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        'security_answer = form.cleaned_data["answer"]', "security_answer: null", "security_answer_hash = models.CharField(max_length=128)",
        "recovery_codes: 10 codes are generated; store them offline", "backup_code_count = 10", "recovery_code = generate_recovery_code()",
        "answer = 42", "SECURITY_ANSWER_MAX_LENGTH = 64", "recoveryCodes: string[]", "secret_answer: str | None = None",
        "Security answer: see vault", "the security answer is required for resets", "Security answer: stored hashed with bcrypt",
    ],
)  # fmt: skip
def test_what_such_names_hold_that_is_no_answer_or_code_is_kept(text: str) -> None:
    assert find_secret(text) is None, text


# Four to eight groups of four, as apps show the secret, with a letter and a digit among them.
grouped_secrets = otp_secrets.map(lambda v: " ".join(v[i : i + 4] for i in range(0, len(v) - len(v) % 4, 4))).filter(
    lambda g: any(c.isalpha() for c in g) and any(c.isdigit() for c in g) and len(set(g)) >= 8
)


@given(
    name=st.sampled_from(["2FA secret", "TOTP secret", "authenticator key", "setup key", "MFA seed"]),
    grouped=grouped_secrets,
    lower=st.booleans(),
)
def test_a_one_time_password_s_secret_in_groups_of_four_is_refused(name: str, grouped: str, lower: bool) -> None:
    text = f"{name}: {grouped.lower() if lower else grouped}"
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        "random seed: 42", "seed = 1234", "the seed is 42", "SEED = 1337", "np.random.seed(42)", "torch.manual_seed(0)",
        "--seed 7", "seed: KRUGS4ZANFZSAYLO",  # "seed" alone names a random generator's start as often
        "setup key: press enter", "the setup key step is optional", "2FA key: ABCD EFGH IJKL MNOP",
        "api key: 2345 2345 2345 2345", "secret: this is the team", "TOTP seed: <seed>", "2FA seed: ${TOTP_SEED}",
    ],
)  # fmt: skip
def test_seeds_and_groups_that_are_no_one_time_password_secret_are_kept(text: str) -> None:
    assert find_secret(text) is None


@given(
    name=st.sampled_from(["DB password", "staging API key", "Password", "GitHub Token", "passphrase"]),
    said=st.sampled_from(["changed;", "was rotated,", "expired.", "leaked;"]),
    it=st.sampled_from(["it's now", "it is now", "It's now", "it\u2019s now", "now it's", "now it is", "Now it's"]),
    value=st.one_of(mixed, hex_key),
)
def test_a_value_it_gives_for_a_credential_named_earlier_is_refused(name: str, said: str, it: str, value: str) -> None:
    text = f"The {name} {said} {it} {value}"
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        "We rotated the API token; it's now in Vault.", "The token format changed; it's now v2-signed",
        "the password policy changed, it's now 12 characters", "The password page moved; it's now /auth/Reset2",
        "We changed the build; it's now Xk9mQ2vLp7", "The token format changed; now it's v2-signed",
        "We rotated the API token; now it's in Vault.",
    ],
)  # fmt: skip
def test_what_it_gives_that_is_no_credential_is_kept(text: str) -> None:
    assert find_secret(text) is None, text


# A blockchain account's private key (64 hex digits, with or without 0x), under the name of the
# wallet, chain or role that holds it, in prose and in code.
WALLET_KEY_NAMES = ["wallet key", "MetaMask key", "deployer key", "signer key", "ETH key", "Ethereum key", "the deployer key",
                    "wallet_key", "deployerKey", "SIGNER_KEY", "metamask_key"]  # fmt: skip
account_keys = st.text("0123456789abcdef", min_size=64, max_size=64).filter(lambda v: len(set(v)) >= 10)


@given(name=st.sampled_from(WALLET_KEY_NAMES), separator=st.sampled_from([": ", " = ", " is ", ': "']), value=account_keys, hexed=st.booleans())
def test_a_wallet_s_private_key_under_its_holder_s_name_is_refused(name: str, separator: str, value: str, hexed: bool) -> None:
    text = f"{name}{separator}{'0x' if hexed else ''}{value}" + ('"' if separator.endswith('"') else "")
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        "the wallet key is stored in the keystore", "the deployer key is in 1Password", "deployer key: see the vault",
        "wallet key: $DEPLOYER_KEY", "the signer key rotation is done", 'signer_key = os.environ["SIGNER_KEY"]',
        "wallet_key = load_key(path)", "signer_key: str | None = None", "signerKey: process.env.SIGNER_KEY",
        "wallet address: 0x4c0883a69102937d6231471b5dbb6204fe512961", "tx hash: 0x4c0883a69102937d6231471b5dbb6204fe512961708279f3a3e6d8b4f8e2c7a1",
        "cache key: 4c0883a69102937d6231471b5dbb6204fe512961708279f3a3e6d8b4f8e2c7a1",
    ],
)  # fmt: skip
def test_what_a_wallet_s_key_names_that_is_no_key_is_kept(text: str) -> None:
    assert find_secret(text) is None, text
