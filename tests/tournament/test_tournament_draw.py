"""Lots (``wuzi.tournament.draw``): the same seed gives the same draw, derivable by hand
from SHA-256 as the module documents; what a draw changes in the competition."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from wuzi.tournament.draw import (
    SEED_MAX,
    DrawError,
    DrawKind,
    DrawRecord,
    Lots,
    apply_bracket,
    apply_first_movers,
    check_seed,
    draw_bracket,
    draw_first_movers,
    draw_opening,
    first_mover_matches,
    opening_pool,
    opening_settings,
    round_opening,
)
from wuzi.tournament.entrants import Player, Sex
from wuzi.tournament.event import Competition, EventSettings, Format
from wuzi.tournament.results import RoundResult

IDS = ["a", "b", "c", "d", "e", "f"]


def _players(fmt: Format, n: int = 4) -> Competition:
    comp = Competition(
        EventSettings.create(fmt, name="lots", rounds=3 if fmt is Format.SWISS else None)
    )
    for i in range(n):
        comp = comp.add_player(Player(f"p{i + 1}", f"P{i + 1}", Sex.MALE, 2000 - i))
    return comp


def test_the_stream_is_sha256_of_the_label_the_seed_and_a_counter() -> None:
    digest = hashlib.sha256(b"wuzi-lots-1|bracket|42|0").digest()
    value = int.from_bytes(digest[:8], "big")
    assert value < (2**64 // 1000) * 1000  # not rejected
    assert Lots(42, "bracket").below(1000) == value % 1000 == 109


def test_the_same_seed_gives_the_same_draw_and_another_seed_another() -> None:
    assert draw_bracket(IDS, 42) == draw_bracket(IDS, 42) == ("a", "c", "e", "d", "b", "f")
    assert draw_opening(1, 7) == "1D"
    assert draw_opening(2, 7) == "5D"  # each round has its own label
    movers = draw_first_movers(1, [(1, "a", "b"), (2, "c", "d"), (3, "e", "f")], 5)
    assert [(m.match, m.first) for m in movers] == [(1, "a"), (2, "d"), (3, "e")]
    assert len({draw_bracket(IDS, s) for s in range(40)}) > 30


def test_a_shuffle_is_a_permutation_and_every_position_is_reached() -> None:
    seen: Counter[tuple[str, int]] = Counter()
    for seed in range(600):
        order = Lots(seed, "t").shuffle(IDS)
        assert sorted(order) == IDS
        seen.update((who, i) for i, who in enumerate(order))
    assert len(seen) == 36 and min(seen.values()) > 60  # ~100 each


def test_kept_seeds_stay_and_the_rest_are_drawn_into_the_free_ones() -> None:
    order = draw_bracket(IDS, 3, keep={"f": 1, "e": 2})
    assert order[:2] == ("f", "e") and sorted(order[2:]) == ["a", "b", "c", "d"]
    with pytest.raises(DrawError, match="not an entrant"):
        draw_bracket(IDS, 3, keep={"x": 1})
    with pytest.raises(DrawError, match="seeds 1–6"):
        draw_bracket(IDS, 3, keep={"a": 7})
    with pytest.raises(DrawError, match="same seed"):
        draw_bracket(IDS, 3, keep={"a": 1, "b": 1})


def test_seeds_are_checked() -> None:
    assert check_seed(0) == 0 and check_seed(SEED_MAX) == SEED_MAX
    for bad in (-1, SEED_MAX + 1, True):
        with pytest.raises(DrawError, match="whole number"):
            check_seed(bad)


def test_the_opening_pool_names_openings_any_way_and_never_empties_quietly() -> None:
    assert len(opening_pool()) == 26
    assert opening_pool(["花月", "kansei", "13i"]) == ("1D", "4D", "13I")
    assert opening_pool(None, ["1D"])[0] == "2D"
    assert draw_opening(3, 11, ["4D"]) == "4D"
    with pytest.raises(DrawError, match="not one of the 26"):
        opening_pool(["14D"])
    with pytest.raises(DrawError, match="no designated opening is left"):
        opening_pool(["4D"], ["4D"])


def test_a_bracket_draw_sets_the_seeds_before_round_1_only() -> None:
    comp = _players(Format.KNOCKOUT_PLACEMENT)
    order = draw_bracket([e.id for e in comp.entrants], 9)
    drawn = apply_bracket(comp, order)
    assert [e.id for e in drawn.seeded()] == list(order)
    with pytest.raises(DrawError, match="already paired"):
        apply_bracket(drawn.pair(), order)
    with pytest.raises(DrawError, match="Swiss pairs by rating"):
        apply_bracket(_players(Format.SWISS), order)


def test_a_first_mover_draw_names_the_first_mover_first_in_a_knockout_round() -> None:
    comp = _players(Format.KNOCKOUT_PLACEMENT).pair()
    matches = first_mover_matches(comp, 1)
    assert matches == [(1, "p1", "p4"), (2, "p2", "p3")]
    movers = draw_first_movers(1, matches, 1)
    swapped = apply_first_movers(comp, 1, movers)
    for m in movers:
        p = swapped.rounds[0].board(m.match)
        assert (p.first, p.second) == (m.first, m.second)
    played = comp.set_result(1, 1, RoundResult.parse("black", comp.settings.match))
    with pytest.raises(DrawError, match="already has results"):
        first_mover_matches(played, 1)
    with pytest.raises(DrawError, match="not paired"):
        first_mover_matches(comp, 2)
    with pytest.raises(DrawError, match="colours follow its pairing rules"):
        first_mover_matches(_players(Format.ROUND_ROBIN).pair(), 1)


def test_the_rounds_opening_is_its_latest_record() -> None:
    def rec(seq: int, rnd: int, opening: str, method: str = "lot") -> DrawRecord:
        seed = 1 if method == "lot" else None
        return DrawRecord(
            DrawKind.OPENING, rnd, "裁判长", method, seed, {"opening_id": opening}, 0, seq
        )

    draws = [rec(1, 1, "4D"), rec(2, 2, "5D"), rec(3, 1, "7I", "set")]
    assert round_opening(draws, 1) == draws[2]
    assert round_opening(draws, 3) is None
    assert opening_settings(draws[2]) == {"selection": "referee", "opening_id": "7I"}
    assert opening_settings(draws[1]) == {"selection": "lot", "opening_id": "5D"}
    assert opening_settings(None) == {}
