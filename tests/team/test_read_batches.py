"""What a team read of many ids costs: as few requests as the service reads ids at once.

Real ``serve`` processes on a real PostgreSQL database, the current release and an earlier one
taken from this checkout's history (whose service reads 64 ids a request and does not say so);
the client's transport is a real one that notes each request it sends.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from tact_memory.store.remote import RemoteStore

from ..history import package_at
from .conftest import Service, start_service, stop_service

EARLIER = "ab5ed791a03be09def7ad8cafbdcc6d15b6f8319"
"""The last commit whose service read at most 64 ids a request and said nothing of it."""

ABSENT = 10**9
"""Ids from here on name no record."""


class Noting(httpx.HTTPTransport):
    """A real transport that notes each request's route and, for a read, how many ids it names.

    With ``others``, every request but the session one goes to that service instead, as a load
    balancer in front of a half-upgraded service could send them.
    """

    def __init__(self, others: str | None = None) -> None:
        super().__init__()
        self.others = None if others is None else httpx.URL(others)
        self.sent: list[tuple[str, int | None]] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        route = request.url.path.removeprefix("/v1/")
        self.sent.append((route, len(json.loads(request.content)["ids"]) if route == "read" else None))
        if self.others is not None and route != "session":
            request.url = request.url.copy_with(host=self.others.host, port=self.others.port)
        return super().handle_request(request)

    def reads(self) -> list[int | None]:
        """How many ids each read request named, in order; forgets what was sent."""
        sent, self.sent = self.sent, []
        return [ids for route, ids in sent if route == "read"]


def scattered(keys: list[int], absent: int) -> list[int]:
    """``absent`` ids no record has, with ``keys`` (three) among them and two of them twice."""
    c, a, b = keys[2], keys[0], keys[1]
    half = absent // 2
    return [c, *range(ABSENT, ABSENT + half), a, c, *range(ABSENT + half, ABSENT + absent), a, b, c]


@pytest.fixture(scope="module")
def earlier(pg_database: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    """A ``serve`` process of the earlier release on this module's database."""
    folder = tmp_path_factory.mktemp("earlier")
    release = package_at(EARLIER, folder / "release")
    started = start_service(pg_database, folder, env={"PYTHONPATH": str(release)}, cwd=folder)
    yield started
    stop_service(started)


@pytest.fixture
def alice(make_token: Callable[..., str]) -> str:
    return make_token("alice", "writer")


def put_three(store: RemoteStore) -> list[int]:
    return [store.put(f"fact {i} about subsystem{i}").memory.key.id for i in range(3)]


def test_a_read_costs_one_request_per_as_many_ids_as_the_service_reads(service: Service, alice: str) -> None:
    transport = Noting()
    with RemoteStore(service.url, alice, transport=transport) as store:
        keys = put_three(store)  # the first put asks for the session
        most = service.call("GET", "/v1/session", alice).json()["read_ids"]
        assert most == 389  # this service takes 8,192-byte bodies: 389 ids of 19 digits
        transport.reads()
        records = store.read(scattered(keys, 2 * most + 50))
        assert [r.key.id for r in records] == [keys[2], keys[0], keys[1]]  # first seen, each once
        assert [r.read_count for r in records] == [1, 1, 1]
        assert transport.reads() == [most, most, 53]  # duplicates are not sent
        assert [r.key.id for r in store.read(scattered(keys, 200))] == [keys[2], keys[0], keys[1]]
        assert transport.reads() == [203]
    transport = Noting()
    with RemoteStore(service.url, alice, transport=transport) as fresh:
        assert len(fresh.read(scattered(keys, 61))) == 3
        assert transport.sent == [("read", 64)]  # no more than 64 ids: no session asked
        fresh.read(scattered(keys, 62))
        assert transport.sent == [("read", 64), ("session", None), ("read", 65)]


def test_the_service_reads_as_many_ids_as_a_namespace_holds_rows_and_never_fewer_than_64(
    pg_database: str, tmp_path: Path, alice: str
) -> None:
    for rows, most in ((100, 100), (3, 64)):
        limits = json.dumps({"rows": rows})
        started = start_service(pg_database, tmp_path, "--test-limits", limits, env={"TACT_TEAM_TEST_HOOKS": "1"})
        try:
            assert started.call("GET", "/v1/session", alice).json()["read_ids"] == most
            ids = list(range(ABSENT, ABSENT + most + 1))
            assert started.call("POST", "/v1/read", alice, json={"ids": ids[:most]}).json() == {"memories": []}
            refused = started.call("POST", "/v1/read", alice, json={"ids": ids})
            assert refused.status_code == 400
            assert refused.json()["error"] == {
                "code": "invalid_arguments", "message": f"ids must be a list of at most {most} positive integers",
            }  # fmt: skip
        finally:
            stop_service(started)


def test_a_newer_client_reads_from_an_earlier_service_64_ids_a_request(earlier: Service, alice: str) -> None:
    assert "read_ids" not in earlier.call("GET", "/v1/session", alice).json()
    assert earlier.call("POST", "/v1/read", alice, json={"ids": list(range(1, 66))}).status_code == 400
    transport = Noting()
    with RemoteStore(earlier.url, alice, transport=transport) as store:
        keys = put_three(store)
        transport.reads()
        assert [r.key.id for r in store.read(scattered(keys, 150))] == [keys[2], keys[0], keys[1]]
        assert transport.reads() == [64, 64, 25]


def test_a_read_an_earlier_process_refuses_goes_on_64_ids_a_request(
    service: Service, earlier: Service, alice: str
) -> None:
    """The session comes from a process that reads more ids at once, the reads reach one of the
    earlier release: its refusal of the larger request is followed by requests it reads, and
    later reads send no more than it reads."""
    transport = Noting(others=earlier.url)
    with RemoteStore(service.url, alice, transport=transport) as store:
        keys = put_three(store)
        transport.reads()
        assert [r.key.id for r in store.read(scattered(keys, 150))] == [keys[2], keys[0], keys[1]]
        assert transport.reads() == [153, 64, 64, 25]
        assert [r.read_count for r in store.read(keys)] == [2, 2, 2]
        store.read(scattered(keys, 100))
        assert transport.reads() == [3, 64, 39]
