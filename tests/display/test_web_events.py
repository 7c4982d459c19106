"""The web page's model and hub in a hall of several events (issue 35): one summary per
event, each table's view naming its event, the events listed for the page (each with its
standings), records under their own event and rules; a one-event venue unchanged."""

from __future__ import annotations

from dataclasses import replace

from support.public_feed import live_state
from wuzi.bus import topics
from wuzi.bus.schemas import Cleared, CompetitionState, MatchSummary, StandingLine
from wuzi.display.web_model import WebModel
from wuzi.display.web_server import Hub

V = "hall"


def summary(event: str, name: str, table: int) -> CompetitionState:
    return CompetitionState(
        event=name,
        format="swiss",
        round=5,
        rounds=7,
        matches=(MatchSummary("board 1", "甲", "乙", 0.0, 0.0, (table,), "playing", None),),
        standings=(StandingLine(1, 1, f"{event}-leader", 4.0, (11.0,)),),
        tiebreak_names=("buchholz",),
        tiebreak_formulas=("buchholz",),
        bracket=(),
        finished=False,
        at_ms=1,
        event_id=event,
    )


def hall() -> WebModel:
    model = WebModel(V)
    model.apply(topics.competition_state(V, "open"), summary("open", "公开组", 13), 0)
    model.apply(topics.competition_state(V, "men"), summary("men", "男子组", 1), 0)
    men = replace(live_state(1, (112, 113), game_id="m1", black="甲", white="乙"), event_id="men")
    open_ = replace(live_state(13, (112,), game_id="o13"), event_id="open")
    model.apply(topics.public_state(V, 1), men, 0)
    model.apply(topics.public_state(V, 13), open_, 0)
    return model


def test_each_event_its_summary_and_the_tables_their_event() -> None:
    model = hall()
    assert model.events() == ["men", "open"]  # by their first table, not by arrival
    assert model.competition is None  # several: no one summary for the whole page
    card = model.table_view(13, 0)
    assert card is not None
    assert (card["event"], card["event_name"]) == ("open", "公开组")
    assert card["match"] is not None and card["match"]["tables"] == [13]
    snap = model.snapshot(0)
    assert snap["competition"] is None
    listed = {e["id"]: e for e in snap["events"]}
    assert listed["men"]["name"] == "男子组" and listed["men"]["tables"] == [1]
    assert listed["open"]["competition"]["standings"][0]["entrant"] == "open-leader"
    assert listed["open"]["competition"]["id"] == "open"
    assert {g["game_id"]: g["event"] for g in model.games()} == {"m1": "men", "o13": "open"}
    game = model.game_view("m1", 0)
    assert game is not None and (game["event"], game["event_id"]) == ("男子组", "men")
    record = model.record("m1")
    assert record is not None and record.event == "男子组"
    gone = topics.competition_state(V, "open")
    assert model.apply(gone, Cleared(gone), 0) == [("competition", "open")]
    assert model.event_name("open") == "open"  # its tables still name it


def test_a_one_event_venue_as_before() -> None:
    model = WebModel(V)
    model.apply(topics.competition_state(V), replace(summary("", "Open", 1), event_id=""), 0)
    model.apply(topics.public_state(V, 1), live_state(1, (112,)), 0)
    snap = model.snapshot(0)
    assert snap["events"] == [] and snap["competition"]["event"] == "Open"
    card = model.table_view(1, 0)
    assert card is not None and card["event"] == "" and card["match"] is not None


def test_the_hub_pushes_the_events_and_records_by_their_events_rules() -> None:
    model = WebModel(V)
    hub = Hub(model, {"ruleset": "renju", "rulesets": {"open": "freestyle"}}, clock=lambda: 0)
    stream = hub.subscribe()
    hub.apply(topics.competition_state(V, "men"), summary("men", "男子组", 1))
    hub.apply(topics.competition_state(V, "open"), summary("open", "公开组", 13))
    frames = []
    while not stream.empty():
        frames.append(stream.get_nowait())
    names = [f.split("\n", 1)[0] for f in frames]
    assert names[:2] == ["event: meta", "event: snapshot"]
    assert names[-1] == "event: events"  # the second event made it a hall of several
    assert "公开组" in frames[-1] and "男子组" in frames[-1]
    open_ = replace(live_state(13, (112, 113), game_id="o13"), event_id="open")
    hub.apply(topics.public_state(V, 13), open_)
    men = replace(live_state(1, (112, 113), game_id="m1"), event_id="men")
    hub.apply(topics.public_state(V, 1), men)
    free, strict = hub.record("o13", "sgf") or "", hub.record("m1", "sgf") or ""
    assert "RU[freestyle]" in free and "EV[公开组]" in free  # the open group rules, its name
    assert "RU[renju]" in strict  # an event without rules of its own: the venue's
