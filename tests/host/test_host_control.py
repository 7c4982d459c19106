"""The host's local control socket: one descriptor for the service loop, lines in pieces,
several clients, the line limit, vanishing clients, stale and foreign socket files."""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shutil
import socket
import stat
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from wuzi.host.control import (
    MAX_LINE_BYTES,
    ControlError,
    ControlRequest,
    ControlServer,
    send_line,
)


@pytest.fixture
def sock_dir() -> Iterator[Path]:
    """A short directory: a Unix socket path must fit in 108 bytes (pytest's tmp_path
    may not)."""
    path = Path(tempfile.mkdtemp(prefix="wz", dir="/tmp"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def server(sock_dir: Path) -> Iterator[ControlServer]:
    srv = ControlServer(sock_dir / "control.sock")
    yield srv
    srv.close()


class Client:
    """A raw client; reading pumps the server (if given) so nothing waits on the other."""

    def __init__(self, path: Path) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(str(path))
        self.sock.settimeout(0.02)
        self.buf = b""
        self.eof = False

    def send(self, data: bytes) -> None:
        self.sock.settimeout(5.0)
        self.sock.sendall(data)
        self.sock.settimeout(0.02)

    def _fill(self, srv: ControlServer | None) -> None:
        if srv is not None:
            srv.on_readable()
        try:
            chunk = self.sock.recv(65536)
        except TimeoutError:
            return
        except ConnectionResetError:
            chunk = b""
        self.buf += chunk
        self.eof = not chunk

    def reply(self, srv: ControlServer | None = None) -> dict[str, object]:
        deadline = time.monotonic() + 5.0
        while b"\n" not in self.buf:
            assert not self.eof, f"connection closed after {self.buf[:80]!r}"
            assert time.monotonic() < deadline, "no reply"
            self._fill(srv)
        line, _, self.buf = self.buf.partition(b"\n")
        obj = json.loads(line)
        assert isinstance(obj, dict)
        return obj

    def closed(self, srv: ControlServer | None = None) -> bool:
        """True once the server closed the connection (within 5 s)."""
        deadline = time.monotonic() + 5.0
        while not self.eof and time.monotonic() < deadline:
            self._fill(srv)
        return self.eof and not self.buf

    def close(self) -> None:
        self.sock.close()


def poll(srv: ControlServer, until: Callable[[list[ControlRequest]], bool]) -> list[ControlRequest]:
    """Wait on the server's one descriptor, as a service loop does, collecting requests."""
    got: list[ControlRequest] = []
    with selectors.DefaultSelector() as outer:
        outer.register(srv.fileno(), selectors.EVENT_READ)
        deadline = time.monotonic() + 5.0
        while not until(got):
            assert time.monotonic() < deadline, f"timed out; got {got}"
            if outer.select(timeout=0.5):
                got += srv.on_readable()
    return got


def test_one_line_one_reply_through_the_single_descriptor(server: ControlServer) -> None:
    with selectors.DefaultSelector() as outer:
        outer.register(server.fileno(), selectors.EVENT_READ)
        assert outer.select(timeout=0) == []  # idle: the service loop sleeps
        client = Client(server.path)
        assert outer.select(timeout=2.0)  # a client waits to be accepted
    client.send(b'{"v":1,"action":"pause"}\n')
    [request] = poll(server, lambda got: len(got) == 1)
    assert request.payload == b'{"v":1,"action":"pause"}'
    request.reply(True, "paused table 3 ✓")
    assert client.reply() == {"ok": True, "message": "paused table 3 ✓"}
    with pytest.raises(RuntimeError, match="already been answered"):
        request.reply(False, "again")
    client.close()


def test_lines_in_pieces_several_per_packet_and_crlf(server: ControlServer) -> None:
    client = Client(server.path)
    client.send(b'{"a":')
    assert poll(server, lambda got: server.clients == 1) == []
    client.send(b"1}\r\n")
    [first] = poll(server, lambda got: len(got) == 1)
    assert first.payload == b'{"a":1}'
    client.send(b"two\nthree\nfour")
    got = poll(server, lambda got: len(got) == 2)
    assert [r.payload for r in got] == [b"two", b"three"]
    for r in (first, *got):
        r.reply(True, r.payload.decode())
    assert [client.reply()["message"] for _ in range(3)] == ['{"a":1}', "two", "three"]
    client.send(b"\n")
    [last] = poll(server, lambda got: len(got) == 1)
    assert last.payload == b"four"
    client.close()


def test_several_clients_each_get_their_own_reply(server: ControlServer) -> None:
    clients = [Client(server.path) for _ in range(5)]
    for i, client in enumerate(reversed(clients)):
        client.send(f"line {4 - i}\n".encode())
    got = poll(server, lambda got: len(got) == 5)
    for request in got:
        request.reply(True, "re: " + request.payload.decode())
    for i, client in enumerate(clients):
        assert client.reply() == {"ok": True, "message": f"re: line {i}"}
        client.close()


def test_an_empty_line_gets_an_error(server: ControlServer) -> None:
    client = Client(server.path)
    client.send(b"\n   \r\n")
    expected = {"ok": False, "message": "empty line: send one command per line"}
    assert client.reply(server) == expected
    assert client.reply(server) == expected
    client.close()


def _send_quietly(client: Client, data: bytes) -> None:
    """Send from another thread, on a duplicate socket with its own timeout."""
    with client.sock.dup() as sock:
        sock.settimeout(5.0)
        with contextlib.suppress(OSError):  # the server may close before the end
            sock.sendall(data)


def test_the_line_limit_drops_the_client_after_an_error_reply(server: ControlServer) -> None:
    exact = Client(server.path)
    exact.send(b"x" * MAX_LINE_BYTES + b"\n")
    [request] = poll(server, lambda got: len(got) == 1)
    assert len(request.payload) == MAX_LINE_BYTES
    request.reply(True, "fits")
    assert exact.reply()["ok"] is True

    endless = Client(server.path)
    sender = threading.Thread(target=_send_quietly, args=(endless, b"y" * (MAX_LINE_BYTES + 2000)))
    sender.start()
    assert endless.reply(server) == {
        "ok": False,
        "message": f"line longer than {MAX_LINE_BYTES} bytes: refused; connection closed",
    }
    sender.join(5.0)
    assert endless.closed(server)
    assert server.clients == 1  # `exact` is still served
    endless.close()
    exact.close()


def test_a_long_line_arriving_whole_is_refused_too(server: ControlServer) -> None:
    client = Client(server.path)
    sender = threading.Thread(
        target=_send_quietly, args=(client, b"z" * (MAX_LINE_BYTES + 1) + b"\nnext\n")
    )
    sender.start()
    assert client.reply(server)["ok"] is False
    sender.join(5.0)
    assert client.closed(server)
    client.close()


def test_a_client_that_vanishes_before_its_reply_is_forgotten(server: ControlServer) -> None:
    client = Client(server.path)
    client.send(b"pause\n")
    [request] = poll(server, lambda got: len(got) == 1)
    client.close()
    request.reply(True, "nobody hears this")  # no error, and the client is forgotten
    poll(server, lambda got: server.clients == 0)
    other = Client(server.path)  # the server still serves
    other.send(b"resume\n")
    [again] = poll(server, lambda got: len(got) == 1)
    again.reply(False, "no")
    assert other.reply() == {"ok": False, "message": "no"}
    other.close()


def test_a_vanished_client_with_a_reply_pending_is_dropped(server: ControlServer) -> None:
    client = Client(server.path)
    client.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    client.send(b"big\n")
    [request] = poll(server, lambda got: len(got) == 1)
    request.reply(True, "x" * 500_000)  # far more than the socket buffers hold
    assert server.clients == 1  # the rest waits until the client reads
    client.close()
    poll(server, lambda got: server.clients == 0)


def test_a_big_reply_goes_out_as_the_client_reads(server: ControlServer) -> None:
    client = Client(server.path)
    client.send(b"big\n")
    [request] = poll(server, lambda got: len(got) == 1)
    request.reply(True, "x" * 600_000)
    assert client.reply(server) == {"ok": True, "message": "x" * 600_000}
    client.close()


def test_a_last_line_without_newline_before_shutdown_counts(server: ControlServer) -> None:
    client = Client(server.path)
    client.send(b"final")
    client.sock.shutdown(socket.SHUT_WR)
    [request] = poll(server, lambda got: len(got) == 1)
    assert request.payload == b"final"
    assert server.clients == 1  # kept open until the reply
    request.reply(True, "done")
    assert client.reply() == {"ok": True, "message": "done"}
    assert client.closed()
    assert server.clients == 0
    client.close()


def test_the_socket_file_mode_and_its_removal(sock_dir: Path) -> None:
    path = sock_dir / "a.sock"
    srv = ControlServer(path)
    assert stat.S_ISSOCK(os.lstat(path).st_mode)
    assert stat.S_IMODE(os.lstat(path).st_mode) == 0o660
    srv.close()
    assert not path.exists()
    srv.close()  # twice is harmless
    with ControlServer(path, mode=0o600) as private:
        assert stat.S_IMODE(os.lstat(path).st_mode) == 0o600
        assert private.fileno() >= 0
    assert not path.exists()


def test_a_stale_socket_file_from_a_crash_is_replaced(sock_dir: Path) -> None:
    path = sock_dir / "stale.sock"
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    dead.bind(str(path))
    dead.close()  # the file stays, nobody listens
    assert path.exists()
    with ControlServer(path) as srv:
        client = Client(path)
        client.send(b"hello\n")
        [request] = poll(srv, lambda got: len(got) == 1)
        request.reply(True, "hi")
        assert client.reply()["message"] == "hi"
        client.close()


def test_a_live_socket_is_not_taken_over(server: ControlServer) -> None:
    with pytest.raises(ControlError, match=f"{server.path}.*another process is listening"):
        ControlServer(server.path)
    assert stat.S_ISSOCK(os.lstat(server.path).st_mode)  # still the first server's


def test_a_path_that_is_not_a_socket_is_refused(sock_dir: Path) -> None:
    path = sock_dir / "notes.txt"
    path.write_text("keep me")
    with pytest.raises(ControlError, match=f"{path}.*is not a socket"):
        ControlServer(path)
    assert path.read_text() == "keep me"
    with pytest.raises(ControlError, match="cannot listen"):
        ControlServer(sock_dir / "no-such-dir" / "x.sock")


def test_close_leaves_a_socket_someone_else_bound_since(sock_dir: Path) -> None:
    path = sock_dir / "c.sock"
    first = ControlServer(path)
    os.unlink(path)
    with ControlServer(path):
        first.close()
        assert stat.S_ISSOCK(os.lstat(path).st_mode)


# --- the client side ------------------------------------------------------------------------


class Host(threading.Thread):
    """A service loop in a thread: answers each line with ``answer(payload)``."""

    def __init__(self, path: Path, answer: Callable[[bytes], tuple[bool, str] | None]) -> None:
        super().__init__(daemon=True)
        self.server = ControlServer(path)
        self.answer = answer
        self.stop = threading.Event()

    def run(self) -> None:
        with selectors.DefaultSelector() as outer:
            outer.register(self.server.fileno(), selectors.EVENT_READ)
            while not self.stop.is_set():
                if outer.select(timeout=0.05):
                    for request in self.server.on_readable():
                        answer = self.answer(request.payload)
                        if answer is not None:
                            request.reply(*answer)
        self.server.close()

    def __enter__(self) -> Host:
        self.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop.set()
        self.join(5.0)


def test_send_line_returns_the_hosts_reply(sock_dir: Path) -> None:
    path = sock_dir / "h.sock"
    with Host(path, lambda payload: (True, f"got {len(payload)} bytes")):
        assert send_line(path, b'{"v":1}', 5.0) == {"ok": True, "message": "got 7 bytes"}
        assert send_line(str(path), b"x" * 1000, 5.0)["message"] == "got 1000 bytes"


def test_send_line_errors(sock_dir: Path) -> None:
    path = sock_dir / "h.sock"
    with pytest.raises(ControlError, match=f"{path}.*cannot reach the host"):
        send_line(path, b"x", 1.0)
    with pytest.raises(ControlError, match="line break"):
        send_line(path, b"a\nb", 1.0)
    with pytest.raises(ControlError, match="at most 65536 bytes"):
        send_line(path, b"x" * (MAX_LINE_BYTES + 1), 1.0)
    with Host(path, lambda payload: None), pytest.raises(ControlError, match="no reply within"):
        send_line(path, b"x", 0.3)


def test_send_line_refuses_a_reply_that_is_not_one(sock_dir: Path) -> None:
    path = sock_dir / "bad.sock"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(path))
    listener.listen(1)

    def serve(reply: bytes) -> None:
        conn, _ = listener.accept()
        conn.recv(100)
        conn.sendall(reply)
        conn.close()

    for reply, match in [
        (b"hello\n", "not JSON"),
        (b'{"ok": 1, "message": "x"}\n', "not {'ok': bool"),
        (b"", "closed without a reply"),
    ]:
        thread = threading.Thread(target=serve, args=(reply,))
        thread.start()
        with pytest.raises(ControlError, match=match):
            send_line(path, b"x", 5.0)
        thread.join(5.0)
    listener.close()
