"""Frozen value classes: what a frozen dataclass gives, without importing :mod:`dataclasses`.

Every ``tact-memory tool`` call a client makes is a new Python process, and ``import dataclasses``
(which imports :mod:`inspect`, :mod:`ast`, :mod:`dis` and :mod:`tokenize`) plus the methods each
``@dataclass`` compiles at import took about a quarter of such a process. The records the store hands
out, the limits and the configuration are therefore :class:`Value` subclasses: plain classes that
list their fields, in order, in ``__slots__`` and give them, in that order, to :meth:`Value._fill`
from a typed ``__init__``. From those fields they get what a frozen dataclass has:

- equality and hashing over the fields (less any named in ``uncompared``), with another class
  never equal;
- ``repr`` with every field, ``RecordKey(id=1, version=2, namespace=None)``;
- ``<``, ``<=``, ``>``, ``>=`` over the compared fields, for an :class:`OrderedValue`;
- no assignment or deletion after ``__init__`` (:class:`FrozenInstanceError`, an ``AttributeError``);
- ``copy.replace(value, field=...)`` on Python 3.13 and later (``__replace__``; :func:`replace` on
  any version), pickling and copying, ``__match_args__`` for ``match`` statements;
- :func:`fields` and :func:`as_dict` in place of :func:`dataclasses.fields` and
  :func:`dataclasses.asdict`.

A field's type and its docstring stay under it in the class body, so readers, type checkers and the
tool's published JSON schema (:mod:`tact_memory.tool.schemas`) see the same declaration.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TypeVar

    V = TypeVar("V", bound="Value")

__all__ = ["FrozenInstanceError", "OrderedValue", "Value", "as_dict", "fields", "omitted_when_none", "replace"]


_set = object.__setattr__  # past the frozen __setattr__, once per field in __init__


class FrozenInstanceError(AttributeError):
    """A field of a frozen value was assigned or deleted."""


class Value:
    """Base of the package's immutable values (see the module docstring).

    Keyword arguments of a subclass's ``class`` statement (:class:`OrderedValue` adds ordering):

    - ``uncompared``: field names left out of equality, hashing and ordering;
    - ``omit_when_none``: field names that :func:`as_dict` (and so the tool's JSON) leaves out when
      they are ``None``.
    """

    __slots__: tuple[str, ...] = ()
    _compared: tuple[str, ...] = ()
    _omit_when_none: frozenset[str] = frozenset()

    def __init_subclass__(cls, *, uncompared: tuple[str, ...] = (), omit_when_none: tuple[str, ...] = (), **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        names = cls.__dict__.get("__slots__", ())
        if isinstance(names, str) or any(base.__dict__.get("__slots__") for base in cls.__mro__[1:]):
            raise TypeError(f"{cls.__name__}: list the fields in a tuple of __slots__, and inherit none")
        unknown = {*uncompared, *omit_when_none} - set(names)
        if unknown:
            raise TypeError(f"{cls.__name__}: no field named {', '.join(sorted(unknown))}")
        setattr(cls, "__match_args__", names)
        cls._compared = tuple(name for name in names if name not in uncompared)
        cls._omit_when_none = frozenset(omit_when_none)

    def _fill(self, *values: object) -> None:
        """Set every field, in ``__slots__`` order (``__init__`` calls it once)."""
        names = self.__slots__
        if len(values) != len(names):
            raise TypeError(f"{self.__class__.__name__} has {len(names)} fields, not {len(values)}")
        for name, value in zip(names, values):
            _set(self, name, value)

    def _key(self) -> tuple[Any, ...]:
        return tuple([getattr(self, name) for name in self._compared])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return bool(self._key() == other._key())  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{self.__class__.__qualname__}({shown})"

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[type[Value], tuple[Any, ...]]:
        return self.__class__, tuple(getattr(self, name) for name in self.__slots__)

    def __replace__(self: V, **changes: Any) -> V:
        """A copy with ``changes`` applied, as ``copy.replace`` (Python 3.13+) asks for."""
        unknown = changes.keys() - set(self.__slots__)
        if unknown:
            raise TypeError(f"{self.__class__.__name__} has no field {', '.join(sorted(unknown))}")
        values = {name: getattr(self, name) for name in self.__slots__}
        return self.__class__(**{**values, **changes})


class OrderedValue(Value):
    """A :class:`Value` that also orders by its compared fields, in declaration order."""

    __slots__ = ()

    def _other_key(self, other: object) -> tuple[Any, ...] | None:
        return other._key() if other.__class__ is self.__class__ else None  # type: ignore[attr-defined]

    def __lt__(self, other: object) -> bool:
        key = self._other_key(other)
        return NotImplemented if key is None else self._key() < key

    def __le__(self, other: object) -> bool:
        key = self._other_key(other)
        return NotImplemented if key is None else self._key() <= key

    def __gt__(self, other: object) -> bool:
        key = self._other_key(other)
        return NotImplemented if key is None else self._key() > key

    def __ge__(self, other: object) -> bool:
        key = self._other_key(other)
        return NotImplemented if key is None else self._key() >= key


def fields(value: Value | type[Value]) -> tuple[str, ...]:
    """The field names of a value or value class, in declaration order."""
    return value.__slots__


def omitted_when_none(value: Value | type[Value]) -> frozenset[str]:
    """The fields :func:`as_dict` leaves out when they are ``None`` (declared ``omit_when_none``)."""
    return value._omit_when_none


def replace(value: V, **changes: Any) -> V:
    """A copy of ``value`` with ``changes`` applied (``copy.replace`` on Python 3.13 and later)."""
    return value.__replace__(**changes)


def as_dict(value: object) -> Any:
    """``value`` as plain data: a :class:`Value` becomes a dict of its fields (leaving out a field
    declared ``omit_when_none`` that is ``None``), a list or tuple a list, recursively; anything
    else is returned as it is."""
    if isinstance(value, Value):
        return {
            name: as_dict(item)
            for name in value.__slots__
            if not ((item := getattr(value, name)) is None and name in value._omit_when_none)
        }
    if isinstance(value, (list, tuple)):
        return [as_dict(item) for item in value]
    return value
