"""Fast-changing text (clock faces) as one sprite per character.

Setting a pyglet `Label`'s text lays the whole document out again and rebuilds its vertex
list — about a millisecond each under software GL, too slow for two dozen clocks ticking
every second. A `GlyphText` keeps a fixed row of sprites, each showing one glyph of a
(monospace) font from pyglet's glyph atlas; a new face only swaps sprite images and
moves them, a few microseconds per character. Text is centred on ``(cx, cy)`` the way a
Label with ``anchor_x="center", anchor_y="center"`` is, so both can be mixed.

Needs a current GL context (after `wuzi.display.headless.prepare`).
"""

from __future__ import annotations

import pyglet.font
from pyglet.font.base import Font, Glyph
from pyglet.graphics import Batch, Group
from pyglet.sprite import Sprite

__all__ = ["GlyphText", "load_font"]


def load_font(name: str, size_px: float, weight: str = "bold") -> Font:
    """The font ``name`` at ``size_px`` pixels. pyglet caches fonts (and their glyph
    atlases) per GL object space, so every text of one window shares the glyphs, and a
    second window — another context — gets its own textures."""
    return pyglet.font.load(name, max(1, round(size_px)), weight=weight, dpi=72)


class GlyphText:
    """Up to ``max_chars`` characters centred on ``(cx, cy)`` in ``font``."""

    def __init__(
        self,
        font: Font,
        cx: float,
        cy: float,
        *,
        batch: Batch,
        group: Group,
        max_chars: int = 9,
    ) -> None:
        self.font = font
        self.cx, self.cy = cx, cy
        self.text = ""
        self.colour: tuple[int, int, int] = (255, 255, 255)
        self._glyphs: dict[str, Glyph] = {}
        blank = self._glyph(" ")
        self._sprites = [Sprite(blank, 0, 0, batch=batch, group=group) for _ in range(max_chars)]
        for sprite in self._sprites:
            sprite.visible = False
        self._baseline = cy - (font.ascent + font.descent) / 2

    @property
    def size_px(self) -> float:
        """The font's size in pixels."""
        size: float = self.font.size  # type: ignore[attr-defined]  # set by every backend
        return float(size)

    def _glyph(self, char: str) -> Glyph:
        glyph = self._glyphs.get(char)
        if glyph is None:
            glyph = self.font.get_glyphs(char)[0][0]
            self._glyphs[char] = glyph
        return glyph

    def width(self, text: str) -> float:
        return float(sum(self._glyph(c).advance for c in text))

    def set(self, text: str, colour: tuple[int, int, int]) -> bool:
        """Show ``text`` (cut to ``max_chars``) in ``colour``; False if nothing changed.
        Only the sprites whose glyph or place changed are touched (a tick of ``12:34`` to
        ``12:33`` moves one sprite)."""
        text = text[: len(self._sprites)]
        if text == self.text and colour == self.colour:
            return False
        if text != self.text:
            pen = self.cx - self.width(text) / 2
            for i, sprite in enumerate(self._sprites):
                if i >= len(text):
                    if sprite.visible:
                        sprite.visible = False
                    continue
                glyph = self._glyph(text[i])
                place = (pen + glyph.vertices[0], self._baseline + glyph.vertices[1], 0.0)
                if sprite.image is not glyph:
                    sprite.image = glyph
                if sprite.position != place:
                    sprite.position = place
                if not sprite.visible:
                    sprite.visible = True
                    sprite.color = colour
                pen += glyph.advance
        if colour != self.colour:
            for sprite in self._sprites[: len(text)]:
                sprite.color = colour
        self.text, self.colour = text, colour
        return True

    def set_batch(self, batch: Batch) -> None:
        """Move the sprites to ``batch`` (e.g. from the still clocks to the running ones)."""
        for sprite in self._sprites:
            sprite.batch = batch

    def delete(self) -> None:
        for sprite in self._sprites:
            sprite.delete()
        self._sprites.clear()
