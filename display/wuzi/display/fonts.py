"""The fonts of the screens: a CJK face so Chinese names render, with a graceful fallback.

Debian's ``fonts-wqy-microhei`` (installed by scripts/system-deps.sh) holds two faces in
one collection: "WenQuanYi Micro Hei" (proportional, for names and labels) and
"WenQuanYi Micro Hei Mono" (fixed-width digits, so a ticking clock does not jitter). The
file is registered with pyglet once; if it is missing, the next candidate (Noto CJK,
Droid Sans Fallback) is tried, and with none of them the labels use a generic family that
fontconfig resolves (Latin text still renders; Chinese shows as boxes, logged once).
``WUZI_FONT_FILE`` names an extra font file tried first.

Call after `wuzi.display.headless.prepare` (registering a font imports pyglet.font, which
is harmless, but keep the order obvious).
"""

from __future__ import annotations

import functools
import logging
import os
from dataclasses import dataclass

__all__ = ["FontChoice", "clock_font_name", "font_choice", "has_cjk_font", "ui_font_name"]

log = logging.getLogger("wuzi.display")

# (file, proportional family, monospace family) in order of preference.
CANDIDATES: tuple[tuple[str, str, str], ...] = (
    (
        "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
        "WenQuanYi Micro Hei",
        "WenQuanYi Micro Hei Mono",
    ),
    ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", "WenQuanYi Zen Hei", "WenQuanYi Zen Hei Mono"),
    (
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
        "Noto Sans CJK SC",
        "Noto Sans Mono CJK SC",
    ),
    (
        "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
        "Droid Sans Fallback",
        "Droid Sans Fallback",
    ),
)
FALLBACK_UI = "sans-serif"
FALLBACK_MONO = "monospace"


@dataclass(frozen=True)
class FontChoice:
    """The families the screens use and whether they can show Chinese."""

    ui: str
    mono: str
    cjk: bool
    file: str | None


@functools.cache
def font_choice() -> FontChoice:
    """Register the first CJK font file found and return the families to use (cached)."""
    import pyglet.font

    extra = os.environ.get("WUZI_FONT_FILE")
    candidates = list(CANDIDATES)
    if extra:
        family = _family_of(extra)
        if family:
            candidates.insert(0, (extra, family, family))
        else:
            log.warning("WUZI_FONT_FILE=%s: not a readable font file", extra)
    for path, ui, mono in candidates:
        if not os.path.isfile(path):
            continue
        try:
            pyglet.font.add_file(path)
        except Exception as exc:  # a corrupt file must not stop the screen
            log.warning("cannot load font %s: %s", path, exc)
            continue
        if not pyglet.font.have_font(mono):
            mono = ui
        return FontChoice(ui=ui, mono=mono, cjk=True, file=path)
    log.warning("no CJK font found (install fonts-wqy-microhei): Chinese names show as boxes")
    return FontChoice(ui=FALLBACK_UI, mono=FALLBACK_MONO, cjk=False, file=None)


def _family_of(path: str) -> str | None:
    """The family name in a TrueType/OpenType file's name table (first face), or None."""
    try:
        import pyglet.font.ttf

        return str(pyglet.font.ttf.TruetypeInfo(path).get_name("family"))
    except Exception:
        return None


def ui_font_name() -> str:
    """The family for names and labels (CJK-capable when a CJK font is installed)."""
    return font_choice().ui


CLOCK_FAMILIES = ("DejaVu Sans Mono", "Liberation Mono")


@functools.cache
def clock_font_name() -> str:
    """A fixed-width family for clock digits, so ticking does not move the text.

    Digits need no CJK glyphs: DejaVu Sans Mono (fonts-dejavu-core, on every Debian) has
    a tighter colon than the CJK mono face; without it, the CJK font's mono face."""
    import pyglet.font

    for family in CLOCK_FAMILIES:
        if pyglet.font.have_font(family):
            return family
    return font_choice().mono


def has_cjk_font() -> bool:
    return font_choice().cjk
