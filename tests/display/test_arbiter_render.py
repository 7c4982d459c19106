"""The arbiter view drawn headless: stones where the state says, red crosses on Black's
forbidden points and nowhere else, the alert list in urgency order with its colours,
the selected line framed, and the focused table's clocks by template matching."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from support.screens import (
    fraction,
    image_rect,
    ink_mask,
    is_dark,
    is_light,
    is_red,
    mask_distance,
    near,
    render,
)
from wuzi.display.arbiter_commands import CommandDesk
from wuzi.display.arbiter_model import ArbiterFrame, ArbiterModel
from wuzi.display.arbiter_render import COLOURS, TIER_COLOURS, ArbiterRenderer
from wuzi.display.arbiter_sample import (
    SAMPLE_ACKED,
    SAMPLE_FOCUS,
    SAMPLE_SELECTED,
    sample_arbiter_messages,
)
from wuzi.display.clock_render import clear_colour
from wuzi.display.snapshot import Frame
from wuzi.rules.board import POINTS, parse_point

W, H = 1600, 900
NOW = 50_000_000


def sample_frame() -> ArbiterFrame:
    model = ArbiterModel(focus=SAMPLE_FOCUS)
    for topic, message, age in sample_arbiter_messages():
        model.apply(topic, message, NOW - age)
    for key in SAMPLE_ACKED:
        model.acknowledge(key)
    model.selected_key = SAMPLE_SELECTED
    desk = CommandDesk()
    desk.open("pause reason=dispute")
    model.prompt, model.status = desk.line(), desk.status
    return model.frame(NOW)


@pytest.fixture(scope="module")
def drawn(tmp_path_factory: pytest.TempPathFactory) -> tuple[Frame, ArbiterRenderer, ArbiterFrame]:
    frame = sample_frame()
    made: list[ArbiterRenderer] = []

    def build(window: Any) -> None:
        renderer = ArbiterRenderer(W, H, title="chief · sample-hall")
        made.append(renderer)
        renderer.update(frame)
        clear_colour()
        window.clear()
        renderer.draw()

    path = tmp_path_factory.mktemp("arbiter") / "arbiter.png"
    return render(build, W, H, path), made[0], frame


def at(renderer: ArbiterRenderer, point: int, dx: float = 0.0, dy: float = 0.0) -> tuple[int, int]:
    """Image coordinates of a board point, offset by (dx, dy) spacings (dy up)."""
    x, y = renderer.point_xy(point)
    step = renderer._board_geometry[2]
    return int(x + dx * step), int(H - (y + dy * step))


def box(renderer: ArbiterRenderer, point: int, half: float) -> tuple[int, int, int, int]:
    x, y = at(renderer, point)
    size = int(half * renderer._board_geometry[2])
    return x - size, y - size, 2 * size, 2 * size


def test_every_stone_is_drawn_where_the_state_says(drawn: Any) -> None:
    image, renderer, frame = drawn
    board = frame.board
    assert board is not None and len(board.stones) == 27
    for point, colour, _number in board.stones:
        pixel = image.pixel(*at(renderer, point, dx=0.3, dy=-0.2))  # beside the number
        assert (is_dark if colour == "black" else is_light)(pixel), (point, colour, pixel)
    occupied = {p for p, _c, _n in board.stones}
    forbidden = {p for p, _k in board.forbidden}
    for point in range(POINTS):
        if point in occupied or point in forbidden:
            continue
        pixel = image.pixel(*at(renderer, point, dx=0.25, dy=0.25))  # off the grid lines
        assert near(pixel, COLOURS["wood"], 30), (point, pixel)


def test_the_last_stone_has_a_red_number(drawn: Any) -> None:
    image, renderer, _frame = drawn
    assert fraction(image, box(renderer, parse_point("l13"), 0.25), is_red) > 0.05
    assert fraction(image, box(renderer, parse_point("k13"), 0.25), is_red) == 0.0


def test_forbidden_points_have_red_crosses_and_other_points_none(drawn: Any) -> None:
    image, renderer, frame = drawn
    board = frame.board
    assert board is not None
    forbidden = {p for p, _k in board.forbidden}
    assert forbidden == {parse_point(n) for n in ("j10", "h9", "m14", "g9", "m15")}
    for point in forbidden:
        assert fraction(image, box(renderer, point, 0.12), is_red) > 0.3, point
    occupied = {p for p, _c, _n in board.stones}
    for point in range(POINTS):
        if point not in forbidden and point not in occupied:
            assert fraction(image, box(renderer, point, 0.12), is_red) < 0.02, point


def test_the_alerts_points_are_ringed(drawn: Any) -> None:
    image, renderer, frame = drawn
    assert frame.board is not None
    step = renderer._board_geometry[2]
    for point in frame.board.marked:
        x, y = renderer.point_xy(point)
        radius = step * 0.52
        hits = sum(
            near(image.pixel(int(x + dx * radius), int(H - y - dy * radius)), COLOURS["marked"], 50)
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
        )
        assert hits >= 3, point


def test_the_alert_list_is_drawn_in_urgency_order(drawn: Any) -> None:
    image, renderer, frame = drawn
    shown = renderer.row_boxes
    assert len(shown) >= 5
    by_key = {a.key: a for a in frame.alerts}
    assert [key for *_r, key in shown] == [a.key for a in frame.alerts[: len(shown)]]
    for x, y, w, h, key in shown:
        alert = by_key[key]
        pixel = image.pixel(int(x + w * 0.006), int(H - y - h / 2))
        expected = COLOURS["acked"] if alert.acknowledged else TIER_COLOURS[alert.tier]
        assert near(pixel, expected, 20), (alert.kind, pixel, expected)
    # the selected line (table 3's forbidden move) is framed in white, the others not
    selected = frame.selected
    assert selected is not None and frame.alerts[selected].key == SAMPLE_SELECTED
    for index, (x, y, w, h, _key) in enumerate(shown):
        top = image.pixel(int(x + w / 2), int(H - (y + h - 3)))
        assert near(top, COLOURS["selected"], 30) == (index == selected), index


def test_the_acknowledged_alert_is_grey_and_last(tmp_path: Path) -> None:
    frame = sample_frame()
    assert frame.alerts[-1].acknowledged and frame.alerts[-1].key in SAMPLE_ACKED
    assert not any(a.acknowledged for a in frame.alerts[:-1])


def test_the_focused_tables_clocks_show_its_time(drawn: Any, tmp_path: Path) -> None:
    image, renderer, frame = drawn
    clock = frame.board.clock if frame.board else None
    assert clock is not None and clock.black.text == "12:11" and clock.white.text == "8:27"
    from pyglet.text import Label

    for side, right, wrong in ((0, "12:11", "12:17"), (1, "8:27", "8:21")):
        rect = image_rect(renderer.clock.digits_rect(side), H)
        shown = ink_mask(image.crop(*rect))
        source = renderer.clock.sides[side].digits
        masks = []
        for text in (right, wrong):

            def build(window: Any, text: str = text, source: Any = source) -> None:
                clear_colour()
                window.clear()
                Label(
                    text,
                    x=source.x,
                    y=source.y,
                    dpi=72,
                    font_name=source.font_name,
                    font_size=source.font_size,
                    anchor_x="center",
                    anchor_y="center",
                ).draw()

            template = render(build, W, H, tmp_path / f"{side}-{text.replace(':', '_')}.png")
            masks.append(ink_mask(template.crop(*rect)))
        assert sum(shown) > 300
        assert mask_distance(shown, masks[0]) < 0.02
        assert mask_distance(shown, masks[1]) > mask_distance(shown, masks[0]) + 0.005


def test_hit_testing_finds_rows_and_points(drawn: Any) -> None:
    _image, renderer, frame = drawn
    x, y, w, h, key = renderer.row_boxes[1]
    assert renderer.alert_at(x + w / 2, y + h / 2) == key == frame.alerts[1].key
    assert renderer.alert_at(-5, -5) is None
    px, py = renderer.point_xy(parse_point("h8"))
    assert renderer.point_at(px + 3, py - 3) == parse_point("h8")
    assert renderer.point_at(0, 0) is None


def test_update_is_a_no_op_for_the_same_frame_and_a_tick_keeps_the_rows(tmp_path: Path) -> None:
    results: list[Any] = []

    def build(window: Any) -> None:
        model = ArbiterModel(focus=SAMPLE_FOCUS)
        for topic, message, age in sample_arbiter_messages():
            model.apply(topic, message, NOW - age)
        renderer = ArbiterRenderer(W, H)
        results.append(renderer.update(model.frame(NOW)))
        results.append(renderer.update(model.frame(NOW)))
        rows, board_items = list(renderer.rows), list(renderer.board_items)
        results.append(renderer.update(model.frame(NOW + 1_000)))  # White's clock ticks
        results.append(rows == renderer.rows and board_items == renderer.board_items)
        results.append(renderer.clock.sides[1].digits.text)

    render(build, W, H, tmp_path / "tick.png")
    assert results == [True, False, True, True, "8:26"]


def test_a_clock_tick_repainted_incrementally_equals_a_whole_frame(tmp_path: Path) -> None:
    from wuzi.display.snapshot import read_frame

    frames: list[Frame] = []
    dirty: list[Any] = []

    def build(window: Any) -> None:
        model = ArbiterModel(focus=SAMPLE_FOCUS)
        for topic, message, age in sample_arbiter_messages():
            model.apply(topic, message, NOW - age)
        renderer = ArbiterRenderer(W, H)
        renderer.update(model.frame(NOW))
        renderer.draw()
        renderer.update(model.frame(NOW + 1_000))
        dirty.append(renderer.dirty)
        renderer.draw_changes()
        frames.append(read_frame(W, H))
        renderer.draw()
        frames.append(read_frame(W, H))

    render(build, W, H, tmp_path / "tick.png")
    assert dirty[0] is not None and len(dirty[0]) == 1  # White's digits alone
    assert frames[0].rgba == frames[1].rgba


def test_window_input_reaches_the_desk_and_the_model() -> None:
    import pyglet.window
    from pyglet.event import EventDispatcher
    from pyglet.window import key, mouse

    from wuzi.display.arbiter_cli import ArbiterScreen, _bind_input

    window = pyglet.window.Window(W, H, visible=False)
    try:
        model = ArbiterModel(focus=SAMPLE_FOCUS)
        for topic, message, age in sample_arbiter_messages():
            model.apply(topic, message, NOW - age)
        screen = ArbiterScreen(model, CommandDesk(), W, H)
        _bind_input(screen, window)

        def send(name: str, *args: Any) -> Any:  # at once, not through the window's queue
            return EventDispatcher.dispatch_event(window, name, *args)

        screen.step(NOW)
        send("on_text", "p")
        assert screen.desk.pending is not None and screen.desk.pending.action == "pause"
        assert send("on_key_press", key.ESCAPE, 0) is not False
        assert screen.desk.pending is None and not window.has_exit
        send("on_text", "R")
        send("on_key_press", key.ENTER, 0)
        assert "not sent" in screen.desk.status and not screen.sent  # no broker, no key
        x, y, w, h, row_key = screen.renderer.row_boxes[3]
        scale = window.get_framebuffer_size()[0] / window.width
        send("on_mouse_press", (x + w / 2) / scale, (y + h / 2) / scale, mouse.LEFT, 0)
        assert model.selected_key == row_key and model.focus == 12
        send("on_text", ":")
        px, py = screen.renderer.point_xy(parse_point("h8"))
        send("on_mouse_press", px / scale, py / scale, mouse.LEFT, 0)
        assert screen.desk.prompt == "h8 "
    finally:
        window.close()
