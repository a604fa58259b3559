"""A runtime closes the store it opened: ``close()`` or ``with``, and the next tool call opens it again."""

from __future__ import annotations

from pathlib import Path

from tact_memory import Runtime, load_config
from tact_memory.testing import ScriptedModel, answer, call, run_agent

from ..conftest import write_config

PUT = {"operation": "put", "content": "In the zephyr repository, release tags are vX.Y.Z."}


def put_once(runtime: Runtime) -> None:
    session = runtime.new_session(system="You are a coding agent.")
    session.submit("Remember how zephyr tags releases.")
    scan = {"operation": "scan", "query": "zephyr release tags"}
    run_agent(session.root, ScriptedModel([call("memory", scan), call("memory", PUT), answer("Stored.")]))


def files(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir()) if folder.exists() else []


def test_close_ends_the_connections_and_the_next_call_opens_them_again(tmp_path: Path) -> None:
    runtime = Runtime(load_config(write_config(tmp_path / "tact")))
    memory = tmp_path / "tact" / "memory"
    put_once(runtime)
    assert "v1.sqlite3-wal" in files(memory)  # open: the write-ahead log is there
    runtime.close()
    assert files(memory) == ["v1.sqlite3"]  # the last connection folded the log in and removed it
    put_once(runtime)  # the same content again: refused as a duplicate, so the store was read
    assert "v1.sqlite3-wal" in files(memory)
    assert [record.content for record in runtime.store.list_records()] == [PUT["content"]]
    runtime.close()
    runtime.close()  # closing twice is closing once
    assert files(memory) == ["v1.sqlite3"]


def test_a_runtime_as_a_context_manager_closes_on_exit_also_after_an_error(tmp_path: Path) -> None:
    memory = tmp_path / "tact" / "memory"
    with Runtime(load_config(write_config(tmp_path / "tact"))) as runtime:
        put_once(runtime)
        assert "v1.sqlite3-wal" in files(memory)
    assert files(memory) == ["v1.sqlite3"]
    try:
        with Runtime(load_config(write_config(tmp_path / "tact"))) as runtime:
            assert [record.content for record in runtime.store.list_records()] == [PUT["content"]]
            raise KeyError("the application's own error")
    except KeyError:
        pass
    assert files(memory) == ["v1.sqlite3"]


def test_closing_a_runtime_that_never_used_memory_opens_nothing(tmp_path: Path) -> None:
    for enabled in (True, False):
        folder = tmp_path / f"tact-{enabled}"
        Runtime(load_config(write_config(folder, enabled=enabled))).close()
        with Runtime(load_config(write_config(folder, enabled=enabled))):
            pass
        assert files(folder / "memory") == []
