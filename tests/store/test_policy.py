"""The store's rules without a database: validation, visibility, probation and capacity."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tact_memory import errors
from tact_memory.limits import Limits
from tact_memory.records import RecordKey
from tact_memory.screening.checkpoint import CHECKPOINT_TEXT, IMITATION_KIND
from tact_memory.store import policy
from tact_memory.store.policy import Row, plan_put, prunable

LIMITS = Limits(rows=6, content_bytes=100, record_bytes=40, query_bytes=20, scan_results=3, probation_ms=1000)
AWS_KEY = "AKIA" + "ABCDEFGHIJKLMNOP"


def test_the_policy_module_imports_no_sqlite() -> None:
    tree = ast.parse(Path(policy.__file__).read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not any("sqlite" in name for name in imported), imported


# -- validation --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "error", "words"),
    [
        (42, errors.InvalidArguments, "must be a string"),
        ("ok \ud800", errors.InvalidArguments, "not valid text"),
        ("  \n\t ", errors.InvalidArguments, "empty"),
        ("bell\x07", errors.InvalidArguments, "ASCII control character"),
        ("delete\x7f", errors.InvalidArguments, "ASCII control character"),
        ("é" * 21, errors.ContentTooLarge, "42 UTF-8 bytes"),  # 21 characters, 42 bytes, limit 40
        (CHECKPOINT_TEXT[:38], errors.InvalidArguments, "imitates"),
        (f"key {AWS_KEY}", errors.SecretRejected, "AWS access key ID"),
    ],
)
def test_validate_content_refuses_with_a_named_error(content: object, error: type[Exception], words: str) -> None:
    with pytest.raises(error) as info:
        policy.validate_content(content, LIMITS)
    assert words in str(info.value)
    assert AWS_KEY not in str(info.value)


@pytest.mark.parametrize("code", [*range(0x00, 0x100), 0x2028, 0xFEFF, 0x10FFFF])
def test_the_control_characters_refused_are_exactly_c0_but_tab_newline_return_and_delete(code: int) -> None:
    char = chr(code)
    refused = (code < 32 and char not in "\t\n\r") or code == 127
    try:
        policy.validate_content(f"a{char}b", LIMITS)
    except errors.InvalidArguments as exc:
        assert refused and str(exc) == (
            "content contains an ASCII control character; of those only tab, newline and carriage return are allowed"
        )
    else:
        assert not refused


def test_validate_content_accepts_tabs_newlines_and_exactly_the_byte_limit() -> None:
    text = "a\tb\r\nc" + "é" * 17  # 6 + 34 = 40 bytes
    assert policy.content_size(text) == 40
    assert policy.validate_content(text, LIMITS) == text


def test_queries_limits_keys_and_ids_are_checked() -> None:
    policy.check_query("x" * 20, 3, LIMITS)
    for query, limit in (("x" * 21, 3), (b"bytes", 3), ("ok", 0), ("ok", 4), ("ok", True), ("ok", 2.0)):
        with pytest.raises(errors.InvalidArguments):
            policy.check_query(query, limit, LIMITS)
    policy.check_key(RecordKey(1, policy.MAX_INTEGER))
    for key in (RecordKey(0, 1), RecordKey(1, 0), RecordKey(policy.MAX_INTEGER + 1, 1)):
        with pytest.raises(errors.InvalidArguments):
            policy.check_key(key)
    assert policy.check_ids([3, 1, 3, 2, 1]) == [3, 1, 2]
    for ids in ([], [0], [True], ["1"], [1.0]):
        with pytest.raises(errors.InvalidArguments):
            policy.check_ids(ids)


# -- visibility, duplicates, probation -----------------------------------------------------------------


def test_hidden_reason_names_a_secret_kind_or_the_checkpoint_imitation() -> None:
    assert policy.hidden_reason("deploys need approval") is None
    assert policy.hidden_reason(f"the key is {AWS_KEY}") == "aws_access_key"
    assert policy.hidden_reason(CHECKPOINT_TEXT) == IMITATION_KIND


def test_duplicate_key_folds_case_and_spacing() -> None:
    assert policy.duplicate_key("Deploys  need APPROVAL") == policy.duplicate_key("deploys need approval")
    assert policy.duplicate_key("deploys need approval") != policy.duplicate_key("deploys need review")


def test_probation_deadline_is_none_for_a_person_and_the_window_for_a_model() -> None:
    assert policy.probation_deadline(5_000, LIMITS, probation=True) == 6_000
    assert policy.probation_deadline(5_000, LIMITS, probation=False) is None


# -- capacity and pruning ------------------------------------------------------------------------------

rows_strategy = st.lists(
    st.builds(
        Row,
        id=st.integers(1, 30),
        size=st.integers(0, 25),
        updated_at_ms=st.integers(0, 5),
        probation_until_ms=st.none() | st.integers(0, 10),
    ),
    max_size=6,
    unique_by=lambda row: row.id,
)


def fits(rows: list[Row], removed: set[int], limits: Limits, *, size: int, replace: int | None) -> bool:
    """Whether a put fits once ``removed`` are gone: the definition the policy must agree with."""
    left = [row for row in rows if row.id not in removed]
    count = len(left) + (1 if replace is None else 0)
    used = sum(row.size for row in left if row.id != replace) + size
    return count <= limits.rows and used <= limits.content_bytes


@given(rows=rows_strategy, now=st.integers(0, 10), keep=st.none() | st.integers(1, 30))
def test_prunable_rows_are_expired_unread_and_oldest_first(rows: list[Row], now: int, keep: int | None) -> None:
    chosen = prunable(rows, now, keep=keep)
    for row in rows:
        expired = row.probation_until_ms is not None and row.probation_until_ms <= now and row.id != keep
        assert (row in chosen) == expired
    assert chosen == sorted(chosen, key=lambda row: (row.updated_at_ms, row.id))


@settings(max_examples=300)
@given(
    rows=rows_strategy,
    spare_rows=st.integers(0, 1),
    spare_bytes=st.integers(0, 15),
    now=st.integers(0, 10),
    size=st.integers(1, 30),
    replacing=st.booleans(),
    at_least=st.sampled_from([0, 0, 0, 1, 2]),
    pick=st.integers(0, 7),
)
def test_a_put_prunes_a_minimal_oldest_first_prefix_and_fits_iff_any_choice_fits(
    rows: list[Row], spare_rows: int, spare_bytes: int, now: int, size: int, replacing: bool, at_least: int, pick: int
) -> None:
    # A corpus within its bounds, and close to them, so that puts often need room.
    limits = Limits(rows=max(1, len(rows) + spare_rows), content_bytes=sum(r.size for r in rows) + spare_bytes)
    replace = rows[pick % len(rows)].id if replacing and rows else None
    candidates = [row.id for row in prunable(rows, now, keep=replace)]
    # Pruning every candidate is the most room any choice can make.
    possible = fits(rows, set(candidates), limits, size=size, replace=replace)
    # The store's shortcut from two totals: true exactly when the whole plan prunes nothing.
    as_is = policy.fits_as_is(
        len(rows), sum(r.size for r in rows), limits, size=size,
        replaced_size=None if replace is None else next(r.size for r in rows if r.id == replace),
    )  # fmt: skip
    try:
        chosen = plan_put(rows, limits, now_ms=now, size=size, replace=replace, at_least=at_least)
    except errors.RecordCapacity:
        assert not possible and not as_is
        assert len(rows) - len(candidates) + 1 > limits.rows
        return
    except errors.ContentCapacity as exc:
        assert not possible and not as_is
        assert f"over the {limits.content_bytes:,}-byte limit" in str(exc)
        return
    if chosen is None:
        assert len(candidates) < at_least
        return
    if at_least == 0:
        assert as_is == (chosen == [])
    assert possible
    assert chosen == candidates[: len(chosen)]  # an oldest-first prefix, never a read or graduated row
    assert replace not in chosen
    assert fits(rows, set(chosen), limits, size=size, replace=replace)
    assert len(chosen) >= at_least
    if len(chosen) > at_least:  # one fewer would not have fit
        assert not fits(rows, set(chosen[:-1]), limits, size=size, replace=replace)


def test_a_put_that_fits_prunes_nothing_and_a_replacement_frees_its_own_bytes() -> None:
    rows = [Row(1, 60, 0, 0), Row(2, 30, 1, None)]
    assert plan_put(rows, LIMITS, now_ms=5, size=10) == []
    assert plan_put(rows, LIMITS, now_ms=5, size=11) == [1]  # 101 bytes: the expired row goes
    assert plan_put(rows, LIMITS, now_ms=5, size=40, replace=2) == []  # 60 + 40 once row 2's 30 are freed
    with pytest.raises(errors.ContentCapacity, match="to 101 bytes"):
        plan_put(rows, LIMITS, now_ms=5, size=71, replace=1)  # the replaced row is never pruned


def test_a_refusal_names_what_is_full() -> None:
    """The whole memory unless the caller names what the bounds apply to, as a team namespace."""
    full = [Row(1, 60, 0, None), Row(2, 30, 1, None)]
    rows_full = Limits(rows=2, content_bytes=100)
    bytes_full = Limits(rows=6, content_bytes=100)
    with pytest.raises(errors.RecordCapacity) as info:
        plan_put(full, rows_full, now_ms=5, size=1)
    assert str(info.value) == (
        "memory holds its maximum of 2 records and none is an expired, unread probation record; "
        "delete or replace a record first"
    )
    with pytest.raises(errors.ContentCapacity) as info:
        plan_put(full, bytes_full, now_ms=5, size=1_011)
    assert str(info.value) == (
        "this would bring stored content to 1,101 bytes, over the 100-byte limit; delete or shorten records first"
    )
    with pytest.raises(errors.RecordCapacity) as info:
        plan_put(full, rows_full, now_ms=5, size=1, holder="namespace 'alice'")
    assert str(info.value).startswith("namespace 'alice' holds its maximum of 2 records and none")
    with pytest.raises(errors.ContentCapacity) as info:
        plan_put(full, bytes_full, now_ms=5, size=11, holder="namespace 'alice'")
    assert str(info.value).startswith("this would bring the content of namespace 'alice' to 101 bytes, over")
