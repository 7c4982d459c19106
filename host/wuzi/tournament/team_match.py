"""The 3-board team match: who has Black on which board, board points, the winner.

Same boards meet (board 1 v board 1, …). The first-mover (first-named) team has Black on
boards 1 and 3, the other team on board 2. Each game scores game points — 2/1/0 or 1/½/0,
configurable — and the team with more game points wins. When a winner is needed (a
knockout) and the board points are level, the captains' playoff (``playoff``) decides;
its games never change the board points.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from wuzi.rules.board import Colour
from wuzi.tournament.entrants import TEAM_SIZE, Player, Team
from wuzi.tournament.errors import ResultError
from wuzi.tournament.playoff import PlayoffKind, playoff_winner
from wuzi.tournament.results import GameResult, MatchKind, RoundResult, Scoring, Side, score_round

BOARDS = TEAM_SIZE


def black_side(board: int) -> Side:
    """Which team has Black on ``board`` (1–3)."""
    if not 1 <= board <= BOARDS:
        raise ResultError(f"a team match has boards 1–{BOARDS}, not {board}")
    return Side.FIRST if MatchKind.TEAM.first_colour(board - 1) is Colour.BLACK else Side.SECOND


@dataclass(frozen=True)
class BoardGame:
    board: int
    black: Player
    white: Player


def board_games(first: Team, second: Team) -> list[BoardGame]:
    """The three games of ``first`` (the first mover) v ``second``."""
    games = []
    for board in range(1, BOARDS + 1):
        a, b = first.board(board), second.board(board)
        black, white = (a, b) if black_side(board) is Side.FIRST else (b, a)
        games.append(BoardGame(board, black, white))
    return games


def board_points(boards: Sequence[GameResult], game_scoring: Scoring) -> tuple[float, float]:
    """Game points of the first and the second team (no playoff in them, ever)."""
    first, second = score_round(RoundResult(tuple(boards)), MatchKind.TEAM, game_scoring)
    return first.game_points, second.game_points


def match_winner(
    kind: MatchKind,
    result: RoundResult,
    playoff: Sequence[GameResult],
    game_scoring: Scoring,
) -> Side | None:
    """The winner of a match that must have one (a knockout match), or None while the
    playoff still needs games. A team match goes to the captains' playoff; a single or
    two-game match to the place playoff (two games, then single games)."""
    first, second = score_round(result, kind, game_scoring)
    if first.fraction != second.fraction:
        if playoff:
            raise ResultError(
                f"the match is decided ({result}), so it has no playoff; "
                f"{len(playoff)} playoff games were entered"
            )
        return Side.FIRST if first.fraction > second.fraction else Side.SECOND
    if first.fraction == 0.0:
        raise ResultError(
            f"both sides forfeited ({result}); a knockout match needs a winner: "
            "enter the forfeit win of the side that was present"
        )
    playoff_kind = PlayoffKind.CAPTAINS if kind is MatchKind.TEAM else PlayoffKind.PLACE
    return playoff_winner(playoff_kind, playoff)
