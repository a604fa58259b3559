"""A team store's records show who wrote them in a column of their own, local records look as they
always did, and the browser switches between local memory and the team store (a real ``serve``
process here) as soon as config.toml says so."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from rich.cells import cell_len
from textual.widgets import Static

from tact_memory.backend import RecordOrder
from tact_memory.browser import MemoryBrowser
from tact_memory.browser.app import NAMESPACE_WIDTH, RecordTable
from tact_memory.browser.preview import CODE_POINTS_PER_CELL
from tact_memory.config.loading import ConfigSource, read_config
from tact_memory.records import MemoryRecord
from tact_memory.screening.display import terminal_safe
from tact_memory.store.sqlite import MemoryStore
from tact_memory.values import replace

from ..conftest import write_config
from ..pgcluster import pg_database, pg_server  # noqa: F401  (fixtures)
from .test_app import (  # noqa: F401  (fixtures)
    SIZE,
    T0,
    anyio_backend,
    content_fills_the_row,
    db_of,
    home_config,
    ids,
    seed,
    settled,
    wait_for,
)

HOSTILE = {
    1: "a-very-long-namespace-" * 40,
    2: "中文名字空间" * 30,
    3: "e" + "\u0301" * 400 + "vil",
    4: "\u202eecila\u202c\nbob\r\x1b[2J" + "👨\u200d" * 40,
}
"""Names a team service could give the four records of :func:`seed`: long, wide, stacked, reordering."""


def alice_and_bob(id_: int) -> str:
    return "alice" if id_ % 2 else "bob"


class Namespaced(MemoryStore):
    """The local store, listing its records as a team store does: keys carry an author, ``names(id)``."""

    def __init__(self, path: Path, *, names: Callable[[int], str] = alice_and_bob) -> None:
        super().__init__(path, clock=lambda: T0)
        self._names = names

    def list_records(self, *, order: RecordOrder = "most_useful") -> list[MemoryRecord]:
        return [replace(r, key=replace(r.key, namespace=self._names(r.key.id))) for r in super().list_records(order=order)]


def browser(config: Path, store: Callable[[Path], MemoryStore]) -> MemoryBrowser:
    source = ConfigSource(config, "--config")
    return MemoryBrowser(source, config=read_config(source), store_factory=store, watch=False)


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
    app = browser(home_config, Namespaced if team else lambda path: MemoryStore(path, clock=lambda: T0))
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        if team:
            assert headings(app)[-2:] == ["NAMESPACE", "CONTENT"]
            assert column(app, "NAMESPACE") == ["alice" if id_ % 2 else "bob" for id_ in ids(app)]
        else:
            assert "NAMESPACE" not in headings(app)
        assert all(content.startswith(("In the", "The user", "Short", "CI for")) for content in column(app, "CONTENT"))
    assert db_of(home_config).exists()


@pytest.mark.anyio
async def test_a_namespace_cell_is_bounded_like_the_content_whatever_the_service_names(home_config: Path) -> None:
    seed(home_config)
    app = browser(home_config, lambda path: Namespaced(path, names=HOSTILE.__getitem__))
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        await pilot.pause()
        table = app.query_one(RecordTable)
        namespace = list(table.columns.values())[headings(app).index("NAMESPACE")]
        assert namespace.content_width <= namespace.width <= NAMESPACE_WIDTH  # drawn whole, in its own column
        cells = dict(zip(ids(app), column(app, "NAMESPACE")))
        for cell in cells.values():
            assert cell_len(cell) <= NAMESPACE_WIDTH and len(cell) <= CODE_POINTS_PER_CELL * NAMESPACE_WIDTH
            assert terminal_safe(cell) == cell and "\n" not in cell
        assert cells[1] == "a-very-long-nam…" and cells[2] == "中文名字空间中…" and cells[3] == "\ufffdvil"
        assert cells[4] == "\\u202eecila\\u20…"
        assert content_fills_the_row(app)



@pytest.mark.anyio
async def test_a_wide_namespace_gets_the_cells_it_takes_not_its_length(home_config: Path) -> None:
    seed(home_config)
    app = browser(home_config, lambda path: Namespaced(path, names=lambda id_: "中文" * id_))
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        await pilot.pause()
        namespace = list(app.query_one(RecordTable).columns.values())[headings(app).index("NAMESPACE")]
        assert namespace.content_width == namespace.width == 16  # 中文中文中文中文: eight characters, 16 cells
        assert content_fills_the_row(app)


def test_snapshot_list_of_hostile_namespaces(home_config: Path, snap_compare: Callable[..., bool]) -> None:
    seed(home_config)
    app = browser(home_config, lambda path: Namespaced(path, names=HOSTILE.__getitem__))
    assert snap_compare(app, run_before=settled, terminal_size=SIZE)


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
        assert app.team is not None and str(app.query_one("#problem-text", Static).content).startswith(
            "Team memory cannot be used (unreachable)."
        )
        assert "The browser reads it again every 2 s until this passes" in str(app.query_one("#problem-text", Static).content)
        assert app.shown == []  # never local memory instead

        write_config(home_config.parent)  # removed
        await wait_for(pilot, lambda: app.team is None and app.view == "records" and app.idle)
        assert ids(app) == [1, 2, 4, 3] and app.message.startswith("[memory.team] removed from config.toml")
