"""Game and round results, scoring, and what a round result is worth to each side.

A *pairing* puts two entrants (players or teams) against each other for one round, or gives
one of them a bye. The first-named entrant has Black in game 1 — Black is the first mover in
Gomoku. The *match kind* says how many games a pairing is and who has Black in each:

* ``single`` — one game, the first-named Black;
* ``two-game`` — the open group's two-game round: colours swapped in game 2, one combined
  round result, and a flag while game 1 is still running loses the whole round;
* ``team`` — a 3-board team match: the first-named (first-mover) team has Black on boards
  1 and 3, the other team on board 2.

A game result is stated in the colours of that game (``black``, ``white``, ``draw``, or a
forfeit), exactly as the referee sees it at the table. ``score_round`` turns a round result
into each side's round *fraction* (1 win, ½ draw, 0 loss — what the standings' points are
made of), its *game points* (小分) and its games won over the board.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

from wuzi.rules.board import Colour
from wuzi.tournament.errors import ResultError, SettingsError


class Side(enum.IntEnum):
    """One of the two entrants of a pairing: the first-named or the second-named."""

    FIRST = 0
    SECOND = 1

    @property
    def other(self) -> Side:
        return Side.SECOND if self is Side.FIRST else Side.FIRST


class GameResult(enum.Enum):
    """The result of one game, in that game's colours."""

    BLACK = "black"
    WHITE = "white"
    DRAW = "draw"
    BLACK_BY_FORFEIT = "black-by-forfeit"  # White did not play: Black wins, no game
    WHITE_BY_FORFEIT = "white-by-forfeit"
    DOUBLE_FORFEIT = "double-forfeit"  # neither played: both lose, no game

    @property
    def played(self) -> bool:
        """Whether a game was played over the board."""
        return self.value in _PLAYED

    @property
    def is_forfeit(self) -> bool:
        return not self.played

    @property
    def decisive(self) -> bool:
        return self is not GameResult.DRAW and self is not GameResult.DOUBLE_FORFEIT

    def fraction(self, colour: Colour) -> float:
        """What the game is worth to ``colour``: 1, ½ or 0."""
        if self is GameResult.DRAW:
            return 0.5
        if self is GameResult.DOUBLE_FORFEIT:
            return 0.0
        black_won = self in (GameResult.BLACK, GameResult.BLACK_BY_FORFEIT)
        return 1.0 if black_won == (colour is Colour.BLACK) else 0.0

    @classmethod
    def parse(cls, text: str) -> GameResult:
        """``black``/``1-0``, ``white``/``0-1``, ``draw``/``½-½``/``=``, and the forfeits
        ``black-by-forfeit``/``+-``, ``white-by-forfeit``/``-+``, ``double-forfeit``/``--``."""
        key = text.strip().lower().replace(" ", "")
        found = _GAME_ALIASES.get(key)
        if found is None:
            raise ResultError(
                f"{text!r} is not a game result: expected black, white, draw (or 1-0, 0-1, "
                "½-½), black-by-forfeit (+-), white-by-forfeit (-+) or double-forfeit (--)"
            )
        return found


_PLAYED = frozenset(("black", "white", "draw"))

_GAME_ALIASES: dict[str, GameResult] = {
    "black": GameResult.BLACK,
    "b": GameResult.BLACK,
    "1-0": GameResult.BLACK,
    "1:0": GameResult.BLACK,
    "white": GameResult.WHITE,
    "w": GameResult.WHITE,
    "0-1": GameResult.WHITE,
    "0:1": GameResult.WHITE,
    "draw": GameResult.DRAW,
    "d": GameResult.DRAW,
    "=": GameResult.DRAW,
    "½-½": GameResult.DRAW,
    "1/2-1/2": GameResult.DRAW,
    "0.5-0.5": GameResult.DRAW,
    "black-by-forfeit": GameResult.BLACK_BY_FORFEIT,
    "+-": GameResult.BLACK_BY_FORFEIT,
    "white-by-forfeit": GameResult.WHITE_BY_FORFEIT,
    "-+": GameResult.WHITE_BY_FORFEIT,
    "double-forfeit": GameResult.DOUBLE_FORFEIT,
    "--": GameResult.DOUBLE_FORFEIT,
}


MAX_POINTS = 100
"""Points for one result: far above any scale in use (1/½/0, 2/1/0, 3/1/0); a bound keeps
NaN, infinities and absurd sums out of standings and fixed-column exports."""


@dataclass(frozen=True)
class Scoring:
    """Points for a win, a draw and a loss: ``1/0.5/0`` or ``2/1/0`` (both used in China)."""

    win: float = 1.0
    draw: float = 0.5
    loss: float = 0.0

    def __post_init__(self) -> None:
        values = (self.win, self.draw, self.loss)
        if not all(math.isfinite(v) and -MAX_POINTS <= v <= MAX_POINTS for v in values):
            shown = "/".join(repr(v) for v in values)
            raise SettingsError(
                f"scoring {shown}: points are numbers from -{MAX_POINTS} to {MAX_POINTS}"
            )
        if not (self.win >= self.draw >= self.loss) or self.win <= self.loss:
            raise SettingsError(
                f"scoring {self} must give a win more than a loss and a draw in between"
            )

    def points(self, fraction: float) -> float:
        """Points for a result fraction (1 win, ½ draw, 0 loss)."""
        if fraction == 1.0:
            return self.win
        if fraction == 0.5:
            return self.draw
        return self.loss

    @classmethod
    def parse(cls, text: str) -> Scoring:
        """``WIN/DRAW/LOSS``, e.g. ``1/0.5/0``, ``1/½/0`` or ``2/1/0``."""
        parts = text.replace("½", "0.5").split("/")
        if len(parts) != 3:
            raise SettingsError(f"scoring {text!r} must be WIN/DRAW/LOSS, e.g. 1/0.5/0 or 2/1/0")
        try:
            win, draw, loss = (float(p) for p in parts)
        except ValueError:
            raise SettingsError(
                f"scoring {text!r} must be three numbers WIN/DRAW/LOSS, e.g. 2/1/0"
            ) from None
        return cls(win, draw, loss)

    def __str__(self) -> str:
        return "/".join(_number(v) for v in (self.win, self.draw, self.loss))


def _number(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"


class MatchKind(enum.Enum):
    """How many games a pairing is, and who has Black in each."""

    SINGLE = "single"
    TWO_GAME = "two-game"
    TEAM = "team"

    @property
    def games(self) -> int:
        return len(_PATTERNS[self.value])

    def first_colour(self, game: int) -> Colour:
        """The first-named entrant's colour in game ``game`` (0-based; a board for teams)."""
        return _PATTERNS[self.value][game]

    @classmethod
    def parse(cls, text: str) -> MatchKind:
        key = text.strip().lower()
        for kind in cls:
            if kind.value == key:
                return kind
        raise SettingsError(f"match kind must be single, two-game or team, not {text!r}")


_PATTERNS: dict[str, tuple[Colour, ...]] = {
    "single": (Colour.BLACK,),
    "two-game": (Colour.BLACK, Colour.WHITE),
    "team": (Colour.BLACK, Colour.WHITE, Colour.BLACK),
}


@dataclass(frozen=True)
class RoundResult:
    """The result of one pairing for one round.

    ``games`` holds one result per game (per board for teams), each in that game's
    colours. A whole round forfeited is one forfeit result for a multi-game pairing, read
    in game 1's colours (``black-by-forfeit``: the first-named wins without play). In a
    two-game round, ``flag_in_game1`` is the game-1 colour of a player whose flag fell while
    game 1 was still running: that player loses the round and game 2 is not played.
    """

    games: tuple[GameResult, ...]
    flag_in_game1: Colour | None = None

    def check(self, kind: MatchKind) -> None:
        """Raise ``ResultError`` unless this result fits a pairing of ``kind``."""
        if self.flag_in_game1 is not None:
            if kind is not MatchKind.TWO_GAME:
                raise ResultError("a flag in game 1 decides a round only in two-game rounds")
            if self.games:
                raise ResultError("a round lost on a flag in game 1 has no other game results")
            return
        if len(self.games) == 1 and kind.games > 1 and self.games[0].is_forfeit:
            return  # the whole round forfeited
        if len(self.games) != kind.games:
            raise ResultError(
                f"a {kind.value} pairing needs {kind.games} game result"
                f"{'s' if kind.games > 1 else ''}, not {len(self.games)} ({self})"
            )

    @property
    def whole_round_forfeit(self) -> bool:
        return len(self.games) == 1 and self.games[0].is_forfeit and self.flag_in_game1 is None

    @classmethod
    def parse(cls, text: str, kind: MatchKind) -> RoundResult:
        """Game results separated by commas (``black,white,draw`` for a team match; game 1
        then game 2 for a two-game round), or ``flag:black`` / ``flag:white`` for a flag in
        game 1 of a two-game round."""
        raw = text.strip()
        if raw.lower().startswith("flag:"):
            try:
                colour = Colour.parse(raw[5:])
            except ValueError:
                raise ResultError(
                    f"{text!r}: after 'flag:' give the game-1 colour of the player who "
                    "flagged, black or white"
                ) from None
            result = cls((), colour)
        else:
            parts = [p for p in raw.split(",")]
            if not raw or any(not p.strip() for p in parts):
                raise ResultError(f"result {text!r} has an empty game result")
            result = cls(tuple(GameResult.parse(p) for p in parts))
        result.check(kind)
        return result

    def __str__(self) -> str:
        if self.flag_in_game1 is not None:
            return f"flag:{self.flag_in_game1.label}"
        return ",".join(g.value for g in self.games)


@dataclass(frozen=True)
class SideScore:
    """What one round result is worth to one side."""

    fraction: float  # the round result: 1 win, ½ draw, 0 loss
    game_points: float  # 小分: the sum of the game points of its games
    wins: int  # games won over the board (forfeits and byes are not games)
    played: bool  # at least one game was played over the board


def score_round(
    result: RoundResult, kind: MatchKind, game_scoring: Scoring
) -> tuple[SideScore, SideScore]:
    """The first-named and the second-named side's score for one round."""
    result.check(kind)
    full = kind.games
    if result.flag_in_game1 is not None:
        loser = Side.FIRST if result.flag_in_game1 is Colour.BLACK else Side.SECOND
        winner_score = SideScore(1.0, full * game_scoring.win, 1, True)
        loser_score = SideScore(0.0, full * game_scoring.loss, 0, True)
        return (loser_score, winner_score) if loser is Side.FIRST else (winner_score, loser_score)
    if result.whole_round_forfeit and full > 1:
        game = result.games[0]
        first_f = game.fraction(Colour.BLACK)
        second_f = game.fraction(Colour.WHITE)
        return (
            SideScore(first_f, full * game_scoring.points(first_f), 0, False),
            SideScore(second_f, full * game_scoring.points(second_f), 0, False),
        )
    first_points = second_points = 0.0
    first_wins = second_wins = 0
    for index, game in enumerate(result.games):
        colour = kind.first_colour(index)
        f1, f2 = game.fraction(colour), game.fraction(colour.other)
        first_points += game_scoring.points(f1)
        second_points += game_scoring.points(f2)
        if game.played:
            first_wins += f1 == 1.0
            second_wins += f2 == 1.0
    played = any(g.played for g in result.games)
    if all(g is GameResult.DOUBLE_FORFEIT for g in result.games):
        first_f = second_f = 0.0
    elif first_points > second_points:
        first_f, second_f = 1.0, 0.0
    elif first_points < second_points:
        first_f, second_f = 0.0, 1.0
    else:
        first_f = second_f = 0.5
    return (
        SideScore(first_f, first_points, first_wins, played),
        SideScore(second_f, second_points, second_wins, played),
    )


def bye_score(kind: MatchKind, game_scoring: Scoring) -> SideScore:
    """A bye scores as a win: the round, and every game of it, without play."""
    return SideScore(1.0, kind.games * game_scoring.win, 0, False)
