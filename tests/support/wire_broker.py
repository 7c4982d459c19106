"""A minimal MQTT 3.1.1 server that records what a client puts on the wire, in order.

Mosquitto answers every PUBLISH and would hide the order a client sends things in after
a reconnect (which is what `wuzi.bus.client` promises: the retained republish first, then
paho's resends, then what was published meanwhile). This one answers just enough of the
protocol for paho (CONNACK, PUBACK, SUBACK, PINGRESP), records every PUBLISH per
connection, and lets a test hold back PUBACKs (so paho has unacknowledged messages to
resend), drop the connection as a crashing broker does, and hold a new connection's
CONNACK (so the client is away for as long as the test needs). One client at a time; a
thread of its own; milliseconds, no broker process.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from dataclasses import dataclass
from typing import BinaryIO

CONNECT, PUBLISH, SUBSCRIBE, PINGREQ, DISCONNECT = 1, 3, 8, 12, 14


@dataclass(frozen=True)
class Published:
    topic: str
    payload: bytes
    retain: bool
    dup: bool


class WireBroker:
    """Listens on a free localhost port (``url``) until `close`."""

    def __init__(self) -> None:
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"mqtt://127.0.0.1:{self._listener.getsockname()[1]}"
        self.ack = threading.Event()  # answer PUBLISH with PUBACK while set
        self.ack.set()
        self.admit = threading.Event()  # send CONNACK to a new connection once set
        self.admit.set()
        self._lock = threading.Lock()
        self._connections: list[list[Published]] = []
        self._sock: socket.socket | None = None
        self._closed = False
        self._thread = threading.Thread(target=self._serve, name="wire-broker", daemon=True)
        self._thread.start()

    def connections(self) -> list[list[Published]]:
        """What each connection published so far, oldest connection first."""
        with self._lock:
            return [list(c) for c in self._connections]

    def drop(self) -> None:
        """Close the current connection without a word, as a killed broker does."""
        with self._lock:
            sock = self._sock
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self._closed = True
        self.admit.set()
        self.drop()
        self._listener.close()
        self._thread.join(5.0)

    # --- inside ---------------------------------------------------------------------

    def _serve(self) -> None:
        self._listener.settimeout(0.02)  # so that `close` is seen at once
        while not self._closed:
            try:
                sock, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            sock.settimeout(None)
            with self._lock:
                self._sock = sock
                self._connections.append([])
                published = self._connections[-1]
            try:
                self._session(sock, published)
            except (OSError, ConnectionError):
                pass
            finally:
                with self._lock:
                    self._sock = None
                sock.close()

    def _session(self, sock: socket.socket, published: list[Published]) -> None:
        stream = sock.makefile("rb")
        while True:
            first = stream.read(1)
            if not first:
                return
            body = stream.read(_remaining_length(stream))
            kind, flags = first[0] >> 4, first[0] & 0x0F
            if kind == CONNECT:
                self.admit.wait()
                if self._closed:
                    return
                sock.sendall(b"\x20\x02\x00\x00")
            elif kind == PUBLISH:
                qos = (flags >> 1) & 3
                size = int.from_bytes(body[:2], "big")
                topic = body[2 : 2 + size].decode()
                rest = body[2 + size :]
                mid = rest[:2] if qos else b""
                payload = bytes(rest[2:] if qos else rest)
                record = Published(topic, payload, bool(flags & 1), bool(flags & 8))
                with self._lock:
                    published.append(record)
                if qos == 1 and self.ack.is_set():
                    sock.sendall(b"\x40\x02" + mid)
            elif kind == SUBSCRIBE:
                mid, count, at = body[:2], 0, 2
                while at < len(body):
                    at += 2 + int.from_bytes(body[at : at + 2], "big") + 1
                    count += 1
                sock.sendall(bytes([0x90, 2 + count]) + mid + b"\x01" * count)
            elif kind == PINGREQ:
                sock.sendall(b"\xd0\x00")
            elif kind == DISCONNECT:
                return


def _remaining_length(stream: BinaryIO) -> int:
    value, shift = 0, 0
    while True:
        byte = stream.read(1)
        if not byte:
            raise ConnectionError("connection closed inside a fixed header")
        value |= (byte[0] & 0x7F) << shift
        if not byte[0] & 0x80:
            return value
        shift += 7
