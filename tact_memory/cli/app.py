"""``tact-memory``: a thin command line over the config, the store and the tool.

Every command is a few lines that call the library; anything a command knows, Python callers can
do too. Bad command-line usage exits 2 with a usage line (click's convention); an unusable
configuration or database exits 1 with one line on stderr; tool refusals are results, exit 0.
A command that needs an extra that is not installed exits 2 too, with one line naming it, before
any work: like bad usage, it is the command that cannot run, and 1 is what ``eval`` and
``bench --check`` answer for a verdict (fail, or a missed target). ``hook`` never exits 2.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from .team import serve_command, team_group

if TYPE_CHECKING:
    pass

from .agents import (
    hook_command,
    mcp_command,
    schema_command,
    setup_command,
    tool_command,
)
from .authoring import (
    add_command,
    edit_command,
    import_command,
    init_command,
    show_command,
)
from .faces import bench_command, browse_command, demo_command, eval_command
from .listing import delete_command, export_command, list_command, status_command

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class _Commands(click.Group):
    """The command group, which says where a global option goes when one is given after a command."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.NoSuchOption as exc:
            name = exc.option_name.split("=", 1)[0]
            # the group's own options that take a value (--config PATH, --workspace DIR)
            value = {opt: p.metavar for p in self.params if isinstance(p, click.Option) and p.metavar for opt in p.opts}
            if name not in value or exc.ctx is None:
                raise
            where = exc.ctx.command_path.removeprefix(exc.ctx.find_root().command_path).strip()
            raise click.UsageError(
                f"{name} goes before the command: tact-memory {name} {value[name]} {where} ...", exc.ctx
            ) from None


@click.group(cls=_Commands, context_settings=CONTEXT_SETTINGS)
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
    # an empty path would quietly mean the current folder: refused here, before any command
    if config_path == "":
        from ..config.loading import EMPTY_PATH
        from .common import fail

        fail(f"--config: {EMPTY_PATH}")
    if workspace == "":
        from .common import fail

        fail("--workspace: the path given is empty; name a folder, or leave the option out to use the current one")
    ctx.ensure_object(dict)
    ctx.obj["config_path"] = config_path
    ctx.obj["workspace"] = workspace


cli.add_command(tool_command)
cli.add_command(schema_command)
cli.add_command(mcp_command)
cli.add_command(hook_command)
cli.add_command(setup_command)
cli.add_command(status_command)
cli.add_command(list_command)
cli.add_command(export_command)
cli.add_command(delete_command)
cli.add_command(init_command)
cli.add_command(add_command)
cli.add_command(show_command)
cli.add_command(edit_command)
cli.add_command(import_command)
cli.add_command(demo_command)
cli.add_command(browse_command)
cli.add_command(bench_command)
cli.add_command(eval_command)
cli.add_command(serve_command)
cli.add_command(team_group)


def main() -> None:
    """Console entry point."""
    cli(prog_name="tact-memory")


if __name__ == "__main__":  # pragma: no cover
    main()
