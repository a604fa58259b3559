"""The frozen value classes: what a frozen dataclass gave the records, bounds and settings, kept."""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tact_memory.config.loading import Config, MemorySettings
from tact_memory.limits import DEFAULT_LIMITS, Limits
from tact_memory.records import Candidate, MemoryRecord, RecordKey
from tact_memory.values import FrozenInstanceError, OrderedValue, Value, as_dict, fields, omitted_when_none, replace

keys = st.builds(RecordKey, st.integers(1, 50), st.integers(1, 5), st.none() | st.sampled_from(["alice", "bob"]))


def record(content: str = "use ruff", **changes: object) -> MemoryRecord:
    values: dict[str, object] = {
        "key": RecordKey(1, 1), "content": content, "created_at_ms": 10, "updated_at_ms": 20, "scan_count": 0,
        "last_scanned_at_ms": None, "read_count": 0, "last_read_at_ms": None, "probation_until_ms": 99,
    }  # fmt: skip
    values.update(changes)
    return MemoryRecord(**values)  # type: ignore[arg-type]


@given(keys, keys)
def test_keys_compare_hash_and_order_by_id_and_version_only(a: RecordKey, b: RecordKey) -> None:
    assert (a == b) == ((a.id, a.version) == (b.id, b.version))
    if a == b:
        assert hash(a) == hash(b)
    assert (a < b) == ((a.id, a.version) < (b.id, b.version))
    assert (a <= b) == ((a.id, a.version) <= (b.id, b.version))
    assert (a > b) == ((a.id, a.version) > (b.id, b.version))
    assert (a >= b) == ((a.id, a.version) >= (b.id, b.version))


@given(st.lists(keys))
def test_sorting_keys_sorts_by_id_then_version(found: list[RecordKey]) -> None:
    assert [(k.id, k.version) for k in sorted(found)] == sorted((k.id, k.version) for k in found)


def test_values_of_another_class_are_never_equal_nor_ordered() -> None:
    key = RecordKey(1, 1)
    assert key != (1, 1)
    assert key != Candidate(key, 1.0, "x")
    with pytest.raises(TypeError):
        _ = key < (1, 2)  # type: ignore[operator]
    with pytest.raises(TypeError):
        _ = Candidate(key, 1.0, "x") < Candidate(key, 2.0, "y")  # type: ignore[operator]


def test_a_value_is_frozen() -> None:
    key = RecordKey(1, 1)
    with pytest.raises(FrozenInstanceError):
        key.id = 2  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        del key.version  # type: ignore[misc]
    with pytest.raises(AttributeError):
        key.other = 1  # type: ignore[attr-defined]
    assert issubclass(FrozenInstanceError, AttributeError)


def test_repr_shows_every_field_in_order() -> None:
    assert repr(RecordKey(3, 2)) == "RecordKey(id=3, version=2, namespace=None)"
    assert repr(Candidate(RecordKey(3, 2, "alice"), 1.5, "hi")) == (
        "Candidate(key=RecordKey(id=3, version=2, namespace='alice'), score=1.5, preview='hi')"
    )


@pytest.mark.parametrize(
    "value",
    [
        RecordKey(4, 2, "bob"), record(), Candidate(RecordKey(1, 1), 0.5, "p"), DEFAULT_LIMITS, Limits(rows=3),
        Config(path=Path("/x/config.toml")),
    ],  # fmt: skip
)
def test_pickling_and_copying_keep_every_field(value: Value) -> None:
    for again in (pickle.loads(pickle.dumps(value)), copy.copy(value), copy.deepcopy(value)):
        assert again == value
        assert repr(again) == repr(value)


def test_replace_makes_a_changed_copy_and_refuses_an_unknown_field() -> None:
    limits = replace(DEFAULT_LIMITS, rows=3)
    assert limits.rows == 3 and limits.record_bytes == DEFAULT_LIMITS.record_bytes
    assert DEFAULT_LIMITS.rows == 512
    assert replace(record(), content="use black").content == "use black"
    with pytest.raises(TypeError, match="no field colour"):
        replace(DEFAULT_LIMITS, colour=1)
    if sys.version_info >= (3, 13):
        assert copy.replace(DEFAULT_LIMITS, rows=4).rows == 4  # type: ignore[attr-defined]


def test_as_dict_follows_declaration_order_and_leaves_out_a_local_namespace() -> None:
    data = as_dict(Candidate(RecordKey(7, 3), 2.5, "hello"))
    assert data == {"key": {"id": 7, "version": 3}, "score": 2.5, "preview": "hello"}
    assert list(data) == ["key", "score", "preview"]
    assert as_dict(RecordKey(7, 3, "alice")) == {"id": 7, "version": 3, "namespace": "alice"}
    assert list(as_dict(record())) == list(fields(MemoryRecord))
    assert as_dict([RecordKey(1, 1), (RecordKey(2, 1),)]) == [{"id": 1, "version": 1}, [{"id": 2, "version": 1}]]
    assert omitted_when_none(RecordKey) == {"namespace"}
    assert omitted_when_none(MemoryRecord) == frozenset()


def test_fields_and_match_args_follow_declaration_order() -> None:
    assert fields(RecordKey) == ("id", "version", "namespace")
    assert RecordKey.__match_args__ == ("id", "version", "namespace")
    match RecordKey(5, 1):  # positional patterns read __match_args__
        case RecordKey(id_, version):
            assert (id_, version) == (5, 1)


def test_defaults_and_keywords_construct_as_before() -> None:
    assert Limits() == DEFAULT_LIMITS
    assert Limits(rows=3).max_pages == DEFAULT_LIMITS.max_pages
    assert Config(path=Path("/x/config.toml")).memory == MemorySettings(enabled=False)
    assert RecordKey(id=1, version=2) == RecordKey(1, 2)


def test_a_value_class_must_list_its_own_fields_in_a_tuple() -> None:
    with pytest.raises(TypeError, match="tuple of __slots__"):

        class Named(Value):
            __slots__ = "name"  # type: ignore[assignment]

    class Base(Value):
        __slots__ = ("a",)

    with pytest.raises(TypeError, match="inherit none"):

        class Derived(Base):
            __slots__ = ("b",)

    with pytest.raises(TypeError, match="no field named c"):

        class Unknown(OrderedValue, uncompared=("c",)):
            __slots__ = ("a",)


def test_a_tool_process_imports_no_dataclasses() -> None:
    """The records, bounds and settings a tool call builds are what keeps ``dataclasses`` (and the
    ``inspect``, ``ast`` and ``dis`` it imports) out of a cold ``tact-memory tool`` process."""
    code = (
        "import sys, tact_memory.store.sqlite, tact_memory.config.loading, tact_memory.tool.guard, "
        "tact_memory.tool.results, tact_memory.tool.schemas; "
        "print(sorted(m for m in ('dataclasses', 'inspect', 'ast', 'dis') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_an_init_that_fills_the_wrong_number_of_fields_is_refused() -> None:
    class Pair(Value):
        __slots__ = ("a", "b")

        def __init__(self, *values: object) -> None:
            self._fill(*values)

    assert Pair(1, 2) == Pair(1, 2)
    with pytest.raises(TypeError, match="2 fields, not 1"):
        Pair(1)
