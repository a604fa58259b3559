"""A team store's records show who wrote them; local records look as they always did."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from tact_memory.browser import MemoryBrowser
from tact_memory.browser.app import RecordTable
from tact_memory.config.loading import ConfigSource, read_config
from tact_memory.records import MemoryRecord, RecordOrder
from tact_memory.store.sqlite import MemoryStore

from .test_app import SIZE, T0, anyio_backend, db_of, home_config, seed  # noqa: F401  (fixtures)


class Namespaced(MemoryStore):
    """The local store, listing its records as a team store does: keys carry an author."""

    def list_records(self, *, order: RecordOrder = "most_useful") -> list[MemoryRecord]:
        return [
            replace(r, key=replace(r.key, namespace="alice" if r.key.id % 2 else "bob"))
            for r in super().list_records(order=order)
        ]


@pytest.mark.anyio
@pytest.mark.parametrize("team", [True, False])
async def test_the_content_column_starts_with_the_author_on_a_team_store(home_config: Path, team: bool) -> None:
    seed(home_config)
    source = ConfigSource(home_config, "--config")
    kind = Namespaced if team else MemoryStore
    app = MemoryBrowser(
        source, config=read_config(source), store_factory=lambda path: kind(path, clock=lambda: T0), watch=False
    )
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = app.query_one(RecordTable)
        cells = {str(table.get_row_at(i)[0]): str(table.get_row_at(i)[-1]) for i in range(table.row_count)}
        assert len(cells) == 4
        for id_, content in cells.items():
            author = ("alice · " if int(id_) % 2 else "bob · ") if team else ""
            assert content.startswith(author) and ("·" in content) == team
    assert db_of(home_config).exists()
