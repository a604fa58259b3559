"""``team push`` and ``team pull`` against a real ``serve`` process, and the token's hygiene."""

from __future__ import annotations

import json
import logging
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from tact_memory.cli.app import cli
from tact_memory.store.sqlite import MemoryStore

from ..conftest import write_config
from .conftest import Service, corpus


def configured(tmp_path: Path, endpoint: str) -> Path:
    return write_config(
        tmp_path / "tact", extra=f'[memory.team]\nendpoint = "{endpoint}"\ntoken_env = "TACT_TEST_TEAM_TOKEN"\n'
    )


def run(config: Path, token: str, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--config", str(config), *args], env={"TACT_TEST_TEAM_TOKEN": token})


def team_rows(admin: Any, namespace: str) -> list[tuple[str, Any]]:
    return admin.execute(
        "SELECT content, probation_until_ms FROM memories WHERE namespace = %s ORDER BY id", (namespace,)
    ).fetchall()


def test_push_adds_what_the_namespace_lacks_and_deletes_only_with_prune(
    tmp_path: Path, service: Service, make_token: Callable[..., str], admin: Any
) -> None:
    alice = make_token("alice")
    config = configured(tmp_path, service.url)
    with MemoryStore(config.parent / "memory" / "v1.sqlite3") as local:
        read = local.put("The billing API deploys on Tuesdays").memory.key
        local.read([read.id])
        local.put("The docs site builds with mkdocs")
        local.put("the  BILLING api deploys on tuesdays.".replace(".", " now"))  # a different fact
    service.call("POST", "/v1/put", alice, json={"content": "the billing api   deploys on TUESDAYS"})
    service.call("POST", "/v1/put", alice, json={"content": "Only the service knows this fact"})
    service.call("POST", "/v1/put", make_token("bob"), json={"content": "Bob's fact stays Bob's"})
    before = corpus(admin)

    dry = run(config, alice, "team", "push", "--dry-run", "--prune")
    assert dry.exit_code == 0, dry.output
    assert "would be added 2, would be deleted 1, unchanged 1" in dry.output and "dry run" in dry.output
    assert corpus(admin) == before

    pushed = run(config, alice, "team", "push")
    assert pushed.exit_code == 0, pushed.output
    assert "added 2, deleted 0, unchanged 1, refused 0; 1 record(s) only on the service kept" in pushed.output
    rows = team_rows(admin, "alice")
    assert [content for content, _ in rows] == [
        "the billing api   deploys on TUESDAYS", "Only the service knows this fact",
        "The docs site builds with mkdocs", "the  BILLING api deploys on tuesdays now",
    ]  # fmt: skip
    assert rows[2][1] is not None  # unread locally: still on probation on the service

    pruned = run(config, alice, "team", "push", "--prune")
    assert pruned.exit_code == 0 and "deleted 1" in pruned.output
    assert "Only the service knows this fact" not in [c for c, _ in team_rows(admin, "alice")]
    assert [content for content, _ in team_rows(admin, "bob")] == ["Bob's fact stays Bob's"]  # never another's


def test_pull_merges_chosen_namespaces_and_names_each_author(
    tmp_path: Path, service: Service, make_token: Callable[..., str], admin: Any
) -> None:
    alice, bob, carol = make_token("alice"), make_token("bob"), make_token("carol")
    ids = {}
    for token, name, content in ((bob, "bob", "Bob says the cache is Redis"), (bob, "bob", "Bob says CI runs on Buildkite"),
                                 (carol, "carol", "Carol says releases are cut on Fridays")):  # fmt: skip
        ids[content] = service.call("POST", "/v1/put", token, json={"content": content}).json()["memory"]["key"]["id"]
    config = configured(tmp_path, service.url)
    database = config.parent / "memory" / "v1.sqlite3"
    with MemoryStore(database) as local:
        local.put("bob says the cache is redis")  # already known locally

    first = run(config, alice, "team", "pull", "--namespace", "bob")
    assert first.exit_code == 0, first.output
    assert f"bob memory {ids['Bob says the cache is Redis']}: already in local memory" in first.output
    assert f"bob memory {ids['Bob says CI runs on Buildkite']}: added as local memory 2" in first.output
    assert "carol" not in first.output

    every = run(config, alice, "team", "pull", "--all", "--json")
    lines = [json.loads(line) for line in every.output.splitlines()]
    assert {(x["namespace"], x["outcome"]) for x in lines} == {("bob", "already_local"), ("carol", "added")}
    with MemoryStore(database) as local:
        contents = {r.content: r for r in local.export()}
    assert set(contents) == {"bob says the cache is redis", "Bob says CI runs on Buildkite", "Carol says releases are cut on Fridays"}
    assert contents["Carol says releases are cut on Fridays"].probation_until_ms is None  # a person's pull
    assert run(config, alice, "team", "pull").exit_code == 2  # --all or --namespace


def test_pull_is_all_or_nothing_when_local_memory_cannot_hold_everything(
    tmp_path: Path, service: Service, make_token: Callable[..., str]
) -> None:
    alice, bob = make_token("alice"), make_token("bob")
    for i in range(2):
        service.call("POST", "/v1/put", bob, json={"content": f"fact {i} " + "b" * 590})
    config = configured(tmp_path, service.url)
    with MemoryStore(config.parent / "memory" / "v1.sqlite3") as local:
        for i in range(255):
            local.put(f"{i:04d} " + "x" * 1019, probation=False)  # 1,024 bytes each: 1,024 bytes of room left
        before = list(local.export())
    database = config.parent / "memory" / "v1.sqlite3"
    file_before = database.read_bytes()
    refused = run(config, alice, "team", "pull", "--namespace", "bob")
    assert refused.exit_code == 1
    assert "content_capacity" in refused.output and "nothing was pulled" in refused.output
    assert "cannot take the 2 new record(s)" in refused.output  # the pull as a whole did not fit
    assert database.read_bytes() == file_before
    with MemoryStore(database) as local:
        assert list(local.export()) == before


# `tact-memory team pull`, as installed, except that the batch write stops after its second row
# (inside the transaction) and says so, so that the test can kill the process there.
_PULL_STOPPED_INSIDE = """
import sys, time
from tact_memory.store.sqlite import MemoryStore

put_many = MemoryStore.put_many
def stopping(self, contents, **options):
    written = []
    def after(result):
        written.append(result)
        if len(written) == 2:
            print("two rows written", flush=True)
            time.sleep(60)
    return put_many(self, contents, **options, on_put=after)
MemoryStore.put_many = stopping

from tact_memory.cli.app import cli
cli(sys.argv[1:], prog_name="tact-memory")
"""


def test_a_pull_killed_inside_its_transaction_leaves_nothing_of_itself(
    tmp_path: Path, service: Service, make_token: Callable[..., str]
) -> None:
    import os
    import signal
    import subprocess
    import sys

    alice, bob = make_token("alice"), make_token("bob")
    for i in range(4):
        service.call("POST", "/v1/put", bob, json={"content": f"Bob's fact {i} about service{i}"})
    config = configured(tmp_path, service.url)
    database = config.parent / "memory" / "v1.sqlite3"
    with MemoryStore(database) as local:
        local.put("a local fact about the cache", probation=False)
        before = list(local.export())
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root), "TACT_TEST_TEAM_TOKEN": alice}
    puller = subprocess.Popen(
        [sys.executable, "-c", _PULL_STOPPED_INSIDE, "--config", str(config), "team", "pull", "--namespace", "bob"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env,
    )  # fmt: skip
    try:
        assert puller.stdout is not None and puller.stdout.readline() == "two rows written\n"
    finally:
        puller.send_signal(signal.SIGKILL)
        puller.wait(30)
        assert puller.stdout is not None
        puller.stdout.close()
    assert puller.returncode == -signal.SIGKILL
    with MemoryStore(database) as local:
        assert list(local.export()) == before  # rolled back from the journal on this first open
    whole = run(config, alice, "team", "pull", "--namespace", "bob")  # and the next pull is whole
    assert whole.exit_code == 0 and "pulled 4 record(s) of 4" in whole.output


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_the_token_appears_in_no_error_status_log_or_result(
    tmp_path: Path, service: Service, make_token: Callable[..., str], admin: Any, caplog: pytest.LogCaptureFixture
) -> None:
    from tact_memory.store.remote import RemoteStore
    from tact_memory.tool.guard import Dispatcher, Role

    caplog.set_level(logging.DEBUG)
    token = make_token("alice")
    seen: list[str] = []
    down = configured(tmp_path / "down", f"http://127.0.0.1:{_closed_port()}")
    up = configured(tmp_path / "up", service.url)
    work = ["--workspace", str(tmp_path)]
    for config in (down, up):
        text = config.read_text() + f'workspace_roots = ["{tmp_path}"]\n'
        config.write_text(text)
    admin.execute("UPDATE tokens SET revoked_at_ms = 1")  # the live service now refuses every token
    for config in (down, up):
        for args in (["status"], ["status", "--json"], ["list"], ["tool", '{"operation": "scan", "query": "x"}'],
                     ["team", "push"], ["team", "pull", "--all"]):  # fmt: skip
            result = run(config, token, *work, *args)
            seen.append(result.output)
            assert "unavailable" in result.output or "problem" in result.output or "could not" in result.output \
                or "revoked" in result.output, (args, result.output)  # fmt: skip
    for endpoint in (f"http://127.0.0.1:{_closed_port()}", service.url):
        store = RemoteStore(endpoint, token)
        with store:
            outcome = Dispatcher(store, role=Role.ROOT).call({"operation": "put", "content": "a fact"})
            seen += [json.dumps(outcome), repr(store), repr(store.status())]
    seen += [record.getMessage() for record in caplog.records]
    seen.append(service.log_text())
    assert all(token not in text and token[4:24] not in text for text in seen)
    assert any("token_revoked" in text for text in seen) and any("unreachable" in text for text in seen)
