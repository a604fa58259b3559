"""Credentials of team memory: random bearer tokens, stored only as their SHA-256.

A token is ``tmt_`` followed by 32 random bytes (``secrets.token_urlsafe``). It is printed once, when
it is created, and never stored: the ``tokens`` table keeps its SHA-256 (a token has 256 bits of
entropy, so a plain hash cannot be reversed by guessing), its namespace, its role, for a reader the
namespaces it may read (``NULL`` for all), and its creation, expiry and revocation times. Every
request looks the hash up again, so expiry and revocation take effect on the next request.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from typing import Any

__all__ = [
    "NAMESPACE_PATTERN",
    "TOKEN_PREFIX",
    "Credential",
    "TokenInfo",
    "TokenRefused",
    "authenticate",
    "create_token",
    "hash_token",
    "list_tokens",
    "parse_duration",
    "revoke_token",
]

TOKEN_PREFIX = "tmt_"
NAMESPACE_PATTERN = re.compile(r"[a-z0-9][a-z0-9_.-]{0,62}")
"""Lower-case letters, digits, ``_``, ``.`` and ``-``; at most 63 characters, starting with a letter or digit."""
_DURATION = re.compile(r"([1-9][0-9]{0,5})([smhdw])")
_UNIT_MS = {"s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000, "w": 604_800_000}
_TOKEN_SHAPE = re.compile(r"tmt_[A-Za-z0-9_-]{43}")


@dataclass(frozen=True)
class Credential:
    """Who a valid token speaks for."""

    token_id: int
    namespace: str
    role: str
    readable: frozenset[str] | None
    """Namespaces a limited reader may read besides its own; ``None`` for every namespace."""


@dataclass(frozen=True)
class TokenInfo:
    """One row of ``team token list``: everything but the token."""

    id: int
    namespace: str
    role: str
    readable: tuple[str, ...] | None
    created_at_ms: int
    expires_at_ms: int | None
    revoked_at_ms: int | None


class TokenRefused(Exception):
    """A request's credential is missing, unknown, expired or revoked; ``code`` names which."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def hash_token(token: str) -> str:
    """The stored form of a token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def check_namespace(namespace: str) -> str:
    """``namespace`` if it is a valid name, else ``ValueError`` (naming the rule, not echoing much)."""
    if not NAMESPACE_PATTERN.fullmatch(namespace):
        raise ValueError(
            "a namespace is 1 to 63 lower-case letters, digits, '_', '.' or '-', starting with a letter or digit"
        )
    return namespace


def parse_duration(text: str) -> int:
    """``90d``, ``12h``, ``30m``, ``2w`` or ``45s`` in milliseconds; ``ValueError`` otherwise."""
    match = _DURATION.fullmatch(text.strip())
    if match is None:
        raise ValueError("a duration is a positive number followed by s, m, h, d or w (for example 90d)")
    return int(match.group(1)) * _UNIT_MS[match.group(2)]


def create_token(
    conn: Any,
    *,
    namespace: str,
    role: str,
    now_ms: int,
    expires_in_ms: int | None = None,
    readable: tuple[str, ...] | None = None,
) -> tuple[str, TokenInfo]:
    """Store a new credential and return the token (the only time it exists outside the caller) and its row.

    Raises:
        ValueError: an invalid namespace or role, or namespaces to read on a writer.
    """
    check_namespace(namespace)
    if role not in ("reader", "writer"):
        raise ValueError("role must be reader or writer")
    if readable is not None:
        if role != "reader":
            raise ValueError("only a reader token can be limited to chosen namespaces")
        readable = tuple(sorted({check_namespace(ns) for ns in readable}))
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    expires = None if expires_in_ms is None else now_ms + expires_in_ms
    row = conn.execute(
        "INSERT INTO tokens (token_hash, namespace, role, readable, created_at_ms, expires_at_ms)"
        " VALUES (%s, %s, %s, %s, %s, %s) RETURNING id",
        (hash_token(token), namespace, role, None if readable is None else list(readable), now_ms, expires),
    ).fetchone()
    return token, TokenInfo(int(row[0]), namespace, role, readable, now_ms, expires, None)


def list_tokens(conn: Any) -> list[TokenInfo]:
    """Every credential, oldest first, without hashes."""
    rows = conn.execute(
        "SELECT id, namespace, role, readable, created_at_ms, expires_at_ms, revoked_at_ms FROM tokens ORDER BY id"
    ).fetchall()
    return [
        TokenInfo(
            int(id_), str(ns), str(role), None if readable is None else tuple(readable), int(created),
            None if expires is None else int(expires), None if revoked is None else int(revoked),
        )  # fmt: skip
        for id_, ns, role, readable, created, expires, revoked in rows
    ]


def revoke_token(conn: Any, token_id: int, *, now_ms: int) -> bool:
    """Revoke a credential by id; False when there is no such token or it was already revoked."""
    row = conn.execute(
        "UPDATE tokens SET revoked_at_ms = %s WHERE id = %s AND revoked_at_ms IS NULL RETURNING id",
        (now_ms, token_id),
    ).fetchone()
    return row is not None


def authenticate(conn: Any, authorization: str | None, *, now_ms: int) -> Credential:
    """The credential an ``Authorization: Bearer …`` header carries.

    Raises:
        TokenRefused: ``token_missing``, ``token_invalid``, ``token_expired`` or ``token_revoked``;
            the message never repeats the header.
    """
    if not authorization:
        raise TokenRefused("token_missing", "this request needs an 'Authorization: Bearer <token>' header")
    scheme, _, token = authorization.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not _TOKEN_SHAPE.fullmatch(token):
        raise TokenRefused("token_invalid", "the bearer token is not a valid team memory token")
    row = conn.execute(
        "SELECT id, namespace, role, readable, expires_at_ms, revoked_at_ms FROM tokens WHERE token_hash = %s",
        (hash_token(token),),
    ).fetchone()
    if row is None:
        raise TokenRefused("token_invalid", "the bearer token is not a valid team memory token")
    id_, namespace, role, readable, expires, revoked = row
    if revoked is not None:
        raise TokenRefused("token_revoked", "this token was revoked; ask for a new one")
    if expires is not None and int(expires) <= now_ms:
        raise TokenRefused("token_expired", "this token has expired; ask for a new one")
    return Credential(int(id_), str(namespace), str(role), None if readable is None else frozenset(readable))
