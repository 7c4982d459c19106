"""`wuzi scoreboard --public` shows the tables once `wuzi broadcast` publishes the public
feed: live states in, the delayed copy out, the public screen draws it (and draws no table
while only the live tree has states)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from support.broker import MosquittoBroker
from support.web import running_cli, write_venue
from wuzi.bus.client import BusClient
from wuzi.display.sample import sample_messages
from wuzi.display.scoreboard_render import COLOURS
from wuzi.display.snapshot import load_png


def wuzi(*args: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8"}  # no DISPLAY
    command = [sys.executable, "-m", "wuzi.cli", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, env=env)


def share(path: Path, colour: str) -> float:
    """The share of ``colour`` in the PNG (every 4th row and column)."""
    frame = load_png(path)
    rgb = COLOURS[colour]
    hits = total = 0
    for y in range(0, frame.height, 4):
        row = frame.rgba[y * frame.width * 4 : (y + 1) * frame.width * 4]
        for x in range(0, frame.width * 4, 16):
            total += 1
            hits += all(abs(row[x + i] - rgb[i]) <= 6 for i in range(3))
    return hits / total


def test_the_public_scoreboard_shows_the_broadcast(
    mosquitto: MosquittoBroker, tmp_path: Path
) -> None:
    venue = "sample-hall"  # the sample's venue
    venue_file = write_venue(tmp_path, venue, mosquitto.url, "[broadcast]\ndelay_minutes = 0\n")
    client = BusClient(mosquitto.url, "public-feed-sample-host")
    client.connect()
    assert client.wait_connected(5)
    for topic, message in sample_messages():  # live: table/N/state, host statuses, …
        client.publish(topic, message)
    assert client.wait_drained(5)
    client.close()
    args = ["scoreboard", "--broker", mosquitto.url, "--venue", venue, "--public"]
    before = tmp_path / "before.png"
    done = wuzi(*args, "--snapshot", str(before), "--listen-seconds", "0.5")
    assert done.returncode == 0, done.stderr
    empty = share(before, "black_stone")  # no public feed: boards without stones
    with running_cli(["broadcast", "--config", str(venue_file)], tmp_path / "broadcast.log"):
        after = tmp_path / "after.png"
        done = wuzi(*args, "--snapshot", str(after), "--listen-seconds", "2")
    assert done.returncode == 0, done.stderr
    assert share(after, "wood") > 0.15
    assert share(after, "black_stone") > empty + 0.005, empty  # the stones, from public/
