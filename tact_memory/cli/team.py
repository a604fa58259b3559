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

from .common import KEY_NUMBER
from .common import fail as _fail
from .common import require_extra as _require

_TEAM_MODULES = ("psycopg", "psycopg_pool", "starlette", "uvicorn", "mcp")
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
@click.option("--mcp-sessions", type=click.IntRange(1, 100_000), default=1024, show_default=True, help="MCP sessions open at once.")
@click.option(
    "--mcp-sessions-per-token", type=click.IntRange(1, 1024), default=8, show_default=True,
    help="MCP sessions one token holds open; opening another ends its least recently used.",
)  # fmt: skip
@click.option(
    "--mcp-session-idle", "mcp_session_idle_s", type=click.FloatRange(1, 86_400), default=600.0, show_default=True,
    help="Seconds without a request after which an MCP session ends.",
)  # fmt: skip
@click.option("--test-limits", "limits_json", hidden=True, metavar="JSON")
@click.option("--test-clock-file", "clock_file", hidden=True, metavar="PATH")
def serve_command(
    database: str, listen: str, check: bool, max_in_flight: int, timeout_s: float, max_body: int,
    mcp_sessions: int, mcp_sessions_per_token: int, mcp_session_idle_s: float,
    limits_json: str | None, clock_file: str | None,
) -> None:  # fmt: skip
    """Serve team memory over HTTP from a PostgreSQL database (migrating its schema first).

    \b
    Example:
        tact-memory serve --database postgresql://tact@db/tact --listen 0.0.0.0:8765
        tact-memory serve --check
    """
    # Two hidden options exist for the test suite only, and are refused unless the environment
    # sets TACT_TEAM_TEST_HOOKS=1: --test-limits JSON (smaller bounds) and --test-clock-file PATH
    # (the server's time, in Unix milliseconds, read from a file on every use).
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
            service=ServiceLimits(
                max_in_flight=max_in_flight, timeout_s=timeout_s, body_bytes=max_body, mcp_sessions=mcp_sessions,
                mcp_sessions_per_token=mcp_sessions_per_token, mcp_session_idle_s=mcp_session_idle_s,
            ),
            limits=limits, clock=None if clock_file is None else server.file_clock(clock_file),
        )  # fmt: skip
    except server.ServeError as exc:
        _fail(str(exc))


@click.group("team")
def team_group() -> None:
    """Team memory: the tokens that let people and agents use a team service, and explicit transfer.

    push and pull move records between your local memory and the service named by [memory.team]
    in config.toml; nothing moves without them.

    \b
    Example:
        tact-memory team push --dry-run
        tact-memory team pull --namespace alice
        tact-memory team token create --database "$URL" --namespace alice --role writer --expires 90d
        tact-memory team token list
        tact-memory team token revoke 3
    """


@team_group.group("token")
def token_group() -> None:
    """Create, list and revoke team memory tokens (set TACT_TEAM_DATABASE_URL or pass --database).

    \b
    Example:
        tact-memory team token create --namespace alice --role writer --expires 90d
        tact-memory team token list
    """


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
    """Create a token and print it (only it, on stdout). It is shown this once and stored only as a hash.

    \b
    Example:
        tact-memory team token create --namespace ci --role reader --read alice,bob
    """
    _require("team", *_TEAM_MODULES)
    from ..team.tokens import create_token, parse_duration

    try:
        lifetime = None if expires is None else parse_duration(expires)
        readable = None if read is None else tuple(ns.strip() for ns in read.split(",") if ns.strip())
        if readable == ():
            raise ValueError(
                "--read names no namespace; name those the reader may read besides its own, or leave "
                "--read out for a reader of every namespace"
            )
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
    """List tokens: id, namespace, role, namespaces read, created, expires, revoked (never the token).

    \b
    Example:
        tact-memory team token list --json
    """
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
@click.argument("token_id", metavar="ID", type=KEY_NUMBER)
def token_revoke(database: str, token_id: int) -> None:
    """Revoke a token by id; it is refused from the next request on.

    \b
    Example:
        tact-memory team token revoke 3
    """
    _require("team", *_TEAM_MODULES)
    from ..team.tokens import revoke_token

    with _connection(database) as conn:
        done = revoke_token(conn, token_id, now_ms=time.time_ns() // 1_000_000)
    if not done:
        _fail(f"no active token has id {token_id}")
    click.echo(f"revoked token {token_id}")


def _stores(ctx: click.Context) -> tuple[Any, Any]:
    """The local store and the team store of the selected config, or exit 1 saying what is missing."""
    _require("team", "httpx")
    from ..runtime.stores import team_store
    from ..store.sqlite import MemoryStore
    from .common import config_for as _config
    from .common import require_enabled as _require_enabled

    config = _config(ctx)
    _require_enabled(config)
    if config.memory.team is None:
        _fail(f"no team memory is configured: add a [memory.team] table (endpoint, token_env) to {config.path}")
        raise AssertionError  # pragma: no cover
    return MemoryStore(config.database_path), team_store(config.memory.team)


@team_group.command("push")
@click.option("--dry-run", is_flag=True, help="Say what would change; change nothing.")
@click.option("--prune", is_flag=True, help="Also delete records of your namespace that your local memory lacks.")
@click.pass_context
def team_push(ctx: click.Context, dry_run: bool, prune: bool) -> None:
    """Make the team service's copy of your namespace match your local memory.

    Local records your namespace lacks are added (matched by content, ignoring case and white
    space); records only the service has are kept unless you pass --prune. Uses [memory.team]
    in config.toml; nothing is ever sent without this command.

    \b
    Example:
        tact-memory team push --dry-run
        tact-memory team push --prune
    """
    from .. import errors
    from .transfer import push

    local, team = _stores(ctx)
    try:
        status = team.status()  # asks the service who the token writes as
        if status.problem is not None:
            _fail(f"unavailable: {status.detail}")
        report = push(local, team, str(team.namespace), prune=prune, dry_run=dry_run)
    except errors.TactMemoryError as exc:
        _fail(f"{exc.code}: {exc.message}")
        raise  # pragma: no cover
    finally:
        local.close()
        team.close()
    would = "would be " if dry_run else ""
    for local_id, team_id in report.added:
        click.echo(f"local memory {local_id}: {would}added" + ("" if team_id is None else f" as team memory {team_id}"))
    for team_id in report.deleted:
        click.echo(f"team memory {team_id}: {would}deleted (not in local memory)")
    for local_id, code, message in report.refused:
        click.echo(f"local memory {local_id}: refused, {code}: {message}")
    summary = (
        f"namespace {report.namespace}: {would}added {len(report.added)}, {would}deleted {len(report.deleted)}, "
        f"unchanged {report.unchanged}, refused {len(report.refused)}"
    )
    if report.kept:
        summary += f"; {len(report.kept)} record(s) only on the service kept (--prune deletes them)"
    click.echo(summary + ("; dry run, nothing changed" if dry_run else ""))
    if report.refused:
        sys.exit(1)


@team_group.command("pull")
@click.option("--all", "all_", is_flag=True, help="Every namespace your token may read.")
@click.option("--namespace", "namespaces", multiple=True, metavar="NAME", help="A namespace to pull (repeat for more).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per record: namespace, team id, local id, outcome.")
@click.pass_context
def team_pull(ctx: click.Context, all_: bool, namespaces: tuple[str, ...], as_json: bool) -> None:
    """Merge team records into your local memory: all of them or none.

    Every record is checked first (bounds, secrets, duplicates), then all are written in one
    transaction: a refusal or an interrupted pull leaves local memory as it was. Records already
    in local memory (same content) are skipped. The report names who wrote each record (its
    namespace) and the local id it got.

    \b
    Example:
        tact-memory team pull --namespace alice --namespace bob
        tact-memory team pull --all --json
    """
    from .. import errors
    from .transfer import pull

    if all_ == bool(namespaces):
        raise click.UsageError("pass --all or at least one --namespace NAME (not both)")
    local, team = _stores(ctx)
    try:
        report = pull(local, team, None if all_ else namespaces)
    except errors.TactMemoryError as exc:
        _fail(f"{exc.code}: {exc.message}")
        raise  # pragma: no cover
    finally:
        local.close()
        team.close()
    for item in report.items:
        if as_json:
            click.echo(json.dumps({"namespace": item.namespace, "team_id": item.team_id, "local_id": item.local_id,
                                   "outcome": item.outcome}))  # fmt: skip
        elif item.outcome == "added":
            click.echo(f"{item.namespace} memory {item.team_id}: added as local memory {item.local_id}")
        elif item.outcome == "hidden":
            click.echo(f"{item.namespace} memory {item.team_id}: not pulled (hidden: it looks like a secret)")
        else:
            click.echo(f"{item.namespace} memory {item.team_id}: already in local memory")
    if not as_json:
        click.echo(f"pulled {len(report.added)} record(s) of {len(report.items)}")
