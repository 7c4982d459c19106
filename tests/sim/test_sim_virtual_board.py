"""The virtual board's faults, seen through the real host stack (pyserial on the pty), on a
manual clock: each step runs the MCU, then lets the host read what is waiting."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from wuzi.io.serial_link import BoardDriver
from wuzi.link.reconciler import Alert, StoneEvent
from wuzi.sim.devices.script import parse_script
from wuzi.sim.devices.virtual_board import VirtualBoard


class Rig:
    def __init__(self, script: str, **kwargs: object) -> None:
        self.board = VirtualBoard(seed=3, **kwargs)  # type: ignore[arg-type]
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

    def alerts(self) -> list[dict[str, object]]:
        return [e.to_json() for e in self.events if isinstance(e, Alert)]

    def close(self) -> None:
        self.driver.close()
        self.board.close()


@pytest.fixture
def rig_factory() -> Iterator[list[Rig]]:
    rigs: list[Rig] = []
    yield rigs
    for r in rigs:
        r.close()


def make(rigs: list[Rig], script: str, **kwargs: object) -> Rig:
    rig = Rig(script, **kwargs)
    rigs.append(rig)
    return rig


def test_slides_and_slow_scans_give_only_real_stones(rig_factory: list[Rig]) -> None:
    rig = make(
        rig_factory,
        "100 place h8 black\n400 slide a1 h9 white\n700 slow 800 9\n800 place i9 black\n"
        "1200 slide o15 j10 white\n",
    )
    rig.run(2200)
    assert rig.stones() == ["h8", "h9", "i9", "j10"]
    assert rig.alerts() == []


def test_knocked_stone_and_removal(rig_factory: list[Rig]) -> None:
    rig = make(rig_factory, "100 place h8 black\n500 knock h8 h7\n900 remove h7\n")
    rig.run(1400)
    assert rig.stones() == ["h8"]
    assert [(a["kind"], a.get("from"), a.get("to")) for a in rig.alerts()] == [
        ("moved", "h8", "h7"),
        ("removed", None, None),
    ]


def test_a_shorted_latch_is_reported_and_its_column_ignored(rig_factory: list[Rig]) -> None:
    rig = make(rig_factory, "100 place h8 black\n400 stuck c5 black\n700 place i9 white\n")
    rig.run(1200)
    assert rig.stones() == ["h8", "i9"]  # no phantom stones down column c
    [stuck] = rig.alerts()
    assert stuck["kind"] == "sensor_stuck"
    assert stuck["points"] == [f"c{row}" for row in range(1, 16)]


def test_reboot_and_unplug(rig_factory: list[Rig]) -> None:
    rig = make(
        rig_factory,
        "100 place h8 black\n400 reboot\n1000 place i9 white\n1300 unplug 1500\n"
        "1500 place j10 black\n",
    )
    rig.run(4000)
    assert rig.stones() == ["h8", "i9", "j10"]
    kinds = [a["kind"] for a in rig.alerts()]
    assert kinds == ["board_rebooted", "link_down", "link_up"]
    assert rig.driver.board.session.health.reboots == 1
