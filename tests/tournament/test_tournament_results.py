"""Results: parsing what referees type, and what a result is worth to each side."""

from __future__ import annotations

import pytest

from wuzi.rules.board import Colour
from wuzi.tournament.errors import ResultError, SettingsError
from wuzi.tournament.results import (
    GameResult,
    MatchKind,
    RoundResult,
    Scoring,
    bye_score,
    score_round,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("black", GameResult.BLACK),
        ("1-0", GameResult.BLACK),
        ("0-1", GameResult.WHITE),
        ("½-½", GameResult.DRAW),
        ("=", GameResult.DRAW),
        (" Draw ", GameResult.DRAW),
        ("+-", GameResult.BLACK_BY_FORFEIT),
        ("-+", GameResult.WHITE_BY_FORFEIT),
        ("--", GameResult.DOUBLE_FORFEIT),
    ],
)
def test_game_result_spellings(text: str, expected: GameResult) -> None:
    assert GameResult.parse(text) is expected


def test_bad_results_say_what_is_expected() -> None:
    with pytest.raises(ResultError, match="'blak' is not a game result"):
        GameResult.parse("blak")
    with pytest.raises(ResultError, match="needs 3 game results, not 2"):
        RoundResult.parse("black,white", MatchKind.TEAM)
    with pytest.raises(ResultError, match="empty game result"):
        RoundResult.parse("black,,white", MatchKind.TEAM)
    with pytest.raises(ResultError, match="after 'flag:'"):
        RoundResult.parse("flag:red", MatchKind.TWO_GAME)


def test_scoring() -> None:
    assert Scoring.parse("2/1/0") == Scoring(2, 1, 0)
    assert Scoring.parse("1/½/0") == Scoring(1, 0.5, 0)
    assert str(Scoring.parse("1/0.5/0")) == "1/0.5/0"
    with pytest.raises(SettingsError, match="WIN/DRAW/LOSS"):
        Scoring.parse("2-1-0")
    with pytest.raises(SettingsError, match="more than a loss"):
        Scoring.parse("0/1/2")


def test_single_game_scores() -> None:
    first, second = score_round(RoundResult((GameResult.WHITE,)), MatchKind.SINGLE, Scoring())
    assert (first.fraction, second.fraction, first.wins, second.wins) == (0, 1, 0, 1)
    first, second = score_round(
        RoundResult((GameResult.BLACK_BY_FORFEIT,)), MatchKind.SINGLE, Scoring()
    )
    assert (first.fraction, first.wins, first.played) == (1, 0, False)
    first, second = score_round(
        RoundResult((GameResult.DOUBLE_FORFEIT,)), MatchKind.SINGLE, Scoring()
    )
    assert (first.fraction, second.fraction) == (0, 0)


def test_two_game_round_combines_both_games() -> None:
    kind = MatchKind.TWO_GAME
    assert kind.first_colour(0) is Colour.BLACK and kind.first_colour(1) is Colour.WHITE
    # game 1 first (Black) wins, game 2 Black (the second) wins: level, a drawn round
    first, second = score_round(RoundResult.parse("black,black", kind), kind, Scoring())
    assert (first.fraction, first.game_points, second.game_points) == (0.5, 1, 1)
    first, second = score_round(RoundResult.parse("draw,white", kind), kind, Scoring())
    assert (first.fraction, first.game_points, first.wins) == (1, 1.5, 1)
    first, second = score_round(RoundResult.parse("white-by-forfeit", kind), kind, Scoring())
    assert (second.fraction, second.game_points, second.played) == (1, 2, False)
    assert bye_score(kind, Scoring()).game_points == 2


def test_team_match_round_points_follow_game_points() -> None:
    kind = MatchKind.TEAM
    first, second = score_round(RoundResult.parse("black,black,draw", kind), kind, Scoring(2, 1, 0))
    assert (first.game_points, second.game_points, first.fraction) == (3, 3, 0.5)
    first, second = score_round(RoundResult.parse("1-0,0-1,0-1", kind), kind, Scoring(2, 1, 0))
    assert (first.game_points, second.game_points, first.fraction) == (4, 2, 1)
    assert str(RoundResult.parse("1-0,0-1,=", kind)) == "black,white,draw"
