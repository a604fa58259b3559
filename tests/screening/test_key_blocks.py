"""Key blocks between armour lines: the SSH2 format's four-dash framing and OpenVPN's shared keys.

RFC 4716 (the SSH2 public key file format, which ssh.com's tools also use for private keys) frames
a key with four dashes and a space, ``---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----``, where PEM has
five and none. OpenVPN writes its static and tls-crypt keys (``--secret``, ``--tls-auth``,
``--tls-crypt``) as hex lines between ``-----BEGIN OpenVPN Static key V1-----`` and its END
line, and its tls-crypt-v2 keys as base64 between ``-----BEGIN OpenVPN tls-crypt-v2 client
key-----`` lines; either is as secret as a private key. A JSON Web Key holds its private part in
``"d"`` (``"k"`` for a symmetric key), and minisign and signify write a secret key under a comment
line that says so. A private key's PEM may be given in base64, as a Kubernetes Secret's
``tls.key`` is.
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


# A JSON Web Key's private member ("d"; "k" of a symmetric key) in the object its "kty" names, in
# any order, on one line or spread over many; a public key has neither.
base64url = st.text(string.ascii_letters + string.digits + "-_", min_size=22, max_size=120).filter(lambda v: len(set(v)) >= 10)


@given(
    kty=st.sampled_from(['"kty":"EC","crv":"P-256"', '"kty": "OKP", "crv": "Ed25519"', '"kty":"RSA","e":"AQAB"']),
    private=base64url,
    public=base64url,
    first=st.booleans(),
    joint=st.sampled_from([",", ",\n  ", ", "]),
)
def test_a_json_web_key_with_its_private_member_is_refused(kty: str, private: str, public: str, first: bool, joint: str) -> None:
    members = [kty, f'"x":"{public}"', f'"d":"{private}"']
    if first:
        members.reverse()
    text = "{" + joint.join(members) + "}"
    assert find_secret(text) == "private_key", text


@given(secret=base64url)
def test_a_symmetric_json_web_key_is_refused(secret: str) -> None:
    assert find_secret('{"kty":"oct","k":"' + secret + '","alg":"HS256"}') == "private_key"


@given(key=st.text(string.ascii_letters + string.digits + "+/", min_size=60, max_size=120).filter(lambda v: len(set(v)) >= 10))
def test_a_minisign_or_signify_secret_key_is_refused(key: str) -> None:
    for comment in ("minisign encrypted secret key", "signify secret key", "minisign unencrypted secret key"):
        assert find_secret(f"untrusted comment: {comment}\nRWRTY0Iy{key}") == "private_key"


@pytest.mark.parametrize(
    "text",
    [
        '{"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}',
        '{"kty":"oct","alg":"HS256","kid":"k1"}', '{"kty":"EC","d":"<private>"}', '{"kty":"RSA","d":"${JWK_D}"}',
        "untrusted comment: minisign public key 3F9A8B7C6D5E4F3A\nRWQ/mouxbW9PkT5yyaUQUWEBlKRwvaoMTOCt9mVNvCTxVZcS2v+ek2tt",
        "the JWK's kty is EC and its d member is private",
    ],
)  # fmt: skip
def test_public_json_web_keys_and_public_minisign_keys_are_kept(text: str) -> None:
    assert find_secret(text) is None, text


# A private key's PEM in base64 (a Secret's tls.key, an environment variable): its armour, read
# back, names a private key; a certificate's or a public key's does not.
@given(
    label=st.sampled_from(["PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY", "OPENSSH PRIVATE KEY", "ENCRYPTED PRIVATE KEY", "PGP PRIVATE KEY BLOCK"]),
    body=st.text(string.ascii_letters + string.digits + "+/", min_size=64, max_size=200),
    before=st.sampled_from(["  tls.key: ", "SSH_KEY_B64=", '"key": "', ""]),
)
def test_a_private_key_s_pem_in_base64_is_refused(label: str, body: str, before: str) -> None:
    pem = f"-----BEGIN {label}-----\n{body}\n-----END {label}-----\n".encode()
    text = before + base64.b64encode(pem).decode()
    assert find_secret(text) == "private_key", text


@pytest.mark.parametrize("label", ["CERTIFICATE", "PUBLIC KEY", "CERTIFICATE REQUEST", "X509 CRL"])
def test_a_certificate_s_or_a_public_key_s_pem_in_base64_is_kept(label: str) -> None:
    pem = f"-----BEGIN {label}-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQG\n-----END {label}-----\n".encode()
    assert find_secret("  tls.crt: " + base64.b64encode(pem).decode()) is None
