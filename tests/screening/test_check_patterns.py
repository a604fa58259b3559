"""The checks are mixins of one class (:class:`tact_memory.screening.checks.Checks`), and a pattern
one of them compiles is an attribute of that class: two mixins that give the same name to two
patterns leave every check of both with whichever comes first in the method resolution order,
and the checks of the other read a pattern they were not written for."""

from __future__ import annotations

import functools

from tact_memory.screening.checks import Checks


def test_no_two_checks_classes_give_one_name_to_their_patterns() -> None:
    owners: dict[str, list[str]] = {}
    for cls in Checks.__mro__:
        for name, value in vars(cls).items():
            if isinstance(value, functools.cached_property):
                owners.setdefault(name, []).append(cls.__name__)
    shared = {name: classes for name, classes in owners.items() if len(classes) > 1}
    assert shared == {}


def test_the_patterns_are_found_as_attributes() -> None:
    """The test above reads the right things: the checks compile well over a hundred patterns."""
    count = sum(isinstance(value, functools.cached_property) for cls in Checks.__mro__ for value in vars(cls).values())
    assert count > 100
