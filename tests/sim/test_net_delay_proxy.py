"""The delaying proxy on real loopback sockets: the delay it applies and measures, a stream's
order under jitter, both kinds of cut and the restore, its controls from this process, the
control socket and signals, and a stop within a second."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import pytest

from support.echo import echo_server
from wuzi.sim.net.delay import OneWayDelay
from wuzi.sim.net.proxy import CutMode, DelayProxy, control


@pytest.fixture
def echo() -> Iterator[tuple[str, int]]:
    with echo_server() as address:
        yield address


def _connect(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=3)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def _receive(sock: socket.socket, count: int) -> bytes:
    got = b""
    while len(got) < count:
        chunk = sock.recv(65536)
        if not chunk:
            break
        got += chunk
    return got


def _closed(sock: socket.socket) -> bool:
    """Whether the proxy ended this connection (EOF or reset) within a second."""
    sock.settimeout(1.0)
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def test_each_direction_applies_and_measures_the_asked_delay(echo: tuple[str, int]) -> None:
    with DelayProxy(echo, up=OneWayDelay(75, 15), down=OneWayDelay(40, 10), seed=5) as proxy:
        sock = _connect(proxy.port)
        reader = threading.Thread(target=lambda: received.append(_receive(sock, 40)))
        received: list[bytes] = []
        started = time.monotonic()
        reader.start()
        for i in range(40):  # 35 ms apart: more than the jitter's width, so no chunk waits
            sock.sendall(bytes([i]))  # for the one before it and each keeps its own draw
            time.sleep(0.035)
        reader.join(5)
        elapsed_ms = (time.monotonic() - started) * 1000
        sock.close()
        stats = proxy.stats()
    assert received == [bytes(range(40))]
    up, down = stats["up"], stats["down"]
    assert up is not None and down is not None
    assert up.count == down.count == 40
    assert abs(up.median_ms - 75) <= 5, up
    assert abs(down.median_ms - 40) <= 5, down
    assert up.min_ms >= 60 and down.min_ms >= 30  # never faster than the line allows
    assert elapsed_ms >= 39 * 35 + 60 + 30  # the last byte came back after both delays


def test_jitter_never_reorders_a_stream(echo: tuple[str, int]) -> None:
    payload = b"".join(i.to_bytes(2, "big") for i in range(3000))
    with DelayProxy(echo, up=OneWayDelay(20, 15), seed=1) as proxy:
        sock = _connect(proxy.port)
        reader = threading.Thread(target=lambda: received.append(_receive(sock, len(payload))))
        received: list[bytes] = []
        reader.start()
        for start in range(0, len(payload), 20):  # many small chunks, about 1 ms apart
            sock.sendall(payload[start : start + 20])
            time.sleep(0.001)
        reader.join(10)
        sock.close()
        stats = proxy.stats()
    assert received == [payload]
    assert stats["up"] is not None and stats["up"].count > 10  # many chunks, many draws


def test_a_dropped_line_resets_and_refuses_until_restored(echo: tuple[str, int]) -> None:
    with DelayProxy(echo, up=OneWayDelay(5)) as proxy:
        held = _connect(proxy.port)
        held.sendall(b"x")
        assert _receive(held, 1) == b"x"
        proxy.cut()
        assert proxy.status().cut is CutMode.DROP
        assert _closed(held)
        held.close()
        refused = _connect(proxy.port)
        assert _closed(refused)  # accepted and closed at once
        refused.close()
        proxy.restore()
        back = _connect(proxy.port)
        back.sendall(b"back")
        assert _receive(back, 4) == b"back"
        back.close()
        status = proxy.status()
    assert (status.cut, status.cuts, status.accepted) == (None, 1, 2)


def test_a_blackholed_line_holds_everything_in_order_until_restored(
    echo: tuple[str, int],
) -> None:
    with DelayProxy(echo, up=OneWayDelay(5)) as proxy:
        sock = _connect(proxy.port)
        sock.sendall(b"a")
        assert _receive(sock, 1) == b"a"
        proxy.cut(CutMode.BLACKHOLE)
        for byte in b"bcdef":
            sock.sendall(bytes([byte]))
            time.sleep(0.01)
        late = _connect(proxy.port)  # a new connection is held as well
        late.sendall(b"late")
        assert not _closed(sock)  # nothing came back, and the connection is still open
        proxy.restore()
        sock.settimeout(3)
        late.settimeout(3)
        assert _receive(sock, 5) == b"bcdef"
        assert _receive(late, 4) == b"late"
        sock.close()
        late.close()
        stats = proxy.stats()
    assert stats["up"] is not None and stats["up"].max_ms < 500  # held chunks are not samples


def test_another_process_cuts_and_restores_through_the_control_socket(
    echo: tuple[str, int],
) -> None:
    with DelayProxy(echo, up=OneWayDelay(1), control_port=0) as proxy:
        assert proxy.control_port is not None
        assert control(proxy.control_port, "cut blackhole")["cut"] == "blackhole"
        assert proxy.status().cut is CutMode.BLACKHOLE
        assert control(proxy.control_port, "cut")["cut"] == "drop"
        answer = control(proxy.control_port, "restore")
        assert (answer["cut"], answer["cuts"]) == (None, 1)  # drop after blackhole: one cut
        with pytest.raises(ValueError, match="unknown command 'cut sideways'"):
            control(proxy.control_port, "cut sideways")
        assert control(proxy.control_port, "status")["cut"] is None


def test_stop_returns_within_a_second_with_connections_open(echo: tuple[str, int]) -> None:
    proxy = DelayProxy(echo, up=OneWayDelay(300), control_port=0).start()
    sockets = [_connect(proxy.port) for _ in range(5)]
    for sock in sockets:
        sock.sendall(b"in flight")  # still in the proxy's queue when it stops
    blackholed = _connect(proxy.port)
    proxy.cut(CutMode.BLACKHOLE)
    blackholed.sendall(b"held")
    started = time.monotonic()
    proxy.stop()
    assert time.monotonic() - started < 1.0
    assert all(_closed(sock) for sock in [*sockets, blackholed])
    with pytest.raises(OSError):
        _connect(proxy.port).recv(1)
    with pytest.raises(RuntimeError, match="not running"):
        proxy.cut()
    for sock in [*sockets, blackholed]:
        sock.close()


def _start_process(echo: tuple[str, int], *extra: str) -> tuple[subprocess.Popen[str], int]:
    process = subprocess.Popen(
        [sys.executable, "-m", "wuzi.sim.net.proxy", "--target", f"{echo[0]}:{echo[1]}", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    words = process.stdout.readline().split()
    assert words[:1] == ["listening"], process.communicate(timeout=5)
    return process, int(words[1])


def test_as_a_process_it_obeys_signals_and_stops_within_a_second(echo: tuple[str, int]) -> None:
    process, port = _start_process(echo, "--delay-ms", "10", "--jitter-ms", "2")
    try:
        sock = _connect(port)
        sock.sendall(b"hi")
        assert _receive(sock, 2) == b"hi"
        process.send_signal(signal.SIGUSR1)
        assert _closed(sock)
        sock.close()
        process.send_signal(signal.SIGUSR2)
        time.sleep(0.3)
        sock = _connect(port)
        sock.sendall(b"again")
        assert _receive(sock, 5) == b"again"
        started = time.monotonic()
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=5) == 0
        assert time.monotonic() - started < 1.0
        sock.close()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_as_a_process_a_bad_delay_is_named() -> None:
    command = ["-m", "wuzi.sim.net.proxy", "--target", "127.0.0.1:1", "--jitter-ms", "99"]
    result = subprocess.run(
        [sys.executable, *command],
        capture_output=True,
        text=True,
        timeout=10,
    )
    assert result.returncode == 2
    assert "jitter must be between 0 and the delay (75.0 ms), got 99.0 ms" in result.stderr
    assert "Traceback" not in result.stderr


def test_stop_a_moment_after_connections_still_closes_each(echo: tuple[str, int]) -> None:
    """Connections the kernel accepted just before stop(), whose handler has not run yet,
    are ended too: no end is left open (its peer waiting for a line that is gone)."""
    for _ in range(10):
        proxy = DelayProxy(echo, up=OneWayDelay(5)).start()
        sockets = [_connect(proxy.port) for _ in range(20)]
        proxy.stop()
        assert all(_closed(sock) for sock in sockets)
        for sock in sockets:
            sock.close()
