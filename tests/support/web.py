"""`wuzi broadcast` and `wuzi web` as the organisers run them (subprocesses of the real
CLI), a venue file for them, and a Mosquitto that browsers reach over WebSockets."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from support.broker import MosquittoBroker, free_port, wait_until
from support.public_feed import now_ms
from wuzi.bus import topics
from wuzi.bus.client import BusClient
from wuzi.bus.schemas import (
    CompetitionState,
    MatchSummary,
    Message,
    StandingLine,
    TableEvent,
    TableState,
)

__all__ = [
    "ARGS",
    "CHROMIUM",
    "WebSocketsBroker",
    "competition",
    "publish_public",
    "running_cli",
    "web_args",
    "write_venue",
]


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


class WebSocketsBroker(MosquittoBroker):
    """A Mosquitto with a second listener speaking MQTT over WebSockets (for browsers):
    ``listener PORT 127.0.0.1`` + ``protocol websockets``, anonymous, as a venue opens it
    to followers. ``ws_url`` is what ``wuzi web --mqtt-url`` takes."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory)
        self.ws_port = free_port()
        self.ws_url = f"ws://127.0.0.1:{self.ws_port}/"
        with self.config_path.open("a") as config:
            config.write(f"listener {self.ws_port} 127.0.0.1\nprotocol websockets\n")


def publish_public(client: BusClient, venue: str, messages: list[Message]) -> None:
    """Publish each message where `wuzi broadcast` puts the delayed feed (a state retained on
    ``public/table/<n>/state``, a competition summary on ``competition/state``) and wait
    for the broker's acknowledgements."""
    for message in messages:
        if isinstance(message, TableState):
            client.publish(topics.public_state(venue, message.table), message)
        elif isinstance(message, TableEvent):
            client.publish(topics.public_events(venue, message.table), message)
        elif isinstance(message, CompetitionState):
            client.publish(topics.competition_state(venue), message)
        else:  # pragma: no cover - a test's mistake
            raise TypeError(type(message).__name__)
    assert client.wait_drained(10)


SCREENSHOTS = Path(__file__).resolve().parents[2] / "build" / "test-output"
"""Where the page's tests leave their screenshots and metrics, for a person to look at
(not kept; docs/ holds the ones the README shows)."""
CHROMIUM = Path("/usr/bin/chromium")
"""Debian's Chromium (scripts/system-deps.sh dev), driven by Playwright in the page's tests."""
# as root: no sandbox; nothing of Google's services
ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-gpu",
    "--disable-quic",
    "--disable-sync",
]


def competition() -> CompetitionState:
    return CompetitionState(
        event="全国五子棋团体赛 National team final",
        format="team-knockout-placement",
        round=4,
        rounds=4,
        matches=(MatchSummary("places 1-2", "上海", "北京", 1.0, 0.0, (1, 2, 3), "playing", None),),
        standings=(
            StandingLine(1, 1, "上海", 9.0, (21.5,)),
            StandingLine(2, 2, "北京", 7.0, (19.0,)),
            StandingLine(3, 4, "浙江", 6.0, (17.5,)),
        ),
        tiebreak_names=("board_points",),
        tiebreak_formulas=("board points",),
        bracket=(),
        finished=False,
        at_ms=now_ms(),
    )
