"""Swiss pairing: every round checked against the absolute rules of a valid Swiss round."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wuzi.rules.board import Colour
from wuzi.tournament.entrants import Player, Sex, Team
from wuzi.tournament.errors import EntryError, PairingError
from wuzi.tournament.event import Competition, EventSettings, Format
from wuzi.tournament.history import EntryKind, History, Pairing
from wuzi.tournament.ratings import expected_score
from wuzi.tournament.results import GameResult, MatchKind, RoundResult, Scoring
from wuzi.tournament.swiss import (
    ABSOLUTE,
    MILD,
    STRONG,
    SwissEntrant,
    check_swiss_round,
    colour_allowed,
    colour_history,
    colour_preference,
    pair_swiss_round,
)
from wuzi.tournament.tiebreaks import Tiebreak

B, W = Colour.BLACK, Colour.WHITE


def swiss(rounds: int) -> Competition:
    return Competition(EventSettings.create(Format.SWISS, rounds=rounds))


def with_players(
    comp: Competition, count: int, rng: random.Random, prefix: str = "P"
) -> Competition:
    for i in range(count):
        name = f"{prefix}{i + 1:02d}"
        comp = comp.add_player(Player(name, name, Sex.MALE, rng.randint(1300, 2300)))
    return comp


def state_before(
    comp: Competition, number: int
) -> tuple[list[SwissEntrant], History, dict[str, float]]:
    histories = comp.histories()
    points = {e: sum(r.points for r in entries) for e, entries in histories.items()}
    active = [SwissEntrant(e.id, e.rating, e.order) for e in comp.entrants if e.active_in(number)]
    return active, histories, points


def play(comp: Competition, rng: random.Random, forfeits: float = 0.0) -> Competition:
    """Enter rating-based random results for the last round (some forfeits)."""
    rnd = comp.rounds[-1]
    for p in rnd.pairings:
        if p.second is None:
            continue
        roll = rng.random()
        if roll < forfeits:
            game = rng.choice((GameResult.BLACK_BY_FORFEIT, GameResult.WHITE_BY_FORFEIT))
        else:
            e = expected_score(comp.entrant(p.first).rating, comp.entrant(p.second).rating)
            roll = rng.random()
            game = (
                GameResult.DRAW
                if roll < 0.15
                else GameResult.BLACK
                if roll < 0.15 + 0.85 * e
                else GameResult.WHITE
            )
        comp = comp.set_result(rnd.number, p.board, RoundResult((game,)))
    return comp


def pair_checked(comp: Competition, **kwargs: object) -> Competition:
    """Pair the next round and assert it breaks no absolute rule."""
    number = len(comp.rounds) + 1
    active, histories, points = state_before(comp, number)
    comp = comp.pair(**kwargs)  # type: ignore[arg-type]
    rnd = comp.rounds[-1]
    problems = check_swiss_round(
        number, active, histories, points, rnd.pairings, comp.pairing_numbers()
    )
    auto = [p for p in rnd.pairings if p.manual_reason is None]
    assert problems == [] or all(p.manual_reason for p in rnd.pairings if p.second), problems
    assert len({p.board for p in rnd.pairings}) == len(rnd.pairings)
    assert [p.board for p in rnd.pairings] == list(range(1, len(rnd.pairings) + 1))
    assert auto
    return comp


# -- colour rules ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("colours", "expected"),
    [
        ((), (None, 0)),
        ((B,), (W, STRONG)),  # difference +1
        ((W,), (B, STRONG)),
        ((B, W), (B, MILD)),
        ((B, W, B), (W, STRONG)),
        ((W, B, W), (B, STRONG)),
        ((B, B), (W, ABSOLUTE)),
        ((W, W), (B, ABSOLUTE)),
        ((W, B, B), (W, ABSOLUTE)),  # last two the same
        ((B, W, B, B), (W, ABSOLUTE)),  # difference +2
        ((B, B, W, B), (W, ABSOLUTE)),
    ],
)
def test_colour_preference(
    colours: tuple[Colour, ...], expected: tuple[Colour | None, int]
) -> None:
    pref = colour_preference(colours)
    assert (pref.colour, pref.strength) == expected


def test_colour_rule_three_in_a_row_and_difference() -> None:
    assert not colour_allowed((B, B), B)
    assert colour_allowed((B, B), W)
    assert not colour_allowed((B, W, B, W, B, B), B)  # three in a row
    assert not colour_allowed((B, B, W, B), B)  # difference 3
    assert colour_allowed((B, W, B), B)  # difference 2 is allowed


# -- the 60-player event -------------------------------------------------------------------


def test_sixty_players_nine_rounds_with_byes_late_entries_withdrawals_forfeits() -> None:
    """58 start; late entries in rounds 2 and 3 make 60; withdrawals from rounds 5, 8 and 9;
    forfeits in rounds 2, 4 and 7; a pairing made by hand in round 6. The field is odd (a
    bye) in rounds 2, 5, 6, 7 and 9. Every round is checked against the absolute rules."""
    rng = random.Random(2024)
    comp = with_players(swiss(9), 58, rng)
    byes_seen: Counter[str] = Counter()
    withdrawals = {5: ["P05"], 8: ["P17"], 9: ["P40"]}
    for number in range(1, 10):
        if number in (2, 3):
            late = f"Late{number}"
            comp = comp.add_player(Player(late, late, Sex.FEMALE, 2100 if number == 2 else 1400))
            assert comp.entrant(late).joined_round == number
        for who in withdrawals.get(number, []):
            comp = comp.withdraw(who)
        points_before = dict(state_before(comp, number)[2])
        if number == 6:  # an arbiter fixes one (rule-abiding) pairing by hand
            proposal = comp.next_round().pairings[2]
            fixed = [(proposal.first, proposal.second)]
            active_now, histories_now, points_now = state_before(comp, number)
            comp = comp.pair(fixed=fixed, reason="players from one club, by the arbiter")
            assert (
                check_swiss_round(
                    number,
                    active_now,
                    histories_now,
                    points_now,
                    comp.rounds[-1].pairings,
                    comp.pairing_numbers(),
                )
                == []
            )
            manual = [p for p in comp.rounds[-1].pairings if p.manual_reason]
            assert [(p.first, p.second, p.manual_reason) for p in manual] == [
                (proposal.first, proposal.second, "players from one club, by the arbiter")
            ]
        else:
            comp = pair_checked(comp)
        rnd = comp.rounds[-1]
        active = [e for e in comp.entrants if e.active_in(number)]
        assert rnd.entrants() == {e.id for e in active}
        byes = [p.first for p in rnd.pairings if p.second is None]
        assert len(byes) == len(active) % 2
        byes_seen.update(byes)
        comp = play(comp, rng, forfeits=0.05 if number in (2, 4, 7) else 0.0)
        histories = comp.histories()
        for who in byes:  # a bye scores as a win
            assert sum(r.points for r in histories[who]) == points_before[who] + 1
    assert len(comp.entrants) == 60
    assert max(byes_seen.values()) == 1
    assert sum(byes_seen.values()) == 5
    histories = comp.histories()
    assert [e.kind for e in histories["Late3"][:2]] == [EntryKind.ABSENT, EntryKind.ABSENT]
    assert all(e.kind is EntryKind.ABSENT for e in histories["P05"][4:])
    assert any(e.kind is EntryKind.FORFEIT for entries in histories.values() for e in entries)
    # no rematches over the whole event, colours within the rules for everybody
    for who, entries in histories.items():
        opponents = [e.opponent for e in entries if e.played]
        assert len(opponents) == len(set(opponents)), who
        colours = colour_history(entries)
        for i in range(len(colours)):
            assert colour_allowed(colours[:i], colours[i]), (who, colours)
    standings = comp.standings()
    assert standings.rows[0].place == 1
    assert len(standings.rows) == 60
    assert standings.prize_places == 12


def test_a_team_swiss_pairs_first_movers_by_the_same_rules() -> None:
    comp = Competition(EventSettings.create(Format.SWISS, rounds=3, match=MatchKind.TEAM))
    assert comp.settings.game_scoring == comp.settings.scoring == Scoring(2, 1, 0)
    assert comp.settings.tiebreaks[0] is Tiebreak.GAME_POINTS
    for t in range(6):
        players = tuple(
            Player(f"T{t}b{b}", f"T{t}b{b}", Sex.FEMALE if b == 3 else Sex.MALE, 2000 - 50 * t)
            for b in (1, 2, 3)
        )
        comp = comp.add_team(Team(f"T{t}", f"T{t}", players))
    for number in range(1, 4):
        comp = pair_checked(comp)
        for p in comp.rounds[-1].pairings:
            comp = comp.set_result(
                number, p.board, RoundResult.parse("black,black,black", MatchKind.TEAM)
            )
    rows = comp.standings().rows
    # every first mover won 4-2 (boards 1 and 3): 3 rounds of colours decide the points
    for row in rows:
        firsts = sum(1 for e in comp.histories()[row.entrant] if e.colour is Colour.BLACK)
        assert row.points == 2 * firsts
        assert row.tiebreaks[Tiebreak.GAME_POINTS] == 4 * firsts + 2 * (3 - firsts)


def test_score_groups_pair_within_themselves_when_they_can() -> None:
    rng = random.Random(7)
    comp = with_players(swiss(5), 40, rng)
    comp = play(pair_checked(comp), rng)
    comp = play(pair_checked(comp), rng)
    _, _, points = state_before(comp, 3)
    comp = pair_checked(comp)
    crossing = [
        p for p in comp.rounds[-1].pairings if p.second and points[p.first] != points[p.second]
    ]
    groups = Counter(points.values())
    odd_groups = sum(1 for count in groups.values() if count % 2)
    assert len(crossing) <= odd_groups  # only the odd one out of a group floats


def test_round_one_is_top_half_against_bottom_half_with_alternating_colours() -> None:
    comp = Competition(EventSettings.create(Format.SWISS, rounds=3))
    for i in range(8):
        comp = comp.add_player(Player(f"S{i + 1}", f"S{i + 1}", Sex.MALE, 2000 - 10 * i))
    rnd = comp.next_round()
    assert [(p.first, p.second) for p in rnd.pairings] == [
        ("S1", "S5"),
        ("S6", "S2"),
        ("S3", "S7"),
        ("S8", "S4"),
    ]


def test_bye_goes_to_the_lowest_ranked_without_one() -> None:
    comp = Competition(EventSettings.create(Format.SWISS, rounds=3))
    for i in range(5):
        comp = comp.add_player(Player(f"S{i + 1}", f"S{i + 1}", Sex.MALE, 2000 - 10 * i))
    comp = comp.pair()
    assert comp.rounds[0].pairings[-1] == Pairing(3, "S5", None)
    # S5 took the bye: 1 point. The losers of round 1 are the lowest now.
    comp = comp.set_result(1, 1, RoundResult((GameResult.BLACK,)))  # S1 beats S3
    comp = comp.set_result(1, 2, RoundResult((GameResult.WHITE,)))  # S2 (white) beats S4
    comp = comp.pair()
    bye = [p.first for p in comp.rounds[1].pairings if p.second is None]
    assert bye == ["S4"]  # S3 and S4 have 0; S4 has the higher pairing number


def test_rematch_is_never_made_and_forfeits_do_not_count_as_meetings() -> None:
    comp = Competition(EventSettings.create(Format.SWISS, rounds=3))
    for i in range(4):
        comp = comp.add_player(Player(f"S{i + 1}", f"S{i + 1}", Sex.MALE, 2000 - 10 * i))
    comp = comp.pair()  # S1-S3, S4-S2
    comp = comp.set_result(1, 1, RoundResult((GameResult.BLACK_BY_FORFEIT,)))
    comp = comp.set_result(1, 2, RoundResult((GameResult.DRAW,)))
    histories = comp.histories()
    assert histories["S1"][0].kind is EntryKind.FORFEIT and histories["S1"][0].points == 1
    assert histories["S3"][0].colour is None  # no game, no colour
    comp = comp.pair()
    pairs = {frozenset((p.first, p.second)) for p in comp.rounds[1].pairings}
    assert frozenset(("S2", "S4")) not in pairs


def test_manual_override_is_recorded_with_its_reason_and_rest_is_paired() -> None:
    rng = random.Random(3)
    comp = with_players(swiss(4), 12, rng)
    comp = play(pair_checked(comp), rng)
    first_round = comp.rounds[0].pairings[0]
    with pytest.raises(PairingError, match="reason"):
        comp.pair(fixed=[(first_round.first, "P12")])
    with pytest.raises(EntryError, match="no entrant 'nobody'"):
        comp.pair(fixed=[("P01", "nobody")], reason="x")
    # an arbiter pairs a rematch on purpose (say, two brothers must not meet later)
    comp = comp.pair(
        fixed=[(first_round.first, first_round.second)], reason="appeals committee decision 3"
    )
    rnd = comp.rounds[-1]
    manual = [p for p in rnd.pairings if p.manual_reason]
    assert len(manual) == 1 and manual[0].manual_reason == "appeals committee decision 3"
    assert rnd.entrants() == {e.id for e in comp.entrants}
    active, histories, points = state_before(
        Competition(comp.settings, comp.entrants, comp.rounds[:1]), 2
    )
    problems = check_swiss_round(2, active, histories, points, rnd.pairings, comp.pairing_numbers())
    assert len(problems) >= 1 and all("met before" in p or "colours" in p for p in problems)
    automatic = [p for p in rnd.pairings if not p.manual_reason]
    assert check_swiss_round(2, active, histories, points, automatic, comp.pairing_numbers()) == [
        f"{who!r} is not paired in round 2"
        for who in sorted((manual[0].first, str(manual[0].second)))
    ]


def test_a_field_that_cannot_be_paired_says_so() -> None:
    comp = Competition(EventSettings.create(Format.SWISS, rounds=5))
    for i in range(3):
        comp = comp.add_player(Player(f"S{i + 1}", f"S{i + 1}", Sex.MALE, 2000 - 10 * i))
    for _ in range(3):
        comp = comp.pair()
        for p in comp.rounds[-1].pairings:
            if p.second is not None:
                comp = comp.set_result(len(comp.rounds), p.board, RoundResult((GameResult.DRAW,)))
    with pytest.raises(PairingError, match="cannot be paired"):
        comp.pair()


def test_late_entries_and_withdrawals_are_checked() -> None:
    comp = with_players(swiss(3), 4, random.Random(1))
    comp = comp.pair()
    with pytest.raises(EntryError, match="already paired"):
        comp.withdraw("P01", from_round=1)
    comp = comp.withdraw("P01")
    with pytest.raises(EntryError, match="already withdrawn"):
        comp.withdraw("P01")
    rr = (
        Competition(EventSettings.create(Format.ROUND_ROBIN))
        .add_player(Player("a", "a", Sex.MALE))
        .add_player(Player("b", "b", Sex.MALE))
        .pair()
    )
    with pytest.raises(EntryError, match="late entries are for a Swiss"):
        rr.add_player(Player("c", "c", Sex.MALE))


# -- property: any small field, any results -------------------------------------------------


def _compatible(a: str, b: str, histories: History) -> bool:
    if any(e.played and e.opponent == b for e in histories[a]):
        return False
    ca, cb = colour_history(histories[a]), colour_history(histories[b])
    return any(colour_allowed(ca, c) and colour_allowed(cb, c.other) for c in (B, W))


def _pairable(players: list[str], histories: History) -> bool:
    if not players:
        return True
    first, rest = players[0], players[1:]
    return any(
        _compatible(first, other, histories)
        and _pairable([p for p in rest if p != other], histories)
        for other in rest
    )


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 10), st.integers(1, 6), st.integers(0, 10**6))
def test_small_fields_always_valid_or_truly_unpairable(size: int, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    comp = with_players(swiss(9), size, rng)
    for number in range(1, rounds + 1):
        active, histories, points = state_before(comp, number)
        numbers = comp.pairing_numbers()
        ids = [e.id for e in active]
        try:
            pairings = pair_swiss_round(number, active, histories, points, numbers=numbers)
        except PairingError:
            ranked = sorted(ids, key=lambda e: (-points[e], numbers[e]))
            if len(ids) % 2:
                eligible = [
                    c for c in ranked if not any(e.kind is EntryKind.BYE for e in histories[c])
                ]
                assert not any(
                    _pairable([p for p in ranked if p != c], histories) for c in eligible
                )
            else:
                assert not _pairable(ranked, histories)
            return
        problems = check_swiss_round(number, active, histories, points, pairings, numbers)
        problems = [p for p in problems if "ranks lower" not in p]
        assert problems == []
        byes = [p.first for p in pairings if p.second is None]
        if byes:  # the lowest-ranked without a bye for whom the rest can be paired
            ranked = sorted(ids, key=lambda e: (-points[e], numbers[e]))
            expected = next(
                c
                for c in reversed(ranked)
                if not any(e.kind is EntryKind.BYE for e in histories[c])
                and _pairable([p for p in ranked if p != c], histories)
            )
            assert byes == [expected]
        comp = comp.with_round(comp.next_round())
        comp = play(comp, rng, forfeits=0.1)
