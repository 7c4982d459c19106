"""The players of the network final's linked games, at their two halls' tables.

Each game is played at two tables (docs/linked.md): black at the owner table (its team's
hall), white at the away table (the other team's). The players act through the hardware
only — a stone set on their simulated sensor board, their clock unit's button pressed —
and see what the owner host publishes (the owner table's state, read at the central
broker as the organisers' screens read it). Each stone the opponent played is placed on
the player's own board once it shows (the **mirroring**); then the player to move picks
a move (`wuzi.sim.bots.bot.choose_move`), sets it and presses. While the game is held (a
cut hall line, ``paused``) nobody touches anything.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from functools import partial

from wuzi.bus.schemas import Assignment, TableState
from wuzi.rules.board import Board, Colour
from wuzi.rules.ruleset import RuleSet
from wuzi.sim.bots.bot import BotError, choose_move
from wuzi.sim.box import SimTables
from wuzi.sim.devices.virtual_board import VirtualBoard

__all__ = ["GameHands", "Seat"]

MIRROR_AFTER_S = 0.05  # a hand reaches for the stone once the point shows
PRESS_AFTER_S = 0.2  # the stone settles on the board, then the hand goes to the clock
PRESS_AGAIN_S = 4.0  # a stone and press the table did not take (the board's link was
# down when it went there, say): the player lifts the stone and sets it again
HAND_GAP_S = 0.3  # between two stones on one board: each settles on its own (a board
# that reads two new stones in one settling reports them together, for the referee)
MISS = 0.6  # how often a player overlooks the opponent's winning threat: a demo's games
# end in a few dozen moves (the bots' default, 0.1, plays long games)
DRAW_AFTER_MOVES = 120  # the players agree a draw this far into a game (the referee
# sets it: a linked game's result is the owner's, ``set-result`` at its table)
BLACK, WHITE = 1, 2


@dataclass
class Seat:
    """One table of a linked game: its hall's simulated devices and the table number."""

    sims: SimTables
    table: int  # the event's table number
    index: int  # its place in the hall's SimTables
    stones: dict[int, int] = field(default_factory=dict)  # what this game set here
    last_s: float = 0.0  # when the last stone went down here

    def ready(self, now_s: float) -> bool:
        return now_s - self.last_s >= HAND_GAP_S

    def place(self, point: int, colour: int, now_s: float) -> None:
        self.sims.place(self.index + 1, point, colour)
        self.stones[point] = colour
        self.last_s = now_s

    def press(self) -> None:
        self.sims.press(self.index + 1, 0)

    def lift(self, point: int, now_s: float) -> None:
        board = self.sims.boards[self.index]
        board.at(0, partial(board.set_cell, point, 0))
        self.stones.pop(point, None)
        self.last_s = now_s

    def clear(self) -> None:
        """The previous game's stones off the board (between games, as the referee does)."""
        board = self.sims.boards[self.index]
        board.at(0, partial(_empty, board))
        self.stones.clear()


@dataclass
class GameHands:
    """Both players of one linked game (``owner``: black's table; ``away``: white's)."""

    assignment: Assignment
    owner: Seat
    away: Seat
    seed: int
    rng: random.Random = field(init=False)
    ruleset: RuleSet = field(init=False)
    seen_at: dict[int, float] = field(default_factory=dict)  # move number → first seen
    pending: dict[int, tuple[int, float, bool]] = field(default_factory=dict)  # colour →
    # (point, placed at, pressed)
    finished: bool = False
    draw_asked: str = ""  # why the players ask the referee for a draw ("": they play on)
    draw_sent_s: float = 0.0

    def __post_init__(self) -> None:
        self.rng = random.Random(f"{self.seed}-{self.assignment.game_id}")
        self.ruleset = RuleSet.parse(self.assignment.rule_set)

    def seat(self, colour: int) -> Seat:
        return self.owner if colour == BLACK else self.away

    def step(self, state: TableState | None, now_s: float) -> None:
        """Act on the owner's newest state of this game (None: none yet)."""
        if state is None or state.game_id != self.assignment.game_id:
            return
        if state.status == "finished":
            self.finished = True
            return
        if state.status != "playing" or self.draw_asked:
            return  # held (a cut line, the referees), or a draw asked for: hands off
        moves = state.moves
        for i, point in enumerate(moves):
            colour = BLACK if i % 2 == 0 else WHITE
            self.seen_at.setdefault(i, now_s)
            for seat in (self.owner, self.away):
                if (
                    point not in seat.stones
                    and now_s - self.seen_at[i] >= MIRROR_AFTER_S
                    and seat.ready(now_s)
                ):
                    seat.place(point, colour, now_s)  # the mirroring
            pend = self.pending.get(colour)
            if pend is not None and pend[0] == point:
                del self.pending[colour]
        if len(moves) >= DRAW_AFTER_MOVES and not self.draw_asked:
            self.draw_asked = f"agreed after {len(moves)} moves"
        to_move = BLACK if len(moves) % 2 == 0 else WHITE
        seat = self.seat(to_move)
        if any(p not in seat.stones for p in moves) or not seat.ready(now_s):
            return  # the opponent's last stone is not on this board yet, or just set
        pend = self.pending.get(to_move)
        if pend is None:
            board = Board()
            for i, p in enumerate(moves):
                board.place(p, Colour.BLACK if i % 2 == 0 else Colour.WHITE)
            colour = Colour.BLACK if to_move == BLACK else Colour.WHITE
            try:
                point = choose_move(board, colour, self.ruleset, self.rng, miss=MISS)
            except BotError:
                self.draw_asked = "no legal point left for the player to move"
                return
            seat.place(point, to_move, now_s)
            self.pending[to_move] = (point, now_s, False)
            return
        point, placed_s, pressed = pend
        if not pressed and now_s - placed_s >= PRESS_AFTER_S:
            seat.press()
            self.pending[to_move] = (point, now_s, True)
        elif pressed and now_s - placed_s >= PRESS_AGAIN_S:
            seat.lift(point, now_s)  # set again at the next step, pressed again
            del self.pending[to_move]


def _empty(board: VirtualBoard) -> None:
    for point in range(225):
        board.set_cell(point, 0)


def now() -> float:
    return time.monotonic()
