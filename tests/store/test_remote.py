"""The HTTP client's own behaviour: error mapping, transport failures, odd answers, and the token.

The service itself is exercised through the backend contract (``tests/backend_contract``, the
``http`` harness) and ``tests/team``; here a scripted transport answers, so each failure is exact.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tact_memory import errors
from tact_memory.records import RecordKey

httpx = pytest.importorskip("httpx", reason="httpx is not installed")

from tact_memory.store.remote import RemoteStore, safe_endpoint  # noqa: E402

TOKEN = "tmt_" + "S3cr3tT0kenValue_abcdefghijklmnopqrstuvwxyz1"
SESSION = {"namespace": "alice", "role": "writer", "readable": None, "protocol": 1,
           "limits": {"record_bytes": 100, "rows": 7, "content_bytes": 500, "scan_results": 3}}  # fmt: skip


def scripted(answer: Callable[[Any], Any]) -> tuple[RemoteStore, list[Any]]:
    seen: list[Any] = []

    def handle(request: Any) -> Any:
        seen.append(request)
        if request.url.path.endswith("/v1/session"):
            return httpx.Response(200, json=SESSION)
        return answer(request)

    return RemoteStore("https://bob:pw@team.example:8443/base/?q=1#f", TOKEN, transport=httpx.MockTransport(handle)), seen


def error(status: int, code: str, **fields: Any) -> Callable[[Any], Any]:
    return lambda request: httpx.Response(status, json={"error": {"code": code, "message": f"refused: {code}", **fields}})


@pytest.mark.parametrize(
    ("answer", "kind", "details"),
    [
        (error(400, "invalid_arguments"), errors.InvalidArguments, {}),
        (error(403, "forbidden"), errors.Forbidden, {}),
        (error(404, "not_found", id=4), errors.NotFound, {"id": 4}),
        (error(409, "version_conflict", id=4, current_version=3), errors.VersionConflict, {"id": 4, "current_version": 3}),
        (error(409, "duplicate", key={"id": 2, "version": 5, "namespace": "alice"}), errors.Duplicate, {"key": {"id": 2, "version": 5}}),
        (error(422, "content_too_large", bytes=2000, limit=1024), errors.ContentTooLarge, {"bytes": 2000, "limit": 1024}),
        (error(422, "secret_rejected", kind="github_token"), errors.SecretRejected, {"kind": "github_token"}),
        (error(507, "record_capacity", limit=7), errors.RecordCapacity, {"limit": 7}),
        (error(507, "content_capacity", limit=500), errors.ContentCapacity, {"limit": 500}),
        (error(503, "unavailable", reason="busy"), errors.StoreUnavailable, {"reason": "busy"}),
        (error(401, "token_expired"), errors.StoreUnavailable, {"reason": "token_expired"}),
        (error(403, "namespace_mismatch"), errors.StoreUnavailable, {"reason": "namespace_mismatch"}),
        (error(504, "timeout"), errors.StoreUnavailable, {"reason": "timeout"}),
        (error(500, "internal"), errors.StoreUnavailable, {"reason": "internal"}),
        (lambda r: httpx.Response(502, text="<html>bad gateway</html>"), errors.StoreUnavailable, {"reason": "server_error"}),
        (lambda r: httpx.Response(200, text="not json"), errors.StoreUnavailable, {"reason": "bad_response"}),
        (lambda r: httpx.Response(200, text="[" * 100000 + "]" * 100000), errors.StoreUnavailable, {"reason": "bad_response"}),
        (lambda r: httpx.Response(409, text='{"error":' * 50000 + "1" + "}" * 50000), errors.StoreUnavailable, {"reason": "bad_response"}),
        (lambda r: httpx.Response(200, json={"memory": {"key": {"id": "x"}}, "replaced": False}), errors.StoreUnavailable, {"reason": "bad_response"}),
        (error(409, "version_conflict"), errors.StoreUnavailable, {"reason": "bad_response"}),  # fields missing
    ],
)
def test_each_service_answer_becomes_the_same_error_with_its_fields(
    answer: Callable[[Any], Any], kind: type[errors.MemoryOperationError], details: dict[str, Any]
) -> None:
    store, _ = scripted(answer)
    with pytest.raises(kind) as info:
        store.put("a fact about the build", replace=RecordKey(4, 1, "alice"))
    assert type(info.value) is kind
    assert info.value.details() == details


def test_transport_failures_are_unavailable_and_name_no_credentials() -> None:
    def refuse(request: Any) -> Any:
        raise httpx.ConnectError("connection refused", request=request)

    def slow(request: Any) -> Any:
        raise httpx.ReadTimeout("timed out", request=request)

    for failure, reason in ((refuse, "unreachable"), (slow, "timeout")):
        store = RemoteStore("https://bob:pw@team.example:8443/?q=1", TOKEN, transport=httpx.MockTransport(failure))
        with pytest.raises(errors.StoreUnavailable) as info:
            store.scan("deploy")
        assert info.value.reason == reason
        text = str(info.value) + info.value.path + repr(store) + repr(store.status())
        assert "team.example:8443" in text
        for secret in (TOKEN, "bob", "pw", "q=1"):
            assert secret not in text, secret
        assert store.status().problem == reason


def test_the_endpoint_is_shown_without_user_password_query_or_fragment() -> None:
    assert safe_endpoint("https://bob:pw@team.example:8443/base/?q=1#f") == "https://team.example:8443/base"
    assert safe_endpoint("http://[::1]:8765") == "http://[::1]:8765"


def test_a_message_from_the_service_that_repeats_the_token_is_redacted() -> None:
    store, _ = scripted(lambda r: httpx.Response(401, json={"error": {"code": "token_invalid", "message": f"bad {TOKEN}"}}))
    with pytest.raises(errors.StoreUnavailable) as info:
        store.scan("deploy")
    assert TOKEN not in str(info.value) and "[token]" in str(info.value)


def test_requests_carry_the_token_only_in_the_header_and_the_asserted_namespace() -> None:
    seen: list[Any] = []

    def handle(request: Any) -> Any:
        seen.append(request)
        return httpx.Response(200, json={"candidates": []})

    store = RemoteStore("http://team.example/v1/", TOKEN, namespace="alice", transport=httpx.MockTransport(handle))
    assert seen == []  # constructing connects to nothing
    assert store.scan("release tags") == []
    [request] = seen
    assert request.url == "http://team.example/v1/scan"
    assert request.headers["authorization"] == f"Bearer {TOKEN}"
    assert request.headers["x-tact-namespace"] == "alice"
    assert json.loads(request.content) == {"query": "release tags", "limit": 5}


def test_content_is_screened_here_against_the_service_bounds_before_it_is_sent() -> None:
    store, seen = scripted(lambda r: pytest.fail("nothing may be sent"))
    with pytest.raises(errors.SecretRejected):
        store.put("the deploy key is ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8")
    with pytest.raises(errors.ContentTooLarge) as info:
        store.put("x" * 101)
    assert info.value.details() == {"bytes": 101, "limit": 100}
    assert [str(r.url) for r in seen] == ["https://team.example:8443/base/v1/session"]
    assert store.limits.rows == 7 and store.namespace == "alice"



@pytest.mark.parametrize("read_ids", [0, -3, True, "512", 1.5, None])
def test_a_session_answer_whose_read_ids_is_no_count_is_not_the_protocol(read_ids: object) -> None:
    session = {**SESSION, "read_ids": read_ids}

    def handle(request: Any) -> Any:
        return httpx.Response(200, json=session if request.url.path == "/v1/session" else {"memories": []})

    store = RemoteStore("http://team.example", TOKEN, transport=httpx.MockTransport(handle))
    assert store.read([1]) == []  # 64 ids or fewer: sent without asking
    with pytest.raises(errors.StoreUnavailable) as info:
        store.read(list(range(1, 66)))  # more than 64 ids: the session says how many go at once
    assert info.value.reason == "bad_response"

def test_without_a_token_every_operation_is_unavailable_and_nothing_is_sent() -> None:
    store = RemoteStore("http://team.example", None, transport=httpx.MockTransport(lambda r: pytest.fail("sent")))
    with pytest.raises(errors.StoreUnavailable) as info:
        store.read([1])
    assert info.value.reason == "token_missing"
    assert store.status().problem == "token_missing"


class Trickle(httpx.SyncByteStream):
    """An answer that arrives one byte every 50 ms: each read is quick, the whole never is."""

    def __iter__(self) -> Iterator[bytes]:
        import time

        for byte in b'{"candidates": []' + b" " * 400 + b"}":
            time.sleep(0.05)
            yield bytes([byte])


def test_an_answer_that_trickles_in_is_a_timeout_within_the_timeout() -> None:
    import time

    def handle(request: Any) -> Any:
        if request.url.path.endswith("/v1/session"):
            return httpx.Response(200, json=SESSION)
        return httpx.Response(200, stream=Trickle())

    store = RemoteStore("https://team.example", TOKEN, transport=httpx.MockTransport(handle), timeout=0.5)
    started = time.monotonic()
    with pytest.raises(errors.StoreUnavailable) as info:
        store.scan("build")
    assert info.value.reason == "timeout" and time.monotonic() - started < 3


class HangingUp:
    """A real HTTP server on a local port that answers the session, then reads each request whole
    and closes the connection without an answer, as a service stopped after its commit would."""

    def __init__(self) -> None:
        import socket
        import threading

        self.received: list[bytes] = []
        self._listener = socket.socket()
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(8)
        self.url = f"http://127.0.0.1:{self._listener.getsockname()[1]}"
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self._listener.accept()
            except OSError:
                return
            with conn:
                while True:
                    data = b""
                    while b"\r\n\r\n" not in data and (chunk := conn.recv(65536)):
                        data += chunk
                    if not data:
                        break
                    head, _, body = data.partition(b"\r\n\r\n")
                    length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")), 0)
                    while len(body) < length and (chunk := conn.recv(65536)):
                        body += chunk
                    if b"/v1/session" not in head.split(b"\r\n")[0]:
                        self.received.append(head.split(b"\r\n")[0])
                        break  # hang up, answering nothing
                    answer = json.dumps(SESSION).encode()
                    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(answer), answer))

    def close(self) -> None:
        self._listener.close()


@pytest.fixture
def hanging_up() -> Iterator[HangingUp]:
    server = HangingUp()
    yield server
    server.close()


@pytest.mark.parametrize("operation", ["put", "replace", "delete"])
def test_a_change_whose_answer_was_lost_is_not_said_to_have_changed_nothing(hanging_up: HangingUp, operation: str) -> None:
    store = RemoteStore(hanging_up.url, TOKEN, timeout=5)
    calls = {
        "put": lambda: store.put("the deploy freeze starts on Friday"),
        "replace": lambda: store.put("the deploy freeze starts on Monday", replace=RecordKey(4, 1, "alice")),
        "delete": lambda: store.delete(RecordKey(4, 1, "alice")),
    }
    with pytest.raises(errors.StoreUnavailable) as info:
        calls[operation]()
    assert hanging_up.received, "the request never reached the server"
    assert info.value.reason == "interrupted"
    assert "nothing was changed" not in info.value.message
    assert "the change may have been made" in info.value.message


def test_a_scan_whose_answer_was_lost_is_interrupted(hanging_up: HangingUp) -> None:
    store = RemoteStore(hanging_up.url, TOKEN, timeout=5)
    with pytest.raises(errors.StoreUnavailable) as info:
        store.scan("deploy freeze")
    assert (info.value.reason, info.value.message) == (
        "interrupted", f"team memory at {hanging_up.url}: the connection broke before the answer came"
    )


def test_a_request_that_never_left_changed_nothing() -> None:
    import socket

    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    store = RemoteStore(f"http://127.0.0.1:{port}", TOKEN, timeout=5)
    with pytest.raises(errors.StoreUnavailable) as info:
        store.put("the deploy freeze starts on Friday")
    assert info.value.reason == "unreachable" and info.value.message.endswith("nothing was changed")


def test_a_change_without_an_answer_in_time_may_have_been_made() -> None:
    def slow(request: Any) -> Any:
        if request.url.path.endswith("/v1/session"):
            return httpx.Response(200, json=SESSION)
        raise httpx.ReadTimeout("timed out", request=request)

    store = RemoteStore("http://team.example", TOKEN, transport=httpx.MockTransport(slow), timeout=2)
    with pytest.raises(errors.StoreUnavailable) as info:
        store.put("the deploy freeze starts on Friday")
    assert info.value.reason == "timeout"
    assert info.value.message.endswith("no answer within 2 s; the change may have been made (a scan or read shows it)")
    with pytest.raises(errors.StoreUnavailable) as info:
        store.scan("deploy freeze")
    assert info.value.message.endswith("no answer within 2 s")


@pytest.mark.parametrize("status", [500, 502, 504])
def test_a_change_answered_by_a_failing_proxy_may_have_been_made(status: int) -> None:
    store, _ = scripted(lambda r: httpx.Response(status, text="<html>gateway</html>"))
    with pytest.raises(errors.StoreUnavailable) as info:
        store.delete(RecordKey(4, 1, "alice"))
    assert info.value.reason == "server_error"
    assert info.value.message.endswith(f"the service failed (HTTP {status}); the change may have been made (a scan or read shows it)")
    with pytest.raises(errors.StoreUnavailable) as info:
        store.scan("deploy")
    assert info.value.message.endswith(f"the service failed (HTTP {status})")
