"""One table's card on the scoreboard, and the drawing helpers the pages share.

A `CardView` owns a batch of its own (board, stones, names, match score, status, stale
badge) and two clock faces in the renderer's clock batches (`GlyphText`: one sprite per
character, so a tick is cheap). `update` takes a `TableCard` and says what changed — the
card's own drawing, or only a clock face — so the renderer repaints only that.

Import only after `wuzi.display.headless.prepare` (pyglet.shapes imports pyglet.window).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TypeVar

from pyglet import shapes
from pyglet.graphics import Batch, Group
from pyglet.text import Label

from wuzi.display.glyph_text import GlyphText, load_font
from wuzi.display.scoreboard_model import LABELS, ClockFace, TableCard
from wuzi.rules.board import SIZE

__all__ = [
    "COLOURS",
    "DPI",
    "CardView",
    "Drawables",
    "Rect",
    "clock_colours",
    "fit_text",
    "grid_shape",
    "make_label",
    "set_text",
    "xywh",
]

RGB = tuple[int, int, int]
_T = TypeVar("_T", bound=shapes.ShapeBase | Label | GlyphText)

COLOURS: dict[str, RGB] = {
    "background": (16, 20, 28),
    "header": (28, 34, 46),
    "card": (34, 40, 54),
    "card_stale": (54, 34, 38),
    "wood": (222, 184, 120),
    "line": (70, 48, 24),
    "black_stone": (12, 12, 12),
    "white_stone": (248, 248, 248),
    "last_move": (230, 40, 40),
    "offer": (40, 90, 220),
    "text": (235, 238, 245),
    "dim": (150, 158, 175),
    "running": (255, 196, 0),
    "running_text": (20, 20, 20),
    "low": (255, 120, 90),
    "flag": (220, 40, 40),
    "stale": (220, 30, 30),
    "winner": (255, 210, 80),
    "box": (40, 48, 64),
    "accent": (90, 160, 255),
}

DPI = 72  # font_size is then in pixels

# Draw order inside every batch.
G_BACK, G_BOARD, G_LINES, G_STONES, G_MARKS, G_TEXT, G_BADGE, G_BADGE_TEXT = (
    Group(order=i) for i in range(8)
)
G_BOTTOM = Group(order=-1)


@dataclass(frozen=True)
class Rect:
    """x, y of the bottom-left corner, width, height (window pixels, y up)."""

    x: float
    y: float
    w: float
    h: float

    def contains(self, x: float, y: float) -> bool:
        return self.x <= x < self.x + self.w and self.y <= y < self.y + self.h


def grid_shape(width: int, height: int) -> tuple[int, int]:
    """Columns and rows of table cards: 6x4 on a landscape screen, 4x6 on a portrait one."""
    return (6, 4) if width >= height else (4, 6)


def fitted_grid(count: int, cols: int, rows: int, width: float, height: float) -> tuple[int, int]:
    """The grid for a page of only ``count`` cards within a ``cols`` x ``rows`` page of
    ``width`` x ``height``: the one whose cards are drawn largest (scaled as a whole
    against a card of the full grid, whose proportions the card's layout is made for),
    the fewer cells on a tie. A hall of several events gives each event its own pages,
    often of a few tables: eight tables on a 24-card grid would leave two thirds of the
    screen empty and the boards small across the hall."""
    count = max(1, min(count, cols * rows))
    full_w, full_h = width / cols, height / rows
    best: tuple[float, int, tuple[int, int]] | None = None
    for c in range(1, cols + 1):
        for r in range(1, rows + 1):
            if c * r < count:
                continue
            scale = min(width / c / full_w, height / r / full_h)
            key = (-scale, c * r, (c, r))
            if best is None or key < best:
                best = key
    assert best is not None
    return best[2]


def fit_text(text: str, max_px: float, font_px: float) -> str:
    """``text`` cut (with …) to about ``max_px`` wide: CJK characters count a full em,
    others about 0.58 em — a cheap estimate, refined by measuring in `_fit`."""

    def width(s: str) -> float:
        return sum(font_px if ord(c) > 0x2E7F else font_px * 0.58 for c in s)

    if width(text) <= max_px:
        return text
    while text and width(text + "…") > max_px:
        text = text[:-1]
    return text + "…"


def clock_colours(face: ClockFace | None, card_bg: RGB) -> tuple[RGB, RGB]:
    """(box, digits) colours of a clock face: yellow box while running, red once flagged."""
    if face is None:
        return card_bg, COLOURS["dim"]
    if face.flagged:
        return COLOURS["flag"], (255, 255, 255)
    if face.running:
        return COLOURS["running"], COLOURS["flag"] if face.low else COLOURS["running_text"]
    return card_bg, COLOURS["low"] if face.low else COLOURS["text"]


class Drawables:
    """Shapes and labels deleted together (one page, one card)."""

    def __init__(self) -> None:
        self.items: list[shapes.ShapeBase | Label | GlyphText] = []

    def add(self, item: _T) -> _T:
        self.items.append(item)
        return item

    def delete(self) -> None:
        for item in self.items:
            item.delete()
        self.items.clear()


def set_text(label: Label, text: str) -> bool:
    if label.text != text:
        label.text = text
        return True
    return False


def _fit(label: Label, text: str, max_px: float) -> None:
    """Show ``text`` in ``label``, cut with … to at most ``max_px`` wide (measured)."""
    shown = fit_text(text, max_px * 1.6, label.font_size)  # a cheap first cut
    label.text = shown
    while len(shown) > 1 and label.content_width > max_px:
        shown = shown[:-1]
        label.text = shown.rstrip() + "…"


def make_label(text: str, x: float, y: float, px: float, colour: RGB, **kw: object) -> Label:
    return Label(
        text,
        x=x,
        y=y,
        font_size=px,
        dpi=DPI,
        color=(*colour, 255),
        **kw,  # type: ignore[arg-type]
    )


def xywh(rect: Rect) -> tuple[float, float, float, float]:
    return rect.x, rect.y, rect.w, rect.h


class CardView:
    """One table's card: its own batch (board, stones, names, match, badge) plus its two
    clock faces in the renderer's shared clock batch."""

    def __init__(
        self,
        rect: Rect,
        fonts: tuple[str, str],
        clock_batches: tuple[Batch, Batch],
        focus: bool = False,
    ) -> None:
        self.batch = batch = Batch()
        self.rect = rect
        self.own = own = Drawables()
        ui, mono = fonts
        x, y, w, h = xywh(rect)
        pad = self.pad = max(2.0, h * (0.02 if focus else 0.035))
        row = h * (0.075 if focus else 0.12)
        self.bg_colour = COLOURS["card"]
        self.bg = own.add(
            shapes.Rectangle(x, y, w, h, color=self.bg_colour, batch=batch, group=G_BACK)
        )
        side = min(h - 2 * row - 2 * pad, w * (0.5 if focus else 0.56))
        self.board_rect = Rect(x + pad, y + pad, side, side)
        self._board(side)
        self.stones: dict[int, tuple[str, shapes.Circle]] = {}
        self.offers: dict[int, shapes.Arc] = {}
        self.last = own.add(
            shapes.Circle(
                0,
                0,
                max(1.5, self.cell * 0.2),
                color=COLOURS["last_move"],
                batch=batch,
                group=G_MARKS,
            )
        )
        self.last.visible = False
        self.title_px = row * 0.62
        self.title = own.add(
            make_label(
                "",
                x + pad,
                y + h - row * 0.5,
                self.title_px,
                COLOURS["dim"],
                anchor_y="center",
                font_name=ui,
                batch=batch,
                group=G_TEXT,
            )
        )
        self.match = own.add(
            make_label(
                "",
                x + w / 2,
                y + h - row * 1.5,
                row * 0.66,
                COLOURS["text"],
                anchor_x="center",
                anchor_y="center",
                font_name=ui,
                weight="bold",
                batch=batch,
                group=G_TEXT,
            )
        )
        cx = self.board_rect.x + side + pad
        cw = x + w - pad - cx
        self.col_x, self.col_w = cx, cw
        top = y + h - 2 * row
        block = (top - y - pad) / 2
        name_px = self.name_px = min(block * 0.2, cw * 0.16)
        clock_px = min(block * 0.46, cw * 0.27)
        clock_font = load_font(mono, clock_px)
        self.names: dict[str, Label] = {}
        self.clocks: dict[str, GlyphText] = {}
        self.clock_box: dict[str, shapes.Rectangle] = {}
        self.clock_rects: dict[str, Rect] = {}
        self.clock_own = Drawables()
        self.clock_batches = clock_batches
        self.touched: list[tuple[int, Rect]] = []  # faces changed: (clock batch, rect)
        for i, colour in enumerate(("black", "white")):
            btop = top - i * block
            icon_r = name_px * 0.42
            own.add(
                shapes.Circle(
                    cx + icon_r,
                    btop - block * 0.2,
                    icon_r,
                    color=COLOURS[f"{colour}_stone"],
                    batch=batch,
                    group=G_STONES,
                )
            )
            self.names[colour] = own.add(
                make_label(
                    "",
                    cx + icon_r * 2 + pad * 0.6,
                    btop - block * 0.2,
                    name_px,
                    COLOURS["text"],
                    anchor_y="center",
                    font_name=ui,
                    batch=batch,
                    group=G_TEXT,
                )
            )
            crect = Rect(cx, btop - block * 0.92, cw, block * 0.56)
            self.clock_rects[colour] = crect
            self.clock_box[colour] = self.clock_own.add(
                shapes.Rectangle(
                    *xywh(crect), color=self.bg_colour, batch=clock_batches[0], group=G_BACK
                )
            )
            self.clocks[colour] = self.clock_own.add(
                GlyphText(
                    clock_font,
                    crect.x + crect.w / 2,
                    crect.y + crect.h / 2,
                    batch=clock_batches[0],
                    group=G_TEXT,
                )
            )
        # the game's status (result, paused …) at the top right, where the stale badge
        # goes when the table is stale
        self.status = own.add(
            make_label(
                "",
                x + w - pad,
                y + h - row * 0.5,
                self.title_px,
                COLOURS["winner"],
                anchor_x="right",
                anchor_y="center",
                font_name=ui,
                weight="bold",
                batch=batch,
                group=G_TEXT,
            )
        )
        bw, bh = min(w * 0.42, self.title_px * 6.2), row * 0.86
        self.badge_rect = Rect(x + w - pad - bw, y + h - row * 0.93, bw, bh)
        self.badge = own.add(
            shapes.Rectangle(
                *xywh(self.badge_rect), color=COLOURS["stale"], batch=batch, group=G_BADGE
            )
        )
        self.badge_label = own.add(
            make_label(
                LABELS["stale"],
                self.badge_rect.x + bw / 2,
                self.badge_rect.y + bh / 2,
                self.title_px * 0.92,
                (255, 255, 255),
                anchor_x="center",
                anchor_y="center",
                font_name=ui,
                weight="bold",
                batch=batch,
                group=G_BADGE_TEXT,
            )
        )
        self.badge.visible = self.badge_label.visible = False
        self.card: TableCard | None = None

    def _board(self, side: float) -> None:
        batch, own = self.batch, self.own
        bx, by = self.board_rect.x, self.board_rect.y
        own.add(
            shapes.Rectangle(bx, by, side, side, color=COLOURS["wood"], batch=batch, group=G_BOARD)
        )
        self.cell = side / SIZE
        first = self.cell / 2
        thick = max(1.0, side / 220)
        for i in range(SIZE):
            c = first + i * self.cell
            for x0, y0, x1, y1 in (
                (bx + first, by + c, bx + side - first, by + c),
                (bx + c, by + first, bx + c, by + side - first),
            ):
                own.add(
                    shapes.Line(
                        x0,
                        y0,
                        x1,
                        y1,
                        thickness=thick,
                        color=COLOURS["line"],
                        batch=batch,
                        group=G_LINES,
                    )
                )
        for col, row in ((3, 3), (11, 3), (7, 7), (3, 11), (11, 11)):
            px, py = self.point_xy(row * SIZE + col)
            own.add(
                shapes.Circle(
                    px,
                    py,
                    max(1.5, self.cell * 0.12),
                    color=COLOURS["line"],
                    batch=batch,
                    group=G_LINES,
                )
            )

    def point_xy(self, point: int) -> tuple[float, float]:
        col, row = point % SIZE, point // SIZE  # row index 0 is row 1, at the bottom
        return (
            self.board_rect.x + self.cell * (col + 0.5),
            self.board_rect.y + self.cell * (row + 0.5),
        )

    def update(self, card: TableCard) -> tuple[bool, bool]:
        """Take ``card`` in; returns (the card's own drawing changed, a clock changed)."""
        old = self.card
        if old == card:
            return False, False
        self.card = card
        clocks = False
        for colour, face in (("black", card.black_clock), ("white", card.white_clock)):
            clocks |= self._clock(colour, face)
        if old is not None and old == _with_clocks(card, old):
            return False, clocks
        if old is None or old.title != card.title:
            _fit(self.title, card.title, self.badge_rect.x - self.rect.x - 2 * self.pad)
        if old is None or old.match != card.match:
            _fit(self.match, card.match, self.rect.w - 2 * self.pad)
        for colour, name in (("black", card.black), ("white", card.white)):
            if old is None or getattr(old, colour) != name:
                _fit(self.names[colour], name, self.col_w - self.name_px * 1.3)
        if old is None or old.status != card.status:
            _fit(self.status, card.status, self.badge_rect.w)
        if old is None or (old.black_stones, old.white_stones) != (
            card.black_stones,
            card.white_stones,
        ):
            self._stones(card)
        if old is None or old.offers != card.offers:
            self._offers(card.offers)
        if card.last_move is None:
            self.last.visible = False
        else:
            self.last.position = self.point_xy(card.last_move)
            self.last.visible = True
        if old is None or old.stale != card.stale:
            self.badge.visible = self.badge_label.visible = card.stale
            self.status.visible = not card.stale
            self.bg_colour = COLOURS["card_stale"] if card.stale else COLOURS["card"]
            self.bg.color = self.bg_colour
            for colour, face in (("black", card.black_clock), ("white", card.white_clock)):
                self._clock(colour, face, force=True)
            clocks = True
        return True, clocks

    def update_clocks(self, black: ClockFace | None, white: ClockFace | None) -> bool:
        """Only the faces changed (time passed): True if one shows something else."""
        card = self.card
        if card is None or (card.black_clock, card.white_clock) == (black, white):
            return False
            self.card = replace(card, black_clock=black, white_clock=white)
        changed = self._clock("black", black)
        return self._clock("white", white) or changed

    def _clock(self, colour: str, face: ClockFace | None, force: bool = False) -> bool:
        box_colour, digits = clock_colours(face, self.bg_colour)
        box, text = self.clock_box[colour], self.clocks[colour]
        index = 1 if face is not None and face.running else 0
        changed = force
        if box.batch is not self.clock_batches[index]:  # started or stopped running
            box.batch = self.clock_batches[index]
            text.set_batch(self.clock_batches[index])
            changed = True
        if tuple(box.color[:3]) != box_colour:
            box.color = box_colour
            changed = True
        changed |= text.set("—" if face is None else face.text, digits)
        if changed:
            self.touched.append((index, self.clock_rects[colour]))
        return changed

    def _stones(self, card: TableCard) -> None:
        wanted = dict.fromkeys(card.black_stones, "black")
        wanted.update(dict.fromkeys(card.white_stones, "white"))
        for point in [p for p, (c, _s) in self.stones.items() if wanted.get(p) != c]:
            self.stones.pop(point)[1].delete()
        radius = self.cell * 0.46
        for point, colour in wanted.items():
            if point not in self.stones:
                x, y = self.point_xy(point)
                circle = shapes.Circle(
                    x,
                    y,
                    radius,
                    segments=max(12, int(radius)),
                    color=COLOURS[f"{colour}_stone"],
                    batch=self.batch,
                    group=G_STONES,
                )
                self.stones[point] = (colour, circle)

    def _offers(self, offers: tuple[int, ...]) -> None:
        for point in [p for p in self.offers if p not in offers]:
            self.offers.pop(point).delete()
        for point in offers:
            if point not in self.offers:
                x, y = self.point_xy(point)
                self.offers[point] = shapes.Arc(
                    x,
                    y,
                    self.cell * 0.4,
                    thickness=max(1.0, self.cell * 0.12),
                    color=COLOURS["offer"],
                    batch=self.batch,
                    group=G_MARKS,
                )

    def delete(self) -> None:
        for _c, circle in self.stones.values():
            circle.delete()
        for arc in self.offers.values():
            arc.delete()
        self.stones.clear()
        self.offers.clear()
        self.own.delete()
        self.clock_own.delete()


def _with_clocks(card: TableCard, other: TableCard) -> TableCard:
    """``card`` with ``other``'s clock faces: equal to ``other`` iff only the clocks differ."""
    return replace(card, black_clock=other.black_clock, white_clock=other.white_clock)
