"""A runtime's and an adapter's workspace decide their store: the team store inside a
``[memory.team]`` workspace root (a real ``serve`` process here), local memory outside, and an
outage of the service is ``unavailable``, never local memory instead."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tact_memory.config.loading import load_config
from tact_memory.runtime import Runtime
from tact_memory.store.remote import RemoteStore
from tact_memory.store.sqlite import MemoryStore

from ..conftest import write_config
from .conftest import Service, start_service, stop_service

ALICES = "The billing-api deploys need two approvals from the platform team"


def team_config(tmp_path: Path, endpoint: str) -> Path:
    (tmp_path / "work" / "api").mkdir(parents=True, exist_ok=True)
    (tmp_path / "elsewhere").mkdir(exist_ok=True)
    return write_config(
        tmp_path / "tact",
        extra=f'[memory.team]\nendpoint = "{endpoint}"\ntoken_env = "TACT_TEST_TEAM_TOKEN"\n'
        f'workspace_roots = ["{tmp_path / "work"}"]\n',
    )


def scan(runtime: Runtime, query: str) -> dict[str, Any]:
    dispatcher = runtime.new_session().root.dispatcher
    assert dispatcher is not None
    return dispatcher.call({"operation": "scan", "query": query})


def test_a_runtime_in_a_workspace_root_uses_the_team_store_and_one_outside_local_memory(
    tmp_path: Path, service: Service, make_token: Callable[..., str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TACT_TEST_TEAM_TOKEN", make_token("bob"))
    service.call("POST", "/v1/put", make_token("alice"), json={"content": ALICES})
    path = team_config(tmp_path, service.url)
    config = load_config(path)
    monkeypatch.chdir(tmp_path / "elsewhere")  # the workspace named wins over the current folder

    team = Runtime(config, workspace=tmp_path / "work" / "api")
    found = scan(team, "who approves billing-api deploys")
    [card] = found["candidates"]
    assert card["key"]["namespace"] == "alice" and isinstance(team.store, RemoteStore)
    team.store.close()
    assert not config.database_path.parent.exists()  # local memory neither used nor created

    local = Runtime.from_config(str(path), workspace=tmp_path / "elsewhere")
    assert scan(local, "who approves billing-api deploys") == {"operation": "scan", "abstained": True, "candidates": []}
    assert isinstance(local.store, MemoryStore) and local.store.path == config.database_path
    local.store.close()

    monkeypatch.chdir(tmp_path / "work" / "api")  # without a workspace: the current folder
    assert isinstance(Runtime(config).store, RemoteStore)


def test_the_adapters_take_the_workspace_too(
    tmp_path: Path, service: Service, make_token: Callable[..., str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("agents", reason="the openai-agents extra is not installed")
    from tact_memory.adapters.openai_agents import MemoryForAgents

    monkeypatch.setenv("TACT_TEST_TEAM_TOKEN", make_token("bob"))
    path = team_config(tmp_path, service.url)
    monkeypatch.chdir(tmp_path / "elsewhere")
    inside = MemoryForAgents.from_config(path, workspace=tmp_path / "work")
    outside = MemoryForAgents.from_config(path, workspace=tmp_path / "elsewhere")
    assert isinstance(inside.store, RemoteStore) and isinstance(outside.store, MemoryStore)
    assert inside.store.status().problem is None  # the service answers for this token
    inside.close()
    outside.close()


def test_an_outage_of_the_service_is_unavailable_never_local_memory(
    tmp_path: Path, pg_database: str, make_token: Callable[..., str], monkeypatch: pytest.MonkeyPatch
) -> None:
    own = start_service(pg_database, tmp_path)
    monkeypatch.setenv("TACT_TEST_TEAM_TOKEN", make_token("bob"))
    config = load_config(team_config(tmp_path, own.url))
    runtime = Runtime(config, workspace=tmp_path / "work")
    agent = runtime.new_session().root.dispatcher
    assert agent is not None
    assert agent.call({"operation": "scan", "query": "deploys"})["abstained"] is True  # up: the team store answers
    stop_service(own)
    put = agent.call({"operation": "put", "content": "a fact while the service is down"})
    scanned = agent.call({"operation": "scan", "query": "deploys"})
    for outage in (scanned, put):
        assert outage["error"]["code"] == "unavailable" and outage["error"]["reason"] == "unreachable"
    assert not config.database_path.parent.exists()  # nothing fell back to local memory


def test_a_reload_gives_new_sessions_the_store_of_the_new_file_and_running_ones_keep_theirs(
    tmp_path: Path, service: Service, make_token: Callable[..., str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TACT_TEST_TEAM_TOKEN", make_token("bob"))
    service.call("POST", "/v1/put", make_token("alice"), json={"content": ALICES})
    path = team_config(tmp_path, service.url)
    runtime = Runtime(load_config(path), workspace=tmp_path / "work")
    running = runtime.new_session()
    assert isinstance(running.store, RemoteStore)

    notice = runtime.reload(load_config(write_config(path.parent)))  # [memory.team] removed
    assert notice.startswith("[memory.team] removed from config.toml")
    later = runtime.new_session()
    assert isinstance(later.store, MemoryStore)
    assert running.root.dispatcher is not None
    [card] = running.root.dispatcher.call({"operation": "scan", "query": "billing-api approvals"})["candidates"]
    assert card["key"]["namespace"] == "alice"  # the running session still uses the team store
    assert scan(runtime, "billing-api approvals")["abstained"] is True  # a new one, local memory

    runtime.reload(load_config(team_config(tmp_path, service.url)))  # and back
    assert isinstance(runtime.new_session().store, RemoteStore)
    for store in {id(s): s for s in (running.store, later.store, runtime.store)}.values():
        store.close()
