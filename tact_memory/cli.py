"""``tact-memory``: a thin command line over the config, the store and the tool.

Every command is a few lines that call the library; anything a command knows, Python callers can
do too. Bad command-line usage exits 2 with a usage line (click's convention); an unusable
configuration or database exits 1 with one line on stderr; tool refusals are results, exit 0.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable
from datetime import datetime, timezone
from typing import Any, TypeVar

import click

from . import errors
from .config import Config, load_config
from .records import MemoryRecord, StoreStatus

F = TypeVar("F", bound=Callable[..., Any])

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def _fail(message: str) -> None:
    click.echo(f"tact-memory: {message}", err=True)
    sys.exit(1)


def _require(extra: str, *modules: str) -> None:
    """Exit 2 with one line naming the extra when a module it installs is missing.

    Checked before any work, so a command never fails half-way (or with a traceback) on an
    optional dependency. Only top-level module names: finding them imports nothing.
    """
    import importlib.util

    for module in modules:
        if importlib.util.find_spec(module) is None:
            click.echo(
                f"tact-memory: this needs the {extra} extra ({module} is not installed): "
                f"pip install 'tact-memory[{extra}]'",
                err=True,
            )
            sys.exit(2)


def _config(ctx: click.Context) -> Config:
    try:
        return load_config(ctx.obj.get("config_path"))
    except errors.ConfigError as exc:
        _fail(exc.message)
        raise  # pragma: no cover


def _require_enabled(config: Config) -> None:
    """Stop with exit 1, as the browser would show it, when memory is disabled."""
    if config.memory.enabled:
        return
    if config.exists:
        how = f"set `[memory] enabled = true` in {config.path}"
    else:
        how = f"create {config.path} (it does not exist, so defaults are in force) with `[memory] enabled = true`"
    _fail(f"memory is disabled; to enable it, {how}")


def _store(config: Config) -> Any:
    from .store import MemoryStore

    return MemoryStore(config.database_path)


def json_option(func: F) -> F:
    """``--json``: machine-readable output instead of text."""
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")(func)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _when(ms: int | None) -> str:
    if ms is None:
        return "-"
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).strftime("%Y-%m-%d %H:%M")


@click.group(context_settings=CONTEXT_SETTINGS)
@click.option(
    "--config",
    "config_path",
    metavar="PATH",
    help="config.toml to use (default: TACT_CONFIG, then $TACT_HOME/config.toml, then the user config dir).",
)
@click.version_option(package_name="tact-memory", message="%(prog)s %(version)s")
@click.pass_context
def cli(ctx: click.Context, config_path: str | None) -> None:
    """Opt-in, explicit, bounded memory for coding agents.

    Memory is off unless config.toml says `[memory] enabled = true`; the corpus lives in
    <config-dir>/memory/v1.sqlite3.

    \b
    Example:
        tact-memory --config ./config.toml status
    """
    ctx.ensure_object(dict)
    ctx.obj["config_path"] = config_path


@cli.command("tool")
@click.option(
    "--role", type=click.Choice(["root", "child"]), default="root", show_default=True,
    help="The caller's role; a child may only scan and read.",
)  # fmt: skip
@click.argument("call", required=False)
@click.pass_context
def tool_command(ctx: click.Context, role: str, call: str | None) -> None:
    """Run memory tool calls and print exactly what a model would see.

    CALL is one JSON object. Without it, JSON objects are read one per line from stdin and run
    through one tool instance (so scan-before-put holds across lines); one JSON result per line.

    \b
    Example:
        tact-memory tool '{"operation": "scan", "query": "release tags"}'
        printf '%s\\n' '{"operation":"scan","query":"x"}' '{"operation":"put","content":"y"}' | tact-memory tool
    """
    from .dispatch import Dispatcher, Role

    config = _config(ctx)
    store = _store(config) if config.memory.enabled else None
    dispatcher = Dispatcher(store, role=Role(role))
    # stdin is read as bytes: a line that is not UTF-8 becomes an invalid_arguments result, whatever
    # the locale's decoding, instead of ending the session.
    lines: Iterable[str | bytes] = (
        [call] if call is not None else (line for line in sys.stdin.buffer if line.strip())
    )
    for line in lines:
        click.echo(_dumps(dispatcher.call(line.strip())))


@cli.command("schema")
def schema_command() -> None:
    """Print the tool definition (name, description, input schema) as JSON.

    \b
    Example:
        tact-memory schema > memory-tool.json
    """
    from .tool_models import tool_definition

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


def _records(ctx: click.Context, order: str) -> list[MemoryRecord]:
    config = _config(ctx)
    _require_enabled(config)
    try:
        return list(_store(config).list_records(order=order))
    except errors.TactMemoryError as exc:
        _fail(exc.message)
        raise  # pragma: no cover


def _record_json(record: MemoryRecord) -> dict[str, Any]:
    from .tool_models import ReadOutput

    return ReadOutput(memories=[record]).model_dump(mode="json")["memories"][0]  # type: ignore[no-any-return]


ORDER = click.option(
    "--order",
    type=click.Choice(["most_useful", "newest", "oldest", "least_useful", "id"]),
    default="most_useful",
    show_default=True,
    help="Sort order; usefulness is the deliberate read count.",
)


@cli.command("list")
@ORDER
@json_option
@click.pass_context
def list_command(ctx: click.Context, order: str, as_json: bool) -> None:
    """List stored records. Reading here changes no telemetry.

    \b
    Example:
        tact-memory list --order newest
    """
    from .display import one_line
    from .text import preview

    records = _records(ctx, order)
    if as_json:
        click.echo(_dumps([_record_json(r) for r in records]))
        return
    if not records:
        click.echo("no memories stored")
        return
    click.echo(f"{'ID':>5} {'VER':>4} {'READS':>5} {'SCANS':>5}  {'UPDATED (UTC)':16}  CONTENT")
    for r in records:
        flag = "*" if r.probation_until_ms is not None else " "
        text = preview(one_line(r.content), 64)
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
    from .display import terminal_safe
    from .records import RecordKey

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
    from .browser import MemoryBrowser
    from .config import locate_config

    config = _config(ctx)
    MemoryBrowser(locate_config(ctx.obj.get("config_path")), config=config).run()


@cli.command("bench")
@json_option
@click.option("--quick", is_flag=True, help="A smoke run with few samples (seconds, rough figures).")
def bench_command(as_json: bool, quick: bool) -> None:
    """Time every operation on a full store, against SQLite FTS5 in the same run.

    Uses a temporary folder; your memory is not touched. Targets are ratios against baselines
    measured in the same run (scan p95 no slower than FTS5), plus import time and a check that an
    enabled but unused session creates no file.

    \b
    Example:
        tact-memory bench --json | jq .ratios
    """
    from .bench import main as bench_main

    click.echo(bench_main(as_json, quick=quick))


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
    call returns the `disabled` error. Needs the mcp extra: pip install 'tact-memory[mcp]'.

    \b
    Example:
        tact-memory --config ~/.config/tact/config.toml mcp --role child
        tact-memory mcp --tools split
    """
    _require("mcp", "mcp")
    config = _config(ctx)
    from .dispatch import Role
    from .integrations.mcp import run_stdio

    run_stdio(config, role=Role(role), tools="split" if tools == "split" else "one")


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
    from .eval.command import run_command

    sys.exit(run_command(as_json=as_json, report_dir=report_dir, policy=policy, scenarios=scenarios, thresholds=thresholds, tune=tune))


def main() -> None:
    """Console entry point."""
    cli(prog_name="tact-memory")


if __name__ == "__main__":  # pragma: no cover
    main()
