"""Commands that run something larger: `demo`, `browse`, `bench` and `eval`."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

import click

from .common import config_for as _config
from .common import fail as _fail
from .common import require_extra as _require

if TYPE_CHECKING:
    pass

from .common import json_option


@click.command("demo")
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


@click.command("browse")
@click.pass_context
def browse_command(ctx: click.Context) -> None:
    """Browse, filter and delete records in a terminal UI. Changes no telemetry.

    Needs the browser extra: pip install 'tact-memory[browser]'. The browser follows config.toml:
    enabling or disabling memory there shows or hides the records without a restart, and adding,
    changing or removing [memory.team] switches between the team store and local memory.

    \b
    Example:
        tact-memory --config ~/.config/tact/config.toml browse
    """
    _require("browser", "textual", "rich")
    from ..browser import MemoryBrowser
    from ..config.loading import locate_config
    from ..runtime.stores import team_store

    config = _config(ctx)
    # inside a [memory.team] workspace root, the browser shows (and deletes from) the team store,
    # and it switches between that and local memory whenever config.toml says so
    MemoryBrowser(
        locate_config(ctx.obj.get("config_path")), config=config, team_store_factory=team_store,
        workspace=ctx.obj.get("workspace"),
    ).run()  # fmt: skip


@click.command("bench")
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
    times; it ends with one met/missed line per target, and --check exits 1 on a missed one.
    With --team, it fills namespaces of its own in
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



@click.command("eval")
@json_option
@click.option("--report", "report_dir", type=click.Path(file_okay=False), metavar="DIR", help="Write report.md and PNG charts into DIR.")
@click.option(
    "--policy", default="scripted", show_default=True,
    help="Who plays the agent: scripted (offline), or pydantic-ai:MODEL such as pydantic-ai:openai:gpt-4.1.",
)  # fmt: skip
@click.option("--scenarios", type=click.Path(exists=True, file_okay=False), help="Scenario folder (default: the scenarios shipped with the package).")
@click.option("--thresholds", type=click.Path(exists=True, dir_okay=False), help="Thresholds file (default: the one shipped with the package).")
@click.option("--tune", is_flag=True, help="Sweep retrieval constants on the tuning split and print the table; no verdict.")
@click.option(
    "--split", type=click.Choice(["all", "tuning"]), default="all", show_default=True,
    help="tuning: run only the tuning scenarios, with no verdict (to fix thresholds before a held-out run).",
)  # fmt: skip
def eval_command(
    as_json: bool, report_dir: str | None, policy: str, scenarios: str | None, thresholds: str | None, tune: bool, split: str
) -> None:
    """Run every scenario with memory on and off, and judge memory by the kill criteria.

    Each arm uses a temporary config folder (the global --config is not used). Exits 0 when the
    held-out verdict is pass, 1 when it is fail or inconclusive (a tuning-only run is always
    inconclusive), and 2 when the evaluation could not run (a scenario, thresholds or report
    folder it cannot use).

    \b
    Example:
        tact-memory eval
        tact-memory eval --json --report ./eval-report
        tact-memory eval --policy pydantic-ai:openai:gpt-4.1 --split tuning
    """
    if report_dir is not None:
        _require("eval", "matplotlib")
    if policy.startswith("pydantic-ai:"):
        _require("pydantic-ai", "pydantic_ai")
    from ..eval.command import run_command

    sys.exit(run_command(
        as_json=as_json, report_dir=report_dir, policy=policy, scenarios=scenarios, thresholds=thresholds, tune=tune,
        split="tuning" if split == "tuning" else "all",
    ))  # fmt: skip
