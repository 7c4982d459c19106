"""The gpiozero clock driver on MockFactory pins: our own debounce, LEDs, buzzer, TM1637."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from wuzi.io.gpio_clock import GpioClock, GpioUnavailable, default_pin_factory
from wuzi.link import segments

LOG: list[tuple[str, bool]] = []


class RecordingPin(MockPin):  # type: ignore[misc]
    def _change_state(self, value: bool) -> bool:
        changed: bool = super()._change_state(value)
        if changed:
            LOG.append((self.info.name, bool(value)))
        return changed


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory(pin_class=RecordingPin)
    LOG.clear()
    yield f
    f.reset()


def test_bouncing_buttons_give_one_press_each(factory: MockFactory) -> None:
    now = [1000]
    clock = GpioClock(buttons=[5, 6, 13], pin_factory=factory, clock=lambda: now[0])
    left = factory.pin(5)
    for _ in range(4):  # contact bounce, 1 ms apart (MockPin ignores bounce_time)
        now[0] += 1
        left.drive_low()
        now[0] += 1
        left.drive_high()
    now[0] += 1
    left.drive_low()
    now[0] += 200
    left.drive_high()
    now[0] += 1
    left.drive_low()  # a bounce on release
    now[0] += 1
    left.drive_high()
    now[0] += 300
    factory.pin(6).drive_low()
    assert clock.take_presses() == [(0, 1001), (1, 1511)]
    assert clock.take_presses() == []
    clock.close()


def test_press_callback(factory: MockFactory) -> None:
    seen: list[tuple[int, int]] = []
    clock = GpioClock(
        buttons=[5, 6, 13],
        pin_factory=factory,
        clock=lambda: 7,
        on_press=lambda b, t: seen.append((b, t)),
    )
    factory.pin(13).drive_low()
    assert seen == [(2, 7)] and clock.take_presses() == []
    clock.close()


def test_leds_and_buzzer(factory: MockFactory) -> None:
    clock = GpioClock(
        buttons=[5], leds=[22, 25, 26], buzzer=12, pin_factory=factory, clock=lambda: 0
    )
    clock.set_leds(0b110)
    assert [factory.pin(n).state for n in (22, 25, 26)] == [False, True, True]
    clock.buzz(100, now_ms=0)
    assert factory.pin(12).state
    clock.poll(50)
    assert factory.pin(12).state
    clock.poll(100)
    assert not factory.pin(12).state
    clock.close()


def _decode_tm1637(log: list[tuple[str, bool]], clk: str, dio: str) -> list[list[int]]:
    """Rebuild the transfers from the pin history: bits on CLK rising, framed by start/stop."""
    level = {clk: True, dio: True}
    transfers: list[list[int]] = []
    bits: list[int] = []
    for name, value in log:
        if name not in level:
            continue
        if name == dio and level[clk]:
            if not value:  # start: DIO falls while CLK is high
                bits = []
            else:  # stop
                transfers.append(
                    [
                        int("".join(map(str, bits[i : i + 8][::-1])), 2)
                        for i in range(0, len(bits) - 8, 9)
                    ]
                )
        if name == clk and value:
            bits.append(int(level[dio]))
        level[name] = value
    return transfers


def test_tm1637_sends_the_segments(factory: MockFactory) -> None:
    clock = GpioClock(buttons=[5], displays=[(17, 27)], pin_factory=factory, clock=lambda: 0)
    LOG.clear()
    clock.display(0, segments.clock_time(754_000), brightness=2)
    transfers = _decode_tm1637(LOG, "GPIO17", "GPIO27")
    assert transfers == [[0x40], [0xC0, *segments.text("1234", colon=True)], [0x88 | 2]]
    with pytest.raises(ValueError, match="no display 1"):
        clock.display(1, b"\x00" * 4)
    with pytest.raises(ValueError, match="4 segment bytes"):
        clock.display(0, b"\x00")
    clock.close()


def test_segment_formatting() -> None:
    assert segments.clock_time(754_000) == segments.text("1234", colon=True)
    assert segments.clock_time(400) == segments.text("0001", colon=True)
    assert segments.clock_time(2 * 3600_000 + 5 * 60_000) == segments.text(" 205", colon=True)
    assert segments.clock_time(-5) == segments.text("0000", colon=True)
    with pytest.raises(ValueError, match="4 characters"):
        segments.text("12345")
    with pytest.raises(ValueError, match="'x' cannot be shown"):
        segments.text("12x4")
    with pytest.raises(ValueError, match="'\u00b2' cannot be shown"):
        segments.text("12\u00b24")  # a superscript two is a digit to str.isdigit, not to int


def test_without_a_factory_every_part_uses_gpiozeros_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What ``wuzi host`` does on a Pi: no factory in code, gpiozero's default from the
    environment (here GPIOZERO_PIN_FACTORY=mock) for the buttons and the TM1637 alike; the
    display's pins used to be asked of None, which took the host down at start-up."""
    from gpiozero import Device

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    clock = GpioClock(buttons=[5], displays=[(17, 27)], clock=lambda: 0)
    try:
        default = Device.pin_factory
        assert isinstance(default, MockFactory)
        clock.display(0, segments.clock_time(754_000), brightness=2)
        assert clock.displays[0].clk is default.pin(17)
        default.pin(5).drive_low()  # the button pulls up: pressed is low
        assert clock.take_presses() == [(0, 0)]
    finally:
        clock.close()
        default.reset()


def test_choosing_the_default_factory_prints_no_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    """gpiozero warns for every pin library it falls back from (issue 34: on every start of a
    host on a Pi); Wuzi chooses the factory with those warnings caught, and when none loads
    the error carries each library's reason instead."""
    from gpiozero import Device

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning fails the test
        with pytest.raises(GpioUnavailable) as caught:
            GpioClock(buttons=[5], clock=lambda: 0)
    # this machine is no Pi: every library was tried, and the reasons are in one message
    assert str(caught.value).startswith(
        "BadPinFactory: Unable to load any default pin factory!; Falling back from "
    )
    assert "Falling back from lgpio" in str(caught.value)
    assert "Falling back from native" in str(caught.value)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert isinstance(default_pin_factory(), MockFactory)
    Device.pin_factory.close()
