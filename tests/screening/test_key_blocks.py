"""Key blocks between armour lines: the SSH2 format's four-dash framing and OpenVPN's shared keys.

RFC 4716 (the SSH2 public key file format, which ssh.com's tools also use for private keys) frames
a key with four dashes and a space, ``---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----``, where PEM has
five and none. OpenVPN writes its static and tls-crypt keys (``--secret``, ``--tls-auth``,
``--tls-crypt``) as hex lines between ``-----BEGIN OpenVPN Static key V1-----`` and its END
line, and its tls-crypt-v2 keys as base64 between ``-----BEGIN OpenVPN tls-crypt-v2 client
key-----`` lines; either is as secret as a private key.
"""

from __future__ import annotations

import base64
import string
import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.screening.credentials import find_secret

from .test_credentials import REJECT

HEX = "0123456789abcdef"


def wrapped(text: str, width: int) -> str:
    return "\n".join(text[i : i + width] for i in range(0, len(text), width))


@given(
    label=st.sampled_from(["SSH2 ENCRYPTED PRIVATE KEY", "SSH2 PRIVATE KEY", "RSA PRIVATE KEY", "PRIVATE KEY"]),
    dashes=st.sampled_from(["----", "-----"]),
    space=st.sampled_from(["", " "]),
    header=st.sampled_from(["", 'Comment: "rsa-key-20240101"\n', "Subject: deploy\n"]),
    key=st.binary(min_size=48, max_size=300).map(lambda b: base64.b64encode(b).decode()),
)
def test_a_key_in_four_or_five_dash_armour_is_refused(label: str, dashes: str, space: str, header: str, key: str) -> None:
    text = f"{dashes}{space}BEGIN {label}{space}{dashes}\n{header}{wrapped(key, 70)}\n{dashes}{space}END {label}{space}{dashes}"
    assert find_secret(text) == "private_key", text


@pytest.mark.parametrize(
    "text",
    [
        "---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----",
        "  ---- END SSH2 ENCRYPTED PRIVATE KEY ----  \n",
        '{"key": "---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\\nP2/56wAAAFAKEEXAMPLE0123456789"}',
        "----BEGIN SSH2 ENCRYPTED PRIVATE KEY----\nP2/56wAAAFAKEEXAMPLE0123456789abcdef",
    ],
)
def test_an_ssh2_armour_line_alone_or_with_its_body_is_refused(text: str) -> None:
    assert find_secret(text) == "private_key"


OPENVPN_LABELS = ["OpenVPN Static key V1", "OpenVPN tls-crypt-v2 client key", "OpenVPN tls-crypt-v2 server key"]


@given(
    label=st.sampled_from(OPENVPN_LABELS),
    comment=st.sampled_from(["", "#\n# 2048 bit OpenVPN static key\n#\n"]),
    inner=st.sampled_from(["", "# 2048 bit OpenVPN static key\n"]),
    key=st.one_of(
        st.text(HEX, min_size=512, max_size=512).map(lambda h: wrapped(h, 32)),
        st.binary(min_size=128, max_size=300).map(lambda b: wrapped(base64.b64encode(b).decode(), 64)),
    ),
    framing=st.sampled_from(["{}", "<tls-auth>\n{}\n</tls-auth>", "<tls-crypt>\n{}\n</tls-crypt>\nkey-direction 1"]),
)
def test_an_openvpn_key_is_refused(label: str, comment: str, inner: str, key: str, framing: str) -> None:
    block = f"{comment}-----BEGIN {label}-----\n{inner}{key}\n-----END {label}-----"
    assert find_secret(framing.format(block)) == "openvpn_key"


@pytest.mark.parametrize("label", OPENVPN_LABELS)
def test_an_openvpn_armour_line_alone_is_refused(label: str) -> None:
    assert find_secret(f"<tls-crypt>\n-----BEGIN {label}-----\n") == "openvpn_key"
    assert find_secret(f"-----END {label}-----") == "openvpn_key"


@pytest.mark.parametrize(
    "text",
    [
        "---- BEGIN SSH2 PUBLIC KEY ----\nComment: \"deploy\"\nAAAAB3NzaC1yc2EAAAADAQABAAABAQC",
        "Keys start with ---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ---- and must stay out of the repo.",
        "the ta.key file holds a -----BEGIN OpenVPN Static key V1----- block; never paste it",
        "<tls-crypt>-----BEGIN OpenVPN Static key V1-----</tls-crypt> is how the template starts",
        "openvpn --genkey secret ta.key writes a 2048 bit OpenVPN static key",
        "-----BEGIN CERTIFICATE-----\nMIIBxzCCAW2gAwIBAgIUFAKEEXAMPLE",
        "---- Begin of the release notes ----",
    ],
)
def test_mentions_of_key_armour_and_public_blocks_are_kept(text: str) -> None:
    assert find_secret(text) is None


ADVERSARIAL: dict[str, str | None] = {
    # Each kilobyte is built to make the armour patterns backtrack; the verdicts were checked by hand.
    "---- " * 204: None,
    "----" * 256: None,
    ("---- BEGIN " * 93)[:1024]: None,
    ("---- BEGIN " + "A " * 600)[:1024]: None,
    ("----- BEGIN" + " PRIVATE" * 200)[:1024]: None,
    ("-----BEGIN OpenVPN " * 60)[:1024]: None,
    "-----BEGIN OpenVPN Static key V1-----" + "\n#" * 490: "openvpn_key",  # the armour line alone
    "---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----" + " " * 980: "private_key",
}


def test_adversarial_armour_gets_its_verdicts_without_hanging() -> None:
    verdicts: dict[str, str | None] = {}
    worker = threading.Thread(target=lambda: verdicts.update({t: find_secret(t) for t in ADVERSARIAL}), daemon=True)
    worker.start()
    worker.join(timeout=60)
    assert not worker.is_alive(), "screening did not finish: catastrophic backtracking?"
    assert verdicts == ADVERSARIAL


def test_the_ascii_letters_of_a_label_are_not_enough() -> None:
    # A label of other letters (a lower-case "private key", a "PUBLIC KEY") is not a key's armour.
    assert find_secret("---- BEGIN ssh2 private key ----\n" + string.ascii_letters) is None


# A key quoted in a note or kept in a comment has a quote's or a comment's mark before each line.
KEY_FIXTURES = [case for case in REJECT if case.kind in ("private_key", "openvpn_key")]
LINE_MARKS = ["> ", ">", "> > ", "# ", "#", "// ", "/// ", "; ", " * ", "% ", "! ", "-- ", "REM ", "@rem ", ":: ", "#: ", "' ", "\" "]


@pytest.mark.parametrize("mark", LINE_MARKS)
def test_a_key_behind_a_quote_or_a_comment_mark_on_each_line_is_refused(mark: str) -> None:
    marked = {case.text: "\n".join(mark + line if line else line for line in case.text.split("\n")) for case in KEY_FIXTURES}
    missed = [text for case in KEY_FIXTURES if find_secret(text := marked[case.text]) != case.kind]
    assert missed == []


@pytest.mark.parametrize("mark", LINE_MARKS)
def test_an_armour_line_alone_behind_a_quote_or_a_comment_mark_is_refused(mark: str) -> None:
    """The first line of a key, all that was pasted, commented out or quoted on its own."""
    assert find_secret(mark + "-----BEGIN OPENSSH PRIVATE KEY-----") == "private_key"
    assert find_secret("FAKE example, the key's first line:\n" + mark + "-----BEGIN RSA PRIVATE KEY-----\n") == "private_key"


@pytest.mark.parametrize(
    "text",
    [
        "The file starts with # -----BEGIN RSA PRIVATE KEY----- and ends with its END line.",  # a mention in prose
        "REMOVE the line -----BEGIN RSA PRIVATE KEY----- before committing",
        "Lorem -----BEGIN RSA PRIVATE KEY----- ipsum",
        "> See the runbook: keys begin with -----BEGIN OPENSSH PRIVATE KEY-----, never paste one.",
        "# -----BEGIN PUBLIC KEY-----\n# MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA",  # a public key
    ],
)
def test_an_armour_line_mentioned_after_a_mark_is_kept(text: str) -> None:
    assert find_secret(text) is None
