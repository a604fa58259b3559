"""The person's own commands: `init`, `add`, `show`, `edit` and `import` (root rights, no telemetry)."""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from .. import errors
from ..records import MemoryRecord
from .common import enabled_store as _enabled_store
from .common import fail as _fail

if TYPE_CHECKING:
    from ..backend import MemoryBackend
    from ..config.loading import ConfigSource

from ..tool.results import record_json
from .common import KEY_NUMBER, json_option
from .common import dumps as _dumps
from .common import refused as _refused
from .common import when as _when


@click.command("init")
@click.option("--enable", is_flag=True, help="Write `enabled = true` (by default memory stays off until you enable it).")
@click.pass_context
def init_command(ctx: click.Context, enable: bool) -> None:
    """Write a commented config.toml where tact-memory looks for it (or at --config).

    The file is the one every other command would read: --config, else TACT_CONFIG, else
    $TACT_HOME/config.toml, else the user config folder. Memory is opt-in, so the file says
    `enabled = false` unless you pass --enable. An existing file is never overwritten, nor
    written through a symbolic link.

    \b
    Example:
        tact-memory init
        tact-memory --config ./tact/config.toml init --enable
    """
    import shlex

    from ..config.loading import broken_link, database_path_for, locate_config, write_new_config

    source = locate_config(ctx.obj.get("config_path"))
    try:
        path = write_new_config(source.path, enabled=enable)
    except FileExistsError:
        target = broken_link(source.path)
        if target is not None:  # never written through: the link may not be the person's own
            command = f"tact-memory --config {shlex.quote(str(target))} init{' --enable' if enable else ''}"
            _fail(
                f"{source.path} is a symbolic link to {target}, which does not exist; it was left unchanged. "
                f"Create the file there with `{command}`, or remove the link"
            )
        _fail(f"{source.path} already exists; it was left unchanged{_enable_existing(source) if enable else ''}")
        raise  # pragma: no cover
    except OSError as exc:
        _fail(f"cannot write {source.path}: {exc.strerror or exc}")
        raise  # pragma: no cover
    click.echo(f"wrote {path} (memory {'enabled' if enable else 'disabled'})")
    click.echo(f"memory database: {database_path_for(path)} (created on first use)")
    if not enable:
        click.echo("to enable memory, set `enabled = true` under `[memory]` in that file")


def _enable_existing(source: ConfigSource) -> str:
    """What ``init --enable`` adds when the file is there already: whether memory is on in it, and
    how to turn it on if not."""
    from ..config.loading import read_config

    try:
        config = read_config(source)
    except errors.ConfigError as exc:
        return f" (and it cannot be used as it is: {exc.message})"
    if config.memory.enabled:
        return "; memory is enabled in it already"
    from .common import enabling

    return f"; memory is disabled in it: to enable it, {enabling(config)}"


def _read_text(text: str | None) -> str:
    """TEXT, or all of stdin (UTF-8) when TEXT is missing or ``-``."""
    if text is not None and text != "-":
        return text
    from .waiting import say_waiting

    say_waiting("the memory's text")
    try:
        return sys.stdin.buffer.read().decode("utf-8-sig")  # a byte order mark is not text
    except UnicodeDecodeError:
        _fail("invalid_arguments: stdin is not UTF-8 text")
        raise  # pragma: no cover


@click.command("add")
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
        click.echo(_dumps(record_json(record)))
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
    from ..screening.display import terminal_safe

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
    return [*lines, "", terminal_safe(record.content)]  # whatever wrote the row, as list shows it


@click.command("show")
@click.argument("record_id", metavar="ID", type=KEY_NUMBER)
@json_option
@click.pass_context
def show_command(ctx: click.Context, record_id: int, as_json: bool) -> None:
    """Print record ID in full with its telemetry. Changes no telemetry.

    Control characters and bidirectional overrides in the text are shown as escapes (\\x1b,
    \\u202e), as in `list`.

    \b
    Example:
        tact-memory show 12
    """
    store = _enabled_store(ctx)
    record = _get_record(store, record_id)
    click.echo(_dumps(record_json(record)) if as_json else "\n".join(_show_lines(store, record)))


@click.command("edit")
@click.argument("record_id", metavar="ID", type=KEY_NUMBER)
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
            missing = _missing_editor()
            if missing is not None:
                _fail(f"{missing}; memory {record_id} is unchanged")
            click.edit(filename=name)
            # an editor that writes a byte order mark (notepad) adds no character to the record
            edited = Path(name).read_text(encoding="utf-8-sig").strip()
        except (click.ClickException, UnicodeDecodeError, OSError) as exc:
            if isinstance(exc, click.ClickException):
                reason = _editor_failure(exc)
            elif isinstance(exc, OSError):
                # an editor that saves by renaming can leave something else, or nothing, at the path
                reason = f"the edited file cannot be read back ({exc.strerror or exc}: {name})"
            else:
                reason = "the file is not UTF-8 text"
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
            _refused(exc, f" (your text was not stored; it is kept in {name})" if keep else "")
            raise  # pragma: no cover
        click.echo(f"memory {record_id} is now version {result.memory.key.version}")
    finally:
        if not keep:
            with contextlib.suppress(OSError):  # the editor may have removed it, or left a folder there
                os.unlink(name)


def _missing_editor() -> str | None:
    """Why no editor can run, when the one click would start is not installed (else ``None``).

    Asked before the editor is started: click before 8.4 starts it through a shell, which answers a
    missing program with exit code 127, and click's message then cannot tell that from an editor
    that failed. The choice is click's: $VISUAL, else $EDITOR, else the first of sensible-editor,
    vim and nano that is found, else vi (notepad on Windows, which is always there).
    """
    import shlex
    import shutil

    if os.name == "nt":
        return None
    chosen = next((name for name in ("VISUAL", "EDITOR") if os.environ.get(name)), None)
    if chosen is None:
        if any(shutil.which(program) for program in ("sensible-editor", "vim", "nano", "vi")):
            return None
        return "no editor was found (tried sensible-editor, vim, nano and vi); set $EDITOR or $VISUAL to one"
    try:
        program = shlex.split(os.environ[chosen])[0]
    except (ValueError, IndexError):
        return None  # let click say what it makes of it
    if shutil.which(program) is not None:
        return None
    return f"the editor ${chosen} names ({os.environ[chosen]}) was not found; set ${chosen} to one that is installed"


def _editor_failure(exc: click.ClickException) -> str:
    """Why the editor did not run: click's message, or how to choose an editor when the one it
    launched was not found (click 8.4 and later launch it themselves and chain the ``OSError``)."""
    if isinstance(exc.__cause__ or exc.__context__, FileNotFoundError):
        return _missing_editor() or exc.format_message()
    return exc.format_message()


@click.command("import")
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
    if getattr(source, "name", None) == "<stdin>":
        from .waiting import say_waiting

        say_waiting("export lines (JSON, one record a line)")
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
