"""Prize-place playoffs on the tables (``wuzi.director.places``): a 2019 open group whose
last round leaves a tie on place 1 gets its playoff games (002 六(四)3: two games at
5 min + 3 s, one with each colour, then single games at 3 min + 2 s) assigned to free
tables, and their results settle the place."""

from __future__ import annotations

from support.director import (
    KEYS,
    NOW,
    OPEN_2019_THREE,
    OPEN_2019_TIE,
    TABLES,
    make_core,
    open_group_2019,
    result_event,
    round_robin_winner,
    step,
)
from wuzi.bus import topics
from wuzi.bus.schemas import check_outgoing
from wuzi.director.core import Change, DirectorCore
from wuzi.director.games import Game
from wuzi.tournament.entrants import Player, Sex
from wuzi.tournament.event import Competition, EventSettings, Format
from wuzi.tournament.results import GameResult, MatchKind

HOST = dict(TABLES)


def actions(change: Change) -> list[str]:
    return [a.action for a in change.audit]


def report(core: DirectorCore, game: Game, winner: str | None, now: int = NOW) -> Change:
    assert game.table is not None
    event = result_event(HOST[game.table], game.table, game.id, winner, seq=now % 1000)
    return step(core, core.on_result_event(event, now))


def play_rounds(core: DirectorCore, outcomes: dict[tuple[str, str], str | None]) -> Change:
    """Every round of the round robin, as ``outcomes`` says; the last change."""
    change = step(core, core.on_start(NOW))
    while True:
        games = [g for g in core.games.values() if g.state == "assigned" and not g.plan.playoff]
        if not games:
            return change
        for g in games:
            change = report(
                core, g, round_robin_winner(outcomes, g.plan.black_entrant, g.plan.white_entrant)
            )


def restarted(core: DirectorCore, comp: Competition | None = None) -> DirectorCore:
    """The director started again on what ``core`` stored (``comp``: as the organisers
    changed it meanwhile)."""
    return DirectorCore(
        comp or core.comp,
        [(t, HOST[t]) for t in core.tables],
        options=core.options,
        referee_keys=KEYS,
        games=core.games.values(),
        seen=core.seen,
        draws=core.draws,
    )


def open_playoff_games(core: DirectorCore) -> list[Game]:
    return sorted(
        (g for g in core.games.values() if g.plan.place is not None and g.open),
        key=lambda g: g.seq,
    )


def test_a_tie_for_place_1_is_played_off_on_a_free_table_and_settles_the_place() -> None:
    core = make_core(open_group_2019(), tables=TABLES[:3], auto_confirm=True)
    last = play_rounds(core, OPEN_2019_TIE)
    assert core.comp.finished and len(core.comp.rounds) == 3
    assert "event-finished" in actions(last) and "playoff-created" in actions(last)
    (g1,) = open_playoff_games(core)
    # game 1: the higher in the standings' order (p1) Black, 5 min + 3 s, on a free table
    assert g1.id == "pl1-m1-p1" and g1.state == "assigned" and g1.table == 1
    assert (g1.plan.black_entrant, g1.plan.white_entrant) == ("p1", "p2")
    assert (g1.plan.time_control, g1.plan.playoff, g1.plan.game_in_match) == ("300+3", True, 3)
    a = core.assignment(1)
    assert a is not None and a.game_id == "pl1-m1-p1" and a.playoff
    state = core.competition_state(NOW)
    assert [(s.place, s.entrant) for s in state.standings][:2] == [(1, "选手1"), (1, "选手2")]
    playoff = state.matches[-1]
    assert (playoff.label, playoff.first, playoff.second, playoff.tables, playoff.status) == (
        "playoff, place 1",
        "选手1",
        "选手2",
        (1,),
        "scheduled",
    )
    assert not state.finished  # the playoff is still to be played

    report(core, g1, None)  # a draw: game 2, colours swapped, same table
    (g2,) = open_playoff_games(core)
    assert (g2.id, g2.table, g2.plan.black_entrant, g2.plan.time_control) == (
        "pl1-m1-p2",
        1,
        "p2",
        "300+3",
    )
    assert g2.plan.game_in_match == 4
    report(core, g2, None)  # still level after two: single games at 3 min + 2 s
    (g3,) = open_playoff_games(core)
    assert (g3.id, g3.plan.black_entrant, g3.plan.time_control) == ("pl1-m1-p3", "p1", "180+2")
    decided = report(core, g3, "second")  # p2 (White) wins game 3
    assert "place-playoff-decided" in actions(decided)
    assert decided.tournament_log == ["director: playoff p1 p2 draw,draw,white"]
    assert not open_playoff_games(core)
    (record,) = core.comp.tie_playoffs
    assert record.games == (GameResult.DRAW, GameResult.DRAW, GameResult.WHITE)
    rows = core.comp.standings().rows
    assert [(r.place, r.entrant, r.playoff_needed) for r in rows[:2]] == [
        (1, "p2", False),
        (2, "p1", False),
    ]
    state = core.competition_state(NOW)
    assert [(s.place, s.place_to, s.entrant) for s in state.standings][:2] == [
        (1, 1, "选手2"),
        (2, 2, "选手1"),
    ]
    check_outgoing(topics.competition_state("v"), state)
    assert state.finished and state.matches[-1].winner == "选手2"
    assert (state.matches[-1].first_score, state.matches[-1].second_score) == (1.0, 2.0)
    # a restart changes nothing
    again = make_core(core.comp, tables=TABLES[:3], auto_confirm=True, draws=())
    for g in core.games.values():
        again._index(g)
    again.seen.update(core.seen)
    restart = again.on_start(NOW + 1)
    assert not restart.games and restart.competition is None


def test_three_level_play_every_two_of_them_at_once_and_wins_order_them() -> None:
    core = make_core(open_group_2019(), auto_confirm=True)
    play_rounds(core, OPEN_2019_THREE)
    games = open_playoff_games(core)
    assert [(g.id, g.plan.black_entrant, g.plan.white_entrant) for g in games] == [
        ("pl1-m1-p1", "p1", "p2"),
        ("pl1-m2-p1", "p1", "p3"),
        ("pl1-m3-p1", "p2", "p3"),
    ]
    assert len({g.table for g in games}) == 3  # three free tables at once
    # p1 beats both, p2 beats p3: each match won in game 1 and drawn in game 2
    for g in games:
        report(core, g, "first")
    for g in open_playoff_games(core):
        report(core, g, None)
    assert not open_playoff_games(core)
    assert len(core.comp.tie_playoffs) == 3
    assert [(r.place, r.entrant) for r in core.comp.standings().rows] == [
        (1, "p1"),
        (2, "p2"),
        (3, "p3"),
        (4, "p4"),
    ]


def test_a_playoff_the_organisers_entered_cancels_the_directors_games() -> None:
    core = make_core(open_group_2019(), tables=TABLES[:3], auto_confirm=True)
    play_rounds(core, OPEN_2019_TIE)
    (g1,) = open_playoff_games(core)
    comp = core.comp.add_tie_playoff("p1", "p2", [GameResult.BLACK, GameResult.DRAW])
    again = restarted(core, comp)
    change = step(again, again.on_start(NOW + 5, external=["playoff p1 p2 black,draw"]))
    assert again.games[g1.id].state == "cancelled"
    assert "game-cancelled" in actions(change) and "playoff-created" not in actions(change)
    a = again.assignment(g1.table)  # type: ignore[arg-type]
    assert a is not None and a.game_id != g1.id  # back to the table's last game


def test_a_decided_playoff_game_is_not_corrected_by_a_later_report() -> None:
    core = make_core(open_group_2019(), tables=TABLES[:3], auto_confirm=True)
    play_rounds(core, OPEN_2019_TIE)
    (g1,) = open_playoff_games(core)
    report(core, g1, "first")
    (g2,) = open_playoff_games(core)
    report(core, g2, "second")  # p1 won both: decided
    assert core.comp.tie_playoffs[0].winner() == "p1"
    later = report(core, core.games[g2.id], "first", now=NOW + 7)
    assert actions(later) == ["result-refused"]
    assert "already decided" in later.audit[0].details["reason"]


def test_the_open_groups_two_game_swiss_plays_off_a_tie_on_place_1() -> None:
    """002 六(一)2: the open group plays two-game rounds, free opening, no forbidden
    moves; a one-round Swiss of two whose round is split 1–1 leaves them level on
    points, Buchholz, median Buchholz and wins (六(四)2): the playoff decides place 1."""
    comp = Competition(
        EventSettings.create(
            Format.SWISS, rounds=1, match=MatchKind.TWO_GAME, rules="no-forbidden", name="公开组"
        )
    )
    for i in (1, 2):
        comp = comp.add_player(Player(f"p{i}", f"选手{i}", Sex.MALE, 2000 - i))
    core = make_core(comp, tables=TABLES[:2], auto_confirm=True)
    step(core, core.on_start(NOW))
    report(core, core.games["r1-m1-g1"], "first")  # p1 wins game 1 with Black
    report(core, core.games["r1-m1-g2"], "first")  # p2 wins game 2 with Black
    assert [r.playoff_needed for r in core.comp.standings().rows] == [True, True]
    (g1,) = open_playoff_games(core)
    assert (g1.plan.opening, g1.plan.opening_settings, g1.plan.rule_set) == (
        "free",
        (),
        "no-forbidden",
    )
    report(core, g1, "first")
    (g2,) = open_playoff_games(core)
    report(core, g2, None)  # 1½–½ after two games: p1
    assert [(r.place, r.entrant) for r in core.comp.standings().rows] == [(1, "p1"), (2, "p2")]
