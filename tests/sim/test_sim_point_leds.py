"""The virtual sensor-rev-b board on a real pty, through the host's serial driver: it answers
the host's LIGHT, keeps the lit point (steady or blinking on its fake chain), puts it out
when a stone of that colour is set there, and a rev-a board or a 2.1 firmware on the same
pty says it cannot light while stones are recorded as ever."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from wuzi.io.serial_link import BoardDriver
from wuzi.link.reconciler import StoneEvent
from wuzi.rules.board import Colour, parse_point
from wuzi.sim.cli import _timing
from wuzi.sim.devices.script import parse_script
from wuzi.sim.devices.virtual_board import VirtualBoard

H8 = parse_point("h8")


class Rig:
    def __init__(self, script: str = "", **kwargs: object) -> None:
        self.board = VirtualBoard(seed=5, **kwargs)  # type: ignore[arg-type]
        self.board.open_pty()
        self.now = 10_000
        self.board.boot(self.now)
        for step in parse_script(script):
            self.board.schedule(step, self.now)
        self.driver = BoardDriver(self.board.path)
        self.driver.timer(self.now)
        self.events: list[object] = []

    def run(self, ms: int) -> None:
        end = self.now + ms
        while self.now < end:
            self.now += 1
            self.board.tick(self.now)
            self.board.on_readable(self.now)
            self.events += self.driver.on_readable(self.now)
            self.events += self.driver.on_timer(self.now)

    def stones(self) -> list[str]:
        return [str(e.to_json()["point"]) for e in self.events if isinstance(e, StoneEvent)]

    def close(self) -> None:
        self.driver.close()
        self.board.close()


@pytest.fixture
def rigs() -> Iterator[list[Rig]]:
    made: list[Rig] = []
    yield made
    for r in made:
        r.close()


def make(rigs: list[Rig], script: str = "", **kwargs: object) -> Rig:
    rig = Rig(script, **kwargs)
    rigs.append(rig)
    return rig


def test_the_rev_b_description_makes_a_board_with_point_leds() -> None:
    timing = _timing("sensor-rev-b")
    assert timing["revision"] == "sensor-rev-b" and timing["point_leds"] is True
    assert _timing("sensor-rev-a")["point_leds"] is False


def test_the_virtual_board_answers_light_and_puts_it_out_when_the_stone_is_set(
    rigs: list[Rig],
) -> None:
    rig = make(rigs, "1500 place h8 black\n", **_timing("sensor-rev-b"))
    rig.run(400)
    link = rig.driver.link
    assert link.can_light is True
    ticket = link.light_point(H8, Colour.BLACK, rig.now)
    rig.run(30)
    assert link.lamp_acknowledged(ticket)
    assert rig.board.lit_point() == (H8, int(Colour.BLACK), True)
    lamp = link.lamp
    assert lamp is not None and lamp.lit and lamp.point == H8
    rig.run(1300)  # the stone comes at 1500 ms (its debounce: 20 ms)
    assert rig.board.lit_point() is None and rig.board.shown() == []
    lamp = link.lamp
    assert lamp is not None and (lamp.state, lamp.point, lamp.token) == ("placed", H8, 0)
    assert rig.stones() == ["h8"]


def test_a_steady_light_shows_on_the_chain_until_dark(rigs: list[Rig]) -> None:
    rig = make(rigs, **_timing("sensor-rev-b"))
    rig.run(400)
    driver = rig.driver
    assert driver.can_light is True
    driver.light_point(H8, Colour.WHITE, rig.now, blink=False)  # written to the pty at once
    rig.board.on_readable(rig.now)  # the board reads it in the same millisecond
    assert rig.board.lit_point() == (H8, int(Colour.WHITE), False)
    rig.run(700)  # longer than a blink: a steady light does not go off
    assert rig.board.shown() == [(H8, 90, 90, 90)]
    lamp = driver.lamp
    assert lamp is not None and lamp.lit and not lamp.blink
    ticket = driver.dark_point(rig.now)
    rig.run(30)
    assert driver.board.lamp_acknowledged(ticket) and rig.board.shown() == []


def test_a_rev_a_board_says_it_cannot_light_and_nothing_breaks(rigs: list[Rig]) -> None:
    rig = make(rigs, "600 place h8 black\n")  # sensor-rev-a, today's firmware
    rig.run(400)
    link = rig.driver.link
    assert link.can_light is False
    assert link.light_point(H8, Colour.BLACK, rig.now) == 0
    rig.run(800)
    assert rig.stones() == ["h8"] and link.health["board_errors"] == 0
    assert not rig.driver.link_down


def test_a_2_1_firmware_is_served_but_cannot_light(rigs: list[Rig]) -> None:
    rig = make(rigs, "600 place h8 black\n", **_timing("sensor-rev-b"))
    rig.board.protocol = (2, 1)  # its INFO in the 2.1 layout: no capability byte
    rig.run(400)
    link = rig.driver.link
    assert link.session.info is not None and link.session.info.minor == 1
    assert link.can_light is False
    assert link.light_point(H8, Colour.BLACK, rig.now) == 0
    rig.run(800)
    assert rig.stones() == ["h8"] and not rig.driver.link_down
