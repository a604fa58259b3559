"""Commands for agents and their clients: `tool`, `schema`, `mcp`, `hook` and `setup`."""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, cast

import click

from .common import config_for as _config
from .common import fail as _fail
from .common import require_extra as _require
from .common import store_for_config as _store

if TYPE_CHECKING:
    from ..config.loading import ConfigSource, TeamSettings
    from ..tool.schemas import Dialect

from .common import dumps as _dumps


@click.command("tool")
@click.option(
    "--role", type=click.Choice(["root", "child"]), default=None,
    help="The caller's role; a child may only scan and read. Without it the calls run as a child, "
    "and a refused put or delete says how to run them as the root.",
)  # fmt: skip
@click.argument("call", required=False)
@click.pass_context
def tool_command(ctx: click.Context, role: str | None, call: str | None) -> None:
    """Run memory tool calls and print exactly what a model would see.

    CALL is one JSON object. Without it, JSON objects are read from stdin (one a line, or
    pretty-printed over several lines) and run through one tool instance, so scan-before-put holds
    across calls; one JSON result a line. Input that is not a JSON object is answered with an
    invalid_arguments result, and the stream goes on.

    The command cannot tell whether the agent that runs it is a sub-agent, so without `--role root`
    its calls run as a child: scans and reads only.

    \b
    Example:
        tact-memory tool '{"operation": "scan", "query": "release tags"}'
        printf '%s\\n' '{"operation":"scan","query":"x"}' '{"operation":"put","content":"y"}' | tact-memory tool --role root
    """
    from .tool_lines import tool_answers

    config = _config(ctx)
    store = _store(config) if config.memory.enabled else None
    for line in tool_answers(store, role, call, sys.stdin.buffer):
        click.echo(line)


@click.command("schema")
@click.option(
    "--dialect", type=click.Choice(["default", "plain", "openai-strict", "anthropic-strict", "gemini"]),
    default="default", show_default=True,
    help="The provider mode the input schema is written for: openai-strict for OpenAI's strict: true, "
    "anthropic-strict for Anthropic's strict: true, gemini for a Gemini FunctionDeclaration's parameters, "
    "plain (no anyOf: optional fields left out of required) for clients that check arguments themselves "
    "and know no unions; default for everything else (MCP, Anthropic and OpenAI without strict, Gemini's "
    "parametersJsonSchema).",
)  # fmt: skip
def schema_command(dialect: str) -> None:
    """Print the tool definition (name, description, input schema) as JSON.

    Every dialect describes the same calls, and the tool checks each call the same way whichever
    was published: a null field is taken as absent, and a bound a dialect cannot express (stated
    in the field's description instead) is still enforced.

    \b
    Example:
        tact-memory schema > memory-tool.json
        tact-memory schema --dialect openai-strict
    """
    from ..tool.schemas import tool_definition

    click.echo(json.dumps(tool_definition(dialect=cast("Dialect", dialect)), indent=2, ensure_ascii=False))



@click.command("mcp")
@click.option(
    "--role", type=click.Choice(["root", "child"]), default=None,
    help="The role of the agent behind the client; a child may only scan and read. Without it the "
    "server serves a child, and says so on stderr.",
)  # fmt: skip
@click.option(
    "--tools", type=click.Choice(["one", "split"]), default="one", show_default=True,
    help="One `memory` tool, or one tool per operation (memory_scan and memory_read read-only, "
    "memory_put, memory_delete) for clients that ask before running a tool that changes things.",
)  # fmt: skip
@click.option(
    "--dialect", type=click.Choice(["default", "plain", "openai-strict", "anthropic-strict"]), default="default",
    show_default=True,
    help="The shape of the input schemas listed (see `tact-memory schema --help`): plain for a client "
    "that checks arguments itself and does not understand anyOf (Cursor; `setup cursor` writes it).",
)  # fmt: skip
@click.pass_context
def mcp_command(ctx: click.Context, role: str | None, tools: str, dialect: str) -> None:
    """Serve the memory tool to one MCP client over stdio.

    The server lists one `memory` tool, or with `--tools split` one tool per operation (results
    are what `tact-memory tool` prints), and a `memory_review` prompt with the review checkpoint;
    MCP has no per-turn hook, so the client decides when to show it. With memory disabled, every
    call returns the `disabled` error. Started in a terminal, it says so on stderr; Ctrl-C stops
    it (exit 0) unless it was started ignoring Ctrl-C (nohup). Needs the mcp extra:

    \b
        pip install 'tact-memory[mcp]'

    \b
    Example:
        tact-memory --config ~/.config/tact/config.toml mcp --role child
        tact-memory mcp --tools split
    """
    _require("mcp", "mcp")
    config = _config(ctx)
    from ..adapters.mcp import run_stdio
    from ..tool.guard import Role

    previous = signal.getsignal(signal.SIGINT)
    stoppable = previous is not signal.SIG_IGN  # started ignoring Ctrl-C (nohup, a background job): it still does
    if stoppable:
        signal.signal(signal.SIGINT, _stop_serving)
    if sys.stdin.isatty():  # a person started it by hand: say what it is waiting for
        click.echo(
            "tact-memory: serving the memory tool to one MCP client over stdio (stdin and stdout)"
            + ("; press Ctrl-C to stop" if stoppable else ""),
            err=True,
        )
    if role is None:  # never the root unless stated (I17): the client's logs keep this line
        click.echo(
            "tact-memory: no --role given, so this server's agent is a child (it may scan and read, not "
            "put or delete); pass --role root to let it write, or --role child to say so",
            err=True,
        )
    try:
        run_stdio(
            config,
            role=None if role is None else Role(role),
            tools="split" if tools == "split" else "one",
            workspace=ctx.obj.get("workspace"),
            dialect=cast("Dialect", dialect),
        )
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


class _HookUsageError(click.UsageError):
    exit_code = 1


class _HookCommand(click.Command):
    """``hook``: bad usage exits 1, as the hook's other errors do, not click's 2, which the clients
    read as "block this prompt"."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as exc:
            raise _HookUsageError(exc.format_message(), exc.ctx) from None


@click.command("hook", cls=_HookCommand, context_settings={"ignore_unknown_options": True})
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
    sys.exit(hook_main([*(["--config", config_path] if config_path is not None else []), event]))


def _team(source: ConfigSource) -> TeamSettings | None:
    """The ``[memory.team]`` table, or ``None`` (also for a configuration that cannot be read: the
    server names its error when it starts)."""
    from ..config.loading import read_config
    from ..errors import ConfigError

    try:
        return read_config(source).memory.team
    except ConfigError:
        return None


@click.command("setup")
@click.argument("client", metavar="CLIENT", type=click.Choice(["claude-code", "claude-desktop", "codex", "cursor", "vscode"]))
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
    "--workspace", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
    help="vscode: the workspace whose .vscode/mcp.json gets the server (default: the global --workspace, else the current folder). "
    "claude-desktop: the folder whose memory the server uses (Claude Desktop starts it in no folder of yours); "
    "a folder inside a [memory.team] workspace root selects the team store.",
)  # fmt: skip
@click.option(
    "--remove", is_flag=True,
    help="Take the tact-memory server entry and hooks out of CLIENT's files again; nothing else in them changes.",
)  # fmt: skip
@click.pass_context
def setup_command(
    ctx: click.Context, client: str, print_only: bool, tools: str, reader_agent: bool, workspace: Path | None, remove: bool
) -> None:
    """Register the MCP server (and the prompt hook, where the client has one) with CLIENT.

    \b
    CLIENT is one of: claude-code, claude-desktop, codex, cursor, vscode.

    Merges into the client's own file without touching other entries, keeps the old file as
    <file>.bak, and changes nothing when the entry is already there. The command is the absolute
    path of this installation, with --config naming the configuration file when it exists (or
    you chose it), so the client finds it whatever its environment. Your own keys on the entry
    (env, timeouts) are kept. Claude Code and Codex also get the prompt hook that adds the review
    checkpoint; Codex runs a new or changed hook only after you trust it in its /hooks view.
    Codex's hook goes to config.toml when your own hooks are in its [hooks] table, and to
    hooks.json otherwise. Restart the client afterwards. --remove takes our entries out again.

    \b
    Example:
        tact-memory setup claude-code --print
        tact-memory setup codex
        tact-memory setup claude-code --tools split --reader-agent
        tact-memory setup codex --remove
    """
    import shlex

    from ..config.loading import broken_link, locate_config
    from . import clients, setup_plan

    if reader_agent and (client != "claude-code" or tools != "split" or remove):
        raise click.UsageError("--reader-agent needs claude-code and --tools split, without --remove")
    if client == "codex":
        _require("setup", "tomlkit")
    source = locate_config(ctx.obj.get("config_path"))
    pinned = clients.pinned_config(source)
    team = _team(source)
    forward = (team.token_env,) if team is not None and team.token_env else ()
    served = workspace.absolute() if workspace is not None and client == "claude-desktop" else None
    launch = clients.Launch.detect(
        pinned, tools=tools, forward=forward, workspace=served, dialect=clients.DIALECT.get(client, "default")
    )
    folder = workspace or Path(ctx.obj.get("workspace") or ".")
    if client == "vscode" and not folder.is_dir():
        # its file goes into the workspace: a mistyped folder must not become a new tree
        _fail(f"the workspace {folder} is not a folder; name an existing one with --workspace")

    def planned() -> list[clients.Change]:
        return setup_plan.plan(
            cast("clients.Client", client), launch, home=Path.home(), workspace=folder.absolute(),
            reader=reader_agent, remove=remove,
        )  # fmt: skip

    unmerged = None
    try:
        changes = planned()
    except clients.SetupError as exc:
        if not print_only:
            _fail(str(exc))
        unmerged = str(exc)
        with clients.as_new_files():  # what to paste by hand into the file setup cannot merge
            changes = planned()
    note = None
    broken = None if remove else broken_link(source.path)
    if broken is not None:
        note = (
            f"note: {source.path} is a symbolic link to {broken}, which does not exist, so the server would "
            f"not start; create that file (`tact-memory --config {shlex.quote(str(broken))} init --enable`), "
            "then run setup again so the command names it"
        )
    elif pinned is None and not remove:
        note = (
            f"note: no configuration file at {source.path} yet, so memory is off; `tact-memory init --enable` "
            "creates it, then run setup again so the command names it"
        )
    elif not remove and not source.path.exists():
        note = (
            f"note: {source.path} (chosen by {source.origin}) does not exist yet, so until it does the server "
            "will not start" + (" and the prompt hook fails on each prompt" if client in ("claude-code", "codex") else "")
            + f"; `tact-memory --config {shlex.quote(str(source.path))} init --enable` creates it"
        )
    if print_only:
        if unmerged:
            click.echo(f"# {unmerged}: paste the entries below into it by hand")
        if note:
            click.echo(f"# {note}")
        if client == "claude-code" and not remove:
            click.echo(f"# or: claude mcp add --scope user {clients.SERVER_NAME} -- {clients._shell([launch.command, *launch.args])}")
        for change in changes:
            if change.snippet:
                click.echo(f"# {change.path}\n{change.snippet.rstrip()}")
            elif change.changed:
                click.echo(f"# {change.path}: our entries are taken out")
        return
    if not remove:
        _require("mcp", "mcp")  # the entry starts `tact-memory mcp`, which would fail inside the client
    try:
        done = clients.apply_all(changes)
    except clients.ApplyError as exc:
        if exc.stuck:
            left = ", ".join(str(path) for path in exc.stuck)
            _fail(f"cannot write {exc.path}: {exc.reason}; and {left} could not be put back as it was (see its .bak)")
        _fail(f"cannot write {exc.path}: {exc.reason}; nothing was changed")
        raise  # pragma: no cover
    for change, backup in done:
        if not change.changed:
            click.echo(f"{change.path}: " + ("nothing of ours to take out" if remove else "already up to date"))
        else:
            click.echo(f"wrote {change.path}" + (f" (previous version kept as {backup})" if backup else ""))
    written = any(change.changed for change in changes)
    if remove:
        click.echo(f"removed the {clients.SERVER_NAME} entries; restart {client}" if written else f"no {clients.SERVER_NAME} entries found")
        agent = clients.claude_code_paths(Path.home(), dict(os.environ))["agents"] / f"{clients.READER_AGENT_NAME}.md"
        if client == "claude-code" and agent.is_file():
            click.echo(f"note: {agent} is left as it is; delete it if --reader-agent wrote it")
        return
    click.echo(f"server: {_dumps([launch.command, *launch.args])}" + (f"; restart {client} to load it" if written else ""))
    if client == "codex" and any(change.hook_written for change in changes):
        click.echo("codex: open /hooks in Codex and trust the tact-memory hooks; Codex skips a new or changed hook until then")
    if note:
        click.echo(note)
    if team is not None and team.workspace_roots and client == "claude-desktop" and served is None:
        click.echo(
            "note: Claude Desktop starts the server in no folder of yours, so [memory.team] workspace_roots "
            "never match there and it uses the local store; to use the team store in Claude Desktop, run "
            f"setup again with --workspace {shlex.quote(str(team.workspace_roots[0]))}"
        )
    if forward and client in ("claude-desktop", "cursor", "vscode"):
        click.echo(
            f"note: the team token is read from ${forward[0]}, and {client} may start the server without "
            "your shell's variables; if calls answer token_missing, use token_file in [memory.team] instead"
        )
