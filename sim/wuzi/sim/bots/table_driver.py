"""The hands of a ``TablePlayer`` on one simulated table: stones and button presses.

``wuzi.sim.bots.table_player`` decides what the players do; this thin shell does it on the
simulated hardware of ``wuzi.sim.box.SimTables`` (or any ``VirtualBoard`` and
``VirtualClock`` pair): a stone is a cell of the board's stone table set at its due time, a
press is the clock unit's button held the way a hand holds it. It also shows the player
what a player at the table sees on the clock unit: the two displays.

Threads: the devices run in the simulator's loop (``wuzi.sim.devices.runner.run_boards``); the
driver only queues timed actions on them (``VirtualBoard.at``, ``VirtualClock.press``) and
reads the displays' segment bytes, as the bench harness does. Times are the devices' clock
(``wuzi.sim.devices.runner.monotonic_ms``), the ``now_ms`` the player is given.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import Protocol

from wuzi.bus.schemas import Message
from wuzi.link import wire
from wuzi.sim.bots.table_player import Lift, PhysicalAction, Place, Press, TablePlayer
from wuzi.sim.devices.virtual_board import VirtualBoard
from wuzi.sim.devices.virtual_clock import VirtualClock

__all__ = ["HOLD_MS", "SimulatedTables", "TableDriver"]

HOLD_MS = 80
"""How long a hand holds a clock-unit button down (the firmware debounces 30 ms)."""


class SimulatedTables(Protocol):
    """Simulated tables as ``wuzi.sim.box.SimTables`` holds them (table 1 first)."""

    @property
    def boards(self) -> Sequence[VirtualBoard]: ...

    @property
    def clocks(self) -> Sequence[VirtualClock]: ...


class TableDriver:
    """Performs one player's actions on one table's board and clock unit."""

    def __init__(
        self,
        player: TablePlayer,
        board: VirtualBoard,
        clock: VirtualClock,
        *,
        hold_ms: int = HOLD_MS,
    ) -> None:
        self.player = player
        self.board = board
        self.clock = clock
        self.hold_ms = hold_ms
        self.performed: list[PhysicalAction] = []

    @classmethod
    def for_table(cls, player: TablePlayer, sim: SimulatedTables, table: int) -> TableDriver:
        """The driver of table ``table`` (1-based) of a ``SimTables``."""
        boards, clocks = sim.boards, sim.clocks
        if not 1 <= table <= len(boards):
            raise ValueError(f"table {table} is not one of the {len(boards)} simulated tables")
        return cls(player, boards[table - 1], clocks[table - 1])

    def observe(self, messages: Iterable[Message], now_ms: int) -> None:
        """Hand the bus messages about this table to the player."""
        for message in messages:
            self.player.observe(message, now_ms)

    def look(self, now_ms: int) -> None:
        """Show the player both displays of the clock unit as they are now."""
        for index, display in enumerate(self.clock.displays):
            self.player.observe_display(index, display.segments, now_ms)

    def perform(self, actions: Iterable[PhysicalAction]) -> None:
        """Queue each action on the device at its due time."""
        for action in actions:
            if isinstance(action, Place):
                self._at(action.at_ms, partial(self.board.set_cell, action.point, _code(action)))
            elif isinstance(action, Lift):
                self._at(action.at_ms, partial(self.board.set_cell, action.point, wire.EMPTY))
            elif isinstance(action, Press):
                self.clock.press(action.button, action.at_ms, hold_ms=self.hold_ms)
            else:  # pragma: no cover - PhysicalAction has three kinds
                raise TypeError(f"not a physical action: {action!r}")
            self.performed.append(action)

    def step(self, now_ms: int) -> list[PhysicalAction]:
        """One turn of the hands: look at the displays, ask the player, act."""
        self.look(now_ms)
        actions = self.player.poll(now_ms)
        self.perform(actions)
        return actions

    def clear(self, now_ms: int) -> None:
        """Lift every stone the player put on the board (before the next game) — after the
        last stone still on its way down: a game can end (a flag) while a stone is in the
        air, and lifted before it landed it would stay on the board for good, and no next
        game would begin (the referee waits for a bare board)."""
        landing = [a.at_ms for a in self.performed if isinstance(a, Place)]
        self.perform(self.player.clear_actions(max([now_ms, *(t + 1 for t in landing)])))

    def _at(self, at_ms: int, action: Callable[[], None]) -> None:
        self.board.at(at_ms, action)


def _code(action: Place) -> int:
    return wire.BLACK if int(action.colour) == wire.BLACK else wire.WHITE
