"""Prize-place playoffs for any number level (002 六(四)1-3): two level play one playoff
match; three or more a playoff round robin, placed by it only once all of it is in, the
rule applied again to those still level; a playoff entered is changed only with
``correct``."""

from __future__ import annotations

import pytest

from wuzi.tournament.entrants import Player, Sex
from wuzi.tournament.errors import ResultError
from wuzi.tournament.event import Competition, EventSettings, Format
from wuzi.tournament.results import GameResult, RoundResult

B, W = GameResult.BLACK, GameResult.WHITE
A_WINS = (B, W)  # two-game playoff, colours swapped: the first-named wins both
SECOND_WINS = (W, B)


def round_robin(names: str, beats: dict[str, str]) -> Competition:
    """A finished single round robin; ``beats`` maps "XY" (an unordered pair) to its
    winner, and every pair not listed is a draw."""
    comp = Competition(EventSettings.create(Format.ROUND_ROBIN))
    for name in names:
        comp = comp.add_player(Player(name, name, Sex.MALE))
    while len(comp.rounds) < comp.round_count():
        comp = comp.pair()
        rnd = comp.rounds[-1]
        for p in rnd.pairings:
            if p.second is None:
                continue
            winner = beats.get(p.first + p.second) or beats.get(p.second + p.first)
            game = GameResult.DRAW if winner is None else (B if winner == p.first else W)
            comp = comp.set_result(rnd.number, p.board, RoundResult((game,)))
    assert comp.finished
    return comp


# A beats B, B beats C, C beats A, and all three beat D: level on place 1 after every
# tie-break (points, Sonneborn-Berger, wins, direct encounter)
CYCLE = {"AB": "A", "BC": "B", "CA": "C", "AD": "A", "BD": "B", "CD": "C"}


def places(comp: Competition) -> list[tuple[int, str, bool]]:
    return [(r.place, r.entrant, r.shared) for r in comp.standings().rows]


def test_three_level_stay_level_until_their_whole_playoff_round_robin_is_in() -> None:
    comp = round_robin("ABCD", CYCLE)
    assert places(comp)[:3] == [(1, "A", True), (1, "B", True), (1, "C", True)]
    owed = comp.standings().playoffs_owed
    assert owed == ((1, "A", "B"), (1, "A", "C"), (1, "B", "C"))
    comp = comp.add_tie_playoff("A", "B", A_WINS)
    # A never met C in the playoff: nobody holds place 1 alone yet
    assert places(comp)[:3] == [(1, "A", True), (1, "B", True), (1, "C", True)]
    assert comp.standings().playoffs_owed == ((1, "A", "C"), (1, "B", "C"))
    assert all(r.playoff_needed for r in comp.standings().rows[:3])
    comp = comp.add_tie_playoff("A", "C", A_WINS)
    assert places(comp)[:3] == [(1, "A", True), (1, "B", True), (1, "C", True)]
    comp = comp.add_tie_playoff("C", "B", SECOND_WINS)  # B wins both
    assert places(comp) == [(1, "A", False), (2, "B", False), (3, "C", False), (4, "D", False)]
    assert comp.standings().playoffs_owed == ()


def test_those_still_level_are_placed_by_the_matches_among_themselves() -> None:
    """Four level (every game drawn): A wins 2 playoff matches, B 2, C 1, D 1: A and B
    are placed by their own match (B beat A), C and D by theirs (D beat C)."""
    comp = round_robin("ABCD", {})
    assert len(comp.standings().playoffs_owed) == 6
    for first, second, winner in (
        ("A", "B", "B"),
        ("A", "C", "A"),
        ("A", "D", "A"),
        ("B", "C", "C"),
        ("B", "D", "B"),
        ("C", "D", "D"),
    ):
        comp = comp.add_tie_playoff(first, second, A_WINS if winner == first else SECOND_WINS)
    assert places(comp) == [(1, "B", False), (2, "A", False), (3, "D", False), (4, "C", False)]


def test_a_playoff_cycle_leaves_the_three_sharing_the_place() -> None:
    comp = round_robin("ABCD", CYCLE)
    for first, second in (("A", "B"), ("B", "C"), ("C", "A")):
        comp = comp.add_tie_playoff(first, second, A_WINS)
    assert places(comp)[:3] == [(1, "A", True), (1, "B", True), (1, "C", True)]
    assert comp.standings().playoffs_owed == ()


def test_two_level_are_placed_by_their_one_match() -> None:
    comp = round_robin("ABC", {"AC": "A", "BC": "B"})  # A and B drew: level on place 1
    assert comp.standings().playoffs_owed == ((1, "A", "B"),)
    comp = comp.add_tie_playoff("A", "B", (B, B, W))  # 1-1, then B wins game 3 as White
    assert places(comp) == [(1, "B", False), (2, "A", False), (3, "C", False)]


def test_a_playoff_entered_is_changed_only_with_correct() -> None:
    comp = round_robin("ABC", {"AC": "A", "BC": "B"})
    comp = comp.add_tie_playoff("A", "B", A_WINS)
    with pytest.raises(ResultError, match=r"already entered \(black,white\); use --correct"):
        comp.add_tie_playoff("B", "A", A_WINS)
    with pytest.raises(ResultError, match="nothing to correct"):
        round_robin("ABC", {"AC": "A", "BC": "B"}).add_tie_playoff("A", "B", A_WINS, True)
    comp = comp.add_tie_playoff("B", "A", A_WINS, correct=True)
    assert places(comp)[0] == (1, "B", False)
    assert len(comp.tie_playoffs) == 1
