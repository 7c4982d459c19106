"""``wuzi scoreboard`` as a real process: headless set up by the command itself, frames
checked against the same venue drawn in-process, saved states, a live broker."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from support.broker import MosquittoBroker
from wuzi.bus.client import BusClient
from wuzi.cli import main
from wuzi.display.sample import sample_messages, sample_state_json
from wuzi.display.scoreboard_cli import FILTERS, PUBLIC_FILTERS
from wuzi.display.scoreboard_render import COLOURS
from wuzi.display.snapshot import Frame, load_png

Pixel = tuple[int, int, int, int]


def wuzi(*args: str, timeout: float = 60, **extra: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8", **extra}  # no DISPLAY
    return subprocess.run(
        [sys.executable, "-m", "wuzi.cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        check=False,
    )


def share(frame: Frame, rgb: tuple[int, int, int], tol: int = 6, step: int = 4) -> float:
    """The share of pixels within ``tol`` of ``rgb`` (every ``step``-th row and column)."""
    hits = total = 0
    lo = bytes(max(0, c - tol) for c in rgb)
    hi = bytes(min(255, c + tol) for c in rgb)
    for y in range(0, frame.height, step):
        row = frame.rgba[y * frame.width * 4 : (y + 1) * frame.width * 4]
        for x in range(0, frame.width * 4, step * 4):
            total += 1
            if (
                lo[0] <= row[x] <= hi[0]
                and lo[1] <= row[x + 1] <= hi[1]
                and lo[2] <= row[x + 2] <= hi[2]
            ):
                hits += 1
    return hits / total


@pytest.fixture(scope="module")
def sample_png(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("cli") / "sample.png"
    done = wuzi("scoreboard", "--sample", "--snapshot", str(out), "--size", "1920x1080")
    assert done.returncode == 0, done.stderr
    return out


def test_sample_snapshot_without_a_display(sample_png: Path) -> None:
    frame = load_png(sample_png)
    assert (frame.width, frame.height) == (1920, 1080)
    assert share(frame, COLOURS["wood"]) > 0.15  # 24 boards
    assert share(frame, COLOURS["running"]) > 0.01  # running clocks
    assert share(frame, COLOURS["stale"], 12) > 0.001  # two stale badges


def test_xvfb_fallback_renders_the_same(sample_png: Path, tmp_path: Path) -> None:
    """Where EGL cannot work the command starts its own Xvfb (and stops it at exit)."""
    out = tmp_path / "xvfb.png"
    done = wuzi("scoreboard", "--sample", "--snapshot", str(out), WUZI_HEADLESS="xvfb")
    assert done.returncode == 0, done.stderr
    frame = load_png(out)
    assert share(frame, COLOURS["wood"]) == pytest.approx(
        share(load_png(sample_png), COLOURS["wood"])
    )


def test_saved_state_replays_the_same_frame(sample_png: Path, tmp_path: Path) -> None:
    state = tmp_path / "venue.json"
    done = wuzi("scoreboard", "--sample", "--save-state", str(state))
    assert done.returncode == 0, done.stderr
    assert state.read_text(encoding="utf-8") == sample_state_json()
    entries = json.loads(state.read_text(encoding="utf-8"))
    assert all(set(e) == {"topic", "payload"} for e in entries)
    out = tmp_path / "replay.png"
    done = wuzi("scoreboard", "--state", str(state), "--snapshot", str(out))
    assert done.returncode == 0, done.stderr
    assert load_png(out) == load_png(sample_png)


def test_other_pages_and_sizes(tmp_path: Path, sample_png: Path) -> None:
    bracket = tmp_path / "bracket.png"
    assert (
        wuzi("scoreboard", "--sample", "--snapshot", str(bracket), "--page", "bracket").returncode
        == 0
    )
    frame = load_png(bracket)
    assert share(frame, COLOURS["wood"]) == 0 and share(frame, COLOURS["box"], 3) > 0.3
    big = tmp_path / "4k.png"
    done = wuzi(
        "scoreboard", "--sample", "--snapshot", str(big), "--size", "3840x2160", "--focus", "13"
    )
    assert done.returncode == 0, done.stderr
    frame = load_png(big)
    assert (frame.width, frame.height) == (3840, 2160)
    assert share(frame, COLOURS["wood"]) > 0.2  # one big board


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--snapshot", "x.png"], "give one of"),
        (["--sample", "--size", "big"], "WIDTHxHEIGHT"),
        (["--sample", "--size", "10x10"], "64-8192"),
        (["--sample", "--delay-minutes", "-3"], "delay"),
        (["--sample", "--broker", "mqtt://x"], "give one of"),
        (["--broker", "http://x", "--snapshot", "x.png"], "scheme"),
        (["--config", "/nonexistent/venue.toml"], "cannot read"),
    ],
)
def test_bad_input_exits_1_with_a_reason(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["scoreboard", *args]) == 1
    assert message in capsys.readouterr().err


def test_bad_state_file_names_the_entry(tmp_path: Path) -> None:
    state = tmp_path / "bad.json"
    entries: list[dict[str, Any]] = json.loads(sample_state_json())
    entries[3]["payload"]["black_ms"] = "soon"
    state.write_text(json.dumps(entries), encoding="utf-8")
    done = wuzi("scoreboard", "--state", str(state), "--snapshot", str(tmp_path / "x.png"))
    assert done.returncode == 1
    assert "entry 3" in done.stderr and "black_ms" in done.stderr
    assert not (tmp_path / "x.png").exists()
    referee = [{"topic": "wuzi/v1/hall/arbiter/table/1/state", "payload": {}}]
    state.write_text(json.dumps(referee), encoding="utf-8")
    done = wuzi("scoreboard", "--state", str(state), "--snapshot", str(tmp_path / "x.png"))
    assert done.returncode == 1 and "referee-only" in done.stderr


def test_never_subscribes_to_referee_topics() -> None:
    for topic_filter in (*FILTERS, *PUBLIC_FILTERS):
        assert not topic_filter.startswith("arbiter")


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[MosquittoBroker]:
    b = MosquittoBroker(tmp_path)
    b.start()
    yield b
    b.stop()


def publish_sample(broker: MosquittoBroker, *, public: bool) -> None:
    client = BusClient(broker.url, "sample-publisher")
    client.connect()
    assert client.wait_connected(5)
    for topic, message in sample_messages():
        if public:
            topic = topic.replace("/table/", "/public/table/")
        client.publish(topic, message)
    assert client.wait_drained(5)
    client.close()


@pytest.mark.parametrize("public", [False, True])
def test_live_venue_from_a_broker(broker: MosquittoBroker, tmp_path: Path, public: bool) -> None:
    publish_sample(broker, public=public)
    out = tmp_path / "live.png"
    args = ["scoreboard", "--broker", broker.url, "--snapshot", str(out), "--listen-seconds", "0.5"]
    done = wuzi(*args, *(["--public"] if public else []))
    assert done.returncode == 0, done.stderr
    frame = load_png(out)
    assert share(frame, COLOURS["wood"]) > 0.15  # the venue (discovered: no --venue) came in
    assert share(frame, COLOURS["stale"], 12) > 0.001
    other = tmp_path / "other.png"
    done = wuzi(*args[:-3], str(other), "--listen-seconds", "0.5", "--venue", "nobody")
    assert done.returncode == 0, done.stderr
    assert share(load_png(other), COLOURS["wood"]) == 0  # another venue: nothing to show


def test_config_gives_the_broker_and_the_venue(broker: MosquittoBroker, tmp_path: Path) -> None:
    example = Path(__file__).resolve().parents[2] / "deploy" / "venue.example.toml"
    lines = []
    for line in example.read_text(encoding="utf-8").splitlines():
        if line.startswith("url = ") and "mqtt" in line:
            line = f'url = "{broker.url}"'
        if line.startswith(("password_file", "ca_file", "username")):
            continue
        lines.append(line)
    config = tmp_path / "venue.toml"
    config.write_text("\n".join(lines) + "\n", encoding="utf-8")
    client = BusClient(broker.url, "config-publisher")
    client.connect()
    assert client.wait_connected(5)
    for topic, message in sample_messages():
        client.publish(topic.replace("/sample-hall/", "/team-final-2025/"), message)
    assert client.wait_drained(5)
    client.close()
    out = tmp_path / "config.png"
    done = wuzi(
        "scoreboard", "--config", str(config), "--snapshot", str(out), "--listen-seconds", "0.3"
    )
    assert done.returncode == 0, done.stderr
    assert share(load_png(out), COLOURS["wood"]) > 0.15
