"""A crowd of viewers for ``wuzi bench web``: one process, asyncio, a WebSocket each.

Run by the bench as ``python -m wuzi.sim.bench.web_viewers URLS COUNT PREFIX FILTER``
(``URLS`` comma-separated ``ws://HOST:PORT/PATH``: viewer ``i`` opens ``URLS[i % len]``,
as DNS round robin would spread them). Each viewer opens MQTT over WebSockets
(subprotocol ``mqtt``), CONNECTs anonymously with a clean session, SUBSCRIBEs to
``FILTER`` at QoS 0 and notes the ``time.monotonic_ns()`` (one clock for every process
of the machine) at which each PUBLISH arrives whose payload starts with ``seq=<n>;``.

Protocol on the pipes: once every viewer is subscribed (or failed, or 120 s passed) it
prints ``ready <connected> <failed>``; at the line ``stop`` on stdin it prints one JSON
line ``{"arrivals": {"<n>": [ns, ...]}, "connected": k}`` and exits 0.

A shell: the framing is `wuzi.sim.bench.ws_frames` and `wuzi.sim.bench.mqtt_frames`,
lean on purpose (ws_frames says why); a viewer is an `asyncio.Protocol`, no task each.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import sys
import time
from collections import defaultdict
from urllib.parse import urlsplit

from wuzi.sim.bench.mqtt_frames import (
    CONNACK,
    PUBLISH,
    SUBACK,
    FrameError,
    connect_packet,
    publish_topic_payload,
    subscribe_packet,
    take_packets,
)
from wuzi.sim.bench.ws_frames import (
    BINARY,
    CLOSE,
    CONTINUATION,
    PING,
    PONG,
    client_frame,
    handshake_request,
    read_handshake,
    take_frames,
)

__all__ = ["Crowd", "Viewer", "main"]

OPEN_TIMEOUT_S = 60.0
READY_TIMEOUT_S = 120.0
CONCURRENT_OPENINGS = 100
"""Handshakes in flight at once: a crowd arriving, not a SYN flood the listen backlog drops."""
KEEPALIVE_S = 300


def _seq(payload: bytes) -> int | None:
    if not payload.startswith(b"seq="):
        return None
    head = payload[4 : payload.find(b";")]
    return int(head) if head.isdigit() else None


class Crowd:
    """The viewers of this process and what they received."""

    def __init__(self) -> None:
        self.arrivals: dict[int, list[int]] = defaultdict(list)
        self.connected = 0
        self.failed = 0


class Viewer(asyncio.Protocol):
    """One viewer: the handshake, CONNECT, SUBSCRIBE, then PUBLISHes noted in ``crowd``."""

    def __init__(self, crowd: Crowd, name: str, url: str, topic_filter: str) -> None:
        parts = urlsplit(url)
        self.crowd, self.name, self.filter = crowd, name, topic_filter
        self.host, self.port, self.path = parts.hostname or "", parts.port or 80, parts.path or "/"
        self.key = base64.b64encode(os.urandom(16)).decode()
        self.transport: asyncio.Transport | None = None
        self.upgraded = False
        self.wire = b""  # WebSocket bytes not yet a whole frame
        self.mqtt = b""  # MQTT bytes not yet a whole packet
        self.subscribed: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        transport.write(handshake_request(self.host, self.port, self.path, self.key))

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.subscribed.done():
            self.subscribed.set_exception(exc or ConnectionError("closed before SUBACK"))

    def _send(self, payload: bytes, opcode: int = BINARY) -> None:
        assert self.transport is not None
        self.transport.write(client_frame(payload, os.urandom(4), opcode))

    def data_received(self, data: bytes) -> None:
        now_ns = time.monotonic_ns()
        try:
            self._take(data, now_ns)
        except FrameError as exc:
            if not self.subscribed.done():
                self.subscribed.set_exception(exc)
            assert self.transport is not None
            self.transport.close()

    def _take(self, data: bytes, now_ns: int) -> None:
        self.wire += data
        if not self.upgraded:
            self.upgraded, self.wire = read_handshake(self.wire, self.key)
            if not self.upgraded:
                return
            self._send(connect_packet(self.name, KEEPALIVE_S))
        frames, self.wire = take_frames(self.wire)
        for frame in frames:
            if frame.opcode in (BINARY, CONTINUATION):
                self.mqtt += frame.payload
            elif frame.opcode == PING:
                self._send(frame.payload, PONG)
            elif frame.opcode == CLOSE:
                assert self.transport is not None
                self.transport.close()
                return
        packets, self.mqtt = take_packets(self.mqtt)
        for packet in packets:
            if packet.kind == PUBLISH:
                seq = _seq(publish_topic_payload(packet)[1])
                if seq is not None:
                    self.crowd.arrivals[seq].append(now_ns)
            elif packet.kind == CONNACK:
                if packet.body[1:2] != b"\x00":
                    raise FrameError(f"CONNACK refused the viewer: {packet.body!r}")
                self._send(subscribe_packet(1, self.filter))
            elif packet.kind == SUBACK and not self.subscribed.done():
                self.subscribed.set_result(None)


async def _open(
    crowd: Crowd, name: str, url: str, topic_filter: str, gate: asyncio.Semaphore
) -> None:
    loop = asyncio.get_running_loop()
    parts = urlsplit(url)
    try:
        async with gate:
            _transport, viewer = await asyncio.wait_for(
                loop.create_connection(
                    lambda: Viewer(crowd, name, url, topic_filter),
                    parts.hostname or "127.0.0.1",
                    parts.port or 80,
                ),
                OPEN_TIMEOUT_S,
            )
            await asyncio.wait_for(viewer.subscribed, OPEN_TIMEOUT_S)
    except (OSError, TimeoutError, FrameError, ConnectionError) as exc:
        crowd.failed += 1
        print(f"# viewer {name}: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
        return
    crowd.connected += 1


async def _run(urls: list[str], count: int, prefix: str, topic_filter: str) -> None:
    crowd = Crowd()
    gate = asyncio.Semaphore(CONCURRENT_OPENINGS)
    opening = [
        asyncio.create_task(_open(crowd, f"{prefix}-{i}", urls[i % len(urls)], topic_filter, gate))
        for i in range(count)
    ]
    await asyncio.wait(opening, timeout=READY_TIMEOUT_S)
    print(f"ready {crowd.connected} {count - crowd.connected}", flush=True)
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.readline)  # "stop" (or the end of stdin)
    result = {str(k): v for k, v in crowd.arrivals.items()}
    print(json.dumps({"arrivals": result, "connected": crowd.connected}), flush=True)
    for task in opening:  # the sockets close with the process: the brokers see them drop
        task.cancel()


def main(argv: list[str]) -> int:
    if len(argv) != 4 or not argv[1].isdigit():
        print(
            "usage: python -m wuzi.sim.bench.web_viewers URLS COUNT PREFIX FILTER", file=sys.stderr
        )
        return 2
    urls, count, prefix, topic_filter = argv[0].split(","), int(argv[1]), argv[2], argv[3]
    asyncio.run(_run(urls, count, prefix, topic_filter))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
