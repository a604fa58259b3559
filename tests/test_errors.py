"""The exception tree: every error survives pickling (worker processes and pools send them back)."""

from __future__ import annotations

import pickle
from concurrent.futures import ProcessPoolExecutor

import pytest

from tact_memory import errors
from tact_memory.cli.transfer import PullRefused
from tact_memory.eval.scenarios import EvalError
from tact_memory.runtime.session import SubmissionRejected
from tact_memory.tool.wire import InvalidCall

SAMPLES: list[errors.TactMemoryError] = [
    errors.TactMemoryError("base"),
    errors.ConfigError("bad key", path="/c/config.toml", key="memory.x", line=3),
    errors.MaxStepsExceeded("too many steps"),
    errors.MemoryOperationError("refused"),
    errors.InvalidArguments("query must be a string"),
    InvalidCall("scan needs query", operation="scan"),
    errors.Forbidden("children may only scan and read"),
    errors.ScanRequired("scan first"),
    errors.NotFound("no memory has id 9", id=9),
    errors.VersionConflict("memory 1 is at version 3", id=1, current_version=3),
    errors.Duplicate("memory 2 already says so", id=2, version=1),
    errors.ContentTooLarge("too large", size=2000, limit=1024),
    errors.SecretRejected("looks like a credential", kind="github_token"),
    errors.CapacityError("full", limit=1),
    errors.RecordCapacity("rows", limit=512),
    errors.ContentCapacity("bytes", limit=262_144),
    errors.DatabaseCapacity("file", limit=4 << 20),
    errors.MemoryDisabled("disabled"),
    errors.StoreUnavailable("busy", path="/m/v1.sqlite3", reason="busy"),
    SubmissionRejected("empty"),
    EvalError("bad scenario"),
    PullRefused("nothing was pulled", refusal="content_capacity", namespace="bob", team_id=4),
]


def _every_error_class(root: type[errors.TactMemoryError]) -> set[type[errors.TactMemoryError]]:
    found = {root}
    for sub in root.__subclasses__():
        found |= _every_error_class(sub)
    return found


def test_the_samples_cover_every_error_class() -> None:
    classes = {c for c in _every_error_class(errors.TactMemoryError) if c.__module__.startswith("tact_memory")}
    assert classes == {type(s) for s in SAMPLES}


@pytest.mark.parametrize("error", SAMPLES, ids=lambda e: type(e).__name__)
def test_every_error_survives_pickling(error: errors.TactMemoryError) -> None:
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is type(error)
    assert (copy.code, copy.message, str(copy), copy.details()) == (error.code, error.message, str(error), error.details())
    assert copy.__dict__ == error.__dict__


def _raise(index: int) -> None:
    raise SAMPLES[index]


def test_an_error_raised_in_a_worker_process_reaches_the_caller() -> None:
    with ProcessPoolExecutor(max_workers=1) as pool:
        future = pool.submit(_raise, SAMPLES.index(next(s for s in SAMPLES if isinstance(s, errors.StoreUnavailable))))
        with pytest.raises(errors.StoreUnavailable) as info:
            future.result(timeout=60)
    assert info.value.reason == "busy" and info.value.code == "unavailable"
