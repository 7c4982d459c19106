"""Planning games from pairings: ids, colours, tables, time controls, playoffs."""

from __future__ import annotations

import re

import pytest

from support.director import final
from wuzi.clock.control import parse_control
from wuzi.director.schedule import (
    DirectorError,
    FinalGame,
    playoff_game,
    playoff_sequence,
    regular_game,
    regular_plan,
    round_layout,
    scale_control,
)
from wuzi.rules.board import Colour
from wuzi.tournament.entrants import Player, Sex
from wuzi.tournament.event import Competition, EventSettings, Format
from wuzi.tournament.results import GameResult, MatchKind, RoundResult

TOPIC_SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:/-]{0,127}")


def test_a_team_match_has_three_boards_with_the_first_mover_black_on_1_and_3() -> None:
    comp = final().pair()
    rnd = comp.rounds[0]
    p = rnd.board(1)  # seed 1 v seed 16
    assert (p.first, p.second) == ("T1", "T16")
    games = [regular_game(comp, 1, p, f"b{b}") for b in (1, 2, 3)]
    assert [g.game_id for g in games] == ["r1-m1-b1", "r1-m1-b2", "r1-m1-b3"]
    assert [(g.black, g.white) for g in games] == [
        ("T1 captain", "T16 captain"),
        ("T16 second", "T1 second"),
        ("T1 third", "T16 third"),
    ]
    assert [g.black_entrant for g in games] == ["T1", "T16", "T1"]
    assert [g.board for g in games] == [1, 2, 3]
    assert {g.time_control for g in games} == {"2700+30"}
    assert {g.rule_set for g in games} == {"renju"}
    assert {g.opening for g in games} == {"chinese-2013"}
    assert all(TOPIC_SAFE_ID.fullmatch(g.game_id) for g in games)
    assert not any(g.playoff for g in games)


def test_the_captains_playoff_starts_with_the_second_teams_captain_and_alternates() -> None:
    comp = final().pair()
    p = comp.rounds[0].board(3)
    games = [playoff_game(comp, 1, p, n) for n in (1, 2, 3)]
    assert [g.game_id for g in games] == ["r1-m3-p1", "r1-m3-p2", "r1-m3-p3"]
    second_captain = comp.entrant(p.second).team.board(1).name  # type: ignore[union-attr]
    first_captain = comp.entrant(p.first).team.board(1).name  # type: ignore[union-attr]
    assert [g.black for g in games] == [second_captain, first_captain, second_captain]
    assert all(g.playoff and g.board == 1 for g in games)
    assert {g.time_control for g in games} == {comp.settings.playoff_time_control}
    # even: the players changed colours in their chairs (the captain of the first team
    # had Black on board 1)
    assert [g.game_in_match % 2 for g in games] == [0, 1, 0]
    assert all(g.game_in_match >= 3 for g in games)


def _two_game_swiss() -> Competition:
    comp = Competition(
        EventSettings.create(
            Format.SWISS, rounds=3, match=MatchKind.TWO_GAME, rules="no-forbidden", name="open"
        )
    )
    for i in range(1, 5):
        comp = comp.add_player(Player(f"P{i}", f"Player {i}", Sex.MALE, 2000 - i))
    return comp.pair()


def test_game_2_of_a_two_game_round_swaps_colours() -> None:
    comp = _two_game_swiss()
    p = comp.rounds[0].pairings[0]
    g1, g2 = (regular_game(comp, 1, p, s) for s in ("g1", "g2"))
    assert (g1.black_entrant, g1.white_entrant) == (p.first, p.second)
    assert (g2.black_entrant, g2.white_entrant) == (p.second, p.first)
    assert (g1.game_in_match, g2.game_in_match) == (1, 2)
    assert g1.opening == "free" and g1.rule_set == "no-forbidden"
    assert g1.time_control == "3600"
    with pytest.raises(DirectorError, match="no game 'g3'"):
        regular_game(comp, 1, p, "g3")


def test_the_place_playoff_of_an_individual_knockout_uses_its_time_controls() -> None:
    comp = Competition(EventSettings.create(Format.KNOCKOUT_PLACEMENT, name="ko"))
    for i in range(1, 5):
        comp = comp.add_player(Player(f"P{i}", f"Player {i}", Sex.MALE, 2000 - i), seed=i)
    comp = comp.pair()
    p = comp.rounds[0].board(1)
    games = [playoff_game(comp, 1, p, n) for n in (1, 2, 3, 4)]
    assert [g.time_control for g in games] == ["300+3", "300+3", "180+2", "180+2"]
    assert [g.black_entrant for g in games] == [p.first, p.second, p.first, p.second]
    assert [g.game_in_match for g in games] == [3, 4, 5, 6]
    assert all(g.board is None for g in games)


def test_a_round_is_laid_out_on_consecutive_tables_in_venue_order() -> None:
    comp = final().pair()
    venue_order = [7, 8, 9, *range(10, 31)]  # 24 tables, not starting at 1
    layout = round_layout(MatchKind.TEAM, comp.rounds[0].pairings, venue_order)
    assert list(layout) == list(range(1, 9))
    assert layout[1] == (7, 8, 9)
    assert layout[8] == (28, 29, 30)
    short = round_layout(MatchKind.TEAM, comp.rounds[0].pairings, venue_order[:20])
    assert short[7] == (25, 26) and short[8] == ()


@pytest.mark.parametrize(
    ("text", "factor", "expected"),
    [
        ("2700+30", 1, "2700+30"),
        ("2700+30", 60, "45+0.5"),
        ("300+3", 1000, "0.3+0.003"),
        ("3600", 7, "514.286"),
        ("40/5400:1800+30", 60, "40/90:30+0.5"),
        ("600:5x30", 10, "60:5x3"),
        ("1", 10**6, "0.001"),
    ],
)
def test_a_time_scale_divides_every_time(text: str, factor: float, expected: str) -> None:
    scaled = scale_control(text, factor)
    assert scaled == expected
    parse_control(scaled)


@pytest.mark.parametrize("factor", [0, -1, float("nan"), float("inf")])
def test_a_bad_time_scale_is_refused(factor: float) -> None:
    with pytest.raises(DirectorError, match="positive"):
        scale_control("300", factor)


def test_regular_plan_of_a_two_game_round() -> None:
    kind = MatchKind.TWO_GAME
    assert regular_plan(kind, {}).slots == ("g1",)
    g1 = FinalGame(GameResult.BLACK, "five")
    assert regular_plan(kind, {"g1": g1}).slots == ("g1", "g2")
    assert regular_plan(kind, {"g1": g1}).result is None
    done = regular_plan(kind, {"g1": g1, "g2": FinalGame(GameResult.DRAW)})
    assert done.result == RoundResult((GameResult.BLACK, GameResult.DRAW))
    # a flag in game 1: that player loses the round, no game 2
    flagged = regular_plan(kind, {"g1": FinalGame(GameResult.WHITE, "flag")})
    assert flagged.slots == ("g1",)
    assert flagged.result == RoundResult((), Colour.BLACK)


def test_playoff_sequence_takes_the_directors_games_over_the_stored_ones() -> None:
    kind = MatchKind.TEAM
    d, b, w = GameResult.DRAW, GameResult.BLACK, GameResult.WHITE
    assert playoff_sequence(kind, {}, ()) == ()
    assert playoff_sequence(kind, {1: d, 2: d}, ()) == (d, d)
    assert playoff_sequence(kind, {2: b}, (d,)) == (d, b)
    assert playoff_sequence(kind, {1: w, 2: d}, ()) == (w,)  # decided by game 1
    assert playoff_sequence(kind, {1: d, 3: b}, ()) == (d,)  # stops at the gap
