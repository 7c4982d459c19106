"""The online preliminary: which games count, and the six ranking levels one by one."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from wuzi.cli import main
from wuzi.tournament.draw import Lots
from wuzi.tournament.errors import CsvError, ResultError
from wuzi.tournament.preliminary import (
    OnlineGame,
    PlayerScore,
    TeamScore,
    parse_games,
    parse_teams,
    rank_teams,
    score_teams,
)
from wuzi.tournament.results import GameResult


def game(
    black: str, white: str, result: str = "black", seconds: int = 300, moves: int = 30
) -> OnlineGame:
    return OnlineGame(0, black, white, GameResult.parse(result), seconds, moves)


def test_a_game_counts_from_two_minutes_and_ten_moves() -> None:
    assert game("a", "b", seconds=120, moves=10).counts
    assert not game("a", "b", seconds=119, moves=50).counts
    assert not game("a", "b", seconds=600, moves=9).counts


def test_scores_win_two_draw_one_and_only_counted_games() -> None:
    teams = {"T": ("a", "b", "c")}
    games = [
        game("a", "x"),  # a wins: 2 (x is not in any team)
        game("y", "b", "draw"),  # b draws: 1
        game("c", "z", "white"),  # c loses: 0
        game("a", "q", seconds=100),  # does not count
    ]
    (score,) = score_teams(teams, games)
    assert (score.points, score.games) == (3, 3)
    assert [(m.player, m.points, m.games) for m in score.members] == [
        ("a", 2, 1),
        ("b", 1, 1),
        ("c", 0, 1),
    ]


def team(name: str, members: Sequence[tuple[float, int]]) -> TeamScore:
    players = tuple(PlayerScore(f"{name}{i}", p, g) for i, (p, g) in enumerate(members))
    return TeamScore(name, sum(p for p, _ in members), sum(g for _, g in members), players)


def order(*teams: TeamScore, qualify: int = 8) -> list[str]:
    return [p.score.team for p in rank_teams(list(teams), qualify)]


def test_level_1_team_points() -> None:
    assert order(team("low", [(10, 5)] * 3), team("high", [(12, 9)] * 3)) == ["high", "low"]


def test_level_2_fewer_total_games() -> None:
    a = team("many", [(10, 6), (10, 6), (10, 6)])
    b = team("few", [(10, 5), (10, 5), (10, 5)])
    assert order(a, b) == ["few", "many"]


def test_level_3_higher_lowest_member_score() -> None:
    a = team("a", [(4, 5), (13, 5), (13, 5)])  # 30 points, 15 games, lowest 4
    b = team("b", [(6, 5), (12, 5), (12, 5)])  # 30 points, 15 games, lowest 6
    assert order(a, b) == ["b", "a"]


def test_level_4_fewer_games_of_the_member_with_fewest() -> None:
    a = team("a", [(6, 4), (12, 5), (12, 6)])  # fewest 4
    b = team("b", [(6, 3), (12, 6), (12, 6)])  # fewest 3
    assert order(a, b) == ["b", "a"]


def test_level_5_higher_second_lowest_member_score() -> None:
    a = team("a", [(6, 3), (10, 6), (14, 6)])  # second lowest 10
    b = team("b", [(6, 3), (11, 6), (13, 6)])  # second lowest 11
    assert order(a, b) == ["b", "a"]


def test_level_6_fewer_games_of_the_second_fewest() -> None:
    a = team("a", [(6, 3), (11, 6), (13, 6)])  # games 3, 6, 6
    b = team("b", [(6, 3), (11, 5), (13, 7)])  # games 3, 5, 7
    assert [t.levels() for t in (a, b)] == [(30, 15, 6, 3, 11, 6), (30, 15, 6, 3, 11, 5)]
    assert order(a, b) == ["b", "a"]


def test_lots_for_a_qualifying_place_and_shared_places_otherwise() -> None:
    same = [(10, 5)] * 3
    best = team("best", [(20, 5)] * 3)
    tied = [team(name, same) for name in ("p", "q", "r")]
    lots = rank_teams([best, *tied], qualify=2, seed=7)
    assert [p.place for p in lots] == [1, 2, 3, 4]
    assert [p.by_lot for p in lots] == [False, True, True, True]
    assert rank_teams([best, *tied], qualify=2, seed=7) == lots  # the same seed, the same draw
    draws = {tuple(p.score.team for p in rank_teams([best, *tied], 2, s)) for s in range(20)}
    assert len(draws) > 1  # another seed can draw another order
    shared = rank_teams([best, *tied], qualify=1)
    assert [(p.place, p.shared) for p in shared] == [(1, False), (2, True), (2, True), (2, True)]
    # Wuzi's lots, as `draw` draws them: anyone with the seed and SHA-256 draws them again
    expected = Lots(7, "preliminary p2").shuffle(["p", "q", "r"])
    assert tuple(p.score.team for p in lots[1:]) == expected
    with pytest.raises(ResultError, match=r"p, q, r are level .* at place 2: lots decide"):
        rank_teams([best, *tied], qualify=2)  # no seed: no fixed generator decides


def test_the_command_draws_a_fresh_seed_and_prints_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    teams = tmp_path / "teams.csv"
    teams.write_text("team,board1,board2,board3\n甲,a1,a2,a3\n乙,b1,b2,b3\n", encoding="utf-8")
    games = tmp_path / "games.csv"
    games.write_text("black,white,result,seconds,moves\na1,b1,draw,300,40\n", encoding="utf-8")
    argv = ["tournament", "preliminary", str(games), "--teams", str(teams)]
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    seed = data["seed"]
    assert 0 <= seed < 10**9 and [lot["place"] for lot in data["lots"]] == [1, 2]
    assert main([*argv, "--seed", str(seed)]) == 0
    out = capsys.readouterr().out
    order = ", ".join(f"{lot['place']} {lot['team']}" for lot in data["lots"])
    assert f"Lots drawn: seed {seed} (the same --seed draws them again): {order}" in out


def test_csv_parsing_and_errors_name_the_line_and_column() -> None:
    games = parse_games(
        ["id,black,white,result,duration,moves", "1,a,b,1-0,2:00,10", "2,b,c,½-½,1:05:00,80"]
    )
    assert [(g.black, g.result, g.seconds, g.counts) for g in games] == [
        ("a", GameResult.BLACK, 120, True),
        ("b", GameResult.DRAW, 3900, True),
    ]
    with pytest.raises(CsvError, match="line 3, column 'moves'"):
        parse_games(["black,white,result,seconds,moves", "a,b,black,300,20", "a,b,black,300,x"])
    with pytest.raises(CsvError, match="line 2, column 'result'"):
        parse_games(["black,white,result,seconds,moves", "a,b,win,300,20"])
    with pytest.raises(CsvError, match="no 'moves' column"):
        parse_games(["black,white,result,seconds", "a,b,black,300"])
    with pytest.raises(CsvError, match="line 2, column 'seconds'"):
        parse_games(["black,white,result,seconds,moves", "a,b,black,soon,20"])
    teams = parse_teams(["team,board1,board2,board3", "T,a,b,c"])
    assert teams == {"T": ("a", "b", "c")}
    with pytest.raises(CsvError, match="line 3: player 'a' is already in team 'T'"):
        parse_teams(["team,board1,board2,board3", "T,a,b,c", "U,a,d,e"])
