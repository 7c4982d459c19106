"""The web page's model (pure): public states and the competition in, JSON views and
records out; nothing but the public feed accepted; clocks counted from receipt."""

from __future__ import annotations

import pytest

from support.public_feed import live_state
from wuzi.bus import topics
from wuzi.bus.schemas import (
    Cleared,
    CompetitionState,
    MatchSummary,
    StandingLine,
    TableEvent,
)
from wuzi.display.web_model import WebModel, WebModelError
from wuzi.rules import formats

V = "hall"


def competition() -> CompetitionState:
    match = MatchSummary("places 1-2", "上海", "北京", 1.0, 0.5, (1, 2, 3), "playing", None)
    return CompetitionState(
        event="全国团体赛 Team final",
        format="team-knockout-placement",
        round=4,
        rounds=4,
        matches=(match,),
        standings=(
            StandingLine(1, 1, "上海", 3.0, (2.5,)),
            StandingLine(2, 3, "北京", 2.0, (1.0,)),
        ),
        tiebreak_names=("buchholz",),
        tiebreak_formulas=("sum of the opponents' points",),
        bracket=(),
        finished=False,
        at_ms=1,
    )


def test_a_public_state_becomes_a_card_with_its_match_and_clocks() -> None:
    model = WebModel(V)
    model.apply(topics.competition_state(V), competition(), 0)
    state = live_state(2, (112, 113, 127), black_ms=90_000, white_ms=80_000, board=2)
    assert model.apply(topics.public_state(V, 2), state, 1_000) == [("table", "2")]
    view = model.table_view(2, 3_500)
    assert view is not None
    assert view["title"] == "2 · 第2台 Board 2"
    assert view["match"]["first"] == "上海" and view["match"]["first_score"] == "1"
    assert view["match"]["second_score"] == "0.5"
    assert view["running"] == "white"
    assert (view["black_ms"], view["white_ms"]) == (90_000, 77_500)  # White's clock ran 2.5 s
    assert view["last"] == 127 and view["moves"] == [112, 113, 127]
    assert model.apply(topics.public_state(V, 2), state, 2_000) == []  # a repeat
    snap = model.snapshot(3_500)
    assert [t["table"] for t in snap["tables"]] == [2]
    assert snap["competition"]["standings"][1]["place"] == "2-3"
    assert snap["competition"]["tiebreaks"] == ["BH 布氏"]


@pytest.mark.parametrize(
    "topic",
    [topics.table_state(V, 2), topics.arbiter_state(V, 2), topics.host_status(V, "pi-1")],
)
def test_the_live_tree_and_the_referees_topics_are_refused(topic: str) -> None:
    with pytest.raises(WebModelError, match="public feed"):
        WebModel(V).apply(topic, live_state(2), 0)


def test_another_venue_is_refused() -> None:
    with pytest.raises(WebModelError, match="venue"):
        WebModel(V).apply(topics.public_state("other", 2), live_state(2), 0)


def test_a_finished_game_keeps_its_page_and_record_after_the_next_game() -> None:
    model = WebModel(V)
    done = live_state(4, (112, 113, 127, 128, 142), status="finished", result="1-0")
    model.apply(topics.public_state(V, 4), done, 0)
    result = TableEvent("pi-1/4/g-1/6", 4, "g-1", 6, "result", 1, {"reason": "five"})
    model.apply(topics.public_events(V, 4), result, 0)
    model.apply(topics.public_state(V, 4), live_state(4, (), game_id="g-2"), 10)
    view = model.game_view("g-1", 20)
    assert view is not None and view["result"] == "1-0" and view["reason"] == "five"
    assert view["names"] == ["h8", "i8", "h9", "i9", "h10"]
    record = model.record("g-1")
    assert record is not None
    sgf = formats.export(record, "sgf")
    assert isinstance(sgf, str)
    assert "PB[王伟]" in sgf and "RE[B+]" in sgf and ";B[hh]" in sgf
    assert formats.load(sgf, "sgf").points == (112, 113, 127, 128, 142)
    psq = formats.export(record, "psq")
    assert isinstance(psq, str) and psq.splitlines()[1] == "8,8,0"
    assert [g["game_id"] for g in model.games()] == ["g-2", "g-1"]
    assert model.record("nope") is None


def test_the_page_never_goes_back_to_an_older_state() -> None:
    """Same game: by ``seq`` (an older copy stamped later is still older); another game:
    by the host's time (the game before, served late by a restored broker)."""
    model = WebModel(V)
    topic = topics.public_state(V, 4)
    paused = live_state(4, (112, 113), seq=16, status="paused", at_ms=5_000)
    assert model.apply(topic, paused, 0) == [("table", "4")]
    assert model.apply(topic, live_state(4, (112,), seq=14, at_ms=9_000), 1) == []
    before = live_state(4, (1, 2, 3), game_id="g-0", at_ms=4_000)
    assert model.apply(topic, before, 2) == []
    view = model.table_view(4, 3)
    assert view is not None and view["status"] == paused.status
    nxt = live_state(4, (), game_id="g-2", at_ms=6_000)
    assert model.apply(topic, nxt, 4) == [("table", "4")]
    assert model.apply(topic, paused, 5) == []


def test_a_cleared_state_removes_the_table() -> None:
    model = WebModel(V)
    model.apply(topics.public_state(V, 4), live_state(4), 0)
    assert model.apply(topics.public_state(V, 4), Cleared(topics.public_state(V, 4)), 1) == [
        ("table", "4")
    ]
    assert model.table_view(4, 2) is None
