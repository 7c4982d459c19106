"""Drawing the places page of a placement knockout: the bracket of places as it fills.

A knockout's standings are blocks of places, not points: after round 1 of a 16-team
final, eight teams will share places 1-8 and eight places 9-16; after the last round each
place has its team. A plain standings table shows that as sixteen lines of "1-8", "9-16"
with match points, which tells the hall little. This page draws a row per place, the
places grouped in their blocks (`wuzi.display.scoreboard_model.place_blocks`): the teams
still contending for a block side by side with the match now deciding it and its score
(the winner, bound for the block's upper half, in the winner's colour), and each block's
places named beside it; a decided place shows its team in the winner's colour. Round by
round the blocks halve until every place has its team. Import only after
`wuzi.display.headless.prepare`.
"""

from __future__ import annotations

from collections.abc import Sequence

from pyglet import shapes
from pyglet.graphics import Batch

from wuzi.display.scoreboard_card import (
    COLOURS,
    G_BACK,
    G_TEXT,
    Drawables,
    Rect,
    fit_text,
    make_label,
)
from wuzi.display.scoreboard_model import LABELS, PlaceBlock

__all__ = ["build_places"]

# columns, as parts of the table's width: place, team, score, the block's places
PLACE_X, TEAM_X, SCORE_X, BLOCK_X = 0.05, 0.12, 0.5, 0.62


def build_places(
    blocks: Sequence[PlaceBlock],
    rows: tuple[int, int],
    area: Rect,
    row_h: float,
    *,
    batch: Batch,
    font: str,
    own: Drawables,
) -> None:
    """Draw places ``rows[0]``..``rows[1]`` (0-based) of ``blocks``, a row each, from the
    top of ``area`` down."""
    px = row_h * 0.6
    left, width = area.x + area.w * 0.08, area.w * 0.84
    top = area.y + area.h - row_h

    def text(
        value: str, x: float, y: float, colour: tuple[int, int, int], scale: float = 1.0, **kw: str
    ) -> None:
        own.add(
            make_label(
                value, left + x * width, y, px * scale, colour, anchor_y="center",
                font_name=font, batch=batch, group=G_TEXT, **kw,
            )
        )  # fmt: skip

    for title, x in ((LABELS["place"], PLACE_X), (LABELS["entrant"], TEAM_X)):
        text(title, x, top, COLOURS["accent"], anchor_x="center" if x == PLACE_X else "left",
             weight="bold", scale=0.85)  # fmt: skip
    index = 0
    for shade, block in enumerate(blocks):
        shown = [
            (k, row) for k, row in enumerate(block.rows, start=index) if rows[0] <= k < rows[1]
        ]
        index += len(block.rows)
        if not shown:
            continue
        first = shown[0][0] - rows[0]
        y_top = top - (first + 0.5) * row_h
        height = len(shown) * row_h
        if shade % 2 == 0:
            own.add(
                shapes.Rectangle(left, y_top - height, width, height, color=COLOURS["box"],
                                 batch=batch, group=G_BACK)
            )  # fmt: skip
        if not block.decided:  # the bracket's bar: these places are still one block
            own.add(
                shapes.Rectangle(left + width * (BLOCK_X - 0.02), y_top - height + row_h * 0.15,
                                 row_h * 0.12, height - row_h * 0.3, color=COLOURS["accent"],
                                 batch=batch, group=G_TEXT)
            )  # fmt: skip
            middle = y_top - height / 2  # a decided place: its number says it all
            text(fit_text(block.label, width * (1 - BLOCK_X) * 0.95, px), BLOCK_X, middle,
                 COLOURS["dim"])  # fmt: skip
        for k, row in shown:
            y = top - (k - rows[0] + 1) * row_h
            won = block.decided or row.mark == 1
            colour = (
                COLOURS["winner"] if won else COLOURS["dim"] if row.mark == 2 else COLOURS["text"]
            )
            text(str(row.place), PLACE_X, y, COLOURS["text"] if block.decided else COLOURS["dim"],
                 anchor_x="center")  # fmt: skip
            text(fit_text(row.entrant, width * (SCORE_X - TEAM_X) * 0.9, px), TEAM_X, y, colour,
                 weight="bold" if won else "normal")  # fmt: skip
            if row.score:
                text(row.score, SCORE_X, y, colour, anchor_x="right")
