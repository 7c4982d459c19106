"""The clock display in a hall of several events (issue 35): its title names the event of
the table's game; a one-event venue's title is unchanged."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from wuzi.bus import topics
from wuzi.bus.schemas import Cleared, CompetitionState
from wuzi.cli import main
from wuzi.display.clock_model import ClockModel, event_name
from wuzi.display.clock_sample import sample_assignment, sample_clock_state
from wuzi.display.sample import state_json
from wuzi.display.sample_hall import HALL_VENUE, sample_hall_messages
from wuzi.display.snapshot import load_png

V = HALL_VENUE


def summary(event: str) -> CompetitionState:
    found = next(m for t, m in sample_hall_messages() if t.endswith(f"/{event}/state"))
    assert isinstance(found, CompetitionState)
    return found


def test_the_title_names_the_event_from_its_competition() -> None:
    model = ClockModel(3)
    model.apply(topics.table_state(V, 3), replace(sample_clock_state(), event_id="men"), 0)
    assert model.face(0).title == "第 3 桌 Table 3 · men"  # nothing names it yet: its id
    assert model.apply(topics.competition_state(V, "men"), summary("men"), 0)
    assert model.face(0).title == "第 3 桌 Table 3 · 男子组 Men's group"
    # another event's summary changes nothing shown here but is kept
    model.apply(topics.competition_state(V, "women"), summary("women"), 0)
    assert model.face(0).title == "第 3 桌 Table 3 · 男子组 Men's group"
    gone = topics.competition_state(V, "men")
    assert model.apply(gone, Cleared(gone), 0)
    assert model.face(0).title == "第 3 桌 Table 3 · men"


def test_the_title_names_the_event_from_the_assignment() -> None:
    model = ClockModel(3)
    a = replace(sample_assignment(), event_id="open", event="公开组")
    model.apply(topics.assignment(V, 3), a, 0)
    model.apply(topics.table_state(V, 3), replace(sample_clock_state(), event_id="open"), 0)
    assert model.face(0).title.endswith("· 公开组")
    # an assignment of another event never names this game's
    assert event_name("men", {}, a) == "men"
    assert event_name("", {"": "Open"}, a) == ""


def test_a_one_event_venue_title_is_unchanged() -> None:
    model = ClockModel(3)
    model.apply(topics.assignment(V, 3), replace(sample_assignment(), event="Open 2026"), 0)
    model.apply(topics.table_state(V, 3), sample_clock_state(), 0)
    model.apply(topics.competition_state(V), summary("men"), 0)
    assert model.face(0).title == "第 3 桌 Table 3"


def test_snapshot_of_a_table_of_the_hall(tmp_path: Path) -> None:
    state = tmp_path / "hall.json"
    state.write_text(state_json(sample_hall_messages()), encoding="utf-8")
    out = tmp_path / "clock.png"
    args = ["clock-display", "--state", str(state), "--table", "10", "--snapshot", str(out)]
    assert main([*args, "--size", "800x480"]) == 0
    frame = load_png(out)
    assert (frame.width, frame.height) == (800, 480)
