"""The director's state machine on the 16-team final: every round, every place, captains'
playoffs, and results from the wrong host, for the wrong game, repeated, unconfirmed and
corrected."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from support.director import (
    KEY,
    NOW,
    TABLES,
    bus_result,
    confirm,
    final,
    make_core,
    result_event,
    step,
    winner_of,
)
from wuzi.bus import topics
from wuzi.bus.auth import sign
from wuzi.bus.schemas import ArbiterCommand, HostStatus, TableState, check_outgoing
from wuzi.director.core import Change, DirectorCore
from wuzi.director.schedule import DirectorError
from wuzi.tournament.entrants import Player, Sex
from wuzi.tournament.event import Competition, EventSettings, Format
from wuzi.tournament.results import GameResult, MatchKind, RoundResult


def actions(change: Change) -> list[str]:
    return [a.action for a in change.audit]


def host_of(table: int) -> str:
    return dict(TABLES)[table]


def play_assigned(core: DirectorCore, now: int, *, confirm_them: bool = True) -> int:
    """Every table's assigned game reported by its host (and confirmed by the referee)."""
    done = 0
    for table in core.tables:
        a = core.assignment(table)
        if a is None or core.games[a.game_id].state != "assigned":
            continue
        w = winner_of(a.game_id)
        ch = step(
            core, core.on_result_event(result_event(host_of(table), table, a.game_id, w), now)
        )
        assert "result-reported" in actions(ch), ch.audit
        if confirm_them:
            cmd = confirm(table, a.game_id, bus_result(w), now_ms=now)
            ch = step(core, core.on_command(cmd, now))
            assert "result-confirmed" in actions(ch), ch.audit
        done += 1
    return done


def test_the_final_is_played_through_every_round_and_every_place() -> None:
    core = make_core(final())
    start = step(core, core.on_start(NOW))
    assert actions(start)[:2] == ["director-started", "round-paired"]
    assert start.tables == set(range(1, 25))
    # round 1: 8 matches of 3 boards on 24 consecutive tables
    assignments = {t: core.assignment(t) for t in core.tables}
    assert all(a is not None for a in assignments.values())
    assert [assignments[t].game_id for t in (1, 2, 3, 22, 23, 24)] == [  # type: ignore[union-attr]
        "r1-m1-b1",
        "r1-m1-b2",
        "r1-m1-b3",
        "r1-m8-b1",
        "r1-m8-b2",
        "r1-m8-b3",
    ]
    for t, a in assignments.items():
        assert a is not None
        check_outgoing(topics.assignment("v", t), a)
    now = NOW
    rounds_seen = [1]
    while not core.finished:
        now += 1000
        assert play_assigned(core, now) > 0, "nothing left to play, but not finished"
        if len(core.comp.rounds) != rounds_seen[-1]:
            rounds_seen.append(len(core.comp.rounds))
        check_outgoing(topics.competition_state("v"), core.competition_state(now))
    assert rounds_seen == [1, 2, 3, 4]
    state = core.competition_state(now)
    assert state.finished
    assert [(s.place, s.place_to) for s in state.standings] == [(p, p) for p in range(1, 17)]
    assert sorted(s.entrant for s in state.standings) == sorted(f"Team {i}" for i in range(1, 17))
    assert len(state.bracket) == 32
    playoffs = [g for g in core.games.values() if g.plan.playoff]
    assert playoffs, "the results should make some team matches tie"
    for g in playoffs:
        b1 = core.games[f"r{g.plan.round}-m{g.plan.match}-b1"]
        assert g.table == b1.table, "a captains' playoff is played on the board-1 table"
        assert g.plan.time_control == core.comp.settings.playoff_time_control
    # the competition holds what the tables played: replay it on a fresh event
    replay = final()
    for number in range(1, 5):
        replay = replay.pair()
        for p in replay.rounds[-1].pairings:
            boards = tuple(core.games[f"r{number}-m{p.board}-b{b}"].result for b in (1, 2, 3))
            offs = []
            k = 1
            while (g := core.games.get(f"r{number}-m{p.board}-p{k}")) is not None:
                offs.append(g.result)
                k += 1
            replay = replay.set_result(number, p.board, RoundResult(boards), offs)  # type: ignore[arg-type]
    assert replay.placements() == core.comp.placements()
    assert replay.finished
    # every game: one report, one confirmation
    log = Counter()
    for g in core.games.values():
        assert g.state == "final" and g.confirmed_by is not None
        log[g.reported_by] += 1
    assert sum(log.values()) == len(core.games)


def test_an_unconfirmed_result_decides_nothing() -> None:
    core = make_core(final())
    step(core, core.on_start(NOW))
    play_assigned(core, NOW + 1, confirm_them=False)
    assert {g.state for g in core.games.values()} == {"reported"}
    assert all(p.result is None for p in core.comp.rounds[0].pairings)
    assert len(core.comp.rounds) == 1
    state = core.competition_state(NOW + 2)
    assert {m.status for m in state.matches} == {"playing"}
    assert {(m.first_score, m.second_score) for m in state.matches} == {(0, 0)}


def test_auto_confirm_makes_host_results_final_at_once() -> None:
    core = make_core(final(), auto_confirm=True)
    step(core, core.on_start(NOW))
    table, gid = 1, "r1-m1-b1"
    ch = step(core, core.on_result_event(result_event("pi-1", table, gid, "first"), NOW))
    assert actions(ch) == ["result-reported", "result-confirmed"]
    assert core.games[gid].state == "final" and core.games[gid].confirmed_by == "auto"


@pytest.mark.parametrize(
    ("host", "table", "game", "reason"),
    [
        ("pi-2", 1, "r1-m1-b1", "table 1 is served by host 'pi-1', not 'pi-2'"),
        ("pi-1", 2, "r1-m1-b1", "game r1-m1-b1 is assigned to table 1, not table 2"),
        ("pi-1", 1, "r9-m1-b1", "no game 'r9-m1-b1' in this event"),
        ("pi-1", 99, "r1-m1-b1", "table 99 is not in the venue"),
    ],
)
def test_a_result_from_the_wrong_host_or_for_the_wrong_game_is_refused(
    host: str, table: int, game: str, reason: str
) -> None:
    core = make_core(final())
    step(core, core.on_start(NOW))
    before = dict(core.games)
    ch = core.on_result_event(result_event(host, table, game, "first"), NOW)
    assert actions(ch) == ["result-refused"]
    assert ch.audit[0].details["reason"] == reason
    assert not ch.games and ch.competition is None and not ch.tables
    step(core, ch)
    assert core.games == before


def test_a_malformed_result_is_refused_and_changes_nothing() -> None:
    core = make_core(final())
    step(core, core.on_start(NOW))
    event = replace(result_event("pi-1", 1, "r1-m1-b1", "first"), data={"winner": "both"})
    ch = step(core, core.on_result_event(event, NOW))
    assert actions(ch) == ["result-refused"]
    assert "not a game result" in ch.audit[0].details["reason"]
    assert core.games["r1-m1-b1"].state == "assigned"
    bad_id = replace(result_event("pi-1", 1, "r1-m1-b1", "first"), event_id="pi-1-t1-7")
    assert actions(core.on_result_event(bad_id, NOW)) == ["result-refused"]


def test_repeats_change_nothing() -> None:
    core = make_core(final())
    step(core, core.on_start(NOW))
    event = result_event("pi-1", 1, "r1-m1-b1", "first")
    assert actions(step(core, core.on_result_event(event, NOW))) == ["result-reported"]
    assert core.on_result_event(event, NOW + 5).empty  # the same event again (QoS 1)
    again = replace(event, event_id="pi-1/t1/r1-m1-b1/10", seq=10)
    ch = step(core, core.on_result_event(again, NOW + 6))  # the same result, a new event
    assert not ch.games and not ch.audit and ch.competition is None
    cmd = confirm(1, "r1-m1-b1", "1-0", now_ms=NOW)
    assert actions(step(core, core.on_command(cmd, NOW))) == ["result-confirmed"]
    assert core.on_command(cmd, NOW + 7).empty  # the same command again
    assert core.on_result_event(again, NOW + 8).empty
    third = replace(event, event_id="pi-1/t1/r1-m1-b1/11", seq=11)
    assert not core.on_result_event(third, NOW + 8).audit  # agrees with the final result
    second = confirm(1, "r1-m1-b1", "1-0", now_ms=NOW + 9, command_id="another")
    assert actions(step(core, core.on_command(second, NOW + 9))) == ["confirm-repeated"]
    assert core.games["r1-m1-b1"].state == "final"


def test_a_referee_corrects_a_reported_result() -> None:
    core = make_core(final())
    step(core, core.on_start(NOW))
    step(core, core.on_result_event(result_event("pi-1", 1, "r1-m1-b1", "first"), NOW))
    ch = step(core, core.on_command(confirm(1, "r1-m1-b1", "0-1", now_ms=NOW), NOW))
    assert actions(ch) == ["result-corrected"]
    assert ch.audit[0].details["reported"] == "1-0"
    g = core.games["r1-m1-b1"]
    assert (g.result, g.reported_result, g.reason) == (
        GameResult.WHITE,
        GameResult.BLACK,
        "referee",
    )
    # a host report that disagrees with a referee's final result is refused
    late = result_event("pi-1", 1, "r1-m1-b1", "first", seq=12)
    ch = step(core, core.on_result_event(late, NOW + 1))
    assert actions(ch) == ["result-refused"]
    assert "only a referee's confirm-result changes it" in ch.audit[0].details["reason"]


def _play_match(core: DirectorCore, match: int, results: tuple[str, str, str], now: int) -> None:
    for b, r in zip((1, 2, 3), results, strict=True):
        table = (match - 1) * 3 + b
        gid = f"r1-m{match}-b{b}"
        step(
            core,
            core.on_command(confirm(table, gid, r, now_ms=now, command_id=f"{gid}-{now}"), now),
        )


def test_a_tied_match_gets_captains_playoffs_until_one_is_decisive() -> None:
    core = make_core(final())
    step(core, core.on_start(NOW))
    # boards: first wins b1, second wins b2 (Black there), b3 drawn: 3-3 with 2/1/0
    _play_match(core, 1, ("1-0", "1-0", "1/2-1/2"), NOW)
    assert "r1-m1-p1" in core.games
    p1 = core.games["r1-m1-p1"]
    assert p1.table == 1 and p1.state == "assigned"
    assert p1.plan.black == "T16 captain"  # the second team's captain has Black first
    assert core.assignment(1).game_id == "r1-m1-p1"  # type: ignore[union-attr]
    # a drawn playoff game: another one
    step(core, core.on_command(confirm(1, "r1-m1-p1", "1/2-1/2", now_ms=NOW), NOW))
    p2 = core.games["r1-m1-p2"]
    assert p2.plan.black == "T1 captain" and p2.table == 1
    step(core, core.on_command(confirm(1, "r1-m1-p2", "0-1", now_ms=NOW + 1), NOW + 1))
    pairing = core.comp.rounds[0].board(1)
    assert pairing.playoff == (GameResult.DRAW, GameResult.WHITE)
    assert core.comp.match_winner(pairing) == "T16"
    assert "r1-m1-p3" not in core.games
    # the board points never include the playoff
    summary = core.competition_state(NOW + 2).matches[0]
    assert (summary.first_score, summary.second_score) == (3, 3)
    assert summary.winner == "Team 16" and summary.status == "finished"


def test_corrections_create_and_cancel_playoffs() -> None:
    core = make_core(final())
    step(core, core.on_start(NOW))
    _play_match(core, 1, ("1-0", "0-1", "1-0"), NOW)  # first team 6-0
    assert core.comp.match_winner(core.comp.rounds[0].board(1)) == "T1"
    assert not any(g.plan.playoff for g in core.games.values())
    # board 3 corrected to a draw... still 5-1; board 2 corrected: Black (second team) won
    ch = step(core, core.on_command(confirm(2, "r1-m1-b2", "1-0", now_ms=NOW + 1), NOW + 1))
    assert actions(ch)[0] == "result-corrected"
    ch = step(core, core.on_command(confirm(3, "r1-m1-b3", "1/2-1/2", now_ms=NOW + 2), NOW + 2))
    assert "playoff-created" in actions(ch)  # 3-3 now
    assert core.games["r1-m1-p1"].state == "assigned"
    # and back: board 3 to a win for the first team: the playoff is not needed any more
    ch = step(core, core.on_command(confirm(3, "r1-m1-b3", "1-0", now_ms=NOW + 3), NOW + 3))
    assert "game-cancelled" in actions(ch)
    assert core.games["r1-m1-p1"].state == "cancelled"
    assert core.assignment(1).game_id == "r1-m1-b1"  # type: ignore[union-attr]
    # tied again: a new playoff game, with a new id (ids are never reused)
    step(core, core.on_command(confirm(3, "r1-m1-b3", "1/2-1/2", now_ms=NOW + 4), NOW + 4))
    assert core.games["r1-m1-p1-2"].state == "assigned"
    assert core.assignment(1).game_id == "r1-m1-p1-2"  # type: ignore[union-attr]
    # a result for the cancelled game is refused
    ch = core.on_result_event(result_event("pi-1", 1, "r1-m1-p1", "first"), NOW + 5)
    assert actions(ch) == ["result-refused"]


def test_a_correction_after_the_next_round_is_paired_is_refused() -> None:
    core = make_core(final(), auto_confirm=True)
    step(core, core.on_start(NOW))
    now = NOW
    while len(core.comp.rounds) == 1:
        now += 1
        play_assigned(core, now, confirm_them=False)
    g = core.games["r1-m1-b1"]
    other = "0-1" if g.result is GameResult.BLACK else "1-0"
    ch = step(core, core.on_command(confirm(1, g.id, other, now_ms=now), now))
    assert actions(ch) == ["command-refused"]
    assert "round 2 is already paired" in ch.audit[0].details["reason"]
    assert core.games["r1-m1-b1"].result is g.result


def test_referee_commands_must_be_signed_by_a_known_referee() -> None:
    core = make_core(final())
    step(core, core.on_start(NOW))
    good = confirm(1, "r1-m1-b1", "1-0", now_ms=NOW)
    forged = replace(good, args={"game_id": "r1-m1-b1", "result": "0-1"})  # auth kept
    ch = step(core, core.on_command(forged, NOW))
    assert actions(ch) == ["command-refused"] and "bad signature" in ch.audit[0].details["reason"]
    stranger = confirm(1, "r1-m1-b1", "1-0", now_ms=NOW, referee="someone", command_id="x")
    assert "unknown referee" in core.on_command(stranger, NOW).audit[0].details["reason"]
    old = confirm(1, "r1-m1-b1", "1-0", now_ms=NOW - 13 * 3600 * 1000, command_id="old")
    assert "ms ago" in core.on_command(old, NOW).audit[0].details["reason"]
    assert core.games["r1-m1-b1"].state == "assigned"
    # a host's action on the same topic is not the director's
    pause = sign(ArbiterCommand("p1", "chief-arbiter", "pause", 1, {}, NOW), KEY)
    assert core.on_command(pause, NOW).empty
    ch = step(core, core.on_command(good, NOW))
    assert actions(ch) == ["result-confirmed"]
    assert ch.audit[0].details["note"] == "no result was reported by the host"


@pytest.mark.parametrize(
    ("table", "args", "reason"),
    [
        (1, {"game_id": "r1-m1-b1", "result": "2-0"}, "is not one of"),
        (1, {"game_id": "r1-m1-b1"}, "is not one of"),
        (1, {"result": "1-0"}, "needs game_id"),
        (1, {"game_id": "r1-m1-b1", "result": "1-0", "x": 1}, "not 'x'"),
        (2, {"game_id": "r1-m1-b1", "result": "1-0"}, "assigned to table 1, not table 2"),
        (None, {"game_id": "r1-m1-b1", "result": "1-0"}, "names one table"),
        (1, {"game_id": "r7-m1-b1", "result": "1-0"}, "no game"),
    ],
)
def test_a_bad_confirmation_is_refused(
    table: int | None, args: dict[str, object], reason: str
) -> None:
    core = make_core(final())
    step(core, core.on_start(NOW))
    cmd = sign(ArbiterCommand("c1", "chief-arbiter", "confirm-result", table, args, NOW), KEY)
    ch = step(core, core.on_command(cmd, NOW))
    assert actions(ch) == ["command-refused"]
    assert reason in ch.audit[0].details["reason"]
    assert not ch.games and ch.competition is None


def test_a_missed_result_is_taken_from_the_tables_retained_state() -> None:
    core = make_core(final(), auto_confirm=True)
    step(core, core.on_start(NOW))
    a = core.assignment(2)
    assert a is not None  # board 2: the second team's player has Black
    # an opening swapped colours: the first seat (assignment's Black) now holds White,
    # and White won (1-0 would be Black's win): so the assignment's Black won
    state = TableState(
        table=2, game_id=a.game_id, seq=40, status="finished", moves=(112,), black_ms=1000,
        white_ms=2000, running=None, result="0-1", at_ms=NOW, black=a.white, white=a.black,
    )  # fmt: skip
    ch = step(core, core.on_table_state(state, NOW))
    assert actions(ch) == ["result-reported", "result-confirmed"]
    g = core.games[a.game_id]
    assert g.result is GameResult.BLACK and g.reported_by == "pi-1"
    assert g.reported_by_event == "state:2:40"
    # names that do not tell who is who: nothing
    unknown = replace(state, table=3, game_id="r1-m1-b3", black="", white="")
    assert core.on_table_state(unknown, NOW).games == {}
    # a flag: the loser's clock below zero
    flag = replace(
        state, table=4, game_id="r1-m2-b1", black=core.assignment(4).black,  # type: ignore[union-attr]
        white=core.assignment(4).white, result="1-0", white_ms=-5,  # type: ignore[union-attr]
    )  # fmt: skip
    step(core, core.on_table_state(flag, NOW))
    assert core.games["r1-m2-b1"].reason == "flag"


def test_an_older_table_state_never_takes_the_table_back() -> None:
    """A broker restored from an old database serves ``playing seq 14`` after the host's
    ``paused seq 16``, and the game before after the next one: the director keeps the
    newer state's game and status (what the screens' competition state shows)."""
    core = make_core(final())
    step(core, core.on_start(NOW))
    a = core.assignment(2)
    assert a is not None
    playing = TableState(
        table=2, game_id=a.game_id, seq=14, status="playing", moves=(112,), black_ms=1000,
        white_ms=2000, running="black", result=None, at_ms=NOW + 9_000,
    )  # fmt: skip
    paused = replace(playing, seq=16, status="paused", running=None, at_ms=NOW + 5_000)
    step(core, core.on_table_state(paused, NOW))
    assert core.live[2] == (a.game_id, "paused")
    assert core.on_table_state(playing, NOW).empty  # older by seq, whatever its stamp
    nxt = replace(paused, game_id="r2-m1-b2", seq=0, status="idle", at_ms=NOW + 6_000)
    step(core, core.on_table_state(nxt, NOW))
    assert core.live[2] == ("r2-m1-b2", "idle")
    assert core.on_table_state(paused, NOW).empty  # the game before, by its stamp
    assert core.live[2] == ("r2-m1-b2", "idle")
    later = replace(nxt, seq=1, status="playing", running="black")
    assert core.on_table_state(later, NOW).live == {2: ("r2-m1-b2", "playing")}


def test_host_statuses_are_logged_when_they_change() -> None:
    core = make_core(final())
    step(core, core.on_start(NOW))
    up = HostStatus("pi-1", True, (1, 2, 3, 4, 5, 6), "boot1", NOW)
    assert actions(step(core, core.on_host_status(up, NOW))) == ["host-online"]
    assert core.on_host_status(up, NOW + 1).empty
    down = replace(up, online=False)
    assert actions(step(core, core.on_host_status(down, NOW + 2))) == ["host-offline"]
    again = replace(up, boot_id="boot2")
    ch = step(core, core.on_host_status(again, NOW + 3))
    assert ch.audit[0].details["restarted"] is True
    assert core.on_host_status(replace(up, host="director"), NOW).empty


def test_games_wait_for_a_free_table_when_the_venue_is_too_small() -> None:
    core = make_core(final(), tables=TABLES[:20], auto_confirm=True)
    step(core, core.on_start(NOW))
    pending = sorted(g.id for g in core.games.values() if g.state == "pending")
    assert pending == ["r1-m7-b3", "r1-m8-b1", "r1-m8-b2", "r1-m8-b3"]
    # table 1's game ends: the first waiting game takes it
    step(core, core.on_result_event(result_event("pi-1", 1, "r1-m1-b1", "first"), NOW))
    assert core.games["r1-m7-b3"].table == 1
    assert core.assignment(1).game_id == "r1-m7-b3"  # type: ignore[union-attr]
    now = NOW
    while not core.finished:
        now += 1
        assert play_assigned(core, now, confirm_them=False)
    assert core.competition_state(now).finished


def test_a_two_game_swiss_round_plays_game_2_on_the_same_table() -> None:
    comp = Competition(
        EventSettings.create(
            Format.SWISS, rounds=2, match=MatchKind.TWO_GAME, rules="no-forbidden", name="open"
        )
    )
    for i in range(1, 6):  # five: one has the bye
        comp = comp.add_player(Player(f"P{i}", f"Player {i}", Sex.MALE, 2000 - i * 10))
    core = make_core(comp, auto_confirm=True)
    step(core, core.on_start(NOW))
    assert sorted(core.games) == ["r1-m1-g1", "r1-m2-g1"]
    g1 = core.games["r1-m1-g1"]
    step(core, core.on_result_event(result_event(host_of(g1.table), g1.table, g1.id, None), NOW))  # type: ignore[arg-type]
    g2 = core.games["r1-m1-g2"]
    assert g2.table == g1.table
    assert (g2.plan.black, g2.plan.white) == (g1.plan.white, g1.plan.black)
    assert g2.plan.game_in_match == 2
    # board 2: a flag in game 1 loses the whole round, no game 2
    h = core.games["r1-m2-g1"]
    flag = result_event(host_of(h.table), h.table, h.id, "second", reason="flag")  # type: ignore[arg-type]
    step(core, core.on_result_event(flag, NOW))
    assert "r1-m2-g2" not in core.games
    assert str(core.comp.rounds[0].board(2).result) == "flag:black"
    step(core, core.on_result_event(result_event(host_of(g2.table), g2.table, g2.id, "first"), NOW))  # type: ignore[arg-type]
    assert len(core.comp.rounds) == 2  # paired automatically
    state = core.competition_state(NOW)
    assert state.tiebreak_names == ("buchholz", "median_buchholz", "wins")  # 002 六(四)2
    assert len(state.standings) == 5
    check_outgoing(topics.competition_state("v"), state)


def test_an_event_without_entrants_cannot_start() -> None:
    core = make_core(Competition(EventSettings.create(Format.TEAM_KNOCKOUT_PLACEMENT)))
    with pytest.raises(DirectorError, match="add-team"):
        core.on_start(NOW)


def test_a_round_paired_again_by_the_organisers_gets_new_games() -> None:
    comp = Competition(EventSettings.create(Format.SWISS, rounds=3, name="men"))
    for i in range(1, 5):
        comp = comp.add_player(Player(f"P{i}", f"Player {i}", Sex.MALE, 2000 - i * 10))
    core = make_core(comp)
    step(core, core.on_start(NOW))
    old = {g.id: (g.plan.black_entrant, g.plan.white_entrant) for g in core.games.values()}
    assert old == {"r1-m1-g1": ("P1", "P3"), "r1-m2-g1": ("P4", "P2")}
    # the appeals committee: round 1 paired by hand
    repaired = core.comp.unpair_last().pair(fixed=[("P1", "P2")], reason="case 1")
    fresh = DirectorCore(
        repaired, TABLES, options=core.options, referee_keys=core.keys, games=core.games.values()
    )
    ch = step(fresh, fresh.on_start(NOW + 1, external=["pair --fix P1:P2 --replace"]))
    assert actions(ch)[0] == "competition-changed"
    assert {g.id: g.state for g in fresh.games.values()} == {
        "r1-m1-g1": "cancelled",
        "r1-m2-g1": "cancelled",
        "r1-m1-g1-2": "assigned",
        "r1-m2-g1-2": "assigned",
    }
    assert fresh.games["r1-m1-g1-2"].plan.white_entrant == "P2"
    assert fresh.assignment(1).game_id == "r1-m1-g1-2"  # type: ignore[union-attr]


def test_rule_sets_travel_as_keywords() -> None:
    from wuzi.director.schedule import bus_rule_set

    assert bus_rule_set("renju") == "renju"
    assert bus_rule_set("no-forbidden:overline=both") == "no-forbidden"
    with pytest.raises(DirectorError, match="cannot travel in an assignment"):
        bus_rule_set("no-forbidden:overline=white-only")
