"""INFO frames of every wire protocol version: where each keeps what, and who is refused.

Every version of INFO starts with the protocol's major and minor (bytes 0 and 1) and the
device's kind (byte 2); what follows moved between versions (docs/wire.md, "Versioning"):

* 1.0: 42 bytes, the serial in 12 bytes at 18 (the last 12 hex digits of the RP2040's id),
  the revision in 12 bytes at 30;
* 2.x: 46 bytes, the serial in 16 bytes at 18 (all 16 digits), the revision at 34.

So the protocol is read from where every version puts it, before the length is held to
this host's layout: an old firmware's INFO is shorter than the host's own, and a host that
first asked for its own length took the old device's INFO for damage and ignored it — the
device was neither served nor refused, and nobody was told. Here it is recognised and
refused with what it says about itself (its serial and its protocol), by the host's
sessions (``wuzi.link.session``), ``wuzi board list`` and ``wuzi venue check`` alike.
"""

from __future__ import annotations

from dataclasses import dataclass

from wuzi.link import wire

__all__ = [
    "LAYOUTS",
    "InfoLayout",
    "info_protocol",
    "info_texts",
    "needed_protocol",
    "protocol_problem",
]


@dataclass(frozen=True)
class InfoLayout:
    """Where one protocol major keeps INFO's text fields, and the INFO's length."""

    length: int
    serial_at: int
    serial_len: int
    revision_at: int
    revision_len: int


LAYOUTS: dict[int, InfoLayout] = {
    1: InfoLayout(length=42, serial_at=18, serial_len=12, revision_at=30, revision_len=12),
    2: InfoLayout(
        length=wire.LEN_INFO,
        serial_at=wire.INFO_SERIAL,
        serial_len=wire.SERIAL_LEN,
        revision_at=wire.INFO_REVISION,
        revision_len=wire.TEXT_LEN,
    ),
}
"""INFO's layout by protocol major (1.0 from the git history: commit 9874103 moved to 2.0)."""

INFO_HEAD = wire.INFO_KIND + 1  # major, minor, kind: the bytes every version starts with


def info_protocol(body: bytes) -> tuple[int, int] | None:
    """The (major, minor) an INFO body says, None when it is too short to say one."""
    if len(body) < INFO_HEAD:
        return None
    return body[wire.INFO_MAJOR], body[wire.INFO_MINOR]


def _text(body: bytes, at: int, size: int, *, strict: bool) -> str | None:
    raw = bytes(body[at : at + size]).split(b"\0", 1)[0]
    try:
        return raw.decode("ascii")
    except UnicodeDecodeError:
        return None if strict else raw.decode("ascii", "replace")


def info_texts(body: bytes, *, strict: bool = True) -> tuple[str, str] | None:
    """(serial, revision) of an INFO body of any known major, read where that major keeps
    them. None when the body is shorter than its major's INFO, its major is unknown (a
    future version: nothing known about its layout), or — ``strict`` — a text is not
    ASCII (damage the CRC missed). Not ``strict``: what can be read, "?" for what cannot
    (for a refusal's message: the device is named as well as it names itself)."""
    protocol = info_protocol(body)
    layout = None if protocol is None else LAYOUTS.get(protocol[0])
    if layout is None or len(body) < layout.length:
        if strict:
            return None
        if len(body) >= wire.INFO_SERIAL + 1:  # an unknown layout: the serial's usual place
            serial = _text(body, wire.INFO_SERIAL, wire.SERIAL_LEN, strict=False)
            return serial or "?", "?"
        return "?", "?"
    serial = _text(body, layout.serial_at, layout.serial_len, strict=strict)
    revision = _text(body, layout.revision_at, layout.revision_len, strict=strict)
    if serial is None or revision is None:
        return None
    return serial, revision


def needed_protocol() -> str:
    """The protocol this host speaks and the major it needs, in words."""
    return f"v{wire.PROTOCOL_MAJOR}.{wire.PROTOCOL_MINOR} (major {wire.PROTOCOL_MAJOR} needed)"


def protocol_problem(device: str, major: int, minor: int) -> str | None:
    """Why a ``device`` ("the sensor board", "the clock unit") that says protocol
    ``major.minor`` cannot be served, or None when its major is this host's: a minor
    version only adds message types (docs/wire.md), a major changes the frames."""
    if major == wire.PROTOCOL_MAJOR:
        return None
    return f"{device} speaks wire protocol v{major}.{minor}, this host speaks {needed_protocol()}"
