"""The scoreboard drawn for real (pyglet, off screen) and its pixels checked.

Every check reads the screenshot: stones of the right colour on exactly the points the
state has, empty points showing wood, the last move marked, the clock digits matched
against the expected text drawn by an independent path (a pyglet Label) and scoring
worse against wrong text, the stale badge red on the stale tables only — and a frame
repainted piecewise (`draw_changes`) identical to the same state drawn from scratch.
The PNGs stay in pytest's tmp dir to look at.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from wuzi.bus import topics
from wuzi.bus.schemas import BracketMatch, HostStatus, StandingLine, TableState
from wuzi.display import fonts
from wuzi.display.sample import SAMPLE_VENUE, sample_messages
from wuzi.display.scoreboard_model import VenueModel, build_pages
from wuzi.display.scoreboard_render import COLOURS, Rect, ScoreboardRenderer, clock_colours
from wuzi.display.snapshot import Frame, encode_png, offscreen_window, read_frame, render_to_png

Pixel = tuple[int, int, int, int]


def sample_model(at_ms: int = 0) -> VenueModel:
    model = VenueModel()
    for topic, message in sample_messages():
        model.apply(topic, message, at_ms)
    return model


@dataclass
class Shot:
    frame: Frame
    renderer: ScoreboardRenderer

    def at(self, x: float, y: float) -> Pixel:
        """The pixel at GL window coordinates (y up)."""
        return self.frame.pixel(int(x), self.frame.height - 1 - int(y))

    def crop(self, r: Rect) -> Frame:
        return self.frame.crop(int(r.x), self.frame.height - int(r.y + r.h), int(r.w), int(r.h))


def shoot(
    model: VenueModel,
    size: tuple[int, int],
    path: Path,
    *,
    now_ms: int = 0,
    kind: str = "tables",
    focus: int | None = None,
) -> Shot:
    holder: dict[str, ScoreboardRenderer] = {}

    def draw(window: Any) -> None:
        renderer = ScoreboardRenderer(*size)
        pages = build_pages(
            model,
            tables_per_page=renderer.tables_per_page,
            standings_rows=renderer.standings_rows,
            focus=focus,
        )
        page = next(p for p in pages if p.kind == (kind if focus is None else "focus"))
        renderer.show(page, model, now_ms, footer=model.venue or "")
        window.clear()
        renderer.draw()
        holder["r"] = renderer

    frame = render_to_png(draw, *size, path)
    return Shot(frame, holder["r"])


def close(p: Pixel, rgb: tuple[int, int, int], tol: int = 40) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(p[:3], rgb, strict=False))


def is_red(p: Pixel) -> bool:
    return p[0] > 170 and p[1] < 90 and p[2] < 90


def fraction(frame: Frame, test: Callable[[Pixel], bool], step: int = 1) -> float:
    """The share of pixels (every ``step``-th row and column) for which ``test`` holds."""
    hits = total = 0
    for y in range(0, frame.height, step):
        for x in range(0, frame.width, step):
            total += 1
            hits += test(frame.pixel(x, y))
    return hits / max(1, total)


@pytest.fixture(scope="module")
def sample_1080(tmp_path_factory: pytest.TempPathFactory) -> Shot:
    return shoot(sample_model(), (1920, 1080), tmp_path_factory.mktemp("sb") / "sample_1080.png")


def check_board(shot: Shot, model: VenueModel, table: int) -> None:
    state = model.state(table)
    assert state is not None
    renderer = shot.renderer
    quarter = renderer.cell_px(table) * 0.25
    black, white = set(state.moves[0::2]), set(state.moves[1::2])
    for point in range(225):
        x, y = renderer.point_xy(table, point)
        centre = shot.at(x, y)
        if point == state.moves[-1]:
            assert is_red(centre), f"table {table}: last move {point} not marked: {centre}"
            ring = shot.at(x + quarter * 1.4, y + quarter * 0.6)
            want = COLOURS["black_stone"] if point in black else COLOURS["white_stone"]
            assert close(ring, want), f"table {table}: last stone {point} is {ring}"
        elif point in black:
            assert close(centre, COLOURS["black_stone"]), f"table {table}: {point} is {centre}"
        elif point in white:
            assert close(centre, COLOURS["white_stone"]), f"table {table}: {point} is {centre}"
        else:  # empty: off the grid lines the wood shows
            wood = shot.at(x + quarter, y + quarter)
            assert close(wood, COLOURS["wood"]), f"table {table}: empty {point} shows {wood}"


def test_stones_where_the_states_say_1080p(sample_1080: Shot) -> None:
    model = sample_model()
    assert sample_1080.renderer.shown_tables() == list(range(1, 25))
    for table in range(1, 25):
        check_board(sample_1080, model, table)


def test_stones_where_the_states_say_4k(tmp_path: Path, sample_1080: Shot) -> None:
    model = sample_model()
    shot = shoot(model, (3840, 2160), tmp_path / "sample_4k.png")
    assert (shot.frame.width, shot.frame.height) == (3840, 2160)
    for table in (1, 13, 24):
        check_board(shot, model, table)
    # laid out relative to the size: the same card, twice as large
    assert shot.renderer.card_rect(5).w == pytest.approx(
        2 * sample_1080.renderer.card_rect(5).w, rel=0.01
    )


def test_a_wrong_stone_is_caught(tmp_path: Path) -> None:
    """The board check itself can fail: one stone moved in the picture is noticed."""
    model = sample_model()
    shot = shoot(model, (1920, 1080), tmp_path / "s.png")
    state = model.state(1)
    assert state is not None
    moved = replace(
        state, moves=(*state.moves[:-1], next(p for p in range(225) if p not in state.moves))
    )
    other = VenueModel()
    other.apply(topics.table_state(SAMPLE_VENUE, 1), moved, 0)
    other.apply(topics.table_state(SAMPLE_VENUE, 2), model.state(2), 0)  # type: ignore[arg-type]
    with pytest.raises(AssertionError):
        check_board(shot, other, 1)


def label_template(
    text: str,
    rect: Rect,
    px: float,
    colour: tuple[int, int, int],
    box: tuple[int, int, int],
    size: tuple[int, int],
) -> Frame:
    """``text`` drawn by a plain pyglet Label centred in ``rect`` on ``box`` colour."""
    from pyglet import shapes
    from pyglet.text import Label

    window = offscreen_window(*size)
    try:
        window.clear()
        shapes.Rectangle(rect.x, rect.y, rect.w, rect.h, color=box).draw()
        Label(
            text,
            x=rect.x + rect.w / 2,
            y=rect.y + rect.h / 2,
            anchor_x="center",
            anchor_y="center",
            font_name=fonts.clock_font_name(),
            font_size=round(px),
            dpi=72,
            weight="bold",
            color=(*colour, 255),
        ).draw()
        frame = read_frame(*size)
    finally:
        window.close()
    return frame.crop(int(rect.x), size[1] - int(rect.y + rect.h), int(rect.w), int(rect.h))


def _inky(pixel: bytes, box: tuple[int, int, int]) -> bool:
    return any(abs(p - q) > 40 for p, q in zip(pixel, box, strict=True))


def _shift_cost(a: Frame, b: Frame, dx: int, dy: int, shift: int) -> int:
    w, h = min(a.width, b.width) - 2 * shift, min(a.height, b.height) - 2 * shift
    total = 0
    for y in range(0, h, 2):
        start_a = ((y + shift) * a.width + shift) * 4
        start_b = ((y + shift + dy) * b.width + shift + dx) * 4
        ra = a.rgba[start_a : start_a + w * 4 : 4]
        rb = b.rgba[start_b : start_b + w * 4 : 4]
        total += sum(abs(p - q) for p, q in zip(ra, rb, strict=True))
    return total


def difference(a: Frame, b: Frame, box: tuple[int, int, int], shift: int = 4) -> float:
    """Template matching: place ``b`` over ``a`` where they agree best (moved up to
    ``shift`` pixels each way), then the mean absolute difference over the pixels where
    either shows ink (differs from the ``box`` colour), the share that disagree — so one
    wrong digit of five counts."""
    _cost, dx, dy = min(
        (_shift_cost(a, b, dx, dy, shift), dx, dy)
        for dx in range(-shift, shift + 1)
        for dy in range(-shift, shift + 1)
    )
    w, h = min(a.width, b.width) - 2 * shift, min(a.height, b.height) - 2 * shift
    total = ink = 0
    for y in range(h):
        start_a = ((y + shift) * a.width + shift) * 4
        start_b = ((y + shift + dy) * b.width + shift + dx) * 4
        for x in range(0, w * 4, 4):
            pa = a.rgba[start_a + x : start_a + x + 3]
            pb = b.rgba[start_b + x : start_b + x + 3]
            if _inky(pa, box) or _inky(pb, box):
                ink += 1
                total += max(abs(p - q) for p, q in zip(pa, pb, strict=True)) > 60
    return total / max(1, ink)


@pytest.mark.parametrize(
    ("table", "colour", "text"),
    [
        (13, "white", "8.4"),  # running, under 10 s: tenths, red on yellow
        (1, "white", "22:08"),  # running
        (1, "black", "27:30"),  # standing still
        (2, "black", "0:47"),  # running, under a minute
    ],
)
def test_clock_digits_match_the_state(
    sample_1080: Shot, tmp_path: Path, table: int, colour: str, text: str
) -> None:
    model = sample_model()
    card = model.card(table, 0)
    face = card.white_clock if colour == "white" else card.black_clock
    assert face is not None and face.text == text
    renderer = sample_1080.renderer
    rect = renderer.clock_rect(table, colour)
    shown = sample_1080.crop(rect)
    box, digits = clock_colours(face, COLOURS["card"])
    px = renderer.clock_text(table, colour).size_px
    good = difference(shown, label_template(text, rect, px, digits, box, (1920, 1080)), box)
    wrong_text = text[:-1] + ("1" if text[-1] != "1" else "7")
    wrong = difference(shown, label_template(wrong_text, rect, px, digits, box, (1920, 1080)), box)
    (tmp_path / "face.png").write_bytes(encode_png(shown))
    assert good < 0.03, f"{text!r} drawn differently ({good:.0%} of the ink disagrees)"
    assert wrong > 0.1, f"{wrong_text!r} matches as well as {text!r} ({wrong:.0%} disagree)"


def test_running_clock_highlighted(sample_1080: Shot) -> None:
    renderer = sample_1080.renderer
    running = sample_1080.crop(renderer.clock_rect(1, "white"))
    still = sample_1080.crop(renderer.clock_rect(1, "black"))
    assert fraction(running, lambda p: close(p, COLOURS["running"])) > 0.5
    assert fraction(still, lambda p: close(p, COLOURS["running"])) == 0


def test_stale_badge_on_stale_tables_only(sample_1080: Shot) -> None:
    renderer = sample_1080.renderer
    for table in range(1, 25):
        red = fraction(sample_1080.crop(renderer.badge_rect(table)), is_red)
        if table in (7, 24):
            assert red > 0.5, f"table {table} should show the stale badge ({red:.2f})"
        else:
            assert red < 0.02, f"table {table} shows a badge ({red:.2f})"


def test_incremental_frames_equal_full_redraws(tmp_path: Path) -> None:
    """Repainting only what changed gives exactly the picture of drawing it all again."""
    model = sample_model()
    size = (1920, 1080)
    window = offscreen_window(*size)
    try:
        renderer = ScoreboardRenderer(*size)
        page = build_pages(model, tables_per_page=24, standings_rows=10)[0]
        renderer.show(page, model, 0)
        window.clear()
        renderer.draw()
        # time passes (every running face changes), a move is played, a host goes away,
        # a flag falls on table 13 and it turns stale a little later
        state = model.state(3)
        assert isinstance(state, TableState)
        free = next(p for p in range(225) if p not in state.moves)
        for now, change in ((1_000, None), (9_000, "move"), (21_000, "host"), (61_000, None)):
            if change == "move":
                model.apply(
                    topics.table_state(SAMPLE_VENUE, 3),
                    replace(
                        state,
                        moves=(*state.moves, free),
                        at_ms=state.at_ms + 1,
                        running="white" if state.running == "black" else "black",
                    ),
                    now,
                )
            elif change == "host":
                model.apply(
                    topics.host_status(SAMPLE_VENUE, "pi-2"),
                    HostStatus("pi-2", False, tuple(range(6, 11)), "boot-pi-2", 2, ()),
                    now,
                )
            renderer.show(page, model, now)
            assert renderer.draw_changes()
            assert not renderer.draw_changes()  # nothing left to repaint
        piecewise = read_frame(*size)
        renderer.delete()
        fresh = ScoreboardRenderer(*size)
        fresh.show(page, model, 61_000)
        window.clear()
        fresh.draw()
        whole = read_frame(*size)
        fresh.delete()
    finally:
        window.close()
    (tmp_path / "piecewise.png").write_bytes(encode_png(piecewise))
    (tmp_path / "whole.png").write_bytes(encode_png(whole))
    assert model.card(3, 61_000).last_move == free
    assert model.card(8, 61_000).stale and model.card(13, 61_000).stale
    if piecewise != whole:
        diff = sum(1 for a, b in zip(piecewise.rgba, whole.rgba, strict=True) if a != b)
        pytest.fail(f"{diff} channel values differ between the piecewise and the whole frame")


def test_bracket_page(tmp_path: Path) -> None:
    shot = shoot(sample_model(), (1920, 1080), tmp_path / "bracket.png", kind="bracket")
    boxes = fraction(shot.frame, lambda p: close(p, COLOURS["box"], 4), step=4)
    gold = fraction(shot.frame, lambda p: close(p, COLOURS["winner"], 30), step=3)
    assert boxes > 0.3  # 4 rounds x 8 matches of boxes
    assert gold > 0.001  # winners are marked (rounds 1-3 are decided)
    assert shot.renderer.shown_tables() == []


def test_standings_page(tmp_path: Path) -> None:
    shot = shoot(sample_model(), (1920, 1080), tmp_path / "standings.png", kind="standings")
    assert fraction(shot.frame, lambda p: close(p, COLOURS["box"], 4), step=4) > 0.1  # stripes


def test_a_knockouts_places_page_shows_the_blocks_as_they_fill(tmp_path: Path) -> None:
    """Mid-final: four blocks of four places, one match deciding places 1-4 won — the bar
    of each undecided block and the winner's gold are drawn; at the end, no bar."""
    model = sample_model()
    competition = model.competition
    assert competition is not None
    teams = [line.entrant for line in competition.standings]
    lines = tuple(
        StandingLine(4 * (k // 4) + 1, 4 * (k // 4) + 4, team, 2.0, ())
        for k, team in enumerate(teams)
    )
    won = BracketMatch(3, "1-4", teams[0], teams[1], 1.0, 5.0, teams[1])
    mid = replace(competition, round=3, standings=lines, bracket=(won,))
    model.apply(topics.competition_state(model.venue or "hall"), mid, 0)
    shot = shoot(model, (1920, 1080), tmp_path / "places.png", kind="standings")
    bar = fraction(shot.frame, lambda p: close(p, COLOURS["accent"], 10), step=2)
    gold = fraction(shot.frame, lambda p: close(p, COLOURS["winner"], 30), step=2)
    assert bar > 0.001 and gold > 0.00003
    done = tuple(StandingLine(k + 1, k + 1, team, 2.0, ()) for k, team in enumerate(teams))
    model.apply(topics.competition_state(model.venue or "hall"), replace(mid, standings=done), 0)
    shot = shoot(model, (1920, 1080), tmp_path / "places-final.png", kind="standings")
    assert fraction(shot.frame, lambda p: close(p, COLOURS["accent"], 10), step=2) < bar / 2


def test_focus_page(tmp_path: Path) -> None:
    model = sample_model()
    shot = shoot(model, (1920, 1080), tmp_path / "focus.png", focus=13)
    assert shot.renderer.shown_tables() == [13]
    assert shot.renderer.cell_px(13) > 30
    check_board(shot, model, 13)


def test_cjk_font_is_used() -> None:
    choice = fonts.font_choice()
    assert choice.cjk, "fonts-wqy-microhei is a system dependency"
    assert choice.ui == "WenQuanYi Micro Hei"
    assert fonts.has_cjk_font()
