"""The scoreboard's view model, without a window: messages in, cards and pages out."""

from __future__ import annotations

from dataclasses import replace

import pytest

from wuzi.bus import topics
from wuzi.bus.schemas import (
    Assignment,
    BracketMatch,
    Cleared,
    CompetitionState,
    HostStatus,
    MatchSummary,
    OpenAlert,
    RefereeState,
    StandingLine,
    TableState,
)
from wuzi.display.sample import SAMPLE_VENUE, sample_messages
from wuzi.display.scoreboard_model import (
    FLAG_GRACE_MS,
    LABELS,
    Pager,
    VenueModel,
    bracket_columns,
    build_pages,
    format_score,
    place_blocks,
    standing_rows,
)
from wuzi.display.timefmt import NEVER_MS

V = "hall"


def state(table: int = 1, **changes: object) -> TableState:
    base = TableState(
        table=table,
        game_id=f"g{table}",
        seq=3,
        status="playing",
        moves=(112, 113, 97),
        black_ms=600_000,
        white_ms=300_000,
        running="white",
        result=None,
        at_ms=1_000_000,
        black="张伟",
        white="Ana Novak",
        board=None,
        game_in_match=1,
    )
    return replace(base, **changes)  # type: ignore[arg-type]


def host(
    name: str,
    tables: tuple[int, ...],
    *,
    online: bool = True,
    at_ms: int = 1,
    down: tuple[int, ...] = (),
) -> HostStatus:
    return HostStatus(name, online, tables, f"boot-{name}", at_ms, down)


def competition(**changes: object) -> CompetitionState:
    base = CompetitionState(
        event="Open",
        format="swiss",
        round=2,
        rounds=7,
        matches=(MatchSummary("places 1-2", "上海", "北京", 1.5, 0.5, (1, 2), "playing", None),),
        standings=(),
        tiebreak_names=(),
        tiebreak_formulas=(),
        bracket=(),
        finished=False,
        at_ms=5,
    )
    return replace(base, **changes)  # type: ignore[arg-type]


def model_with(*messages: tuple[str, object], at: int = 0) -> VenueModel:
    model = VenueModel()
    for topic, message in messages:
        model.apply(topic, message, at)  # type: ignore[arg-type]
    return model


def test_a_table_state_makes_a_card() -> None:
    model = model_with((topics.table_state(V, 4), state(4)))
    card = model.card(4, now_ms=0)
    assert model.venue == V
    assert model.tables() == [4]
    assert card.black_stones == (112, 97)  # Black played first: even indices
    assert card.white_stones == (113,)
    assert card.last_move == 97
    assert (card.black, card.white) == ("张伟", "Ana Novak")
    assert card.black_clock is not None and card.white_clock is not None
    assert (card.black_clock.text, card.black_clock.running) == ("10:00", False)
    assert (card.white_clock.text, card.white_clock.running) == ("5:00", True)
    assert card.status == ""
    assert not card.stale


def test_running_clock_counts_from_the_local_receive_time() -> None:
    # The host's at_ms is far from the screen's clock (skew): only the receive time counts.
    model = VenueModel()
    model.apply(topics.table_state(V, 1), state(at_ms=9_999_999_999), received_ms=50_000)
    assert model.card(1, 50_000).white_clock.text == "5:00"  # type: ignore[union-attr]
    assert model.card(1, 51_000).white_clock.text == "4:59"  # type: ignore[union-attr]
    assert model.card(1, 50_000 + 291_000).white_clock.text == "9.0"  # type: ignore[union-attr]
    assert model.card(1, 51_000).black_clock.text == "10:00"  # type: ignore[union-attr]


def test_paused_and_finished_clocks_stand_still() -> None:
    model = VenueModel()
    model.apply(topics.table_state(V, 1), state(status="paused"), 0)
    card = model.card(1, 100_000)
    assert card.white_clock is not None and card.white_clock.text == "5:00"
    assert not card.white_clock.running
    assert card.status == LABELS["paused"]
    assert model.next_change_ms([1], 0) == NEVER_MS
    model.apply(
        topics.table_state(V, 1),
        state(status="finished", running=None, result="0-1", at_ms=2_000_000),
        0,
    )
    assert model.card(1, 0).status == LABELS["white_wins"]


def test_older_states_and_repeats_are_ignored() -> None:
    model = VenueModel()
    topic = topics.table_state(V, 1)
    assert model.apply(topic, state(at_ms=2_000, moves=(112, 113)), 100)
    assert not model.apply(topic, state(at_ms=1_000, moves=(112,)), 200)  # late and older
    assert model.card(1, 100).black_stones == (112,)
    assert model.card(1, 100).white_stones == (113,)
    assert not model.apply(topic, state(at_ms=2_000, moves=(112, 113)), 5_000)  # a repeat
    # the repeat did not move the clock's base: 1 s after the first receive it shows 4:59
    assert model.card(1, 1_100).white_clock.text == "4:59"  # type: ignore[union-attr]


def test_the_hall_never_goes_back_to_an_older_state() -> None:
    """The issue's broker restored from an old database: ``playing seq 14`` comes after
    ``paused seq 16`` of the same game (stamped later, even), and the game before comes
    after the next one; both are refused, on the live and the public topic alike."""
    for topic in (topics.table_state(V, 1), topics.public_state(V, 1)):
        model = VenueModel()
        paused = state(seq=16, status="paused", running=None, at_ms=5_000)
        assert model.apply(topic, paused, 100)
        assert not model.apply(topic, state(seq=14, at_ms=9_000), 200)
        assert model.state(1) == paused
        assert model.card(1, 300).status != ""  # still shown paused
        nxt = state(game_id="g9", seq=0, status="idle", moves=(), running=None, at_ms=6_000)
        assert model.apply(topic, nxt, 300)
        assert not model.apply(topic, paused, 400)  # the game before, late
        assert model.state(1) == nxt


def test_cleared_state_removes_the_game() -> None:
    topic = topics.table_state(V, 1)
    model = model_with((topic, state()))
    assert model.apply(topic, Cleared(topic), 0)
    card = model.card(1, 0)
    assert card.black_clock is None and card.black_stones == ()
    assert card.status == LABELS["idle"]


def test_other_venues_and_referee_topics_change_nothing() -> None:
    model = model_with((topics.table_state(V, 1), state()))
    version = model.version
    assert not model.apply(topics.table_state("other", 1), state(moves=()), 0)
    referee = RefereeState(
        1, "g1", 9, "playing", (OpenAlert("e1", "forbidden", "x", (96,), "first"),), 0, 96, 0, 0, 5
    )
    assert not model.apply(topics.arbiter_state(V, 1), referee, 0)
    assert model.version == version
    assert model.card(1, 0).black_stones == (112, 97)


def test_assignment_names_before_the_game() -> None:
    assignment = Assignment(
        3, "g3", "李明", "王芳", "renju", "swap2", {}, "2700+30", 2, 1, False, 0
    )
    model = model_with((topics.assignment(V, 3), assignment))
    card = model.card(3, 0)
    assert (card.black, card.white) == ("李明", "王芳")
    assert card.black_clock is None
    assert card.status == LABELS["waiting"]
    assert "Board 2" in card.title


def test_match_score_and_board_from_the_competition() -> None:
    model = model_with(
        (topics.table_state(V, 2), state(2)), (topics.competition_state(V), competition())
    )
    card = model.card(2, 0)
    assert card.match == "上海 1.5 : 0.5 北京"
    assert card.match_label == "places 1-2"
    assert card.title == "2 · " + LABELS["board"].format(n=2)  # second table of the match
    assert model.tables() == [1, 2]  # table 1 is known from the match


def test_stale_when_the_host_is_offline_or_the_link_down() -> None:
    model = model_with((topics.table_state(V, 1), state()), (topics.table_state(V, 2), state(2)))
    model.apply(topics.host_status(V, "pi-1"), host("pi-1", (1, 2), down=(2,)), 0)
    assert not model.is_stale(1, 0)
    assert model.is_stale(2, 0)
    assert model.card(2, 0).stale
    model.apply(topics.host_status(V, "pi-1"), host("pi-1", (1, 2), online=False, at_ms=0), 0)
    assert model.is_stale(1, 0) and model.is_stale(2, 0)  # the last will
    model.apply(topics.host_status(V, "pi-1"), host("pi-1", (1, 2), at_ms=5), 0)
    assert not model.is_stale(1, 0)
    model.apply(topics.host_status(V, "pi-1"), Cleared(topics.host_status(V, "pi-1")), 0)
    assert model.host_of(1) is None


def test_the_newest_host_status_owns_a_table() -> None:
    model = model_with((topics.table_state(V, 1), state()))
    model.apply(topics.host_status(V, "old"), host("old", (1,), online=False, at_ms=10), 0)
    model.apply(topics.host_status(V, "new"), host("new", (1,), at_ms=20), 0)
    assert model.host_of(1) == "new"
    assert not model.is_stale(1, 0)


def test_stale_when_a_running_clock_has_no_news() -> None:
    model = VenueModel(stale_after_ms=60_000)
    model.apply(topics.table_state(V, 1), state(white_ms=300_000), 1_000)
    assert not model.is_stale(1, 60_999)
    assert model.is_stale(1, 61_000)
    # the stale moment is a visible change the screen wakes up for
    assert model.next_change_ms([1], 60_500) == 61_000


def test_stale_once_the_running_time_is_gone_with_no_flag_news() -> None:
    model = VenueModel()
    model.apply(topics.table_state(V, 1), state(white_ms=2_000), 0)
    assert model.card(1, 2_000).white_clock.flagged  # type: ignore[union-attr]
    assert not model.is_stale(1, 2_000 + FLAG_GRACE_MS - 1)
    assert model.is_stale(1, 2_000 + FLAG_GRACE_MS)


def test_a_stopped_table_never_goes_stale_by_silence() -> None:
    model = VenueModel(stale_after_ms=1_000)
    model.apply(topics.table_state(V, 1), state(status="paused", running=None), 0)
    assert not model.is_stale(1, 10**9)


def test_next_change_is_the_earliest_face_roll() -> None:
    model = VenueModel()
    model.apply(topics.table_state(V, 1), state(white_ms=300_400), 0)  # shows 5:01
    model.apply(topics.table_state(V, 2), state(2, running="black", black_ms=9_950), 0)
    assert model.next_change_ms([1], 0) == 400
    assert model.next_change_ms([1, 2], 0) == 50  # tenths under 10 s
    assert model.next_change_ms([], 0) == NEVER_MS


def test_pages_tables_bracket_standings() -> None:
    model = VenueModel()
    for topic, message in sample_messages():
        model.apply(topic, message, 0)
    assert model.venue == SAMPLE_VENUE
    pages = build_pages(model, tables_per_page=24, standings_rows=10)
    assert [(p.kind, p.number, p.of) for p in pages] == [
        ("tables", 1, 1),
        ("bracket", 1, 1),
        ("standings", 1, 2),
        ("standings", 2, 2),
    ]
    assert pages[0].tables == tuple(range(1, 25))
    assert pages[2].rows == (0, 10) and pages[3].rows == (10, 16)
    small = build_pages(model, tables_per_page=10, standings_rows=50)
    assert [p.tables for p in small if p.kind == "tables"] == [
        tuple(range(1, 11)),
        tuple(range(11, 21)),
        tuple(range(21, 25)),
    ]
    assert build_pages(model, tables_per_page=24, standings_rows=10, focus=7)[0].tables == (7,)


def test_empty_venue_has_one_empty_tables_page() -> None:
    pages = build_pages(VenueModel(), tables_per_page=24, standings_rows=10)
    assert [(p.kind, p.tables) for p in pages] == [("tables", ())]


def test_pager_turns_on_time_and_by_hand() -> None:
    pager = Pager(page_ms=15_000, start_ms=1_000)
    assert [pager.index(3, t) for t in (1_000, 15_999, 16_000, 31_000, 46_000)] == [0, 0, 1, 2, 0]
    assert pager.next_turn_ms(16_500) == 31_000
    pager.step(1)
    assert pager.index(3, 1_000) == 1
    held = Pager(page_ms=0, start_ms=0)
    assert held.index(3, 10**9) == 0 and held.next_turn_ms(5) == 5 + NEVER_MS


def test_bracket_columns_every_place_in_order() -> None:
    bracket = (
        BracketMatch(2, "9-16", "C", "D", 2, 1, "C"),
        BracketMatch(2, "1-8", "A", "B", 1, 2, "B"),
        BracketMatch(1, "1-16", "A", "", 1, 0, "A"),
    )
    columns = bracket_columns(bracket)
    assert [n for n, _ in columns] == [1, 2]
    bye = columns[0][1][0]
    assert (bye.second, bye.second_score, bye.winner) == ("—", "", 1)
    second_round = columns[1][1]
    assert [b.places for b in second_round] == [
        LABELS["places"].format(p="1-8"),
        LABELS["places"].format(p="9-16"),
    ]
    assert second_round[0].winner == 2


def test_standing_rows_shared_places_and_tiebreaks() -> None:
    lines = (
        StandingLine(1, 1, "上海", 5.0, (12.5, 3.0)),
        StandingLine(2, 3, "北京", 4.5, (11.0, -1.0)),
        StandingLine(2, 3, "浙江", 4.5, (11.0, -1.0)),
    )
    rows = standing_rows(lines, 1, 3)
    assert [(r.place, r.entrant, r.points, r.tiebreaks) for r in rows] == [
        ("2-3", "北京", "4.5", ("11", "-1")),
        ("2-3", "浙江", "4.5", ("11", "-1")),
    ]


@pytest.mark.parametrize(
    ("value", "text"),
    [(0, "0"), (3, "3"), (2.5, "2.5"), (0.5, "0.5"), (1.25, "1.25"), (1 / 3, "0.33")],
)
def test_format_score(value: float, text: str) -> None:
    assert format_score(value) == text


def test_the_sample_venue() -> None:
    model = VenueModel()
    for topic, message in sample_messages():
        model.apply(topic, message, 0)
    assert model.tables() == list(range(1, 25))
    cards = [model.card(n, 0) for n in model.tables()]
    assert sum(1 for c in cards if c.stale) == 2  # table 7 (link down) and 24 (host gone)
    assert {c.table for c in cards if c.stale} == {7, 24}
    assert model.card(13, 0).white_clock.text == "8.4"  # type: ignore[union-attr]
    assert all(any("\u4e00" <= ch <= "\u9fff" for ch in c.black) for c in cards)
    assert model.competition is not None and len(model.competition.bracket) == 32


def test_shows_tenths_only_for_a_running_clock_under_ten_seconds() -> None:
    model = VenueModel()
    model.apply(topics.table_state(V, 1), state(white_ms=10_500), 0)
    model.apply(topics.table_state(V, 2), state(2, status="paused", white_ms=5_000), 0)
    assert not model.shows_tenths([1, 2], 0)
    assert model.shows_tenths([1], 500)
    assert not model.shows_tenths([1], 10_500)  # time gone: 0.0 does not tick


EIGHT = ("甲", "乙", "丙", "丁", "戊", "己", "庚", "辛")


def lines(places: dict[str, tuple[int, int]]) -> tuple[StandingLine, ...]:
    return tuple(StandingLine(lo, hi, name, 0.0, ()) for name, (lo, hi) in places.items())


def test_the_places_fill_round_by_round_in_the_bracket_of_places() -> None:
    """An 8-team placement knockout: one block of eight while round 1 is played, the
    pairs that decide it side by side with their scores; two blocks of four after it,
    the winners (bound for the upper half) first; eight places at the end."""
    round1 = tuple(
        BracketMatch(1, "1-8", EIGHT[2 * k], EIGHT[2 * k + 1], 1.0, 0.0, None) for k in range(4)
    )
    [block] = place_blocks(lines(dict.fromkeys(EIGHT, (1, 8))), round1)
    assert (block.low, block.high, block.decided) == (1, 8, False)
    assert block.label == LABELS["places"].format(p="1-8")
    assert [(r.place, r.entrant, r.score, r.mark) for r in block.rows[:2]] == [
        (1, "甲", "1", 0),
        (2, "乙", "0", 0),
    ]
    assert block.entrants == EIGHT
    decided = tuple(replace(m, winner=m.second, first_score=1.0, second_score=3.0) for m in round1)
    after = {name: ((5, 8) if k % 2 == 0 else (1, 4)) for k, name in enumerate(EIGHT)}
    round2 = (BracketMatch(2, "1-4", "乙", "丁", 2.0, 2.0, None),)
    top, bottom = place_blocks(lines(after), decided + round2)
    assert (top.low, top.high, top.entrants[:2]) == (1, 4, ("乙", "丁"))
    assert [r.score for r in top.rows[:2]] == ["2", "2"]  # the match now deciding 1-4
    assert top.entrants[2:] == ("己", "辛")  # not paired yet: the standings' order
    assert (bottom.low, bottom.high) == (5, 8)
    assert all(r.score == "" for r in bottom.rows)  # round 1's match decided other places
    won = (BracketMatch(2, "5-8", "甲", "丙", 1.0, 5.0, "丙"),)
    bottom = place_blocks(lines(after), decided + won)[1]
    assert [(r.place, r.entrant, r.mark) for r in bottom.rows[:2]] == [
        (5, "丙", 1),
        (6, "甲", 2),
    ]  # the winner first
    final = {name: (k + 1, k + 1) for k, name in enumerate(EIGHT)}
    blocks = place_blocks(lines(final), decided + round2)
    assert [b.entrants for b in blocks] == [(n,) for n in EIGHT]
    assert all(b.decided and b.rows[0].score == "" for b in blocks)
    assert blocks[2].label == LABELS["one_place"].format(p=3)


def test_a_knockout_has_its_places_page_with_a_row_per_place() -> None:
    model = VenueModel()
    for topic, message in sample_messages():
        model.apply(topic, message, 0)
    competition = model.competition
    assert competition is not None and competition.bracket
    pages = build_pages(model, tables_per_page=24, standings_rows=10)
    spans = [p.rows for p in pages if p.kind == "standings"]
    assert spans == [(0, 10), (10, 16)]
    blocks = place_blocks(competition.standings, competition.bracket)
    assert sum(len(b.rows) for b in blocks) == len(competition.standings) == 16
