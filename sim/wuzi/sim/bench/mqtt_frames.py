"""Just enough MQTT 3.1.1 to be a viewer: CONNECT, SUBSCRIBE, PUBLISH (QoS 0), PINGREQ.

``wuzi bench web`` holds thousands of viewers in one asyncio process; paho's thread per
client would not scale to that, so each viewer is a WebSocket (``websockets``) carrying
these frames, as a browser's MQTT client does. Only what a read-only viewer at QoS 0
needs: packets are built whole and parsed from whole WebSocket messages (a broker sends
each MQTT packet in one message; `split_packets` also takes several in one).

Pure: bytes in, bytes out; errors are `FrameError` saying what is wrong.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass

__all__ = [
    "CONNACK",
    "PINGRESP",
    "PUBLISH",
    "SUBACK",
    "FrameError",
    "Packet",
    "connect_packet",
    "decode_remaining_length",
    "encode_remaining_length",
    "percentile",
    "pingreq_packet",
    "publish_packet",
    "publish_topic_payload",
    "split_packets",
    "subscribe_packet",
    "take_packets",
]

CONNECT = 1
CONNACK = 2
PUBLISH = 3
SUBSCRIBE = 8
SUBACK = 9
PINGREQ = 12
PINGRESP = 13
MAX_REMAINING = 268_435_455  # four length bytes (MQTT 3.1.1, 2.2.3)


class FrameError(ValueError):
    """Bytes that are not the MQTT packet they should be."""


@dataclass(frozen=True)
class Packet:
    """One packet: its type (upper four bits), flags (lower four) and body."""

    kind: int
    flags: int
    body: bytes


def encode_remaining_length(length: int) -> bytes:
    """The variable-length "remaining length" of a fixed header."""
    if not 0 <= length <= MAX_REMAINING:
        raise FrameError(f"remaining length {length} is outside 0-{MAX_REMAINING}")
    out = bytearray()
    while True:
        byte, length = length % 128, length // 128
        out.append(byte | (0x80 if length else 0))
        if not length:
            return bytes(out)


def decode_remaining_length(data: bytes, at: int) -> tuple[int, int]:
    """The remaining length starting at ``data[at]`` and where the body starts."""
    value, shift = 0, 0
    for i in range(4):
        if at + i >= len(data):
            raise FrameError("the remaining length is cut short")
        byte = data[at + i]
        value += (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, at + i + 1
        shift += 7
    raise FrameError("the remaining length runs over four bytes")


def _string(text: str) -> bytes:
    raw = text.encode("utf-8")
    if len(raw) > 0xFFFF:
        raise FrameError(f"a string of {len(raw)} bytes is longer than 65535")
    return struct.pack("!H", len(raw)) + raw


def _packet(kind: int, flags: int, body: bytes) -> bytes:
    return bytes([kind << 4 | flags]) + encode_remaining_length(len(body)) + body


def connect_packet(client_id: str, keepalive_s: int = 60) -> bytes:
    """CONNECT, MQTT 3.1.1, clean session, no user name: an anonymous viewer."""
    if not 0 <= keepalive_s <= 0xFFFF:
        raise FrameError(f"keep-alive {keepalive_s} s is outside 0-65535")
    body = _string("MQTT") + bytes([4, 0x02]) + struct.pack("!H", keepalive_s)
    return _packet(CONNECT, 0, body + _string(client_id))


def subscribe_packet(packet_id: int, topic_filter: str, qos: int = 0) -> bytes:
    """SUBSCRIBE to one filter (flags 0b0010, as the standard requires)."""
    if not 1 <= packet_id <= 0xFFFF or qos not in (0, 1, 2):
        raise FrameError(f"packet id {packet_id} or QoS {qos} is out of range")
    body = struct.pack("!H", packet_id) + _string(topic_filter) + bytes([qos])
    return _packet(SUBSCRIBE, 0x2, body)


def publish_packet(topic: str, payload: bytes, retain: bool = False) -> bytes:
    """PUBLISH at QoS 0."""
    return _packet(PUBLISH, 0x1 if retain else 0, _string(topic) + payload)


def pingreq_packet() -> bytes:
    return _packet(PINGREQ, 0, b"")


def split_packets(data: bytes) -> list[Packet]:
    """The whole packets in ``data``, in order; `FrameError` if one is cut short."""
    packets, at = [], 0
    while at < len(data):
        first = data[at]
        length, start = decode_remaining_length(data, at + 1)
        end = start + length
        if end > len(data):
            raise FrameError(f"a packet of {length} bytes has only {len(data) - start}")
        packets.append(Packet(first >> 4, first & 0x0F, data[start:end]))
        at = end
    return packets


def take_packets(buffer: bytes) -> tuple[list[Packet], bytes]:
    """The whole packets at the start of ``buffer`` and the rest: a packet may span
    WebSocket frames, so a cut one waits for more bytes."""
    packets, at = [], 0
    while at < len(buffer):
        try:
            length, start = decode_remaining_length(buffer, at + 1)
        except FrameError:
            if len(buffer) - at > 5:  # four length bytes were there: a broken length
                raise
            break
        if start + length > len(buffer):
            break
        first = buffer[at]
        packets.append(Packet(first >> 4, first & 0x0F, buffer[start : start + length]))
        at = start + length
    return packets, buffer[at:]


def publish_topic_payload(packet: Packet) -> tuple[str, bytes]:
    """A PUBLISH's topic and payload (a packet id, at QoS 1 or 2, is skipped)."""
    if packet.kind != PUBLISH:
        raise FrameError(f"packet type {packet.kind} is not PUBLISH ({PUBLISH})")
    if len(packet.body) < 2:
        raise FrameError("a PUBLISH without a topic")
    (size,) = struct.unpack_from("!H", packet.body)
    if 2 + size > len(packet.body):
        raise FrameError("the PUBLISH's topic runs past its end")
    topic = packet.body[2 : 2 + size].decode("utf-8")
    at = 2 + size + (2 if (packet.flags >> 1) & 0x3 else 0)
    return topic, packet.body[at:]


def percentile(samples: list[float], fraction: float) -> float:
    """The ``fraction`` (0-1) percentile by the nearest rank: a value that was measured."""
    if not samples:
        raise ValueError("no samples")
    if not 0 <= fraction <= 1:
        raise ValueError(f"fraction {fraction} is outside 0-1")
    ordered = sorted(samples)
    rank = max(1, math.ceil(round(fraction * len(ordered), 9)))  # 0.29 * 100 is 28.999…
    return ordered[rank - 1]
