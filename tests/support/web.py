"""`wuzi broadcast` and `wuzi web` as the organisers run them (subprocesses of the real
CLI), a venue file for them, and a raw server-sent-events reader."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from support.broker import free_port, wait_until

__all__ = ["SseClient", "running_cli", "write_venue"]


def write_venue(directory: Path, venue_id: str, broker_url: str, extra: str = "") -> Path:
    """A venue of two hosts (tables 1-2 and 3-4) on ``broker_url``; ``extra`` is appended
    (e.g. a ``[broadcast]`` section)."""
    lines = ["[venue]", f'id = "{venue_id}"', 'name = "全国团体赛 Web test"', "[broker]"]
    lines.append(f'url = "{broker_url}"')
    for host, tables in (("pi-1", (1, 2)), ("pi-2", (3, 4))):
        lines += ["[[hosts]]", f'id = "{host}"']
        for n in tables:
            lines += [
                "  [[hosts.tables]]",
                f"  number = {n}",
                f'  board_port = "/dev/b{n}"',
                f'  clock_port = "/dev/c{n}"',
            ]
    path = directory / "venue.toml"
    path.write_text("\n".join(lines) + "\n" + extra)
    return path


@contextmanager
def running_cli(
    args: list[str], log_path: Path, ready: str | None = None
) -> Iterator[subprocess.Popen[bytes]]:
    """``wuzi ARGS`` in the background (log in ``log_path``); waits for ``ready`` in its
    output when given; SIGTERM at the end, and its exit status must be 0."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    log = log_path.open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "wuzi.cli", *args], stdout=log, stderr=subprocess.STDOUT, env=env
    )
    try:
        if ready is not None:
            wait_until(
                lambda: ready in log_path.read_text(errors="replace") or process.poll() is not None,
                20,
                f"'{ready}' from wuzi {args[0]}",
            )
            assert process.poll() is None, log_path.read_text(errors="replace")
        yield process
    finally:
        process.terminate()
        try:
            code = process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            code = process.wait(10)
        log.close()
        assert code == 0, f"wuzi {args[0]} exited {code}:\n{log_path.read_text(errors='replace')}"


def web_args(venue_file: Path, port: int | None = None) -> tuple[list[str], int]:
    port = port or free_port()
    return ["web", "--config", str(venue_file), "--port", str(port), "--bind", "127.0.0.1"], port


class SseClient:
    """One raw event-stream connection: events (name, data, arrival wall ms) as they come."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.sock.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
        self.buffer = b""
        self.events: list[tuple[str, object, int]] = []

    def read_until(self, predicate: object, timeout_s: float = 10.0) -> None:
        """Read until ``predicate(events)`` holds."""
        assert callable(predicate)
        deadline = time.monotonic() + timeout_s
        while not predicate(self.events):
            left = deadline - time.monotonic()
            assert left > 0, f"timed out; got {[e[0] for e in self.events]}"
            self.sock.settimeout(left)
            chunk = self.sock.recv(65536)
            assert chunk, "the server closed the stream"
            self.buffer += chunk
            while b"\n\n" in self.buffer:
                block, self.buffer = self.buffer.split(b"\n\n", 1)
                name, data = "", ""
                for line in block.decode().split("\n"):
                    if line.startswith("event: "):
                        name = line[7:]
                    elif line.startswith("data: "):
                        data = line[6:]
                if name:
                    self.events.append((name, json.loads(data), time.time_ns() // 1_000_000))

    def close(self) -> None:
        self.sock.close()
