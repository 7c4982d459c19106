"""The cuttable relay passes bytes both ways, drops everything while cut, and recovers."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest

from wuzi.sim.final.net_proxy import CuttableRelay


@pytest.fixture
def echo() -> Iterator[int]:
    server = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve() -> None:
        server.settimeout(0.1)
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            threading.Thread(target=_echo, args=(conn,), daemon=True).start()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join(2)
    server.close()


def _echo(conn: socket.socket) -> None:
    with conn:
        while data := conn.recv(4096):
            conn.sendall(data)


def _round_trip(port: int, payload: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=2) as sock:
        sock.sendall(payload)
        got = b""
        while len(got) < len(payload):
            try:
                chunk = sock.recv(4096)
            except ConnectionResetError:  # a cut relay may reset rather than close
                break
            if not chunk:
                break
            got += chunk
        return got


def test_relays_cuts_and_restores(echo: int) -> None:
    relay = CuttableRelay(("127.0.0.1", echo))
    try:
        assert _round_trip(relay.port, b"hello" * 1000) == b"hello" * 1000
        held = socket.create_connection(("127.0.0.1", relay.port), timeout=2)
        held.sendall(b"x")
        assert held.recv(1) == b"x"
        relay.cut()
        time.sleep(0.2)
        try:
            dropped = held.recv(1)
        except ConnectionResetError:
            dropped = b""
        assert dropped == b""  # the established connection was dropped
        held.close()
        assert _round_trip(relay.port, b"refused") == b""  # new ones are closed at once
        relay.restore()
        assert _round_trip(relay.port, b"back") == b"back"
        assert relay.cuts == 1
    finally:
        relay.close()
