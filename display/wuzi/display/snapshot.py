"""One frame to a PNG file, off screen: the ``--snapshot`` of every display app.

`render_to_png` makes a hidden window of the asked size (after
`wuzi.display.headless.prepare`, so no display is needed), lets the app draw one frame
into it, reads the pixels back and writes them as PNG. `encode_png` / `decode_png` are a
small zlib-based PNG codec (8-bit RGBA written; 8-bit grey/RGB/RGBA read, all five
filters): pyglet's own PNG writer is pure Python and takes seconds at 4K, and tests read
screenshots back without Pillow.

Pixel rows: `Frame.pixel` takes ``(x, y)`` with y = 0 at the *top* (as in the PNG and as
people describe a picture); GL's bottom-up rows are flipped once, at read-back.
"""

from __future__ import annotations

import ctypes
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from wuzi.display import glcontext, headless

if TYPE_CHECKING:
    import pyglet.window

__all__ = [
    "Frame",
    "SnapshotError",
    "decode_png",
    "encode_png",
    "load_png",
    "offscreen_window",
    "parse_size",
    "read_frame",
    "render_to_png",
]

MAX_SIDE = 8192


class SnapshotError(ValueError):
    """A size or PNG file that cannot be used; says what is wrong."""


@dataclass(frozen=True)
class Frame:
    """An RGBA picture, rows top to bottom."""

    width: int
    height: int
    rgba: bytes

    def pixel(self, x: int, y: int) -> tuple[int, int, int, int]:
        """The colour at column ``x``, row ``y`` (0 = top)."""
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise IndexError(f"pixel ({x}, {y}) is outside {self.width}x{self.height}")
        i = (y * self.width + x) * 4
        r, g, b, a = self.rgba[i : i + 4]
        return r, g, b, a

    def crop(self, x: int, y: int, width: int, height: int) -> Frame:
        """The part at ``(x, y)`` (top-left, clipped to the picture)."""
        x0, y0 = max(0, x), max(0, y)
        x1, y1 = min(self.width, x + width), min(self.height, y + height)
        rows = [
            self.rgba[(r * self.width + x0) * 4 : (r * self.width + x1) * 4] for r in range(y0, y1)
        ]
        return Frame(max(0, x1 - x0), max(0, y1 - y0), b"".join(rows))


def parse_size(text: str) -> tuple[int, int]:
    """``1920x1080`` -> (1920, 1080); `SnapshotError` names what is wrong."""
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise SnapshotError(f"size must be WIDTHxHEIGHT such as 1920x1080, not {text!r}")
    width, height = int(parts[0]), int(parts[1])
    if not (64 <= width <= MAX_SIDE and 64 <= height <= MAX_SIDE):
        raise SnapshotError(f"size {text!r}: each side must be 64-{MAX_SIDE} pixels")
    return width, height


def offscreen_window(width: int, height: int) -> pyglet.window.Window:
    """A hidden window of exactly ``width`` x ``height`` pixels to draw a frame in; raises
    `wuzi.display.glcontext.GLContextError` when no GL context is good enough."""
    headless.prepare(snapshot=True)
    # OpenGL 3.3 core, else OpenGL ES 3.1 (glcontext.py); GLContextError when neither.
    window, _single, _candidate = glcontext.open_window(
        single_buffer_first=False, width=width, height=height, visible=False, resizable=False
    )
    window.switch_to()
    return window


def read_frame(width: int, height: int) -> Frame:
    """The current GL framebuffer's back buffer (after drawing, before flip) as a `Frame`."""
    from pyglet import gl

    gl.glFinish()
    buffer = (ctypes.c_ubyte * (width * height * 4))()
    gl.glPixelStorei(gl.GL_PACK_ALIGNMENT, 1)
    gl.glReadPixels(0, 0, width, height, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, buffer)
    raw = bytes(buffer)
    stride = width * 4
    rows = [raw[r * stride : (r + 1) * stride] for r in range(height - 1, -1, -1)]
    return Frame(width, height, b"".join(rows))


def render_to_png(
    draw_fn: Callable[[pyglet.window.Window], None], width: int, height: int, path: str | Path
) -> Frame:
    """Draw one frame with ``draw_fn(window)`` off screen, write it to ``path`` as PNG and
    return it. The window exists (and its GL context is current) while ``draw_fn`` runs,
    so the app builds its batches there."""
    window = offscreen_window(width, height)
    try:
        draw_fn(window)
        fb_width, fb_height = window.get_framebuffer_size()
        frame = read_frame(fb_width, fb_height)
    finally:
        window.close()
    Path(path).write_bytes(encode_png(frame))
    return frame


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def encode_png(frame: Frame, level: int = 6) -> bytes:
    """8-bit RGBA PNG bytes of ``frame`` (filter 0 on every row)."""
    stride = frame.width * 4
    if len(frame.rgba) != stride * frame.height:
        raise SnapshotError(f"frame holds {len(frame.rgba)} bytes, not {stride * frame.height}")
    raw = b"".join(b"\x00" + frame.rgba[r * stride : (r + 1) * stride] for r in range(frame.height))
    header = struct.pack(">IIBBBBB", frame.width, frame.height, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(raw, level))
        + _chunk(b"IEND", b"")
    )


_CHANNELS = {0: 1, 2: 3, 6: 4}  # grey, RGB, RGBA


def decode_png(data: bytes) -> Frame:
    """A PNG (8-bit grey, RGB or RGBA, not interlaced) as an RGBA `Frame`."""
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        raise SnapshotError("not a PNG file (bad signature)")
    pos = 8
    width = height = channels = 0
    idat = bytearray()
    while pos + 8 <= len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        chunk = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if chunk == b"IHDR":
            width, height, depth, colour, _c, _f, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or colour not in _CHANNELS or interlace:
                raise SnapshotError(
                    f"PNG of depth {depth}, colour type {colour}, interlace {interlace} "
                    "is not supported (8-bit grey/RGB/RGBA only)"
                )
            channels = _CHANNELS[colour]
        elif chunk == b"IDAT":
            idat += body
        elif chunk == b"IEND":
            break
    if not channels:
        raise SnapshotError("PNG has no IHDR chunk")
    raw = zlib.decompress(bytes(idat))
    stride = width * channels
    if len(raw) != (stride + 1) * height:
        raise SnapshotError(f"PNG data is {len(raw)} bytes, expected {(stride + 1) * height}")
    out = bytearray(stride * height)
    prev = bytearray(stride)
    for r in range(height):
        start = r * (stride + 1)
        line = bytearray(raw[start + 1 : start + 1 + stride])
        _unfilter(raw[start], line, prev, channels)
        out[r * stride : (r + 1) * stride] = line
        prev = line
    if channels == 4:
        return Frame(width, height, bytes(out))
    rgba = bytearray(width * height * 4)
    for i in range(width * height):
        px = out[i * channels : (i + 1) * channels]
        rgba[i * 4 : i * 4 + 4] = (
            bytes((px[0], px[0], px[0], 255)) if channels == 1 else bytes((*px, 255))
        )
    return Frame(width, height, bytes(rgba))


def _unfilter(kind: int, line: bytearray, prev: bytearray, bpp: int) -> None:
    if kind == 0:
        return
    n = len(line)
    if kind == 1:
        for i in range(bpp, n):
            line[i] = (line[i] + line[i - bpp]) & 0xFF
    elif kind == 2:
        for i in range(n):
            line[i] = (line[i] + prev[i]) & 0xFF
    elif kind == 3:
        for i in range(n):
            left = line[i - bpp] if i >= bpp else 0
            line[i] = (line[i] + ((left + prev[i]) >> 1)) & 0xFF
    elif kind == 4:
        for i in range(n):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            line[i] = (line[i] + pred) & 0xFF
    else:
        raise SnapshotError(f"PNG row filter {kind} is not one of 0-4")


def load_png(path: str | Path) -> Frame:
    """`decode_png` of a file."""
    return decode_png(Path(path).read_bytes())
