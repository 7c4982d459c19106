"""Play a device flashed with another wire protocol version (``wuzi sim board --protocol``).

A venue's drawer holds boards and clock units flashed long ago: a host must refuse them
loudly (docs/wire.md, "Versioning"), and the tests need such a device on a pty. The
simulated MCU runs today's firmware; what differs on the wire is what a host reads first,
the INFO, so each INFO frame is rewritten into the layout of the version played
(``wuzi.link.info.LAYOUTS``: 1.0's INFO is 42 bytes, its serial the last 12 digits) and
sealed again with the same sequence number. The other frames go out as they are: a host
that refuses the device at its INFO never reads them as anything else.
"""

from __future__ import annotations

from wuzi.link import wire
from wuzi.link.info import LAYOUTS

__all__ = ["CURRENT", "as_protocol", "parse_protocol"]

CURRENT = (wire.PROTOCOL_MAJOR, wire.PROTOCOL_MINOR)


def parse_protocol(text: str) -> tuple[int, int]:
    """``"1.0"`` -> (1, 0); ValueError naming what is wrong (a major whose INFO layout is
    not known cannot be played)."""
    major_text, dot, minor_text = text.partition(".")
    if not dot or not major_text.isdigit() or not minor_text.isdigit():
        raise ValueError(f"a protocol is MAJOR.MINOR (e.g. 1.0), not {text!r}")
    major, minor = int(major_text), int(minor_text)
    if major not in LAYOUTS or minor > 255:
        known = ", ".join(f"{m}.x" for m in sorted(LAYOUTS))
        raise ValueError(f"protocol {text}: no INFO layout known for it (known: {known})")
    return major, minor


def as_protocol(frame: bytes, protocol: tuple[int, int]) -> bytes:
    """``frame`` as a firmware speaking ``protocol`` sends it: an INFO in that version's
    layout, every other frame unchanged."""
    if protocol == CURRENT or len(frame) < wire.OVERHEAD or frame[4] != wire.T_INFO:
        return frame
    body = frame[wire.HEADER_LEN : wire.HEADER_LEN + frame[1]]
    major, minor = protocol
    layout = LAYOUTS[major]
    out = bytearray(layout.length)
    out[: wire.INFO_SERIAL] = body[: wire.INFO_SERIAL]  # the numbers: the same in each
    out[wire.INFO_MAJOR] = major
    out[wire.INFO_MINOR] = minor
    serial = wire.get_text(body, wire.INFO_SERIAL, wire.SERIAL_LEN)
    revision = wire.get_text(body, wire.INFO_REVISION, wire.TEXT_LEN)
    # an old firmware had room for fewer digits: it reported the last ones
    wire.put_text(out, layout.serial_at, serial[-layout.serial_len :], layout.serial_len)
    wire.put_text(out, layout.revision_at, revision, layout.revision_len)
    return wire.encode(wire.T_INFO, frame[3], bytes(out))
