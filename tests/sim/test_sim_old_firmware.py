"""Playing an old firmware: its INFO in that version's layout (``wuzi sim ... --protocol``)."""

from __future__ import annotations

import pytest

from wuzi.link import wire
from wuzi.link.info import info_protocol, info_texts
from wuzi.sim.devices.old_firmware import CURRENT, as_protocol, parse_protocol


def _frames(data: bytes) -> list[tuple[int, int, bytes]]:
    dec = wire.Decoder()
    dec.feed(data)
    out = []
    t = dec.next_frame()
    while t >= 0:
        out.append((t, dec.seq, bytes(dec.buf[dec.body_at : dec.body_at + dec.body_len])))
        t = dec.next_frame()
    return out


def _info_frame() -> bytes:
    body = bytearray(wire.LEN_INFO)
    body[wire.INFO_MAJOR], body[wire.INFO_MINOR], body[wire.INFO_KIND] = 2, 1, wire.KIND_CLOCK
    wire.put_u32(body, wire.INFO_BOOT, 1234)
    wire.put_text(body, wire.INFO_SERIAL, "E66138935F47A62B", wire.SERIAL_LEN)
    wire.put_text(body, wire.INFO_REVISION, "clock-rev-a", wire.TEXT_LEN)
    return wire.encode(wire.T_INFO, 9, bytes(body))


def test_an_info_goes_out_in_the_old_layout_sealed_again() -> None:
    [(t, seq, body)] = _frames(as_protocol(_info_frame(), (1, 0)))
    assert (t, seq, len(body)) == (wire.T_INFO, 9, 42)
    assert info_protocol(body) == (1, 0) and body[wire.INFO_KIND] == wire.KIND_CLOCK
    assert wire.get_u32(body, wire.INFO_BOOT) == 1234
    assert info_texts(body) == ("38935F47A62B", "clock-rev-a")


def test_other_frames_and_the_current_protocol_go_out_unchanged() -> None:
    heartbeat = wire.encode(wire.T_HEARTBEAT, 3, bytes(wire.LEN_HEARTBEAT))
    assert as_protocol(heartbeat, (1, 0)) is heartbeat
    info = _info_frame()
    assert as_protocol(info, CURRENT) is info
    [(_, _, body)] = _frames(as_protocol(info, (2, 0)))
    assert info_protocol(body) == (2, 0) and info_texts(body) == ("E66138935F47A62B", "clock-rev-a")


def test_a_protocol_is_major_dot_minor_of_a_known_layout() -> None:
    assert parse_protocol("1.0") == (1, 0)
    with pytest.raises(ValueError, match=r"MAJOR\.MINOR"):
        parse_protocol("1")
    with pytest.raises(ValueError, match=r"no INFO layout known for it \(known: 1.x, 2.x\)"):
        parse_protocol("3.0")
