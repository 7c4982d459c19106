"""The owner host's linked game: the rules and the time rule of one game between two halls.

A linked game (docs/linked.md) has its two seats at tables of two halls; the owner host
runs it. ``LinkedGame`` is its pure core at the owner: the ``OwnerSeat`` (the away seat's
items from the hall line, the owner hall's own stones and presses, the time rule) joined
to the rules' ``Game`` that judges every move. The host gives it what its board and clock
unit read and what the hall line took, with the time; it answers with ``LinkedOutcome``
values (alerts for the hall's referees, refused items, whether the game ended) and the
``OwnerTruth`` the away host shows, now with the game's id, the players and the result.

**The result is the owner's rules' at once** (``Mode.AUTO``: a five or a forbidden move
ends the game where it is played). The 2021 championship's own rule for its network
stages is that the platform decides the result (000 六: "对局胜负由对弈平台判定"); a
claim made across two halls would be a message, not a player's act at the board.

**One stone per press** (the free opening): an opening where one press places several
stones or a swap changes colours is not played across halls yet (docs/linked.md).

No I/O, no clock read: every instant is an argument, in the owner's monotonic ms.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from wuzi.clock.linked import LinkedTime
from wuzi.rules.board import point_name
from wuzi.rules.errors import RulesError
from wuzi.rules.events import Result
from wuzi.rules.game import Game
from wuzi.rules.procedure import Seat
from wuzi.rules.record import ClockReading
from wuzi.table.alerts import AlertReason
from wuzi.table.line_messages import LineReceived, OwnerTruth
from wuzi.table.outputs import GameOver
from wuzi.table.owner_seat import (
    AwayMove,
    ItemRefused,
    OwnerAlert,
    OwnerOutcome,
    OwnerSeat,
    OwnerSeatError,
    OwnStone,
)

__all__ = ["OWN_HEARD_MS", "LinkedGame", "LinkedOutcome", "LinkedSetup", "truth_record"]

OWN_HEARD_MS = 1_500
"""How far back the owner hall's own devices are surely all heard: a press waits up to
1 s for its stone (``wuzi.host.linked_side.PRESS_WAIT_MS``), plus the links' own delays."""


@dataclass(frozen=True)
class LinkedSetup:
    """One linked game as the director (or the venue's defaults) set it: the id, the
    players, the rules, the time control, the event's mirroring grace, and which colour
    the owner hall's player holds."""

    game_id: str
    black: str = ""
    white: str = ""
    ruleset: str = "renju"
    time_control: str = "2700+30"
    grace_ms: int = 10_000
    owner_colour: str = "black"


@dataclass
class LinkedOutcome:
    """What one call decided: private alerts for this hall's referees (never a verdict),
    away items refused (a confused away host: the referees are told), the moves played,
    and whether the game ended."""

    alerts: list[OwnerAlert] = field(default_factory=list)
    refused: list[ItemRefused] = field(default_factory=list)
    played: list[int] = field(default_factory=list)  # points, in order
    ended: bool = False


class LinkedGame:
    """The owner's linked game at table ``table`` of link ``link``, started at
    ``start_ms`` (black's clock runs)."""

    def __init__(self, table: int, link: str, setup: LinkedSetup, start_ms: int) -> None:
        self.setup = setup
        self.seat = OwnerSeat(
            table,
            link,
            setup.time_control,
            grace_ms=setup.grace_ms,
            owner_colour=setup.owner_colour,
        )
        self.seat.start(start_ms)
        self.start_ms = start_ms
        try:
            self.game = Game(setup.ruleset, mode="auto", t_ms=0)
        except RulesError as exc:
            raise OwnerSeatError(f"linked game {setup.game_id}: {exc}") from None
        self._own_stone: int | None = None  # the owner player's stone waiting for its press
        self._last_t = 0
        self._ended_ms: int | None = None
        self._result_sent = False
        self._cut = False

    # -- what the host reads --------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.game.is_over

    @property
    def result(self) -> Result | None:
        return self.game.result

    @property
    def waiting_stone(self) -> int | None:
        """The owner player's stone on the board waiting for their press."""
        return self._own_stone

    @property
    def owner_colour(self) -> str:
        return self.setup.owner_colour

    def time(self, now_ms: int) -> LinkedTime:
        """The clocks at ``now_ms`` (frozen at the game's end)."""
        return self.seat.time(now_ms if self._ended_ms is None else self._ended_ms)

    def truth(self, now_ms: int, *, force: bool = False) -> OwnerTruth | None:
        """The truth to send at ``now_ms`` when it changed (or always with ``force``);
        the game's end is a change of its own."""
        at = now_ms if self._ended_ms is None else max(now_ms, self._ended_ms)
        base = self.seat.current_truth(at) if force else self.seat.truth(at)
        if self.over and not self._result_sent:
            base = base or self.seat.current_truth(at)
            self._result_sent = True
        return None if base is None else self._dressed(base)

    def mark_told(self) -> None:
        """The game's end was sent before a restart (rebuilt from the journal)."""
        self._result_sent = self.over

    def _dressed(self, t: OwnerTruth) -> OwnerTruth:
        result, reason = self._result_words()
        stopped = result != ""
        black, white = t.black_ms, t.white_ms
        if stopped and self._ended_ms is not None:
            black, white = self.seat.time(self._ended_ms).remaining_ms
        return OwnerTruth(
            t.moves,
            black,
            white,
            None if stopped else t.running,
            t.held,
            t.mirror,  # the last stone is still placed on the other board
            t.at_ms,
            game=self.setup.game_id,
            black=self.setup.black,
            white=self.setup.white,
            away=self.seat.away_colour,
            result=result,
            reason=reason,
        )

    def game_over(self, at_ns: int) -> GameOver:
        """The game's end as a table's output (the ``result`` event the director reads)."""
        result = self.game.result
        if result is None:
            raise OwnerSeatError(f"linked game {self.setup.game_id} is not over")
        return GameOver(at_ns, result.winner, result.reason.value, result.detail)

    def _result_words(self) -> tuple[str, str]:
        result = self.game.result
        if result is None:
            return "", ""
        winner = "draw" if result.winner_colour is None else result.winner_colour.name.lower()
        return winner, result.reason.value

    # -- the away seat ----------------------------------------------------------------

    def received(self, record: LineReceived) -> LinkedOutcome:
        """An away item the hall line took (``Take.record``)."""
        out = LinkedOutcome()
        if self.over:
            out.refused.append(ItemRefused(record.n, "the game is over"))
            return out
        self._carry(self.seat.received(record), out)
        return out

    # -- the owner hall's own board and clock unit ---------------------------------------

    def board_stone(self, point: int, colour: str, at_ms: int) -> LinkedOutcome:
        """A stone settled on the owner's board (its instant)."""
        out = LinkedOutcome()
        if self.over:
            return out
        self._carry(self.seat.board_stone(point, colour, at_ms), out)
        return out

    def board_removed(self, point: int) -> LinkedOutcome:
        """A stone taken off the owner's board: the owner player's waiting stone is no
        longer their move."""
        if self._own_stone == point:
            self._own_stone = None
        return LinkedOutcome()

    def own_press(self, at_ms: int) -> LinkedOutcome:
        """The owner player pressed their button at ``at_ms``: their waiting stone is
        their move, judged by the rules. A press out of turn or with no stone is told to
        the referees (the equipment's or a slip, never charged)."""
        out = LinkedOutcome()
        if self.over:
            return out
        if self.seat.to_move != self.owner_colour:
            out.alerts.append(self._alert(at_ms, "a press of the owner player out of turn"))
            return out
        point = self._own_stone
        if point is None:
            out.alerts.append(self._alert(at_ms, "a press with no new stone of the player's"))
            return out
        try:
            self.seat.own_press(point, at_ms)
        except OwnerSeatError as exc:
            out.alerts.append(self._alert(at_ms, f"press not taken: {exc}"))
            return out
        self._own_stone = None
        self._play(point, self.seat.owner_seat, at_ms, out)
        return out

    def shown_here(self, move: int, at_ms: int) -> None:
        """The away move ``move`` was drawn on the owner's clock unit at ``at_ms``."""
        if not self.over:
            self.seat.shown_here(move, at_ms)

    @property
    def cut(self) -> bool:
        """The game is held for the hall line (cut, not yet resumed by the referees)."""
        return self._cut

    def line_cut(self, at_ms: int) -> None:
        """The hall line is cut as of ``at_ms`` (once: a cut found again while the game
        is held for the line changes nothing)."""
        if not self.over and not self._cut:
            self.seat.line_cut(at_ms)
            self._cut = True

    def line_back(self, at_ms: int) -> None:
        """The referees resumed the game at ``at_ms`` (nothing if it was not held)."""
        if not self.over and self._cut:
            self.seat.line_back(at_ms)
            self._cut = False

    def tick(self, now_ms: int, *, away_heard_ms: int | None = None) -> LinkedOutcome:
        """A fallen flag ends the game once it is final: the hall of the player whose
        flag fell has told everything it stamped before it. The owner hall's own devices
        are heard up to ``OWN_HEARD_MS`` ago (a press waits that long for its stone);
        the away hall up to ``away_heard_ms`` (the host's bound from the line: its items
        arrive in order, a press held at most as long)."""
        out = LinkedOutcome()
        if self.over:
            return out
        self.seat.rule.heard_until(self.seat.owner_seat, max(0, now_ms - OWN_HEARD_MS))
        if away_heard_ms is not None:
            self.seat.rule.heard_until(self.seat.away_seat, max(0, away_heard_ms))
        state = self.seat.time(now_ms)
        if state.flag_seat is not None and state.flag_final and state.flag_ms is not None:
            t = self._t(state.flag_ms)
            self.game.flag(state.flag_seat, t_ms=t, clocks=self._clocks(state.flag_ms))
            self._ended_ms = state.flag_ms
            out.ended = True
        return out

    def referee_result(
        self, winner: Seat | None, reason: str, referee: str, at_ms: int
    ) -> LinkedOutcome:
        """The referee ends the game (a signed ``set-result`` at the owner's table):
        ``winner`` None is a draw (agreed, a full board). A game already over, or a
        reason the rules refuse, raises `OwnerSeatError` naming it; nothing changes then."""
        if self.over:
            raise OwnerSeatError(f"linked game {self.setup.game_id} is already over")
        try:
            self.game.referee_decide(
                winner, reason, referee=referee, t_ms=self._t(at_ms), clocks=self._clocks(at_ms)
            )
        except (RulesError, ValueError) as exc:
            raise OwnerSeatError(f"set-result: {exc}") from None
        self._ended_ms = at_ms
        return LinkedOutcome(ended=True)

    # -- helpers ----------------------------------------------------------------------

    def _carry(self, seat_out: OwnerOutcome, out: LinkedOutcome) -> None:
        for d in seat_out.decisions:
            if isinstance(d, AwayMove):
                self._play(d.point, self.seat.away_seat, d.pressed_at_ms, out)
            elif isinstance(d, OwnStone):
                self._own_stone = d.point
            elif isinstance(d, OwnerAlert):
                out.alerts.append(d)
            elif isinstance(d, ItemRefused):
                out.refused.append(d)
            else:  # AwayClaimed, AwayButtonPressed: the game ends by itself (module doc)
                out.alerts.append(
                    self._alert(d.at_ms, f"a {type(d).__name__} at the away table (not used)")
                )

    def _play(self, point: int, seat: Seat, at_ms: int, out: LinkedOutcome) -> None:
        t = self._t(at_ms)
        try:
            self.game.place(point, seat=seat, t_ms=t, clocks=self._clocks(at_ms))
        except RulesError as exc:  # cannot happen after the seat's checks: say so
            out.alerts.append(self._alert(at_ms, f"move {point_name(point)} not played: {exc}"))
            return
        out.played.append(point)
        if self.game.is_over:
            self._ended_ms = at_ms
            out.ended = True

    def _t(self, at_ms: int) -> int:
        self._last_t = max(self._last_t, at_ms - self.start_ms)
        return self._last_t

    def _clocks(self, at_ms: int) -> ClockReading:
        black, white = self.seat.time(max(at_ms, self.start_ms)).remaining_ms
        return ClockReading(black, white)

    def _alert(self, at_ms: int, what: str) -> OwnerAlert:
        text = f"table {self.seat.table} (linked {self.seat.link}, owner): {what}"
        return OwnerAlert(self.seat.table, self.seat.link, AlertReason.MIRRORING, text, at_ms)


def truth_record(truth: OwnerTruth, link: str) -> dict[str, object]:
    """The linked game's record as both halls write it from the owner's final truth: the
    same at both, so comparing the two files proves the away hall saw the game the owner
    judged (docs/linked.md "Records")."""
    return {
        "format": "wuzi-linked-record/1",
        "game": truth.game,
        "link": link,
        "black": truth.black,
        "white": truth.white,
        "moves": [point_name(p) for p in truth.moves],
        "result": truth.result,
        "reason": truth.reason,
        "black_ms": truth.black_ms,
        "white_ms": truth.white_ms,
    }
