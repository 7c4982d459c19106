"""The away host's table of a linked game: what it sends, shows, lights and tells: pure.

In a linked game (docs/linked.md) the owner host runs the game; the away host has no game
of its own. Its table has a sensor board and a clock unit for one player, the **away
player**, and it must (1) send that player's inputs to the owner, stamped with its own
instants; (2) show the owner's truth: both clocks, whose runs, the hold, and the
opponent's move for the player to place on their own board (**mirroring**); (3) report
when the move was shown and when the stone was mirrored (the time rule's facts,
``wuzi.clock.linked``); and (4) tell its hall's referee, privately, when the board
disagrees with the game. ``AwayTable`` decides all of it, as values (``AwayOutcome``,
``AwayFaces``): the host feeds it the truth taken from the hall line, its board's
settled reports and its clock unit's presses, and carries the answers out (the line's
``send_input``, the unit's displays, ``BoardSession.light_point``/``dark_point``, the
referee's alert topic). No I/O, no clock read: every instant is an argument, in the away
host's monotonic milliseconds.

**Which stones are moves.** Stones alternate in colour from the first (black), so the
colour of each of the truth's moves is known from its place. A stone of the away
player's colour is the away player's move and is sent (``AwayStone``) whatever else is
wrong: the owner judges it as a local table would. A stone of the opponent's colour is
never sent as a move: on the point to mirror it is the mirroring (``AwayMirrored``),
anywhere else an alert. An alert never stops an input and never judges one.

**The faces** (4-digit seven-segment displays, one per button): the away player's clock
on their button's display, the opponent's on the other, extrapolated from the truth's
clocks for the side whose clock runs (``MM:SS``, tenths under 10 s, ``1h03`` over an
hour, as ``wuzi.host.displays.clock_face``); the opponent's move to mirror, as its point
(``h 8 ``, ``o 15``, the way the displays already name an offer's point), on the
opponent's display until the stone is placed; ``HOLd`` while the game is held (the line
cut until the referees resume, or the owner's hold); ``----`` before the first truth.
Every character is one ``wuzi.link.segments.text`` draws as itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from wuzi.clock.face import HOUR_MS, TENTHS_FROM_MS, counter_text
from wuzi.clock.face import point_text as digits_point_text
from wuzi.rules.board import point_name
from wuzi.table.alerts import AlertReason
from wuzi.table.checks import check_ms, check_point
from wuzi.table.line_messages import (
    COLOURS,
    AwayButton,
    AwayClaim,
    AwayInput,
    AwayMirrored,
    AwayPress,
    AwayShown,
    AwayStone,
    OwnerTruth,
)

__all__ = [
    "HELD_TEXT",
    "IDLE_TEXT",
    "AwayAlert",
    "AwayFaces",
    "AwayOutcome",
    "AwayTable",
    "AwayTableError",
    "Dark",
    "Light",
    "colour_of_move",
    "point_text",
]

HELD_TEXT = "HOLd"  # as wuzi.host.displays: the game is held, no time runs
IDLE_TEXT = "----"  # no truth from the owner yet
_MAX_BUTTON = 255


class AwayTableError(ValueError):
    """An argument the away table cannot take (named in the message); nothing changed."""


@dataclass(frozen=True)
class Light:
    """Light ``point`` in ``colour`` (blinking) on a board that can (``can_light``)."""

    point: int
    colour: str
    blink: bool = True


@dataclass(frozen=True)
class Dark:
    """Put the board's point light out."""


@dataclass(frozen=True)
class AwayAlert:
    """A private alert for the away hall's referee: never a verdict. ``text`` names the
    table, the link and what is wrong; ``at_ms`` is the instant of what caused it."""

    table: int
    link: str
    reason: AlertReason
    text: str
    at_ms: int


@dataclass
class AwayOutcome:
    """What one call decided: the inputs to send over the hall line (in order), the
    referee's alerts, the board light's wishes (none for a board that cannot light) and
    whether the faces may have changed (draw ``AwayTable.faces`` again)."""

    send: list[AwayInput] = field(default_factory=list)
    alerts: list[AwayAlert] = field(default_factory=list)
    lamp: list[Light | Dark] = field(default_factory=list)
    show: bool = False


@dataclass(frozen=True)
class AwayFaces:
    """Display 0 and display 1: 4 characters each, the colon, and the next instant
    (away ms) either changes on its own (None: not before the next input)."""

    text: tuple[str, str]
    colon: tuple[bool, bool]
    next_change_ms: int | None = None


def colour_of_move(index: int) -> str:
    """The colour of the stone at ``index`` (0-based) of the moves: black first."""
    return COLOURS[index % 2]


def point_text(point: int) -> str:
    """A point on 4 digits: column, blank, row: ``h 8 ``, ``o 15``."""
    return digits_point_text(point_name(point))


def _change_after_ms(remaining_ms: int) -> int | None:
    """How long until a running counter at ``remaining_ms`` shows something else."""
    if remaining_ms <= 0:
        return None
    if remaining_ms <= TENTHS_FROM_MS:
        unit = 100
    elif remaining_ms <= HOUR_MS:
        unit = 1000
    else:
        unit = 60_000
    return remaining_ms - (-(-remaining_ms // unit) - 1) * unit


@dataclass
class _Mirror:
    """The opponent's move to mirror: its number (1-based), point and colour."""

    move: int
    point: int
    colour: str
    mirrored: bool = False
    relit: bool = False  # the mirrored stone was taken off and the light lit again


def _check_ms(name: str, value: object) -> int:
    return check_ms(value, name, AwayTableError)


def _check_point(value: object) -> int:
    return check_point(value, error=AwayTableError)


def _check_button(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= _MAX_BUTTON:
        raise AwayTableError(f"button must be 0..{_MAX_BUTTON}, not {value!r}")
    return value


class AwayTable:
    """One linked table at the away hall; see the module docstring.

    ``table``: this hall's table number; ``link``: the ``[[links]]`` id (both named in
    alerts); ``colour``: the away player's stones; ``own_button``: the clock unit's button
    (0 or 1) of the away player, whose display shows their clock (the other display the
    opponent's); ``can_light``: the board has point LEDs (``BoardSession.can_light``;
    ``board_can_light`` when that changes)."""

    def __init__(
        self,
        table: int,
        link: str,
        colour: str,
        *,
        own_button: int = 0,
        can_light: bool = False,
    ) -> None:
        if isinstance(table, bool) or not isinstance(table, int) or table < 1:
            raise AwayTableError(f"table must be a table number (1 or more), not {table!r}")
        if not isinstance(link, str) or not link:
            raise AwayTableError(f"link must be the link's id, not {link!r}")
        if colour not in COLOURS:
            raise AwayTableError(f"colour must be one of {COLOURS}, not {colour!r}")
        if own_button not in (0, 1) or isinstance(own_button, bool):
            raise AwayTableError(f"own_button must be 0 or 1, not {own_button!r}")
        self.table = table
        self.link = link
        self.colour = colour
        self.opponent = COLOURS[1 - COLOURS.index(colour)]
        self.own_button = own_button
        self.can_light = bool(can_light)
        self._truth: OwnerTruth | None = None
        self._truth_away_ms = 0  # the truth's instant in this host's time
        self._line = "up"  # "up" | "cut" | "waiting" (back, the referees not resumed yet)
        self._board: dict[int, str] = {}  # what the board reported standing
        self._mirror: _Mirror | None = None
        self._lit = False
        self._ticked: tuple[tuple[str, str], tuple[bool, bool]] | None = None

    # -- what the host reads ----------------------------------------------------------

    @property
    def truth_moves(self) -> tuple[int, ...]:
        return () if self._truth is None else self._truth.moves

    @property
    def to_mirror(self) -> int | None:
        """The point the away player must still place the opponent's stone on."""
        m = self._mirror
        return m.point if m is not None and not m.mirrored else None

    @property
    def held(self) -> bool:
        """The game is held here: the line cut (until the referees resume) or the owner's."""
        return self._line != "up" or (self._truth is not None and self._truth.held)

    # -- the owner's truth ------------------------------------------------------------

    def truth(
        self, owner_truth: OwnerTruth, now_ms: int, *, truth_away_ms: int | None = None
    ) -> AwayOutcome:
        """The owner's truth, taken from the hall line at ``now_ms``. ``truth_away_ms``:
        the truth's own instant (``owner_truth.at_ms``) in this host's time through the
        line's offset, so running clocks count from it (default ``now_ms``: from the
        receipt). A new move to mirror is shown now: ``AwayShown``, and its light."""
        if not isinstance(owner_truth, OwnerTruth):
            raise AwayTableError(f"owner_truth must be an OwnerTruth, not {owner_truth!r}")
        _check_ms("now_ms", now_ms)
        at = now_ms if truth_away_ms is None else _check_ms("truth_away_ms", truth_away_ms)
        mirror = owner_truth.mirror
        if mirror is not None and mirror not in owner_truth.moves:
            raise AwayTableError(f"the truth's mirror {mirror} is not one of its moves")
        self._truth, self._truth_away_ms = owner_truth, min(at, now_ms)
        out = AwayOutcome(show=True)
        if mirror is None:
            if self._mirror is not None and not self._mirror.mirrored:
                self._dark(out)  # taken back, the game over: nothing to place
            self._mirror = None
            return out
        index = len(owner_truth.moves) - 1 - owner_truth.moves[::-1].index(mirror)
        move = index + 1
        if self._mirror is not None and (self._mirror.move, self._mirror.point) == (move, mirror):
            return out  # the same move again (a repeated truth)
        self._mirror = _Mirror(move, mirror, colour_of_move(index))
        out.send.append(AwayShown(move, now_ms))
        if self._board.get(mirror) == self._mirror.colour:  # already there (a rebuilt host)
            self._mirror.mirrored = True
            out.send.append(AwayMirrored(move, mirror, now_ms))
            self._dark(out)
        else:
            self._light(out, mirror, self._mirror.colour)
        return out

    # -- the board --------------------------------------------------------------------

    def stone(self, point: int, colour: str, at_ms: int, now_ms: int) -> AwayOutcome:
        """A stone settled on this table's board at ``at_ms`` (the board's instant)."""
        _check_point(point)
        if colour not in COLOURS:
            raise AwayTableError(f"colour must be one of {COLOURS}, not {colour!r}")
        _check_ms("at_ms", at_ms)
        _check_ms("now_ms", now_ms)
        self._board[point] = colour
        out = AwayOutcome()
        m = self._mirror
        if m is not None and point == m.point and colour == m.colour:
            if not m.mirrored:
                m.mirrored = True
                out.send.append(AwayMirrored(m.move, point, at_ms))
                out.show = True
            if m.relit:
                m.relit = False
            self._dark(out)
            return out
        if colour == self.colour:
            out.send.append(AwayStone(point, colour, at_ms))
            if m is not None and not m.mirrored:
                self._alert(
                    out,
                    at_ms,
                    f"{self.colour} stone on {point_name(point)} (the player's own) placed "
                    f"before the opponent's stone of move {m.move} was mirrored on "
                    f"{point_name(m.point)}",
                )
            return out
        if self._stands_as(point, colour):
            return out  # an opponent's stone put back where it stands in the game
        if m is not None and not m.mirrored:
            what = f"the stone to mirror is move {m.move} on {point_name(m.point)}"
        else:
            what = "no opponent's move to mirror there"
        self._alert(out, at_ms, f"{colour} stone on the wrong point {point_name(point)}: {what}")
        return out

    def removed(self, point: int, at_ms: int, now_ms: int) -> AwayOutcome:
        """A stone taken off this table's board at ``at_ms`` (the board's instant)."""
        _check_point(point)
        _check_ms("at_ms", at_ms)
        _check_ms("now_ms", now_ms)
        colour = self._board.pop(point, None)
        out = AwayOutcome()
        if colour is None or not self._stands_as(point, colour):
            return out  # a stone the game does not have (a wrong one taken back, a fresh own)
        m = self._mirror
        if colour == self.opponent:
            self._alert(out, at_ms, f"the mirrored {colour} stone on {point_name(point)} taken off")
            if m is not None and m.point == point and m.mirrored:
                m.relit = True
                self._light(out, point, colour)
        else:
            self._alert(
                out, at_ms, f"the player's own {colour} stone on {point_name(point)} taken off"
            )
        return out

    def board_can_light(self, can_light: bool, now_ms: int) -> AwayOutcome:
        """The board's point LEDs are known now (its INFO, a board swapped): a board that
        can light is asked for the point still to mirror."""
        _check_ms("now_ms", now_ms)
        self.can_light = bool(can_light)
        self._lit = False
        out = AwayOutcome()
        m = self._mirror
        if m is not None and (not m.mirrored or m.relit):
            self._light(out, m.point, m.colour)
        return out

    # -- the clock unit ---------------------------------------------------------------

    def press(self, button: int, at_ms: int, now_ms: int) -> AwayOutcome:
        """A press of the clock unit's ``button`` at the unit's instant ``at_ms``: sent.
        The away player's press with no stone of theirs new on the board (none standing
        that the truth's moves lack) is an alert too."""
        _check_button(button)
        _check_ms("at_ms", at_ms)
        _check_ms("now_ms", now_ms)
        out = AwayOutcome(send=[AwayPress(button, at_ms)])
        if button == self.own_button and self._truth is not None:
            moves = set(self._truth.moves)
            fresh = [p for p, c in self._board.items() if c == self.colour and p not in moves]
            if not fresh:
                self._alert(out, at_ms, f"press of button {button} with no new {self.colour} stone")
        return out

    def claim(self, button: int, at_ms: int, now_ms: int) -> AwayOutcome:
        """A claim at this table (its claim button): sent."""
        _check_button(button)
        _check_ms("at_ms", at_ms)
        _check_ms("now_ms", now_ms)
        return AwayOutcome(send=[AwayClaim(button, at_ms)])

    def button(self, button: int, at_ms: int, now_ms: int) -> AwayOutcome:
        """Another button of the clock unit: sent."""
        _check_button(button)
        _check_ms("at_ms", at_ms)
        _check_ms("now_ms", now_ms)
        return AwayOutcome(send=[AwayButton(button, at_ms)])

    # -- the line ---------------------------------------------------------------------

    def line_cut(self, at_ms: int) -> AwayOutcome:
        """The hall line is cut (``LineCut``): the faces show the hold. Inputs are still
        decided and sent (the line queues them)."""
        _check_ms("at_ms", at_ms)
        self._line = "cut"
        return AwayOutcome(show=True)

    def line_back(self, at_ms: int) -> AwayOutcome:
        """The line is back (``LineBack``): still held until the referees resume."""
        _check_ms("at_ms", at_ms)
        if self._line == "cut":
            self._line = "waiting"
        return AwayOutcome(show=True)

    def resumed(self, at_ms: int) -> AwayOutcome:
        """The referees resumed the game (``Resume``): the clocks show again."""
        _check_ms("at_ms", at_ms)
        self._line = "up"
        return AwayOutcome(show=True)

    def tick(self, now_ms: int) -> AwayOutcome:
        """Time passed: ``show`` when the faces at ``now_ms`` differ from those of the
        previous tick (a running clock's next second or tenth)."""
        _check_ms("now_ms", now_ms)
        now = self.faces(now_ms)
        changed = (now.text, now.colon) != self._ticked
        self._ticked = (now.text, now.colon)
        return AwayOutcome(show=changed)

    # -- the faces --------------------------------------------------------------------

    def faces(self, now_ms: int) -> AwayFaces:
        """What displays 0 and 1 show at ``now_ms`` (see the module docstring)."""
        _check_ms("now_ms", now_ms)
        truth = self._truth
        if truth is None:
            return AwayFaces((IDLE_TEXT, IDLE_TEXT), (False, False))
        own, other = self.own_button, 1 - self.own_button
        text = ["", ""]
        colon = [False, False]
        point = self.to_mirror
        change: int | None = None
        if self.held:
            text[own] = HELD_TEXT
            text[other] = HELD_TEXT if point is None else point_text(point)
            return AwayFaces((text[0], text[1]), (False, False))
        elapsed = max(0, now_ms - self._truth_away_ms)
        for display, colour in ((own, self.colour), (other, self.opponent)):
            remaining = truth.black_ms if colour == "black" else truth.white_ms
            if truth.running == colour:
                remaining -= elapsed
                after = _change_after_ms(remaining)
                if after is not None and not (display == other and point is not None):
                    change = now_ms + after
            text[display], colon[display] = counter_text(remaining)
        if point is not None:
            text[other], colon[other] = point_text(point), False
        return AwayFaces((text[0], text[1]), (colon[0], colon[1]), change)

    # -- helpers ----------------------------------------------------------------------

    def _stands_as(self, point: int, colour: str) -> bool:
        """``point`` holds a stone of ``colour`` among the truth's moves."""
        moves = self.truth_moves
        return any(p == point and colour_of_move(i) == colour for i, p in enumerate(moves))

    def _light(self, out: AwayOutcome, point: int, colour: str) -> None:
        if self.can_light:
            out.lamp.append(Light(point, colour))
            self._lit = True

    def _dark(self, out: AwayOutcome) -> None:
        if self.can_light and self._lit:
            out.lamp.append(Dark())
        self._lit = False

    def _alert(self, out: AwayOutcome, at_ms: int, what: str) -> None:
        text = f"table {self.table} (linked {self.link}, away): {what}"
        out.alerts.append(AwayAlert(self.table, self.link, AlertReason.MIRRORING, text, at_ms))
