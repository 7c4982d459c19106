"""Drawing the arbiter view: an `ArbiterFrame` into a pyglet batch.

Import only after `wuzi.display.headless.prepare`. The window is split into a header
line, the alert list on the left (a coloured bar per urgency tier, the table, the
reason in Chinese and English, its age and text; acknowledged lines grey and below;
the selected line framed), the focused table's board on the right (coordinates, stone
numbers, the last stone, alert points ringed in amber, the stone waiting for its press
translucent, offers as open circles, and Black's forbidden points as red crosses with
their kind) with its clocks (`ClockRenderer`) beside it, and two lines at the bottom:
the command prompt or confirmation, and the outcome of the last command.

`update` rebuilds a part only when its piece of the frame changed — the alert rows when
the alerts do, the board when its `BoardView` does (a move, an alert), the clocks through
`ClockRenderer.update` (a tick changes one label). `alert_at` and `point_at` map a mouse
position (GL coordinates) to what is there.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from pyglet import gl, shapes
from pyglet.graphics import Batch, Group
from pyglet.text import Label

from wuzi.display.arbiter_model import (
    CLAIM,
    CRITICAL,
    INFRACTION,
    OFFLINE,
    STALE,
    AlertLine,
    ArbiterFrame,
    BoardView,
)
from wuzi.display.clock_render import COLOURS as CLOCK_COLOURS
from wuzi.display.clock_render import (
    OPAQUE_DEST,
    OPAQUE_SRC,
    ClockRenderer,
    clear_colour,
    draw_scissored,
)
from wuzi.display.fonts import ui_font_name
from wuzi.rules.board import COLUMNS, SIZE, point_name

__all__ = ["COLOURS", "ArbiterRenderer"]

Colour = tuple[int, int, int, int]

COLOURS: dict[str, Colour] = {
    "background": CLOCK_COLOURS["background"],
    "text": (225, 228, 234, 255),
    "muted": (130, 138, 150, 255),
    "acked": (95, 100, 110, 255),
    "row": (30, 36, 46, 255),
    "row_acked": (24, 27, 33, 255),
    "selected": (255, 255, 255, 255),
    "wood": (222, 178, 96, 255),
    "grid": (70, 48, 20, 255),
    "black_stone": (15, 15, 15, 255),
    "white_stone": (246, 246, 240, 255),
    "white_rim": (90, 90, 90, 255),
    "number_on_black": (235, 235, 235, 255),
    "number_on_white": (25, 25, 25, 255),
    "last": (230, 30, 30, 255),
    "forbidden": (215, 20, 30, 255),
    "marked": (255, 160, 0, 255),
    "pending": (60, 130, 255, 255),
}
TIER_COLOURS: dict[int, Colour] = {
    CRITICAL: (230, 45, 45, 255),
    CLAIM: (255, 150, 30, 255),
    INFRACTION: (240, 210, 50, 255),
    OFFLINE: (70, 150, 255, 255),
    STALE: (150, 110, 230, 255),
}
STAR_POINTS = ((3, 3), (11, 3), (7, 7), (3, 11), (11, 11))


def _label(batch: Batch, group: Group, **kw: Any) -> Label:
    kw.setdefault("font_name", ui_font_name())
    kw.setdefault("color", COLOURS["text"])
    kw.setdefault("anchor_y", "center")
    return Label(dpi=72, batch=batch, group=group, **kw)


def _cut(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class ArbiterRenderer:
    """An `ArbiterFrame` drawn in a window of ``width`` x ``height`` pixels."""

    def __init__(self, width: int, height: int, *, title: str = "") -> None:
        self.batch = Batch()
        self.back, self.mid, self.front, self.text = Group(0), Group(1), Group(2), Group(3)
        self.title = title
        self.width, self.height = width, height
        self.clock = ClockRenderer(self.batch, order=10)
        self.header = _label(self.batch, self.text, text="", x=0, y=0)
        self.prompt = _label(self.batch, self.text, text="", x=0, y=0)
        self.status = _label(self.batch, self.text, text="", x=0, y=0, color=COLOURS["muted"])
        self.rows: list[Any] = []  # shapes and labels of the alert list
        self.row_boxes: list[tuple[float, float, float, float, str]] = []
        self.board_items: list[Any] = []
        self.static_items: list[Any] = []
        self.stone_items: dict[tuple[int, str, int, bool], list[Any]] = {}
        self.frame: ArbiterFrame | None = None
        self.dirty: list[tuple[int, int, int, int]] | None = None  # None: redraw everything
        self._alerts_shown: tuple[tuple[AlertLine, ...], int | None] | None = None
        self._board_shown: BoardView | None = None
        self._board_geometry = (0.0, 0.0, 1.0)  # x0, y0 of point a1, spacing
        self.layout(width, height)

    # --- geometry -----------------------------------------------------------------------

    def layout(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.pad = max(8.0, width * 0.008)
        self.line_h = height * 0.032
        self.header.position = (self.pad, height - self.line_h, 0)
        self.header.font_size = height * 0.026
        self.prompt.position = (self.pad, self.line_h * 2.0, 0)
        self.prompt.font_size = height * 0.024
        self.status.position = (self.pad, self.line_h * 0.8, 0)
        self.status.font_size = height * 0.02
        # The board: the biggest square right of the list; the left column holds the
        # alert list (top), the focused table's facts, and its clocks (bottom).
        top, bottom = height - self.line_h * 1.9, self.line_h * 2.9
        side = min(width * 0.5, top - bottom)
        self.board_rect = (width - self.pad - side, bottom, side, side)
        left_w = width - side - 3 * self.pad
        column_h = top - bottom
        clock_h = column_h * 0.34
        info_h = self.line_h * 2.6
        self.list_rect = (self.pad, bottom + clock_h + info_h, left_w, column_h - clock_h - info_h)
        self.info_rect = (self.pad, bottom + clock_h, left_w, info_h)
        self.clock.layout(self.pad, bottom, left_w, clock_h)
        self._alerts_shown = None
        self._board_shown = None
        self.dirty = None
        for item in self.static_items:
            item.delete()
        self.static_items = []
        for items in self.stone_items.values():
            for item in items:
                item.delete()
        self.stone_items = {}
        side = self.board_rect[2]
        step = side / (SIZE + 1)
        self._board_geometry = (self.board_rect[0] + step, self.board_rect[1] + step, step)

    # --- update -------------------------------------------------------------------------

    def update(self, frame: ArbiterFrame) -> bool:
        """Show ``frame``; False if nothing visible changed."""
        if frame == self.frame:
            return False
        self.frame = frame
        open_count = sum(1 for a in frame.alerts if not a.acknowledged)
        header = (
            f"裁判台 Arbiter{(' · ' + self.title) if self.title else ''} · "
            f"{('赛事 event ' + frame.event + ' · ') if frame.event else ''}"
            f"{len(frame.tables)} 桌 tables · 主机 hosts {frame.hosts_online} 在线 online"
            f" / {frame.hosts_offline} 离线 offline · {open_count} 未处理 open alerts"
        )
        full = False
        for label, text in ((self.header, header), (self.prompt, frame.prompt or "")):
            if label.text != text:
                label.text, full = text, True
        if self.status.text != frame.status:
            self.status.text, full = frame.status, True
        shown = (frame.alerts, frame.selected)
        if shown != self._alerts_shown:
            self._alerts_shown = shown
            self._build_rows(frame.alerts, frame.selected)
            full = True
        board = frame.board
        board_key = None if board is None else replace(board, clock=None)
        if board_key != self._board_shown:
            self._board_shown = board_key
            self._build_board(board)
            full = True
        with_clock = board is not None and board.clock is not None
        full |= with_clock != self.clock.visible
        self.clock.set_visible(with_clock)
        if board is not None and board.clock is not None and self.clock.update(board.clock):
            if self.clock.dirty is None:
                full = True
            elif self.dirty is not None:
                self.dirty += self.clock.dirty
        if full:
            self.dirty = None
        return True

    def draw_changes(self) -> None:
        """Repaint what changed since the last draw over the previous frame (the
        framebuffer must still hold it): on a clock tick, only the digits."""
        if self.dirty is None:
            self.draw()
        else:
            draw_scissored(self.batch, self.dirty)
        self.dirty = []
        self.clock.dirty = []

    # --- alert list ---------------------------------------------------------------------

    def _build_rows(self, alerts: tuple[AlertLine, ...], selected: int | None) -> None:
        for item in self.rows:
            item.delete()
        self.rows, self.row_boxes = [], []
        x, y, w, h = self.list_rect
        row_h = self.line_h * 2.1
        capacity = max(1, int(h // row_h))
        if len(alerts) > capacity:
            capacity = max(1, capacity - 1)  # the last slot says how many are not shown
        start = 0
        if selected is not None and selected >= capacity:
            start = selected - capacity + 1
        visible = alerts[start : start + capacity]
        top = y + h
        if not alerts:
            self.rows.append(
                _label(
                    self.batch,
                    self.text,
                    text="无警报 no alerts",
                    x=x + self.pad,
                    y=top - row_h / 2,
                    font_size=self.line_h * 0.8,
                    color=COLOURS["muted"],
                )
            )
        for offset, alert in enumerate(visible):
            index = start + offset
            ry = top - (offset + 1) * row_h
            acked = alert.acknowledged
            rect = shapes.Rectangle(
                x,
                ry + 2,
                w,
                row_h - 4,
                color=COLOURS["row_acked" if acked else "row"],
                batch=self.batch,
                group=self.back,
                blend_src=OPAQUE_SRC,
                blend_dest=OPAQUE_DEST,
            )
            bar_colour = (
                COLOURS["acked"] if acked else TIER_COLOURS.get(alert.tier, COLOURS["muted"])
            )
            bar = shapes.Rectangle(
                x, ry + 2, w * 0.012, row_h - 4, color=bar_colour, batch=self.batch, group=self.mid
            )
            self.rows += [rect, bar]
            if index == selected:
                self.rows.append(
                    shapes.Box(
                        x,
                        ry + 2,
                        w,
                        row_h - 4,
                        thickness=3,
                        color=COLOURS["selected"],
                        batch=self.batch,
                        group=self.front,
                    )
                )
            main = COLOURS["acked"] if acked else COLOURS["text"]
            sub = COLOURS["acked"] if acked else COLOURS["muted"]
            table = "—" if alert.table is None else str(alert.table)
            size = self.line_h * 0.78
            self.rows.append(
                _label(
                    self.batch,
                    self.text,
                    text=f"桌 {table}",
                    x=x + w * 0.025,
                    y=ry + row_h * 0.68,
                    font_size=size,
                    color=main,
                    weight="bold",
                )
            )
            tick = "✓ " if acked else ""
            self.rows.append(
                _label(
                    self.batch,
                    self.text,
                    text=f"{tick}{alert.label}",
                    x=x + w * 0.13,
                    y=ry + row_h * 0.68,
                    font_size=size,
                    color=main,
                )
            )
            age = "刚才 now" if alert.age_min == 0 else f"{alert.age_min} 分钟 min"
            self.rows.append(
                _label(
                    self.batch,
                    self.text,
                    text=age,
                    x=x + w - self.pad,
                    y=ry + row_h * 0.68,
                    font_size=size * 0.85,
                    color=sub,
                    anchor_x="right",
                )
            )
            limit = max(10, int(w / (size * 0.62)))
            self.rows.append(
                _label(
                    self.batch,
                    self.text,
                    text=_cut(
                        f"{alert.event} · {alert.text}" if alert.event else alert.text, limit
                    ),
                    x=x + w * 0.025,
                    y=ry + row_h * 0.28,
                    font_size=size * 0.8,
                    color=sub,
                )
            )
            self.row_boxes.append((x, ry, w, row_h, alert.key))
        hidden = len(alerts) - len(visible)
        if hidden > 0:
            self.rows.append(
                _label(
                    self.batch,
                    self.text,
                    text=f"… 另有 {hidden} 条 {hidden} more (↑↓)",
                    x=x + self.pad,
                    y=top - (len(visible) + 0.5) * row_h,
                    font_size=self.line_h * 0.7,
                    color=COLOURS["muted"],
                )
            )

    def alert_at(self, x: float, y: float) -> str | None:
        """The key of the alert row under (x, y) (GL coordinates), or None."""
        for rx, ry, rw, rh, key in self.row_boxes:
            if rx <= x < rx + rw and ry <= y < ry + rh:
                return key
        return None

    # --- board --------------------------------------------------------------------------

    def point_xy(self, point: int) -> tuple[float, float]:
        """The centre of a board point (GL coordinates)."""
        x0, y0, step = self._board_geometry
        return x0 + (point % SIZE) * step, y0 + (point // SIZE) * step

    def point_at(self, x: float, y: float) -> int | None:
        """The board point nearest (x, y), if within half a spacing; else None."""
        if self._board_shown is None:
            return None
        x0, y0, step = self._board_geometry
        col, row = round((x - x0) / step), round((y - y0) / step)
        if 0 <= col < SIZE and 0 <= row < SIZE:
            return row * SIZE + col
        return None

    def _show_static(self, visible: bool) -> None:
        """The wood, the grid, the coordinates: built once per layout, then only shown or
        hidden (a new stone rebuilds the stones and marks alone)."""
        if visible and not self.static_items:
            self._build_static()
        for item in self.static_items:
            if item.visible != visible:
                item.visible = visible

    def _build_static(self) -> None:
        add = self.static_items.append
        bx, by, side, _ = self.board_rect
        step = side / (SIZE + 1)
        x0, y0 = bx + step, by + step
        self._board_geometry = (x0, y0, step)
        batch, back, mid, text = self.batch, self.back, self.mid, self.text
        add(
            shapes.Rectangle(
                bx,
                by,
                side,
                side,
                color=COLOURS["wood"],
                batch=batch,
                group=back,
                blend_src=OPAQUE_SRC,
                blend_dest=OPAQUE_DEST,
            )
        )
        span = step * (SIZE - 1)
        for i in range(SIZE):
            add(
                shapes.Line(
                    x0,
                    y0 + i * step,
                    x0 + span,
                    y0 + i * step,
                    thickness=1.5,
                    color=COLOURS["grid"],
                    batch=batch,
                    group=mid,
                )
            )
            add(
                shapes.Line(
                    x0 + i * step,
                    y0,
                    x0 + i * step,
                    y0 + span,
                    thickness=1.5,
                    color=COLOURS["grid"],
                    batch=batch,
                    group=mid,
                )
            )
            size = step * 0.36
            add(
                _label(
                    batch,
                    text,
                    text=COLUMNS[i],
                    x=x0 + i * step,
                    y=by + step * 0.4,
                    font_size=size,
                    color=COLOURS["grid"],
                    anchor_x="center",
                )
            )
            add(
                _label(
                    batch,
                    text,
                    text=str(i + 1),
                    x=bx + step * 0.45,
                    y=y0 + i * step,
                    font_size=size,
                    color=COLOURS["grid"],
                    anchor_x="center",
                )
            )
        for cx, cy in STAR_POINTS:
            add(
                shapes.Circle(
                    x0 + cx * step,
                    y0 + cy * step,
                    step * 0.1,
                    color=COLOURS["grid"],
                    batch=batch,
                    group=mid,
                )
            )

    def _update_stones(self, board: BoardView | None) -> None:
        """Keep one set of shapes per stone (point, colour, number, last): a new move adds
        one stone and re-inks the previous last one instead of rebuilding the board."""
        wanted: set[tuple[int, str, int, bool]] = set()
        if board is not None:
            wanted = {(p, c, n, p == board.last) for p, c, n in board.stones}
        for gone in [k for k in self.stone_items if k not in wanted]:
            for item in self.stone_items.pop(gone):
                item.delete()
        step = self._board_geometry[2]
        r = step * 0.46
        batch, front, text = self.batch, self.front, self.text
        for stone in sorted(wanted - set(self.stone_items)):
            point, colour, number, last = stone
            px, py = self.point_xy(point)
            items: list[Any] = []
            if colour == "white":
                items.append(
                    shapes.Circle(
                        px, py, r, segments=40, color=COLOURS["white_rim"], batch=batch, group=front
                    )
                )
            items.append(
                shapes.Circle(
                    px,
                    py,
                    r - 1.5 if colour == "white" else r,
                    segments=40,
                    color=COLOURS[colour + "_stone"],
                    batch=batch,
                    group=front,
                )
            )
            ink = COLOURS["last"] if last else COLOURS["number_on_" + colour]
            items.append(
                _label(
                    batch,
                    text,
                    text=str(number),
                    x=px,
                    y=py,
                    font_size=step * (0.42 if number < 100 else 0.34),
                    color=ink,
                    anchor_x="center",
                    weight="bold" if last else "normal",
                )
            )
            self.stone_items[stone] = items

    def _build_board(self, board: BoardView | None) -> None:
        for item in self.board_items:
            item.delete()
        self.board_items = []
        add = self.board_items.append
        bx, by, side, _ = self.board_rect
        ix, iy, _iw, ih = self.info_rect
        if board is None:
            self._show_static(False)
            self._update_stones(None)
            add(
                _label(
                    self.batch,
                    self.text,
                    text="未选桌 no table focused ([ ] or select an alert)",
                    x=bx,
                    y=by + side / 2,
                    font_size=self.line_h * 0.8,
                    color=COLOURS["muted"],
                )
            )
            return
        self._show_static(True)
        step = self._board_geometry[2]
        batch, front, text = self.batch, self.front, self.text
        r = step * 0.46
        self._update_stones(board)
        for point in board.offers:
            px, py = self.point_xy(point)
            add(
                shapes.Arc(
                    px,
                    py,
                    r,
                    segments=40,
                    thickness=2,
                    color=COLOURS["pending"],
                    batch=batch,
                    group=front,
                )
            )
        if board.pending is not None:
            px, py = self.point_xy(board.pending)
            stone = shapes.Circle(
                px, py, r, segments=40, color=COLOURS["pending"], batch=batch, group=front
            )
            stone.opacity = 150
            add(stone)
        for point in board.marked:
            px, py = self.point_xy(point)
            add(
                shapes.Arc(
                    px,
                    py,
                    r + step * 0.06,
                    segments=40,
                    thickness=max(2.0, step * 0.08),
                    color=COLOURS["marked"],
                    batch=batch,
                    group=text,
                )
            )
        arm = step * 0.3
        for point, kind in board.forbidden:
            px, py = self.point_xy(point)
            width = max(2.0, step * 0.09)
            add(
                shapes.Line(
                    px - arm,
                    py - arm,
                    px + arm,
                    py + arm,
                    thickness=width,
                    color=COLOURS["forbidden"],
                    batch=batch,
                    group=front,
                )
            )
            add(
                shapes.Line(
                    px - arm,
                    py + arm,
                    px + arm,
                    py - arm,
                    thickness=width,
                    color=COLOURS["forbidden"],
                    batch=batch,
                    group=front,
                )
            )
            add(
                _label(
                    batch,
                    text,
                    text=kind,
                    x=px + step * 0.36,
                    y=py + step * 0.34,
                    font_size=step * 0.36,
                    color=COLOURS["forbidden"],
                    anchor_x="center",
                    weight="bold",
                )
            )
        # the table's facts, between the alert list and the clocks
        pending = "否 no" if board.pending is None else f"是 yes ({point_name(board.pending)})"
        # (the table's event, in a hall of several, is in the clock's title just below)
        lines = [
            f"第 {board.table} 桌 table {board.table} · 规则 rules {board.rule_set} · "
            f"违规 infractions 先手 first {board.infractions[0]} / 后手 second "
            f"{board.infractions[1]} · 未处理 open {board.alerts}",
            f"禁手 forbidden points {len(board.forbidden)}"
            + (" (✕ 33 三三 · 44 四四 · ol 长连)" if board.forbidden else "")
            + f" · 待按钟 stone awaiting press: {pending}",
        ]
        if board.note:
            lines = [board.note, *lines[:1]]
        size = self.line_h * 0.62
        for n, line in enumerate(lines):
            add(
                _label(
                    batch,
                    text,
                    text=line,
                    x=ix,
                    y=iy + ih - (n + 0.75) * size * 1.6,
                    font_size=size,
                    color=COLOURS["text"] if n == 0 else COLOURS["muted"],
                )
            )

    def draw(self) -> None:
        """Everything, from a cleared window."""
        clear_colour()
        gl.glClear(gl.GL_COLOR_BUFFER_BIT)
        self.batch.draw()
        self.dirty = []
        self.clock.dirty = []
