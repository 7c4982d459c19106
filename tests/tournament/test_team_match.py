"""The 3-board team match: colours by board, board points, the captains' playoff."""

from __future__ import annotations

import pytest

from wuzi.tournament.entrants import Player, Sex, Team
from wuzi.tournament.errors import ResultError
from wuzi.tournament.playoff import PlayoffKind, games_needed, playoff_black, playoff_winner
from wuzi.tournament.results import GameResult, MatchKind, RoundResult, Scoring, Side
from wuzi.tournament.team_match import black_side, board_games, board_points, match_winner

BLACK, WHITE, DRAW = GameResult.BLACK, GameResult.WHITE, GameResult.DRAW
TWO = Scoring(2, 1, 0)
ONE = Scoring(1, 0.5, 0)


def team(name: str) -> Team:
    return Team(
        name,
        name,
        (
            Player(f"{name}1", f"{name} captain", Sex.MALE, 2000),
            Player(f"{name}2", f"{name} two", Sex.MALE, 1900),
            Player(f"{name}3", f"{name} three", Sex.FEMALE, 1800),
        ),
    )


def test_first_mover_has_black_on_boards_one_and_three() -> None:
    assert [black_side(b) for b in (1, 2, 3)] == [Side.FIRST, Side.SECOND, Side.FIRST]
    games = board_games(team("A"), team("B"))
    assert [(g.board, g.black.id, g.white.id) for g in games] == [
        (1, "A1", "B1"),
        (2, "B2", "A2"),
        (3, "A3", "B3"),
    ]
    with pytest.raises(ResultError, match="boards 1–3"):
        black_side(4)


@pytest.mark.parametrize(
    ("boards", "two", "one"),
    [
        ((BLACK, WHITE, BLACK), (6, 0), (3, 0)),  # the first team wins all three
        ((BLACK, BLACK, DRAW), (3, 3), (1.5, 1.5)),  # 2 + 0 + 1 each: a tie
        ((WHITE, DRAW, WHITE), (1, 5), (0.5, 2.5)),
        ((DRAW, DRAW, DRAW), (3, 3), (1.5, 1.5)),
        ((BLACK, GameResult.BLACK_BY_FORFEIT, DRAW), (3, 3), (1.5, 1.5)),
    ],
)
def test_board_points(
    boards: tuple[GameResult, ...], two: tuple[float, float], one: tuple[float, float]
) -> None:
    assert board_points(boards, TWO) == two
    assert board_points(boards, ONE) == one


def test_captains_playoff_repeats_until_decisive_and_never_adds_board_points() -> None:
    tied = RoundResult((BLACK, BLACK, DRAW))
    assert match_winner(MatchKind.TEAM, tied, (), TWO) is None
    # playoff game 1: the second team's captain has Black; then the colours alternate
    assert [playoff_black(PlayoffKind.CAPTAINS, i) for i in range(3)] == [
        Side.SECOND,
        Side.FIRST,
        Side.SECOND,
    ]
    assert match_winner(MatchKind.TEAM, tied, (DRAW,), TWO) is None
    assert match_winner(MatchKind.TEAM, tied, (DRAW, DRAW), TWO) is None
    assert match_winner(MatchKind.TEAM, tied, (DRAW, DRAW, WHITE), TWO) is Side.FIRST
    assert match_winner(MatchKind.TEAM, tied, (BLACK,), TWO) is Side.SECOND
    assert board_points(tied.games, TWO) == (3, 3)  # the playoff is not in them
    with pytest.raises(ResultError, match="decided by game 1"):
        match_winner(MatchKind.TEAM, tied, (BLACK, DRAW), TWO)
    with pytest.raises(ResultError, match="no playoff"):
        match_winner(MatchKind.TEAM, RoundResult((BLACK, WHITE, DRAW)), (BLACK,), TWO)


def test_place_playoff_two_games_then_single_games() -> None:
    kind = PlayoffKind.PLACE
    assert [playoff_black(kind, i) for i in range(4)] == [
        Side.FIRST,
        Side.SECOND,
        Side.FIRST,
        Side.SECOND,
    ]
    assert games_needed(kind, ()) == 2
    assert playoff_winner(kind, (BLACK,)) is None  # one game never decides
    assert playoff_winner(kind, (BLACK, WHITE)) is Side.FIRST  # 2 - 0
    assert playoff_winner(kind, (BLACK, DRAW)) is Side.FIRST  # 1.5 - 0.5
    assert playoff_winner(kind, (BLACK, BLACK)) is None  # 1 - 1: single games follow
    assert games_needed(kind, (BLACK, BLACK)) == 1
    assert playoff_winner(kind, (BLACK, BLACK, DRAW, BLACK)) is Side.SECOND
    with pytest.raises(ResultError, match="decided by game 2"):
        playoff_winner(kind, (BLACK, WHITE, DRAW))
