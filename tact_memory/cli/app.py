"""``tact-memory``: a thin command line over the config, the store and the tool.

Every command is a few lines that call the library; anything a command knows, Python callers can
do too. Bad command-line usage exits 2 with a usage line (click's convention); an unusable
configuration or database exits 1 with one line on stderr; tool refusals are results, exit 0.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

import click

from .. import errors
from ..clock import format_ms
from ..config.loading import Config
from ..records import ORDERS, MemoryRecord, RecordOrder, StoreStatus, matches
from .common import config_for as _config
from .common import enabled_store as _enabled_store
from .common import fail as _fail
from .common import require_enabled as _require_enabled
from .common import require_extra as _require
from .common import store_for_config as _store
from .team import serve_command, team_group

if TYPE_CHECKING:
    from ..records import MemoryBackend

F = TypeVar("F", bound=Callable[..., Any])

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def _refused(exc: errors.TactMemoryError, suffix: str = "") -> None:
    """Exit 1 with the error's code and message (which never carry a secret value)."""
    _fail(f"{exc.code}: {exc.message}{suffix}")


def json_option(func: F) -> F:
    """``--json``: machine-readable output instead of text."""
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")(func)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


_when = partial(format_ms, zone=False)  # the callers add " UTC" where a heading does not say it


@click.group(context_settings=CONTEXT_SETTINGS)
@click.option(
    "--config",
    "config_path",
    metavar="PATH",
    help="config.toml to use (default: TACT_CONFIG, then $TACT_HOME/config.toml, then the user config dir).",
)
@click.option(
    "--workspace",
    "workspace",
    metavar="DIR",
    type=click.Path(file_okay=False),
    help="The workspace whose memory to use (default: the current folder); inside a [memory.team] workspace root it is the team store.",
)
@click.version_option(package_name="tact-memory", message="%(prog)s %(version)s")
@click.pass_context
def cli(ctx: click.Context, config_path: str | None, workspace: str | None) -> None:
    """Opt-in, explicit, bounded memory for coding agents.

    Memory is off unless config.toml says `[memory] enabled = true`; the corpus lives in
    <config-dir>/memory/v1.sqlite3.

    \b
    Example:
        tact-memory --config ./config.toml status
    """
    ctx.ensure_object(dict)
    ctx.obj["config_path"] = config_path
    ctx.obj["workspace"] = workspace


@cli.command("tool")
@click.option(
    "--role", type=click.Choice(["root", "child"]), default="root", show_default=True,
    help="The caller's role; a child may only scan and read.",
)  # fmt: skip
@click.argument("call", required=False)
@click.pass_context
def tool_command(ctx: click.Context, role: str, call: str | None) -> None:
    """Run memory tool calls and print exactly what a model would see.

    CALL is one JSON object. Without it, JSON objects are read from stdin (one a line, or
    pretty-printed over several lines) and run through one tool instance, so scan-before-put holds
    across calls; one JSON result a line. Input that is not a JSON object is answered with an
    invalid_arguments result, and the stream goes on.

    \b
    Example:
        tact-memory tool '{"operation": "scan", "query": "release tags"}'
        printf '%s\\n' '{"operation":"scan","query":"x"}' '{"operation":"put","content":"y"}' | tact-memory tool
    """
    from ..tool.guard import Dispatcher, Role
    from .json_stream import split_values

    config = _config(ctx)
    store = _store(config) if config.memory.enabled else None
    dispatcher = Dispatcher(store, role=Role(role))
    # stdin is read as bytes: a line that is not UTF-8 becomes an invalid_arguments result, whatever
    # the locale's decoding, instead of ending the session.
    calls: Iterable[str | bytes] = [call.strip()] if call is not None else split_values(sys.stdin.buffer)
    for value in calls:
        click.echo(_dumps(dispatcher.call(value)))


@cli.command("schema")
def schema_command() -> None:
    """Print the tool definition (name, description, input schema) as JSON.

    \b
    Example:
        tact-memory schema > memory-tool.json
    """
    from ..tool.schemas import tool_definition

    click.echo(json.dumps(tool_definition(), indent=2, ensure_ascii=False))


def _status_lines(config: Config, status: StoreStatus) -> list[str]:
    lim = status.limits
    state = "enabled" if config.memory.enabled else "disabled (set `[memory] enabled = true` to enable)"
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


@cli.command("status")
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


def _record_json(record: MemoryRecord) -> dict[str, Any]:
    from ..tool.results import record_json

    return record_json(record)


ORDER = click.option(
    "--order",
    type=click.Choice(list(ORDERS)),
    default="most_useful",
    show_default=True,
    help="Sort order; usefulness is the deliberate read count.",
)


@cli.command("list")
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
        click.echo(_dumps([_record_json(r) for r in records]))
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


@cli.command("export")
@click.pass_context
def export_command(ctx: click.Context) -> None:
    """Print every record as one JSON object per line (as in a read result). No telemetry.

    \b
    Example:
        tact-memory export > memories.jsonl
    """
    for record in _records(ctx, "id"):
        click.echo(_dumps(_record_json(record)))


@cli.command("delete")
@click.argument("record_id", metavar="ID", type=click.IntRange(min=1))
@click.option("--version", "version", type=click.IntRange(min=1), required=True, help="The version you saw.")
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
        _fail(exc.message)
        raise  # pragma: no cover
    if record is None:
        _fail(f"no memory has id {record_id}")
    elif record.key.version != version:
        _fail(f"memory {record_id} is at version {record.key.version}, not {version}; it changed since you saw it")
    elif not yes:
        click.echo(f"memory {record_id} (version {record.key.version}):\n  {terminal_safe(record.content)}")
        if not click.confirm("Remove it from the memory database and from retrieval?", default=False):
            click.echo("kept")
            return
    try:
        store.delete(RecordKey(record_id, version))
    except errors.TactMemoryError as exc:
        _fail(exc.message)
    click.echo(f"memory {record_id} removed from the database and from retrieval (not proof of physical erasure)")


@cli.command("init")
@click.option("--enable", is_flag=True, help="Write `enabled = true` (by default memory stays off until you enable it).")
@click.pass_context
def init_command(ctx: click.Context, enable: bool) -> None:
    """Write a commented config.toml where tact-memory looks for it (or at --config).

    The file is the one every other command would read: --config, else TACT_CONFIG, else
    $TACT_HOME/config.toml, else the user config folder. Memory is opt-in, so the file says
    `enabled = false` unless you pass --enable. An existing file is never overwritten.

    \b
    Example:
        tact-memory init
        tact-memory --config ./tact/config.toml init --enable
    """
    from ..config.loading import database_path_for, locate_config, write_new_config

    source = locate_config(ctx.obj.get("config_path"))
    try:
        path = write_new_config(source.path, enabled=enable)
    except FileExistsError:
        _fail(f"{source.path} already exists; it was left unchanged")
        raise  # pragma: no cover
    except OSError as exc:
        _fail(f"cannot write {source.path}: {exc.strerror or exc}")
        raise  # pragma: no cover
    click.echo(f"wrote {path} (memory {'enabled' if enable else 'disabled'})")
    click.echo(f"memory database: {database_path_for(path)} (created on first use)")
    if not enable:
        click.echo("to enable memory, set `enabled = true` under `[memory]` in that file")


def _read_text(text: str | None) -> str:
    """TEXT, or all of stdin (UTF-8) when TEXT is missing or ``-``."""
    if text is not None and text != "-":
        return text
    try:
        return sys.stdin.buffer.read().decode("utf-8")
    except UnicodeDecodeError:
        _fail("invalid_arguments: stdin is not UTF-8 text")
        raise  # pragma: no cover


@cli.command("add")
@click.argument("text", required=False)
@json_option
@click.pass_context
def add_command(ctx: click.Context, text: str | None, as_json: bool) -> None:
    """Store TEXT (or stdin) as a new record, as you wrote it.

    The put is checked exactly as a model's is (size, duplicates, bounds, secrets) and a refused
    put changes nothing. It is your write, like the browser's: no scan is needed, and the record
    starts without probation, so it is never pruned. Leading and trailing white space is dropped.

    \b
    Example:
        tact-memory add "In the commonware repository, release tags are named vX.Y.Z."
        tact-memory add < conclusion.txt
    """
    store = _enabled_store(ctx)
    try:
        record = store.put(_read_text(text).strip(), probation=False).memory
    except errors.TactMemoryError as exc:
        _refused(exc)
        raise  # pragma: no cover
    if as_json:
        click.echo(_dumps(_record_json(record)))
    else:
        click.echo(f"added memory {record.key.id} (version {record.key.version})")


def _get_record(store: MemoryBackend, record_id: int) -> MemoryRecord:
    try:
        record = store.get(record_id)
    except errors.TactMemoryError as exc:
        _refused(exc)
        raise  # pragma: no cover
    if record is None:
        _fail(f"not_found: no memory has id {record_id}")
        raise AssertionError  # pragma: no cover
    return record


def _show_lines(store: MemoryBackend, record: MemoryRecord) -> list[str]:
    from ..retrieval.lexer import utf8_size

    def last(count: int, ms: int | None) -> str:
        return f"{count}" if ms is None else f"{count}, last {_when(ms)} UTC"

    if record.probation_until_ms is None:
        probation = "none (written by a person, or read by an agent): never pruned"
    else:
        probation = f"until {_when(record.probation_until_ms)} UTC; pruned after that if unread and space is needed"
    lines = [
        f"memory    {record.key.id}, version {record.key.version}, {utf8_size(record.content):,} bytes",
        f"created   {_when(record.created_at_ms)} UTC",
        f"updated   {_when(record.updated_at_ms)} UTC",
        f"scans     {last(record.scan_count, record.last_scanned_at_ms)}",
        f"reads     {last(record.read_count, record.last_read_at_ms)}",
        f"probation {probation}",
    ]
    kind = store.hidden_reason(record)
    if kind is not None:
        lines.append(f"hidden    matches a secret pattern ({kind}): agents never see it; delete it")
    return [*lines, "", record.content]


@cli.command("show")
@click.argument("record_id", metavar="ID", type=click.IntRange(min=1))
@json_option
@click.pass_context
def show_command(ctx: click.Context, record_id: int, as_json: bool) -> None:
    """Print record ID in full with its telemetry. Changes no telemetry.

    \b
    Example:
        tact-memory show 12
    """
    store = _enabled_store(ctx)
    record = _get_record(store, record_id)
    click.echo(_dumps(_record_json(record)) if as_json else "\n".join(_show_lines(store, record)))


@cli.command("edit")
@click.argument("record_id", metavar="ID", type=click.IntRange(min=1))
@click.pass_context
def edit_command(ctx: click.Context, record_id: int) -> None:
    """Edit record ID in $VISUAL or $EDITOR and store the result as its next version.

    The editor opens the current version in a private temporary file. Saving replaces exactly the
    version you opened: if the record changed or was deleted meanwhile, nothing is overwritten
    (version_conflict or not_found, exit 1). Unchanged or empty text stores nothing. The new
    version is checked like any put; if it is refused, your text stays in the temporary file the
    message names (unless it was refused as a secret: then the file is deleted). Without VISUAL
    or EDITOR, the editor is sensible-editor, vim, nano or vi (notepad on Windows).

    \b
    Example:
        EDITOR=nano tact-memory edit 12
    """
    import tempfile

    store = _enabled_store(ctx)
    record = _get_record(store, record_id)
    fd, name = tempfile.mkstemp(prefix=f"tact-memory-{record_id}-", suffix=".txt")  # mode 0600
    with os.fdopen(fd, "w", encoding="utf-8") as file:
        file.write(record.content + "\n")
    keep = False
    try:
        try:
            click.edit(filename=name)
            edited = Path(name).read_text(encoding="utf-8").strip()
        except (click.ClickException, UnicodeDecodeError) as exc:
            reason = exc.format_message() if isinstance(exc, click.ClickException) else "the file is not UTF-8 text"
            _fail(f"{reason}; memory {record_id} is unchanged")
            raise  # pragma: no cover
        if not edited or edited == record.content.strip():
            what = "empty text" if not edited else "no change"
            click.echo(f"{what}: memory {record_id} stays at version {record.key.version}")
            return
        try:
            result = store.put(edited, replace=record.key, probation=False)
        except errors.TactMemoryError as exc:
            keep = not isinstance(exc, errors.SecretRejected)
            _refused(exc, f" (memory {record_id} is unchanged; your text is kept in {name})" if keep else "")
            raise  # pragma: no cover
        click.echo(f"memory {record_id} is now version {result.memory.key.version}")
    finally:
        if not keep:
            os.unlink(name)


@cli.command("import")
@click.argument("source", metavar="FILE", type=click.File("rb"))
@click.option("--dry-run", is_flag=True, help="Check every line against a copy of the database; write nothing.")
@click.pass_context
def import_command(ctx: click.Context, source: Any, dry_run: bool) -> None:
    """Add the records of FILE (`-` for stdin): JSON lines, as `export` writes them.

    Each line's `content` is put as your own record (as `add` does), checked exactly like a put:
    size, duplicates (also against earlier lines), bounds, secrets. Ids, versions and telemetry
    in the file are ignored; the store gives new ones. Lines are independent: a refused line is
    skipped and named by its number and error code, the others are added. Exits 1 if any line
    was skipped. --dry-run makes the same checks against a temporary copy of the database.

    \b
    Example:
        tact-memory import --dry-run memories.jsonl
        tact-memory import memories.jsonl
    """
    from .importing import import_lines

    store = _enabled_store(ctx)
    added = skipped = 0
    would = "would be " if dry_run else ""
    try:
        for outcome in import_lines(store, source, dry_run=dry_run):
            if outcome.record is not None:
                added += 1
                click.echo(f"line {outcome.line}: {would}added" + ("" if dry_run else f" as memory {outcome.record.key.id}"))
            else:
                skipped += 1
                click.echo(f"line {outcome.line}: skipped, {outcome.code}: {outcome.message}")
    except errors.TactMemoryError as exc:
        _refused(exc, f" (stopped after {added} added, {skipped} skipped)")
    if dry_run:
        click.echo(f"dry run: would add {added}, would skip {skipped}; nothing was written")
    else:
        click.echo(f"added {added}, skipped {skipped}")
    if skipped:
        sys.exit(1)


@cli.command("demo")
@json_option
def demo_command(as_json: bool) -> None:
    """Run a scripted, offline session pair that shows the whole feature.

    A scripted model uses a real store in a temporary folder (your memory is not touched): a
    correction and a steer get the review checkpoint, the root agent stores two conclusions, a
    child agent reads them and is refused a put, and a later session reads them back.

    \b
    Example:
        tact-memory demo --json | jq '.sessions[0].model_requests[-1].messages'
    """
    from .demo import render_text, run_demo

    run = run_demo()
    click.echo(json.dumps(run.to_json(), indent=2, ensure_ascii=False) if as_json else render_text(run))


@cli.command("browse")
@click.pass_context
def browse_command(ctx: click.Context) -> None:
    """Browse, filter and delete records in a terminal UI. Changes no telemetry.

    Needs the browser extra: pip install 'tact-memory[browser]'. The browser follows config.toml:
    enabling or disabling memory there shows or hides the records without a restart.

    \b
    Example:
        tact-memory --config ~/.config/tact/config.toml browse
    """
    _require("browser", "textual", "rich")
    from ..browser import MemoryBrowser
    from ..config.loading import locate_config

    config = _config(ctx)
    # inside a [memory.team] workspace root, the browser shows (and deletes from) the team store
    MemoryBrowser(locate_config(ctx.obj.get("config_path")), config=config, store_factory=lambda _: _store(config)).run()


@cli.command("bench")
@json_option
@click.option("--quick", is_flag=True, help="A smoke run with few samples (seconds, rough figures).")
@click.option("--check", is_flag=True, help="Exit 1 if a measured target is missed.")
@click.option(
    "--team", is_flag=True,
    help="Time scan and put through the team service (64 namespaces x 512 records) beside the local store.",
)  # fmt: skip
@click.option(
    "--database", envvar="TACT_TEAM_DATABASE_URL", metavar="URL",
    help="With --team: a PostgreSQL URL it may write to (or set TACT_TEAM_DATABASE_URL).",
)  # fmt: skip
def bench_command(as_json: bool, quick: bool, check: bool, team: bool, database: str | None) -> None:
    """Time every operation on a full store, against SQLite FTS5 in the same run.

    Uses a temporary folder; your memory is not touched. Targets are ratios against baselines
    measured in the same run (scan against the ranking alone and against FTS5 in WAL/NORMAL;
    writes against this disk's fdatasync), plus import time (-X importtime) and cold process
    times; it ends with one met/missed line per target, and --check exits 1 on a missed one. With --team, it fills namespaces of its own in
    the database, starts `serve` on a free local port, and removes what it wrote afterwards.

    \b
    Example:
        tact-memory bench --json | jq .ratios
        tact-memory bench --team --database postgresql://localhost/scratch
    """
    if team:
        if not database:
            click.echo("tact-memory: bench --team needs a PostgreSQL URL: --database URL or TACT_TEAM_DATABASE_URL", err=True)
            sys.exit(2)
        _require("team", "psycopg", "psycopg_pool", "starlette", "uvicorn", "mcp", "httpx")
        from ..team.bench import main as team_bench_main
        from ..team.server import ServeError

        try:
            click.echo(team_bench_main(database, as_json, quick=quick))
        except ServeError as exc:
            _fail(str(exc))
        return
    from .bench import STAGES, render
    from .bench import main as bench_main

    if as_json or not sys.stderr.isatty():
        report = bench_main(as_json, quick=quick)
    else:
        with click.progressbar(length=len(STAGES), label="bench", file=sys.stderr) as bar:

            def advance(stage: str) -> None:
                bar.label = stage
                bar.update(1)

            report = bench_main(as_json, quick=quick, progress=advance)
    click.echo(render(report, as_json))
    if check and report.missed():
        sys.exit(1)


@cli.command("mcp")
@click.option(
    "--role", type=click.Choice(["root", "child"]), default="root", show_default=True,
    help="The role of the agent behind the client; a child may only scan and read.",
)  # fmt: skip
@click.option(
    "--tools", type=click.Choice(["one", "split"]), default="one", show_default=True,
    help="One `memory` tool, or one tool per operation (memory_scan and memory_read read-only, "
    "memory_put, memory_delete) for clients that ask before running a tool that changes things.",
)  # fmt: skip
@click.pass_context
def mcp_command(ctx: click.Context, role: str, tools: str) -> None:
    """Serve the memory tool to one MCP client over stdio.

    The server lists one `memory` tool, or with `--tools split` one tool per operation (results
    are what `tact-memory tool` prints), and a `memory_review` prompt with the review checkpoint;
    MCP has no per-turn hook, so the client decides when to show it. With memory disabled, every
    call returns the `disabled` error. Started in a terminal, it says so on stderr; Ctrl-C stops
    it (exit 0). Needs the mcp extra: pip install 'tact-memory[mcp]'.

    \b
    Example:
        tact-memory --config ~/.config/tact/config.toml mcp --role child
        tact-memory mcp --tools split
    """
    _require("mcp", "mcp")
    config = _config(ctx)
    from ..adapters.mcp import run_stdio
    from ..tool.guard import Role

    previous = signal.signal(signal.SIGINT, _stop_serving)
    if sys.stdin.isatty():  # a person started it by hand: say what it is waiting for
        click.echo(
            "tact-memory: serving the memory tool to one MCP client over stdio (stdin and stdout); "
            "press Ctrl-C to stop",
            err=True,
        )
    try:
        run_stdio(config, role=Role(role), tools="split" if tools == "split" else "one", workspace=ctx.obj.get("workspace"))
    finally:
        signal.signal(signal.SIGINT, previous)


def _stop_serving(signum: int, frame: object) -> None:
    """SIGINT (Ctrl-C) while serving MCP: end the process at once, with exit 0 and no traceback.

    The MCP SDK reads stdin in a worker thread that cancellation cannot interrupt, so unwinding
    normally would wait for the client's next line (at a terminal, for more Ctrl-Cs and then a
    traceback). Ending here loses nothing: every acknowledged write is already durable, and a
    transaction still in flight is rolled back from its journal when the database is next opened.
    """
    sys.stderr.flush()
    os._exit(0)


@cli.command("hook", context_settings={"ignore_unknown_options": True})
@click.argument("event", type=click.Choice(["user-prompt-submit", "session-start"]))
@click.pass_context
def hook_command(ctx: click.Context, event: str) -> None:
    """Run a client's prompt hook: the event's JSON on stdin, the checkpoint (if due) on stdout.

    For Claude Code and Codex (`tact-memory setup` installs it). user-prompt-submit prints the
    review checkpoint as `additionalContext` on every prompt after a session's first, and on the
    first prompt after a resume; session-start marks resumed sessions. Prints nothing when memory
    is disabled. Errors exit 1 (never 2, which the clients read as "block this prompt").

    \b
    Example:
        echo '{"session_id": "s1", "prompt": "hi"}' | tact-memory hook user-prompt-submit
    """
    from ..hooks.prompt_hook import main as hook_main

    config_path = ctx.obj.get("config_path")
    sys.exit(hook_main([*(["--config", config_path] if config_path else []), event]))


@cli.command("setup")
@click.argument("client", type=click.Choice(["claude-code", "claude-desktop", "codex", "cursor", "vscode"]))
@click.option("--print", "print_only", is_flag=True, help="Print the entries and where they go; write nothing.")
@click.option(
    "--tools", type=click.Choice(["one", "split"]), default="one", show_default=True,
    help="Serve one `memory` tool, or one tool per operation (see `mcp --tools`).",
)  # fmt: skip
@click.option(
    "--reader-agent", is_flag=True,
    help="claude-code only, with --tools split: also write a `memory-reader` sub-agent that may scan and read, not write.",
)  # fmt: skip
@click.option(
    "--workspace", type=click.Path(file_okay=False, path_type=Path), default=".", show_default=True,
    help="vscode only: the workspace whose .vscode/mcp.json gets the server.",
)  # fmt: skip
@click.pass_context
def setup_command(ctx: click.Context, client: str, print_only: bool, tools: str, reader_agent: bool, workspace: Path) -> None:
    """Register the MCP server (and the prompt hook, where the client has one) with CLIENT.

    Merges into the client's own file without touching other entries, keeps the old file as
    <file>.bak, and changes nothing when the entry is already there. The command is the absolute
    path of this installation, with --config when you chose the configuration explicitly. Claude
    Code and Codex also get the prompt hook that adds the review checkpoint. Restart the client
    afterwards.

    \b
    Example:
        tact-memory setup claude-code --print
        tact-memory setup codex
        tact-memory setup claude-code --tools split --reader-agent
    """
    from ..config.loading import locate_config
    from . import clients

    if reader_agent and (client != "claude-code" or tools != "split"):
        raise click.UsageError("--reader-agent needs claude-code and --tools split")
    if client == "codex":
        _require("setup", "tomlkit")
    source = locate_config(ctx.obj.get("config_path"))
    launch = clients.Launch.detect(None if source.origin == "default" else source.path, tools=tools)
    try:
        changes = clients.plan(
            cast("clients.Client", client), launch, home=Path.home(), workspace=workspace.absolute(), reader=reader_agent
        )
    except clients.SetupError as exc:
        _fail(str(exc))
        raise  # pragma: no cover
    if print_only:
        if client == "claude-code":
            click.echo(f"# or: claude mcp add --scope user {clients.SERVER_NAME} -- {clients._shell([launch.command, *launch.args])}")
        for change in changes:
            click.echo(f"# {change.path}\n{change.snippet.rstrip()}")
        return
    for change in changes:
        try:
            backup = clients.apply(change)
        except OSError as exc:
            _fail(f"cannot write {change.path}: {exc.strerror or exc}")
        if not change.changed:
            click.echo(f"{change.path}: already up to date")
        else:
            click.echo(f"wrote {change.path}" + (f" (previous version kept as {backup})" if backup else ""))
    click.echo(f"server: {_dumps([launch.command, *launch.args])}; restart {client} to load it")


@cli.command("eval")
@json_option
@click.option("--report", "report_dir", type=click.Path(file_okay=False), metavar="DIR", help="Write report.md and PNG charts into DIR.")
@click.option(
    "--policy", default="scripted", show_default=True,
    help="Who plays the agent: scripted (offline), or pydantic-ai:MODEL such as pydantic-ai:openai:gpt-4.1.",
)  # fmt: skip
@click.option("--scenarios", type=click.Path(exists=True, file_okay=False), help="Scenario folder (default: the scenarios shipped with the package).")
@click.option("--thresholds", type=click.Path(exists=True, dir_okay=False), help="Thresholds file (default: the one shipped with the package).")
@click.option("--tune", is_flag=True, help="Sweep retrieval constants on the tuning split and print the table; no verdict.")
def eval_command(
    as_json: bool, report_dir: str | None, policy: str, scenarios: str | None, thresholds: str | None, tune: bool
) -> None:
    """Run every scenario with memory on and off, and judge memory by the kill criteria.

    Each arm uses a temporary config folder (the global --config is not used). Exits 0 when the
    held-out verdict is pass, 1 when it is fail or inconclusive.

    \b
    Example:
        tact-memory eval
        tact-memory eval --json --report ./eval-report
        tact-memory eval --policy pydantic-ai:openai:gpt-4.1
    """
    if report_dir is not None:
        _require("eval", "matplotlib")
    if policy.startswith("pydantic-ai:"):
        _require("pydantic-ai", "pydantic_ai")
    from ..eval.command import run_command

    sys.exit(run_command(as_json=as_json, report_dir=report_dir, policy=policy, scenarios=scenarios, thresholds=thresholds, tune=tune))


cli.add_command(serve_command)
cli.add_command(team_group)


def main() -> None:
    """Console entry point."""
    cli(prog_name="tact-memory")


if __name__ == "__main__":  # pragma: no cover
    main()
