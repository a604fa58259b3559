"""An upgrade while a session of the earlier release still runs on the same file.

The earlier release is taken from this checkout's history (the last commit whose schema was
version 2) and run as a real ``tact-memory tool`` process beside the installed one. When the newer
release's first write migrates the file to schema 3, the earlier session must lose nothing it
acknowledged, write nothing after, and answer a named error rather than break.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from tact_memory.store.sqlite import SCHEMA_VERSION, MemoryStore

from ..history import package_at

EARLIER = "5864315a0a272482814efa8bea1eea091d23c6bb"
"""The last commit whose store wrote schema version 2 (telemetry in the ``memories`` table)."""


@pytest.fixture(scope="module")
def earlier_release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the earlier release's ``tact_memory`` package, for ``PYTHONPATH``."""
    return package_at(EARLIER, tmp_path_factory.mktemp("earlier"))


class EarlierSession:
    """``tact-memory tool`` of the earlier release, answering one JSON call per line."""

    def __init__(self, release: Path, config: Path, cwd: Path) -> None:
        env = {**os.environ, "PYTHONPATH": str(release)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tact_memory.cli", "--config", str(config), "tool"],
            env=env, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip

    def call(self, call: dict[str, Any]) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(call) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        assert line, self.process.stderr.read() if self.process.stderr else "no answer"
        answer: dict[str, Any] = json.loads(line)
        return answer

    def close(self) -> tuple[int, str]:
        _, stderr = self.process.communicate(timeout=30)
        return self.process.returncode, stderr


def user_version(db: Path) -> int:
    with closing(sqlite3.connect(db)) as conn:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])


def test_an_earlier_session_loses_nothing_when_a_newer_release_migrates_the_file(
    earlier_release: Path, config_path: Path, db_path: Path, tmp_path: Path
) -> None:
    earlier = EarlierSession(earlier_release, config_path, tmp_path)
    try:
        assert earlier.call({"operation": "scan", "query": "deploy"})["abstained"] is True
        put = earlier.call({"operation": "put", "content": "the deploy job runs at noon"})
        assert put["memory"]["key"] == {"id": 1, "version": 1}, put
        assert [c["key"]["id"] for c in earlier.call({"operation": "scan", "query": "deploy"})["candidates"]] == [1]
        assert user_version(db_path) == 2  # written by the earlier release

        with MemoryStore(db_path) as store:  # the newer release's first write migrates the file
            store.put("the staging cluster is in eu-west-1")
        assert user_version(db_path) == SCHEMA_VERSION == 3
        migrated = db_path.read_bytes()

        calls = [
            {"operation": "scan", "query": "deploy"},
            {"operation": "put", "content": "the nightly build runs at two"},
            {"operation": "read", "ids": [1, 2]},
            {"operation": "delete", "id": 1, "version": 1},
            {"operation": "scan", "query": "staging"},
        ]
        answers = [earlier.call(call) for call in calls]
    finally:
        code, stderr = earlier.close()
    assert code == 0 and "Traceback" not in stderr, stderr
    # every call after the migration is refused by name, none acknowledged, and nothing is written
    assert all(a.get("error", {}).get("code") == "unavailable" for a in answers), answers
    assert answers[-1]["error"]["reason"] == "newer_schema", answers  # the earlier release says why
    assert db_path.read_bytes() == migrated
    # what each release acknowledged is there, with the earlier session's scan count carried over
    with MemoryStore(db_path) as store:
        found = {r.key.id: (r.content, r.scan_count) for r in store.list_records(order="id")}
    assert found == {1: ("the deploy job runs at noon", 1), 2: ("the staging cluster is in eu-west-1", 0)}
    with closing(sqlite3.connect(db_path)) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
