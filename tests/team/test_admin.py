"""Operations: token commands, migrations, ``serve --check``, and the team store's namespaces."""

from __future__ import annotations

import re
import subprocess
import sys
from typing import Any

import pytest

from tact_memory import errors
from tact_memory.limits import Limits
from tact_memory.records import RecordKey

from ..pgcluster import Server


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    import os

    return subprocess.run(
        [sys.executable, "-m", "tact_memory.cli", *args], capture_output=True, text=True, env={**os.environ, **(env or {})}
    )


def test_token_create_prints_only_the_token_and_list_never_shows_it(pg_database: str, admin: Any) -> None:
    made = cli("team", "token", "create", "--namespace", "alice", "--role", "writer", "--expires", "90d",
               env={"TACT_TEAM_DATABASE_URL": pg_database})  # fmt: skip
    assert made.returncode == 0, made.stderr
    token = made.stdout.strip()
    assert re.fullmatch(r"tmt_[A-Za-z0-9_-]{43}", token) and made.stdout == token + "\n"
    stored = admin.execute("SELECT token_hash FROM tokens").fetchall()
    assert all(token not in str(row) for row in stored)
    listed = cli("team", "token", "list", "--database", pg_database)
    assert listed.returncode == 0 and "alice" in listed.stdout and token not in listed.stdout + listed.stderr
    token_id = re.search(r"created token (\d+)", made.stderr).group(1)  # type: ignore[union-attr]
    assert cli("team", "token", "revoke", "--database", pg_database, token_id).returncode == 0
    again = cli("team", "token", "revoke", "--database", pg_database, token_id)
    assert again.returncode == 1 and "no active token" in again.stderr
    bad = cli("team", "token", "create", "--database", pg_database, "--namespace", "Alice!", "--role", "writer")
    assert bad.returncode == 2 and "namespace" in bad.stderr
    writer_limited = cli("team", "token", "create", "--database", pg_database, "--namespace", "a", "--role", "writer", "--read", "b")
    assert writer_limited.returncode == 2


def test_serve_check_reports_reachability_and_schema(pg_server: Server) -> None:
    import psycopg

    from tact_memory.team.migrations import SCHEMA_VERSION, NewerSchema, migrate

    dsn = pg_server.create_database("check")
    try:
        empty = cli("serve", "--check", "--database", dsn)
        assert empty.returncode == 1 and "schema version 0" in empty.stdout
        with psycopg.connect(dsn, autocommit=True) as conn:
            assert migrate(conn) == 0
            assert migrate(conn) == SCHEMA_VERSION  # idempotent
        current = cli("serve", "--check", "--database", dsn)
        assert current.returncode == 0 and "current" in current.stdout
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute("UPDATE tact_schema SET version = %s", (SCHEMA_VERSION + 1,))
            with pytest.raises(NewerSchema):
                migrate(conn)
            assert conn.execute("SELECT version FROM tact_schema").fetchone()[0] == SCHEMA_VERSION + 1
        newer = cli("serve", "--check", "--database", dsn)
        assert newer.returncode == 1 and "newer" in newer.stdout
        refused = cli("serve", "--database", dsn, "--listen", "127.0.0.1:1")
        assert refused.returncode == 1 and "newer" in refused.stderr
    finally:
        pg_server.drop_database(dsn)


@pytest.mark.parametrize("encoding", ["SQL_ASCII", "LATIN1"])
def test_a_database_not_in_utf8_is_refused_by_name_and_left_untouched(pg_server: Server, encoding: str) -> None:
    """SQL_ASCII stores bytes unchecked (psycopg hands its text back as bytes), LATIN1 cannot hold
    most scripts: migrate, serve, ``serve --check`` and the token commands all refuse either."""
    import os

    import psycopg

    from tact_memory.team.migrations import WrongEncoding, migrate

    name = f"enc_{encoding.lower()}_{os.getpid()}"
    with psycopg.connect(pg_server.admin_dsn, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f"CREATE DATABASE \"{name}\" TEMPLATE template0 ENCODING '{encoding}' LC_COLLATE 'C' LC_CTYPE 'C'")
    dsn = pg_server.dsn(name)
    try:
        with psycopg.connect(dsn, autocommit=True) as conn:
            with pytest.raises(WrongEncoding, match=f"encoding is {encoding}"):
                migrate(conn)
        checked = cli("serve", "--check", "--database", dsn)
        assert checked.returncode == 1 and f"encoding is {encoding}" in checked.stdout and "UTF8" in checked.stdout
        served = cli("serve", "--database", dsn, "--listen", "127.0.0.1:1")
        assert served.returncode == 1 and f"encoding is {encoding}" in served.stderr
        token = cli("team", "token", "create", "--database", dsn, "--namespace", "alice", "--role", "writer")
        assert token.returncode == 1 and f"encoding is {encoding}" in token.stderr and token.stdout == ""
        with psycopg.connect(dsn, autocommit=True) as conn:
            assert conn.execute("SELECT to_regclass('tact_schema') IS NULL").fetchone()[0] is True
    finally:
        pg_server.drop_database(dsn)


def test_the_service_talks_utf8_whatever_the_client_environment_says(
    pg_database: str, admin: Any, tmp_path: Any
) -> None:
    """A ``PGCLIENTENCODING`` other than UTF8 in the service's environment changes nothing it stores."""
    import time

    from tact_memory.team.tokens import create_token

    from .conftest import start_service, stop_service

    token, _ = create_token(admin, namespace="alice", role="writer", now_ms=time.time_ns() // 1_000_000)
    service = start_service(pg_database, tmp_path, env={"PGCLIENTENCODING": "LATIN1"})
    try:
        text = "デプロイには承認が二つ必要 🚀"
        put = service.call("POST", "/v1/put", token, json={"content": text})
        assert put.status_code == 200, put.text
        [memory] = service.call("POST", "/v1/read", token, json={"ids": [put.json()["memory"]["key"]["id"]]}).json()["memories"]
        assert memory["content"] == text
    finally:
        stop_service(service)


def test_an_unreachable_database_is_named_without_the_url() -> None:
    url = "postgresql://someone:hunter2-password@127.0.0.1:1/nothing"
    result = cli("serve", "--check", "--database", url)
    assert result.returncode == 1 and "cannot reach the team database" in result.stdout
    assert "hunter2" not in result.stdout + result.stderr


def test_writers_change_only_their_namespace_and_bounds_are_per_namespace(pg_database: str, admin: Any) -> None:
    from tact_memory.store.postgres import PostgresStore

    limits = Limits(rows=1)
    with PostgresStore(pg_database, namespace="alice", limits=limits) as alice, \
         PostgresStore(pg_database, namespace="bob", limits=limits) as bob:  # fmt: skip
        mine = alice.put("Alice's fact about the cron job").memory.key
        theirs = bob.put("Alice's fact about the cron job").memory.key  # duplicates are per namespace
        assert (mine.namespace, theirs.namespace) == ("alice", "bob") and mine.id != theirs.id
        with pytest.raises(errors.Forbidden):
            alice.delete(theirs)
        with pytest.raises(errors.Forbidden):
            alice.put("a new fact", replace=RecordKey(theirs.id, 1))
        with pytest.raises(errors.RecordCapacity):
            alice.put("a second fact for alice")
        assert {c.key.namespace for c in bob.scan("cron job")} == {"alice", "bob"}


def test_team_and_local_scans_of_the_same_records_give_the_same_order(pg_database: str, admin: Any, tmp_path: Any) -> None:
    from tact_memory.store.postgres import PostgresStore
    from tact_memory.store.sqlite import MemoryStore

    facts = [
        "The deploy script needs the staging flag", "Deploy with make deploy in the api repository",
        "The cache expires after ten minutes", "Run the deploy from the release branch only",
        "Staging deploys need one approval", "The api repository uses poetry",
    ]  # fmt: skip
    with PostgresStore(pg_database, namespace="alice") as team, MemoryStore(tmp_path / "m.sqlite3") as local:
        for fact in facts[:3]:
            team.put(fact)
        with PostgresStore(pg_database, namespace="bob") as bob:
            for fact in facts[3:]:
                bob.put(fact)
        for fact in facts:
            local.put(fact)
        for query in ("deploy staging", "api repository", "release branch deploy"):
            team_order = [(team.get(c.key.id).content, c.score) for c in team.scan(query)]  # type: ignore[union-attr]
            local_order = [(local.get(c.key.id).content, c.score) for c in local.scan(query)]  # type: ignore[union-attr]
            assert team_order == local_order


def test_a_request_over_the_timeout_is_answered_timeout(pg_database: str, admin: Any) -> None:
    from psycopg_pool import ConnectionPool
    from starlette.testclient import TestClient

    from tact_memory.team.app import ServiceLimits, create_app
    from tact_memory.team.tokens import create_token

    token, _ = create_token(admin, namespace="alice", role="writer", now_ms=0)
    with ConnectionPool(pg_database, min_size=1, max_size=2, open=True, kwargs={"autocommit": True}) as pool:
        slow = TestClient(create_app(pool, service=ServiceLimits(timeout_s=1e-6)))
        answer = slow.get("/v1/session", headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 504 and answer.json()["error"]["code"] == "timeout"
        fine = TestClient(create_app(pool)).get("/v1/session", headers={"Authorization": f"Bearer {token}"})
        assert fine.status_code == 200


def test_a_statement_the_database_cancels_is_answered_timeout_too(pg_database: str, admin: Any) -> None:
    """Whichever runs out first, the database's statement timeout (here the connection's own, shorter
    one, which a request's transaction must not raise) or the gate's clock, the answer is ``timeout``."""
    import psycopg
    from psycopg_pool import ConnectionPool
    from starlette.testclient import TestClient

    from tact_memory.team.app import ServiceLimits, create_app
    from tact_memory.team.tokens import create_token

    token, _ = create_token(admin, namespace="alice", role="writer", now_ms=0)
    auth = {"Authorization": f"Bearer {token}"}
    initialize = {
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}},
    }  # fmt: skip
    # Statements are cancelled after 0.3 s; the gate would wait 30 s.
    kwargs = {"autocommit": True, "options": "-c statement_timeout=300"}
    with ConnectionPool(pg_database, min_size=1, max_size=2, open=True, kwargs=kwargs) as pool:
        with TestClient(create_app(pool, service=ServiceLimits(timeout_s=30))) as client:
            for lock in ("tokens", "memories"):
                blocker = psycopg.connect(pg_database)
                try:
                    blocker.execute(f"LOCK TABLE {lock} IN ACCESS EXCLUSIVE MODE")
                    answers = [client.post("/v1/put", headers=auth, json={"content": "the deploy runs on fridays"})]
                    if lock == "tokens":
                        answers.append(
                            client.post("/mcp", headers={**auth, "Accept": "application/json, text/event-stream"}, json=initialize)
                        )
                finally:
                    blocker.rollback()
                    blocker.close()
                for answer in answers:
                    assert answer.status_code == 504 and answer.json()["error"]["code"] == "timeout", (lock, answer.text)
                if lock == "memories":
                    # The put's transaction lowers the statement timeout to the request's time left;
                    # it must not raise the connection's shorter one: the database cancels, not the gate.
                    assert "database cancelled" in answers[0].json()["error"]["message"], answers[0].text
            assert client.get("/v1/list", headers=auth).json()["records"] == []  # the cancelled put changed nothing


def test_serve_refuses_its_test_options_unless_test_hooks_are_enabled(monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from tact_memory.cli.app import cli

    monkeypatch.delenv("TACT_TEAM_TEST_HOOKS", raising=False)
    for option in (["--test-limits", '{"rows": 3}'], ["--test-clock-file", "/tmp/clock"]):
        result = CliRunner().invoke(cli, ["serve", "--database", "postgresql://nowhere/x", *option])
        assert result.exit_code == 2 and "TACT_TEAM_TEST_HOOKS=1" in result.output


def test_test_limits_take_known_positive_fields_only() -> None:
    from tact_memory.limits import DEFAULT_LIMITS
    from tact_memory.team.server import parse_test_limits

    assert parse_test_limits('{"rows": 3}').rows == 3
    assert parse_test_limits("{}") == DEFAULT_LIMITS
    for bad in ("[]", '{"rowz": 3}', '{"rows": 0}', '{"rows": true}', "not json", "[" * 100_000, '{"rows": 1' + "0" * 5_000 + "}"):
        with pytest.raises(ValueError):
            parse_test_limits(bad)


@pytest.mark.parametrize("read", ["", " , ", ","])
def test_a_reader_limited_to_no_namespace_is_refused(pg_database: str, admin: Any, read: str) -> None:
    """``--read ''`` would make a reader of its own namespace only, which no one asked for."""
    made = cli("team", "token", "create", "--database", pg_database, "--namespace", "ci", "--role", "reader", "--read", read)
    assert made.returncode == 2 and "--read names no namespace" in made.stderr and "tmt_" not in made.stdout
    assert admin.execute("SELECT count(*) FROM tokens WHERE namespace = 'ci'").fetchone()[0] == 0


def test_serve_says_where_it_serves_only_once_it_does(pg_database: str, tmp_path: Any) -> None:
    """On a port another program holds, the bind fails: no line says the service is up."""
    import socket

    from .conftest import start_service, stop_service

    service = start_service(pg_database, tmp_path)
    try:
        assert "tact-memory: team memory on " + service.url + "/v1" in service.log_text()
        port = service.url.rsplit(":", 1)[1]
        with socket.socket() as taken:
            taken.bind(("127.0.0.1", 0))
            taken.listen()
            other = taken.getsockname()[1]
            second = subprocess.run(
                [sys.executable, "-m", "tact_memory.cli", "serve", "--database", pg_database, "--listen", f"127.0.0.1:{other}"],
                capture_output=True, text=True, timeout=60,
            )  # fmt: skip
        assert second.returncode != 0 and "team memory on" not in second.stderr, second.stderr
        assert port != str(other)
    finally:
        stop_service(service)
