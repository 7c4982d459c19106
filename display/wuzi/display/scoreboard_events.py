"""Drawing the overview page of a hall of several events: every event side by side.

A hall running the 2019 open's men's, women's and open groups at once cycles through the
events page by page (each event's tables and standings under its own name); between
those runs this page shows all of them at a glance, a column each
(`wuzi.display.scoreboard_model.event_columns`): the event's name large, its round, its
tables and how many games are still in play, and its leaders. Splitting the live tables
of three events across one 1920x1080 screen would shrink each board to a few centimetres
across the hall; an overview of names, rounds and leaders reads from the back of the hall,
and the boards get each event's own pages. Import only after
`wuzi.display.headless.prepare`.
"""

from __future__ import annotations

from collections.abc import Sequence

from pyglet import shapes
from pyglet.graphics import Batch

from wuzi.display.scoreboard_card import (
    COLOURS,
    G_BACK,
    G_BOARD,
    G_TEXT,
    Drawables,
    Rect,
    fit_text,
    make_label,
)
from wuzi.display.scoreboard_model import LABELS, EventColumn

__all__ = ["build_events", "leader_rows"]

HEAD_ROWS = 4.6  # the column's head (name, round, tables, play) in rows of the leaders' list


def leader_rows(area: Rect, row_h: float) -> int:
    """How many leaders a column of ``area`` has room for, at ``row_h`` a line."""
    return max(0, int(area.h / row_h - HEAD_ROWS - 1.5))


def build_events(
    columns: Sequence[EventColumn],
    area: Rect,
    row_h: float,
    *,
    batch: Batch,
    font: str,
    own: Drawables,
) -> None:
    """Draw ``columns`` side by side across ``area``, each in its own box."""
    if not columns:
        return
    gap = area.w * 0.015
    width = (area.w - gap * (len(columns) + 1)) / len(columns)
    top = area.y + area.h - gap
    height = area.h - 2 * gap
    for i, column in enumerate(columns):
        box = Rect(area.x + gap + i * (width + gap), top - height, width, height)
        _column(column, box, row_h, batch=batch, font=font, own=own)


def _column(
    column: EventColumn, box: Rect, row_h: float, *, batch: Batch, font: str, own: Drawables
) -> None:
    own.add(shapes.Rectangle(box.x, box.y, box.w, box.h, color=COLOURS["card"], batch=batch,
                             group=G_BACK))  # fmt: skip
    pad = box.w * 0.05
    left, inner = box.x + pad, box.w - 2 * pad
    px = row_h * 0.6

    def text(value: str, x: float, y: float, size: float, colour: tuple[int, int, int],
             **kw: str) -> None:  # fmt: skip
        own.add(make_label(fit_text(value, inner, size), x, y, size, colour, anchor_y="center",
                           font_name=font, batch=batch, group=G_TEXT, **kw))  # fmt: skip

    y = box.y + box.h - row_h * 1.1
    ems = sum(1.0 if ord(c) > 0x2E7F else 0.6 for c in column.name)  # as `fit_text` counts
    name_px = min(row_h * 1.25, inner / max(4.0, ems))  # the whole name, as large as it fits
    text(column.name, left, y, name_px, COLOURS["accent"], weight="bold")
    y -= row_h * 1.3
    status = LABELS["finished"] if column.finished else column.round
    text(status, left, y, px * 1.1, COLOURS["text"])
    y -= row_h
    text(column.tables, left, y, px * 0.9, COLOURS["dim"])
    y -= row_h * 0.9
    text(column.play, left, y, px * 0.9, COLOURS["dim"])
    y -= row_h * 1.4
    if column.leaders:
        text(LABELS["place"], left, y, px * 0.8, COLOURS["accent"])
        text(LABELS["points"], left + inner, y, px * 0.8, COLOURS["accent"], anchor_x="right")
    for k, row in enumerate(column.leaders):
        y -= row_h
        if y - row_h / 2 < box.y + pad * 0.4:
            break  # no room for more leaders
        if k % 2 == 0:
            own.add(shapes.Rectangle(box.x + pad * 0.5, y - row_h / 2, box.w - pad, row_h,
                                     color=COLOURS["box"], batch=batch, group=G_BOARD))  # fmt: skip
        colour = COLOURS["winner"] if row.place == "1" else COLOURS["text"]
        own.add(make_label(row.place, left + inner * 0.06, y, px, colour, anchor_x="center",
                           anchor_y="center", font_name=font, batch=batch,
                           group=G_TEXT))  # fmt: skip
        own.add(make_label(fit_text(row.entrant, inner * 0.66, px), left + inner * 0.16, y, px,
                           colour, anchor_y="center", font_name=font, batch=batch,
                           group=G_TEXT))  # fmt: skip
        own.add(make_label(row.points, left + inner, y, px, colour, anchor_x="right",
                           anchor_y="center", font_name=font, weight="bold", batch=batch,
                           group=G_TEXT))  # fmt: skip
