"""Playoffs: the captains' playoff of a tied team match, and the playoff for a tied place.

* **Captains' playoff** (team matches that must have a winner): the two captains play a
  separate game at the playoff time control, repeated until one is decisive. It decides
  the match and is never added to the board points. The second-named team's captain has
  Black in the first playoff game (the first-named team's captain had Black on board 1),
  then the colours alternate.
* **Place playoff** (a tie on a prize place, and a drawn individual knockout match): two
  games at 5 minutes + 3 seconds a move, one with each colour (the first-named Black in
  the first); if still level, single games at 3 minutes + 2 seconds a move, colours
  alternating, until one is decisive.

A forfeited playoff game is decisive. ``playoff_winner`` says who won, or None while more
games are needed, and refuses games entered after the playoff was already decided.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from wuzi.rules.board import Colour
from wuzi.tournament.errors import ResultError
from wuzi.tournament.results import GameResult, Side

PLACE_PAIR_TIME_CONTROL = "300+3"  # 5 min + 3 s a move (two games, colours swapped)
PLACE_SUDDEN_TIME_CONTROL = "180+2"  # 3 min + 2 s a move (single games until decisive)
CAPTAINS_TIME_CONTROL = "300+3"  # default; the event setting playoff_time_control


class PlayoffKind(enum.Enum):
    CAPTAINS = "captains"
    PLACE = "place"


def playoff_black(kind: PlayoffKind, index: int) -> Side:
    """Who has Black in playoff game ``index`` (0-based)."""
    starts = Side.SECOND if kind is PlayoffKind.CAPTAINS else Side.FIRST
    return starts if index % 2 == 0 else starts.other


def playoff_time_control(
    kind: PlayoffKind, index: int, captains: str = CAPTAINS_TIME_CONTROL
) -> str:
    """The time control of playoff game ``index`` (PGN TimeControl syntax)."""
    if kind is PlayoffKind.CAPTAINS:
        return captains
    return PLACE_PAIR_TIME_CONTROL if index < 2 else PLACE_SUDDEN_TIME_CONTROL


def place_playoff_time_control(
    index: int,
    pair: str = PLACE_PAIR_TIME_CONTROL,
    sudden: str = PLACE_SUDDEN_TIME_CONTROL,
) -> str:
    """Place playoff game ``index`` (0-based): the two games at ``pair`` (002 六(四)3:
    5 min + 3 s a move; an event's own playoff time control), then single games at
    ``sudden`` (3 min + 2 s a move) until one is decisive."""
    return pair if index < 2 else sudden


def _fraction(kind: PlayoffKind, index: int, game: GameResult, side: Side) -> float:
    black = playoff_black(kind, index)
    return game.fraction(Colour.BLACK if side is black else Colour.WHITE)


def playoff_winner(kind: PlayoffKind, games: Sequence[GameResult]) -> Side | None:
    """The playoff's winner, or None when it needs another game."""
    first = second = 0.0
    for index, game in enumerate(games):
        f1 = _fraction(kind, index, game, Side.FIRST)
        f2 = _fraction(kind, index, game, Side.SECOND)
        first += f1
        second += f2
        decided: Side | None = None
        if kind is PlayoffKind.CAPTAINS or index >= 2:
            if f1 != f2:
                decided = Side.FIRST if f1 > f2 else Side.SECOND
        elif index == 1 and first != second:
            decided = Side.FIRST if first > second else Side.SECOND
        if decided is not None:
            if index != len(games) - 1:
                raise ResultError(
                    f"the playoff was decided by game {index + 1}, but "
                    f"{len(games)} games are entered"
                )
            return decided
    return None


def games_needed(kind: PlayoffKind, games: Sequence[GameResult]) -> int:
    """How many more games the playoff needs at least (0 when decided)."""
    if playoff_winner(kind, games) is not None:
        return 0
    if kind is PlayoffKind.PLACE and len(games) < 2:
        return 2 - len(games)
    return 1
