"""A throwaway PostgreSQL server for the tests, or the one ``TACT_TEST_PG_DSN`` names.

The session starts one cluster (``initdb`` and ``pg_ctl`` from ``PATH`` or
``/usr/lib/postgresql/*/bin``; as the ``postgres`` user when the tests run as root, since ``initdb``
refuses root) listening on a Unix socket in a temporary folder only, with durability off for speed.
Each test module gets its own database. Without a server binary and without ``TACT_TEST_PG_DSN``,
the tests that need one skip, saying why.
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

EXISTING_DSN = os.environ.get("TACT_TEST_PG_DSN")  # read at import: the tests' environment is cleaned later
_names = itertools.count(1)


@dataclass(frozen=True)
class Server:
    """A running PostgreSQL server the tests may create databases on."""

    admin_dsn: str

    def dsn(self, dbname: str) -> str:
        """The connection string of database ``dbname`` on this server."""
        from psycopg.conninfo import make_conninfo

        return make_conninfo(self.admin_dsn, dbname=dbname)

    def create_database(self, prefix: str) -> str:
        """A new empty database; returns its connection string."""
        import psycopg

        name = f"{prefix}_{os.getpid()}_{next(_names)}"
        with psycopg.connect(self.admin_dsn, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.dsn(name)

    def drop_database(self, dsn: str) -> None:
        import psycopg
        from psycopg.conninfo import conninfo_to_dict

        name = conninfo_to_dict(dsn)["dbname"]
        with psycopg.connect(self.admin_dsn, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _binary(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _as_server_user(argv: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return argv
    runuser = shutil.which("runuser")
    if runuser:
        return [runuser, "-u", "postgres", "--", *argv]
    return ["su", "postgres", "-c", " ".join(argv)]


@dataclass
class Cluster:
    """A throwaway PostgreSQL cluster in a temporary folder, listening on a Unix socket only."""

    root: str
    data: str
    sockets: str
    port: int
    pg_ctl: str

    @property
    def admin_dsn(self) -> str:
        return f"host={self.sockets} port={self.port} user=postgres dbname=postgres"

    def _pg_ctl(self, *args: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(_as_server_user([self.pg_ctl, "-D", self.data, *args]), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)

    def start(self) -> str | None:
        """Start the server and wait until it accepts connections; the failure's text, or ``None``."""
        options = f"-k {self.sockets} -p {self.port} -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        started = self._pg_ctl("-o", options, "-l", os.path.join(self.root, "server.log"), "-w", "start")
        return None if started.returncode == 0 else started.stderr.decode(errors="replace")[-300:]

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (``fast``: disconnect clients, roll back, shut down cleanly)."""
        self._pg_ctl("-m", mode, "-w", "stop")

    def remove(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)


def make_cluster() -> Cluster:
    """A new started cluster, or a skip that says why there cannot be one."""
    initdb, pg_ctl = _binary("initdb"), _binary("pg_ctl")
    if initdb is None or pg_ctl is None:
        pytest.skip("no PostgreSQL server binaries (initdb, pg_ctl) and no TACT_TEST_PG_DSN")
    root = tempfile.mkdtemp(prefix="tact-pg-")
    data, sockets = os.path.join(root, "data"), os.path.join(root, "run")
    os.mkdir(sockets)
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
        shutil.chown(sockets, "postgres")
    made = subprocess.run(
        _as_server_user([initdb, "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]),
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False,
    )  # fmt: skip
    if made.returncode != 0:
        shutil.rmtree(root, ignore_errors=True)
        pytest.skip(f"initdb failed: {made.stderr.decode(errors='replace')[-300:]}")
    cluster = Cluster(root, data, sockets, _free_port(), pg_ctl)
    failure = cluster.start()
    if failure is not None:
        shutil.rmtree(root, ignore_errors=True)
        pytest.skip(f"the PostgreSQL server did not start: {failure}")
    return cluster


@pytest.fixture(scope="session")
def pg_server() -> Iterator[Server]:
    """The session's PostgreSQL server."""
    pytest.importorskip("psycopg", reason="the team extra (psycopg) is not installed")
    if EXISTING_DSN:
        yield Server(EXISTING_DSN)
        return
    cluster = make_cluster()
    try:
        yield Server(cluster.admin_dsn)
    finally:
        cluster.remove()


@pytest.fixture(scope="module")
def pg_database(pg_server: Server) -> Iterator[str]:
    """A database of this test module with the current team schema; yields its connection string."""
    import psycopg

    from tact_memory.team.migrations import migrate

    dsn = pg_server.create_database("tact")
    with psycopg.connect(dsn, autocommit=True) as conn:
        migrate(conn)
    yield dsn
    pg_server.drop_database(dsn)
