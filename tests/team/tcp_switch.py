"""A TCP forwarder in front of a PostgreSQL server that a test can cut and restore, to make an outage
as clients see one (every connection dropped, new ones refused) without stopping the server."""

from __future__ import annotations

import socket
import threading
from typing import Any


def _upstream_address(dsn: str) -> tuple[int, Any]:
    """The socket family and address ``dsn`` connects to: a Unix socket folder or a TCP host."""
    from psycopg.conninfo import conninfo_to_dict

    params = conninfo_to_dict(dsn)
    host, port = str(params.get("host") or "/tmp"), int(params.get("port") or 5432)
    if host.startswith("/"):
        return socket.AF_UNIX, f"{host}/.s.PGSQL.{port}"
    return socket.AF_INET, (host, port)


class Switch:
    """Forwards ``127.0.0.1:<port>`` to the server of ``dsn`` while on; :meth:`cut` drops every
    forwarded connection and refuses new ones until :meth:`restore`."""

    def __init__(self, dsn: str) -> None:
        from psycopg.conninfo import make_conninfo

        self._family, self._address = _upstream_address(dsn)
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = []
        self._listener: socket.socket | None = None
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        self.port = int(probe.getsockname()[1])
        probe.close()
        self.dsn = make_conninfo(dsn, host="127.0.0.1", port=str(self.port))
        self.restore()

    def restore(self) -> None:
        """Listen again: connections are forwarded from now on."""
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def cut(self) -> None:
        """Stop listening (a new connection is refused) and drop every forwarded connection."""
        with self._lock:
            listener, self._listener = self._listener, None
            dropped, self._sockets = self._sockets, []
        if listener is not None:
            listener.close()
        for sock in dropped:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()

    close = cut

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut
            server = socket.socket(self._family, socket.SOCK_STREAM)
            try:
                server.connect(self._address)
            except OSError:
                client.close()
                continue
            with self._lock:
                if self._listener is not listener:  # cut while connecting
                    client.close()
                    server.close()
                    return
                self._sockets += [client, server]
            for source, target in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(source, target), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, target: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                target.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, target):
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
