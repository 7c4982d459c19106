"""A crowd of viewers for ``wuzi bench web``: one process, asyncio, a WebSocket each.

Run by the bench as ``python -m wuzi.sim.bench.web_viewers URLS COUNT PREFIX FILTER``
(``URLS`` comma-separated: viewer ``i`` opens ``URLS[i % len]``, as DNS round robin would
spread them). Each viewer opens MQTT over WebSockets (subprotocol ``mqtt``), CONNECTs
anonymously with a clean session, SUBSCRIBEs to ``FILTER`` at QoS 0 and notes the
``time.monotonic_ns()`` (one clock for every process of the machine) at which each
PUBLISH arrives whose payload starts with ``seq=<n>;``.

Protocol on the pipes: once every viewer is subscribed (or failed, or 120 s passed) it
prints ``ready <connected> <failed>``; at the line ``stop`` on stdin it prints one JSON
line ``{"arrivals": {"<n>": [ns, ...]}, "connected": k}`` and exits 0. A shell: the
frames are `wuzi.sim.bench.mqtt_frames`.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections import defaultdict

from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Subprotocol

from wuzi.sim.bench.mqtt_frames import (
    CONNACK,
    PUBLISH,
    SUBACK,
    connect_packet,
    publish_topic_payload,
    split_packets,
    subscribe_packet,
)

__all__ = ["main"]

CONNECT_TIMEOUT_S = 60.0
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

    async def viewer(self, url: str, name: str, topic_filter: str, gate: asyncio.Semaphore) -> None:
        try:
            async with gate:
                ws = await connect(
                    url,
                    subprotocols=[Subprotocol("mqtt")],
                    compression=None,
                    open_timeout=CONNECT_TIMEOUT_S,
                    ping_interval=None,
                    max_queue=None,
                )
                await ws.send(connect_packet(name, KEEPALIVE_S))
                await self._expect(ws, CONNACK)
                await ws.send(subscribe_packet(1, topic_filter))
                await self._expect(ws, SUBACK)
        except Exception as exc:  # any failure to open is one viewer fewer, counted
            self.failed += 1
            print(f"# viewer {name}: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
            return
        self.connected += 1
        arrivals = self.arrivals
        async for message in ws:
            now_ns = time.monotonic_ns()
            if isinstance(message, str):
                continue
            for packet in split_packets(message):
                if packet.kind == PUBLISH:
                    seq = _seq(publish_topic_payload(packet)[1])
                    if seq is not None:
                        arrivals[seq].append(now_ns)

    @staticmethod
    async def _expect(ws: ClientConnection, kind: int) -> None:
        message = await asyncio.wait_for(ws.recv(), CONNECT_TIMEOUT_S)
        if isinstance(message, str):
            raise ValueError("a text message where MQTT sends binary ones")
        packets = split_packets(message)
        if not packets or packets[0].kind != kind:
            raise ValueError(f"expected packet type {kind}, got {packets[:1]}")


async def _run(urls: list[str], count: int, prefix: str, topic_filter: str) -> None:
    crowd = Crowd()
    gate = asyncio.Semaphore(CONCURRENT_OPENINGS)
    tasks = [
        asyncio.create_task(crowd.viewer(urls[i % len(urls)], f"{prefix}-{i}", topic_filter, gate))
        for i in range(count)
    ]
    deadline = time.monotonic() + READY_TIMEOUT_S
    while crowd.connected + crowd.failed < count and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    print(f"ready {crowd.connected} {crowd.failed}", flush=True)
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.readline)  # "stop" (or the end of stdin)
    result = {"arrivals": {str(k): v for k, v in crowd.arrivals.items()}}
    print(json.dumps({**result, "connected": crowd.connected}), flush=True)
    for task in tasks:  # the sockets close with the process: the brokers see them drop
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
