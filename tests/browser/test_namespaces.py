"""A team store's records show who wrote them in a column of their own, local records look as they
always did, and the browser switches between local memory and the team store (a real ``serve``
process here) as soon as config.toml says so."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets import Static

from tact_memory.browser import MemoryBrowser
from tact_memory.browser.app import RecordTable
from tact_memory.config.loading import ConfigSource, read_config
from tact_memory.records import MemoryRecord, RecordOrder
from tact_memory.store.sqlite import MemoryStore
from tact_memory.values import replace

from ..conftest import write_config
from ..pgcluster import pg_database, pg_server  # noqa: F401  (fixtures)
from .test_app import SIZE, T0, anyio_backend, db_of, home_config, ids, seed, settled, wait_for  # noqa: F401  (fixtures)


class Namespaced(MemoryStore):
    """The local store, listing its records as a team store does: keys carry an author."""

    def list_records(self, *, order: RecordOrder = "most_useful") -> list[MemoryRecord]:
        return [
            replace(r, key=replace(r.key, namespace="alice" if r.key.id % 2 else "bob"))
            for r in super().list_records(order=order)
        ]


def headings(app: MemoryBrowser) -> list[str]:
    return [str(column.label) for column in app.query_one(RecordTable).columns.values()]


def column(app: MemoryBrowser, heading: str) -> list[str]:
    table = app.query_one(RecordTable)
    at = headings(app).index(heading)
    return [str(table.get_row_at(i)[at]) for i in range(table.row_count)]


@pytest.mark.anyio
@pytest.mark.parametrize("team", [True, False])
async def test_a_team_stores_list_has_a_namespace_column(home_config: Path, team: bool) -> None:
    seed(home_config)
    source = ConfigSource(home_config, "--config")
    kind = Namespaced if team else MemoryStore
    app = MemoryBrowser(
        source, config=read_config(source), store_factory=lambda path: kind(path, clock=lambda: T0), watch=False
    )
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        if team:
            assert headings(app)[-2:] == ["NAMESPACE", "CONTENT"]
            assert column(app, "NAMESPACE") == ["alice" if id_ % 2 else "bob" for id_ in ids(app)]
        else:
            assert "NAMESPACE" not in headings(app)
        assert all(content.startswith(("In the", "The user", "Short", "CI for")) for content in column(app, "CONTENT"))
    assert db_of(home_config).exists()


# -- switching stores on reload ----------------------------------------------------------------------


@pytest.fixture
def alices_service(pg_database: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:  # noqa: F811
    """A ``serve`` process holding two records of Alice's; the token is in ``TACT_TEST_TEAM_TOKEN``."""
    pytest.importorskip("psycopg", reason="the team extra (psycopg) is not installed")
    pytest.importorskip("httpx", reason="httpx is not installed")
    import httpx
    import psycopg

    from tact_memory.team.tokens import create_token

    from ..team.conftest import start_service, stop_service

    with psycopg.connect(pg_database, autocommit=True) as conn:
        conn.execute("TRUNCATE memories, generations")
        token, _ = create_token(conn, namespace="alice", role="writer", now_ms=time.time_ns() // 1_000_000)
    service = start_service(pg_database, tmp_path)
    for content in ("The billing-api deploys need two approvals", "Staging resets every Sunday night"):
        httpx.post(f"{service.url}/v1/put", json={"content": content}, headers={"Authorization": f"Bearer {token}"})
    monkeypatch.setenv("TACT_TEST_TEAM_TOKEN", token)
    yield service.url
    stop_service(service)


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.anyio
async def test_editing_memory_team_switches_the_store_at_once(home_config: Path, tmp_path: Path, alices_service: str) -> None:
    from tact_memory.runtime.stores import team_store

    seed(home_config)
    work = tmp_path / "work" / "billing-api"
    work.mkdir(parents=True)

    def team_table(endpoint: str, root: Path) -> str:
        return f'[memory.team]\nendpoint = "{endpoint}"\ntoken_env = "TACT_TEST_TEAM_TOKEN"\nworkspace_roots = ["{root}"]\n'

    source = ConfigSource(home_config, "--config")
    app = MemoryBrowser(
        source, config=read_config(source), store_factory=lambda path: MemoryStore(path, clock=lambda: T0),
        team_store_factory=team_store, workspace=work, watch=True, debounce_ms=50,
    )  # fmt: skip
    async with app.run_test(size=SIZE) as pilot:
        assert app.watcher is not None and app.watcher.wait_ready(5)
        await settled(pilot)
        assert app.team is None and ids(app) == [1, 2, 4, 3] and "NAMESPACE" not in headings(app)
        local = app.store

        write_config(home_config.parent, extra=team_table(alices_service, tmp_path / "work"))  # added
        await wait_for(pilot, lambda: app.team is not None and app.view == "records" and app.idle)
        assert column(app, "NAMESPACE") == ["alice", "alice"]
        assert sorted(column(app, "CONTENT")) == ["Staging resets every Sunday night", "The billing-api deploys need two approvals"]
        assert app.message.startswith("[memory.team] added to config.toml: the browser switches")
        assert "team store http://127.0.0.1:" in str(app.query_one("#status", Static).content)
        assert isinstance(local, MemoryStore) and not local.opened  # the local store was closed

        write_config(home_config.parent, extra=team_table(alices_service, tmp_path / "elsewhere"))  # roots changed
        await wait_for(pilot, lambda: app.team is None and app.idle)
        assert ids(app) == [1, 2, 4, 3] and "NAMESPACE" not in headings(app)
        assert app.message.startswith("[memory.team] changed in config.toml")

        down = f"http://127.0.0.1:{closed_port()}"
        write_config(home_config.parent, extra=team_table(down, tmp_path / "work"))  # a service that is down
        await wait_for(pilot, lambda: app.view == "problem" and app.idle)
        assert app.team is not None and str(app.query_one("#problem", Static).content).startswith(
            "Team memory cannot be used (unreachable)."
        )
        assert app.shown == []  # never local memory instead

        write_config(home_config.parent)  # removed
        await wait_for(pilot, lambda: app.team is None and app.view == "records" and app.idle)
        assert ids(app) == [1, 2, 4, 3] and app.message.startswith("[memory.team] removed from config.toml")
