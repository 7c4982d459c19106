"""Helpers of the clock display and arbiter view tests: headless frames, pixel checks, a
venue file with a token referee.

Rendering is real pyglet, off screen (`wuzi.display.headless`: EGL, else Xvfb), prepared
here before anything imports ``pyglet.window``. Screenshots are checked for content:
colours at places the model says something is drawn, and template matching of clock
digits against the same text rendered alone (and against wrong text, which must match
worse), so a test fails if the wrong digits, or none, are drawn.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from wuzi.display import headless

headless.prepare(snapshot=True)


from wuzi.display.snapshot import Frame, render_to_png  # noqa: E402

Pixel = tuple[int, int, int, int]
TOKEN = "arbiter-view-token-0123456789abcdef"
REFEREE = "chief"


def render(build: Callable[[Any], None], width: int, height: int, path: Path) -> Frame:
    """One frame: ``build(window)`` draws into an off-screen window; the PNG goes to
    ``path`` (kept in the test's tmp dir, to look at) and the pixels come back."""
    return render_to_png(build, width, height, path)


def image_rect(rect: tuple[float, float, float, float], height: int) -> tuple[int, int, int, int]:
    """A GL rectangle (x, y up from the bottom, w, h) as image (left, top, w, h)."""
    x, y, w, h = rect
    return int(x), int(height - y - h), int(w), int(h)


def _pixels(frame: Frame) -> list[Pixel]:
    data = frame.rgba
    return list(zip(data[0::4], data[1::4], data[2::4], data[3::4], strict=True))


def fraction(frame: Frame, rect: tuple[int, int, int, int], test: Callable[[Pixel], bool]) -> float:
    """The share of pixels in ``rect`` (image coordinates) for which ``test`` holds."""
    pixels = _pixels(frame.crop(*rect))
    return sum(1 for p in pixels if test(p)) / len(pixels) if pixels else 0.0


def is_red(p: Pixel) -> bool:
    return p[0] > 170 and p[1] < 90 and p[2] < 90


def is_dark(p: Pixel) -> bool:
    return max(p[:3]) < 60


def is_light(p: Pixel) -> bool:
    return min(p[:3]) > 200


def near(p: Pixel, colour: tuple[int, ...], tolerance: int = 40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(p[:3], colour[:3], strict=True))


def ink_mask(frame: Frame, threshold: int = 60) -> list[bool]:
    """Which pixels differ from the crop's most common colour (its background)."""
    pixels = _pixels(frame)
    counts: dict[Pixel, int] = {}
    for p in pixels:
        counts[p] = counts.get(p, 0) + 1
    br, bg, bb, _ = max(counts, key=lambda c: counts[c])
    return [abs(r - br) + abs(g - bg) + abs(b - bb) > threshold for r, g, b, _a in pixels]


def mask_distance(a: list[bool], b: list[bool]) -> float:
    """The share of pixels where two equal-sized ink masks disagree."""
    assert len(a) == len(b), "masks of different sizes"
    return sum(1 for pa, pb in zip(a, b, strict=True) if pa != pb) / max(1, len(a))


def write_venue(tmp: Path, venue_id: str, broker_url: str = "mqtt://127.0.0.1:1") -> Path:
    """A venue file with tables 1-4 on one host and the token referee ``chief``."""
    (tmp / "chief.token").write_text(TOKEN)
    lines = [
        "[venue]",
        f'id = "{venue_id}"',
        'name = "Display test"',
        "[broker]",
        f'url = "{broker_url}"',
        "[[hosts]]",
        'id = "pi-1"',
    ]
    for n in range(1, 5):
        lines += [
            "  [[hosts.tables]]",
            f"  number = {n}",
            f'  board_port = "/dev/board{n}"',
            f'  clock_port = "/dev/clock{n}"',
        ]
    lines += ["[[referees]]", f'name = "{REFEREE}"', 'token_file = "chief.token"']
    path = tmp / "venue.toml"
    path.write_text("\n".join(lines) + "\n")
    return path
