"""``wuzi bench web``, second part: the page's server under idle connections.

``wuzi web`` is started as a user starts it (a subprocess of the CLI, ``--config``,
``--port``, ``--bind``; it prints ``wuzi web: serving http://…/`` once it listens). Then,
for 1000, 2500, 5000 and 10,000 idle TCP connections in turn (a crowd that opens the
page's socket and says nothing, or a flood): open them all, time a new viewer's
``GET /`` while they are held, drop them all at once and time new viewers' loads for
two seconds after. A load counts when the whole page arrives within `LOAD_LIMIT_S`.

* ``web.idle_sockets_held`` — the most idle sockets opened and dropped while every new
  viewer's load stayed under a second (0: not even the first step); the steps stop at
  the first one that fails;
* ``web.new_viewer_load_max_ms`` — the slowest load seen over the steps tried (a load
  that never finished counts as `GIVE_UP_S`);
* ``web.server_stop_ms`` — from SIGTERM to the server's exit (`GIVE_UP_S` if it had to
  be killed).

``quick``: one step of 100. Loopback only, bounded: at most 10,000 sockets and
`GIVE_UP_S` a load.
"""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from wuzi.sim import box
from wuzi.sim.venue_file import table_toml

__all__ = ["load_page_ms", "run_idle"]

Emit = Callable[[str, float, str], None]

STEPS = (1000, 2500, 5000, 10_000)
LOAD_LIMIT_S = 1.0
GIVE_UP_S = 5.0
AFTER_S = 2.0
CONNECT_TIMEOUT_S = 2.0
OPEN_BUDGET_S = 30.0


def load_page_ms(port: int) -> float:
    """A new viewer's load of ``/``: ms until the whole page arrived, `GIVE_UP_S` in ms
    when it did not (refused, cut, or too slow)."""
    started = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=GIVE_UP_S)
    try:
        connection.request("GET", "/")
        response = connection.getresponse()
        response.read()
        if response.status != 200:
            return GIVE_UP_S * 1000
    except (OSError, http.client.HTTPException):
        return GIVE_UP_S * 1000
    finally:
        connection.close()
    return min((time.monotonic() - started) * 1000, GIVE_UP_S * 1000)


def _venue_file(folder: Path, broker_url: str) -> Path:
    path = folder / "web-venue.toml"
    path.write_text(
        "\n".join([
            "[venue]", 'id = "bench"', 'name = "Bench hall"',
            "[broker]", f'url = "{broker_url}"',
            "[[hosts]]", 'id = "pi-1"',
            *table_toml(1, "sim://board/1", "sim://clock/1"),
            "[broadcast]", "delay_minutes = 15",
        ]) + "\n"
    )  # fmt: skip
    return path


def _start_web(folder: Path, broker_url: str) -> tuple[subprocess.Popen[bytes], int, Path]:
    port = box.free_port()
    log_path = folder / "web.log"
    args = ["web", "--config", str(_venue_file(folder, broker_url)), "--port", str(port)]
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "wuzi.cli", *args, "--bind", "127.0.0.1"],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=dict(os.environ, PYTHONUNBUFFERED="1"),
        )

    def serving() -> bool:
        if process.poll() is not None:
            raise RuntimeError(f"wuzi web exited at start:\n{log_path.read_text()}")
        return "wuzi web: serving http://" in log_path.read_text(errors="replace")

    box.wait_for(serving, 30.0, "wuzi web to serve")
    return process, port, log_path


def _open_idle(port: int, count: int) -> list[socket.socket]:
    """Up to ``count`` idle connections, opened within `OPEN_BUDGET_S`."""
    held: list[socket.socket] = []
    until = time.monotonic() + OPEN_BUDGET_S
    for _ in range(count):
        if time.monotonic() > until:
            break  # a server that accepts this slowly has its answer too
        try:
            held.append(socket.create_connection(("127.0.0.1", port), timeout=CONNECT_TIMEOUT_S))
        except OSError:
            break  # the server (or its backlog) takes no more: that is the step's answer
    return held


def _step(port: int, count: int) -> tuple[int, float]:
    """Open ``count`` idle sockets, load during, drop them, load after; (opened, worst ms)."""
    held = _open_idle(port, count)
    loads = [load_page_ms(port) for _ in range(3)]
    for sock in held:
        sock.close()
    until = time.monotonic() + AFTER_S
    while time.monotonic() < until:
        loads.append(load_page_ms(port))
        time.sleep(0.1)
    return len(held), max(loads)


def _stop_ms(process: subprocess.Popen[bytes]) -> float:
    started = time.monotonic()
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=GIVE_UP_S)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=GIVE_UP_S)
        return GIVE_UP_S * 1000
    return (time.monotonic() - started) * 1000


def run_idle(emit: Emit, quick: bool, folder: Path, broker_url: str) -> None:
    """The figures of the module doc, against ``wuzi web`` reading ``broker_url``."""
    process, port, log_path = _start_web(folder, broker_url)
    held_ok, worst = 0, 0.0
    try:
        worst = load_page_ms(port)
        for count in (100,) if quick else STEPS:
            opened, step_worst = _step(port, count)
            worst = max(worst, step_worst)
            print(
                f"# web: {opened} of {count} idle sockets opened and dropped; slowest "
                f"new viewer {step_worst:.0f} ms",
                file=sys.stderr,
                flush=True,
            )
            if opened < count or step_worst >= LOAD_LIMIT_S * 1000:
                break
            held_ok = count
    finally:
        stop = _stop_ms(process)
    emit("web.idle_sockets_held", held_ok, "sockets")
    emit("web.new_viewer_load_max_ms", worst, "ms")
    emit("web.server_stop_ms", stop, "ms")
    if stop >= GIVE_UP_S * 1000:
        print(
            f"# web: wuzi web ignored SIGTERM for {GIVE_UP_S:.0f} s ({log_path})", file=sys.stderr
        )
