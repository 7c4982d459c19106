"""A device that cannot be built or opened fails alone and leaves nothing held behind."""

from __future__ import annotations

import pytest
import serial
from gpiozero import Button
from gpiozero.exc import GPIOPinInUse
from gpiozero.pins.mock import MockFactory

from wuzi.io.gpio_clock import GpioClock
from wuzi.io.serial_link import BoardDriver


def test_a_busy_pin_gives_back_the_pins_already_taken() -> None:
    """The host retries a GPIO clock whose pin was busy: its half-built buttons must not
    be what blocks the retry; a display pin a button holds is refused too."""
    factory = MockFactory()
    blocker = Button(13, pin_factory=factory)
    with pytest.raises(GPIOPinInUse, match="GPIO13"):
        GpioClock(buttons=[5, 6, 13], displays=[(19, 26)], pin_factory=factory)
    with pytest.raises(GPIOPinInUse, match="GPIO13"):
        GpioClock(buttons=[5, 6], displays=[(13, 26)], pin_factory=factory)
    blocker.close()
    clock = GpioClock(buttons=[5, 6, 13], displays=[(19, 26)], pin_factory=factory)
    with pytest.raises(GPIOPinInUse, match="GPIO26"):
        Button(26, pin_factory=factory)
    clock.close()
    factory.reset()


def test_a_port_fault_after_the_grace() -> None:
    def refuse(url: str) -> serial.Serial:
        raise RuntimeError("a backend that raises what nobody expected")

    driver = BoardDriver("/dev/wuzi/none", opener=refuse)
    assert not driver.try_open(1000)  # no exception leaves the driver
    assert driver.fault(3999, 3000) is None  # not long enough to tell
    assert driver.fault(4000, 3000) == "a backend that raises what nobody expected"


def test_an_open_port_where_nothing_answers() -> None:
    port = serial.serial_for_url("loop://", timeout=0)
    driver = BoardDriver("loop://", opener=lambda url: port)
    assert driver.try_open(0)
    assert driver.fault(2999, 3000) is None
    assert driver.fault(3000, 3000) == "no Wuzi device answered on loop:// within 3 s"
    driver.close()
