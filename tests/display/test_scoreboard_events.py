"""The scoreboard in a hall of several events (issue 35): a competition per event, each
event's pages in turn under its name, ``--event`` keeping to one; and the three groups of
the 2019 open drawn for real, their pixels checked. A one-event venue is unchanged (the
other scoreboard tests)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from wuzi.bus import topics
from wuzi.bus.schemas import Assignment, Cleared, CompetitionState, TableState
from wuzi.cli import main
from wuzi.display.sample import sample_messages
from wuzi.display.sample_hall import HALL_EVENTS, HALL_VENUE, sample_hall_messages
from wuzi.display.scoreboard_app import ScoreboardApp
from wuzi.display.scoreboard_card import fitted_grid
from wuzi.display.scoreboard_model import (
    LABELS,
    Page,
    Pager,
    VenueModel,
    build_pages,
    event_columns,
    table_ranges,
)
from wuzi.display.scoreboard_render import COLOURS, ScoreboardRenderer
from wuzi.display.snapshot import Frame, load_png, offscreen_window, render_to_png

V = HALL_VENUE


def hall_model() -> VenueModel:
    model = VenueModel()
    for topic, message in sample_hall_messages():
        model.apply(topic, message, 0)
    return model


def pages_of(model: VenueModel, **kw: Any) -> list[Page]:
    return build_pages(model, tables_per_page=24, standings_rows=20, **kw)


# the model


def test_one_competition_per_event() -> None:
    model = hall_model()
    assert set(model.competitions) == {"men", "women", "open"}
    assert model.competition is None  # several: none is "the" competition
    men = model.competition_of("men")
    assert men is not None and men.event == "男子组 Men's group"
    assert model.events() == ["men", "women", "open"]  # by their first table
    assert model.tables("women") == [9, 10, 11, 12]
    assert model.tables("open") == list(range(13, 21))
    assert model.event_name("women") == "女子组 Women's group"
    # the match on a card is its own event's, never another event's with the same table
    match = model.match_of(9)
    assert match is not None
    women = model.competition_of("women")
    assert women is not None and match in women.matches
    # a retained summary deleted: that event's only
    gone = topics.competition_state(V, "women")
    model.apply(gone, Cleared(gone), 0)
    assert set(model.competitions) == {"men", "open"}
    assert model.event_name("women") == "女子组 Women's group"  # still known by its tables


def test_each_events_pages_in_turn_under_its_name() -> None:
    pages = pages_of(hall_model())
    assert [(p.event, p.kind) for p in pages] == [
        (None, "events"),  # every event at a glance first
        ("men", "tables"),
        ("men", "standings"),
        ("women", "tables"),
        ("women", "standings"),
        ("open", "tables"),
        ("open", "standings"),
    ]
    assert {(p.event_number, p.events) for p in pages if p.event == "women"} == {(2, 3)}
    assert pages[3].tables == (9, 10, 11, 12)
    # --event: that event's pages only, not numbered among others
    women = pages_of(hall_model(), event="women")
    assert [(p.event, p.kind, p.events) for p in women] == [
        ("women", "tables", 0),
        ("women", "standings", 0),
    ]
    assert pages_of(hall_model(), event="nobody") == [
        Page("tables", 1, 1, tables=(), event="nobody")
    ]


def test_a_table_knows_its_event_from_its_state_its_assignment_or_its_match() -> None:
    model = VenueModel()
    state = TableState(3, "g3", 1, "playing", (112,), 1000, 1000, "white", None, 5, event_id="men")
    model.apply(topics.table_state(V, 3), state, 0)
    a = Assignment(4, "g4", "甲", "乙", "renju", "free", {}, "60", None, 1, False, 1)
    model.apply(topics.assignment(V, 4), replace(a, event_id="women", event="女子组"), 0)
    summary = next(m for t, m in sample_hall_messages() if t.endswith("/open/state"))
    assert isinstance(summary, CompetitionState)
    model.apply(topics.competition_state(V, "open"), summary, 0)
    assert model.event_of_table(3) == "men"
    assert model.event_of_table(4) == "women"
    assert model.event_of_table(13) == "open"  # named by its event's matches only
    assert model.event_name("women") == "女子组"  # the assignment's name: no summary yet
    assert model.event_name("men") == "men"  # nothing but the id
    # a table of no event in a hall of several: a page of its own after the events
    model.apply(topics.table_state(V, 30), replace(state, table=30, event_id=""), 0)
    pages = pages_of(model)
    assert pages[-1].event == "" and pages[-1].tables == (30,)


def test_the_overview_names_every_event_its_round_its_tables_and_leaders() -> None:
    model = hall_model()
    columns = event_columns(model, leaders=3)
    assert [c.name for c in columns] == [e.name for e in HALL_EVENTS]
    men, women, open_ = columns
    assert men.round == LABELS["round_of"].format(n=5, m=7)
    assert (men.tables, women.tables, open_.tables) == (
        LABELS["event_tables"].format(t="1-8"),
        LABELS["event_tables"].format(t="9-12"),
        LABELS["event_tables"].format(t="13-20"),
    )
    assert women.play == LABELS["event_play"].format(p=3, f=1)
    summary = model.competition_of("women")
    assert summary is not None
    assert [r.entrant for r in women.leaders] == [s.entrant for s in summary.standings[:3]]
    assert table_ranges([20, 1, 2, 3, 5, 6, 9]) == "1-3, 5-6, 9, 20"
    assert table_ranges([]) == ""


def test_a_venue_file_of_one_event_has_no_overview() -> None:
    model = VenueModel()
    for topic, message in sample_hall_messages():
        if getattr(message, "event_id", "") == "men":  # no host status: only the men's
            model.apply(topic, message, 0)
    pages = pages_of(model)
    assert model.events() == ["men"]
    assert [(p.kind, p.event, p.events) for p in pages] == [
        ("tables", "men", 1),
        ("standings", "men", 1),
    ]


def test_a_one_event_venue_pages_as_before() -> None:
    model = VenueModel()
    for topic, message in sample_messages():
        model.apply(topic, message, 0)
    pages = pages_of(model)
    assert model.events() == [] and model.competition is not None
    assert all(p.event is None and p.events == 0 for p in pages)
    assert [p.kind for p in pages] == ["tables", "bracket", "standings"]


def test_an_event_with_standings_and_no_tables_yet_shows_its_standings() -> None:
    summary = next(m for t, m in sample_hall_messages() if t.endswith("/men/state"))
    assert isinstance(summary, CompetitionState)
    model = VenueModel()
    model.apply(topics.competition_state(V, "men"), replace(summary, matches=()), 0)
    assert [(p.kind, p.event) for p in pages_of(model)] == [("standings", "men")]


def test_few_tables_of_an_event_are_drawn_larger() -> None:
    assert fitted_grid(24, 6, 4, 1900, 1000) == (6, 4)
    assert fitted_grid(8, 6, 4, 1900, 1000) == (4, 2)
    assert fitted_grid(4, 6, 4, 1900, 1000) == (2, 2)
    assert fitted_grid(1, 6, 4, 1900, 1000) == (1, 1)
    assert fitted_grid(13, 6, 4, 1900, 1000) == (5, 3)


# drawn for real


def shoot(
    model: VenueModel, page: Page, path: Path, size: tuple[int, int]
) -> tuple[Frame, dict[str, Any]]:
    seen: dict[str, Any] = {}

    def draw(window: Any) -> None:
        renderer = ScoreboardRenderer(*size)
        renderer.show(page, model, 0, footer=model.venue or "")
        window.clear()
        renderer.draw()
        seen["event"] = renderer.event_label.text
        seen["page"] = renderer.page_label.text
        seen["tables"] = renderer.shown_tables()
        seen["rects"] = {t: renderer.card_of(t) for t in renderer.shown_tables()}
        seen["points"] = {
            t: [renderer.point_xy(t, p) for p in range(225)] for t in renderer.shown_tables()
        }
        renderer.delete()

    frame = render_to_png(draw, *size, path)
    return frame, seen


def is_colour(pixel: tuple[int, ...], rgb: tuple[int, int, int], tol: int = 40) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(pixel[:3], rgb, strict=False))


@pytest.mark.parametrize("number", [1, 2, 3])
def test_the_three_groups_of_the_2019_open_drawn(tmp_path: Path, number: int) -> None:
    """Each group's tables page: its name and round in the header, which event of three it
    is, only its tables, each stone where its state says (pixels read back)."""
    model = hall_model()
    event = HALL_EVENTS[number - 1]
    page = next(p for p in pages_of(model) if p.event == event.id and p.kind == "tables")
    frame, seen = shoot(model, page, tmp_path / f"hall-{event.id}.png", (1920, 1080))
    assert seen["event"].startswith(event.name)
    assert LABELS["round_of"].format(n=5, m=7) in seen["event"]
    assert LABELS["event_of"].format(n=number, m=3) in seen["page"]
    assert seen["tables"] == model.tables(event.id)
    for table in seen["tables"]:
        state = model.state(table)
        assert state is not None and state.event_id == event.id
        black, white = set(state.moves[0::2]), set(state.moves[1::2])
        for point, (x, y) in enumerate(seen["points"][table]):
            pixel = frame.pixel(int(x), frame.height - 1 - int(y))
            if point == state.moves[-1]:
                continue  # the last move's red mark
            if point in black:
                assert is_colour(pixel, COLOURS["black_stone"]), (table, point, pixel)
            elif point in white:
                assert is_colour(pixel, COLOURS["white_stone"]), (table, point, pixel)
    # few tables: cards larger than the 24-card grid's (a sixth of the width)
    widest = max(r.w for r in seen["rects"].values())
    assert widest > 1920 / 6 * 1.2


def test_the_overview_drawn(tmp_path: Path) -> None:
    """Three columns side by side, each in its box, the leaders striped."""
    model = hall_model()
    page = pages_of(model)[0]
    frame, seen = shoot(model, page, tmp_path / "hall-events.png", (1920, 1080))
    assert seen["event"] == LABELS["all_events"] and seen["page"] == ""
    # a row across the columns just above their bottom edge, below any text: gap, card, gap,
    # card, gap, card, gap (footer 3.5% of the height, gaps 1.5% of the width)
    middle = frame.height - int(frame.height * 0.035 + frame.width * 0.985 * 0.015 + 4)

    def boxed(x: int) -> bool:
        pixel = frame.pixel(x, middle)
        return is_colour(pixel, COLOURS["card"], 8) or is_colour(pixel, COLOURS["box"], 8)

    inside = [boxed(x) for x in range(frame.width)]
    starts = [x for x in range(1, frame.width) if inside[x] and not inside[x - 1]]
    assert len(starts) == 3, starts
    assert not inside[0] and not inside[-1]


def test_an_events_standings_drawn_under_its_name(tmp_path: Path) -> None:
    model = hall_model()
    page = next(p for p in pages_of(model) if p.event == "open" and p.kind == "standings")
    frame, seen = shoot(model, page, tmp_path / "hall-open-standings.png", (1920, 1080))
    assert seen["event"].startswith("公开组")
    assert seen["tables"] == []
    stripes = sum(
        is_colour(frame.pixel(x, y), COLOURS["box"], 4)
        for y in range(0, frame.height, 4)
        for x in range(0, frame.width, 4)
    )
    assert stripes / ((frame.height // 4) * (frame.width // 4)) > 0.1


def test_the_app_keeps_to_one_event() -> None:
    window = offscreen_window(960, 540)
    renderer = ScoreboardRenderer(960, 540)
    try:
        for event, want in (("open", {"open"}), (None, {"men", "women", "open"})):
            pager = Pager(page_ms=1_000, start_ms=0)
            app = ScoreboardApp(hall_model(), renderer, pager, event=event)
            pages = [app.current_page(now) for now in range(0, 10_000, 1_000)]
            assert {p.event for p in pages if p is not None and p.kind != "events"} == want
            assert any(p is not None and p.kind == "events" for p in pages) == (event is None)
    finally:
        renderer.delete()
        window.close()


# the command


def test_event_flag_snapshot(tmp_path: Path) -> None:
    out = tmp_path / "women.png"
    assert main(["scoreboard", "--sample", "hall", "--event", "women", "--snapshot", str(out)]) == 0
    frame = load_png(out)
    wood = sum(
        is_colour(frame.pixel(x, y), COLOURS["wood"], 6)
        for y in range(0, frame.height, 4)
        for x in range(0, frame.width, 4)
    )
    assert wood / ((frame.height // 4) * (frame.width // 4)) > 0.15  # four large boards


@pytest.mark.parametrize("bad", ["Men", "men-", "m" * 65, "a/b"])
def test_a_bad_event_id_is_refused(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scoreboard", "--sample", "hall", f"--event={bad}"]) == 1
    assert "--event" in capsys.readouterr().err


def test_standings_of_the_sample_are_ordered() -> None:
    for topic, message in sample_hall_messages():
        if isinstance(message, CompetitionState):
            points = [line.points for line in message.standings]
            assert points == sorted(points, reverse=True)
            assert message.event_id and topic.endswith(f"/{message.event_id}/state")
