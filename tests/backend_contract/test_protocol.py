"""Every backend offers the whole protocol, so nothing needs the concrete class."""

from __future__ import annotations

import inspect

import pytest

from tact_memory.backend import MemoryBackend

pytestmark = pytest.mark.backend_contract

MEMBERS = {
    name
    for name, _ in inspect.getmembers(MemoryBackend)
    if not name.startswith("_")
}


def test_the_protocol_names_what_the_faces_use() -> None:
    assert MEMBERS == {
        "close", "delete", "export", "get", "hidden_reason", "limits", "list_records", "put", "read", "scan", "status",
    }  # fmt: skip


def test_the_backend_implements_every_member(backend: MemoryBackend) -> None:
    assert isinstance(backend, MemoryBackend)
    for name in MEMBERS:
        assert hasattr(backend, name), name
    backend.close()
    backend.close()  # closing twice is harmless, and the next call opens again
    assert backend.scan("anything") == []
