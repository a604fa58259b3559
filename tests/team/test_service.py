"""The team service over HTTP: real ``serve`` processes on a real PostgreSQL database."""

from __future__ import annotations

import base64
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from .conftest import Service, corpus

SECRET = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


def test_session_names_the_credential(service: Service, make_token: Callable[..., str]) -> None:
    answer = service.call("GET", "/v1/session", make_token("alice", "writer"))
    assert answer.status_code == 200
    from tact_memory.limits import DEFAULT_LIMITS

    assert answer.json() == {
        "namespace": "alice", "role": "writer", "readable": None, "protocol": 1,
        "limits": {
            "record_bytes": 1024, "rows": 512, "content_bytes": 262_144, "file_bytes": 4 * 1024 * 1024,
            "page_size": 4096, "scan_results": 5, "preview_bytes": 64, "query_bytes": 512,
            "probation_ms": DEFAULT_LIMITS.probation_ms,
        },
        "read_ids": 389,  # as many as a namespace holds rows, but this service takes 8,192-byte bodies
    }  # fmt: skip
    limited = service.call("GET", "/v1/session", make_token("carol", "reader", readable=("alice",)))
    assert limited.json()["readable"] == ["alice", "carol"]


def test_put_scan_read_list_get_status_and_delete(service: Service, make_token: Callable[..., str], admin: Any) -> None:
    alice = make_token("alice")
    put = service.call("POST", "/v1/put", alice, json={"content": "The billing-api deploys need approval"})
    assert put.status_code == 200, put.text
    key = put.json()["memory"]["key"]
    assert key["namespace"] == "alice" and key["version"] == 1
    cards = service.call("POST", "/v1/scan", alice, json={"query": "billing deploys"}).json()["candidates"]
    assert [c["key"] for c in cards] == [key]
    [memory] = service.call("POST", "/v1/read", alice, json={"ids": [key["id"]]}).json()["memories"]
    assert memory["read_count"] == 1 and memory["probation_until_ms"] is None
    listed = service.call("GET", "/v1/list?order=newest", alice).json()["records"]
    assert [(r["key"]["id"], r["hidden"]) for r in listed] == [(key["id"], None)]
    got = service.call("GET", f"/v1/records/{key['id']}", alice).json()["memory"]
    assert got["scan_count"] == 1 and got["read_count"] == 1  # people's views count nothing
    assert service.call("GET", "/v1/status", alice).json()["rows"] == 1
    replaced = service.call(
        "POST", "/v1/put", alice, json={"content": "The billing-api deploys need two approvals", "replace": key}
    ).json()
    assert replaced["replaced"] is True and replaced["memory"]["key"]["version"] == 2
    stale = service.call("POST", "/v1/delete", alice, json=key)
    assert stale.status_code == 409
    assert stale.json()["error"] == {
        "code": "version_conflict", "message": stale.json()["error"]["message"], "id": key["id"], "current_version": 2,
    }  # fmt: skip
    gone = service.call("POST", "/v1/delete", alice, json=replaced["memory"]["key"])
    assert gone.status_code == 200
    assert service.call("GET", f"/v1/records/{key['id']}", alice).json()["error"]["code"] == "not_found"


def test_export_pages_are_stable_under_concurrent_changes(service: Service, make_token: Callable[..., str]) -> None:
    alice = make_token("alice")
    ids = [
        service.call("POST", "/v1/put", alice, json={"content": f"fact {i} about subsystem{i}"}).json()["memory"]["key"]["id"]
        for i in range(5)
    ]
    first = service.call("GET", "/v1/export?limit=2", alice).json()
    assert [r["key"]["id"] for r in first["records"]] == ids[:2] and first["cursor"]
    # a deletion before the boundary and an insertion after it move no record across the page boundary
    service.call("POST", "/v1/delete", alice, json={"id": ids[0], "version": 1})
    new = service.call("POST", "/v1/put", alice, json={"content": "fact 9 about subsystem9"}).json()["memory"]["key"]["id"]
    seen = [r["key"]["id"] for r in first["records"]]
    cursor = first["cursor"]
    while cursor:
        page = service.call("GET", f"/v1/export?limit=2&cursor={cursor}", alice).json()
        seen += [r["key"]["id"] for r in page["records"]]
        cursor = page["cursor"]
    assert seen == ids + [new]
    deep = base64.urlsafe_b64encode(b"[" * 3_000).decode().rstrip("=")  # nested deeper than the decoder goes
    for cursor in ("not-a-cursor", deep):
        bad = service.call("GET", f"/v1/export?cursor={cursor}", alice)
        assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid_arguments"


def test_sync_pushes_several_records_with_one_result_each(service: Service, make_token: Callable[..., str]) -> None:
    alice = make_token("alice")
    answer = service.call(
        "POST", "/v1/sync", alice,
        json={"records": [{"content": "The cron job runs hourly", "probation": False},
                          {"content": "the CRON job   runs hourly"},
                          {"content": f"token {SECRET}"}]},
    ).json()  # fmt: skip
    first, duplicate, secret = answer["results"]
    assert first["memory"]["probation_until_ms"] is None
    assert duplicate["error"]["code"] == "duplicate" and duplicate["error"]["key"]["id"] == first["memory"]["key"]["id"]
    assert secret["error"]["code"] == "secret_rejected" and SECRET not in str(secret)


def test_limited_readers_and_namespaces(service: Service, make_token: Callable[..., str]) -> None:
    alice, bob = make_token("alice"), make_token("bob")
    a = service.call("POST", "/v1/put", alice, json={"content": "Shared fact about the staging cluster"}).json()
    b = service.call("POST", "/v1/put", bob, json={"content": "Shared fact about the staging cluster"})
    assert b.status_code == 200, "duplicates are per namespace"
    everyone = make_token("carol", "reader")
    only_bob = make_token("dave", "reader", readable=("bob",))
    both = {c["key"]["namespace"] for c in service.call("POST", "/v1/scan", everyone, json={"query": "staging cluster"}).json()["candidates"]}
    assert both == {"alice", "bob"}
    cards = service.call("POST", "/v1/scan", only_bob, json={"query": "staging cluster"}).json()["candidates"]
    assert [c["key"]["namespace"] for c in cards] == ["bob"]
    assert service.call("POST", "/v1/read", only_bob, json={"ids": [a["memory"]["key"]["id"]]}).json() == {"memories": []}
    assert service.call("GET", f"/v1/records/{a['memory']['key']['id']}", only_bob).status_code == 404


REFUSALS = [
    "no_token", "wrong_token", "malformed_token", "expired_token", "revoked_token",
    "reader_put", "reader_delete", "reader_sync", "writer_replaces_another_namespace", "writer_deletes_another_namespace",
    "key_names_another_namespace", "namespace_assertion",
]  # fmt: skip


@pytest.mark.parametrize("case", REFUSALS)
def test_every_authorization_refusal_is_named_and_changes_nothing(
    service: Service, make_token: Callable[..., str], admin: Any, case: str
) -> None:
    bob = make_token("bob")
    theirs = service.call("POST", "/v1/put", bob, json={"content": "Bob's fact about the queue worker"}).json()["memory"]["key"]
    alice = make_token("alice")
    mine = service.call("POST", "/v1/put", alice, json={"content": "Alice's fact about the cron job"}).json()["memory"]["key"]
    put = {"content": "A new fact about the cache layer"}
    expired = make_token("alice", expires_in_ms=1)
    revoked = make_token("alice")
    admin.execute("UPDATE tokens SET revoked_at_ms = 1 WHERE token_hash = encode(sha256(%s::bytea), 'hex')", (revoked.encode(),))
    time.sleep(0.01)
    calls: dict[str, tuple[str, str, str | None, dict[str, Any], dict[str, str], int, str]] = {
        "no_token": ("POST", "/v1/put", None, put, {}, 401, "token_missing"),
        "wrong_token": ("POST", "/v1/put", "tmt_" + "x" * 43, put, {}, 401, "token_invalid"),
        "malformed_token": ("POST", "/v1/put", "secret", put, {}, 401, "token_invalid"),
        "expired_token": ("POST", "/v1/put", expired, put, {}, 401, "token_expired"),
        "revoked_token": ("POST", "/v1/put", revoked, put, {}, 401, "token_revoked"),
        "reader_put": ("POST", "/v1/put", make_token("alice", "reader"), put, {}, 403, "forbidden"),
        "reader_delete": ("POST", "/v1/delete", make_token("alice", "reader"), mine, {}, 403, "forbidden"),
        "reader_sync": ("POST", "/v1/sync", make_token("alice", "reader"), {"records": [put]}, {}, 403, "forbidden"),
        "writer_replaces_another_namespace": (
            "POST", "/v1/put", alice, {**put, "replace": {"id": theirs["id"], "version": 1}}, {}, 403, "forbidden"),
        "writer_deletes_another_namespace": (
            "POST", "/v1/delete", alice, {"id": theirs["id"], "version": 1}, {}, 403, "forbidden"),
        "key_names_another_namespace": (
            "POST", "/v1/delete", alice, {**mine, "namespace": "bob"}, {}, 403, "forbidden"),
        "namespace_assertion": ("POST", "/v1/put", alice, put, {"X-Tact-Namespace": "bob"}, 403, "namespace_mismatch"),
    }  # fmt: skip
    method, path, token, body, headers, status, code = calls[case]
    before = corpus(admin)
    answer = service.call(method, path, token, json=body, headers=headers)
    assert (answer.status_code, answer.json()["error"]["code"]) == (status, code)
    assert corpus(admin) == before
    if token is not None:
        assert token not in answer.text


def test_bodies_over_the_cap_and_bad_json_are_refused(service: Service, make_token: Callable[..., str], admin: Any) -> None:
    alice = make_token("alice")
    big = service.call("POST", "/v1/sync", alice, json={"records": [{"content": "x" * 1000}] * 10})
    assert big.status_code == 413 and big.json()["error"]["code"] == "body_too_large"
    bad = service.call("POST", "/v1/put", alice, content=b"{not json", headers={"Content-Type": "application/json"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid_arguments"
    extra = service.call("POST", "/v1/put", alice, json={"content": "fine", "sneaky": SECRET})
    assert extra.json()["error"]["code"] == "invalid_arguments" and SECRET not in extra.text
    assert corpus(admin) == []


def test_a_raw_put_is_refused_for_its_content_before_its_key(service: Service, make_token: Callable[..., str], admin: Any) -> None:
    """A client that does not screen (not this package's) gets the codes local memory gives."""
    alice = make_token("alice")
    for content, code in (("x" * 2000, "content_too_large"), (f"The deploy token for ci is {SECRET}", "secret_rejected")):
        answer = service.call("POST", "/v1/put", alice, json={"content": content, "replace": {"id": 1, "version": 0}})
        assert (answer.status_code, answer.json()["error"]["code"]) == (422, code)
        assert SECRET not in answer.text
    assert corpus(admin) == []


def test_errors_and_logs_carry_no_content_tokens_or_diagnostics(
    services: list[Service], make_token: Callable[..., str]
) -> None:
    service = services[0]
    alice = make_token("alice")
    content = "The unusual-marker-7781 record"
    service.call("POST", "/v1/put", alice, json={"content": content})
    refused = service.call("POST", "/v1/put", alice, json={"content": f"deploy token {SECRET}"})
    assert refused.json()["error"]["code"] == "secret_rejected" and SECRET not in refused.text
    service.call("POST", "/v1/scan", alice, json={"query": "unusual-marker-7781"})
    service.call("POST", "/v1/put", "tmt_" + "y" * 43, json={"content": content})
    log = service.log_text()
    assert '"path":"/v1/put"' in log and '"code":"secret_rejected"' in log  # the access log is written
    for needle in (alice, alice[4:20], "tmt_" + "y" * 43, content, "unusual-marker", SECRET, "postgres", "host="):
        assert needle not in log


@pytest.mark.parametrize("rounds", [3])
def test_two_servers_keep_one_winner_per_version(
    services: list[Service], make_token: Callable[..., str], admin: Any, rounds: int
) -> None:
    alice = make_token("alice")
    key = services[0].call("POST", "/v1/put", alice, json={"content": "contended fact version 0"}).json()["memory"]["key"]
    for round_ in range(rounds):
        outcomes: list[str] = []

        def replace(n: int) -> None:
            answer = services[n % 2].call(
                "POST", "/v1/put", alice, json={"content": f"contended fact round {round_} writer {n}", "replace": key}
            )
            outcomes.append("ok" if answer.status_code == 200 else answer.json()["error"]["code"])

        threads = [threading.Thread(target=replace, args=(n,)) for n in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(outcomes) == ["ok"] + ["version_conflict"] * 7
        key = {**key, "version": key["version"] + 1}
        assert admin.execute("SELECT version FROM memories WHERE id = %s", (key["id"],)).fetchone()[0] == key["version"]


def test_two_servers_keep_the_row_bound_exact(
    services: list[Service], make_token: Callable[..., str], admin: Any
) -> None:
    from tact_memory.limits import DEFAULT_LIMITS

    alice = make_token("alice")
    room = 3
    with admin.transaction():
        for i in range(DEFAULT_LIMITS.rows - room):
            admin.execute(
                "INSERT INTO memories (namespace, version, content, created_at_ms, updated_at_ms)"
                " VALUES ('alice', 1, %s, 0, 0)",
                (f"planted fact {i}",),
            )
        admin.execute("INSERT INTO generations (namespace) VALUES ('alice')")
    outcomes: list[str] = []

    def put(n: int) -> None:
        answer = services[n % 2].call("POST", "/v1/put", alice, json={"content": f"racing fact number {n}"})
        outcomes.append("ok" if answer.status_code == 200 else answer.json()["error"]["code"])

    threads = [threading.Thread(target=put, args=(n,)) for n in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["ok"] * room + ["record_capacity"] * (10 - room)
    rows = admin.execute("SELECT count(*) FROM memories WHERE namespace = 'alice'").fetchone()[0]
    assert rows == DEFAULT_LIMITS.rows
    # another namespace has its own bound
    assert services[1].call("POST", "/v1/put", make_token("bob"), json={"content": "bob has room"}).status_code == 200


def test_a_body_naming_a_field_twice_is_refused_and_changes_nothing(
    service: Service, make_token: Callable[..., str], admin: Any
) -> None:
    """JSON leaves open which of two values counts; a proxy or a checker in front may read the first."""
    alice = make_token("alice")
    put = service.call("POST", "/v1/put", alice, json={"content": "The billing service deploys on Fridays."})
    key = put.json()["memory"]["key"]
    before = corpus(admin)
    bodies = {
        "/v1/delete": f'{{"id": {key["id"]}, "version": 99, "version": {key["version"]}}}',
        "/v1/put": '{"content": "harmless words", "content": "the second value"}',
        "/v1/scan": '{"query": "billing", "query": "deploys"}',
    }
    for path, body in bodies.items():
        answer = service.call("POST", path, alice, content=body.encode(), headers={"Content-Type": "application/json"})
        assert (answer.status_code, answer.json()["error"]["code"]) == (400, "invalid_arguments"), path
        assert "twice" in answer.json()["error"]["message"]
    assert corpus(admin) == before


@pytest.mark.parametrize(
    ("method", "path", "status", "code"),
    [
        ("GET", "/v1/records/" + "9" * 4301, 400, "invalid_arguments"),
        ("GET", "/v1/records/-1", 400, "invalid_arguments"),
        ("GET", "/v1/records/1_0", 400, "invalid_arguments"),
        ("GET", "/v1/records/%D9%A3", 400, "invalid_arguments"),
        ("GET", "/v1/records/0", 400, "invalid_arguments"),
        ("GET", "/v1/nothing", 404, "not_found"),
        ("GET", "/", 404, "not_found"),
        ("DELETE", "/v1/put", 405, "method_not_allowed"),
        ("GET", "/v1/scan", 405, "method_not_allowed"),
        ("PUT", "/mcp", 405, "method_not_allowed"),
    ],
)
def test_every_answer_is_a_named_json_error_with_its_access_log_line(
    service: Service, make_token: Callable[..., str], method: str, path: str, status: int, code: str
) -> None:
    """Paths and methods the service has no route for, and record ids no row can have, are answered
    like any other refusal: never Starlette's plain text, and never a traceback in the log."""
    alice = make_token("alice")
    lines = len(service.log_text().splitlines())
    answer = service.call(method, path, alice)
    assert (answer.status_code, answer.headers["content-type"]) == (status, "application/json")
    assert answer.json()["error"]["code"] == code
    if status == 405:
        assert answer.headers.get("allow")
    new = service.log_text().splitlines()[lines:]
    assert "Traceback" not in "\n".join(new)
    assert any(f'"code":"{code}"' in line and f'"status":{status}' in line for line in new)
