"""Drawing the table clock display: a `ClockFace` into a pyglet batch.

Import this module only after `wuzi.display.headless.prepare` (it imports pyglet's GL
modules). `ClockRenderer` lays out, once, a fixed set of shapes and labels in a
rectangle of the window — two panels (Black left, White right) with big fixed-width
digits, the running side lit and marked, a red flag box, the stone counts, a title bar,
a pause banner and a bottom line for the move number and the result — and `update`
changes only what differs from the last face (a label's text, a colour, a visibility),
so a tick costs one label re-layout. The arbiter view draws the focused table's clocks
with the same class in a smaller rectangle.

Sizes are pixels (labels use ``dpi=72`` so a font size is its pixel height).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pyglet
from pyglet import gl, shapes
from pyglet.graphics import Batch, Group
from pyglet.text import Label

from wuzi.display.clock_model import FLAG_LABEL, ClockFace, SideFace
from wuzi.display.fonts import clock_font_name, ui_font_name

__all__ = ["COLOURS", "ClockRenderer", "clear_colour", "draw_scissored"]

Colour = tuple[int, int, int, int]

COLOURS: dict[str, Colour] = {
    "background": (16, 20, 26, 255),
    "panel": (34, 40, 50, 255),
    "panel_running": (22, 70, 44, 255),
    "border": (70, 80, 96, 255),
    "border_running": (80, 220, 120, 255),
    "digits": (240, 240, 235, 255),
    "digits_stopped": (175, 180, 188, 255),
    "digits_low": (255, 90, 80, 255),
    "text": (220, 224, 230, 255),
    "muted": (140, 148, 160, 255),
    "flag": (210, 40, 40, 255),
    "pause": (240, 190, 40, 255),
    "pause_text": (20, 20, 20, 255),
    "black_stone": (12, 12, 12, 255),
    "white_stone": (245, 245, 240, 255),
    "stone_rim": (150, 150, 150, 255),
    "result": (255, 215, 90, 255),
}


OPAQUE_SRC, OPAQUE_DEST = gl.GL_ONE, gl.GL_ZERO
"""The blend of big opaque shapes: a blend that software GL can skip (a full-screen panel is most
of a frame's cost under llvmpipe)."""
MIN_TEXT_PX = 12.0  # small labels never shrink below this (the arbiter's small clock)
DIGIT_EM = 0.6  # the width of one fixed-width digit, in font sizes (WenQuanYi Micro Hei Mono)


def _gap(width: float) -> float:
    return max(8.0, width * 0.02)


class _SidePanel:
    def __init__(self, batch: Batch, back: Group, front: Group, text: Group) -> None:
        self.panel = shapes.BorderedRectangle(
            0,
            0,
            1,
            1,
            4,
            COLOURS["panel"],
            COLOURS["border"],
            batch=batch,
            group=back,
            blend_src=OPAQUE_SRC,
            blend_dest=OPAQUE_DEST,
        )
        self.stone = shapes.Circle(
            0, 0, 1, segments=64, color=COLOURS["black_stone"], batch=batch, group=front
        )
        self.rim = shapes.Arc(
            0, 0, 1, segments=64, color=COLOURS["stone_rim"], batch=batch, group=text
        )
        self.label = Label(
            "",
            dpi=72,
            font_name=ui_font_name(),
            anchor_x="left",
            anchor_y="center",
            color=COLOURS["text"],
            batch=batch,
            group=text,
        )
        self.name = Label(
            "",
            dpi=72,
            font_name=ui_font_name(),
            anchor_x="left",
            anchor_y="center",
            color=COLOURS["text"],
            batch=batch,
            group=text,
        )
        self.digits = Label(
            "",
            dpi=72,
            font_name=clock_font_name(),
            anchor_x="center",
            anchor_y="center",
            color=COLOURS["digits"],
            batch=batch,
            group=text,
        )
        self.run_bar = shapes.Rectangle(
            0, 0, 1, 1, color=COLOURS["border_running"], batch=batch, group=front
        )
        self.run_text = Label(
            "",
            dpi=72,
            font_name=ui_font_name(),
            anchor_x="center",
            anchor_y="center",
            color=COLOURS["pause_text"],
            batch=batch,
            group=text,
        )
        self.flag_box = shapes.Rectangle(
            0, 0, 1, 1, color=COLOURS["flag"], batch=batch, group=front
        )
        self.flag_text = Label(
            FLAG_LABEL,
            dpi=72,
            font_name=ui_font_name(),
            anchor_x="center",
            anchor_y="center",
            color=(255, 255, 255, 255),
            batch=batch,
            group=text,
        )
        self.stones = Label(
            "",
            dpi=72,
            font_name=ui_font_name(),
            anchor_x="right",
            anchor_y="center",
            color=COLOURS["muted"],
            batch=batch,
            group=text,
        )
        self.face: SideFace | None = None
        self.digits_room = (1.0, 1.0)

    def fit(self, characters: int) -> float:
        """The digits' font size for a face of ``characters`` characters."""
        width, height = self.digits_room
        return min(height, width / (DIGIT_EM * max(1, characters)))

    def layout(self, x: float, y: float, w: float, h: float) -> None:
        """The panel's rectangle (GL coordinates: y up)."""
        self.panel.position = (x, y)
        self.panel.width, self.panel.height = w, h
        self.panel.border = max(2, int(min(w, h) * 0.012))
        r = h * 0.07
        head_y = y + h - h * 0.12
        self.stone.position = (x + w * 0.06 + r, head_y)
        self.stone.radius = r
        self.rim.position = (x + w * 0.06 + r, head_y)
        self.rim.radius = r
        self.label.position = (x + w * 0.06 + 2.6 * r, head_y, 0)
        self.label.font_size = h * 0.075
        self.name.position = (x + w * 0.06 + 2.6 * r, head_y - h * 0.12, 0)
        self.name.font_size = h * 0.085
        self.digits.position = (x + w / 2, y + h * 0.48, 0)
        self.digits_room = (w * 0.9, h * 0.38)
        self.run_bar.position = (x + w * 0.06, y + h * 0.12)
        self.run_bar.width, self.run_bar.height = w * 0.88, h * 0.09
        self.run_text.position = (x + w / 2, y + h * 0.165, 0)
        self.run_text.font_size = h * 0.06
        self.flag_box.position = (x + w * 0.06, y + h * 0.12)
        self.flag_box.width, self.flag_box.height = w * 0.4, h * 0.09
        self.flag_text.position = (x + w * 0.26, y + h * 0.165, 0)
        self.flag_text.font_size = h * 0.06
        self.stones.position = (x + w * 0.94, y + h - h * 0.12, 0)
        self.stones.font_size = h * 0.06
        self.face = None

    def update(self, face: SideFace) -> None:
        if face == self.face:
            return
        old = self.face
        self.face = face
        if old is None or old.colour != face.colour:
            white = face.colour == "white"
            self.stone.color = COLOURS["white_stone" if white else "black_stone"]
        _set_text(self.label, face.label)
        _set_text(self.name, face.name or "—")
        _set_text(self.digits, face.text)
        _set_text(self.stones, f"{face.stones} 子 stones")
        _set_text(self.run_text, "走棋 TO MOVE" if face.running else "")
        if face.flagged or face.low:
            digits = COLOURS["digits_low"]
        elif face.running:
            digits = COLOURS["digits"]
        else:
            digits = COLOURS["digits_stopped"]
        if self.digits.color != digits:
            self.digits.color = digits
        self.panel.color = COLOURS["panel_running" if face.running else "panel"]
        self.panel.border_color = COLOURS["border_running" if face.running else "border"]
        self.run_bar.visible = face.running and not face.flagged
        self.run_text.visible = face.running and not face.flagged
        self.flag_box.visible = face.flagged
        self.flag_text.visible = face.flagged


def _set_text(label: Label, text: str) -> None:
    if label.text != text:
        label.text = text


class ClockRenderer:
    """A `ClockFace` drawn in a rectangle of a batch (see the module doc)."""

    def __init__(self, batch: Batch | None = None, *, order: int = 0) -> None:
        self.batch = batch or Batch()
        back, front, text = Group(order), Group(order + 1), Group(order + 2)
        top = Group(order + 3)
        top_text = Group(order + 4)
        self.title = Label(
            "",
            dpi=72,
            font_name=ui_font_name(),
            anchor_x="left",
            anchor_y="center",
            color=COLOURS["text"],
            batch=self.batch,
            group=text,
        )
        self.status = Label(
            "",
            dpi=72,
            font_name=ui_font_name(),
            anchor_x="center",
            anchor_y="center",
            color=COLOURS["muted"],
            batch=self.batch,
            group=text,
        )
        self.detail = Label(
            "",
            dpi=72,
            font_name=ui_font_name(),
            anchor_x="right",
            anchor_y="center",
            color=COLOURS["muted"],
            batch=self.batch,
            group=text,
        )
        self.sides = (
            _SidePanel(self.batch, back, front, text),
            _SidePanel(self.batch, back, front, text),
        )
        self.moves = Label(
            "",
            dpi=72,
            font_name=ui_font_name(),
            anchor_x="left",
            anchor_y="center",
            color=COLOURS["text"],
            batch=self.batch,
            group=text,
        )
        self.result = Label(
            "",
            dpi=72,
            font_name=ui_font_name(),
            anchor_x="right",
            anchor_y="center",
            color=COLOURS["result"],
            batch=self.batch,
            group=text,
        )
        self.banner = shapes.Rectangle(
            0, 0, 1, 1, color=COLOURS["pause"], batch=self.batch, group=top
        )
        self.banner_text = Label(
            "",
            dpi=72,
            font_name=ui_font_name(),
            anchor_x="center",
            anchor_y="center",
            color=COLOURS["pause_text"],
            batch=self.batch,
            group=top_text,
        )
        self.face: ClockFace | None = None
        self.rect = (0.0, 0.0, 1.0, 1.0)
        self.visible = True
        self.dirty: list[tuple[int, int, int, int]] | None = None  # None: redraw everything

    def _steady_items(self) -> list[Any]:
        """What is shown whatever the face (the rest depends on it: see `update`)."""
        items: list[Any] = [
            self.title,
            self.status,
            self.detail,
            self.moves,
            self.result,
        ]
        for side in self.sides:
            items += [side.panel, side.stone, side.rim, side.label, side.name, side.digits]
            items.append(side.stones)
        return items

    def set_visible(self, visible: bool) -> None:
        """Hide or show the whole clock (the arbiter view hides it with no table)."""
        if visible == self.visible:
            return
        self.visible = visible
        for item in self._steady_items():
            item.visible = visible
        if not visible:
            for side in self.sides:
                for item in (side.run_bar, side.run_text, side.flag_box, side.flag_text):
                    item.visible = False
            self.banner.visible = self.banner_text.visible = False
        self.face = None
        for side in self.sides:
            side.face = None

    def layout(self, x: float, y: float, width: float, height: float) -> None:
        """Place everything in the rectangle (GL coordinates: ``y`` is its bottom)."""
        self.rect = (x, y, width, height)
        gap = _gap(width)
        bar_y = y + height - height * 0.06
        for label, lx, size in (
            (self.title, x + gap, 0.055),
            (self.detail, x + width - gap, 0.035),
        ):
            label.position = (lx, bar_y, 0)
            label.font_size = max(MIN_TEXT_PX, height * size)
        panel_w = (width - 3 * gap) / 2
        panel_h = height * 0.72
        panel_y = y + height * 0.14
        for index, side in enumerate(self.sides):
            side.layout(x + gap + index * (panel_w + gap), panel_y, panel_w, panel_h)
        self.moves.position = (x + gap, y + height * 0.07, 0)
        self.moves.font_size = max(MIN_TEXT_PX, height * 0.05)
        self.status.position = (x + width / 2, y + height * 0.07, 0)
        self.status.font_size = max(MIN_TEXT_PX, height * 0.045)
        self.result.position = (x + width - gap, y + height * 0.07, 0)
        self.result.font_size = max(MIN_TEXT_PX, height * 0.05)
        # The pause banner covers the bottom line, never the clocks (they must stay legible).
        self.banner.position = (x, y)
        self.banner.width, self.banner.height = width, height * 0.13
        self.banner_text.position = (x + width / 2, y + height * 0.065, 0)
        self.banner_text.font_size = max(MIN_TEXT_PX, height * 0.075)
        self.face = None
        self.dirty = None

    def update(self, face: ClockFace) -> bool:
        """Show ``face``; False (and nothing touched) if it is what is shown already."""
        if face == self.face or not self.visible:
            return False
        old, self.face = self.face, face
        self.dirty = None  # everything, unless only digits changed (the common tick)
        if old is not None:
            same = replace(face, black=replace(face.black, text=old.black.text))
            same = replace(same, white=replace(face.white, text=old.white.text))
            lengths = {len(t) for t in (old.black.text, old.white.text)}
            if same == old and lengths == {len(face.black.text), len(face.white.text)}:
                self.dirty = [
                    self.digits_band(index)
                    for index, (a, b) in enumerate(zip(old.sides, face.sides, strict=True))
                    if a.text != b.text
                ]
        _set_text(self.title, face.title)
        _set_text(self.status, face.status_label)
        _set_text(self.detail, face.detail)
        characters = max(len(face.black.text), len(face.white.text))
        size = min(side.fit(characters) for side in self.sides)
        for side, side_face in zip(self.sides, face.sides, strict=True):
            if side.digits.font_size != size:
                side.digits.font_size = size
            side.update(side_face)
        _set_text(self.moves, face.move_label)
        _set_text(self.result, face.result_label)
        self.status.color = COLOURS["pause"] if face.paused else COLOURS["muted"]
        self.banner.visible = face.paused
        self.banner_text.visible = face.paused
        banner = " · ".join(t for t in (face.status_label, face.move_label) if t)
        _set_text(self.banner_text, banner if face.paused else "")
        return True

    def digits_band(self, side: int) -> tuple[int, int, int, int]:
        """The part of a side's panel that only its digits draw on (between the name and
        the running bar): repainting it alone shows a tick. GL pixels (x, y, w, h)."""
        panel = self.sides[side].panel
        border = panel.border
        return (
            int(panel.x + border),
            int(panel.y + panel.height * 0.22),
            int(panel.width - 2 * border),
            int(panel.height * 0.495),
        )

    def draw_changes(self) -> None:
        """Repaint what the last `update` changed over the previous frame, which the
        framebuffer must still hold (single-buffered or headless); everything after a
        layout or a change beyond the digits."""
        if self.dirty is None:
            self.draw()
        else:
            draw_scissored(self.batch, self.dirty)
        self.dirty = []

    def digits_rect(self, side: int) -> tuple[float, float, float, float]:
        """Where side 0 (Black) or 1 (White) draws its digits: (x, y, width, height) in GL
        coordinates (y up) — tests crop the screenshot there."""
        panel = self.sides[side].panel
        size = self.sides[side].digits.font_size
        cx, cy = panel.x + panel.width / 2, panel.y + panel.height * 0.48
        return cx - panel.width * 0.46, cy - size * 0.55, panel.width * 0.92, size * 1.1

    def draw(self) -> None:
        """Everything, from a cleared window."""
        clear_colour()
        gl.glClear(gl.GL_COLOR_BUFFER_BIT)
        self.batch.draw()
        self.dirty = []


def draw_scissored(batch: Batch, rects: list[tuple[int, int, int, int]]) -> None:
    """Draw ``batch`` clipped to each rectangle (GL pixels): the fill, which is what costs
    under software GL, stays inside them."""
    if not rects:
        return
    gl.glEnable(gl.GL_SCISSOR_TEST)
    try:
        for x, y, w, h in rects:
            gl.glScissor(x, y, max(0, w), max(0, h))
            batch.draw()
    finally:
        gl.glDisable(gl.GL_SCISSOR_TEST)


def clear_colour() -> None:
    """The window's clear colour: the background's."""
    r, g, b, a = COLOURS["background"]
    pyglet.gl.glClearColor(r / 255, g / 255, b / 255, a / 255)
