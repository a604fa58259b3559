"""Recording the flushes :func:`tact_memory.store.held.sync` makes."""

from __future__ import annotations

import os

import pytest

from tact_memory.store import held


def recorded_flushes(monkeypatch: pytest.MonkeyPatch) -> list[held.Identity]:
    """The files :func:`held.sync` flushes from now on, by identity (each flush still happens)."""
    flushed: list[held.Identity] = []
    real = held._flush

    def recording(fd: int) -> None:
        st = os.fstat(fd)
        flushed.append((st.st_dev, st.st_ino))
        real(fd)

    monkeypatch.setattr(held, "_flush", recording)
    return flushed
