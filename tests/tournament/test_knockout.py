"""Placement knockout: seeding, pools that decide every place, byes, the cross pairing."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wuzi.tournament.entrants import Player, Sex
from wuzi.tournament.errors import PairingError, ResultError, SettingsError
from wuzi.tournament.event import Competition, EventSettings, Format
from wuzi.tournament.knockout import (
    bracket_order,
    cross_pairing,
    final_places,
    initial_pools,
    next_pools,
    round_matches,
)
from wuzi.tournament.results import GameResult, RoundResult


def test_seeding_is_the_usual_bracket() -> None:
    assert bracket_order(2) == [1, 2]
    assert bracket_order(4) == [1, 4, 2, 3]
    assert bracket_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
    with pytest.raises(SettingsError, match="power-of-two"):
        bracket_order(12)


def test_pools_of_sixteen_round_by_round() -> None:
    seeds = [f"S{i}" for i in range(1, 17)]
    pools = initial_pools(seeds)
    r1 = round_matches(pools, 1)
    assert [(m.first, m.second) for m in r1][:2] == [("S1", "S16"), ("S8", "S9")]
    assert {(m.first_place, m.last_place) for m in r1} == {(1, 16)}
    # the higher seed wins everything: then every place equals the seed
    for number in range(1, 5):
        matches = round_matches(pools, number)
        assert len(matches) == 8
        ranges = sorted({(m.first_place, m.last_place) for m in matches})
        size = 16 >> (number - 1)
        assert ranges == [(lo, lo + size - 1) for lo in range(1, 17, size)]
        winners = {
            m.number: min((m.first, m.second), key=lambda s: int(str(s)[1:])) for m in matches
        }
        pools = next_pools(pools, number, winners)
    assert final_places(pools) == {s: int(s[1:]) for s in seeds}


def test_semifinal_cross_pairing() -> None:
    a = [f"A{k}" for k in range(1, 9)]
    b = [f"B{k}" for k in range(1, 9)]
    pairs = cross_pairing(a, b)
    assert pairs == [(f"A{k}", f"B{9 - k}") for k in range(1, 9)]
    assert pairs[0] == ("A1", "B8") and pairs[-1] == ("A8", "B1")
    with pytest.raises(SettingsError, match="one size"):
        cross_pairing(a, b[:7])
    with pytest.raises(SettingsError, match="both groups"):
        cross_pairing(a, ["A1", *b[1:]])


def _individual_knockout(strengths: list[int]) -> Competition:
    comp = Competition(EventSettings.create(Format.KNOCKOUT_PLACEMENT))
    for seed in range(1, len(strengths) + 1):
        comp = comp.add_player(Player(f"E{seed}", f"E{seed}", Sex.MALE, 1500), seed=seed)
    return comp


def _play_by_strength(comp: Competition, strength: dict[str, int]) -> Competition:
    while not comp.finished:
        comp = comp.pair()
        rnd = comp.rounds[-1]
        for p in rnd.pairings:
            if p.second is None:
                continue
            first_wins = strength[p.first] > strength[p.second]
            game = GameResult.BLACK if first_wins else GameResult.WHITE
            comp = comp.set_result(rnd.number, p.board, RoundResult((game,)))
    return comp


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 20), st.integers(0, 10**6))
def test_any_field_size_decides_every_place_and_winners_rank_above_losers(
    size: int, seed: int
) -> None:
    rng = random.Random(seed)
    order = list(range(size))
    rng.shuffle(order)
    strength = {f"E{i + 1}": order[i] for i in range(size)}
    comp = _play_by_strength(_individual_knockout(order), strength)
    placements = comp.placements()
    assert all(low == high for (low, high), _ in placements)
    places = {e.id: low for (low, _), e in placements}
    assert sorted(places.values()) == list(range(1, size + 1))
    for rnd in comp.rounds:
        for p in rnd.pairings:
            if p.second is not None:
                winner = comp.match_winner(p)
                loser = p.second if winner == p.first else p.first
                assert winner is not None and loser is not None
                assert places[winner] < places[loser]


@pytest.mark.parametrize("size", range(2, 21))
def test_when_the_seeds_are_right_the_places_are_the_seeds(size: int) -> None:
    strength = {f"E{i + 1}": size - i for i in range(size)}
    comp = _play_by_strength(_individual_knockout(list(range(size))), strength)
    assert {e.id: low for (low, _), e in comp.placements()} == {
        f"E{i + 1}": i + 1 for i in range(size)
    }


def test_byes_go_to_the_top_seeds_and_are_walkovers() -> None:
    comp = _individual_knockout(list(range(6))).pair()
    r1 = comp.rounds[0]
    byes = [p.first for p in r1.pairings if p.second is None]
    assert byes == ["E1", "E2"]  # 8-bracket: seeds 7 and 8 are byes
    assert [(p.first, p.second) for p in r1.pairings if p.second] == [("E4", "E5"), ("E3", "E6")]
    assert comp.round_count() == 3


def test_a_drawn_individual_match_goes_to_the_place_playoff() -> None:
    comp = _individual_knockout([0, 1]).pair()
    draw = RoundResult((GameResult.DRAW,))
    comp = comp.set_result(1, 1, draw)
    assert not comp.finished
    with pytest.raises(PairingError, match="playoff"):
        comp.pair()
    # game 1 E1 black wins; game 2 E2 black wins: level; game 3 (E1 black) draw;
    # game 4 (E2 black): white wins, so E1 wins the playoff
    playoff = [GameResult.BLACK, GameResult.BLACK, GameResult.DRAW, GameResult.WHITE]
    comp = comp.set_result(1, 1, draw, playoff, correct=True)
    assert comp.finished
    assert [(r, e.id) for r, e in comp.placements()] == [((1, 1), "E1"), ((2, 2), "E2")]
    with pytest.raises(ResultError, match="decided by game 4"):
        comp.set_result(1, 1, draw, [*playoff, GameResult.DRAW], correct=True)
    with pytest.raises(ResultError, match="no playoff"):
        comp.set_result(1, 1, RoundResult((GameResult.BLACK,)), [GameResult.BLACK], correct=True)
