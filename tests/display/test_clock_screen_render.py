"""The clock display drawn headless: the screenshot shows the digits, the running side, the
flag and the pause where the face says, and nothing is redrawn for an unchanged face."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

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
from wuzi.display.clock_model import ClockFace, clock_face
from wuzi.display.clock_render import COLOURS, ClockRenderer, clear_colour
from wuzi.display.clock_sample import sample_assignment, sample_clock_state
from wuzi.display.snapshot import Frame

W, H = 1280, 720


def sample_face(**changes: Any) -> ClockFace:
    state = replace(sample_clock_state(), **changes)
    return clock_face(state, 0, 0, sample_assignment())


def draw(face: ClockFace, path: Path) -> tuple[Frame, ClockRenderer]:
    made: list[ClockRenderer] = []

    def build(window: Any) -> None:
        renderer = ClockRenderer()  # inside the window: GL objects need its context
        made.append(renderer)
        renderer.layout(0, 0, W, H)
        renderer.update(face)
        clear_colour()
        window.clear()
        renderer.draw()

    frame = render(build, W, H, path)
    return frame, made[0]


def digits_template(renderer: ClockRenderer, side: int, text: str, path: Path) -> Frame:
    """``text`` drawn alone, with a plain pyglet Label at the renderer's digits position,
    font and size: what the digits crop must look like."""
    from pyglet.text import Label

    source = renderer.sides[side].digits

    def build(window: Any) -> None:
        clear_colour()
        window.clear()
        label = Label(
            text,
            x=source.x,
            y=source.y,
            dpi=72,
            font_name=source.font_name,
            font_size=source.font_size,
            anchor_x="center",
            anchor_y="center",
            color=(255, 255, 255, 255),
        )
        label.draw()

    return render(build, W, H, path)


def template(renderer: ClockRenderer, side: int, text: str, folder: Path) -> Frame:
    return digits_template(renderer, side, text, folder / f"t{side}-{text.replace(':', '_')}.png")


def box_of(shape: Any) -> tuple[int, int, int, int]:
    return image_rect((shape.x, shape.y, shape.width, shape.height), H)


def crop(frame: Frame, renderer: ClockRenderer, side: int) -> Frame:
    return frame.crop(*image_rect(renderer.digits_rect(side), H))


def test_the_digits_are_the_faces_text_by_template_matching(tmp_path: Path) -> None:
    frame, renderer = draw(sample_face(), tmp_path / "clock.png")
    for side, right, wrong in ((0, "7.3", "7.2"), (1, "4:21", "4:27")):
        shown = ink_mask(crop(frame, renderer, side))
        assert sum(shown) > 500, f"no digits drawn on side {side}"
        good = ink_mask(
            crop(digits_template(renderer, side, right, tmp_path / "t.png"), renderer, side)
        )
        bad = ink_mask(
            crop(digits_template(renderer, side, wrong, tmp_path / "f.png"), renderer, side)
        )
        assert mask_distance(shown, good) < 0.02, f"side {side} does not show {right}"
        assert mask_distance(shown, bad) > mask_distance(shown, good) + 0.01


def test_low_time_is_red_and_the_running_side_is_lit(tmp_path: Path) -> None:
    frame, renderer = draw(sample_face(), tmp_path / "clock.png")
    assert fraction(frame, image_rect(renderer.digits_rect(0), H), is_red) > 0.03
    assert fraction(frame, image_rect(renderer.digits_rect(1), H), is_red) == 0.0
    black, white = renderer.sides
    bar = image_rect(
        (black.run_bar.x, black.run_bar.y, black.run_bar.width, black.run_bar.height), H
    )
    assert fraction(frame, bar, lambda p: near(p, COLOURS["border_running"])) > 0.6
    wbar = image_rect(
        (white.run_bar.x, white.run_bar.y, white.run_bar.width, white.run_bar.height), H
    )
    assert fraction(frame, wbar, lambda p: near(p, COLOURS["border_running"])) == 0.0
    # the panels: Black's lit green, White's plain; the stone icons black and white
    bx, by = int(black.panel.x + 10), int(H - black.panel.y - black.panel.height / 2)
    assert near(frame.pixel(bx, by), COLOURS["panel_running"], 12)
    wx, wy = int(white.panel.x + 10), int(H - white.panel.y - white.panel.height / 2)
    assert near(frame.pixel(wx, wy), COLOURS["panel"], 12)
    assert is_dark(frame.pixel(int(black.stone.x), int(H - black.stone.y)))
    assert is_light(frame.pixel(int(white.stone.x), int(H - white.stone.y)))


def test_a_fallen_flag_shows_its_red_box_and_zero(tmp_path: Path) -> None:
    frame, renderer = draw(sample_face(black_ms=-300, running=None), tmp_path / "flag.png")
    box = renderer.sides[0].flag_box
    rect = image_rect((box.x, box.y, box.width, box.height), H)
    assert fraction(frame, rect, lambda p: near(p, COLOURS["flag"], 30)) > 0.5
    other = renderer.sides[1].flag_box
    orect = image_rect((other.x, other.y, other.width, other.height), H)
    assert fraction(frame, orect, lambda p: near(p, COLOURS["flag"], 30)) == 0.0
    shown = ink_mask(crop(frame, renderer, 0))
    good = ink_mask(crop(digits_template(renderer, 0, "0.0", tmp_path / "t.png"), renderer, 0))
    assert mask_distance(shown, good) < 0.02


def test_a_paused_table_shows_the_banner(tmp_path: Path) -> None:
    frame, renderer = draw(sample_face(status="paused", running=None), tmp_path / "pause.png")
    band = image_rect((0, renderer.banner.y, W, renderer.banner.height), H)
    assert fraction(frame, band, lambda p: near(p, COLOURS["pause"], 30)) > 0.5
    frame2, renderer2 = draw(sample_face(), tmp_path / "play.png")
    band2 = image_rect((0, renderer2.banner.y, W, renderer2.banner.height), H)
    assert fraction(frame2, band2, lambda p: near(p, COLOURS["pause"], 30)) == 0.0


def test_update_touches_nothing_for_an_unchanged_face(tmp_path: Path) -> None:
    seen: list[bool] = []

    def build(window: Any) -> None:
        renderer = ClockRenderer()
        renderer.layout(0, 0, W, H)
        face = sample_face()
        seen.append(renderer.update(face))
        seen.append(renderer.update(face))
        tick = replace(face, black=replace(face.black, text="7.2"))
        seen.append(renderer.update(tick))
        assert renderer.sides[0].digits.text == "7.2"
        assert renderer.sides[1].digits.text == "4:21"

    render(build, W, H, tmp_path / "x.png")
    assert seen == [True, False, True]


def test_a_tick_repainted_incrementally_equals_a_whole_frame(tmp_path: Path) -> None:
    from wuzi.display.snapshot import read_frame

    frames: list[Frame] = []
    dirty: list[Any] = []

    def build(window: Any) -> None:
        renderer = ClockRenderer()
        renderer.layout(0, 0, W, H)
        state = replace(sample_clock_state(), black_ms=540_000)
        renderer.update(clock_face(state, 0, 0))
        renderer.draw()
        renderer.update(clock_face(state, 0, 1_000))  # 9:00 -> 8:59: only the digits
        dirty.append(renderer.dirty)
        renderer.draw_changes()
        frames.append(read_frame(W, H))
        renderer.draw()
        frames.append(read_frame(W, H))
        renderer.update(clock_face(replace(state, status="paused", running=None), 0, 0))
        dirty.append(renderer.dirty)  # more than digits: everything

    render(build, W, H, tmp_path / "x.png")
    assert dirty[0] is not None and len(dirty[0]) == 1 and dirty[1] is None
    assert frames[0].rgba == frames[1].rgba
