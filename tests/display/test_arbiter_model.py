"""The arbiter view's model: alerts from every source, urgency, acknowledging, the board."""

from __future__ import annotations

from dataclasses import replace

import pytest

from wuzi.bus import topics
from wuzi.bus.schemas import Cleared, HostStatus, OpenAlert, RefereeState, TableEvent
from wuzi.display.arbiter_model import (
    CLAIM,
    CRITICAL,
    INFRACTION,
    OFFLINE,
    REASON_LABELS,
    STALE,
    TIERS,
    ArbiterModel,
    tier_of,
)
from wuzi.display.arbiter_sample import (
    FORBIDDEN_ALERT,
    SAMPLE_ACKED,
    SAMPLE_FOCUS,
    sample_arbiter_messages,
)
from wuzi.display.clock_sample import SAMPLE_GAME, sample_assignment, sample_clock_state
from wuzi.display.sample import SAMPLE_VENUE
from wuzi.display.timefmt import NEVER_MS
from wuzi.rules.board import Board, parse_point, parse_points
from wuzi.rules.forbidden import forbidden_points
from wuzi.table.alerts import AlertReason

V = SAMPLE_VENUE
NOW = 50_000_000


def sample_model() -> ArbiterModel:
    model = ArbiterModel(focus=SAMPLE_FOCUS)
    for topic, message, age in sample_arbiter_messages():
        model.apply(topic, message, NOW - age)
    for key in SAMPLE_ACKED:
        model.acknowledge(key)
    return model


def referee(table: int, seq: int, *alerts: OpenAlert, game: str = "g1") -> RefereeState:
    return RefereeState(table, game, seq, "playing", alerts, 0, None, 0, 0, 1)


def alert(event_id: str, reason: str = "forbidden", points: tuple[int, ...] = ()) -> OpenAlert:
    return OpenAlert(event_id, reason, f"{reason} text", points, "first")


def event(table: int, seq: int, reason: str = "five", **data: object) -> TableEvent:
    payload: dict[str, object] = {"reason": reason, "text": f"{reason}!", "points": [1, 2]}
    payload.update(data)
    return TableEvent(f"pi/{table}/{seq}", table, "g1", seq, "alert", 1, payload)


def test_the_sample_alerts_come_in_urgency_order_with_the_acknowledged_last() -> None:
    alerts = sample_model().alerts(NOW)
    kinds = [(a.table, a.kind) for a in alerts]
    assert kinds == [
        (5, "five"),  # tier 0, oldest first: 40 s, 30 s, 15 s ago
        (9, "flag"),
        (3, "forbidden"),
        (12, "claim"),
        (7, "board_offline"),  # tier 3, 300 s ago
        (13, "host_offline"),  # 240 s ago
        (11, "stale_clock"),
        (2, "press_without_stone"),  # acknowledged: below everything, whatever its tier
    ]
    assert [a.acknowledged for a in alerts] == [False] * 7 + [True]
    assert [a.tier for a in alerts[:-1]] == [CRITICAL] * 3 + [CLAIM, OFFLINE, OFFLINE, STALE]
    assert alerts[2].label == "禁手 forbidden move" and alerts[2].points == FORBIDDEN_ALERT.points
    host = alerts[5]
    assert "pi-4" in host.text and "13, 14, 15, 16" in host.text and host.table == 13


def test_tiers_follow_the_issue_order() -> None:
    assert tier_of("five") == tier_of("forbidden") == tier_of("flag") == CRITICAL
    assert tier_of("claim") == CLAIM
    assert tier_of("press_without_stone") == INFRACTION
    assert tier_of("board_offline") == tier_of("host_offline") == OFFLINE
    assert tier_of("stale_clock") == STALE
    assert CRITICAL < CLAIM < INFRACTION < OFFLINE < STALE
    assert tier_of("something-new") == INFRACTION


def test_an_alert_event_shows_until_a_referee_state_folds_it_in() -> None:
    model = ArbiterModel()
    assert model.apply(topics.arbiter_alerts(V, 4), event(4, 10), 100)
    assert [a.key for a in model.alerts(200)] == ["pi/4/10"]
    assert not model.apply(topics.arbiter_alerts(V, 4), event(4, 10), 150)  # a repeat
    # The state lists it: still one alert, first seen at the event's arrival.
    listed = alert("pi/4/10", "five")
    model.apply(topics.arbiter_state(V, 4), referee(4, 10, listed), 300)
    (line,) = model.alerts(400)
    assert line.key == "pi/4/10" and line.since_ms == 100
    # A later state without it: the referee dealt with it.
    model.apply(topics.arbiter_state(V, 4), referee(4, 12), 500)
    assert model.alerts(600) == ()
    # An event the state has already folded in never comes back.
    assert not model.apply(topics.arbiter_alerts(V, 4), event(4, 11), 700)


def test_an_event_newer_than_the_state_survives_that_state() -> None:
    model = ArbiterModel()
    model.apply(topics.arbiter_alerts(V, 4), event(4, 20), 100)
    model.apply(topics.arbiter_state(V, 4), referee(4, 19), 200)
    assert [a.key for a in model.alerts(300)] == ["pi/4/20"]
    assert not model.apply(topics.arbiter_state(V, 4), referee(4, 18), 250)  # older copy


def test_a_late_arbiter_screen_never_goes_back_to_an_older_state() -> None:
    """A broker restored from an old database serves a referee state and a table state
    older than the ones the screen holds: the same game's by ``seq`` (whatever their
    stamp), the game before by ``at_ms``; the screen keeps the newer ones."""
    model = ArbiterModel()
    paused = replace(referee(4, 120, alert("pi/4/118", "flag")), status="paused", at_ms=5_000)
    assert model.apply(topics.arbiter_state(V, 4), paused, 100)
    assert not model.apply(topics.arbiter_state(V, 4), replace(referee(4, 110), at_ms=9_000), 200)
    earlier = replace(referee(4, 300, game="g0"), at_ms=4_000)
    assert not model.apply(topics.arbiter_state(V, 4), earlier, 300)
    assert [a.key for a in model.alerts(400)] == ["pi/4/118"]
    state = replace(sample_clock_state(), table=4, seq=16, status="paused", running=None)
    assert model.apply(topics.table_state(V, 4), state, 500)
    playing = replace(sample_clock_state(), table=4, seq=14, at_ms=state.at_ms + 1)
    assert not model.apply(topics.table_state(V, 4), playing, 600)
    before = replace(state, game_id="g0", seq=90, status="playing", at_ms=state.at_ms - 1)
    assert not model.apply(topics.table_state(V, 4), before, 700)
    nxt = replace(referee(4, 3, game="g2"), at_ms=6_000)
    assert model.apply(topics.arbiter_state(V, 4), nxt, 800)  # the next game: later


def test_odd_alert_event_data_is_shown_not_fatal() -> None:
    model = ArbiterModel()
    bad = TableEvent("pi/4/1", 4, "g1", 1, "alert", 1, {"reason": 5, "points": ["x", 3, True, 999]})
    model.apply(topics.arbiter_alerts(V, 4), bad, 0)
    (line,) = model.alerts(0)
    assert line.kind == "board" and line.points == (3,) and "pi/4/1" in line.text
    move = TableEvent("pi/4/2", 4, "g1", 2, "move", 1, {})
    assert not model.apply(topics.table_events(V, 4), move, 0)


def test_host_offline_and_board_links_come_and_go() -> None:
    model = ArbiterModel()
    up = HostStatus("pi-1", True, (1, 2), "b1", 0, (2,))
    model.apply(topics.host_status(V, "pi-1"), up, 1_000)
    (line,) = model.alerts(2_000)
    assert line.kind == "board_offline" and line.table == 2 and line.since_ms == 1_000
    model.apply(topics.host_status(V, "pi-1"), replace(up, at_ms=5), 3_000)
    assert model.alerts(4_000)[0].since_ms == 1_000  # still down since the first report
    model.apply(topics.host_status(V, "pi-1"), replace(up, links_down=()), 5_000)
    assert model.alerts(6_000) == ()
    will = HostStatus("pi-1", False, (1, 2), "b1", 0, ())
    model.apply(topics.host_status(V, "pi-1"), will, 7_000)
    (line,) = model.alerts(8_000)
    assert line.kind == "host_offline" and line.table == 1 and "1, 2" in line.text
    assert model.frame(8_000).hosts_offline == 1
    model.apply(topics.host_status(V, "pi-1"), Cleared(topics.host_status(V, "pi-1")), 9_000)
    assert model.alerts(9_000) == ()


def test_a_running_clock_goes_stale_by_age_and_by_an_unreported_flag() -> None:
    model = ArbiterModel(stale_after_ms=60_000, flag_grace_ms=5_000)
    state = replace(sample_clock_state(), black_ms=20_000)  # Black's clock runs
    model.apply(topics.table_state(V, 3), state, 0)
    assert model.alerts(24_999) == ()
    (line,) = model.alerts(25_000)  # 20 s gone + 5 s grace, no flag reported
    assert line.kind == "stale_clock" and "flag" in line.text and line.since_ms == 25_000
    model.apply(topics.table_state(V, 3), replace(state, black_ms=600_000, seq=50), 30_000)
    assert model.alerts(89_999) == ()
    (line,) = model.alerts(90_000)
    assert "1 min" in line.text and line.since_ms == 90_000
    # A paused clock is never stale; nor is one whose host is known to be offline.
    model.apply(topics.table_state(V, 3), replace(state, status="paused", running=None, seq=51), 0)
    assert model.alerts(10**9) == ()
    model.apply(topics.table_state(V, 3), replace(state, seq=52), 0)
    model.apply(topics.host_status(V, "pi"), HostStatus("pi", False, (3,), "b", 0), 0)
    assert [a.kind for a in model.alerts(10**9)] == ["host_offline"]


def test_acknowledging_is_per_occurrence_and_toggles() -> None:
    model = ArbiterModel(stale_after_ms=1_000)
    state = replace(sample_clock_state(), black_ms=600_000)
    model.apply(topics.table_state(V, 3), state, 0)
    model.move_selection(1, 2_000)
    assert model.acknowledge_selected(2_000) is not None
    assert model.alerts(2_000)[0].acknowledged
    model.acknowledge(model.alerts(2_000)[0].key)  # toggles back
    assert not model.alerts(2_000)[0].acknowledged
    model.acknowledge_selected(2_000)
    # A fresh state, stale again later: a new occurrence, alerting again.
    model.apply(topics.table_state(V, 3), replace(state, seq=99), 3_000)
    (line,) = model.alerts(5_000)
    assert not line.acknowledged
    assert model.acknowledge_selected(5_000) is None  # the selected one is gone


def test_selection_moves_through_the_list_and_the_focus_follows() -> None:
    model = sample_model()
    model.focus = None
    model.move_selection(1, NOW)
    assert model.selected_alert(NOW) is not None and model.focus == 5
    model.move_selection(1, NOW)
    assert model.focus == 9
    model.move_selection(-5, NOW)
    assert model.focus == 5  # clamped at the top
    model.move_selection(100, NOW)
    assert model.selected_alert(NOW).table == 2  # type: ignore[union-attr]
    frame = model.frame(NOW)
    assert frame.selected == len(frame.alerts) - 1


def test_cycle_focus_walks_the_known_tables() -> None:
    model = ArbiterModel()
    model.cycle_focus(1)
    assert model.focus is None
    for n in (4, 2, 9):
        model.apply(topics.table_state(V, n), replace(sample_clock_state(), table=n), 0)
    model.cycle_focus(1)
    assert model.focus == 2
    model.cycle_focus(1)
    assert model.focus == 4
    model.cycle_focus(-2)
    assert model.focus == 9


def test_the_focused_board_has_the_stones_and_blacks_forbidden_points() -> None:
    board = sample_model().board(NOW)
    assert board is not None and board.table == SAMPLE_FOCUS
    assert [p for p, _c, _n in board.stones] == list(SAMPLE_GAME)
    assert board.stones[0] == (parse_point("h8"), "black", 1)
    assert board.stones[1] == (parse_point("i7"), "white", 2)
    assert board.last == parse_point("l13")
    expected = forbidden_points(Board.from_moves(SAMPLE_GAME))
    assert dict(board.forbidden) == {p: k.value for p, k in expected.items()}
    assert dict(board.forbidden) == {
        parse_point("j10"): "33",
        parse_point("h9"): "44",
        parse_point("m14"): "44",
        parse_point("g9"): "ol",
        parse_point("m15"): "ol",
    }
    assert set(board.marked) == set(FORBIDDEN_ALERT.points)
    assert board.rule_set == "renju" and board.alerts == 1
    assert board.clock is not None and board.clock.white.running


def test_no_forbidden_points_when_the_tables_rule_set_has_none() -> None:
    model = ArbiterModel(focus=3)
    state = replace(sample_clock_state(), moves=SAMPLE_GAME)
    model.apply(topics.table_state(V, 3), state, 0)
    assert model.board(0).forbidden  # type: ignore[union-attr]  # renju by default
    standard = replace(sample_assignment(), rule_set="standard")
    model.apply(topics.assignment(V, 3), standard, 0)
    board = model.board(0)
    assert board is not None and board.forbidden == () and board.rule_set == "standard"
    # An assignment for another game (the next one) does not decide this game's rules.
    model.apply(topics.assignment(V, 3), replace(standard, game_id="later"), 0)
    assert model.board(0).forbidden  # type: ignore[union-attr]


def test_pending_stone_offers_infractions_and_a_missing_state() -> None:
    model = ArbiterModel(focus=6)
    board = model.board(0)
    assert board is not None and board.stones == () and "no state" in board.note
    assert board.clock is None and board.forbidden == ()
    state = replace(sample_clock_state(), table=6, moves=tuple(parse_points("h8 h9")), offers=(3,))
    model.apply(topics.table_state(V, 6), state, 0)
    waiting = replace(referee(6, 5), pending_stone=40, infractions_second=2)
    model.apply(topics.arbiter_state(V, 6), waiting, 0)
    board = model.board(0)
    assert board is not None and board.pending == 40 and board.offers == (3,)
    assert board.infractions == (0, 2) and board.note == ""


def test_forbidden_points_are_cached_by_position() -> None:
    model = ArbiterModel()
    first = model.forbidden(SAMPLE_GAME)
    assert model.forbidden(SAMPLE_GAME) is first
    for n in range(100):  # the cache stays bounded
        model.forbidden((n,))
    assert len(model._forbidden) <= 64


def test_next_change_is_the_focused_clock_or_a_clock_turning_stale() -> None:
    model = ArbiterModel(focus=3, stale_after_ms=600_000)
    assert model.next_change_ms(0) == NEVER_MS
    state = replace(sample_clock_state(), black_ms=65_400)
    model.apply(topics.table_state(V, 3), state, 0)
    assert model.next_change_ms(0) == 400  # 1:06 -> 1:05
    model.focus = None
    assert model.next_change_ms(0) == 65_400 + 5_000  # the flag falls unreported
    model.apply(topics.table_state(V, 3), replace(state, black_ms=10**8, seq=60), 0)
    assert model.next_change_ms(0) == 600_000  # turns stale
    # While alerts are shown, their ages (in minutes) are due every minute.
    model.apply(topics.arbiter_alerts(V, 3), event(3, 7), 10_000)
    assert model.next_change_ms(20_000) == 50_000


def test_a_referee_state_cleared_drops_its_alerts() -> None:
    model = ArbiterModel()
    model.apply(topics.arbiter_state(V, 4), referee(4, 3, alert("a1")), 0)
    assert model.alerts(0)
    topic = topics.arbiter_state(V, 4)
    assert model.apply(topic, Cleared(topic), 0)
    assert model.alerts(0) == ()


def test_bad_thresholds_are_refused() -> None:
    with pytest.raises(ValueError, match="stale_after_ms"):
        ArbiterModel(stale_after_ms=0)


def test_every_alert_reason_has_a_label_and_a_tier() -> None:
    """A new reason of the table's vocabulary (`AlertReason`) reaches referees named and
    in its place, not as a bare word filed with the infractions."""
    for reason in AlertReason:
        assert reason.value in REASON_LABELS, reason
        assert reason.value in TIERS, reason
