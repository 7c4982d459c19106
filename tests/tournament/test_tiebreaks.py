"""Every tie-break on hand-computed examples, and the standings built from them.

Example 1 (five players, three rounds, 1/½/0; the first-named has Black):

    R1  A–B 1-0    C–D ½-½    E bye
    R2  E–A ½-½    B–C 1-0    D bye
    R3  A–D +- (D did not come)    C–E 1-0    B bye

Points: A 2.5, B 2, C 1.5, D 1.5, E 1.5. An unplayed round (bye, forfeit) counts the
player's own points as the opponent contribution c_r:

    A: c = 2 (B), 1.5 (E), 2.5 (own, forfeit)  BH 6    MBH 6-2.5-1.5 = 2    SB 2+0.75+2.5 = 5.25
    B: c = 2.5 (A), 1.5 (C), 2 (own, bye)      BH 6    MBH 2                SB 0+1.5+2 = 3.5
    C: c = 1.5 (D), 2 (B), 1.5 (E)             BH 5    MBH 1.5              SB 0.75+0+1.5 = 2.25
    D: c = 1.5 (C), 1.5 (own), 1.5 (own)       BH 4.5  MBH 1.5              SB 0.75+1.5+0 = 2.25
    E: c = 1.5 (own, bye), 2.5 (A), 1.5 (C)    BH 5.5  MBH 1.5              SB 1.5+1.25+0 = 2.75

Wins over the board: A 1 (the forfeit is not a game), B 1, C 1, D 0, E 0. Progressive
(running points after each round, summed): A 1+1.5+2.5 = 5, B 0+1+2 = 3, C 0.5+0.5+1.5 =
2.5, D 0.5+1.5+1.5 = 3.5, E 1+1.5+1.5 = 4. Direct encounter among C, D, E: D and E never
met, so it is 0 for all three.
"""

from __future__ import annotations

import pytest

from wuzi.rules.board import Colour
from wuzi.tournament.entrants import Player, Sex
from wuzi.tournament.errors import ResultError, SettingsError
from wuzi.tournament.event import Competition, EventSettings, Format
from wuzi.tournament.history import Pairing, Round, RoundEntry, build_histories
from wuzi.tournament.results import GameResult, MatchKind, RoundResult, Scoring
from wuzi.tournament.standings import TiePlayoff, compute_standings
from wuzi.tournament.tiebreaks import Tiebreak, compute_all, direct_encounter, parse_order

BLACK = RoundResult((GameResult.BLACK,))
WHITE = RoundResult((GameResult.WHITE,))
DRAW = RoundResult((GameResult.DRAW,))
FORFEIT = RoundResult((GameResult.BLACK_BY_FORFEIT,))

EXAMPLE = [
    Round(1, (Pairing(1, "A", "B", BLACK), Pairing(2, "C", "D", DRAW), Pairing(3, "E", None))),
    Round(2, (Pairing(1, "E", "A", DRAW), Pairing(2, "B", "C", BLACK), Pairing(3, "D", None))),
    Round(3, (Pairing(1, "A", "D", FORFEIT), Pairing(2, "C", "E", BLACK), Pairing(3, "B", None))),
]


def example_histories() -> dict[str, list[RoundEntry]]:
    return build_histories("ABCDE", EXAMPLE, MatchKind.SINGLE, Scoring(), Scoring())


@pytest.mark.parametrize(
    ("tiebreak", "expected"),
    [
        (Tiebreak.BUCHHOLZ, {"A": 6, "B": 6, "C": 5, "D": 4.5, "E": 5.5}),
        (Tiebreak.MEDIAN_BUCHHOLZ, {"A": 2, "B": 2, "C": 1.5, "D": 1.5, "E": 1.5}),
        (Tiebreak.SONNEBORN_BERGER, {"A": 5.25, "B": 3.5, "C": 2.25, "D": 2.25, "E": 2.75}),
        (Tiebreak.GAME_POINTS, {"A": 2.5, "B": 2, "C": 1.5, "D": 1.5, "E": 1.5}),
        (Tiebreak.WINS, {"A": 1, "B": 1, "C": 1, "D": 0, "E": 0}),
        (Tiebreak.PROGRESSIVE, {"A": 5, "B": 3, "C": 2.5, "D": 3.5, "E": 4}),
    ],
)
def test_hand_computed_values(tiebreak: Tiebreak, expected: dict[str, float]) -> None:
    histories = example_histories()
    points = {e: sum(r.points for r in h) for e, h in histories.items()}
    assert points == {"A": 2.5, "B": 2, "C": 1.5, "D": 1.5, "E": 1.5}
    values = compute_all(histories, points)
    assert {e: values[e][tiebreak] for e in "ABCDE"} == expected


def test_direct_encounter_needs_everyone_to_have_met() -> None:
    histories = example_histories()
    assert direct_encounter(["C", "D", "E"], histories) == {"C": 0, "D": 0, "E": 0}
    assert direct_encounter(["C", "E"], histories) == {"C": 1, "E": 0}
    assert direct_encounter(["C", "D"], histories) == {"C": 0.5, "D": 0.5}


@pytest.mark.parametrize(
    ("order", "ranking", "shared"),
    [
        ("buchholz,median_buchholz,wins", "ABECD", set()),
        ("sonneborn_berger", "ABECD", {"C", "D"}),  # C and D level: 2.25 each
        ("progressive", "ABEDC", set()),
        ("wins,buchholz", "ABCED", set()),
        ("none", "AB", {"C", "D", "E"}),
    ],
)
def test_standings_follow_the_order(order: str, ranking: str, shared: set[str]) -> None:
    standings = compute_standings(example_histories(), parse_order(order), prize_places=8)
    rows = standings.rows
    assert "".join(r.entrant for r in rows).startswith(ranking)
    assert {r.entrant for r in rows if r.shared} == shared
    # a leftover tie on a prize place needs a playoff; the shared ones get one place number
    assert all(r.playoff_needed == r.shared for r in rows)
    for r in rows:
        if r.shared:
            assert r.place == min(x.place for x in rows if x.shared and x.points == r.points)


def test_a_playoff_breaks_a_tie_left_over() -> None:
    histories = example_histories()
    order = parse_order("sonneborn_berger")
    standings = compute_standings(histories, order, 8, [TiePlayoff("C", "D", winner="D")])
    assert [(r.place, r.entrant, r.shared) for r in standings.rows][3:] == [
        (4, "D", False),
        (5, "C", False),
    ]
    outside = compute_standings(histories, order, prize_places=3)
    assert [r.playoff_needed for r in outside.rows] == [False] * 5  # place 4 wins no prize


def test_direct_encounter_and_sonneborn_berger_on_a_round_robin() -> None:
    """Q, R, S, T (pairing numbers 1-4), Berger rounds:
    R1 Q–T 1-0, R–S 0-1; R2 T–S 1-0, Q–R 0-1; R3 R–T 1-0, S–Q 1-0.
    Points: S 2, R 2, Q 1, T 1. S beat R, Q beat T: direct encounter puts S and Q first;
    Sonneborn-Berger S 2+0+1 = 3, R 0+1+1 = 2, Q 1+0+0 = 1, T 0+2+0 = 2 puts T over Q."""
    comp = Competition(
        EventSettings.create(Format.ROUND_ROBIN, tiebreaks=parse_order("direct_encounter"))
    )
    for name in "QRST":
        comp = comp.add_player(Player(name, name, Sex.MALE))
    plan = {1: [BLACK, WHITE], 2: [BLACK, WHITE], 3: [BLACK, BLACK]}
    for number, results in plan.items():
        comp = comp.pair()
        pairs = [(p.first, p.second) for p in comp.rounds[-1].pairings]
        assert (
            pairs
            == {
                1: [("Q", "T"), ("R", "S")],
                2: [("T", "S"), ("Q", "R")],
                3: [("R", "T"), ("S", "Q")],
            }[number]
        )
        for board, result in enumerate(results, start=1):
            comp = comp.set_result(number, board, result)
    rows = comp.standings().rows
    assert [r.entrant for r in rows] == ["S", "R", "Q", "T"]
    assert [r.tiebreaks[Tiebreak.DIRECT_ENCOUNTER] for r in rows] == [1, 0, 1, 0]
    sb = compute_standings(comp.histories(), parse_order("sonneborn_berger"))
    assert [(r.entrant, r.tiebreaks[Tiebreak.SONNEBORN_BERGER]) for r in sb.rows] == [
        ("S", 3),
        ("R", 2),
        ("T", 2),
        ("Q", 1),
    ]


def test_game_points_separate_two_game_rounds() -> None:
    """Open group, two-game rounds: X beats Y 2-0, Z beats W 1.5-0.5; X and Z both have
    one round point, but 2 game points against 1.5."""
    two = RoundResult((GameResult.BLACK, GameResult.WHITE))  # first wins both games
    one_and_half = RoundResult((GameResult.BLACK, GameResult.DRAW))
    rounds = [Round(1, (Pairing(1, "X", "Y", two), Pairing(2, "Z", "W", one_and_half)))]
    histories = build_histories("XYZW", rounds, MatchKind.TWO_GAME, Scoring(), Scoring())
    rows = compute_standings(histories, parse_order("game_points")).rows
    assert [(r.entrant, r.points, r.tiebreaks[Tiebreak.GAME_POINTS]) for r in rows] == [
        ("X", 1, 2),
        ("Z", 1, 1.5),
        ("W", 0, 0.5),
        ("Y", 0, 0),
    ]
    assert [r.tiebreaks[Tiebreak.WINS] for r in rows] == [2, 1, 0, 0]


def test_flag_in_game_one_loses_the_round() -> None:
    flag = RoundResult.parse("flag:black", MatchKind.TWO_GAME)
    assert flag == RoundResult((), Colour.BLACK)
    rounds = [Round(1, (Pairing(1, "X", "Y", flag),))]
    h = build_histories("XY", rounds, MatchKind.TWO_GAME, Scoring(), Scoring())
    assert (h["X"][0].points, h["Y"][0].points) == (0, 1)
    assert (h["X"][0].game_points, h["Y"][0].game_points) == (0, 2)
    assert (h["X"][0].wins, h["Y"][0].wins) == (0, 1)  # only game 1 was played
    with pytest.raises(ResultError, match="only in two-game rounds"):
        RoundResult.parse("flag:white", MatchKind.SINGLE)


def test_tiebreak_names() -> None:
    assert parse_order("Buchholz, median-buchholz, 胜局") == (
        Tiebreak.BUCHHOLZ,
        Tiebreak.MEDIAN_BUCHHOLZ,
        Tiebreak.WINS,
    )
    assert Tiebreak.parse("对手分") is Tiebreak.BUCHHOLZ
    assert Tiebreak.parse("sb") is Tiebreak.SONNEBORN_BERGER
    with pytest.raises(SettingsError, match="unknown tie-break 'koya'"):
        parse_order("buchholz,koya")
    with pytest.raises(SettingsError, match="twice"):
        parse_order("wins,wins")
    for t in Tiebreak:
        assert t.formula and t.chinese and t.short
