"""The PNG codec and size parsing of `wuzi.display.snapshot` (no window needed)."""

from __future__ import annotations

import random
import struct
import zlib

import pytest

from wuzi.display.snapshot import Frame, SnapshotError, decode_png, encode_png, parse_size


def chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


def filtered_png(rows: list[bytes], width: int, colour: int, bpp: int) -> bytes:
    """A PNG whose rows use filters 0, 1, 2, 3, 4, 0, … (encoded here by the book)."""
    raw = b""
    prev = bytes(len(rows[0]))
    for r, row in enumerate(rows):
        kind = r % 5
        out = bytearray()
        for i, value in enumerate(row):
            left = row[i - bpp] if i >= bpp else 0
            up = prev[i]
            corner = prev[i - bpp] if i >= bpp else 0
            predictor = (0, left, up, (left + up) // 2, paeth(left, up, corner))[kind]
            out.append((value - predictor) & 0xFF)
        raw += bytes([kind]) + bytes(out)
        prev = row
    header = struct.pack(">IIBBBBB", width, len(rows), 8, colour, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


def test_round_trip() -> None:
    rng = random.Random(3)
    frame = Frame(7, 5, bytes(rng.randrange(256) for _ in range(7 * 5 * 4)))
    assert decode_png(encode_png(frame)) == frame
    assert frame.pixel(6, 4) == tuple(frame.rgba[-4:])
    assert frame.crop(5, 3, 10, 10) == Frame(
        2, 2, frame.rgba[(3 * 7 + 5) * 4 : (3 * 7 + 7) * 4] + frame.rgba[(4 * 7 + 5) * 4 :]
    )


@pytest.mark.parametrize(("colour", "bpp"), [(6, 4), (2, 3), (0, 1)])
def test_all_filters_and_colour_types(colour: int, bpp: int) -> None:
    rng = random.Random(colour)
    width = 9
    rows = [bytes(rng.randrange(256) for _ in range(width * bpp)) for _ in range(11)]
    frame = decode_png(filtered_png(rows, width, colour, bpp))
    for y, row in enumerate(rows):
        for x in range(width):
            px = row[x * bpp : (x + 1) * bpp]
            want = px if bpp == 4 else (px + b"\xff" if bpp == 3 else px * 3 + b"\xff")
            assert bytes(frame.pixel(x, y)) == want


def test_not_a_png() -> None:
    with pytest.raises(SnapshotError, match="signature"):
        decode_png(b"GIF89a")


@pytest.mark.parametrize(
    ("text", "size"), [("1920x1080", (1920, 1080)), ("3840X2160", (3840, 2160))]
)
def test_sizes(text: str, size: tuple[int, int]) -> None:
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["1920", "axb", "10x10", "99999x100", "-5x100", ""])
def test_bad_sizes(text: str) -> None:
    with pytest.raises(SnapshotError):
        parse_size(text)
