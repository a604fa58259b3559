"""A network device's secrets, as its configuration holds them (:mod:`tact_memory.screening.rules`):
Cisco IOS, NX-OS and ASA, Arista, Juniper, FortiOS, VyOS, Aruba, Linux's ifupdown and net-snmp,
strongSwan. A clear-text value (type 0, or none), Cisco's reversible type 7 and Juniper's ``$9$``
are refused; a hash and an encrypted value are not secrets a note can leak, and are kept."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.screening.credentials import find_secret

from .test_sentences import mixed

# Each form as the device's own configuration writes it, with {v} for the secret.
DEVICE_LINES = [
    # users and enable, with the type before the value or none
    "username admin privilege 15 password 0 {v}", "username admin privilege 15 secret 0 {v}",
    "username netops secret {v}", "username admin role network-admin password {v}",
    "username admin password {v} privilege 15", "enable secret {v}", "enable secret 0 {v}",
    "enable secret level 5 0 {v}", "enable password 7 {v}",
    "line vty 0 4\n password 7 {v}\n login", "line con 0\n password 0 {v}",
    # routing protocols, key chains, NTP
    "router bgp 65001\n neighbor 10.0.0.1 password {v}", " neighbor PEERS password 7 {v}",
    "key chain OSPF\n key 1\n  key-string {v}", "  key-string 7 {v}", "interface Gi0/1\n ip ospf authentication-key {v}",
    " ip ospf authentication-key 7 {v}", " ip ospf message-digest-key 1 md5 {v}", " ip ospf message-digest-key 1 md5 0 {v}",
    "ntp authentication-key 1 md5 {v} 7", "set protocols ospf area 0 interface ge-0/0/0 authentication md5 1 key {v}",
    # AAA servers, SNMP
    "tacacs-server key {v}", "radius-server key 7 {v}", "radius-server host 10.0.0.5 auth-port 1812 acct-port 1813 key {v}",
    "radius server ISE\n address ipv4 10.0.0.5 auth-port 1812\n key 7 {v}", "tacacs server TAC1\n key 0 {v}",
    "snmp-server community {v} RO", "snmp-server community {v} RW 10", "set snmp community {v} authorization read-only",
    "rocommunity {v} 10.0.0.0/8", "rwcommunity6 {v}", "snmp-server user monitor NETOPS v3 auth sha {v} priv aes 128 Priv-Pass1",
    "snmp-server user monitor NETOPS v3 auth md5 $AUTH priv des {v}",
    # VPN and wireless
    "crypto isakmp key {v} address 203.0.113.5", "crypto isakmp key 0 {v} address 0.0.0.0 0.0.0.0",
    "crypto ikev2 keyring KR\n peer HQ\n  pre-shared-key local {v}", "tunnel-group 203.0.113.5 ipsec-attributes\n ikev1 pre-shared-key {v}",
    " pre-shared-key address 203.0.113.5 key {v}", "wpa-psk ascii 0 {v}", "iface wlan0 inet dhcp\n    wpa-psk {v}",
    ': PSK "{v}"', '203.0.113.5 %any : PSK "{v}"', 'carol@example.com : EAP "{v}"', 'dave : XAUTH "{v}"',
    # PPP, FortiOS, Aruba, VyOS, Junos
    "ppp chap password 0 {v}", "ppp pap sent-username branch1 password 7 {v}", "config system admin\n    edit admin\n        set password {v}",
    "config vpn ipsec phase1-interface\n    edit HQ\n        set psksecret {v}", "password manager user-name admin plaintext {v}",
    "user admin group administrators password plaintext {v}", "set system login user vyos authentication plaintext-password '{v}'",
    "set system root-authentication plain-text-password-value {v}",
    'set system login user ops class super-user authentication plain-text-password-value "{v}"',
]  # fmt: skip


@given(line=st.sampled_from(DEVICE_LINES), value=mixed.filter(lambda v: "#" not in v))
def test_a_device_secret_is_refused(line: str, value: str) -> None:
    text = line.format(v=value)
    assert find_secret(text) == "credential_assignment", text


def test_cisco_type_7_and_juniper_9_are_refused_for_they_are_reversible() -> None:
    # Type 7 and Juniper's $9$ hide nothing: anyone can turn them back into the password. Cisco's
    # type 9 is a hash, written with its type before it (secret 9 $9$...), and kept below.
    assert find_secret("username admin password 7 0822455D0A16") == "credential_assignment"
    assert find_secret(" key-string 7 0822455D0A16") == "credential_assignment"
    assert find_secret('authentication-key "$9$8aX7-woaUiHkGUiHkGUj5Qz"') == "credential_assignment"
    assert find_secret('set protocols ospf area 0 interface ge-0/0/0 authentication md5 1 key "$9$8aX7-woaUiHkGUiHkGUj5Qz"') == "credential_assignment"


KEPT = [
    # well-known communities, and values without a password's texture
    "snmp-server community public RO", "snmp-server community private RW", "rocommunity public default",
    "username admin password admin", "enable password cisco",
    # Junos prompts for the password when the command gives none
    "set system root-authentication plain-text-password", "set system login user ops authentication plain-text-password",
    # hashes and encrypted values
    "enable secret 5 $1$mERr$hx5rVt7rPNoS4wqbXKX7m0", "enable secret 9 $9$nhEmQVczB7dqsO$X.HsgL6x1il0RxkOSSvyQYwucySCt7qFm4v7pqCxkKM",
    "username admin privilege 15 secret 8 $8$dsYGNam3K1SIJO$7nv/35M/qr6t.dVc7UY9zrJDWRVqncHub1PE9UlMQFs",
    "username admin secret sha512 $6$abc$def0123456789", "username admin password 5 $5$Yg1F$kHhH0QkBfLuI1nMT2qGC",
    "crypto isakmp key 6 FLgBaJHXdYY_AcHZZMgQ_RhTDJXHUBAAB address 10.1.1.1",
    "set password ENC SH2nlSm9QL9tapcHPXIqAXvX7vBJuuqu22hpa8DbuF7jqo=",
    # variables and placeholders
    "wpa-psk $WIFI_PSK", "wpa-psk ${WIFI_PSK}", "key-string <your-key>", "tacacs-server key <key>",
    "radius-server host 10.0.0.5 key 7 <encrypted>", "username <name> password <password>", ': PSK ""',
    "neighbor 10.0.0.1 password <password>",
    # prose about the same commands, and keys that are not secrets
    "Set the enable secret to something strong.", "Use snmp-server community to set the string.",
    "Enter the pre-shared-key in the VPN settings.", "set password to expire in 90 days",
    "uses auth sha1 HMAC-based signatures", "enable password authentication for the admin UI",
    "enable secret scanning on the repository", "the key 0 of the array", "a secret 7 days old", "password 0 characters long",
    "tunnel key 12345", "PSK mode is faster than EAP",
]  # fmt: skip


@pytest.mark.parametrize("text", KEPT)
def test_what_is_no_device_secret_is_kept(text: str) -> None:
    assert find_secret(text) is None, text
