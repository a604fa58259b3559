"""A rejected secret leaves no trace: not in the result, the message, or any database file (I11).

The rejection rules and their fixture set belong to :mod:`tact_memory.screening.credentials` and its own tests;
this file only follows every maintained reject fixture end to end through the CLI tool an agent
loop would run, and then searches the bytes of the memory folder.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from tact_memory.screening.credentials import KINDS

from ..conftest import fixture_path
from .helpers import check_result, folder_bytes, raw_rows, run_tool_session

REJECT = tomllib.loads(fixture_path("secrets", "reject.toml").read_text(encoding="utf-8"))["case"]
_TOKEN_SPLIT = re.compile(r"[\s=:\"'`,;()<>\[\]{}@/]+")
_URL_PASSWORD = re.compile(r"://[^\s:/@]*:([^\s@]+)@")
_BASE64 = re.compile(r"[A-Za-z0-9+/]{16,}={0,2}")
_ARMOUR = re.compile(r"-----(?:BEGIN|END)[ A-Z0-9\u00a0]{0,32}PRIVATE KEY(?: BLOCK)?-----")
SEED = "In the billing repository, integration tests run against a local broker on port 5672."


def fragments(text: str) -> set[str]:
    """Parts of a case that carry the secret value: tokens of six or more characters with a digit
    (short passwords such as hunter2 included) or spelled with ``fake`` (how a fixture writes a
    value with no digit, such as FAKEexample), base64 runs, passwords inside URLs and private-key
    armour lines. None of them may ever be written back or stored."""
    found = {
        t for t in _TOKEN_SPLIT.split(text) if len(t) >= 6 and (any(c.isdigit() for c in t) or "fake" in t.lower())
    }
    found |= set(_URL_PASSWORD.findall(text)) | set(_BASE64.findall(text)) | set(_ARMOUR.findall(text))
    return {f for f in found if f not in SEED}


def test_every_case_has_something_to_look_for() -> None:
    """I11: each reject fixture yields fragments to search for, or the search would prove nothing."""
    assert len(REJECT) >= 50
    assert [c["text"][:40] for c in REJECT if not fragments(c["text"])] == []


def test_rejected_secrets_never_come_back_or_reach_the_disk(config_path: Path) -> None:
    """I11 end to end: each reject fixture, as a new record, as a replacement and as a scan query,
    through ``tact-memory tool``: ``secret_rejected`` naming only the kind; no fragment of the value
    in the result line or its message; no fragment in any file of the memory folder."""
    calls: list[dict[str, Any]] = [
        {"operation": "scan", "query": "billing broker"},
        {"operation": "put", "content": SEED},
        {"operation": "scan", "query": "billing broker"},
    ]
    for case in REJECT:
        calls.append({"operation": "put", "content": case["text"]})
        calls.append({"operation": "put", "content": case["text"], "replace": {"id": 1, "version": 1}})
        calls.append({"operation": "scan", "query": case["text"][:500]})
    stdout = run_tool_session(config_path, calls)
    lines = stdout.splitlines()
    assert len(lines) == len(calls)
    for index, case in enumerate(REJECT):
        secret_parts = fragments(case["text"])
        for line in lines[3 + 3 * index : 6 + 3 * index]:
            result = check_result(json.loads(line))
            assert not [f for f in secret_parts if f in line or json.dumps(f)[1:-1] in line], line
            if result["operation"] == "put":
                assert result["error"]["code"] == "secret_rejected", (case["kind"], result)
                assert result["error"]["kind"] in KINDS
                assert not [f for f in secret_parts if f in result["error"]["message"]]
    db = config_path.parent / "memory" / "v1.sqlite3"
    assert raw_rows(db) == {1: (1, SEED)}
    stored = b"".join(folder_bytes(db).values())
    leaked = [c["kind"] for c in REJECT for f in fragments(c["text"]) if f.encode("utf-8") in stored]
    assert leaked == []
