"""``tact-memory serve`` and ``tact-memory team token …``: the team memory service and its credentials.

Both need the ``team`` extra. The database URL comes from ``--database`` or ``TACT_TEAM_DATABASE_URL``
and is never printed back: messages about the database name no host, user or password.
"""

from __future__ import annotations

import json
import os
import sys
import time
from datetime import datetime, timezone
from typing import Any

import click

from .app import _fail, _require

_TEAM_MODULES = ("psycopg", "psycopg_pool", "starlette", "uvicorn")
_DATABASE = click.option(
    "--database",
    "database",
    envvar="TACT_TEAM_DATABASE_URL",
    required=True,
    metavar="URL",
    help="PostgreSQL connection URL (or set TACT_TEAM_DATABASE_URL).",
)


def _when(ms: int | None) -> str:
    if ms is None:
        return "-"
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).strftime("%Y-%m-%d %H:%M")


@click.command("serve")
@_DATABASE
@click.option("--listen", default="127.0.0.1:8765", show_default=True, metavar="HOST:PORT", help="Where to listen.")
@click.option("--check", is_flag=True, help="Only check that the database is reachable and its schema current.")
@click.option("--max-in-flight", type=click.IntRange(1, 1024), default=32, show_default=True, help="Requests handled at once.")
@click.option("--timeout", "timeout_s", type=click.FloatRange(0.1, 300), default=10.0, show_default=True, help="Seconds per request.")
@click.option("--max-body", type=click.IntRange(1024, 16 * 1024 * 1024), default=256 * 1024, show_default=True, help="Largest request body, in bytes.")
@click.option("--test-limits", "limits_json", hidden=True, metavar="JSON")
@click.option("--test-clock-file", "clock_file", hidden=True, metavar="PATH")
def serve_command(
    database: str, listen: str, check: bool, max_in_flight: int, timeout_s: float, max_body: int,
    limits_json: str | None, clock_file: str | None,
) -> None:  # fmt: skip
    """Serve team memory over HTTP from a PostgreSQL database (migrating its schema first).

    \b
    Example:
        tact-memory serve --database postgresql://tact@db/tact --listen 0.0.0.0:8765
        tact-memory serve --check

    Two hidden options exist for the test suite only, and are refused unless the environment
    sets TACT_TEAM_TEST_HOOKS=1: --test-limits JSON (smaller bounds) and --test-clock-file PATH
    (the server's time, in Unix milliseconds, read from a file on every use).
    """
    _require("team", *_TEAM_MODULES)
    from ..limits import DEFAULT_LIMITS
    from ..team import server
    from ..team.app import ServiceLimits

    limits = DEFAULT_LIMITS
    if limits_json is not None or clock_file is not None:
        if os.environ.get(server.TEST_HOOKS_ENV) != "1":
            raise click.UsageError(f"--test-limits and --test-clock-file are for tests: set {server.TEST_HOOKS_ENV}=1")
        try:
            limits = DEFAULT_LIMITS if limits_json is None else server.parse_test_limits(limits_json)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--test-limits") from None

    if check:
        result = server.check(database)
        click.echo(result.message)
        sys.exit(0 if result.ok else 1)
    try:
        host, port = server.parse_listen(listen)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--listen") from None
    try:
        server.serve(
            database, host=host, port=port,
            service=ServiceLimits(max_in_flight=max_in_flight, timeout_s=timeout_s, body_bytes=max_body),
            limits=limits, clock=None if clock_file is None else server.file_clock(clock_file),
        )  # fmt: skip
    except server.ServeError as exc:
        _fail(str(exc))


@click.group("team")
def team_group() -> None:
    """Team memory administration: the tokens that let people and agents use a team service.

    \b
    Example:
        tact-memory team token create --database "$URL" --namespace alice --role writer --expires 90d
        tact-memory team token list
        tact-memory team token revoke 3
    """


@team_group.group("token")
def token_group() -> None:
    """Create, list and revoke team memory tokens (set TACT_TEAM_DATABASE_URL or pass --database)."""


def _connection(database: str) -> Any:
    """A connection to a migrated team database, or exit 1 saying it cannot be reached."""
    from ..team import server

    try:
        server.prepare(database)
        return server.connect(database)
    except server.ServeError as exc:
        _fail(str(exc))
        raise  # unreachable: _fail exits


@token_group.command("create")
@_DATABASE
@click.option("--namespace", required=True, help="The author namespace the token writes as (and reads as its own).")
@click.option("--role", type=click.Choice(["reader", "writer"]), required=True, help="A reader scans and reads; a writer also puts and deletes.")
@click.option("--expires", metavar="DURATION", help="Lifetime such as 90d, 12h or 2w (default: no expiry).")
@click.option("--read", "read", metavar="NS[,NS…]", help="Limit a reader to these namespaces (besides its own).")
def token_create(database: str, namespace: str, role: str, expires: str | None, read: str | None) -> None:
    """Create a token and print it (only it, on stdout). It is shown this once and stored only as a hash."""
    _require("team", *_TEAM_MODULES)
    from ..team.tokens import create_token, parse_duration

    try:
        lifetime = None if expires is None else parse_duration(expires)
        readable = None if read is None else tuple(ns.strip() for ns in read.split(",") if ns.strip())
        with _connection(database) as conn:
            token, info = create_token(
                conn, namespace=namespace, role=role, now_ms=time.time_ns() // 1_000_000,
                expires_in_ms=lifetime, readable=readable,
            )  # fmt: skip
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(f"created token {info.id} for namespace {info.namespace} ({info.role})", err=True)
    click.echo(token)


@token_group.command("list")
@_DATABASE
@click.option("--json", "as_json", is_flag=True, help="One JSON object per token.")
def token_list(database: str, as_json: bool) -> None:
    """List tokens: id, namespace, role, namespaces read, created, expires, revoked (never the token)."""
    _require("team", *_TEAM_MODULES)
    from ..team.tokens import list_tokens

    with _connection(database) as conn:
        rows = list_tokens(conn)
    if as_json:
        for row in rows:
            click.echo(json.dumps(row.__dict__ | {"readable": None if row.readable is None else list(row.readable)}))
        return
    click.echo(f"{'id':>4}  {'namespace':16} {'role':7} {'reads':16} {'created':16}  {'expires':16}  revoked")
    for row in rows:
        reads = "all" if row.readable is None else ",".join(row.readable)
        click.echo(
            f"{row.id:>4}  {row.namespace:16} {row.role:7} {reads:16} {_when(row.created_at_ms):16}  "
            f"{_when(row.expires_at_ms):16}  {_when(row.revoked_at_ms)}"
        )


@token_group.command("revoke")
@_DATABASE
@click.argument("token_id", metavar="ID", type=click.IntRange(min=1))
def token_revoke(database: str, token_id: int) -> None:
    """Revoke a token by id; it is refused from the next request on."""
    _require("team", *_TEAM_MODULES)
    from ..team.tokens import revoke_token

    with _connection(database) as conn:
        done = revoke_token(conn, token_id, now_ms=time.time_ns() // 1_000_000)
    if not done:
        _fail(f"no active token has id {token_id}")
    click.echo(f"revoked token {token_id}")
