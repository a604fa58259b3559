"""Shared checks for the reliability tests: raw file views, result shapes, child processes."""

from __future__ import annotations

import ctypes
import functools
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from tact_memory import errors
from tact_memory.limits import Limits
from tact_memory.tool.schemas import output_schema
from tact_memory.tool.wire import OPERATIONS

ROOT = Path(__file__).resolve().parents[2]
"""The project folder; child processes run with it on ``PYTHONPATH``."""

SIDECAR_SUFFIXES = ("-journal", "-wal", "-shm")

ERROR_CODES = frozenset(
    cls.code
    for cls in (
        errors.InvalidArguments, errors.Forbidden, errors.ScanRequired, errors.NotFound,
        errors.VersionConflict, errors.Duplicate, errors.ContentTooLarge, errors.SecretRejected,
        errors.RecordCapacity, errors.ContentCapacity, errors.DatabaseCapacity,
        errors.MemoryDisabled, errors.StoreUnavailable,
    )
)  # fmt: skip
"""Every code a tool result may carry."""

RECORD_FIELDS = frozenset(
    {
        "key", "content", "created_at_ms", "updated_at_ms", "scan_count", "last_scanned_at_ms",
        "read_count", "last_read_at_ms", "probation_until_ms",
    }
)  # fmt: skip


SHM_CONTENT = b"<the -shm index>"
"""What :func:`folder_bytes` shows for a ``-shm`` file instead of its bytes."""


def raw_folder_bytes(db_path: Path) -> dict[str, bytes]:
    """Every file in the memory folder, byte for byte, sidecars included."""
    if not db_path.parent.exists():
        return {}
    return {p.name: p.read_bytes() for p in sorted(db_path.parent.iterdir()) if p.is_file()}


def folder_bytes(db_path: Path) -> dict[str, bytes]:
    """Every file in the memory folder, byte for byte, except that a ``-shm`` file's bytes are
    replaced by :data:`SHM_CONTENT`: it is SQLite's shared-memory index of the WAL (locks, read
    marks, page numbers), which any reader updates, and never holds a row (the deletion tests
    search its raw bytes too). Its presence still counts."""
    found = raw_folder_bytes(db_path)
    return {name: SHM_CONTENT if name.endswith("-shm") else data for name, data in found.items()}


def sidecars(db_path: Path) -> list[str]:
    """Names of ``-journal``, ``-wal`` or ``-shm`` files beside the database."""
    return [f"{db_path.name}{s}" for s in SIDECAR_SUFFIXES if Path(f"{db_path}{s}").exists()]


def wal_frame_pages(db_path: Path) -> list[int]:
    """The page number of every whole frame slot in the ``-wal`` file, valid or left over from an
    earlier cycle (a file that ends inside a frame counts that part as page 0); ``[]`` without one."""
    wal = Path(f"{db_path}-wal")
    data = wal.read_bytes() if wal.exists() else b""
    if not data:
        return []
    page_size = int.from_bytes(data[8:12], "big")
    step = 24 + page_size
    pages = [int.from_bytes(data[at : at + 4], "big") for at in range(32, len(data) - step + 1, step)]
    return pages + ([0] if len(data) < 32 or (len(data) - 32) % step else [])


def wal_holds_no_row(db_path: Path) -> bool:
    """No rollback journal, and no frame of the WAL (if there is one) is a page other than page 1:
    the file header and the schema, which the scrub writes to start an emptied WAL again."""
    return not Path(f"{db_path}-journal").exists() and set(wal_frame_pages(db_path)) <= {1}


def sidecars_within_bounds(db_path: Path, limits: Limits) -> bool:
    """No rollback journal; a WAL no larger than one file's worth of pages plus the pages an
    automatic checkpoint lets pile up; a ``-shm`` index of at most 64 KiB."""
    from tact_memory.store.connection import WAL_AUTOCHECKPOINT_PAGES

    wal = Path(f"{db_path}-wal")
    shm = Path(f"{db_path}-shm")
    frames = limits.max_pages + WAL_AUTOCHECKPOINT_PAGES
    return (
        not Path(f"{db_path}-journal").exists()
        and (not wal.exists() or wal.stat().st_size <= 32 + frames * (limits.page_size + 24))
        and (not shm.exists() or shm.stat().st_size <= 64 * 1024)
    )


def grep_folder(db_path: Path, needle: str) -> list[str]:
    """Names of files in the memory folder whose raw bytes contain ``needle`` (UTF-8)."""
    raw = needle.encode("utf-8")
    return [name for name, data in raw_folder_bytes(db_path).items() if raw in data]


def raw_rows(db_path: Path) -> dict[int, tuple[int, str]]:
    """``id -> (version, content)`` straight from the file, bypassing the store."""
    with sqlite3.connect(db_path) as conn:
        rows = conn.execute("SELECT id, version, content FROM memories").fetchall()
    conn.close()
    return {int(i): (int(v), str(c)) for i, v, c in rows}


def seeded_database(db: Path, count: int = 3) -> None:
    """A closed store at ``db`` holding ``count`` records (ids from 1)."""
    from tact_memory.store.sqlite import MemoryStore

    with MemoryStore(db) as store:
        for i in range(count):
            store.put(f"service number {i} listens on port {8000 + i}")


def stored_records(db: Path) -> Model:
    """What the store at ``db`` holds, as a model: id to (version, content)."""
    from tact_memory.store.sqlite import MemoryStore

    with MemoryStore(db) as store:
        return {r.key.id: (r.key.version, r.content) for r in store.list_records(order="id")}


def integrity(db_path: Path) -> str:
    """``PRAGMA integrity_check`` of the file, as one string (``"ok"`` when intact)."""
    conn = sqlite3.connect(db_path)
    try:
        return "; ".join(str(r[0]) for r in conn.execute("PRAGMA integrity_check").fetchall())
    finally:
        conn.close()


@functools.cache
def _validator(operation: str | None) -> Any:
    """A JSON Schema validator for the published output schema of ``operation`` (or of any result)."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator(output_schema(operation))


def check_result(result: object, *, sent: object = None) -> dict[str, Any]:
    """Assert that a tool result is a well-formed success or error object and return it.

    Well-formed: a dict that serialises to strict UTF-8 JSON (no NaN, no lone surrogate), whose
    shape is one of the documented outputs, and whose error code is one of the named codes.
    """
    assert isinstance(result, dict), result
    text = json.dumps(result, ensure_ascii=False, allow_nan=False)
    text.encode("utf-8")  # raises on a lone surrogate
    assert json.loads(text) == result
    if "error" in result:
        assert set(result) == {"operation", "error"}, result
        assert result["operation"] is None or result["operation"] in OPERATIONS
        error = result["error"]
        assert error["code"] in ERROR_CODES, error
        assert isinstance(error["message"], str) and error["message"]
        assert "database is locked" not in error["message"].lower()
        _validator(None).validate(result)
        return result
    operation = result.get("operation")
    assert operation in OPERATIONS, result
    _validator(operation).validate(result)
    assert set(result) == {"operation", *output_schema(operation)["properties"]} - {"error"}, result
    if isinstance(sent, Mapping) and sent.get("operation") in OPERATIONS:
        assert operation == sent["operation"]
    if operation == "scan":
        assert len(result["candidates"]) <= 5
        assert result["abstained"] is (not result["candidates"])
        for card in result["candidates"]:
            assert set(card) == {"key", "score", "preview"} and set(card["key"]) == {"id", "version"}
            assert len(card["preview"].encode("utf-8")) <= 64
    if operation in ("read", "put"):
        for record in result["memories"] if operation == "read" else [result["memory"]]:
            assert set(record) == RECORD_FIELDS
    return result


def child_env() -> dict[str, str]:
    """The environment for a child Python process that imports this project and the tests."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TACT_")}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


def cli_command(config_path: Path | None, *args: str) -> list[str]:
    """``python -m tact_memory.cli [--config PATH] ARGS…`` for a child process."""
    config = ["--config", str(config_path)] if config_path is not None else []
    return [sys.executable, "-m", "tact_memory.cli", *config, *args]


def run_tool_session(config_path: Path, calls: list[dict[str, Any]]) -> str:
    """Send ``calls`` as JSON lines to one ``tact-memory tool`` process; its stdout (stderr must be empty)."""
    proc = subprocess.run(
        cli_command(config_path, "tool", "--role", "root"),
        input="".join(json.dumps(c) + "\n" for c in calls),
        capture_output=True, text=True, encoding="utf-8", env=child_env(), timeout=120, check=True,
    )  # fmt: skip
    assert proc.stderr == ""
    return proc.stdout


# Linux capability numbers (linux/capability.h) that let root ignore file permission bits.
_CAP_DAC_OVERRIDE, _CAP_DAC_READ_SEARCH, _CAP_FOWNER = 1, 2, 3
_PR_CAPBSET_DROP = 24


def _drop_permission_overrides() -> None:  # runs in the forked child, before exec
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (_CAP_DAC_OVERRIDE, _CAP_DAC_READ_SEARCH, _CAP_FOWNER):
        if libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) failed")


def permission_respecting_preexec() -> tuple[Callable[[], None] | None, str | None]:
    """A ``preexec_fn`` under which file modes bind the child, even when the tests run as root.

    Root ignores permission bits only through the capabilities ``CAP_DAC_OVERRIDE``,
    ``CAP_DAC_READ_SEARCH`` and ``CAP_FOWNER``. Dropping them from the bounding set before ``exec``
    leaves a root child that obeys ``chmod`` like any user, without mounts or other accounts.

    Returns:
        ``(preexec_fn, None)``, or ``(None, reason)`` when it cannot be arranged here.
    """
    if sys.platform != "linux":
        return None, "capability bounding sets are Linux-only"
    if os.geteuid() != 0:
        return None, None  # an ordinary user obeys file modes already
    probe = subprocess.run(
        [sys.executable, "-c", "import sys; sys.exit(0)"],
        preexec_fn=_drop_permission_overrides,
        capture_output=True,
        check=False,
    )
    if probe.returncode != 0:
        return None, "cannot drop CAP_DAC_OVERRIDE here (no CAP_SETPCAP), so root ignores chmod"
    return _drop_permission_overrides, None


class ToolSession:
    """A live ``tact-memory tool`` process fed one JSON call per line, as an agent loop would."""

    def __init__(self, config_path: Path, *, role: str = "root", preexec_fn: Callable[[], None] | None = None) -> None:
        self.proc = subprocess.Popen(
            cli_command(config_path, "tool", "--role", role),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            env=child_env(),
            preexec_fn=preexec_fn,
        )

    def call(self, arguments: Mapping[str, Any] | str) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        line = arguments if isinstance(arguments, str) else json.dumps(arguments)
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        assert answer, f"the tool process ended: {self.close()}"
        return check_result(json.loads(answer))

    def close(self) -> str:
        """End the session; returns stderr, which must be empty for a clean run."""
        _, err = self.proc.communicate(timeout=60)
        return err

    def __enter__(self) -> ToolSession:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:
            self.close()


def strace_problem() -> str | None:
    """Why strace fault injection cannot run here, or ``None`` when it can."""
    strace = shutil.which("strace")
    if strace is None:
        return "strace is not installed"
    probe = subprocess.run(
        [strace, "-qq", "-o", os.devnull, sys.executable, "-c", "pass"], capture_output=True, check=False
    )
    return None if probe.returncode == 0 else "ptrace is not permitted here"


# -- the acknowledged writes of a worker ------------------------------------------------------------


Model = dict[int, tuple[int, str]]
"""``id -> (version, content)``: what the acknowledged writes of a worker leave."""


def apply(model: Model, op: str, id_: int, version: int, content: str) -> None:
    """One acknowledged call of a worker (:mod:`.workers`); a scan or a read changes no record."""
    if op == "delete":
        del model[id_]
    elif op in ("put", "replace"):
        model[id_] = (version, content)


def replay(model: Model, lines: list[str]) -> tuple[int, tuple[str, int, int, str] | None]:
    """Apply the acknowledged calls a killed writer printed; return how many, and the one in flight."""
    acknowledged, in_flight = 0, None
    for kind, op, id_, version, content in map(json.loads, lines):
        if kind == "intent":
            in_flight = (op, id_, version, content)
        elif kind == "ack":
            in_flight = None
            acknowledged += 1
            apply(model, op, id_, version, content)
    return acknowledged, in_flight


def settle(model: Model, in_flight: tuple[str, int, int, str] | None, stored: Model) -> bool:
    """Match the reopened file against the acknowledged writes. The one write in flight when the
    process died may be wholly there (it committed, the ack was not printed) or wholly absent.
    Returns whether it was there; fails on anything else."""
    if in_flight is not None and stored != model and in_flight[0] in ("put", "replace", "delete"):
        op, id_, version, content = in_flight
        if op == "put":
            [id_] = set(stored) - set(model)
            version = 0
        apply(model, op, id_, version + 1, content)
        assert stored == model, "the write in flight is half there"
        return True
    assert stored == model, "the file does not match the acknowledged writes"
    return False
