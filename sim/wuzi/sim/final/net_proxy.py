"""A TCP relay between one host and the broker that the demo can cut, to take a host off
the network for minutes without touching the host process (no network namespace needed).

While cut, established connections are closed and new ones are accepted and closed at
once — what a pulled network cable looks like to MQTT after its keep-alive: the host's
client retries, its journal keeps everything, and the outbox drains when the cut ends.
One thread, ``selectors``; each accepted socket is paired with one to the broker.
"""

from __future__ import annotations

import contextlib
import selectors
import socket
import threading

__all__ = ["CuttableRelay"]

_CHUNK = 65536


class CuttableRelay:
    """Listens on 127.0.0.1:``port`` (a free one if 0) and relays to ``target``."""

    def __init__(self, target: tuple[str, int], port: int = 0) -> None:
        self.target = target
        self._listener = socket.create_server(("127.0.0.1", port))
        self._listener.setblocking(False)
        self.port: int = self._listener.getsockname()[1]
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._listener, selectors.EVENT_READ, None)
        self._peers: dict[socket.socket, socket.socket] = {}
        self._cut = threading.Event()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self.cuts = 0
        self._thread = threading.Thread(target=self._run, name="relay", daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def cut(self) -> None:
        """Drop every connection and refuse new ones until `restore`."""
        self.cuts += 1
        self._cut.set()

    def restore(self) -> None:
        self._cut.clear()

    @property
    def is_cut(self) -> bool:
        return self._cut.is_set()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        with self._lock:
            for sock in list(self._peers):
                self._drop(sock)
        self._selector.close()
        self._listener.close()

    def _run(self) -> None:
        while not self._stop.is_set():
            if self._cut.is_set() and self._peers:
                with self._lock:
                    for sock in list(self._peers):
                        self._drop(sock)
            for key, _ in self._selector.select(timeout=0.05):
                ready = key.fileobj
                if ready is self._listener:
                    self._accept()
                elif isinstance(ready, socket.socket) and ready in self._peers:
                    self._relay(ready)

    def _accept(self) -> None:
        with contextlib.suppress(BlockingIOError):
            client, _ = self._listener.accept()
            if self._cut.is_set():
                client.close()
                return
            try:
                upstream = socket.create_connection(self.target, timeout=2.0)
            except OSError:
                client.close()
                return
            for sock in (client, upstream):
                sock.setblocking(False)
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self._lock:
                self._peers[client], self._peers[upstream] = upstream, client
            self._selector.register(client, selectors.EVENT_READ, None)
            self._selector.register(upstream, selectors.EVENT_READ, None)

    def _relay(self, sock: socket.socket) -> None:
        other = self._peers[sock]
        try:
            data = sock.recv(_CHUNK)
            if not data:
                raise ConnectionResetError("closed")
            other.setblocking(True)
            other.sendall(data)
            other.setblocking(False)
        except OSError:
            with self._lock:
                self._drop(sock)

    def _drop(self, sock: socket.socket) -> None:
        other = self._peers.pop(sock, None)
        for s in (sock, other):
            if s is None:
                continue
            self._peers.pop(s, None)
            with contextlib.suppress(KeyError, ValueError):
                self._selector.unregister(s)
            with contextlib.suppress(OSError):
                s.close()
