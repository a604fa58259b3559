"""The service's bounds hold for every route, ``/mcp`` included: real concurrent requests, real ``serve``."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pytest

from .conftest import Service, start_service, stop_service

INITIALIZE = {
    "jsonrpc": "2.0", "id": 1, "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}},
}  # fmt: skip
MCP_HEADERS = {"Accept": "application/json, text/event-stream"}


def mcp_initialize(service: Service, token: str, timeout: float = 30) -> Any:
    return service.call("POST", "/mcp", token, json=INITIALIZE, headers=MCP_HEADERS, timeout=timeout)


@pytest.fixture(scope="module")
def capped(pg_database: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    """A ``serve`` process that handles two requests at once and answers within three seconds."""
    folder = tmp_path_factory.mktemp("capped")
    service = start_service(pg_database, folder, "--max-in-flight", "2", "--timeout", "3", "--max-body", "8192")
    yield service
    stop_service(service)


def blocked_on_tokens(dsn: str) -> Any:
    """A transaction holding the tokens table, so every request waits at authentication (inside its slot)."""
    import psycopg

    conn = psycopg.connect(dsn)
    conn.execute("LOCK TABLE tokens IN ACCESS EXCLUSIVE MODE")
    return conn


def wait_for_waiters(admin: Any, count: int) -> None:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        waiting = admin.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()"
        ).fetchone()[0]
        if waiting >= count:
            return
        time.sleep(0.05)
    raise AssertionError(f"{count} requests never reached the database")


@pytest.mark.parametrize("held_by", ["mcp", "json"])
def test_mcp_and_json_requests_share_the_in_flight_cap(
    capped: Service, pg_database: str, admin: Any, make_token: Callable[..., str], held_by: str
) -> None:
    token = make_token("alice")
    hold: Callable[[], Any] = (
        (lambda: mcp_initialize(capped, token)) if held_by == "mcp" else (lambda: capped.call("GET", "/v1/session", token))
    )
    blocker = blocked_on_tokens(pg_database)
    with ThreadPoolExecutor(2) as pool:
        try:
            held: list[Future[Any]] = [pool.submit(hold) for _ in range(2)]
            wait_for_waiters(admin, 2)
            # Both slots are taken: the third request, of either kind, is refused at once by name.
            started = time.monotonic()
            json_answer = capped.call("GET", "/v1/session", token, timeout=2)
            mcp_answer = mcp_initialize(capped, token, timeout=2)
            assert time.monotonic() - started < 2
            for answer in (json_answer, mcp_answer):
                assert answer.status_code == 503 and answer.json()["error"]["code"] == "busy"
                assert "mcp-session-id" not in answer.headers
        finally:
            blocker.rollback()
            blocker.close()
        assert [f.result().status_code for f in held] == [200, 200]
    # With the slots free again, both kinds are served.
    assert capped.call("GET", "/v1/session", token).status_code == 200
    assert mcp_initialize(capped, token).status_code == 200
    log = capped.log_text()
    assert '"path":"/mcp","status":503,"code":"busy"' in log


def test_an_mcp_request_over_the_timeout_is_answered_timeout(
    capped: Service, pg_database: str, make_token: Callable[..., str]
) -> None:
    token = make_token("alice")
    blocker = blocked_on_tokens(pg_database)
    try:
        started = time.monotonic()
        answer = mcp_initialize(capped, token, timeout=20)
        elapsed = time.monotonic() - started
    finally:
        blocker.rollback()
        blocker.close()
    assert answer.status_code == 504 and answer.json()["error"]["code"] == "timeout"
    assert 2.5 < elapsed < 6
    assert mcp_initialize(capped, token).status_code == 200  # the slot was given back


def test_an_mcp_body_over_the_cap_is_refused_before_any_handling(capped: Service, make_token: Callable[..., str]) -> None:
    token = make_token("alice")
    big = {**INITIALIZE, "params": {**INITIALIZE["params"], "padding": "x" * 9000}}  # type: ignore[dict-item]
    answer = capped.call("POST", "/mcp", token, json=big, headers=MCP_HEADERS)
    assert answer.status_code == 413 and answer.json()["error"]["code"] == "body_too_large"
    assert "mcp-session-id" not in answer.headers
    # Sent in chunks without a declared length, it is cut off the same way.
    chunks = (b'{"padding": "' + b"x" * 1024 for _ in range(9))
    streamed = capped.call("POST", "/mcp", token, content=chunks, headers=MCP_HEADERS)
    assert streamed.status_code == 413 and streamed.json()["error"]["code"] == "body_too_large"


def test_mcp_offers_no_event_stream_to_hold_open(capped: Service, make_token: Callable[..., str]) -> None:
    token = make_token("alice")
    answer = capped.call("GET", "/mcp", token, headers={"Accept": "text/event-stream"}, timeout=5)
    assert answer.status_code == 405 and answer.json()["error"]["code"] == "method_not_allowed"
    assert answer.headers["allow"] == "POST, DELETE"




def stalled_body(service: Service, path: str, token: str | None) -> Any:
    """A raw connection that sends the headers and one byte of a 100-byte body, then goes quiet."""
    import socket
    from urllib.parse import urlsplit

    parts = urlsplit(service.url)
    sock = socket.create_connection((parts.hostname, parts.port))
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    sock.sendall(
        f"POST {path} HTTP/1.1\r\nHost: x\r\n{auth}Content-Type: application/json\r\n"
        f"Accept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{{".encode()
    )
    return sock


@pytest.mark.parametrize("path", ["/v1/scan", "/mcp"])
@pytest.mark.parametrize("with_token", [True, False], ids=["token", "no token"])
def test_half_a_body_holds_a_slot_no_longer_than_the_timeout(
    capped: Service, make_token: Callable[..., str], path: str, with_token: bool
) -> None:
    """Two stalled bodies take both slots; within the timeout they are answered and a real request
    is served again (without a token, or on /v1 at all, the stall is cut off even sooner)."""
    token = make_token("alice")
    stalled = [stalled_body(capped, path, token if with_token else None) for _ in range(2)]
    try:
        deadline = time.monotonic() + 3 + 5
        while time.monotonic() < deadline:
            answer = capped.call("GET", "/v1/session", token, timeout=2)
            if answer.status_code == 200:
                break
            assert answer.json()["error"]["code"] == "busy"
            time.sleep(0.2)
        assert answer.status_code == 200, "stalled bodies held the slots past the timeout"
    finally:
        for sock in stalled:
            sock.close()


def test_a_request_nested_too_deeply_is_invalid_arguments(capped: Service, make_token: Callable[..., str]) -> None:
    token = make_token("alice")
    answer = capped.call("POST", "/v1/scan", token, content=b"[" * 3000 + b"]" * 3000, headers={"Content-Type": "application/json"})
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "invalid_arguments", answer.text


def half_a_head(service: Service) -> Any:
    """A raw connection that sends the first lines of a request head and never the blank line ending it."""
    import socket
    from urllib.parse import urlsplit

    parts = urlsplit(service.url)
    sock = socket.create_connection((parts.hostname, parts.port))
    sock.sendall(b"GET /v1/session HTTP/1.1\r\nHost: x\r\n")
    return sock


def test_connections_that_never_finish_a_request_head_lock_nobody_out(
    capped: Service, make_token: Callable[..., str]
) -> None:
    """Many more unfinished heads than requests in flight: a request with a token is still served,
    while they are all held (the service counts requests, not connections)."""
    token = make_token("alice")
    held = [half_a_head(capped) for _ in range(12)]
    try:
        answer = capped.call("GET", "/v1/session", token, timeout=10)
        assert answer.status_code == 200, answer.text
    finally:
        for sock in held:
            sock.close()


@pytest.mark.parametrize("sent", ["nothing", "half a head", "a trickle"])
def test_a_connection_slower_than_the_timeout_to_send_its_head_is_closed(capped: Service, sent: str) -> None:
    """Silent, stalled and trickling connections alike are closed by the server (the timeout is 3 s;
    30 s without it closing is a failure)."""
    import socket
    from urllib.parse import urlsplit

    parts = urlsplit(capped.url)
    sock = socket.create_connection((parts.hostname, parts.port))
    try:
        if sent != "nothing":
            sock.sendall(b"GET /v1/session HTTP/1.1\r\n")
        sock.settimeout(0.5 if sent == "a trickle" else 30)
        closed = False
        give_up = time.monotonic() + 30
        while not closed and time.monotonic() < give_up:
            try:
                if sent == "a trickle":
                    sock.sendall(b"X")  # one byte of a header line every half second: never a whole head
                closed = sock.recv(1024) == b""
            except socket.timeout:
                continue
            except OSError:  # the server closed the connection and reset the trickle
                closed = True
        assert closed, "the server kept a connection that never sent a whole request head"
    finally:
        sock.close()


@pytest.mark.parametrize("path", ["/v1/scan", "/mcp"])
def test_a_body_without_a_token_is_refused_before_it_is_read(
    capped: Service, make_token: Callable[..., str], path: str
) -> None:
    """Stalled bodies without a token are answered 401 from their headers, so they hold no slot:
    while they are still open, a request with a token is served."""
    token = make_token("alice")
    stalled = [stalled_body(capped, path, None) for _ in range(2)]
    try:
        for sock in stalled:
            sock.settimeout(30)
            assert sock.recv(64).startswith(b"HTTP/1.1 401 ")
        assert capped.call("GET", "/v1/session", token, timeout=10).status_code == 200
    finally:
        for sock in stalled:
            sock.close()


@pytest.fixture
def few_sessions(pg_database: str, tmp_path: Any) -> Iterator[Service]:
    """A ``serve`` process holding at most six MCP sessions, two per token."""
    service = start_service(pg_database, tmp_path, "--mcp-sessions", "6", "--mcp-sessions-per-token", "2")
    yield service
    stop_service(service)


def open_session(service: Service, token: str) -> Any:
    return mcp_initialize(service, token)


def list_tools(service: Service, token: str, session: str) -> int:
    """The HTTP status of a ``tools/list`` in ``session``: 200 while it is open, 404 once it has ended."""
    answer = service.call(
        "POST", "/mcp", token, json={"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        headers={**MCP_HEADERS, "mcp-session-id": session, "mcp-protocol-version": "2025-06-18"},
    )  # fmt: skip
    return int(answer.status_code)


def test_one_token_cannot_take_every_mcp_session(few_sessions: Service, make_token: Callable[..., str]) -> None:
    """A token opening sessions without end keeps its two newest; the others' sessions are untouched."""
    alice, bob, carol = make_token("alice"), make_token("bob"), make_token("carol")
    kept = open_session(few_sessions, bob).headers["mcp-session-id"]
    opened = []
    for _ in range(20):
        answer = open_session(few_sessions, alice)
        assert answer.status_code == 200, answer.text
        opened.append(answer.headers["mcp-session-id"])
        assert list_tools(few_sessions, bob, kept) == 200  # bob's session is never the one that ends
    assert [list_tools(few_sessions, alice, s) for s in opened] == [404] * 18 + [200, 200]
    assert open_session(few_sessions, carol).status_code == 200


def test_the_process_holds_at_most_its_mcp_sessions(few_sessions: Service, make_token: Callable[..., str]) -> None:
    """Six sessions of three tokens fill the process: a seventh is refused ``busy`` and none ends for
    it; once one is deleted there is room again."""
    tokens = [make_token(name) for name in ("alice", "bob", "carol", "dave")]
    held = {t: [open_session(few_sessions, t).headers["mcp-session-id"] for _ in range(2)] for t in tokens[:3]}
    refused = open_session(few_sessions, tokens[3])
    assert refused.status_code == 503 and refused.json()["error"]["code"] == "busy"
    assert all(list_tools(few_sessions, t, s) == 200 for t, sessions in held.items() for s in sessions)
    ended = few_sessions.call("DELETE", "/mcp", tokens[0], headers={**MCP_HEADERS, "mcp-session-id": held[tokens[0]][0]})
    assert ended.status_code == 200
    assert open_session(few_sessions, tokens[3]).status_code == 200
    assert list_tools(few_sessions, tokens[0], held[tokens[0]][0]) == 404


def test_idle_mcp_sessions_end_and_make_room(pg_database: str, tmp_path: Any, make_token: Callable[..., str]) -> None:
    """With room for two sessions, ended after 1 s idle: two idle sessions make room for a third."""
    service = start_service(pg_database, tmp_path, "--mcp-sessions", "2", "--mcp-session-idle", "1")
    try:
        alice, bob = make_token("alice"), make_token("bob")
        first = [open_session(service, alice).headers["mcp-session-id"] for _ in range(2)]
        deadline = time.monotonic() + 30
        while open_session(service, bob).status_code != 200:  # a refused opening touches no session
            assert time.monotonic() < deadline, "idle MCP sessions never made room"
            time.sleep(0.5)
        assert list_tools(service, alice, first[0]) == 404
    finally:
        stop_service(service)
