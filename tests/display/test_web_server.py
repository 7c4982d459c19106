"""`wuzi web`'s hardened server, run as the organisers run it (the real CLI in a subprocess):
the page's files with their headers, a slow client cut at the idle timeout while others are
served, a flood of idle sockets dropped without locking out the next viewer, and SIGTERM
with connections open → exit 0 within a few seconds, with no traceback in the log.

Functional checks with generous bounds; the figures belong to `wuzi bench web`.
"""

from __future__ import annotations

import gzip
import hashlib
import http.client
import json
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest

from support.broker import free_port, wait_until
from support.web import write_venue
from wuzi.display.web_page import vendored_client

IDLE_S = 1.0
WS_URL = "ws://127.0.0.1:9001/"


@contextmanager
def web(tmp_path: Path, idle_s: float = IDLE_S) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """``wuzi web`` on a free port; stopped (SIGKILL) at the end if the test did not."""
    venue = write_venue(
        tmp_path, "web-srv", "mqtt://127.0.0.1:1", "[broadcast]\ndelay_minutes = 15\n"
    )
    port = free_port()
    log = tmp_path / "web.log"
    args = ["web", "--config", str(venue), "--port", str(port), "--bind", "127.0.0.1"]
    args += ["--mqtt-url", WS_URL, "--idle-timeout", str(idle_s), "--log-level", "debug"]
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "wuzi.cli", *args], stdout=out, stderr=subprocess.STDOUT
        )
    try:
        wait_until(
            lambda: "serving http://" in log.read_text() or process.poll() is not None,
            30,
            "wuzi web to listen",
        )
        assert process.poll() is None, log.read_text()
        yield process, port
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)
    text = log.read_text(errors="replace")
    assert "Traceback" not in text, text[-3000:]


def get(
    port: int, path: str, gz: bool = False, timeout_s: float = 5.0
) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout_s)
    try:
        connection.request("GET", path, headers={"Accept-Encoding": "gzip"} if gz else {})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def test_the_page_files_with_their_headers(tmp_path: Path) -> None:
    with web(tmp_path) as (_process, port):
        status, headers, page = get(port, "/")
        assert status == 200 and headers["Content-Type"].startswith("text/html")
        assert b'<script src="app.js"' in page
        csp = headers["Content-Security-Policy"]
        assert "default-src 'self'" in csp and "connect-src 'self' ws://127.0.0.1:9001;" in csp
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert get(port, "/game?id=g-1")[2] == page  # the one-game view is the same page
        config = json.loads(get(port, "/config.json")[2])
        assert config["mqtt_url"] == WS_URL and config["delay_minutes"] == 15
        client = vendored_client()
        status, headers, body = get(port, f"/vendor/{client['file']}", gz=True)
        assert headers["Content-Encoding"] == "gzip"
        assert hashlib.sha256(gzip.decompress(body)).hexdigest() == client["sha256"]
        assert get(port, "/etc/passwd")[0] == 404
        assert get(port, "/../web_page.py")[0] == 404
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        connection.request("POST", "/", body=b"x")
        assert connection.getresponse().status == 405
        connection.close()


def test_a_slow_client_is_cut_at_the_timeout_while_another_is_served(tmp_path: Path) -> None:
    with web(tmp_path) as (_process, port):
        slow = socket.create_connection(("127.0.0.1", port), timeout=10)
        slow.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # never ends its headers
        idle = socket.create_connection(("127.0.0.1", port), timeout=10)  # sends nothing
        opened = time.monotonic()
        for _ in range(5):  # others are served meanwhile, one after another
            assert get(port, "/app.css")[0] == 200
            slow.sendall(b"X-Slow: 1\r\n")
            time.sleep(0.1)
        closed = []
        for sock in (slow, idle):
            try:
                while sock.recv(4096):  # an error response, if any, then the close
                    pass
            except ConnectionResetError:
                pass
            closed.append(time.monotonic() - opened)
            sock.close()
        assert all(IDLE_S * 0.5 < t < IDLE_S + 5 for t in closed), closed


def test_a_header_flood_is_refused_while_others_are_served(tmp_path: Path) -> None:
    with web(tmp_path, idle_s=30) as (_process, port):
        floods = []
        for n in range(20):
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            if n % 2:  # too many headers
                sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n" + b"X-A: b\r\n" * 500 + b"\r\n")
            else:  # one header line far too long
                sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 100_000)
            floods.append(sock)
        assert get(port, "/app.js")[0] == 200
        for sock in floods:
            answer = b""
            try:
                while chunk := sock.recv(65536):
                    answer += chunk
            except ConnectionResetError:
                pass
            assert answer == b"" or answer[:10] in (b"HTTP/1.0 4", b"HTTP/1.1 4"), answer[:80]
            sock.close()
        assert get(port, "/")[0] == 200


def test_a_port_in_use_is_one_line_and_exit_1(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        venue = write_venue(tmp_path, "web-busy", "mqtt://127.0.0.1:1")
        done = subprocess.run(
            [sys.executable, "-m", "wuzi.cli", "web", "--config", str(venue), "--port",
             str(port), "--bind", "127.0.0.1"],
            capture_output=True,
            text=True,
            timeout=60,
        )  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.startswith(f"wuzi web: cannot listen on 127.0.0.1:{port}: ")
    assert done.stderr.count("\n") == 1, done.stderr


def test_idle_sockets_opened_and_dropped_do_not_keep_a_viewer_waiting(tmp_path: Path) -> None:
    with web(tmp_path, idle_s=30) as (_process, port):
        sockets = []
        for _ in range(2000):
            sockets.append(socket.create_connection(("127.0.0.1", port), timeout=10))
        started = time.monotonic()
        assert get(port, "/", timeout_s=5)[0] == 200, "a viewer while 2,000 sockets are idle"
        during = time.monotonic() - started
        for sock in sockets:
            sock.setsockopt(
                socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00"
            )
            sock.close()  # an abortive close (RST), as a crowd of phones going away
        started = time.monotonic()
        assert get(port, "/", timeout_s=5)[0] == 200, "a viewer after 2,000 sockets dropped"
        after = time.monotonic() - started
        assert during < 3 and after < 3, (during, after)


def test_sigterm_with_open_connections_exits_0_within_seconds(tmp_path: Path) -> None:
    with web(tmp_path, idle_s=60) as (process, port), ExitStack() as stack:
        for n in range(50):
            sock = stack.enter_context(socket.create_connection(("127.0.0.1", port), timeout=10))
            if n % 2:
                sock.sendall(b"GET /app.js HTTP/1.1\r\nHost: x\r\nX-Half: ")  # half-sent
        kept = stack.enter_context(socket.create_connection(("127.0.0.1", port), timeout=10))
        kept.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")  # a keep-alive connection
        assert kept.recv(100).startswith(b"HTTP/1.1 200")
        time.sleep(0.2)
        started = time.monotonic()
        process.send_signal(signal.SIGTERM)
        code = process.wait(10)
        took = time.monotonic() - started
        assert code == 0
        assert took < 4, f"SIGTERM took {took:.1f} s"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--mqtt-url", "http://example.org/"], "ws:// or wss://"),
        (["--mqtt-url", "ws://user:pw@example.org/"], "no login"),
        (["--port", "99999"], "a port 0-65535"),
    ],
)
def test_bad_input_is_one_line(tmp_path: Path, extra: list[str], message: str) -> None:
    venue = write_venue(tmp_path, "web-bad", "mqtt://127.0.0.1:1")
    done = subprocess.run(
        [sys.executable, "-m", "wuzi.cli", "web", "--config", str(venue), *extra],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode in (1, 2), done.stderr
    assert message in done.stderr and "Traceback" not in done.stderr
    if done.returncode == 1:
        assert done.stderr.count("\n") == 1, done.stderr


def test_a_bad_venue_file_is_one_line_and_exit_1(tmp_path: Path) -> None:
    bad = write_venue(tmp_path, "x", "mqtt://127.0.0.1:1", "[broadcast]\ndelay_minutes = 999\n")
    done = subprocess.run(
        [sys.executable, "-m", "wuzi.cli", "web", "--config", str(bad)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"wuzi web: {bad}: broadcast.delay_minutes: the delay must be 0-240 minutes, not 999"
    ]
