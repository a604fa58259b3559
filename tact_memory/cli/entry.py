"""The ``tact-memory`` console entry point: ``tool`` and ``hook`` run without loading click.

Clients start ``tact-memory tool`` and ``tact-memory hook`` as new processes, often on every call or
prompt, so those two commands are recognised here, in their plain forms, before the click
application (and every other command's module) is imported:

- ``[--config PATH] [--workspace DIR] tool [--role root|child] [CALL]``;
- ``[--config PATH] [--workspace DIR] hook user-prompt-submit|session-start``.

Anything else (help, ``--version``, another command, an unknown or repeated option, an option value
that starts with ``-``, a workspace that click would refuse, standard streams with no usable
encoding) goes to :data:`tact_memory.cli.app.cli`, which is the reference: a command line handled
here prints, writes and exits exactly as the click application does with it (tests hold the two
together), including ``tact-memory: MESSAGE`` and exit 1 for an unusable configuration, and
``Aborted!`` with exit 1 on Ctrl-C.
"""

from __future__ import annotations

import gc
import os
import sys

TYPE_CHECKING = False  # typing is not imported: this module runs before every tool call
if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["main", "plain_command"]

GLOBAL_OPTIONS = ("--config", "--workspace")
ROLES = ("root", "child")
HOOK_EVENTS = ("user-prompt-submit", "session-start")


def _value(args: list[str], names: Sequence[str]) -> tuple[str, str] | None:
    """Pop ``NAME VALUE`` or ``NAME=VALUE`` off ``args`` when it is one of ``names``; None otherwise.

    A value that is empty or starts with ``-`` is not taken (click reads those differently).
    """
    head = args[0]
    name, equals, value = head.partition("=")
    if name not in names:
        return None
    if not equals:
        if len(args) < 2:
            return None
        value = args[1]
        del args[1]
    if not value or value.startswith("-"):
        return None
    del args[0]
    return name, value


def _workspace_ok(path: str) -> bool:
    """Whether click's ``Path(file_okay=False)`` accepts ``path`` (missing, or a readable non-file)."""
    import stat

    try:
        mode = os.stat(path).st_mode
    except OSError:
        return True
    return not stat.S_ISREG(mode) and os.access(path, os.R_OK)


def plain_command(argv: Sequence[str]) -> tuple[str, dict[str, str | None]] | None:
    """``("tool" | "hook", options)`` for a command line this module runs itself, else None.

    The options are ``config`` and ``workspace`` (None when not given) and, for ``tool``, ``role``
    and ``call``; for ``hook``, ``event``.
    """
    args = list(argv)
    options: dict[str, str | None] = {"config": None, "workspace": None}
    while args and args[0].startswith("--"):
        taken = _value(args, GLOBAL_OPTIONS)
        if taken is None or options[taken[0][2:]] is not None:
            return None
        options[taken[0][2:]] = taken[1]
    if not args or args[0] not in ("tool", "hook"):
        return None
    command, rest = args[0], args[1:]
    workspace = options["workspace"]
    if workspace is not None and not _workspace_ok(workspace):
        return None
    if command == "hook":
        if len(rest) != 1 or rest[0] not in HOOK_EVENTS:
            return None
        return command, {**options, "event": rest[0]}
    options.update(role=None, call=None)
    while rest:
        if rest[0].startswith("-"):
            taken = _value(rest, ("--role",))
            if taken is None or taken[1] not in ROLES or options["role"] is not None:
                return None
            options["role"] = taken[1]
        elif options["call"] is None:
            options["call"] = rest.pop(0)
        else:
            return None
    return command, options


def _streams_usable() -> bool:
    """Whether click would write to stdout and stderr as they are (each has a non-ASCII encoding)."""
    import codecs

    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None)
        try:
            if not encoding or codecs.lookup(encoding).name == "ascii":
                return False
        except LookupError:
            return False
    return True


def _echo(text: str, *, err: bool = False) -> None:
    stream = sys.stderr if err else sys.stdout
    stream.write(text + "\n")
    stream.flush()


def _run_tool(options: dict[str, str | None]) -> None:
    from ..config.loading import load_config
    from ..errors import ConfigError

    try:
        config = load_config(options["config"])
    except ConfigError as exc:
        _echo(f"tact-memory: {exc.message}", err=True)
        sys.exit(1)
    store = None
    if config.memory.enabled:
        from ..runtime.stores import config_store

        store = config_store(config, workspace=options["workspace"])
    try:
        from .tool_lines import tool_answers

        for line in tool_answers(store, options["role"], options["call"], sys.stdin.buffer):
            _echo(line)
    finally:
        if store is not None:
            store.close()


def _run_plain(command: str, options: dict[str, str | None]) -> None:
    """Run a command :func:`plain_command` recognised, with click's handling of Ctrl-C and a closed pipe.

    A process that answers one call (a hook, or ``tool`` with its call on the command line) runs
    without the cyclic garbage collector: its start (imports, opening the store, its index) makes
    no garbage worth a full collection, which would otherwise come in the middle of it and cost
    about a millisecond and a half. A stream of calls on standard input collects as usual.
    """
    collect = gc.isenabled()
    if command == "hook" or options["call"] is not None:
        gc.disable()
    try:
        if command == "hook":
            from ..hooks.prompt_hook import main as hook_main

            config = options["config"]
            sys.exit(hook_main([*(["--config", config] if config is not None else []), options["event"] or ""]))
        _run_tool(options)
    except (EOFError, KeyboardInterrupt):
        _echo("", err=True)
        _echo("Aborted!", err=True)
        sys.exit(1)
    except BrokenPipeError:
        # The reader went away: say nothing more, and keep the interpreter's last flush quiet.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(1)
    finally:
        if collect:
            gc.enable()  # as it was, for a caller in the same process


def _closed_streams_read_nothing() -> None:
    """Give a standard stream that was closed when the process started the null device.

    Python leaves ``sys.stdin`` (or ``stdout``, ``stderr``) ``None`` then, and the commands would
    fail on it with a traceback. On the null device a closed input reads as empty (``tool`` answers
    no call, ``add`` finds no text, ``delete`` gets no confirmation) and a closed output takes
    what is written, as Python's own ``print`` does with a closed one.
    """
    for fd, name, mode in ((0, "stdin", "r"), (1, "stdout", "w"), (2, "stderr", "w")):
        if getattr(sys, name) is not None:
            continue
        null = os.open(os.devnull, os.O_RDONLY if mode == "r" else os.O_WRONLY)
        if null != fd:
            os.dup2(null, fd)
            os.close(null)
        setattr(sys, name, open(fd, mode, encoding="utf-8", closefd=False))  # noqa: SIM115


def _writing_output(exc: BaseException) -> bool:
    """Whether ``exc`` was raised where a standard output or error stream was being written.

    The innermost frame of a failed write (``click.echo``, :func:`_echo`, the hook's last line)
    holds the stream it wrote to; any other ``OSError`` is not about the output.
    """
    import io

    tb = exc.__traceback__
    if tb is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    ours = [s for s in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__) if s is not None]
    ours += [getattr(s, "buffer", None) for s in ours]
    for value in tb.tb_frame.f_locals.values():
        if isinstance(value, io.IOBase) and any(
            value is s or getattr(value, "buffer", None) is s for s in ours if s is not None
        ):
            return True
    return False


def _output_failed(exc: OSError) -> None:
    """Say that standard output could not be written, on stderr if it can be, and exit 1.

    Whatever the command changed before that (a put whose answer could not be printed) stands,
    so the message says so. The interpreter's own last flush then goes to the null device, so it
    adds no second report.
    """
    reason = exc.strerror or str(exc)
    try:
        _echo(
            f"tact-memory: the output could not be written ({reason}); what the command changed "
            "before that stands.",
            err=True,
        )
    except OSError:
        pass  # stderr too: the exit status is all that is left
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, sys.stdout.fileno() if sys.stdout is not None else 1)
    sys.exit(1)


def main(argv: Sequence[str] | None = None) -> None:
    """Console entry point: ``tool`` and ``hook`` directly, everything else through click."""
    _closed_streams_read_nothing()
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        plain = plain_command(args) if args and _streams_usable() else None
        if plain is not None:
            _run_plain(*plain)
            return
        from .app import cli

        try:
            cli(None if argv is None else args, prog_name="tact-memory")
        except SystemExit as exc:
            if exc.code == 2 and "hook" in args:
                # a hook command line click cannot use: clients read exit 2 as "block this prompt"
                sys.exit(1)
            raise
    except OSError as exc:
        if isinstance(exc, BrokenPipeError) or not _writing_output(exc):
            raise
        _output_failed(exc)
