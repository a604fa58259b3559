"""Commands that look at the corpus or remove from it: `status`, `list`, `export` and `delete`."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, cast

import click

from .. import errors
from ..backend import RecordOrder
from ..config.loading import Config
from ..records import ORDERS, MemoryRecord, StoreStatus, matches
from .common import config_for as _config
from .common import enabled_store as _enabled_store
from .common import fail as _fail
from .common import require_enabled as _require_enabled
from .common import store_for_config as _store

if TYPE_CHECKING:
    pass

from ..tool.results import record_json
from .common import KEY_NUMBER, json_option
from .common import dumps as _dumps
from .common import when as _when


def _status_lines(config: Config, status: StoreStatus) -> list[str]:
    lim = status.limits
    how = "set `[memory] enabled = true`" if config.exists else "run `tact-memory init --enable`"
    state = "enabled" if config.memory.enabled else f"disabled ({how} to enable)"
    lines = [
        f"config    {config.path}{'' if config.exists else ' (missing: defaults in force)'}",
        f"memory    {state}",
        f"database  {status.path}{'' if status.exists else ' (not created yet)'}",
    ]
    if status.problem:
        lines.append(f"problem   {status.problem}: {status.detail}")
        return lines
    lines += [
        f"records   {status.rows} of {lim.rows}",
        f"content   {status.content_bytes:,} of {lim.content_bytes:,} bytes",
        f"file      {status.file_bytes:,} of {lim.file_bytes:,} bytes (sidecars {status.sidecar_bytes:,}, not bounded)",
        f"probation {status.on_probation} unread, {status.expired_probation} expired (pruned first when space is needed)",
    ]
    if status.hidden:
        lines.append(f"hidden    {status.hidden} record(s) match a secret pattern or imitate control text: hidden from agents, delete them")
    return lines


@click.command("status")
@json_option
@click.pass_context
def status_command(ctx: click.Context, as_json: bool) -> None:
    """Show whether memory is enabled, where it lives and how full it is. Creates nothing.

    \b
    Example:
        tact-memory status --json
    """
    config = _config(ctx)
    status = _store(config).status()
    if as_json:
        lim = status.limits
        click.echo(_dumps({
            "enabled": config.memory.enabled,
            "config": str(config.path),
            "database": str(status.path),
            "exists": status.exists,
            "rows": {"used": status.rows, "limit": lim.rows},
            "content_bytes": {"used": status.content_bytes, "limit": lim.content_bytes},
            "file_bytes": {"used": status.file_bytes, "limit": lim.file_bytes},
            "sidecar_bytes": status.sidecar_bytes,
            "on_probation": status.on_probation,
            "expired_probation": status.expired_probation,
            "hidden": status.hidden,
            "problem": status.problem,
            "detail": status.detail,
        }))  # fmt: skip
    else:
        click.echo("\n".join(_status_lines(config, status)))
    if status.problem:
        sys.exit(1)


def _records(ctx: click.Context, order: RecordOrder) -> list[MemoryRecord]:
    try:
        return list(_enabled_store(ctx).list_records(order=order))
    except errors.TactMemoryError as exc:
        _fail(exc.message)
        raise  # pragma: no cover


ORDER = click.option(
    "--order",
    type=click.Choice(list(ORDERS)),
    default="most_useful",
    show_default=True,
    help="Sort order; usefulness is the deliberate read count.",
)


@click.command("list")
@ORDER
@click.option("--full", is_flag=True, help="Print each record's whole content, not a one-line preview.")
@click.option(
    "--grep",
    metavar="TEXT",
    help="Only records containing every word of TEXT (any order, any case); a word 12 or #12 also matches id 12.",
)
@json_option
@click.pass_context
def list_command(ctx: click.Context, order: str, full: bool, grep: str | None, as_json: bool) -> None:
    """List stored records. Reading here changes no telemetry.

    \b
    Example:
        tact-memory list --order newest
        tact-memory list --grep "release tags" --full
    """
    from ..retrieval.lexer import preview
    from ..screening.display import one_line, terminal_safe

    records = _records(ctx, cast("RecordOrder", order))  # click.Choice checked it
    if grep is not None:
        records = [r for r in records if matches(r, grep)]
    if as_json:
        click.echo(_dumps([record_json(r) for r in records]))
        return
    if not records:
        click.echo("no memories stored" if grep is None else "no memory matches")
        return
    click.echo(f"{'ID':>5} {'VER':>4} {'READS':>5} {'SCANS':>5}  {'UPDATED (UTC)':16}  CONTENT")
    indent = " " * 42
    for r in records:
        flag = "*" if r.probation_until_ms is not None else " "
        text = terminal_safe(r.content).replace("\n", "\n" + indent) if full else preview(one_line(r.content), 64)
        click.echo(
            f"{r.key.id:>5} {r.key.version:>4} {r.read_count:>5} {r.scan_count:>5}  {_when(r.updated_at_ms):16} {flag}{text}"
        )
    click.echo(f"{len(records)} record(s); * = on unread probation")


@click.command("export")
@click.pass_context
def export_command(ctx: click.Context) -> None:
    """Print every record as one JSON object per line, as a read gives it. Changes no telemetry.

    \b
    Example:
        tact-memory export > memories.jsonl
    """
    for record in _records(ctx, "id"):
        click.echo(_dumps(record_json(record)))


@click.command("delete")
@click.argument("record_id", metavar="ID", type=KEY_NUMBER)
@click.option("--version", "version", type=KEY_NUMBER, required=True, help="The version you saw.")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.pass_context
def delete_command(ctx: click.Context, record_id: int, version: int, yes: bool) -> None:
    """Delete record ID if it is still at --version. Asks first unless --yes.

    Deletion removes the record from the database and from retrieval. It does not prove the bytes
    are gone from disk, backups, transcripts or provider logs.

    \b
    Example:
        tact-memory delete 12 --version 3
    """
    from ..records import RecordKey
    from ..screening.display import terminal_safe

    config = _config(ctx)
    _require_enabled(config)
    store = _store(config)
    try:
        record = store.get(record_id)  # a missing file is no record, and is not created
    except errors.TactMemoryError as exc:
        _fail(f"{exc.code}: {exc.message}")
        raise  # pragma: no cover
    if record is None:
        _fail(f"not_found: no memory has id {record_id}")
    elif record.key.version != version:
        from ..store.policy import version_mismatch

        _fail(
            f"version_conflict: {version_mismatch(RecordKey(record_id, version), record.key.version)}. Check it with "
            f"`tact-memory show {record_id}`, then delete it with --version {record.key.version}"
        )
    elif not yes:
        click.echo(f"memory {record_id} (version {record.key.version}):\n  {terminal_safe(record.content)}")
        try:
            agreed = click.confirm("Remove it from the memory database and from retrieval?", default=False)
        except click.Abort:
            if sys.stdin is not None and sys.stdin.isatty():
                raise  # Ctrl-C or Ctrl-D at the question: click's own "Aborted!"
            click.echo("")  # end the question's line
            _fail(f"no answer came on stdin, so memory {record_id} was kept; pass --yes to delete without asking")
            raise  # pragma: no cover
        if not agreed:
            click.echo("kept")
            return
    try:
        store.delete(RecordKey(record_id, version))
    except errors.TactMemoryError as exc:
        _fail(f"{exc.code}: {exc.message}")
    click.echo(f"memory {record_id} removed from the database and from retrieval (not proof of physical erasure)")
