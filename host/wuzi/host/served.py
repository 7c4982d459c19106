"""A table as this host serves it: its pure table, its venue entry, its devices.

``ServedTable`` joins the pure ``TableRuntime`` (``wuzi.table.table.Table``: the game and
every rule about it) to what only a running host has: the serial drivers or the GPIO
clock the table is served by, what the clock unit's displays were last sent, the journal
positions, the devices that could not be built and when to try again. ``Devices`` builds
a table's devices — each failure that table's fault only, tried again after a back-off —
and ``refresh_displays`` draws the clock unit's faces and LEDs when they change. Neither
judges anything: what a device reports goes to the table (``wuzi.host.service``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from wuzi.bus.schemas import Assignment, Cleared
from wuzi.config import TableConfig
from wuzi.host.board_recovery import RecoveringBoardLink
from wuzi.host.displays import faces, leds
from wuzi.host.table_runtime import TableRuntime
from wuzi.io.serial_link import BoardDriver, ClockDriver, LinkLoop
from wuzi.link.session import ClockSession
from wuzi.table.buttons import button_of
from wuzi.table.faults import DeviceLook

if TYPE_CHECKING:
    # gpiozero (and colorzero) take ~25 ms to import: only a table with a GPIO clock pays
    from wuzi.io.gpio_clock import GpioClock

__all__ = ["DEVICE_FAULT_MS", "Devices", "ServedTable", "gpio_name", "refresh_displays"]

log = logging.getLogger("wuzi.host")

DEVICE_FAULT_MS = 3000
"""A device that has not served this long (never opened, or no Wuzi device answered on
its port) is a fault told to the referees: long enough for a board to boot and answer
its first HELLO, short enough that a table is not left silently dead."""
RETRY_MIN_MS = 1000
RETRY_MAX_MS = 30_000
"""The back-off between tries to build a table's device that could not be built (a GPIO
clock, a driver): it doubles from the first to the second."""


@dataclass
class ServedTable:
    """One table of this host: its pure table, its venue entry, its devices."""

    runtime: TableRuntime
    config: TableConfig
    board: BoardDriver | None = None
    clock: ClockDriver | None = None
    gpio: GpioClock | None = None
    faces_sent: tuple[bytes, bytes] | None = None
    leds_sent: int | None = None
    display_due_ns: int | None = 0
    seq: int = 0  # the journal seq of the table's last event
    snapshot_seq: int = 0  # the seq its journaled snapshot was taken at (0: none)
    record_saved: str | None = None  # the game id whose finished record is on disk
    refused_assignment: Assignment | Cleared | None = None  # told once, not at each delivery
    # the devices that could not be built (device -> why), retried at ``retry_at_ns``
    open_errors: dict[str, str] = field(default_factory=dict)
    retry_at_ns: int | None = None
    retry_ms: int = 0

    @property
    def needs_board(self) -> bool:
        """A press is judged against this table's board (it has one)."""
        return bool(self.config.board_port)

    def serving(self) -> bool:
        """Every device serves and none was at fault: a look has nothing to say (a cheap
        question for every turn of the loop)."""
        board, clock = self.board, self.clock
        return (
            self.runtime.faults.quiet
            and not self.open_errors
            and self.retry_at_ns is None
            and (board is None or board.serving)
            and (clock is None or clock.serving)
        )

    def looks(self, now_ms: int) -> list[DeviceLook]:
        """What each of the table's drivers says now (``wuzi.table.faults``)."""
        drivers: tuple[tuple[str, BoardDriver | ClockDriver | None], ...] = (
            ("board", self.board),
            ("clock unit", self.clock),
        )
        return [
            DeviceLook(
                f"{name} {driver.url}",
                refused=driver.refused,
                link_down=driver.link_down,
                silent=driver.fault(now_ms, DEVICE_FAULT_MS),
            )
            for name, driver in drivers
            if driver is not None
        ]

    def expect(self) -> None:
        """Tell the board the colour of its next stone (its wrong-colour check)."""
        if self.board is not None:
            self.board.expect(self.runtime.expected_colour)


class Devices:
    """Builds the tables' devices on one loop: serial drivers join ``loop`` (and
    ``register`` maps each to its table), a GPIO clock calls ``on_gpio_press(table,
    button, at_ms)`` from its pin threads. ``now_ns``/``now_ms``: the host's time base."""

    def __init__(
        self,
        loop: LinkLoop,
        now_ns: Callable[[], int],
        now_ms: Callable[[], int],
        register: Callable[[object, ServedTable], None],
        on_gpio_press: Callable[[int, int, int], None],
        pin_factory: Any = None,
    ) -> None:
        self.loop = loop
        self.now_ns = now_ns
        self.now_ms = now_ms
        self.register = register
        self.on_gpio_press = on_gpio_press
        self.pin_factory = pin_factory

    def open(self, table: ServedTable) -> None:
        """Build whichever of the table's devices is not built yet. A device that cannot
        be built is noted (``open_errors``: the referees hear of it from ``_check_devices``)
        and tried again after a back-off; it never stops the host or the other tables."""
        assert self.loop is not None
        config = table.config
        table.open_errors = {}
        if config.board_port and table.board is None:
            self._try(table, f"board {config.board_port}", self._board)
        if config.clock_port:
            if table.clock is None:
                self._try(table, f"clock unit {config.clock_port}", self._clock)
        elif config.clock_gpio is not None and table.gpio is None:
            self._try(table, gpio_name(config), self._gpio)
        if table.open_errors:
            table.retry_ms = min(max(RETRY_MIN_MS, table.retry_ms * 2), RETRY_MAX_MS)
            table.retry_at_ns = self.now_ns() + table.retry_ms * 1_000_000
        else:
            table.retry_at_ns, table.retry_ms = None, 0
        table.expect()
        table.display_due_ns = 0

    def _try(self, table: ServedTable, device: str, build: Callable[[ServedTable], None]) -> None:
        try:
            build(table)
        except Exception as exc:  # whatever a backend raises is this table's fault only
            why = f"{type(exc).__name__}: {exc}"
            if table.open_errors.get(device) is None:
                log.warning("table %d: %s cannot be used: %s", table.config.number, device, why)
            table.open_errors[device] = why

    def _board(self, table: ServedTable) -> None:
        assert self.loop is not None
        port = table.config.board_port
        # what lies on the board now, not its log since boot, compared with the journal
        link = RecoveringBoardLink(
            port_name=port,
            board=table.runtime.board_cells(),
            expected_serial=table.config.board_serial,  # another board is refused
        )
        board = BoardDriver(port, link)
        self.register(board, table)
        self.loop.add(board)
        table.board = board

    def _clock(self, table: ServedTable) -> None:
        assert self.loop is not None and table.config.clock_port is not None
        port = table.config.clock_port
        session = ClockSession(  # never old presses; another unit is refused
            port_name=port, skip_history=True, expected_serial=table.config.clock_serial
        )
        clock = ClockDriver(port, session)
        self.register(clock, table)
        self.loop.add(clock)
        table.clock = clock

    def _gpio(self, table: ServedTable) -> None:
        from wuzi.io.gpio_clock import GpioClock

        pins = table.config.clock_gpio
        assert pins is not None
        number = table.config.number
        table.gpio = GpioClock(
            buttons=(pins.black_button, pins.white_button, pins.claim_button),
            displays=((pins.clk, pins.dio),),
            pin_factory=self.pin_factory,  # None: gpiozero's default (the env's)
            clock=self.now_ms,
            on_press=lambda button, at_ms: self.on_gpio_press(number, button, at_ms),
        )
        table.faces_sent, table.leds_sent = None, None  # a new display shows nothing yet


def refresh_displays(table: ServedTable, now: int) -> None:
    """Draw the clock unit's faces and LEDs at ``now`` if they changed (a serial unit is
    sent only what changed; a GPIO clock's one display shows the running side)."""
    runtime = table.runtime
    session, first = runtime.session, runtime.first_button
    kept = runtime.gate.kept_button
    shown = faces(
        session,
        now,
        first_button=first,
        menu=runtime.buttons.menu,
        kept=kept if kept in (0, 1) else None,
    )
    segments = shown.segments()
    mask = leds(session, first, now)
    if table.clock is not None:
        if segments != table.faces_sent:
            for index, seg in enumerate(segments):
                table.clock.display(index, seg)
        if mask != table.leds_sent:
            table.clock.leds(mask)
        table.clock.flush()
    elif table.gpio is not None and segments != table.faces_sent:
        # one TM1637 on the header: it shows the side whose clock runs
        turn = None if session is None else session.clock.state.turn
        side = 0 if turn is None else button_of(turn, first)
        table.gpio.display(0, segments[side])
        table.gpio.set_leds(mask)
    table.faces_sent, table.leds_sent = segments, mask
    table.display_due_ns = shown.next_change_ns


def gpio_name(config: TableConfig) -> str:
    """The GPIO clock as the referees find it on the header: its pins (BCM numbers)."""
    pins = config.clock_gpio
    assert pins is not None
    return (
        f"GPIO clock (buttons {pins.black_button}/{pins.white_button}/{pins.claim_button}, "
        f"display {pins.clk}/{pins.dio})"
    )
