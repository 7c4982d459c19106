"""Just enough WebSocket (RFC 6455) to carry a viewer's MQTT: the client's opening
handshake, masked frames out, unmasked frames in.

Why not a WebSocket library: ``wuzi bench web`` times a broker's fan-out to thousands of
viewers held by one or two Python processes on the brokers' own two cores. With a full
client library each received message cost the viewers' process more than the brokers
spent sending it, so the figure measured the bench. Here a received frame is a header
read and a slice. Only binary frames (MQTT's), ping, pong and close; no extensions.

Pure: bytes in, bytes out; errors are `FrameError` (`wuzi.sim.bench.mqtt_frames`).
"""

from __future__ import annotations

import base64
import hashlib
import struct
from dataclasses import dataclass

from wuzi.sim.bench.mqtt_frames import FrameError

__all__ = [
    "BINARY",
    "CLOSE",
    "CONTINUATION",
    "PING",
    "PONG",
    "WsFrame",
    "accept_key",
    "client_frame",
    "handshake_request",
    "read_handshake",
    "take_frames",
]

CONTINUATION = 0x0
BINARY = 0x2
CLOSE = 0x8
PING = 0x9
PONG = 0xA
_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
MAX_HEADER_BYTES = 8192


@dataclass(frozen=True)
class WsFrame:
    opcode: int
    fin: bool
    payload: bytes


def accept_key(key: str) -> str:
    """The ``Sec-WebSocket-Accept`` a server must answer to ``key`` (RFC 6455, 4.2.2)."""
    return base64.b64encode(hashlib.sha1(key.encode("ascii") + _GUID).digest()).decode()


def handshake_request(host: str, port: int, path: str, key: str) -> bytes:
    """The opening handshake for MQTT's subprotocol (``Sec-WebSocket-Protocol: mqtt``)."""
    return (
        f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
        "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: mqtt\r\n\r\n"
    ).encode("ascii")


def read_handshake(buffer: bytes, key: str) -> tuple[bool, bytes]:
    """(done, the bytes after the answer); ``done`` is False while the answer is still
    incomplete. `FrameError` if the server did not switch protocols or answered another
    key (a proxy's cached page, say)."""
    end = buffer.find(b"\r\n\r\n")
    if end < 0:
        if len(buffer) > MAX_HEADER_BYTES:
            raise FrameError(f"no end of the handshake's answer in {len(buffer)} bytes")
        return False, buffer
    head = buffer[:end].decode("latin-1").split("\r\n")
    if len(head[0].split()) < 2 or head[0].split()[1] != "101":
        raise FrameError(f"the server did not switch to WebSocket: {head[0]!r}")
    fields = {k.strip().lower(): v.strip() for k, _, v in (h.partition(":") for h in head[1:])}
    if fields.get("sec-websocket-accept") != accept_key(key):
        raise FrameError("the server's Sec-WebSocket-Accept does not match the key")
    return True, buffer[end + 4 :]


def client_frame(payload: bytes, mask: bytes, opcode: int = BINARY) -> bytes:
    """One final frame from the client: masked with the 4 bytes ``mask``, as required."""
    if len(mask) != 4:
        raise FrameError(f"a mask is 4 bytes, not {len(mask)}")
    size = len(payload)
    if size < 126:
        head = struct.pack("!BB", 0x80 | opcode, 0x80 | size)
    elif size < 1 << 16:
        head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, size)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, size)
    key = (mask * (size // 4 + 1))[:size]
    masked = (int.from_bytes(payload, "big") ^ int.from_bytes(key, "big")).to_bytes(size, "big")
    return head + mask + masked


def take_frames(buffer: bytes) -> tuple[list[WsFrame], bytes]:
    """The whole frames at the start of ``buffer`` and the rest (a frame cut short waits
    for more bytes). `FrameError` for a masked frame: a server never masks."""
    frames: list[WsFrame] = []
    at = 0
    while len(buffer) - at >= 2:
        first, second = buffer[at], buffer[at + 1]
        if second & 0x80:
            raise FrameError("a masked frame from the server")
        size, start = second & 0x7F, at + 2
        if size == 126:
            if len(buffer) - at < 4:
                break
            (size,) = struct.unpack_from("!H", buffer, at + 2)
            start = at + 4
        elif size == 127:
            if len(buffer) - at < 10:
                break
            (size,) = struct.unpack_from("!Q", buffer, at + 2)
            start = at + 10
        if len(buffer) < start + size:
            break
        frames.append(WsFrame(first & 0x0F, bool(first & 0x80), buffer[start : start + size]))
        at = start + size
    return frames, buffer[at:]
