"""Power loss, simulated from a trace of everything a process wrote, flushed and printed.

A worker runs under ``strace -f -y -e write=all``, which records, in order, each write to a file of
the memory folder with its bytes, each truncation, each flush (``fdatasync``/``fsync``) of a file or
of the folder, each file the process created, and each line it printed (its acknowledgements).
Replaying that record gives the files as the operating system showed them at any moment. A power
loss at that moment leaves less: of each file, what its last flush made durable, plus any part of
what was written to it since, in any order, since a disk may have stored some of those writes
before the power went and not others; a file created since the folder was last flushed may be gone.

:func:`crash_states` makes such folders: the strict one (nothing unflushed survives) and random
ones (any subset of the unflushed writes survives, a write sometimes only in its first sectors).
The tests open each with SQLite and the store, and hold what they find to the acknowledgements
printed before that moment. A flush is all that POSIX promises, and all that SQLite's own atomic
commit relies on; the model does not cover a disk that lies about its flushes, nor what a
filesystem's journal happens to keep in order.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import NamedTuple

TRACED = "openat,pwrite64,write,ftruncate,fdatasync,fsync,unlink,unlinkat,rename,renameat,renameat2"
"""The system calls a trace records."""

SECTOR = 512
"""A write that is cut by the power loss keeps a whole number of these from its start."""


class Event(NamedTuple):
    """One traced call that changes what a file holds, or what the process printed."""

    kind: str
    """``write``, ``truncate``, ``sync``, ``create``, ``unlink``, ``rename`` or ``print``."""
    path: str
    """The file (or folder, for a sync) it concerns; empty for ``print``."""
    offset: int = 0
    """Where a write starts (-1 for a plain ``write``, at the file's offset), or the length a
    truncation leaves."""
    data: bytes = b""
    """What a write wrote, or the line a ``print`` printed."""


_CALL = re.compile(r"^\d+\s+(?P<name>\w+)\((?P<args>.*)\)\s+=\s+(?P<result>-?\d+)(?P<rest>.*)$")
_FD_PATH = re.compile(r"^-?\d+<(?P<path>[^>]*)>")
_DUMP = re.compile(r"^ \| [0-9a-f]{5}  ")


def trace(argv: Sequence[str], *, out: Path, cwd: Path, env: dict[str, str], timeout: float = 300) -> list[Event]:
    """Run ``argv`` under strace and return its :class:`Event` list, files of the memory folder only.

    Raises:
        subprocess.CalledProcessError: the traced command failed.
    """
    command = ["strace", "-f", "-y", "-qq", "-s", "0", "-e", f"trace={TRACED}", "-e", "write=all", "-o", str(out), *argv]
    subprocess.run(command, cwd=cwd, env=env, timeout=timeout, check=True, capture_output=True)
    return parse(out.read_text(encoding="latin-1").splitlines())


def parse(lines: Sequence[str]) -> list[Event]:
    """The events of an ``strace -y -e write=all`` record (see :func:`trace`)."""
    events: list[Event] = []
    pending: tuple[str, str, int] | None = None  # a write whose dump lines follow: kind, path, offset
    dumped = bytearray()

    def finish() -> None:
        nonlocal pending
        if pending is not None:
            kind, path, offset = pending
            events.append(Event(kind, path, offset, bytes(dumped)))
            pending = None
        dumped.clear()

    for line in lines:
        if _DUMP.match(line):
            dumped.extend(bytes.fromhex(line[10:58]))
            continue
        finish()
        match = _CALL.match(line)
        if match is None or int(match["result"]) < 0:
            if "<unfinished" in line or "resumed>" in line:
                raise ValueError(f"interleaved calls in the trace: {line}")
            continue  # a failed call changes nothing; exits and signals are not calls
        name, args = match["name"], match["args"]
        target = _FD_PATH.match(args)
        path = target["path"] if target else ""
        if name == "write" and args.startswith("1<"):
            pending = ("print", "", 0)  # a line the worker printed to its standard output
        elif name in ("pwrite64", "write"):
            # a plain write has no offset: none of SQLite's does, and a test refuses one in the folder
            pending = ("write", path, int(args.rsplit(",", 1)[1]) if name == "pwrite64" else -1)
        elif name == "ftruncate":
            events.append(Event("truncate", path, int(args.rsplit(",", 1)[1])))
        elif name in ("fdatasync", "fsync"):
            events.append(Event("sync", path))
        elif name == "openat" and "O_CREAT" in args:
            created = _FD_PATH.match(match["result"] + match["rest"].strip())
            if created is not None:
                events.append(Event("create", created["path"]))
        elif name in ("unlink", "unlinkat"):
            events.append(Event("unlink", args.split('"')[1]))
        elif name.startswith("rename"):
            events.append(Event("rename", args.split('"')[1]))
    finish()
    return events


def printed(events: Sequence[Event], upto: int) -> list[str]:
    """The lines the process had printed before event ``upto``."""
    text = b"".join(e.data for e in events[:upto] if e.kind == "print").decode("utf-8")
    whole = text[: text.rfind("\n") + 1]  # a line is printed once its newline is
    return [line for line in whole.splitlines() if line.startswith("[")]


class _File:
    """One file as the operating system shows it, and what a power loss could leave of it."""

    def __init__(self, content: bytes, *, durable: bool) -> None:
        self.content = bytearray(content)
        self.flushed = bytes(content)  # what its last flush made durable
        self.since: list[Event] = []  # writes and truncations after that flush, in order
        self.named = durable  # whether its folder entry is durable (it existed, or the folder was flushed since)

    def change(self, event: Event) -> None:
        if event.kind == "write":
            end = event.offset + len(event.data)
            if len(self.content) < event.offset:
                self.content.extend(bytes(event.offset - len(self.content)))
            self.content[event.offset : end] = event.data
        else:
            del self.content[event.offset :]
        self.since.append(event)

    def flush(self) -> None:
        self.flushed = bytes(self.content)
        self.since = []

    def after_loss(self, rng: random.Random | None) -> bytes:
        """What a power loss leaves: the flushed bytes, and with ``rng`` a random part of the rest."""
        data = bytearray(self.flushed)
        for event in self.since if rng is not None else ():
            if rng.random() < 0.5:
                continue  # this one never reached the disk
            if event.kind == "truncate":
                del data[event.offset :]
                continue
            written = event.data
            if rng.random() < 0.2:  # cut by the power: only its first sectors
                written = written[: SECTOR * rng.randrange(len(written) // SECTOR + 1)]
            if len(data) < event.offset:
                data.extend(bytes(event.offset - len(data)))
            data[event.offset : event.offset + len(written)] = written
        return bytes(data)


def crash_states(
    events: Sequence[Event], folder: Path, before: dict[str, bytes], *, upto: int, rng: random.Random | None
) -> dict[str, bytes]:
    """The files of ``folder`` (by name) after a power loss just before event ``upto``.

    ``before`` holds the folder's files, by name, as they were when the trace began (and durable).
    Without ``rng``, only what was flushed survives; with it, also a random part of the rest.
    The ``-shm`` index is left out: SQLite rebuilds it from the WAL.
    """
    files = {name: _File(data, durable=True) for name, data in before.items()}
    prefix = f"{folder}/"
    for event in events[:upto]:
        if event.kind == "print" or not (event.path.startswith(prefix) or event.path == str(folder)):
            continue
        name = event.path[len(prefix) :]
        if event.kind == "rename" or event.offset < 0:
            raise ValueError(f"{event.kind} of {name}: this model replays positioned writes only")
        if event.kind == "create" and name not in files:
            files[name] = _File(b"", durable=False)
        elif event.kind in ("write", "truncate") and name in files:
            files[name].change(event)
        elif event.kind == "sync":
            if event.path == str(folder):
                for file in files.values():
                    file.named = True
            elif name in files:
                files[name].flush()
        elif event.kind == "unlink":
            files.pop(name, None)
    left: dict[str, bytes] = {}
    for name, file in files.items():
        if name.endswith("-shm"):
            continue
        if not file.named and (rng is None or rng.random() < 0.5):
            continue  # its folder entry never reached the disk
        left[name] = file.after_loss(rng)
    return left


def lay_out(files: dict[str, bytes], folder: Path) -> None:
    """Write ``files`` as the only files of ``folder`` (made afresh)."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    folder.chmod(0o700)
    for name, data in files.items():
        (folder / name).write_bytes(data)
        (folder / name).chmod(0o600)


def moments(events: Sequence[Event], *, extra: int, rng: random.Random) -> Iterator[int]:
    """Where to cut the power: around every flush and every line printed, and at ``extra`` other
    events chosen at random (each an index into ``events``: the loss comes just before it)."""
    chosen: set[int] = set()
    for at, event in enumerate(events):
        if event.kind in ("sync", "print"):
            chosen.update({at, at + 1})
    chosen.update(rng.sample(range(len(events) + 1), min(extra, len(events) + 1)))
    yield from sorted(at for at in chosen if at <= len(events))


def acknowledged(lines: Sequence[str]) -> list[list[object]]:
    """The ``ack`` lines among a worker's printed lines, decoded."""
    return [entry for entry in map(json.loads, lines) if entry[0] == "ack"]
