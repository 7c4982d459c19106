"""pyserial drivers for boards and clock units: exclusive open, reconnect with back-off, health.

A driver owns one port and one sans-I/O link object (``BoardLink`` for a sensor board,
``ClockSession`` for a clock unit). ``LinkLoop`` multiplexes many drivers in one thread with
``selectors``: a host serving 24 tables runs 48 drivers in one loop. Time is read here (the
shell), from an injectable clock, and passed down in integer ms.

Ports are named by URL or path: ``/dev/wuzi/board-a1`` (a udev symlink, see deploy/udev),
a simulator's pty, or any pyserial URL. A port that fails to open or dies (unplugged: read
errors, EOF) is closed and reopened after a back-off that doubles from 100 ms to 5 s and
resets once a frame has been received. Whatever goes wrong opening one port (a missing
path, a busy port, a bad URL, anything the opener raises) is that driver's fault, never
the loop's: ``fault`` tells the host, which tells the referees, while the retries go on.
"""

from __future__ import annotations

import contextlib
import selectors
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import serial

from wuzi.link.board_link import BoardLink
from wuzi.link.reconciler import Reconciled
from wuzi.link.session import ClockSession, LinkEvent
from wuzi.rules.board import Colour

BACKOFF_MIN_MS = 100
BACKOFF_MAX_MS = 5000


def monotonic_ms() -> int:
    return time.monotonic_ns() // 1_000_000


class SansIOLink(Protocol):
    def connection_made(self, now_ms: int) -> None: ...
    def data_to_send(self) -> bytes: ...
    def next_deadline_ms(self) -> int | None: ...


@dataclass
class PortHealth:
    opens: int = 0
    open_failures: int = 0
    reconnects: int = 0
    bytes_in: int = 0
    bytes_out: int = 0
    last_error: str = ""


@dataclass
class Backoff:
    min_ms: int = BACKOFF_MIN_MS
    max_ms: int = BACKOFF_MAX_MS
    current_ms: int = 0

    def next_delay(self) -> int:
        self.current_ms = (
            self.min_ms if self.current_ms == 0 else min(self.current_ms * 2, self.max_ms)
        )
        return self.current_ms

    def reset(self) -> None:
        self.current_ms = 0


Opener = Callable[[str], serial.Serial]


def open_exclusive(url: str, baudrate: int = 115200) -> serial.Serial:
    """Open ``url`` non-blocking and exclusively (a second host on one board is an error)."""
    if "://" in url:
        return serial.serial_for_url(url, baudrate=baudrate, timeout=0)
    return serial.Serial(url, baudrate=baudrate, timeout=0, exclusive=True)


class SerialDriver:
    """One port + one sans-I/O link; the caller routes readiness and time to it."""

    def __init__(
        self,
        url: str,
        link: SansIOLink,
        *,
        opener: Opener = open_exclusive,
        backoff: Backoff | None = None,
    ) -> None:
        self.url = url
        self.link = link
        self.opener = opener
        self.backoff = backoff or Backoff()
        self.port: serial.Serial | None = None
        self.health = PortHealth()
        self.retry_at_ms: int | None = 0
        self._had_port = False
        self._down_since_ms: int | None = None  # when the port last failed to open or died
        self._why_down = ""  # and why (the opener's or the read's error)
        self._opened_at_ms = 0
        self._frames_at_open = 0

    def fileno(self) -> int | None:
        return self.port.fileno() if self.port is not None else None

    def try_open(self, now_ms: int) -> bool:
        try:
            self.port = self.opener(self.url)
        except Exception as exc:  # any failure of one port is that table's, not the host's
            self.health.open_failures += 1
            self.health.last_error = f"cannot open {self.url}: {exc}"
            self._why_down = str(exc) or type(exc).__name__
            self.retry_at_ms = now_ms + self.backoff.next_delay()
            if self._down_since_ms is None:
                self._down_since_ms = now_ms
            return False
        self.health.opens += 1
        if self._had_port:
            self.health.reconnects += 1
        self._had_port = True
        self.retry_at_ms = None
        self._down_since_ms = None
        self._opened_at_ms = now_ms
        self._frames_at_open = self.frames()
        self.link.connection_made(now_ms)
        self._flush()
        return True

    def _lost(self, now_ms: int, why: str) -> None:
        self.health.last_error = f"{self.url}: {why}"
        self.close()
        self.retry_at_ms = now_ms + self.backoff.next_delay()
        self._down_since_ms = now_ms
        self._why_down = why

    def frames(self) -> int:
        """Frames heard from the device so far (the subclasses know their link)."""
        return 0

    def fault(self, now_ms: int, after_ms: int) -> str | None:
        """Why this port has not served for ``after_ms`` (None: it serves, or not for
        that long yet): it cannot be opened, or it opened and nothing answered as a Wuzi
        device (a modem, a wrong symlink, a board without firmware). A short gap — a
        cable pulled and put back — is no fault: the link's own alerts tell it."""
        if self.port is None:
            since = self._down_since_ms
            if since is None or now_ms - since < after_ms:
                return None
            return self._why_down or "cannot be opened"
        if self.frames() == self._frames_at_open and now_ms - self._opened_at_ms >= after_ms:
            seconds = after_ms / 1000
            return f"no Wuzi device answered on {self.url} within {seconds:g} s"
        return None

    def close(self) -> None:
        if self.port is not None:
            with contextlib.suppress(serial.SerialException, OSError):
                self.port.close()
        self.port = None

    def _flush(self) -> None:
        out = self.link.data_to_send()
        if out and self.port is not None:
            try:
                self.port.write(out)
                self.health.bytes_out += len(out)
            except (serial.SerialException, OSError) as exc:
                self.health.last_error = f"{self.url}: write failed: {exc}"

    def read(self, now_ms: int) -> bytes:
        """The bytes waiting on the port (b"" if none, or if the port just died)."""
        if self.port is None:
            return b""
        try:
            data = self.port.read(4096)
        except (serial.SerialException, OSError) as exc:
            self._lost(now_ms, f"read failed: {exc}")
            return b""
        self.health.bytes_in += len(data)
        return bytes(data)

    def deadline_ms(self) -> int | None:
        if self.port is None:
            return self.retry_at_ms
        return self.link.next_deadline_ms()

    def timer(self, now_ms: int) -> None:
        if self.port is None and self.retry_at_ms is not None and now_ms >= self.retry_at_ms:
            self.try_open(now_ms)


class BoardDriver(SerialDriver):
    """A sensor board: reconciled stone events and alerts out, the colour expected next in."""

    def __init__(self, url: str, link: BoardLink | None = None, **kwargs: object) -> None:
        self.board = link or BoardLink(port_name=url)
        super().__init__(url, self.board, **kwargs)  # type: ignore[arg-type]

    def expect(self, colour: Colour | None) -> None:
        """The colour of the next stone, for the link's wrong-colour check (None: none)."""
        self.board.expect(colour)

    def frames(self) -> int:
        return self.board.frames_received

    def on_readable(self, now_ms: int) -> list[Reconciled]:
        data = self.read(now_ms)
        if not data:
            return []
        events = self.board.receive_data(data, now_ms)
        if self.board.frames_received:
            self.backoff.reset()
        self._flush()
        return events

    def on_timer(self, now_ms: int) -> list[Reconciled]:
        self.timer(now_ms)
        if self.port is None:
            return []
        events = self.board.poll(now_ms)
        self._flush()
        return events


class ClockDriver(SerialDriver):
    """A serial clock unit: presses out; display and LED commands in (``display``, ``leds``;
    the buzzer through ``session``), sent by ``flush``."""

    def __init__(self, url: str, session: ClockSession | None = None, **kwargs: object) -> None:
        self.session = session or ClockSession(port_name=url)
        super().__init__(url, self.session, **kwargs)  # type: ignore[arg-type]

    def frames(self) -> int:
        return self.session.health.frames

    def on_readable(self, now_ms: int) -> list[LinkEvent]:
        data = self.read(now_ms)
        if not data:
            return []
        events = self.session.receive_data(data, now_ms)
        self.backoff.reset()
        self._flush()
        return events

    def on_timer(self, now_ms: int) -> list[LinkEvent]:
        self.timer(now_ms)
        if self.port is None:
            return []
        events = self.session.poll(now_ms)
        self._flush()
        return events

    def display(self, index: int, segments: bytes, brightness: int = 7) -> None:
        """Queue one face's segments for the unit (sent by ``flush``)."""
        self.session.display(index, segments, brightness)

    def leds(self, mask: int) -> None:
        """Queue the unit's LEDs (sent by ``flush``)."""
        self.session.leds(mask)

    def flush(self) -> None:
        """Send the commands queued on ``session`` (display, buzz, leds)."""
        self._flush()


Driver = BoardDriver | ClockDriver
Callback = Callable[[Driver, object], None]


@dataclass(frozen=True)
class _Watched:
    on_readable: Callable[[], None]


class LinkLoop:
    """Many drivers, one thread: readiness via selectors, timers via each link's deadline."""

    def __init__(self, clock: Callable[[], int] = monotonic_ms) -> None:
        self.clock = clock
        self.drivers: list[Driver] = []
        self._selector = selectors.DefaultSelector()
        self._registered: dict[Driver, int] = {}

    def add(self, driver: Driver) -> None:
        self.drivers.append(driver)
        driver.timer(self.clock())
        self._sync(driver)

    def _sync(self, driver: Driver) -> None:
        fd = driver.fileno()
        old = self._registered.get(driver)
        if old == fd:
            return
        if old is not None:
            with contextlib.suppress(KeyError, ValueError):
                self._selector.unregister(old)
            del self._registered[driver]
        if fd is not None:
            self._selector.register(fd, selectors.EVENT_READ, driver)
            self._registered[driver] = fd

    def watch(self, fd: int, on_readable: Callable[[], None]) -> None:
        """Also wait on ``fd`` (a control socket, a wake-up pipe): ``on_readable()`` is
        called from ``run_once`` when it is readable, so one thread serves everything."""
        self._selector.register(fd, selectors.EVENT_READ, _Watched(on_readable))

    def unwatch(self, fd: int) -> None:
        with contextlib.suppress(KeyError, ValueError):
            self._selector.unregister(fd)

    def run_once(self, callback: Callback, max_wait_ms: int = 50) -> None:
        now = self.clock()
        deadlines = [d for d in (drv.deadline_ms() for drv in self.drivers) if d is not None]
        wait = max_wait_ms if not deadlines else max(0, min(min(deadlines) - now, max_wait_ms))
        for key, _ in self._selector.select(wait / 1000.0):
            if isinstance(key.data, _Watched):
                key.data.on_readable()
                continue
            drv: Driver = key.data
            for ev in drv.on_readable(self.clock()):
                callback(drv, ev)
            self._sync(drv)
        now = self.clock()
        for drv in self.drivers:
            d = drv.deadline_ms()
            if d is not None and d <= now:
                for ev in drv.on_timer(now):
                    callback(drv, ev)
                self._sync(drv)

    def run(self, callback: Callback, stop: Callable[[], bool] | None = None) -> None:
        while stop is None or not stop():
            self.run_once(callback)

    def close(self) -> None:
        for drv in self.drivers:
            drv.close()
        self._selector.close()
