"""pyserial drivers for boards and clock units: exclusive open, reconnect with back-off, health.

A driver owns one port and one sans-I/O link object (``BoardLink`` for a sensor board,
``ClockSession`` for a clock unit). ``LinkLoop`` multiplexes many drivers in one thread with
``selectors``: a host serving 24 tables runs 48 drivers in one loop. Time is read here (the
shell), from an injectable clock, and passed down in integer ms.

Ports are named by URL or path: ``/dev/wuzi/board-a1`` (a udev symlink, see deploy/udev),
a simulator's pty, or any pyserial URL. Nothing a port or a device does may stop the loop,
since every table on the Pi shares it:

* A port that fails to open or dies (read or write errors, EOF, its path vanished) is
  closed, the link is told at once (``connection_lost``: a ``link_down`` comes out of that
  very call) and the port is reopened after a back-off that doubles from 100 ms to 5 s and
  resets once the right device has answered. Each retry opens the configured path afresh (a
  udev symlink follows the board to its new ttyACM); when that path is gone and the driver
  knows the serial it expects, the device is looked up by USB serial.
* A device the link refuses (another kind, another serial, another protocol: a
  ``LinkError``), or whose bytes make the link raise anything at all, is the driver's
  fault state, never an exception out of the loop: the port is closed, ``refused`` says
  why in one line, and it is retried after 1 s, 2 s … 30 s (a wrong device is not hammered).
* No write blocks: bytes go out as the port takes them (non-blocking), the rest waits in a
  bounded buffer while the loop also waits for write readiness. A device that takes no
  byte for ``STALL_MS`` while bytes wait, or lets the buffer fill, is a stalled device: its
  port is lost ("stalled: … stopped reading").

``fault`` tells the host what keeps a port from serving, which tells the referees.
"""

from __future__ import annotations

import contextlib
import logging
import os
import selectors
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

import serial

from wuzi.io.ports import register_url_handlers
from wuzi.link.board_link import BoardLink
from wuzi.link.errors import LinkError
from wuzi.link.lamp import Lamp
from wuzi.link.reconciler import Reconciled
from wuzi.link.session import ClockSession, LinkEvent
from wuzi.rules.board import Colour

log = logging.getLogger("wuzi.io")

BACKOFF_MIN_MS = 100
BACKOFF_MAX_MS = 5000
REFUSED_BACKOFF_MIN_MS = 1000  # a refused device: retried, but not hammered
REFUSED_BACKOFF_MAX_MS = 30_000
OUT_BUFFER_MAX = 16 * 1024  # a board's commands and a clock unit's faces are a few bytes each
STALL_MS = 1000  # bytes waiting, none taken for this long: the device stopped reading
PATH_CHECK_MS = 250  # how often an open port's path is checked (a vanished udev symlink)
ASK_ALL_MS = 100  # the loop asks every driver's deadline at least this often (LinkLoop)

Ev = TypeVar("Ev")


def monotonic_ms() -> int:
    return time.monotonic_ns() // 1_000_000


class SansIOLink(Protocol[Ev]):
    """What a driver needs of its link (``BoardLink``, ``ClockSession``)."""

    def connection_made(self, now_ms: int) -> None: ...
    def connection_lost(self, now_ms: int, why: str) -> list[Ev]: ...
    def receive_data(self, data: bytes, now_ms: int) -> list[Ev]: ...
    def poll(self, now_ms: int) -> list[Ev]: ...
    def data_to_send(self) -> bytes: ...
    def next_deadline_ms(self) -> int | None: ...
    @property
    def link_up(self) -> bool: ...
    @property
    def identified(self) -> bool: ...


@dataclass
class PortHealth:
    opens: int = 0
    open_failures: int = 0
    reconnects: int = 0
    bytes_in: int = 0
    bytes_out: int = 0
    refusals: int = 0  # devices refused (wrong kind, serial or protocol; a link error)
    stalls: int = 0  # ports lost because the device stopped reading
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
SerialLookup = Callable[[str], str | None]


def open_exclusive(url: str, baudrate: int = 115200) -> serial.Serial:
    """Open ``url`` non-blocking both ways and exclusively (a second host on one board is
    an error). ``write_timeout=0``: pyserial's write then never waits for the device
    (the drivers write through the file descriptor and keep what it does not take)."""
    if "://" in url:
        register_url_handlers()  # the schemes of installed plug-ins (wuzi.io.ports)
        return serial.serial_for_url(url, baudrate=baudrate, timeout=0, write_timeout=0)
    return serial.Serial(url, baudrate=baudrate, timeout=0, write_timeout=0, exclusive=True)


def port_by_serial(serial_number: str) -> str | None:
    """The device path of the USB serial device whose serial number is ``serial_number``
    (pyserial's ``list_ports``), None when none is plugged in."""
    from serial.tools import list_ports

    for port in list_ports.comports():
        if port.serial_number == serial_number:
            return str(port.device)
    return None


class SerialDriver(Generic[Ev]):
    """One port + one sans-I/O link; the caller routes readiness and time to it.

    ``on_readable``, ``on_writable`` and ``on_timer`` return the link's events, including
    those a lost port or a refused device produces in that very call; they raise nothing
    that the port, the device or its bytes cause.
    """

    def __init__(
        self,
        url: str,
        link: SansIOLink[Ev],
        *,
        opener: Opener = open_exclusive,
        backoff: Backoff | None = None,
        expected_serial: str | None = None,
        lookup: SerialLookup = port_by_serial,
    ) -> None:
        self.url = url
        self.link = link
        self.opener = opener
        self.backoff = backoff or Backoff()
        self.refused_backoff = Backoff(REFUSED_BACKOFF_MIN_MS, REFUSED_BACKOFF_MAX_MS)
        self.expected_serial = expected_serial
        self.lookup = lookup
        self.clock: Callable[[], int] = monotonic_ms  # the loop's, once added to one
        self.port: serial.Serial | None = None
        self.path = url  # what was opened last: ``url``, or the device found by serial
        self.health = PortHealth()
        self.retry_at_ms: int | None = 0
        self.refused: str | None = None
        """Why the device on this port is refused (one line: the port, what answered,
        what was expected), while it is; None once a right device answers."""
        self._had_port = False
        self._down_since_ms: int | None = None  # when the port last failed to open or died
        self._why_down = ""  # and why (the opener's or the read's error)
        self._opened_at_ms = 0
        self._frames_at_open = 0
        self._out = bytearray()  # bytes the port has not taken yet
        self._progress_ms = 0  # when the port last took a byte (or bytes began to wait)
        self._path_checked_ms = 0
        self._events: list[Ev] = []  # what a lost port or a refusal produced, handed out next
        self.changed = True
        """What the loop waits on (``deadline_ms``, ``wants_write``, the port) may differ
        from what it last asked: set by every call that can change the driver or its link,
        cleared by the loop as it asks again. A host's loop serves dozens of drivers and
        need not ask each of them every turn (see ``LinkLoop.run_once``)."""

    def fileno(self) -> int | None:
        return self.port.fileno() if self.port is not None else None

    @property
    def wants_write(self) -> bool:
        """Bytes wait for the port: the loop also waits for write readiness."""
        return self.port is not None and bool(self._out)

    @property
    def link_down(self) -> bool:
        """True while the port is closed, the device refused, the device not identified
        on this connection yet, or the link down (silence)."""
        return self.port is None or self.refused is not None or not self.link.link_up

    @property
    def serving(self) -> bool:
        """Open, not refused, its link up and heard on this connection: ``fault`` has
        nothing to say, whatever the time (a cheap question for every turn of a loop)."""
        return not self.link_down and self.frames() != self._frames_at_open

    def _resolve(self) -> str:
        """The path to open now: the configured one afresh (a udev symlink follows the
        device), or — when it does not exist and the serial expected is known — the USB
        device with that serial, wherever it was plugged in."""
        url = self.url
        if "://" in url or self.expected_serial is None or os.path.exists(url):
            return url
        try:
            found = self.lookup(self.expected_serial)
        except Exception as exc:  # a listing that fails is no reason to stop the retries
            log.warning("%s: looking up serial %s failed: %s", url, self.expected_serial, exc)
            return url
        if found is None:
            return url
        if found != self.path:
            log.info("%s is missing; serial %s found at %s", url, self.expected_serial, found)
        return found

    def try_open(self, now_ms: int) -> bool:
        self.changed = True
        path = self._resolve()
        try:
            self.port = self.opener(path)
        except Exception as exc:  # any failure of one port is that table's, not the host's
            self.health.open_failures += 1
            self.health.last_error = f"cannot open {path}: {exc}"
            self._why_down = str(exc) or type(exc).__name__
            self.retry_at_ms = now_ms + self.backoff.next_delay()
            if self._down_since_ms is None:
                self._down_since_ms = now_ms
            return False
        self.path = path
        if path != self.url:
            self.health.last_error = (
                f"{self.url} is missing; opened {path}, the device with serial"
                f" {self.expected_serial}"
            )
        self.health.opens += 1
        if self._had_port:
            self.health.reconnects += 1
        self._had_port = True
        self.retry_at_ms = None
        self._down_since_ms = None
        self._opened_at_ms = now_ms
        self._path_checked_ms = now_ms
        self._frames_at_open = self.frames()
        self._out.clear()
        self.link.connection_made(now_ms)
        self._flush(now_ms)
        return True

    def _lost(self, now_ms: int, why: str) -> None:
        """The port died: close it, tell the link at once (its ``link_down`` is handed out
        by the current call), retry after the back-off."""
        self.health.last_error = f"{self.path}: {why}"
        log.warning("%s: port lost: %s", self.url, why)
        self.close()
        self.retry_at_ms = now_ms + self.backoff.next_delay()
        self._down_since_ms = now_ms
        self._why_down = why
        self._tell_lost(now_ms, why)

    def _refuse(self, now_ms: int, why: str) -> None:
        """The device on the port is not to be served (a link error, or bytes the link
        could not handle): close, remember why, retry after the refused back-off."""
        if why != self.refused:
            log.warning("device refused: %s", why)
        self.health.refusals += 1
        self.health.last_error = why
        self.refused = why
        self.close()
        self.retry_at_ms = now_ms + self.refused_backoff.next_delay()
        self._down_since_ms = now_ms
        self._why_down = why
        self._tell_lost(now_ms, why)

    def _tell_lost(self, now_ms: int, why: str) -> None:
        try:
            self._events += self.link.connection_lost(now_ms, why)
        except Exception:  # the link's own bug must not stop the loop either
            log.exception("%s: the link failed on connection_lost", self.url)

    def _guard(self, now_ms: int, call: Callable[[], list[Ev]]) -> list[Ev]:
        """Run a link call; a link error or anything unexpected refuses the device."""
        try:
            return call()
        except LinkError as exc:
            reason = str(exc)
            self._refuse(now_ms, reason if self.url in reason else f"{self.url}: {reason}")
        except Exception as exc:  # no input may crash the host: logged with its traceback
            log.exception("%s: the link failed on the device's input", self.url)
            self._refuse(now_ms, f"{self.url}: the device's input broke the link: {exc!r}")
        return []

    def _take(self, events: list[Ev]) -> list[Ev]:
        out = self._events + events
        self._events = []
        return out

    def frames(self) -> int:
        """Frames heard from the device so far (the subclasses know their link)."""
        return 0

    def fault(self, now_ms: int, after_ms: int) -> str | None:
        """Why this port does not serve: at once while its device is refused (a wrong
        device is not a passing gap); otherwise once it has not served for ``after_ms``
        (None: it serves, or not for that long yet): it cannot be opened, or it opened and
        nothing answered as a Wuzi device (a modem, a wrong symlink, a board without
        firmware). A short gap — a cable pulled and put back — is no fault: the link's own
        alerts tell it."""
        if self.refused is not None:
            return self.refused
        if self.port is None:
            since = self._down_since_ms
            if since is None or now_ms - since < after_ms:
                return None
            return self._why_down or "cannot be opened"
        if self.frames() == self._frames_at_open and now_ms - self._opened_at_ms >= after_ms:
            seconds = after_ms / 1000
            return f"no Wuzi device answered on {self.path} within {seconds:g} s"
        return None

    def close(self) -> None:
        self.changed = True
        if self.port is not None:
            with contextlib.suppress(serial.SerialException, OSError):
                self.port.close()
        self.port = None
        self._out.clear()

    def _write_some(self, data: bytes) -> int:
        """Write what the port takes now, never waiting. Raises OSError/SerialException
        when the port is dead. pyserial 3.5's ``write`` with ``write_timeout=0`` spins on a
        full buffer (EAGAIN is retried in a loop), so a real port is written through its
        file descriptor (opened O_NONBLOCK by pyserial; a ``socket://`` port's socket is
        non-blocking too); a port without one (``loop://``) is in memory."""
        assert self.port is not None
        try:
            fd = self.port.fileno()
        except (AttributeError, NotImplementedError, serial.SerialException, ValueError):
            try:
                return int(self.port.write(data) or 0)
            except serial.SerialTimeoutException:
                return 0  # it took nothing now (``loop://`` with a zero write timeout)
        try:
            return os.write(fd, data)
        except BlockingIOError:
            return 0
        except InterruptedError:
            return 0

    def _flush(self, now_ms: int) -> None:
        """Queue what the link has to say and write what the port takes (every caller is
        a call that marks the driver ``changed`` first)."""
        out = self.link.data_to_send()
        if self.port is None:
            return  # a closed port: the next connection starts with HELLO
        if out:
            if not self._out:
                self._progress_ms = now_ms
            self._out += out
        if len(self._out) > OUT_BUFFER_MAX:
            self._stalled(now_ms, f"{len(self._out)} bytes waiting")
            return
        self._write_pending(now_ms)

    def _write_pending(self, now_ms: int) -> None:
        if self.port is None or not self._out:
            return
        try:
            n = self._write_some(bytes(self._out))
        except (serial.SerialException, OSError) as exc:
            self._lost(now_ms, f"write failed: {exc}")
            return
        if n > 0:
            del self._out[:n]
            self.health.bytes_out += n
            self._progress_ms = now_ms

    def _stalled(self, now_ms: int, detail: str) -> None:
        self.health.stalls += 1
        self._lost(now_ms, f"stalled: {self.path} stopped reading ({detail})")

    def read(self, now_ms: int) -> bytes:
        """The bytes waiting on the port (b"" if none, or if the port just died).

        Read through pyserial, not ``os.read`` on its descriptor: a pty the loop saw
        readable can give no bytes (the simulators' ptys do, between two writes), and
        only pyserial's own read tells that from a device gone."""
        self.changed = True
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
        if self._events:
            return 0
        if self.port is None:
            return self.retry_at_ms
        deadlines = [self.link.next_deadline_ms()]
        if self._out:
            deadlines.append(self._progress_ms + STALL_MS)
        if "://" not in self.path:
            deadlines.append(self._path_checked_ms + PATH_CHECK_MS)
        known = [d for d in deadlines if d is not None]
        return min(known) if known else None

    def timer(self, now_ms: int) -> None:
        """Time-driven port work: reopen when the back-off is over; on an open port, a
        stalled device or a vanished path loses it."""
        self.changed = True
        if self.port is None:
            if self.retry_at_ms is not None and now_ms >= self.retry_at_ms:
                self.try_open(now_ms)
            return
        if self._out and now_ms - self._progress_ms >= STALL_MS:
            self._stalled(
                now_ms, f"{len(self._out)} bytes untaken for {now_ms - self._progress_ms} ms"
            )
            return
        if "://" not in self.path and now_ms - self._path_checked_ms >= PATH_CHECK_MS:
            self._path_checked_ms = now_ms
            if not os.path.exists(self.path):
                self._lost(now_ms, f"the device path {self.path} vanished")

    # -- the loop's calls -----------------------------------------------------------------

    def on_readable(self, now_ms: int) -> list[Ev]:
        self.changed = True
        data = self.read(now_ms)
        events: list[Ev] = []
        if data:
            events = self._guard(now_ms, lambda: self.link.receive_data(data, now_ms))
            self._answered()
        self._flush(now_ms)
        return self._take(events)

    def on_writable(self, now_ms: int) -> list[Ev]:
        self.changed = True
        self._write_pending(now_ms)
        return self._take([])

    def on_timer(self, now_ms: int) -> list[Ev]:
        self.changed = True
        self.timer(now_ms)
        events: list[Ev] = []
        if self.port is not None:
            events = self._guard(now_ms, lambda: self.link.poll(now_ms))
            self._flush(now_ms)
        return self._take(events)

    def _answered(self) -> None:
        """A right device identified itself on this connection: the refusal is over and
        both back-offs start afresh."""
        if self.port is not None and self.link.identified:
            if self.refused is not None:
                log.info("%s: the expected device answers again", self.url)
            self.refused = None
            self.backoff.reset()
            self.refused_backoff.reset()


class BoardDriver(SerialDriver[Reconciled]):
    """A sensor board: reconciled stone events and alerts out, the colour expected next in."""

    def __init__(
        self,
        url: str,
        link: BoardLink | None = None,
        *,
        opener: Opener = open_exclusive,
        backoff: Backoff | None = None,
        expected_serial: str | None = None,
        lookup: SerialLookup = port_by_serial,
    ) -> None:
        self.board = link or BoardLink(port_name=url, expected_serial=expected_serial)
        super().__init__(
            url,
            self.board,
            opener=opener,
            backoff=backoff,
            expected_serial=expected_serial or self.board.session.expected_serial,
            lookup=lookup,
        )

    def expect(self, colour: Colour | None) -> None:
        """The colour of the next stone, for the link's wrong-colour check (None: none)."""
        self.changed = True
        self.board.expect(colour)

    def frames(self) -> int:
        return self.board.frames_received

    @property
    def debounce_ms(self) -> int:
        """The board's debounce (``BoardLink.debounce_ms``): for ``wuzi.table.press_gate``."""
        return self.board.debounce_ms

    def settled_through(self, t_ms: int, ticket: int = 0) -> bool:
        """Every stone on the board at host time ``t_ms`` has been reported (see
        ``BoardLink.settled_through``); False while the port is closed or refused."""
        if self.port is None or self.refused is not None:
            return False
        return self.board.settled_through(t_ms, ticket)

    def vouch_now(self, now_ms: int) -> int:
        """Ask the board to vouch for this instant and send the question: the ticket for
        ``settled_through`` (``BoardLink.vouch_now``; 0 while the port is closed)."""
        self.changed = True
        if self.port is None:
            return 0
        ticket = self.board.vouch_now(now_ms)
        self._flush(now_ms)
        return ticket

    def ask_now(self, now_ms: int, through_ms: int | None = None) -> None:
        """Ask the board to vouch for ``through_ms`` (default now) and send the question
        (``BoardLink.ask_now``)."""
        self.changed = True
        if self.port is None:
            return
        self.board.ask_now(now_ms, through_ms)
        self._flush(now_ms)

    # -- the point LED (sensor-rev-b, wire protocol 2.2: docs/linked.md) -----------------

    @property
    def can_light(self) -> bool | None:
        """The board has point LEDs (``BoardLink.can_light``): None until it has said."""
        return self.board.can_light

    @property
    def lamp(self) -> Lamp | None:
        """The board's last word on its point LED (``BoardLink.lamp``)."""
        return self.board.lamp

    def light_point(
        self, point: int, colour: Colour | int, now_ms: int, *, blink: bool = True
    ) -> int:
        """Light ``point`` in ``colour`` until that stone is placed there, and send the
        LIGHT now (``BoardLink.light_point``): the ticket, 0 when the board cannot light.
        While the port is closed the wish is kept and sent once the board is back."""
        self.changed = True
        ticket = self.board.light_point(point, colour, now_ms, blink=blink)
        self._flush(now_ms)
        return ticket

    def dark_point(self, now_ms: int) -> int:
        """Put the lit point out and send the DARK now (``BoardLink.dark_point``)."""
        self.changed = True
        ticket = self.board.dark_point(now_ms)
        self._flush(now_ms)
        return ticket


class ClockDriver(SerialDriver[LinkEvent]):
    """A serial clock unit: presses out; display and LED commands in (``display``, ``leds``;
    the buzzer through ``session``), sent by ``flush``."""

    def __init__(
        self,
        url: str,
        session: ClockSession | None = None,
        *,
        opener: Opener = open_exclusive,
        backoff: Backoff | None = None,
        expected_serial: str | None = None,
        lookup: SerialLookup = port_by_serial,
    ) -> None:
        self.session = session or ClockSession(port_name=url, expected_serial=expected_serial)
        super().__init__(
            url,
            self.session,
            opener=opener,
            backoff=backoff,
            expected_serial=expected_serial or self.session.expected_serial,
            lookup=lookup,
        )

    def frames(self) -> int:
        return self.session.health.frames

    def display(self, index: int, segments: bytes, brightness: int = 7) -> None:
        """Queue one face's segments for the unit (sent by ``flush``)."""
        self.changed = True
        self.session.display(index, segments, brightness)

    def leds(self, mask: int) -> None:
        """Queue the unit's LEDs (sent by ``flush``)."""
        self.changed = True
        self.session.leds(mask)

    def flush(self) -> None:
        """Send the commands queued on ``session`` (display, buzz, leds) as far as the
        port takes them now; the rest waits for write readiness. A port lost here is
        told by the next ``on_timer`` (its deadline is now)."""
        self.changed = True
        self._flush(self.clock())


Driver = BoardDriver | ClockDriver
Callback = Callable[[Driver, object], None]


@dataclass(frozen=True)
class _Watched:
    on_readable: Callable[[], None]


class LinkLoop:
    """Many drivers, one thread: readiness via selectors (write readiness too while a
    driver has bytes waiting), timers via each driver's deadline.

    A driver's deadline and write interest are asked again only once it has changed
    (``SerialDriver.changed``: it read, wrote, timed out, or was called), and of every
    driver at least every ``ASK_ALL_MS``: a turn of a host's loop serves one frame of
    one of dozens of drivers, and asking all of them each turn was most of a turn's own
    cost."""

    def __init__(self, clock: Callable[[], int] = monotonic_ms) -> None:
        self.clock = clock
        self.drivers: list[Driver] = []
        self._selector = selectors.DefaultSelector()
        self._registered: dict[Driver, tuple[int, int]] = {}
        self._deadlines: dict[Driver, int | None] = {}
        self._ask_all_at_ms = 0

    def add(self, driver: Driver) -> None:
        self.drivers.append(driver)
        driver.clock = self.clock
        driver.timer(self.clock())
        self._ask(driver)

    def _ask(self, driver: Driver) -> None:
        """Take the driver's deadline and write interest as they are now."""
        driver.changed = False
        self._sync(driver)
        self._deadlines[driver] = driver.deadline_ms()

    def _sync(self, driver: Driver) -> None:
        fd = driver.fileno()
        mask = selectors.EVENT_READ | (selectors.EVENT_WRITE if driver.wants_write else 0)
        want = None if fd is None else (fd, mask)
        old = self._registered.get(driver)
        if old == want:
            return
        if old is not None:
            with contextlib.suppress(KeyError, ValueError, OSError):
                self._selector.unregister(old[0])
            del self._registered[driver]
        if want is not None:
            try:
                self._selector.register(want[0], want[1], driver)
            except (KeyError, ValueError, OSError) as exc:  # a dead fd: the next read tells
                log.warning("%s: cannot wait on the port: %s", driver.url, exc)
                return
            self._registered[driver] = want

    def watch(self, fd: int, on_readable: Callable[[], None]) -> None:
        """Also wait on ``fd`` (a control socket, a wake-up pipe): ``on_readable()`` is
        called from ``run_once`` when it is readable, so one thread serves everything."""
        self._selector.register(fd, selectors.EVENT_READ, _Watched(on_readable))

    def unwatch(self, fd: int) -> None:
        with contextlib.suppress(KeyError, ValueError):
            self._selector.unregister(fd)

    def run_once(self, callback: Callback, max_wait_ms: int = 50) -> None:
        # only the drivers changed since the last turn are asked (bytes queued by a display
        # refresh, a question sent for a press, a port reopened); all of them now and then,
        # so that a call that forgot to mark its driver costs a late timer, not a lost one
        now = self.clock()
        every = now >= self._ask_all_at_ms
        if every:
            self._ask_all_at_ms = now + ASK_ALL_MS
        for driver in self.drivers:
            if every or driver.changed:
                self._ask(driver)
        deadlines = self._deadlines
        known = [d for d in deadlines.values() if d is not None]
        for key, mask in self._selector.select(self._wait_s(known, max_wait_ms)):
            if isinstance(key.data, _Watched):
                key.data.on_readable()
                continue
            drv: Driver = key.data
            if mask & selectors.EVENT_WRITE:
                for ev in drv.on_writable(self.clock()):
                    callback(drv, ev)
            if mask & selectors.EVENT_READ and drv.port is not None:
                for ev in drv.on_readable(self.clock()):
                    callback(drv, ev)
            self._ask(drv)  # its timer may be due now (a settle window's end)
        now = self.clock()
        for due in self.drivers:
            d = deadlines.get(due)
            if d is not None and d <= now:
                for ev in due.on_timer(now):
                    callback(due, ev)
                self._ask(due)

    def _wait_s(self, deadlines: list[int], max_wait_ms: int) -> float:
        """Seconds to sleep until the first deadline (at most ``max_wait_ms``). With the
        real clock the sleep ends at the deadline's very millisecond, not up to a
        millisecond past it (``now`` in whole ms is up to 1 ms behind the instant)."""
        if not deadlines:
            return max_wait_ms / 1000.0
        first = min(deadlines)
        if self.clock is monotonic_ms:
            left_ns = first * 1_000_000 - time.monotonic_ns()
            return max(0.0, min(left_ns / 1e9, max_wait_ms / 1000.0))
        return max(0, min(first - self.clock(), max_wait_ms)) / 1000.0

    def run(self, callback: Callback, stop: Callable[[], bool] | None = None) -> None:
        while stop is None or not stop():
            self.run_once(callback)

    def close(self) -> None:
        for drv in self.drivers:
            drv.close()
        self._selector.close()
