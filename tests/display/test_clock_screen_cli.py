"""``wuzi clock-display`` and ``wuzi arbiter`` as commands: snapshots from the samples,
a saved state and a real broker, in separate processes (each sets up its own headless
rendering), and the errors."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from support.broker import MosquittoBroker
from support.screens import (
    fraction,
    is_red,
    near,
    write_venue,
)
from wuzi.bus import topics
from wuzi.bus.client import BusClient
from wuzi.cli import main
from wuzi.display.arbiter_render import COLOURS as ARBITER_COLOURS
from wuzi.display.clock_render import COLOURS
from wuzi.display.clock_sample import sample_clock_messages, sample_clock_state
from wuzi.display.sample import state_json
from wuzi.display.snapshot import load_png


def wuzi(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "wuzi.cli", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_clock_display_sample_snapshot(tmp_path: Path) -> None:
    out = tmp_path / "clock.png"
    done = wuzi("clock-display", "--sample", "--snapshot", str(out), "--size", "1920x1080")
    assert done.returncode == 0, done.stderr
    frame = load_png(out)
    assert (frame.width, frame.height) == (1920, 1080)
    # Black's panel (left) is the running one, White's (right) is not; Black's digits red.
    assert near(frame.pixel(120, 540), COLOURS["panel_running"], 12)
    assert near(frame.pixel(1100, 540), COLOURS["panel"], 12)
    assert fraction(frame, (200, 420, 560, 260), is_red) > 0.03
    assert fraction(frame, (1100, 420, 560, 260), is_red) == 0.0


def test_clock_display_from_a_saved_state_takes_its_table(tmp_path: Path) -> None:
    paused = replace(sample_clock_state(), status="paused", running=None)
    messages = [*sample_clock_messages()[:1], (topics.table_state("sample-hall", 3), paused)]
    state = tmp_path / "state.json"
    state.write_text(state_json(messages), encoding="utf-8")
    out = tmp_path / "paused.png"
    done = wuzi("clock-display", "--state", str(state), "--snapshot", str(out), "--size", "960x540")
    assert done.returncode == 0, done.stderr
    frame = load_png(out)
    band = (0, int(540 * 0.88), 960, int(540 * 0.1))  # the pause banner along the bottom
    assert fraction(frame, band, lambda p: near(p, COLOURS["pause"], 30)) > 0.5


def test_arbiter_sample_snapshot(tmp_path: Path) -> None:
    out = tmp_path / "arbiter.png"
    done = wuzi("arbiter", "--sample", "--snapshot", str(out), "--size", "1920x1080")
    assert done.returncode == 0, done.stderr
    frame = load_png(out)
    board = (1000, 100, 880, 880)  # the right half: the board
    assert fraction(frame, board, lambda p: near(p, ARBITER_COLOURS["wood"], 25)) > 0.5
    assert fraction(frame, board, is_red) > 0.002  # the forbidden crosses, the last number
    # the first alert row's bar is the critical red
    assert near(frame.pixel(18, 100), (230, 45, 45, 255), 20)


def test_snapshot_from_a_real_broker(tmp_path: Path, mosquitto: MosquittoBroker) -> None:
    venue = "snap-venue"
    client = BusClient(mosquitto.url, "snapshot-publisher")
    client.connect()
    assert client.wait_connected(10)
    state = replace(sample_clock_state(), table=7, running=None)
    client.publish(topics.table_state(venue, 7), state)
    out = tmp_path / "live.png"
    try:
        done = wuzi(
            "clock-display", "--broker", mosquitto.url, "--venue", venue, "--table", "7",
            "--snapshot", str(out), "--size", "960x540", "--wait", "1",
        )  # fmt: skip
    finally:
        client.close()
    assert done.returncode == 0, done.stderr
    frame = load_png(out)
    # a stopped clock with 7.25 s left: red digits (low time) on a plain panel, no NO DATA
    assert fraction(frame, (100, 200, 280, 130), is_red) > 0.03


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["clock-display"], "give one of"),
        (["clock-display", "--sample", "--state", "x.json"], "give one of"),
        (["clock-display", "--broker", "mqtt://127.0.0.1:1"], "--table N is required"),
        (["clock-display", "--sample", "--size", "huge"], "WIDTHxHEIGHT"),
        (["clock-display", "--sample", "--table", "0", "--snapshot", "x"], "table number"),
        (["clock-display", "--state", "/nonexistent/state.json"], "cannot"),
        (
            ["clock-display", "--broker", "http://nope", "--table", "1", "--snapshot", "x.png"],
            "broker",
        ),
        (["arbiter"], "give one of"),
        (["arbiter", "--sample", "--referee", "chief"], "--token-file"),
        (["arbiter", "--sample", "--token-file", "t"], "need --referee"),
        (["arbiter", "--sample", "--referee", "chief", "--token-file", "t"], "needs --config"),
        (["arbiter", "--sample", "--stale-seconds", "0"], "--stale-seconds"),
    ],
)
def test_bad_options_exit_1_and_say_why(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 1
    assert message in capsys.readouterr().err


def test_arbiter_referee_errors_come_from_the_venue_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = str(write_venue(tmp_path, "hall-9"))
    args = ["arbiter", "--config", config, "--referee", "ghost", "--token-file", "x"]
    assert main(args) == 1
    assert "no referee 'ghost'" in capsys.readouterr().err
    args = ["arbiter", "--config", config, "--referee", "chief", "--password-file", "x"]
    assert main(args) == 1
    assert "use --token-file" in capsys.readouterr().err


def test_the_event_loop_draws_a_stopped_clock_once() -> None:
    import pyglet
    import pyglet.window

    from wuzi.display.clock_cli import ClockScreen, run_screen
    from wuzi.display.feed import monotonic_ms

    window = pyglet.window.Window(640, 360, visible=False)
    try:
        screen = ClockScreen(3, 640, 360)
        stopped = replace(sample_clock_state(), running=None)
        screen.apply([(topics.table_state("sample-hall", 3), stopped, monotonic_ms())])
        pyglet.clock.schedule_once(lambda _dt: pyglet.app.exit(), 0.6)
        run_screen(screen, window, polling=True, now=monotonic_ms, incremental=True)
        assert screen.frames == 1  # polled six times, nothing changed: no redraw
    finally:
        window.close()
