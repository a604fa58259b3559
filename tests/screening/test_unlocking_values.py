"""A password given to what it unlocks, decrypts, unseals, protects or locks, after "with" or
"using": ``Unlock the keychain with …``, ``decrypt backup.tar.gpg using …``, ``the zip is
protected with …``. Only a value with a generated one's texture
counts, and no tool's, product's or key's name: such a verb is given those as often."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.screening.credentials import find_secret

from .test_sentences import generated


@given(
    text=st.builds(
        "{}{} {}{}{}".format,
        st.sampled_from(["Unlock the keychain", "unlock the vault", "Decrypt the backup", "decrypt backup.tar.gpg", "Unseal",
                         "The keychain unlocks", "the archive was decrypted", "UNLOCK the wallet", "- unlock it",
                         "The zip is protected", "the archive is password-protected", "The PDF is locked", "Protect the export"]),
        st.sampled_from(["", " on the build box"]),
        st.sampled_from(["with ", "using ", "type "]),
        generated,
        st.sampled_from(["", ".", "\n", " (rotate monthly)", " when asked"]),
    )
)
def test_a_generated_password_given_to_what_it_unlocks_is_refused(text: str) -> None:
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        # A way, a device, a tool, a key's name: words, or a camel-case name with a number after it.
        "Unlock the keychain with Touch ID",
        "unlock with the key in 1Password",
        "unlock with YubiKey5",
        "decrypt using KMSKey2024",
        "Decrypt it with openssl3",
        "decrypt with utf8mb4",
        "Decrypt with AES-256-GCM.",
        "decrypting with Python3.11",
        "unlocked with TPM2.0",
        "unseal the vault with 3 of 5 keys",
        "unlock the screen with Ctrl+Alt+L",
        "decrypt with gpg2 --batch",
        # A weak value: a product's version reads so as often (unlock with LUKS2, decrypt with sha256).
        "unlock it with hunter22",
        # More than six words, or a clause's end, between the verb and "with".
        "unlock the door of the old shed in the back garden with Xk7pQ2mZ9w",
        "Unlock it. Then start with Xk7pQ2mZ9w",
        # The verb inside another word.
        "the keyunlock flow ran with Xk7pQ2mZ9w",
        # What protects or locks that is no password; and "encrypt", which takes a recipient's public key.
        "protected with TLS1.3", "locked with Mutex2", "protected with 2FA", "protected with bcrypt2b", "protected by Cloudflare",
        "encrypt with age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p", "encrypted for 3AA5C34371567BD2 with Xk7pQ2mZ9w",
    ],
)
def test_what_an_unlocking_verb_is_given_that_is_no_password_is_kept(text: str) -> None:
    assert find_secret(text) is None


@pytest.mark.parametrize("text", ["To unlock the laptop, type Xk9v2LmQ7t", "to decrypt the backup, enter 'Tr0ub4dor&3x' when asked"])
def test_a_generated_password_typed_after_what_it_unlocks_and_a_comma_is_refused(text: str) -> None:
    assert find_secret(text) == "credential_assignment"


# A value given with the login or the unlocking it is for after it.
@given(
    text=st.builds(
        "{} {}{}{}".format,
        st.sampled_from(["Use", "use", "enter", "Type", "- use", "Everyone uses", "we used", "paste"]),
        st.one_of(generated, generated.map("'{}'".format)),
        st.sampled_from(
            [" to log in", " to log into staging", " to sign in", " to unlock the vault", " to decrypt it", " to authenticate",
             " to get into the dashboard", " to get in", " to access the API"]
        ),
        st.sampled_from(["", ".", "\n", " (rotate monthly)"]),
    )
)
def test_a_generated_value_used_to_log_in_or_unlock_is_refused(text: str) -> None:
    assert find_secret(text) == "credential_assignment", text


@pytest.mark.parametrize(
    "text",
    [
        # a user's name, a way in, a device, a shortcut, a file, a model, a word
        "use deploy2 to log in", "use SSO to log in", "use YubiKey5 to log in", "type Ctrl+Alt+L to unlock", "use OAuth2 to log in",
        "use your password to log in", "use gpt-4o-mini to authenticate", "Use ~/.ssh/id_ed25519 to log in", "Use LDAP3Client to authenticate",
        "use the v2 API to sign in", "To unlock the screen type your PIN", "then use Xk9mQ2vLp7 to deploy",
        "use Python3 to access the API", "we used Terraform1.6 to access state", "use port 8443 to access the UI",
        "use v2.1.0 to access the new endpoints", "use https://example.com/abc to access it", "use the VPN to access prod",
        "use Python3.12+ to access the new syntax", "use Node18.4 to log in",
    ],
)  # fmt: skip
def test_what_is_used_to_log_in_that_is_no_password_is_kept(text: str) -> None:
    assert find_secret(text) is None, text
