"""The checks are mixins of one class (:class:`tact_memory.screening.checks.Checks`), and a pattern
one of them compiles is an attribute of that class: two mixins that give the same name to two
patterns leave every check of both with whichever comes first in the method resolution order,
and the checks of the other read a pattern they were not written for."""

from __future__ import annotations

import functools
import inspect

from tact_memory.screening.checks import Checks


def test_no_two_checks_classes_give_one_name_to_their_patterns() -> None:
    owners: dict[str, list[str]] = {}
    for cls in Checks.__mro__:
        for name, value in vars(cls).items():
            if isinstance(value, functools.cached_property):
                owners.setdefault(name, []).append(cls.__name__)
    shared = {name: classes for name, classes in owners.items() if len(classes) > 1}
    assert shared == {}


def test_no_two_checks_classes_give_one_name_to_their_methods_unless_one_extends_the_other() -> None:
    """A rule names its check by attribute (``Checks.login_password``), so a second class that
    defined a method of the same name would take every rule of the first without a word; a method
    that extends the one it hides calls it through ``super()``."""
    owners: dict[str, list[type]] = {}
    for cls in Checks.__mro__[:-1]:  # not object
        for name, value in vars(cls).items():
            if not name.startswith("__") and (inspect.isfunction(value) or isinstance(value, (staticmethod, classmethod))):
                owners.setdefault(name, []).append(cls)
    hidden = {
        name: [cls.__name__ for cls in classes]
        for name, classes in owners.items()
        if len(classes) > 1 and f"super().{name}(" not in inspect.getsource(vars(classes[0])[name])
    }
    assert hidden == {}


def test_the_patterns_are_found_as_attributes() -> None:
    """The test above reads the right things: the checks compile well over a hundred patterns."""
    count = sum(isinstance(value, functools.cached_property) for cls in Checks.__mro__ for value in vars(cls).values())
    assert count > 100
