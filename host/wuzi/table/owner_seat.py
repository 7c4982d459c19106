"""The owner host's side of a linked game: one linked table at the owner hall: pure.

In a linked game (docs/linked.md) the owner host runs the game; the away seat's inputs
reach it over the hall line, stamped with the away host's instants and converted into the
owner's time with their error bound (``LineReceived``). ``OwnerSeat`` turns those items
and the owner hall's own facts into (1) the time rule's facts (``LinkedClockRule``:
``pressed``, ``shown``, ``mirrored``, ``line_cut``, ``line_back``), numbered the same way
at both halls (move ``n`` = the ``n``-th stone of the game = the ``n``-th press); (2)
decisions for the owner's table, as values: the away seat's move to play (``AwayMove``),
its claims and buttons, the owner player's own stones to judge (``OwnStone``), and private
alerts for the owner hall's referee (``OwnerAlert``, reason ``mirroring``: never a
verdict); and (3) the ``OwnerTruth`` the away table shows, built again whenever it
changes. No I/O, no clock read: every instant is an argument, in owner ms.

**Which stones are moves.** The owner's board holds both players' stones. Only a stone of
the owner player's colour is ever handed to the table as a move (``OwnStone``); a stone of
the away player's colour on the point just played by the away seat is the mirroring; put
back where it stands in the game it is nothing; anywhere else it is an alert. The away
seat's moves come only from the hall line (``AwayStone`` then ``AwayPress``).

Not decided here (the host's, see docs/linked.md "The owner seat"): judging the moves
(the table's rules), journaling the facts (``rule.facts``, the line's records), referee
actions on the clock, the opening's multi-stone turns and swaps (one stone per press here),
and the game's end.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from wuzi.clock.linked import HoldReason, LinkedClockRule, LinkedTime
from wuzi.clock.linked_facts import LinkedTimeError
from wuzi.rules.board import point_name
from wuzi.rules.procedure import Seat
from wuzi.table.alerts import AlertReason
from wuzi.table.checks import check_ms, check_point
from wuzi.table.line_messages import (
    COLOURS,
    AwayButton,
    AwayClaim,
    AwayMirrored,
    AwayPress,
    AwayShown,
    AwayStone,
    LineReceived,
    OwnerTruth,
)

__all__ = [
    "AwayButtonPressed",
    "AwayClaimed",
    "AwayMove",
    "ItemRefused",
    "OwnStone",
    "OwnerAlert",
    "OwnerOutcome",
    "OwnerSeat",
    "OwnerSeatError",
    "SeatDecision",
]

_HELD = (HoldReason.LINE_CUT,)  # the holds the truth calls "held" (transit, mirroring: not)


class OwnerSeatError(ValueError):
    """An argument the owner seat cannot take (named in the message); nothing changed."""


@dataclass(frozen=True)
class AwayMove:
    """The away seat's move ``move`` (its stone on ``point``, ``colour``), pressed at
    ``pressed_at_ms`` (owner time, within ``error_ms``): the table plays it as the away
    seat's, the board of the away hall vouching for the stone."""

    move: int
    point: int
    colour: str
    pressed_at_ms: int
    error_ms: int


@dataclass(frozen=True)
class AwayClaimed:
    """A claim made at the away table (its claim ``button``) at ``at_ms`` (owner time)."""

    button: int
    at_ms: int
    error_ms: int


@dataclass(frozen=True)
class AwayButtonPressed:
    """Another button of the away clock unit at ``at_ms`` (owner time): a press not of the
    away player's own button, or a call for the referee, a menu key."""

    button: int
    at_ms: int
    error_ms: int


@dataclass(frozen=True)
class OwnStone:
    """A stone of the owner player's colour on the owner's board: the table judges it as
    any local stone (it becomes a move at the owner player's press)."""

    point: int
    colour: str
    at_ms: int


@dataclass(frozen=True)
class OwnerAlert:
    """A private alert for the owner hall's referee: never a verdict. ``text`` names the
    table, the link and what is wrong; ``at_ms`` is the instant of what caused it."""

    table: int
    link: str
    reason: AlertReason
    text: str
    at_ms: int


@dataclass(frozen=True)
class ItemRefused:
    """An away item (line number ``n``) that the game cannot take: ``why``. Nothing
    changed; the host journals it and tells the referees (a confused away host, not a
    player's fault)."""

    n: int
    why: str


SeatDecision = AwayMove | AwayClaimed | AwayButtonPressed | OwnStone | OwnerAlert | ItemRefused


@dataclass
class OwnerOutcome:
    """What one call decided, in order (the truth to send is ``OwnerSeat.truth``)."""

    decisions: list[SeatDecision] = field(default_factory=list)


def _check_ms(name: str, value: object) -> int:
    return check_ms(value, name, OwnerSeatError)


def _check_point(value: object) -> int:
    return check_point(value, error=OwnerSeatError)


@contextmanager
def _refused(call: str) -> Iterator[None]:
    """The time rule's refusal of an owner's own fact, as this module's error."""
    try:
        yield
    except LinkedTimeError as error:
        raise OwnerSeatError(f"{call}: {error}") from error


def _seat_of(colour: str) -> Seat:
    return Seat.FIRST if colour == COLOURS[0] else Seat.SECOND


class OwnerSeat:
    """One linked table at the owner hall; see the module docstring.

    ``table``: this hall's table number; ``link``: the ``[[links]]`` id (both named in
    alerts); ``control``: the game's time control; ``grace_ms``: the event's mirroring
    grace; ``owner_colour``: the owner player's stones (black moves first, and black's
    seat is ``Seat.FIRST`` of the time rule); ``away_button``: the away clock unit's button
    of the away player (their press; the other button is an ``AwayButtonPressed``)."""

    def __init__(
        self,
        table: int,
        link: str,
        control: str,
        *,
        grace_ms: int,
        owner_colour: str = "black",
        away_button: int = 0,
    ) -> None:
        if isinstance(table, bool) or not isinstance(table, int) or table < 1:
            raise OwnerSeatError(f"table must be a table number (1 or more), not {table!r}")
        if not isinstance(link, str) or not link:
            raise OwnerSeatError(f"link must be the link's id, not {link!r}")
        if owner_colour not in COLOURS:
            raise OwnerSeatError(f"owner_colour must be one of {COLOURS}, not {owner_colour!r}")
        if away_button not in (0, 1) or isinstance(away_button, bool):
            raise OwnerSeatError(f"away_button must be 0 or 1, not {away_button!r}")
        self.table = table
        self.link = link
        self.owner_colour = owner_colour
        self.away_colour = COLOURS[1 - COLOURS.index(owner_colour)]
        self.owner_seat = _seat_of(owner_colour)
        self.away_seat = self.owner_seat.other
        self.away_button = away_button
        self.rule = LinkedClockRule(control, grace_ms=grace_ms)  # LinkedTimeError: bad ones
        self._moves: list[int] = []
        self._started = False
        self._away_stone: tuple[int, AwayStone] | None = None  # (line n, the stone)
        self._away_mirrored: set[int] = set()  # owner moves the away player has placed
        self._here_mirrored: set[int] = set()  # away moves placed on the owner's board
        self._board: dict[int, str] = {}  # what the owner's board reported standing
        self._sent: tuple[object, ...] | None = None  # the last truth's key

    # -- what the host reads ----------------------------------------------------------

    @property
    def moves(self) -> tuple[int, ...]:
        """The game's stones, in order (both seats'): the truth's ``moves``."""
        return tuple(self._moves)

    @property
    def to_move(self) -> str:
        """The colour whose stone is next (black first, alternating)."""
        return COLOURS[len(self._moves) % 2]

    def to_mirror_away(self) -> int | None:
        """The owner's last move while the away player has not placed it: the truth's
        ``mirror``."""
        n = len(self._moves)
        if n and COLOURS[(n - 1) % 2] == self.owner_colour and n not in self._away_mirrored:
            return self._moves[-1]
        return None

    def to_mirror_here(self) -> tuple[int, int] | None:
        """(move, point) of the away seat's last move while the owner player has not placed
        it on the owner's board: what the owner's point LED lights."""
        n = len(self._moves)
        if n and COLOURS[(n - 1) % 2] == self.away_colour and n not in self._here_mirrored:
            return n, self._moves[-1]
        return None

    def time(self, now_ms: int) -> LinkedTime:
        """The time rule's answer at ``now_ms``, for the owner's faces and states."""
        return self.rule.at(_check_ms("now_ms", now_ms))

    # -- the game ---------------------------------------------------------------------

    def start(self, at_ms: int) -> None:
        """The game starts at ``at_ms``: black's clock runs."""
        with _refused("start"):
            self.rule.start(Seat.FIRST, _check_ms("at_ms", at_ms))
        self._started = True

    # -- the away seat, from the hall line ---------------------------------------------

    def received(self, record: LineReceived) -> OwnerOutcome:
        """An away item taken from the hall line (``Take.record``): its ``at_ms`` and
        ``error_ms`` are already in owner time. Refused items give ``ItemRefused``."""
        if not isinstance(record, LineReceived):
            raise OwnerSeatError(f"record must be a LineReceived, not {record!r}")
        item, at, err = record.item, record.at_ms, record.error_ms
        out = OwnerOutcome()
        try:
            if isinstance(item, AwayStone):
                self._stone_from_away(record.n, item, out)
            elif isinstance(item, AwayPress):
                self._press_from_away(record.n, item, at, err, out)
            elif isinstance(item, AwayShown):
                self._check_owner_move(item.move, "shown")
                self.rule.shown(self.away_seat, at, move=item.move, error_ms=err)
            elif isinstance(item, AwayMirrored):
                self._check_owner_move(item.move, "mirrored")
                if self._moves[item.move - 1] != item.point:
                    raise LinkedTimeError(
                        f"move {item.move} is on {point_name(self._moves[item.move - 1])}, "
                        f"not {point_name(item.point)}"
                    )
                self.rule.mirrored(self.away_seat, at, move=item.move, error_ms=err)
                self._away_mirrored.add(item.move)
            elif isinstance(item, AwayClaim):
                out.decisions.append(AwayClaimed(item.button, at, err))
            elif isinstance(item, AwayButton):
                out.decisions.append(AwayButtonPressed(item.button, at, err))
            else:
                raise LinkedTimeError(f"{type(item).__name__} is not an away input")
        except LinkedTimeError as error:
            out.decisions.append(ItemRefused(record.n, str(error)))
        if isinstance(item, AwayStone | AwayPress | AwayShown | AwayMirrored):
            # items come in order and the away host's stamps only grow: the away hall
            # has told everything it stamped before this one
            self.rule.heard_until(self.away_seat, max(0, at - err))
        return out

    def _check_owner_move(self, move: int, what: str) -> None:
        if not 1 <= move <= len(self._moves):
            raise LinkedTimeError(f"{what} move {move}: the game has {len(self._moves)} moves")
        if COLOURS[(move - 1) % 2] != self.owner_colour:
            raise LinkedTimeError(f"{what} move {move} is the away player's own move")

    def _stone_from_away(self, n: int, stone: AwayStone, out: OwnerOutcome) -> None:
        if stone.colour != self.away_colour:
            raise LinkedTimeError(
                f"a {stone.colour} stone sent as the away player's ({self.away_colour}) move"
            )
        if self._away_stone is not None:
            out.decisions.append(
                self._alert(
                    stone.at_ms,
                    f"a second {stone.colour} stone at the away table "
                    f"({point_name(stone.point)}) before its press: the latest counts",
                )
            )
        self._away_stone = (n, stone)

    def _press_from_away(
        self, n: int, press: AwayPress, at_ms: int, error_ms: int, out: OwnerOutcome
    ) -> None:
        if press.button != self.away_button:
            out.decisions.append(AwayButtonPressed(press.button, at_ms, error_ms))
            return
        if self.to_move != self.away_colour:
            raise LinkedTimeError(f"a press of the away player ({self.away_colour}) out of turn")
        if self._away_stone is None:
            raise LinkedTimeError("a press of the away player with no stone of theirs sent")
        point = self._away_stone[1].point
        if point in self._moves:
            raise LinkedTimeError(f"the away stone's point {point_name(point)} is taken")
        move = len(self._moves) + 1
        self.rule.pressed(self.away_seat, at_ms, move=move, error_ms=error_ms)
        self._moves.append(point)
        self._away_stone = None
        out.decisions.append(AwayMove(move, point, self.away_colour, at_ms, error_ms))

    # -- the owner hall's own facts -----------------------------------------------------

    def own_press(self, point: int, at_ms: int) -> OwnerOutcome:
        """The owner player pressed at ``at_ms`` (their clock unit's instant), their move
        being the stone on ``point`` (the table judged it): ``rule.pressed``."""
        _check_point(point)
        _check_ms("at_ms", at_ms)
        if self.to_move != self.owner_colour:
            raise OwnerSeatError(f"the owner player ({self.owner_colour}) pressed out of turn")
        if point in self._moves:
            raise OwnerSeatError(f"point {point_name(point)} is already a move of the game")
        with _refused("own_press"):
            self.rule.pressed(self.owner_seat, at_ms, move=len(self._moves) + 1)
        self._moves.append(point)
        return OwnerOutcome()

    def shown_here(self, move: int, at_ms: int) -> OwnerOutcome:
        """The away seat's move ``move`` was shown at the owner's table at ``at_ms`` (its
        clock unit's faces, the point LED): ``rule.shown`` for the owner player."""
        _check_ms("at_ms", at_ms)
        self._check_away_move(move)
        with _refused("shown_here"):
            self.rule.shown(self.owner_seat, at_ms, move=move)
        return OwnerOutcome()

    def _check_away_move(self, move: int) -> None:
        if isinstance(move, bool) or not isinstance(move, int) or not 1 <= move <= len(self._moves):
            raise OwnerSeatError(
                f"move must be one of the game's 1..{len(self._moves)}, not {move!r}"
            )
        if COLOURS[(move - 1) % 2] != self.away_colour:
            raise OwnerSeatError(f"move {move} is the owner player's own")

    def board_stone(self, point: int, colour: str, at_ms: int) -> OwnerOutcome:
        """A stone settled on the owner's board at ``at_ms``. The owner player's colour:
        ``OwnStone`` for the table (with an alert if the away move is not mirrored yet).
        The away player's colour: on the point to mirror it is the mirroring
        (``rule.mirrored``); where it stands in the game, nothing; elsewhere an alert."""
        _check_point(point)
        _check_ms("at_ms", at_ms)
        if colour not in COLOURS:
            raise OwnerSeatError(f"colour must be one of {COLOURS}, not {colour!r}")
        self._board[point] = colour
        out = OwnerOutcome()
        pending = self.to_mirror_here()
        if colour == self.owner_colour:
            if pending is not None:
                move, at = pending
                out.decisions.append(
                    self._alert(
                        at_ms,
                        f"{colour} stone on {point_name(point)} (the player's own) placed "
                        f"before the opponent's stone of move {move} was mirrored on "
                        f"{point_name(at)}",
                    )
                )
            out.decisions.append(OwnStone(point, colour, at_ms))
            return out
        if pending is not None and point == pending[1]:
            return self.mirrored_here(pending[0], point, at_ms)
        index = self._moves.index(point) if point in self._moves else None
        if index is not None and COLOURS[index % 2] == colour:
            return out  # a stone of the game put back where it stands
        what = (
            f"the stone to mirror is move {pending[0]} on {point_name(pending[1])}"
            if pending is not None
            else "no opponent's move to mirror there"
        )
        out.decisions.append(
            self._alert(at_ms, f"{colour} stone on the wrong point {point_name(point)}: {what}")
        )
        return out

    def mirrored_here(self, move: int, point: int, at_ms: int) -> OwnerOutcome:
        """The owner player placed the away seat's stone of ``move`` on ``point`` at
        ``at_ms``: on its point, ``rule.mirrored``; elsewhere an alert, nothing timed."""
        _check_point(point)
        _check_ms("at_ms", at_ms)
        self._check_away_move(move)
        out = OwnerOutcome()
        if self._moves[move - 1] != point:
            out.decisions.append(
                self._alert(
                    at_ms,
                    f"{self.away_colour} stone on the wrong point {point_name(point)}: the "
                    f"stone to mirror is move {move} on {point_name(self._moves[move - 1])}",
                )
            )
            return out
        if move not in self._here_mirrored:
            with _refused("mirrored_here"):
                self.rule.mirrored(self.owner_seat, at_ms, move=move)
            self._here_mirrored.add(move)
        return out

    # -- the line ---------------------------------------------------------------------

    def line_cut(self, at_ms: int) -> None:
        """The hall line's ``LineCut``: both clocks held from ``at_ms``."""
        with _refused("line_cut"):
            self.rule.line_cut(_check_ms("at_ms", at_ms))

    def line_back(self, at_ms: int) -> None:
        """The referees' ``Resume`` (not the line's ``LineBack``: the game stays held
        until the referees resume together): the clocks run again from ``at_ms``."""
        with _refused("line_back"):
            self.rule.line_back(_check_ms("at_ms", at_ms))

    # -- the truth --------------------------------------------------------------------

    def current_truth(self, now_ms: int) -> OwnerTruth:
        """The owner's truth at ``now_ms``: the moves, both clocks, whose runs, held or
        not (the line cut), the stone the away player must mirror."""
        state = self.time(now_ms)
        black, white = state.remaining_ms
        running = (
            None if state.running is None else COLOURS[0 if state.running is Seat.FIRST else 1]
        )
        held = any(reason in _HELD for reason in state.hold_reasons)
        return OwnerTruth(self.moves, black, white, running, held, self.to_mirror_away(), now_ms)

    def truth(self, now_ms: int) -> OwnerTruth | None:
        """The truth to send at ``now_ms`` if it changed since the last one returned (the
        moves, whose clock runs, the hold, the stone to mirror, a stopped clock's time),
        else None. Call it after every fact and on the host's tick (a grace ends)."""
        t = self.current_truth(now_ms)
        key = (
            t.moves,
            t.running,
            t.held,
            t.mirror,
            None if t.running == "black" else t.black_ms,
            None if t.running == "white" else t.white_ms,
        )
        if key == self._sent:
            return None
        self._sent = key
        return t

    def _alert(self, at_ms: int, what: str) -> OwnerAlert:
        text = f"table {self.table} (linked {self.link}, owner): {what}"
        return OwnerAlert(self.table, self.link, AlertReason.MIRRORING, text, at_ms)
