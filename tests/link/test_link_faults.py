"""Link faults, sans-I/O: refused devices carry what answered, a lost port is one
``link_down`` at once, a forged INFO is not believed, and the settle API for presses."""

from __future__ import annotations

import pytest

from support.boards import Bench
from wuzi.link import wire
from wuzi.link.errors import BoardMismatchError, DeviceMismatchError, VersionMismatchError
from wuzi.link.reconciler import LINK_DOWN, Alert, StoneEvent
from wuzi.link.session import (
    PROBE_IDLE_MS,
    STALL_AFTER_MS,
    BoardSession,
    ClockSession,
    LinkDown,
)
from wuzi.rules.board import parse_point


def info_frame(
    *,
    boot_id: int = 77,
    major: int = wire.PROTOCOL_MAJOR,
    kind: int = wire.KIND_SENSOR,
    serial: str = "SB-0001",
    seq: int = 0,
) -> bytes:
    body = bytearray(wire.LEN_INFO)
    body[wire.INFO_MAJOR] = major
    body[wire.INFO_KIND] = kind
    body[wire.INFO_DEBOUNCE] = 3
    wire.put_u16(body, wire.INFO_SCAN_US, 5000)
    wire.put_u32(body, wire.INFO_BOOT, boot_id)
    wire.put_text(body, wire.INFO_SERIAL, serial, wire.SERIAL_LEN)
    wire.put_text(body, wire.INFO_REVISION, "sensor-rev-a", wire.TEXT_LEN)
    return wire.encode(wire.T_INFO, seq, bytes(body))


def test_a_refusal_names_the_port_what_answered_and_what_was_expected() -> None:
    c = ClockSession(port_name="/dev/wuzi/clock-3", expected_serial="CK-9")
    c.connection_made(0)
    with pytest.raises(BoardMismatchError) as caught:
        c.receive_data(info_frame(serial="SB-0001"), 10)
    err = caught.value
    assert (err.port, err.expected_kind, err.expected_serial) == (
        "/dev/wuzi/clock-3",
        "clock unit",
        "CK-9",
    )
    assert (err.found_kind, err.found_serial, err.found_protocol) == (
        "sensor board",
        "SB-0001",
        "2.0",
    )
    text = str(err)
    assert "\n" not in text
    assert text.startswith("/dev/wuzi/clock-3: expected a clock unit, found a sensor board")
    assert "answered: sensor board serial 'SB-0001' wire protocol v2.0" in text
    assert "expected: a clock unit serial 'CK-9' wire protocol v2.2" in text
    assert not c.link_up and not c.identified


def test_another_protocol_is_a_device_mismatch_with_its_version() -> None:
    s = BoardSession(port_name="p1")
    s.connection_made(0)
    with pytest.raises(VersionMismatchError) as caught:
        s.receive_data(info_frame(major=3, serial="SB-0042"), 10)
    assert isinstance(caught.value, DeviceMismatchError)
    assert (caught.value.found_protocol, caught.value.found_serial) == ("3.0", "SB-0042")
    assert s.boot_id is None and not s.link_up


def test_a_lost_port_is_one_link_down_at_once_and_the_board_replays_after() -> None:
    b = Bench()
    b.step(50)
    b.table.cells[parse_point("h8")] = 1
    b.step(400)
    dead = [True]
    b.to_host = lambda data: b"" if dead[0] else data
    b.to_mcu = lambda data: b"" if dead[0] else data
    out = b.link.connection_lost(b.now, "read failed: [Errno 5] Input/output error")
    assert [(a.kind, a.detail) for a in out if isinstance(a, Alert)] == [
        (LINK_DOWN, "read failed: [Errno 5] Input/output error")
    ]
    assert b.link.connection_lost(b.now + 5, "again") == []  # one outage, one alert
    assert not b.link.settled_through(b.now)
    b.table.cells[parse_point("i9")] = 2  # placed while the cable is out
    b.step(2000)
    assert b.alerts() == []  # the silence of a closed port is the same outage
    dead[0] = False
    b.link.connection_made(b.now)
    b.step(600)
    assert b.stones() == [("h8", "black"), ("i9", "white")]
    assert b.alerts() == ["link_up"]
    assert b.link.session.health.link_downs == 1
    assert b.link.session.health.reboots == 0


def test_a_silent_link_that_then_loses_its_port_is_one_outage() -> None:
    b = Bench()
    b.step(50)
    b.to_host = lambda data: b""
    b.step(1000)
    assert b.alerts() == ["link_down"]
    assert b.link.connection_lost(b.now, "read failed") == []


def test_a_board_rebooted_while_unplugged_is_resynced_after_the_port_comes_back() -> None:
    b = Bench()
    b.step(50)
    b.table.cells[parse_point("h8")] = 1
    b.step(400)
    dead = [True]
    b.to_host = lambda data: b"" if dead[0] else data
    b.to_mcu = lambda data: b"" if dead[0] else data
    b.events += b.link.connection_lost(b.now, "the device path /dev/x vanished")
    b.reboot(boot_id=9999)  # replugged: the board powered up afresh
    b.table.cells[parse_point("i9")] = 2
    b.step(300)
    dead[0] = False
    b.link.connection_made(b.now)
    b.step(800)
    assert b.stones() == [("h8", "black"), ("i9", "white")]
    assert b.alerts() == ["link_down", "link_up", "board_rebooted"]
    assert b.link.session.health.reboots == 1


class Forger:
    """The MCU → host pipe with one CRC-valid INFO of another boot slipped in once."""

    def __init__(self, frame: bytes) -> None:
        self.frame = frame
        self.armed = False

    def __call__(self, data: bytes) -> bytes:
        if self.armed and data:
            self.armed = False
            return data + self.frame
        return data


def test_a_forged_info_is_not_believed() -> None:
    b = Bench()
    forger = Forger(info_frame(boot_id=4242, serial="SB-0001", seq=200))
    b.to_host = forger
    b.step(50)
    b.table.cells[parse_point("h8")] = 1
    b.step(400)
    forger.armed = True
    b.step(20)
    b.table.cells[parse_point("i9")] = 2
    b.step(600)
    assert b.stones() == [("h8", "black"), ("i9", "white")]  # no stone reported twice
    assert b.alerts() == []  # no phantom "removed", no reboot
    health = b.link.session.health
    assert (health.forged_info, health.reboots) == (1, 0)
    assert "INFO announcing boot 00001092 ignored" in b.link.session.last_malformed


def test_a_real_reboot_is_still_believed_after_a_forged_info() -> None:
    b = Bench()
    forger = Forger(info_frame(boot_id=4242, serial="SB-0001", seq=200))
    b.to_host = forger
    b.step(50)
    forger.armed = True
    b.step(300)
    b.table.cells[parse_point("h8")] = 1
    b.step(300)
    b.reboot(boot_id=5151)
    b.step(100)
    b.table.cells[parse_point("i9")] = 2
    b.step(500)
    assert b.stones() == [("h8", "black"), ("i9", "white")]
    assert b.alerts() == ["board_rebooted"]
    assert b.link.session.health.reboots == 1
    assert b.link.session.boot_id == 5151


def test_a_clock_unit_loses_its_port_as_a_link_down() -> None:
    c = ClockSession(port_name="/dev/wuzi/clock-1")
    c.connection_made(0)
    frame = info_frame(kind=wire.KIND_CLOCK, serial="CK-1")
    c.receive_data(frame, 10)
    assert c.link_up and c.identified
    [down] = c.connection_lost(40, "stalled: /dev/wuzi/clock-1 stopped reading")
    assert down == LinkDown(40, 30, "stalled: /dev/wuzi/clock-1 stopped reading")
    assert not c.link_up and not c.identified


def test_a_stone_put_down_at_the_press_is_settled_only_once_it_is_an_event() -> None:
    b = Bench()
    b.step(300)
    t = b.now
    b.table.cells[parse_point("h8")] = 1  # the stone lands at t; the press is stamped t
    became_event: int | None = None
    settled: int | None = None
    while b.now < t + 1000 and settled is None:
        if became_event is None and b.stones():
            became_event = b.now
        if b.link.settled_through(t):
            settled = b.now
            assert b.stones() == [("h8", "black")], "settled before the stone was an event"
        b.link.ask_now(b.now)
        b.step(5)
    assert became_event is not None and settled is not None
    assert [e.point for e in b.events if isinstance(e, StoneEvent)] == [parse_point("h8")]


def test_ask_now_settles_a_quiet_board_within_a_round_trip() -> None:
    b = Bench()
    b.step(300)
    b.link.session.health.frames = 0
    t = b.now
    asked = 0
    while not b.link.settled_through(t):
        b.link.ask_now(b.now)
        asked += 1
        b.step(5)
        assert asked < 40, "never settled"
    # answered by INFO frames (asked for), well before the 200 ms heartbeat would tell
    assert b.link.session.health.frames >= 1


def test_nothing_is_settled_while_the_link_is_down() -> None:
    b = Bench()
    b.step(300)
    b.link.connection_lost(b.now, "read failed")
    assert not b.link.settled_through(b.now - 200)


def test_a_board_that_stops_reading_is_stalled_and_comes_back_when_it_reads() -> None:
    """Heartbeats alone do not make a link: a board that takes no command (its input
    stalled) cannot be asked for a replay, so after ``STALL_AFTER_MS`` of unanswered
    HELLOs its link is down with the reason, and up again at its first answer."""
    b = Bench()
    b.step(50)
    b.table.cells[parse_point("h8")] = 1
    b.step(400)
    deaf = [True]
    b.to_mcu = lambda data: b"" if deaf[0] else data
    b.step(PROBE_IDLE_MS + STALL_AFTER_MS + 200)
    downs = [a for a in b.events if isinstance(a, Alert) and a.kind == LINK_DOWN]
    assert len(downs) == 1 and downs[0].detail.startswith("stalled: board takes no command")
    assert b.link.session.health.stalls == 1
    assert not b.link.settled_through(b.now)
    b.step(2000)
    assert b.alerts() == ["link_down"]  # one outage, however long
    b.table.cells[parse_point("i9")] = 2
    deaf[0] = False
    b.step(600)
    assert b.alerts() == ["link_down", "link_up"]
    assert b.stones() == [("h8", "black"), ("i9", "white")]


def test_a_quiet_board_that_answers_is_never_stalled() -> None:
    b = Bench()
    b.step(10 * STALL_AFTER_MS)
    assert b.alerts() == [] and b.link.session.health.stalls == 0
