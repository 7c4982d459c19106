"""Tables whose hardware cannot be used, and GPIO clocks on gpiozero's default backend.

The service runs in the test process (``support.service.InProcessHost``), built by the
``wuzi host`` command's own code (``build_service``: no pin factory in code), so the test
can press the mock pins gpiozero's default factory hands out and read the display's
pins; its boards and serial clock units are the simulators on ptys, the broker a real
Mosquitto. A table whose port is missing, whose GPIO pin is busy or whose backend cannot
be loaded must not stop the other table, must be told to the referees and in the host
status, and must be served once its hardware is there.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero import Button, Device
from gpiozero.pins.mock import MockFactory

from support.broker import MosquittoBroker
from support.host import HostUnderTest, wait_for
from support.service import InProcessHost
from wuzi.cli import build_parser
from wuzi.host.cli import build_service
from wuzi.host.service import HostService
from wuzi.rules.board import parse_point

BLACK = 1
GPIO_KEYS = (
    "clock_gpio = { black_button = 5, white_button = 6, claim_button = 13, clk = 19, dio = 26 }"
)
GPIO_TABLE = f'board_port = "$BOARD"\n{GPIO_KEYS}'


@pytest.fixture
def mock_backend(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """gpiozero's default factory from the environment, as on a Pi; none before or after."""
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    yield
    if Device.pin_factory is not None:
        Device.pin_factory.reset()
    Device.pin_factory = None


def as_the_command_builds_it(host: HostUnderTest, *, control: bool = False) -> InProcessHost:
    """An in-process host whose service is the one ``wuzi host`` builds from its options."""
    inside = InProcessHost(host, control=control)
    argv = ["host", "--config", str(host.config), "--host", "pi-test"]
    argv += ["--state-dir", str(host.tmp / "state"), "--records-dir", "none"]
    argv += ["--standalone"] if host.standalone else []
    argv += [] if control else ["--control-socket", "none"]
    built = build_service(build_parser().parse_args(argv))
    assert isinstance(built, HostService), built
    assert built.options.pin_factory is None
    inside.service, inside.options = built, built.options
    return inside


def open_alerts(host: HostUnderTest, table: int) -> list[tuple[str, str]]:
    with host.observer.lock:
        state = host.observer.referee.get(table)
    return [] if state is None else [(a.reason, a.text) for a in state.alerts]


def alerted(host: HostUnderTest, table: int, *words: str) -> bool:
    return any(
        reason == "board" and all(w in text for w in words)
        for reason, text in open_alerts(host, table)
    )


def press(factory: MockFactory, pin: int) -> None:
    """A player's press on the header: the button pulls the pin low, then lets it go."""
    factory.pin(pin).drive_low()
    factory.pin(pin).drive_high()


def test_a_gpio_clock_on_the_environments_backend_plays(
    tmp_path: Path, mosquitto: MosquittoBroker, mock_backend: None
) -> None:
    host = HostUnderTest(tmp_path, mosquitto.url, tables=1, devices={1: GPIO_TABLE})
    inside = as_the_command_builds_it(host)
    try:
        inside.run_in_background()
        factory = Device.pin_factory
        assert isinstance(factory, MockFactory)  # the environment's, not one from code
        clk, dio = factory.pin(19), factory.pin(26)
        wait_for(lambda: len(clk.states) > 10 and len(dio.states) > 10, 10, "the first face")
        host.sim.place(1, "h8", BLACK)
        wait_for(lambda: host._pending_stone(1) == parse_point("h8"), 10, "h8 settled")
        drawn = len(clk.states)
        press(factory, 5)  # Black's button: the first seat's, button 0
        wait_for(lambda: host.observer.moves(1) == [parse_point("h8")], 10, "h8 judged")
        wait_for(lambda: len(clk.states) > drawn, 10, "the display redrawn after the press")
        assert not open_alerts(host, 1)
        assert host.observer.links_down == ()
    finally:
        inside.close()
        host.close()


def test_a_missing_port_is_told_and_served_once_it_appears(
    tmp_path: Path, mosquitto: MosquittoBroker
) -> None:
    late = tmp_path / "late-board"
    devices = {2: f'board_port = "{late}"\nclock_port = "$CLOCK"'}
    host = HostUnderTest(tmp_path, mosquitto.url, tables=2, devices=devices)
    inside = as_the_command_builds_it(host, control=True)
    try:
        inside.run_in_background()
        wait_for(lambda: alerted(host, 2, f"board {late}", "cannot"), 10, "table 2's alert")
        wait_for(lambda: host.observer.links_down == (2,), 10, "links_down in the host status")
        host.move(1, "h8", BLACK, 0)  # the other table plays on
        assert not any(reason == "board" for reason, _ in open_alerts(host, 1))
        os.symlink(host.sim.board_paths[1], late)  # the board is plugged in
        wait_for(lambda: alerted(host, 2, f"board {late}", "served again"), 15, "table 2 served")
        wait_for(lambda: host.observer.links_down == (), 10, "links_down cleared")
        # the standalone game's clock ran when the fault was found: held for the referee
        assert host.observer.referee[2].status == "paused"
        assert host.command("resume", 2)["ok"]
        host.move(2, "h8", BLACK, 0)
    finally:
        inside.close()
        host.close()


def test_a_port_where_no_wuzi_device_answers_is_a_fault(
    tmp_path: Path, mosquitto: MosquittoBroker
) -> None:
    """A pty nobody answers on (a modem, a board without firmware): open, but silent."""
    master, follower = os.openpty()
    silent = os.ttyname(follower)
    devices = {2: f'board_port = "{silent}"\nclock_port = "$CLOCK"'}
    host = HostUnderTest(tmp_path, mosquitto.url, tables=2, devices=devices)
    inside = as_the_command_builds_it(host)
    try:
        inside.run_in_background()
        wait_for(
            lambda: alerted(host, 2, f"no Wuzi device answered on {silent} within 3 s"),
            15,
            "the silent port's alert",
        )
        wait_for(lambda: host.observer.links_down == (2,), 10, "links_down in the host status")
        host.move(1, "h8", BLACK, 0)
    finally:
        inside.close()
        host.close()
        os.close(master)
        os.close(follower)


def test_a_busy_gpio_pin_is_told_and_retried(
    tmp_path: Path, mosquitto: MosquittoBroker, mock_backend: None
) -> None:
    Device.ensure_pin_factory()
    blocker = Button(6, pin_factory=Device.pin_factory)  # white's pin, used by something else
    host = HostUnderTest(tmp_path, mosquitto.url, tables=2, devices={2: GPIO_TABLE})
    inside = as_the_command_builds_it(host, control=True)
    try:
        inside.run_in_background()
        wait_for(
            lambda: alerted(host, 2, "GPIO clock (buttons 5/6/13, display 19/26)", "GPIOPinInUse"),
            10,
            "the busy pin's alert",
        )
        wait_for(lambda: host.observer.links_down == (2,), 10, "links_down in the host status")
        host.move(1, "h8", BLACK, 0)
        blocker.close()
        wait_for(lambda: alerted(host, 2, "GPIO clock", "served again"), 15, "the retry")
        wait_for(lambda: host.observer.links_down == (), 10, "links_down cleared")
        factory = Device.pin_factory
        assert isinstance(factory, MockFactory)
        assert host.observer.referee[2].status == "paused"  # held while it had no clock
        assert host.command("resume", 2)["ok"]
        host.sim.place(2, "h8", BLACK)
        wait_for(lambda: host._pending_stone(2) == parse_point("h8"), 10, "h8 settled")
        press(factory, 5)
        wait_for(lambda: host.observer.moves(2) == [parse_point("h8")], 10, "h8 judged")
    finally:
        blocker.close()
        inside.close()
        host.close()


def test_a_missing_gpio_backend_is_told(
    tmp_path: Path, mosquitto: MosquittoBroker, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-backend")
    host = HostUnderTest(tmp_path, mosquitto.url, tables=2, devices={2: GPIO_TABLE})
    inside = as_the_command_builds_it(host)
    try:
        inside.run_in_background()
        wait_for(lambda: alerted(host, 2, "GPIO clock", "BadPinFactory"), 10, "the alert")
        host.move(1, "h8", BLACK, 0)
    finally:
        inside.close()
        host.close()
        Device.pin_factory = None
