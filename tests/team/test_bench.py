"""``tact-memory bench --team``: figures for each side, computed against a real database, and cleaned up."""

from __future__ import annotations

from typing import Any

from click.testing import CliRunner

from tact_memory.cli.app import cli
from tact_memory.team.bench import run_team_bench


def test_team_bench_times_http_store_and_local_and_removes_what_it_wrote(pg_database: str, admin: Any) -> None:
    admin.execute("DELETE FROM tokens")
    report = run_team_bench(pg_database, namespaces=3, records=20, queries=6, writes=3)
    assert set(report.operations) == {"http", "store", "local"}
    for side in report.operations.values():
        assert set(side) == {"scan", "put"}
        assert side["scan"]["n"] == 6 and side["put"]["n"] == 3
        assert 0 < side["scan"]["p50_ms"] <= side["scan"]["p95_ms"]
        assert 0 < side["put"]["p50_ms"] <= side["put"]["p95_ms"]
    text = report.render()
    assert "3 namespaces x 20 records (60)" in text and text.count("http") >= 2
    assert report.to_json()["records_per_namespace"] == 20
    # Nothing of the run is left: rows, namespaces and its token.
    assert admin.execute("SELECT count(*) FROM memories").fetchone()[0] == 0
    assert admin.execute("SELECT count(*) FROM generations").fetchone()[0] == 0
    assert admin.execute("SELECT count(*) FROM tokens").fetchone()[0] == 0


def test_bench_team_without_a_database_says_so_in_one_line() -> None:
    result = CliRunner().invoke(cli, ["bench", "--team"], env={"TACT_TEAM_DATABASE_URL": None})
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "tact-memory: bench --team needs a PostgreSQL URL: --database URL or TACT_TEAM_DATABASE_URL"
    ]


def test_bench_team_with_an_unreachable_database_fails_without_echoing_it() -> None:
    url = "postgresql://bench:s3cret-pw@127.0.0.1:1/nowhere"
    result = CliRunner().invoke(cli, ["bench", "--team", "--database", url])
    assert result.exit_code == 1
    assert "cannot reach the team database" in result.output and "s3cret" not in result.output
