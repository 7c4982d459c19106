"""``LinkLoop`` asks a driver's deadline again only once the driver changed, and every
driver's at least every ``ASK_ALL_MS``: a host loop of 48 drivers must not ask 48 of them
each turn, and must not miss a timer a call into a driver brought forward."""

from __future__ import annotations

import inspect
import os
from collections.abc import Iterator

import pytest
import serial

from wuzi.io.serial_link import ASK_ALL_MS, BoardDriver, ClockDriver, LinkLoop, SerialDriver
from wuzi.link.session import ClockSession


class Counting(BoardDriver):
    """A board driver that counts how often the loop asks its deadline."""

    asked = 0

    def deadline_ms(self) -> int | None:
        self.asked += 1
        return super().deadline_ms()


class TimedSession(ClockSession):
    """A clock unit's session whose next deadline the test sets, and which notes when it
    was polled."""

    def __init__(self) -> None:
        super().__init__(port_name="pty")
        self.at: int | None = None
        self.polled: list[int] = []

    def next_deadline_ms(self) -> int | None:
        return self.at

    def poll(self, now_ms: int) -> list[object]:  # type: ignore[override]
        if self.at is not None and now_ms >= self.at:
            self.polled.append(now_ms)
            self.at = None
        return []


def never_opens(url: str) -> serial.Serial:
    raise serial.SerialException(f"could not open port {url}")


@pytest.fixture
def pty_path() -> Iterator[str]:
    """A pty whose other end nobody reads or writes: a port that stays open and quiet."""
    master, slave = os.openpty()
    yield os.ttyname(slave)
    os.close(master)
    os.close(slave)


def turn(loop: LinkLoop, now: list[int], t_ms: int) -> None:
    now[0] = t_ms
    loop.run_once(lambda drv, ev: None, max_wait_ms=0)


def test_only_changed_drivers_are_asked_and_all_of_them_now_and_then() -> None:
    now = [0]
    loop = LinkLoop(clock=lambda: now[0])
    drivers = [Counting(f"/dev/wuzi/board-{n}", opener=never_opens) for n in range(3)]
    for driver in drivers:
        driver.backoff.min_ms = driver.backoff.max_ms = 10_000  # no retry in this test
        loop.add(driver)
    turn(loop, now, 1)  # the first turn asks every driver
    asked = [d.asked for d in drivers]
    for t in range(2, 40):
        turn(loop, now, t)
    assert [d.asked for d in drivers] == asked, "unchanged drivers were asked again"

    drivers[1].expect(None)  # a call from the host: that driver is asked at the next turn
    turn(loop, now, 40)
    assert [d.asked - a for d, a in zip(drivers, asked, strict=True)] == [0, 1, 0]

    turn(loop, now, 1 + ASK_ALL_MS)  # and every driver, once ASK_ALL_MS has passed
    assert [d.asked - a for d, a in zip(drivers, asked, strict=True)] == [1, 2, 1]
    loop.close()


def test_a_deadline_a_call_brought_forward_is_met_at_the_next_turn(pty_path: str) -> None:
    now = [0]
    loop = LinkLoop(clock=lambda: now[0])
    session = TimedSession()
    driver = ClockDriver(pty_path, session)
    loop.add(driver)
    for t in range(1, 10):
        turn(loop, now, t)
    session.at = 12
    driver.leds(0b1)  # the host's call marks the driver: its new deadline is asked
    for t in range(10, 20):
        turn(loop, now, t)
    assert session.polled == [12]
    loop.close()


def test_a_change_nobody_marked_is_found_within_ask_all_ms(pty_path: str) -> None:
    """The safety net: state changed behind the driver's back (no call marked it) costs a
    late timer, never a lost one."""
    now = [0]
    loop = LinkLoop(clock=lambda: now[0])
    session = TimedSession()
    driver = ClockDriver(pty_path, session)
    loop.add(driver)
    turn(loop, now, 1)
    session.at = 5  # not told to the driver
    for t in range(2, 2 * ASK_ALL_MS):
        turn(loop, now, t)
    assert len(session.polled) == 1
    assert 5 <= session.polled[0] <= 1 + ASK_ALL_MS
    loop.close()


# every public call into a driver either marks it changed or only reads it; a new one
# must be put in one list or the other (a call that changes a deadline unmarked would be
# met only by the ASK_ALL_MS safety net)
CHANGES = {
    "try_open": (0,),
    "close": (),
    "read": (0,),
    "timer": (0,),
    "on_readable": (0,),
    "on_writable": (0,),
    "on_timer": (0,),
    "expect": (None,),
    "vouch_now": (0,),
    "ask_now": (0,),
    "light_point": (0, 1, 0),
    "dark_point": (0,),
    "display": (0, b"\x00\x00\x00\x00"),
    "leds": (0,),
    "flush": (),
}
READS = {"deadline_ms", "fault", "fileno", "frames", "settled_through"}


def public_calls(cls: type) -> set[str]:
    return {
        name
        for name, member in inspect.getmembers(cls)
        if not name.startswith("_") and inspect.isfunction(member)
    }


@pytest.mark.parametrize("cls", [BoardDriver, ClockDriver])
def test_every_call_that_changes_a_driver_marks_it(cls: type[SerialDriver[object]]) -> None:
    calls = public_calls(cls)
    assert calls - CHANGES.keys() - READS == set(), "decide: does it change the driver?"
    master, slave = os.openpty()
    try:
        driver = cls(os.ttyname(slave))
        driver.try_open(0)
        for name in sorted(calls & CHANGES.keys()):
            driver.changed = False
            getattr(driver, name)(*CHANGES[name])
            assert driver.changed, f"{cls.__name__}.{name} does not mark the driver changed"
        driver.close()
    finally:
        os.close(master)
        os.close(slave)


def test_a_quiet_port_is_not_serving(pty_path: str) -> None:
    """``serving`` is the host's cheap question each turn: only a device heard on this
    connection serves; a port that opened and stays quiet does not (and ``fault`` says
    so once its time is up)."""
    driver = BoardDriver(pty_path)
    assert not driver.serving
    assert driver.try_open(0)
    assert not driver.serving
    assert driver.fault(10_000, 3000) == f"no Wuzi device answered on {pty_path} within 3 s"
    driver.close()
    assert not driver.serving
