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

TRACED = (
    "openat,pwrite64,write,ftruncate,truncate,fdatasync,fsync,unlink,unlinkat,rename,renameat,renameat2,"
    "pwritev,pwritev2,writev,fallocate,copy_file_range,sendfile,splice,mmap"
)
"""The system calls a trace records: those it replays, and those that could change a file in ways
it does not replay (a test refuses any of these on a file of the memory folder)."""

UNREPLAYED = frozenset(
    {"pwritev", "pwritev2", "writev", "fallocate", "copy_file_range", "sendfile", "splice", "rename", "renameat", "renameat2"}
)
"""Calls that would change a file of the folder in a way :func:`crash_states` cannot replay."""

SECTOR = 512
"""A write that is cut by the power loss keeps a whole number of these from its start."""


class Event(NamedTuple):
    """One traced call that changes what a file holds, or what the process printed."""

    kind: str
    """``write``, ``truncate``, ``sync``, ``create``, ``unlink``, ``print``, or ``unreplayed``
    (a call that :data:`UNREPLAYED` names, or a shared ``mmap`` of a file opened for writing)."""
    path: str
    """The file (or folder, for a sync) it concerns; empty for ``print``."""
    offset: int = 0
    """Where a write starts (-1 for a plain ``write``, at the file's offset), or the length a
    truncation leaves."""
    data: bytes = b""
    """What a write wrote, or the line a ``print`` printed."""


_CALL = re.compile(r"^\d+\s+(?P<name>\w+)\((?P<args>.*)\)\s+=\s+(?P<result>-?\d+)(?P<rest>.*)$")
_FD_PATH = re.compile(r"^-?\d+<(?P<path>[^>]*)>")
_DUMP = re.compile(r"^ \| (?P<offset>[0-9a-f]{5,})  ")
"""A line of strace's dump of written data: its offset (five hex digits, more past 1 MiB), then 16
bytes in hex in two groups of eight, then the same bytes as text."""


def trace(argv: Sequence[str], *, out: Path, cwd: Path, env: dict[str, str], timeout: float = 300) -> list[Event]:
    """Run ``argv`` under strace and return its :class:`Event` list, files of the memory folder only.

    Raises:
        subprocess.CalledProcessError: the traced command failed.
    """
    command = ["strace", "-f", "-y", "-qq", "-s", "0", "-e", f"trace={TRACED}", "-e", "write=all", "-o", str(out), *argv]
    subprocess.run(command, cwd=cwd, env=env, timeout=timeout, check=True, capture_output=True)
    return parse(out.read_text(encoding="latin-1").splitlines())


def parse(lines: Sequence[str]) -> list[Event]:
    """The events of an ``strace -y -e write=all`` record (see :func:`trace`).

    Raises:
        ValueError: a write whose dump does not hold as many bytes as the call wrote, or calls of
            several threads interleaved (this reader expects one at a time).
    """
    events: list[Event] = []
    pending: tuple[str, str, int, int] | None = None  # a write whose dump lines follow: kind, path, offset, length
    dumped = bytearray()

    def finish() -> None:
        nonlocal pending
        if pending is not None:
            kind, path, offset, length = pending
            if len(dumped) != length:
                raise ValueError(f"a write of {length} bytes to {path or 'stdout'} dumped {len(dumped)}")
            events.append(Event(kind, path, offset, bytes(dumped)))
            pending = None
        dumped.clear()

    for line in lines:
        dump = _DUMP.match(line)
        if dump:
            start = 3 + len(dump["offset"]) + 2
            dumped.extend(bytes.fromhex(line[start : start + 48]))
            continue
        finish()
        match = _CALL.match(line)
        if match is None or int(match["result"]) < 0:
            if "<unfinished" in line or "resumed>" in line:
                raise ValueError(f"interleaved calls in the trace: {line}")
            continue  # a failed call changes nothing; exits and signals are not calls
        name, args, result = match["name"], match["args"], int(match["result"])
        target = _FD_PATH.match(args)
        path = target["path"] if target else ""
        if name == "write" and args.startswith("1<"):
            pending = ("print", "", 0, result)  # a line the worker printed to its standard output
        elif name in ("pwrite64", "write"):
            # a plain write has no offset: none of SQLite's does, and a test refuses one in the folder
            pending = ("write", path, int(args.rsplit(",", 1)[1]) if name == "pwrite64" else -1, result)
        elif name == "ftruncate":
            events.append(Event("truncate", path, int(args.rsplit(",", 1)[1])))
        elif name == "truncate":
            events.append(Event("truncate", args.split('"')[1], int(args.rsplit(",", 1)[1])))
        elif name in ("fdatasync", "fsync"):
            events.append(Event("sync", path))
        elif name == "openat":
            opened = _FD_PATH.match(match["result"] + match["rest"].strip())
            if opened is not None and "O_CREAT" in args:
                events.append(Event("create", opened["path"]))
            if opened is not None and "O_TRUNC" in args:
                events.append(Event("truncate", opened["path"], 0))
        elif name in ("unlink", "unlinkat"):
            events.append(Event("unlink", args.split('"')[1]))
        elif name == "mmap":
            fields = [field.strip() for field in args.split(",")]
            mapped = _FD_PATH.match(fields[4]) if len(fields) > 4 else None
            if mapped is not None and "PROT_WRITE" in fields[2] and "MAP_SHARED" in fields[3]:
                events.append(Event("unreplayed", mapped["path"], 0, b"mmap"))
        elif name in UNREPLAYED:
            events.append(Event("unreplayed", path or (args.split('"')[1] if '"' in args else ""), 0, name.encode()))
    finish()
    return events


def printed(events: Sequence[Event], upto: int) -> list[str]:
    """The lines the process had printed before event ``upto``."""
    text = b"".join(e.data for e in events[:upto] if e.kind == "print").decode("utf-8")
    whole = text[: text.rfind("\n") + 1]  # a line is printed once its newline is
    return [line for line in whole.splitlines() if line.startswith("[")]


class _File:
    """One file as the operating system shows it, and what a power loss could leave of it."""

    def __init__(self, content: bytes, *, durable: bool, replaced: _File | None = None) -> None:
        self.content = bytearray(content)
        self.flushed = bytes(content)  # what its last flush made durable
        self.since: list[Event] = []  # writes and truncations after that flush, in order
        self.named = durable  # whether its folder entry is durable (it existed, or the folder was flushed since)
        self.unlinked = False  # removed from the folder, which has not been flushed since
        self.replaced = replaced  # the removed file of the same name whose entry is durable until the folder is flushed

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


def _replay(events: Sequence[Event], folder: Path, before: dict[str, bytes], upto: int) -> dict[str, _File]:
    """Every file of ``folder`` the process had made or found, by name, after the first ``upto`` events."""
    files = {name: _File(data, durable=True) for name, data in before.items() if not name.endswith("-shm")}
    prefix = f"{folder}/"
    for event in events[:upto]:
        if event.kind == "print" or not (event.path.startswith(prefix) or event.path == str(folder)):
            continue
        name = event.path[len(prefix) :]
        if name.endswith("-shm"):
            continue  # SQLite's index of the WAL, mapped into memory; rebuilt from the WAL after a crash
        if event.kind == "unreplayed" or event.offset < 0:
            how = event.data.decode() if event.kind == "unreplayed" else "write without an offset"
            raise ValueError(f"{how} on {name}: this model replays positioned writes and truncations only")
        live = name in files and not files[name].unlinked
        if event.kind == "create" and not live:
            files[name] = _File(b"", durable=False, replaced=files.get(name))
        elif event.kind in ("write", "truncate") and live:
            files[name].change(event)
        elif event.kind == "sync":
            if event.path == str(folder):
                for key in [key for key, file in files.items() if file.unlinked]:
                    del files[key]  # its removal is durable now
                for file in files.values():
                    file.named, file.replaced = True, None
            elif live:
                files[name].flush()
        elif event.kind == "unlink" and live:
            if files[name].named:
                files[name].unlinked = True  # gone, unless the power goes before the folder is flushed
            elif files[name].replaced is not None:
                files[name] = files[name].replaced  # the entry the folder still holds is the older file's
            else:
                del files[name]
    return files


def crash_states(
    events: Sequence[Event], folder: Path, before: dict[str, bytes], *, upto: int, rng: random.Random | None
) -> dict[str, bytes]:
    """The files of ``folder`` (by name) after a power loss just before event ``upto``.

    ``before`` holds the folder's files, by name, as they were when the trace began (and durable).
    Without ``rng``, only what was flushed survives (a file removed since the folder was last
    flushed is still there, a file made since is not, and where it took a removed file's name, the
    removed file is what the name holds); with it, also a random part of the rest, and each such
    entry is there or not at random. The ``-shm`` index is left out: SQLite rebuilds
    it from the WAL.

    Raises:
        ValueError: the process changed a file of the folder in a way this model does not replay.
    """
    left: dict[str, bytes] = {}
    for name, found in _replay(events, folder, before, upto).items():
        file: _File | None = found
        if not found.named and (rng is None or rng.random() < 0.5):
            file = found.replaced  # its folder entry never reached the disk: the older one's may be there
        if file is None or (file.unlinked and rng is not None and rng.random() < 0.5):
            continue  # no entry, or its removal reached the disk
        left[name] = file.after_loss(rng)
    return left


def seen_by_the_process(events: Sequence[Event], folder: Path, before: dict[str, bytes]) -> dict[str, bytes]:
    """The files of ``folder`` as the process left them, by replaying every event (``-shm`` left
    out): a test compares it with the real folder, so that a write the trace missed is noticed."""
    files = _replay(events, folder, before, len(events))
    return {name: bytes(file.content) for name, file in files.items() if not file.unlinked}


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
