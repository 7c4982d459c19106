"""The scoreboard loop's decisions: when to draw, when to wake, the delay, page turns."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from wuzi.bus import topics
from wuzi.display.delay import DelayBuffer
from wuzi.display.feed import FeedItem
from wuzi.display.sample import SAMPLE_VENUE, sample_messages
from wuzi.display.scoreboard_app import SECONDS_GRID_MS, TENTHS_GRID_MS, ScoreboardApp
from wuzi.display.scoreboard_model import LABELS, Pager, VenueModel
from wuzi.display.scoreboard_render import ScoreboardRenderer
from wuzi.display.snapshot import offscreen_window


@pytest.fixture
def window() -> Iterator[object]:
    win = offscreen_window(960, 540)
    yield win
    win.close()


def sample_items(received_ms: int) -> list[FeedItem]:
    return [FeedItem(t, m, received_ms) for t, m in sample_messages()]


def make_app(model: VenueModel, **kw: object) -> ScoreboardApp:
    return ScoreboardApp(model, ScoreboardRenderer(960, 540), kw.pop("pager", Pager(0, 0)), **kw)  # type: ignore[arg-type]


def test_draws_on_change_and_sleeps_until_the_next_face(window: object) -> None:
    app = make_app(VenueModel())
    app.feed_items(sample_items(0), 0)
    assert app.step(0)
    app.renderer.draw()
    assert not app.step(10)  # nothing visible changed
    due = app.next_wake_ms()
    assert due % TENTHS_GRID_MS == 0 and 0 < due <= 100  # table 13 shows tenths
    assert app.step(due)
    assert app.renderer.dirty and app.renderer.draw_changes()


def test_seconds_faces_share_a_frame_grid(window: object) -> None:
    model = VenueModel()
    for topic, message in sample_messages():
        if "/table/13/" not in topic:  # no face under ten seconds
            model.apply(topic, message, 0)
    app = make_app(model)
    assert app.step(0)
    due = app.next_wake_ms()
    assert due % SECONDS_GRID_MS == 0 and due <= 1000


def test_delay_holds_everything_back(window: object) -> None:
    delay = DelayBuffer(60_000)
    delay.start(0)
    app = make_app(VenueModel(), delay=delay)
    assert not app.feed_items(sample_items(0), 0)
    app.step(0, force=True)
    assert app.renderer.message.text == LABELS["warming"]
    assert app.model.tables() == []
    assert app.next_wake_ms() == 60_000  # the first release
    assert app.feed_items([], 60_000)
    app.step(60_000)
    assert app.renderer.message.text == ""
    assert app.renderer.shown_tables() == list(range(1, 25))
    # the released clocks count from the release, as they did in the game then
    assert app.model.card(1, 60_000).white_clock.text == "22:08"  # type: ignore[union-attr]
    assert "延时" in app.renderer.footer_right.text


def test_pages_turn_on_the_timer(window: object) -> None:
    app = make_app(VenueModel(), pager=Pager(page_ms=15_000, start_ms=0))
    app.feed_items(sample_items(0), 0)
    assert app.current_page(0).kind == "tables"  # type: ignore[union-attr]
    assert app.current_page(15_000).kind == "bracket"  # type: ignore[union-attr]
    assert app.current_page(30_000).kind == "standings"  # type: ignore[union-attr]
    app.step(0)
    assert app.next_wake_ms() <= 15_000
    app.step(15_000)
    assert app.renderer.shown_tables() == []  # the bracket now


def test_focus_holds_one_table(window: object) -> None:
    app = make_app(VenueModel(), pager=Pager(page_ms=1_000, start_ms=0), focus=13)
    app.feed_items(sample_items(0), 0)
    app.step(50_000)
    assert app.renderer.shown_tables() == [13]


def test_no_data_message(window: object) -> None:
    app = make_app(VenueModel())
    app.step(0, force=True)
    assert app.renderer.message.text == LABELS["no_data"]
    topic = topics.table_state(SAMPLE_VENUE, 1)
    message = dict(sample_messages())[topic]
    app.feed_items([FeedItem(topic, message, 5)], 5)
    app.step(5)
    assert app.renderer.message.text == "" and app.renderer.shown_tables() == [1]
