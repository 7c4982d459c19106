"""``wuzi venue check`` on a hall of several events: a line per event (its tables, what
they play after the defaults, its database and its director's password file), then the
host's tables and the broker as before; the event lines are information, not a verdict."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from support.acl import Broker, generated_broker, write_events_venue
from support.io_devices import SimThread
from wuzi.cli import main
from wuzi.config import load_venue
from wuzi.sim.devices.virtual_board import VirtualBoard
from wuzi.sim.devices.virtual_clock import VirtualClock
from wuzi.venue.event_check import event_lines, table_ranges

ROOT = Path(__file__).resolve().parents[2]
HALL_2019 = ROOT / "deploy" / "venue.open-2019.example.toml"
BOARD_OK = "board SIM-0001 (firmware sensor-rev-a, protocol 2.2)"
CLOCK_OK = "clock unit SIMCLK-0001 (firmware clock-rev-a, protocol 2.2)"


def test_table_ranges_are_written_as_the_venue_file_writes_them() -> None:
    assert table_ranges([3, 1, 2, 5, 7, 8, 20]) == "1-3, 5, 7-8, 20"
    assert table_ranges([4]) == "4"
    assert table_ranges([]) == ""


def test_each_event_of_the_2019_hall_gets_its_line(tmp_path: Path) -> None:
    shutil.copy(HALL_2019, tmp_path / "venue.toml")
    (tmp_path / "men.sqlite").write_bytes(b"SQLite format 3\x00")
    folder = tmp_path / "secrets" / "events"
    folder.mkdir(parents=True)
    (folder / "men.pass").write_text("s3cret-men\n")
    (folder / "women.pass").write_text("\n")  # empty: not a password
    lines = event_lines(load_venue(tmp_path / "venue.toml"))
    assert lines == [
        f"event men (Men's group): tables 1-8 (hosts pi-1, pi-2); renju, opening "
        f"chinese-2013, time control 3600; database {tmp_path / 'men.sqlite'} present; "
        f"director wuzi.open-2019.director.men, password file {folder / 'men.pass'} readable",
        f"event women (Women's group): tables 9-12 (hosts pi-3); renju, opening "
        f"chinese-2013, time control 3600; database {tmp_path / 'women.sqlite'} missing "
        f"(wuzi tournament --db {tmp_path / 'women.sqlite'} new … makes it); director "
        f"wuzi.open-2019.director.women, password file {folder / 'women.pass'} unusable: "
        "empty",
        f"event open (Open group): tables 13-16 (hosts pi-4); no-forbidden:overline=both, "
        f"opening free, time control 3600; database {tmp_path / 'open.sqlite'} missing "
        f"(wuzi tournament --db {tmp_path / 'open.sqlite'} new … makes it); director "
        f"wuzi.open-2019.director.open, password file {folder / 'open.pass'} missing "
        "(wuzi venue broker-config makes it)",
    ]


def test_a_venue_of_one_event_has_no_event_line() -> None:
    assert event_lines(load_venue(ROOT / "deploy" / "venue.example.toml")) == []


def test_an_event_without_defaults_anywhere_says_so(tmp_path: Path) -> None:
    text = HALL_2019.read_text(encoding="utf-8")
    start, end = text.index("\n[defaults]\n"), text.index("\n[[events]]\n")
    (tmp_path / "venue.toml").write_text(text[:start] + text[end:], encoding="utf-8")
    lines = event_lines(load_venue(tmp_path / "venue.toml"))
    assert "; rules not set, opening not set, time control not set; " in lines[0]
    assert "; renju, opening chinese-2013, time control not set; " in lines[1]


@pytest.fixture(scope="module")
def broker() -> Iterator[Broker]:
    with generated_broker(writer=write_events_venue) as found:
        yield found


@pytest.fixture
def devices() -> Iterator[tuple[VirtualBoard, VirtualClock]]:
    now = time.monotonic_ns() // 1_000_000
    board, clock = VirtualBoard(seed=1), VirtualClock(seed=2)
    for device in (board, clock):
        device.open_pty()
        device.boot(now)
    with SimThread([board, clock]):
        yield board, clock
    board.close()
    clock.close()


def test_the_check_of_a_hall_reports_the_events_then_the_host(
    broker: Broker,
    devices: tuple[VirtualBoard, VirtualClock],
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Host h2 (table 4, the women's) on the broker broker-config made for the hall:
    its line per event first, then its table and the broker, exit 0."""
    board, clock = devices
    text = (broker.directory / "venue.toml").read_text(encoding="utf-8")
    text = text.replace("sim://board/4", board.path).replace("sim://clock/4", clock.path)
    path = broker.directory / "check.toml"
    path.write_text(text, encoding="utf-8")
    (broker.directory / "women.sqlite").write_bytes(b"")
    argv = ["venue", "check", "--config", str(path), "--host", "h2", "--timeout", "1"]
    code = main(argv)
    lines = capsys.readouterr().out.splitlines()
    d = broker.directory
    assert lines == [
        f"event men (Men's group): tables 1-2 (hosts h1); rules not set, opening not set, "
        f"time control not set; database {d / 'men.sqlite'} missing (wuzi tournament --db "
        f"{d / 'men.sqlite'} new … makes it); director wuzi.acl-events.director.men, "
        f"password file {d / 'secrets/events/men.pass'} readable",
        f"event women (Women's group): tables 3-4 (hosts h1, h2); rules not set, opening "
        f"not set, time control not set; database {d / 'women.sqlite'} present; director "
        f"wuzi.acl-events.director.women, password file {d / 'secrets/events/women.pass'} "
        "readable",
        f"table 4: ok {BOARD_OK} {CLOCK_OK}",
        "broker: ok as wuzi.acl-events.check.h2",
    ]
    assert code == 0
