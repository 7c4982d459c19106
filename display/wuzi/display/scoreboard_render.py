"""Drawing the venue scoreboard with pyglet: batches, reused shapes, redraw what changed.

Import only after `wuzi.display.headless.prepare` (pyglet.shapes imports pyglet.window).

`ScoreboardRenderer.show(page, model, now_ms)` brings the drawing objects up to date with
the view model, touching only what changed: a new stone adds one circle, a clock that
rolls over swaps a few glyph sprites (`GlyphText`), a page turn rebuilds that page.

Under software GL (llvmpipe) the cost of a frame is the pixels it touches: a full-screen
clear alone takes milliseconds at 1080p. So the renderer keeps what it drew and repaints
only what changed (`draw_changes`): the clock faces are one batch of opaque boxes and
glyphs that covers nothing else, so a tick repaints those boxes only; a card whose stones,
names or badge changed is repainted inside its own rectangle (each card has its own
batch); a page turn repaints everything (`draw`). That needs a framebuffer that keeps
its content between frames — a single-buffered window, or the headless pbuffer; with a
double-buffered window call `draw` for every frame instead (``incremental=False``).

Geometry helpers (`card_rect`, `point_xy`, `clock_rect`, `badge_rect`) say where things are
drawn, in window pixels with y up, so tests can check the pixels of a snapshot.
"""

from __future__ import annotations

from pyglet import gl, shapes
from pyglet.graphics import Batch

from wuzi.display.fonts import clock_font_name, ui_font_name
from wuzi.display.glyph_text import GlyphText
from wuzi.display.scoreboard_card import (
    COLOURS,
    G_BACK,
    G_BOTTOM,
    G_TEXT,
    CardView,
    Drawables,
    Rect,
    clock_colours,
    fit_text,
    fitted_grid,
    grid_shape,
    make_label,
    set_text,
    xywh,
)
from wuzi.display.scoreboard_events import build_events, leader_rows
from wuzi.display.scoreboard_model import (
    LABELS,
    BracketBox,
    Page,
    StandingRow,
    VenueModel,
    bracket_columns,
    event_columns,
    place_blocks,
    standing_rows,
    tiebreak_header,
)
from wuzi.display.scoreboard_places import build_places

__all__ = ["COLOURS", "Rect", "ScoreboardRenderer", "clock_colours", "fit_text", "grid_shape"]

HEADER_FRACTION = 0.065
FOOTER_FRACTION = 0.035
FEW_FACES = 6  # up to this many changed clock faces are repainted one by one


class ScoreboardRenderer:
    """The scoreboard's drawing for a framebuffer of ``width`` x ``height`` pixels."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.fonts = (ui_font_name(), clock_font_name())
        self.header_h = height * HEADER_FRACTION
        self.footer_h = height * FOOTER_FRACTION
        self.margin = max(4.0, width * 0.004)
        self.content = Rect(
            self.margin,
            self.footer_h,
            width - 2 * self.margin,
            height - self.header_h - self.footer_h,
        )
        self.cols, self.rows = grid_shape(width, height)
        self.frame_batch = Batch()  # background, header, footer, centre message
        self.page_batch = Batch()  # bracket / standings
        # Every card's clock faces: those that stand still, and those that run (the
        # only ones that change as time passes, so a tick repaints just these).
        self.clock_batches = (Batch(), Batch())
        self._frame = Drawables()
        self._build_frame()
        self._page_key: tuple[object, ...] | None = None
        self._page_items = Drawables()
        self._cards: dict[int, CardView] = {}
        self._page_data: object = None
        self._version = -1
        # what changed since the last draw
        self._full = True
        self._dirty_cards: set[int] = set()
        self._dirty_clocks: list[tuple[int, Rect]] = []  # (clock batch, face rect)
        self._dirty_bars = False

    @property
    def tables_per_page(self) -> int:
        return self.cols * self.rows

    @property
    def standings_rows(self) -> int:
        return max(1, int(self.content.h / self._standing_row_h()) - 3)

    def _standing_row_h(self) -> float:
        return max(18.0, self.height / 30)

    def _build_frame(self) -> None:
        b, ui, add = self.frame_batch, self.fonts[0], self._frame.add
        w, h, m = self.width, self.height, self.margin
        add(shapes.Rectangle(0, 0, w, h, color=COLOURS["background"], batch=b, group=G_BOTTOM))
        add(
            shapes.Rectangle(
                0,
                h - self.header_h,
                w,
                self.header_h,
                color=COLOURS["header"],
                batch=b,
                group=G_BACK,
            )
        )
        px = self.event_px = self.header_h * 0.42
        self.event_label = add(
            make_label(
                "",
                m * 3,
                h - self.header_h / 2,
                px,
                COLOURS["text"],
                anchor_y="center",
                font_name=ui,
                weight="bold",
                batch=b,
                group=G_TEXT,
            )
        )
        self.page_label = add(
            make_label(
                "",
                w - m * 3,
                h - self.header_h / 2,
                px * 0.9,
                COLOURS["accent"],
                anchor_x="right",
                anchor_y="center",
                font_name=ui,
                batch=b,
                group=G_TEXT,
            )
        )
        fpx = self.footer_h * 0.55
        self.footer_left = add(
            make_label(
                "",
                m * 3,
                self.footer_h / 2,
                fpx,
                COLOURS["dim"],
                anchor_y="center",
                font_name=ui,
                batch=b,
                group=G_TEXT,
            )
        )
        self.footer_right = add(
            make_label(
                "",
                w - m * 3,
                self.footer_h / 2,
                fpx,
                COLOURS["low"],
                anchor_x="right",
                anchor_y="center",
                font_name=ui,
                batch=b,
                group=G_TEXT,
            )
        )
        self.message = add(
            make_label(
                "",
                w / 2,
                h / 2,
                h * 0.04,
                COLOURS["dim"],
                anchor_x="center",
                anchor_y="center",
                font_name=ui,
                batch=b,
                group=G_TEXT,
            )
        )

    # geometry

    def card_rect(self, slot: int, shape: tuple[int, int] | None = None) -> Rect:
        """The rectangle of the ``slot``-th card of a tables page (0-based, row by row) on
        the ``shape`` (columns, rows) grid, by default the screen's full one."""
        gap = self.margin
        cols, rows = shape or (self.cols, self.rows)
        cw = (self.content.w - gap * (cols - 1)) / cols
        ch = (self.content.h - gap * rows) / rows
        col, row = slot % cols, slot // cols
        return Rect(
            self.content.x + col * (cw + gap),
            self.content.y + self.content.h - (row + 1) * ch - row * gap,
            cw,
            ch,
        )

    def page_grid(self, page: Page) -> tuple[int, int]:
        """The card grid of a tables page: the screen's full grid, but a page of one event
        of a hall of several with few tables draws them larger (`fitted_grid`). A
        one-event venue keeps the full grid, page by page alike."""
        if page.event is None or page.kind != "tables":
            return self.cols, self.rows
        return fitted_grid(len(page.tables), self.cols, self.rows, self.content.w, self.content.h)

    def focus_rect(self) -> Rect:
        c = self.content
        return Rect(c.x, c.y + self.margin, c.w, c.h - 2 * self.margin)

    def point_xy(self, table: int, point: int) -> tuple[float, float]:
        """Where the stone on ``point`` of ``table``'s mini board is drawn (centre)."""
        return self._cards[table].point_xy(point)

    def cell_px(self, table: int) -> float:
        return self._cards[table].cell

    def clock_rect(self, table: int, colour: str) -> Rect:
        return self._cards[table].clock_rects[colour]

    def clock_text(self, table: int, colour: str) -> GlyphText:
        return self._cards[table].clocks[colour]

    def badge_rect(self, table: int) -> Rect:
        return self._cards[table].badge_rect

    def card_of(self, table: int) -> Rect:
        return self._cards[table].rect

    def shown_tables(self) -> list[int]:
        return list(self._cards)

    # updating

    def show(
        self,
        page: Page | None,
        model: VenueModel,
        now_ms: int,
        *,
        footer: str = "",
        notice: str = "",
        message: str = "",
    ) -> None:
        """Bring the drawing up to date with ``page`` of ``model`` at ``now_ms``.

        ``footer`` (bottom left) and ``notice`` (bottom right: the delay) are free text;
        ``message`` replaces the page (e.g. "waiting for data")."""
        event_id = page.event if page is not None else None
        competition = model.competition_of(event_id)
        event = competition.event if competition is not None else (model.venue or "")
        if competition is None and event_id:
            event = model.event_name(event_id)
        if page is not None and page.kind == "events":
            event = LABELS["all_events"]
        if competition is not None and competition.round:
            rnd = LABELS["round_of"].format(n=competition.round, m=competition.rounds)
            event = f"{event}   {rnd}" if event else rnd
        title = "" if message or page is None or page.kind == "events" else page.title
        if page is not None and page.event_number and page.events > 1:  # which of several
            which = LABELS["event_of"].format(n=page.event_number, m=page.events)
            title = f"{which}   {title}" if title else which
        room = 0.55 if page is not None and page.events > 1 else 0.7  # leave the page label room
        bars = set_text(self.event_label, fit_text(event, self.width * room, self.event_px))
        bars |= set_text(self.footer_left, footer)
        bars |= set_text(self.footer_right, notice)
        bars |= set_text(self.page_label, title)
        self._dirty_bars |= bars
        if message or page is None:
            if self._page_key is not None:
                self._clear_page()
            if set_text(self.message, message or LABELS["no_data"]):
                self._full = True
            return
        if set_text(self.message, ""):
            self._full = True
        if page.kind in ("tables", "focus"):
            key: tuple[object, ...] = (page.kind, page.tables)
            if key != self._page_key:
                self._clear_page()
                self._page_key = key
                shape = self.page_grid(page)
                for slot, table in enumerate(page.tables):
                    focus = page.kind == "focus"
                    rect = self.focus_rect() if focus else self.card_rect(slot, shape)
                    self._cards[table] = CardView(
                        rect, self.fonts, self.clock_batches, page.kind == "focus"
                    )
            full = model.version != self._version
            self._version = model.version
            for table, view in self._cards.items():
                card = view.card
                if not full and card is not None and model.is_stale(table, now_ms) == card.stale:
                    # Nothing but time has passed: only the clock faces can differ.
                    view.update_clocks(*model.clock_faces(table, now_ms))
                    self._dirty_clocks += view.touched
                    view.touched.clear()
                    continue
                card_changed, _ = view.update(model.card(table, now_ms))
                if card_changed:
                    self._dirty_cards.add(table)
                self._dirty_clocks += view.touched
                view.touched.clear()
        elif page.kind == "events":
            row_h = self._standing_row_h() * 1.25
            columns = event_columns(model, leader_rows(self.content, row_h))
            if self._page_key != ("events",) or columns != self._page_data:
                self._clear_page()
                self._page_key, self._page_data = ("events",), columns
                build_events(
                    columns,
                    self.content,
                    row_h,
                    batch=self.page_batch,
                    font=self.fonts[0],
                    own=self._page_items,
                )
        elif page.kind == "bracket" and competition is not None:
            data = bracket_columns(competition.bracket)
            if self._page_key != ("bracket",) or data != self._page_data:
                self._clear_page()
                self._page_key, self._page_data = ("bracket",), data
                self._build_bracket(data)
        elif page.kind == "standings" and competition is not None and competition.bracket:
            blocks = place_blocks(competition.standings, competition.bracket)
            if self._page_key != ("places", page.rows) or blocks != self._page_data:
                self._clear_page()
                self._page_key, self._page_data = ("places", page.rows), blocks
                build_places(
                    blocks,
                    page.rows,
                    self.content,
                    self._standing_row_h(),
                    batch=self.page_batch,
                    font=self.fonts[0],
                    own=self._page_items,
                )
        elif page.kind == "standings" and competition is not None:
            rows = standing_rows(competition.standings, *page.rows)
            data2 = (rows, competition.tiebreak_names, competition.tiebreak_formulas)
            if self._page_key != ("standings", page.rows) or data2 != self._page_data:
                self._clear_page()
                self._page_key, self._page_data = ("standings", page.rows), data2
                self._build_standings(
                    rows, competition.tiebreak_names, competition.tiebreak_formulas
                )
        elif self._page_key is not None:
            self._clear_page()

    def _clear_page(self) -> None:
        for view in self._cards.values():
            view.delete()
        self._cards.clear()
        self._page_items.delete()
        self._page_key = None
        self._page_data = None
        self._version = -1
        self._full = True

    def _build_bracket(self, columns: list[tuple[int, list[BracketBox]]]) -> None:
        if not columns:
            return
        b, ui, own, area = self.page_batch, self.fonts[0], self._page_items, self.content
        gap = self.margin * 3
        colw = (area.w - gap * (len(columns) - 1)) / len(columns)
        most = max(len(boxes) for _n, boxes in columns)
        head_h = area.h * 0.06
        slot_h = (area.h - head_h) / most
        for i, (number, boxes) in enumerate(columns):
            x = area.x + i * (colw + gap)
            own.add(
                make_label(
                    LABELS["round"].format(n=number),
                    x + colw / 2,
                    area.y + area.h - head_h / 2,
                    head_h * 0.5,
                    COLOURS["accent"],
                    anchor_x="center",
                    anchor_y="center",
                    font_name=ui,
                    weight="bold",
                    batch=b,
                    group=G_TEXT,
                )
            )
            offset = (most - len(boxes)) * slot_h / 2
            for j, box in enumerate(boxes):
                top = area.y + area.h - head_h - offset - j * slot_h
                self._bracket_box(box, Rect(x, top - slot_h * 0.94, colw, slot_h * 0.88))

    def _bracket_box(self, box: BracketBox, r: Rect) -> None:
        b, ui, own = self.page_batch, self.fonts[0], self._page_items
        own.add(shapes.Rectangle(*xywh(r), color=COLOURS["box"], batch=b, group=G_BACK))
        label_h = r.h * 0.3
        own.add(
            make_label(
                box.places,
                r.x + r.w * 0.03,
                r.y + r.h - label_h / 2,
                label_h * 0.72,
                COLOURS["dim"],
                anchor_y="center",
                font_name=ui,
                batch=b,
                group=G_TEXT,
            )
        )
        line_h = (r.h - label_h) / 2
        px = min(line_h * 0.66, r.w * 0.08)
        lines = ((box.first, box.first_score, 1), (box.second, box.second_score, 2))
        for k, (name, score, mine) in enumerate(lines):
            cy = r.y + r.h - label_h - line_h * (k + 0.5)
            won = box.winner == mine
            colour = (
                COLOURS["winner"] if won else (COLOURS["dim"] if box.winner else COLOURS["text"])
            )
            own.add(
                make_label(
                    fit_text(name, r.w * 0.72, px),
                    r.x + r.w * 0.05,
                    cy,
                    px,
                    colour,
                    anchor_y="center",
                    font_name=ui,
                    weight="bold" if won else "normal",
                    batch=b,
                    group=G_TEXT,
                )
            )
            own.add(
                make_label(
                    score,
                    r.x + r.w * 0.95,
                    cy,
                    px,
                    colour,
                    anchor_x="right",
                    anchor_y="center",
                    font_name=ui,
                    batch=b,
                    group=G_TEXT,
                )
            )

    def _build_standings(
        self, rows: list[StandingRow], names: tuple[str, ...], formulas: tuple[str, ...]
    ) -> None:
        b, ui, own, area = self.page_batch, self.fonts[0], self._page_items, self.content
        row_h = self._standing_row_h()
        px = row_h * 0.6
        titles = [
            LABELS["place"],
            LABELS["entrant"],
            LABELS["points"],
            *(tiebreak_header(n) for n in names),
        ]
        widths = [0.1, 0.38, 0.12, *([0.4 / max(1, len(names))] * len(names))]
        left, table_w = area.x + area.w * 0.08, area.w * 0.84
        xs, acc = [], left
        for frac in widths:
            xs.append(acc)
            acc += frac * table_w

        def cell_x(k: int) -> float:
            return xs[k] if k == 1 else xs[k] + widths[k] * table_w / 2

        top = area.y + area.h - row_h
        for k, title in enumerate(titles):
            own.add(
                make_label(
                    title,
                    cell_x(k),
                    top,
                    px * 0.85,
                    COLOURS["accent"],
                    anchor_x="left" if k == 1 else "center",
                    anchor_y="center",
                    font_name=ui,
                    weight="bold",
                    batch=b,
                    group=G_TEXT,
                )
            )
        for i, row in enumerate(rows):
            y = top - (i + 1) * row_h
            if i % 2 == 0:
                own.add(
                    shapes.Rectangle(
                        left,
                        y - row_h / 2,
                        table_w,
                        row_h,
                        color=COLOURS["box"],
                        batch=b,
                        group=G_BACK,
                    )
                )
            for k, cell in enumerate([row.place, row.entrant, row.points, *row.tiebreaks]):
                own.add(
                    make_label(
                        fit_text(cell, widths[k] * table_w * 0.95, px),
                        cell_x(k),
                        y,
                        px,
                        COLOURS["text"],
                        anchor_x="left" if k == 1 else "center",
                        anchor_y="center",
                        font_name=ui,
                        weight="bold" if k == 2 else "normal",
                        batch=b,
                        group=G_TEXT,
                    )
                )
        y = top - (len(rows) + 1.5) * row_h
        for formula in formulas:
            if y < area.y:
                break
            own.add(
                make_label(
                    fit_text(formula, table_w, px * 0.75),
                    left,
                    y,
                    px * 0.75,
                    COLOURS["dim"],
                    anchor_y="center",
                    font_name=ui,
                    batch=b,
                    group=G_TEXT,
                )
            )
            y -= row_h * 0.9

    # drawing

    def draw(self) -> None:
        """Draw everything (into a cleared or undefined framebuffer)."""
        self.frame_batch.draw()
        self.page_batch.draw()
        for view in self._cards.values():
            view.batch.draw()
        for batch in self.clock_batches:
            batch.draw()
        self._full = False
        self._dirty_cards.clear()
        self._dirty_clocks.clear()
        self._dirty_bars = False

    @property
    def dirty(self) -> bool:
        return self._full or bool(self._dirty_cards or self._dirty_clocks) or self._dirty_bars

    def draw_changes(self) -> bool:
        """Repaint only what changed since the last draw, over the previous frame (which
        the framebuffer must still hold); False if nothing needed repainting."""
        if self._full:
            self.draw()
            return True
        if not self.dirty:
            return False
        gl.glEnable(gl.GL_SCISSOR_TEST)
        try:
            if self._dirty_bars:
                for y, h in ((self.height - self.header_h, self.header_h), (0, self.footer_h)):
                    self._scissor(Rect(0, y, self.width, h))
                    self.frame_batch.draw()
            for table in sorted(self._dirty_cards):
                view = self._cards.get(table)
                if view is None:
                    continue
                self._scissor(view.rect)
                view.batch.draw()
                for batch in self.clock_batches:
                    batch.draw()
        finally:
            gl.glDisable(gl.GL_SCISSOR_TEST)
        self._draw_faces()
        self._dirty_cards.clear()
        self._dirty_clocks.clear()
        self._dirty_bars = False
        return True

    def _draw_faces(self) -> None:
        """Repaint the clock faces that changed. Their boxes are opaque and cover nothing
        else, so drawing a clock batch over the old frame is exact; a few faces are drawn
        each inside its own box (fewer pixels), many by drawing their batch whole."""
        faces = self._dirty_clocks
        if not faces:
            return
        if len(faces) > FEW_FACES:
            for index in sorted({index for index, _rect in faces}):
                self.clock_batches[index].draw()
            return
        gl.glEnable(gl.GL_SCISSOR_TEST)
        try:
            for index, rect in faces:
                self._scissor(rect)
                self.clock_batches[index].draw()
        finally:
            gl.glDisable(gl.GL_SCISSOR_TEST)

    def _scissor(self, r: Rect) -> None:
        x0, y0 = int(r.x), int(r.y)
        gl.glScissor(x0, y0, int(r.x + r.w + 1) - x0, int(r.y + r.h + 1) - y0)

    def invalidate(self) -> None:
        """The framebuffer lost its content (expose, resize): the next draw is full."""
        self._full = True

    def delete(self) -> None:
        self._clear_page()
        self._frame.delete()
