"""INFO of every protocol version: the version read where each puts it, the texts where
each keeps them (``wuzi.link.info``)."""

from __future__ import annotations

from wuzi.link import wire
from wuzi.link.info import LAYOUTS, info_protocol, info_texts, protocol_problem


def _body(major: int, serial: str, revision: str = "sensor-rev-a") -> bytes:
    layout = LAYOUTS[major]
    body = bytearray(layout.length)
    body[wire.INFO_MAJOR], body[wire.INFO_MINOR], body[wire.INFO_KIND] = major, 0, 1
    wire.put_text(body, layout.serial_at, serial, layout.serial_len)
    wire.put_text(body, layout.revision_at, revision, layout.revision_len)
    return bytes(body)


def test_each_version_is_read_in_its_own_layout() -> None:
    assert LAYOUTS[1].length == 42 and LAYOUTS[2].length == wire.LEN_INFO == 46
    assert info_texts(_body(1, "38935F47A62B")) == ("38935F47A62B", "sensor-rev-a")
    assert info_texts(_body(2, "E66138935F47A62B")) == ("E66138935F47A62B", "sensor-rev-a")
    assert info_protocol(_body(1, "X")) == (1, 0)
    assert info_protocol(b"\x02") is None


def test_a_short_unknown_or_damaged_info_has_no_texts_unless_asked_for_what_can_be_read() -> None:
    short = _body(2, "E66138935F47A62B")[:42]  # a 2.x INFO cut to 1.0's length
    assert info_texts(short) is None
    future = bytearray(_body(2, "E66138935F47A62B"))
    future[wire.INFO_MAJOR] = 3
    assert info_texts(bytes(future)) is None
    assert info_texts(bytes(future), strict=False) == ("E66138935F47A62B", "?")
    damaged = bytearray(_body(1, "38935F47A62B"))
    damaged[18] = 0xFF
    assert info_texts(bytes(damaged)) is None
    serial, _ = info_texts(bytes(damaged), strict=False) or ("", "")
    assert serial.endswith("8935F47A62B") and serial[0] == "\ufffd"
    assert info_texts(b"\x01\x00\x01", strict=False) == ("?", "?")


def test_only_another_major_is_a_problem() -> None:
    assert protocol_problem("the sensor board", 2, 0) is None
    assert protocol_problem("the sensor board", 2, 7) is None
    assert protocol_problem("the clock unit", 1, 0) == (
        "the clock unit speaks wire protocol v1.0, this host speaks v2.2 (major 2 needed)"
    )
    assert protocol_problem("the sensor board", 3, 0) is not None
