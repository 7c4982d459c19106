"""A TCP echo server on a free loopback port, for the network proxies' tests: whatever a
client sends comes back on the same connection, in order."""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager


def _echo(conn: socket.socket) -> None:
    with conn, contextlib.suppress(OSError):
        while data := conn.recv(65536):
            conn.sendall(data)


@contextmanager
def echo_server() -> Iterator[tuple[str, int]]:
    """Yield the server's address; every connection is served from its own thread."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.1)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            threading.Thread(target=_echo, args=(conn,), daemon=True).start()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield ("127.0.0.1", server.getsockname()[1])
    finally:
        stop.set()
        thread.join(2)
        server.close()
