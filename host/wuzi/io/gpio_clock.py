"""A clock wired to the Pi's own GPIO: gpiozero buttons, LEDs, buzzer and two TM1637 displays.

gpiozero's ``bounce_time`` is not used: it is ignored by MockFactory's pins (so tests could not
show it works) and it drops the edge *after* a bounce instead of the first one. The buttons go
through ``EdgeDebouncer`` — the very code the clock unit's firmware runs — with the time read
from an injectable clock, and accepted presses queue up as ``(button, at_ms)`` until
``take_presses`` collects them (or go straight to ``on_press``, from gpiozero's thread).

Construction either gives a whole clock or raises and leaves no pin reserved: a host that
retries a clock whose pin was busy must not find its own half-built buttons in the way.
"""

from __future__ import annotations

import logging
import threading
import time
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from gpiozero import LED, Button, Buzzer, Device  # type: ignore[import-untyped]
from gpiozero.exc import (  # type: ignore[import-untyped]
    BadPinFactory,
    NativePinFactoryFallback,
    PinFactoryFallback,
)

from wuzi.io.tm1637 import TM1637
from wuzi.link.debounce import EdgeDebouncer

LEFT, RIGHT, CLAIM = 0, 1, 2


log = logging.getLogger(__name__)


class GpioUnavailable(RuntimeError):
    """No GPIO pin library works on this machine; the message gives each one's reason."""


def monotonic_ms() -> int:
    return time.monotonic_ns() // 1_000_000


def default_pin_factory() -> Any:
    """gpiozero's default pin factory (GPIOZERO_PIN_FACTORY, else the first library that
    loads), chosen without its warnings: gpiozero warns for each library it falls back from
    and for the native one it lands on, which on a normal start printed to the terminal and
    the journal every time. Those reasons go to the debug log; if no library loads,
    `GpioUnavailable` carries them all. Any other warning passes through as it came."""
    if Device.pin_factory is not None:
        return Device.pin_factory
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            Device.ensure_pin_factory()
        except BadPinFactory as exc:
            tried = [str(w.message) for w in caught if issubclass(w.category, PinFactoryFallback)]
            raise GpioUnavailable("; ".join([f"BadPinFactory: {exc}", *tried])) from None
    for w in caught:
        if issubclass(w.category, PinFactoryFallback | NativePinFactoryFallback):
            log.debug("gpiozero: %s", w.message)
        else:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return Device.pin_factory


class GpioClock:
    def __init__(
        self,
        *,
        buttons: Sequence[int | str],
        displays: Sequence[tuple[int | str, int | str]] = (),
        leds: Sequence[int | str] = (),
        buzzer: int | str | None = None,
        pin_factory: Any = None,
        debounce_ms: int = 30,
        clock: Callable[[], int] = monotonic_ms,
        on_press: Callable[[int, int], None] | None = None,
    ) -> None:
        if pin_factory is None:
            # gpiozero's default, as its own devices take it (GPIOZERO_PIN_FACTORY, else the
            # Pi's backend); the TM1637 drives raw pins and needs the factory itself.
            pin_factory = default_pin_factory()
        self.clock = clock
        self.on_press = on_press
        self._lock = threading.Lock()
        self._presses: list[tuple[int, int]] = []
        self._debouncers = [EdgeDebouncer(debounce_ms) for _ in buttons]
        self.buttons: list[Any] = []
        self.displays: list[TM1637] = []
        self.leds: list[Any] = []
        self.buzzer: Any = None
        self._buzz_until_ms: int | None = None
        try:
            for pin in buttons:
                self.buttons.append(
                    Button(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
                )
            for i, button in enumerate(self.buttons):
                button.when_pressed = self._edge_handler(i, True)
                button.when_released = self._edge_handler(i, False)
            for clk, dio in displays:
                self.displays.append(TM1637(clk, dio, pin_factory))
            for pin in leds:
                self.leds.append(LED(pin, pin_factory=pin_factory))
            if buzzer is not None:
                self.buzzer = Buzzer(buzzer, pin_factory=pin_factory)
        except BaseException:
            self.close()  # what was built so far gives its pins back
            raise

    def _edge_handler(self, index: int, pressed: bool) -> Callable[[], None]:
        def handler() -> None:
            now = self.clock()
            with self._lock:
                accepted = self._debouncers[index].edge(pressed, now)
                if accepted and self.on_press is None:
                    self._presses.append((index, now))
            if accepted and self.on_press is not None:
                self.on_press(index, now)

        return handler

    def take_presses(self) -> list[tuple[int, int]]:
        with self._lock:
            out = self._presses
            self._presses = []
        return out

    def display(self, index: int, segments: bytes, brightness: int = 7) -> None:
        if not 0 <= index < len(self.displays):
            raise ValueError(f"no display {index}: this clock has {len(self.displays)}")
        self.displays[index].show(segments, brightness)

    def set_leds(self, mask: int) -> None:
        for i, led in enumerate(self.leds):
            led.value = bool((mask >> i) & 1)

    def buzz(self, duration_ms: int, now_ms: int | None = None) -> None:
        """Sound the buzzer; ``poll`` silences it when the time is up."""
        if self.buzzer is None:
            return
        self.buzzer.on()
        self._buzz_until_ms = (self.clock() if now_ms is None else now_ms) + duration_ms

    def poll(self, now_ms: int) -> None:
        if self._buzz_until_ms is not None and now_ms >= self._buzz_until_ms:
            self._buzz_until_ms = None
            if self.buzzer is not None:
                self.buzzer.off()

    def close(self) -> None:
        for dev in [*self.buttons, *self.leds]:
            dev.close()
        for disp in self.displays:
            disp.close()
        if self.buzzer is not None:
            self.buzzer.close()
