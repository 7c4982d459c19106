"""``wuzi bench web``: followers at scale, on this machine, loopback only.

The arrangement of docs/followers.md, every part a real Mosquitto:

    venue broker --[bridge] (wuzi.venue.bridge: public/#, competition/#, out)--> hub
    hub <--[bridge, in] (wuzi venue edge-config) -- edge 1, edge 2, edge 3
    viewers: MQTT over WebSockets, anonymous, spread round robin over the edges

and the viewers real WebSocket MQTT clients (`wuzi.sim.bench.web_viewers`, asyncio, two
processes, a lean WebSocket framing so that the viewers cost less than the brokers). A
public event (1.5 kB, the size of a table's public state) is published at the venue end;
its arrival at each viewer is timed on the machine's one monotonic clock.

* ``web.fanout_p99_ms_<N>`` — N viewers (1000 and 5000): the 99th percentile, over every
  viewer and every event, from the publish at the venue broker to the arrival (and
  ``web.fanout_p50_ms_<N>`` the median). It includes the viewers' own Python reading
  thousands of WebSockets on the same two cores: an upper bound of the brokers' part;
  two events a second (`EVENT_GAP_S`);
* ``web.broker_rss_mb_<N>`` — the resident memory of the hub broker and the edges
  together (the brokers that scale with viewers; the venue broker holds none) with N
  viewers connected; ``web.broker_rss_mb_per_1000_viewers`` what 1000 add;
* ``web.broker_cpu_ms_per_event_<N>`` — CPU time of the hub and the edges for one
  event's fan-out to N viewers;
* ``web.idle_sockets_held``, ``web.new_viewer_load_max_ms``, ``web.server_stop_ms`` —
  `wuzi.sim.bench.web_idle` (the page's server under idle connections).

Bounded: 3 edges, 20 events a crowd, 120 s at most to seat a crowd; under three minutes
on two cores. ``quick``: 2 edges, 20 viewers, 5 events (the smoke test of the format).
"""

from __future__ import annotations

import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from wuzi.config.broadcast import BridgeSettings
from wuzi.sim import box
from wuzi.sim.bench.mqtt_frames import connect_packet, percentile, publish_packet
from wuzi.venue.bridge import bridge_conf
from wuzi.venue.followers import EdgeSettings, edge_conf

__all__ = ["Fanout", "raise_open_files", "run"]

Emit = Callable[[str, float, str], None]

VENUE = "bench"
TOPIC = f"wuzi/v1/{VENUE}/public/table/1/state"
FILTER = f"wuzi/v1/{VENUE}/public/#"
PAYLOAD_BYTES = 1500
EVENT_GAP_S = 0.5
"""Two public events a second: a venue of 24 tables, a move every ~30 s on each, a
state and an event per move (the rate docs/followers.md reckons the national audience at)."""
SETTLE_S = 1.0
READY_TIMEOUT_S = 150.0
WORKERS = 2


@dataclass(frozen=True)
class Fanout:
    """One crowd's figures: latencies (ms) of every delivery, and what went missing."""

    viewers: int
    connected: int
    latencies_ms: list[float]
    expected: int
    rss_mb: float
    cpu_ms_per_event: float

    @property
    def missing(self) -> int:
        return self.expected - len(self.latencies_ms)


def raise_open_files(wanted: int = 20_000) -> int:
    """Raise this process's soft limit of open files (inherited by the brokers and the
    viewers it starts) towards ``wanted``; the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = min(wanted, hard) if hard != resource.RLIM_INFINITY else wanted
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return max(soft, target)


def _rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def _cpu_ms(pid: int) -> float:
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


class Publisher:
    """The venue end: one plain MQTT connection to the venue broker, QoS 0 publishes."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.sendall(connect_packet(f"bench-publisher-{os.getpid()}", keepalive_s=0))
        if self.sock.recv(4)[:1] != b"\x20":
            raise RuntimeError("the venue broker did not accept the publisher")

    def publish(self, seq: int, retain: bool = False) -> int:
        """Publish event ``seq``; the monotonic ns just before it left."""
        head = f"seq={seq};".encode()
        packet = publish_packet(TOPIC, head + b"x" * (PAYLOAD_BYTES - len(head)), retain)
        sent_ns = time.monotonic_ns()
        self.sock.sendall(packet)
        return sent_ns

    def close(self) -> None:
        self.sock.close()


class Arrangement:
    """The venue broker, the hub broker and the edges, started in ``folder``."""

    def __init__(self, folder: Path, edges: int) -> None:
        self.folder = folder
        self.count = edges
        self.ws_urls: list[str] = []
        self.processes: list[subprocess.Popen[bytes]] = []
        self.scaled: list[int] = []  # pids of the hub and the edges

    @contextmanager
    def running(self) -> Iterator[Arrangement]:
        with ExitStack() as stack:
            hub = box.Broker(self._dir("hub"))
            hub.start()
            stack.callback(hub.stop)
            assert hub.process is not None
            self.scaled.append(hub.process.pid)
            venue = box.Broker(self._dir("venue"))
            bridge = BridgeSettings("127.0.0.1", hub.port, False, "bench-venue-public")
            with venue.config_path.open("a") as conf:
                conf.write(bridge_conf(VENUE, bridge))
            venue.start()
            stack.callback(venue.stop)
            self.venue_port = venue.port
            plain_ports = [self._edge(i, hub.port, stack) for i in range(self.count)]
            self._wait_for_bridges(plain_ports)
            yield self

    def _dir(self, name: str) -> Path:
        path = self.folder / name
        path.mkdir()
        return path

    def _edge(self, index: int, hub_port: int, stack: ExitStack) -> int:
        folder = self._dir(f"edge-{index}")
        ws_port, mqtt_port = box.free_port(), box.free_port()
        conf, acl = edge_conf(
            EdgeSettings(
                name=f"bench-edge-{index}",
                upstream_host="127.0.0.1",
                upstream_port=hub_port,
                acl_file=str(folder / "acl"),
                websockets_port=ws_port,
                websockets_bind="127.0.0.1",
                max_viewers=20_000,
                mqtt_port=mqtt_port,
            )
        )
        if os.geteuid() == 0:  # root: stay root, the temporary folder is root's
            conf += "user root\n"
        (folder / "acl").write_text(acl)
        (folder / "mosquitto.conf").write_text(conf)
        log = (folder / "mosquitto.log").open("ab")
        process = subprocess.Popen(
            [box.find_mosquitto(), "-c", str(folder / "mosquitto.conf")],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        stack.callback(_stop, process)
        self.scaled.append(process.pid)
        box.wait_for(lambda: _listening(mqtt_port, process), 10.0, f"edge {index} to listen")
        self.ws_urls.append(f"ws://127.0.0.1:{ws_port}/")
        return mqtt_port

    def _wait_for_bridges(self, edge_ports: list[int]) -> None:
        """Publish a retained probe at the venue end until every edge has it."""
        publisher = Publisher(self.venue_port)
        try:
            publisher.publish(0, retain=True)
            for port in edge_ports:
                box.wait_for(partial(_has_retained, port), 20.0, "the edges' bridges")
        finally:
            publisher.close()

    def rss_mb(self) -> float:
        return sum(_rss_mb(pid) for pid in self.scaled)

    def cpu_ms(self) -> float:
        return sum(_cpu_ms(pid) for pid in self.scaled)

    def fanout(self, viewers: int, events: int) -> Fanout:
        """Seat ``viewers``, publish ``events`` at the venue end, gather the arrivals."""
        urls = ",".join(self.ws_urls)
        workers = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "wuzi.sim.bench.web_viewers",
                    urls,
                    str(share),
                    f"v{viewers}-{w}",
                    FILTER,
                ],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            for w, share in enumerate(_shares(viewers, WORKERS))
            if share
        ]
        try:
            connected = sum(_ready(worker) for worker in workers)
            rss = self.rss_mb()
            cpu_before = self.cpu_ms()
            publisher = Publisher(self.venue_port)
            sent: dict[int, int] = {}
            try:
                for seq in range(1, events + 1):
                    sent[seq] = publisher.publish(seq)
                    time.sleep(EVENT_GAP_S)
                time.sleep(SETTLE_S)
            finally:
                publisher.close()
            cpu = self.cpu_ms() - cpu_before
            latencies: list[float] = []
            for worker in workers:
                assert worker.stdin is not None and worker.stdout is not None
                worker.stdin.write("stop\n")
                worker.stdin.flush()
                found = json.loads(worker.stdout.readline())
                for seq, arrivals in found["arrivals"].items():
                    if int(seq) in sent:
                        latencies += [(ns - sent[int(seq)]) / 1e6 for ns in arrivals]
        finally:
            for worker in workers:
                _stop(worker)
        return Fanout(viewers, connected, latencies, connected * events, rss, cpu / events)


def _shares(total: int, parts: int) -> list[int]:
    return [total // parts + (1 if i < total % parts else 0) for i in range(parts)]


def _ready(worker: subprocess.Popen[str]) -> int:
    assert worker.stdout is not None
    line = worker.stdout.readline().split()  # the worker bounds its own wait
    if len(line) != 3 or line[0] != "ready":
        raise RuntimeError(f"a viewers' process said {line!r} instead of ready")
    if int(line[2]):
        print(f"# web: {line[2]} viewers could not connect", file=sys.stderr, flush=True)
    return int(line[1])


def _listening(port: int, process: subprocess.Popen[bytes]) -> bool:
    if process.poll() is not None:
        raise RuntimeError(f"an edge broker exited at start (status {process.returncode})")
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def _has_retained(port: int) -> bool:
    """Whether the broker on ``port`` holds the retained probe (a subscription's answer)."""
    from wuzi.sim.bench.mqtt_frames import PUBLISH, split_packets, subscribe_packet

    with socket.create_connection(("127.0.0.1", port), timeout=2) as sock:
        sock.sendall(connect_packet(f"bench-probe-{port}", keepalive_s=0))
        sock.sendall(subscribe_packet(1, TOPIC))
        data = b""
        sock.settimeout(0.3)
        try:
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
        except TimeoutError:
            pass
    try:
        return any(p.kind == PUBLISH for p in split_packets(data))
    except ValueError:
        return False


def _stop(process: subprocess.Popen[bytes] | subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


def run(emit: Emit, quick: bool) -> None:
    from wuzi.sim.bench.web_idle import run_idle

    raise_open_files()
    crowds, events, edges = ((20,), 5, 2) if quick else ((1000, 5000), 20, 3)
    with tempfile.TemporaryDirectory(prefix="wuzi-bench-web-") as name:
        folder = Path(name)
        with Arrangement(folder, edges).running() as net:
            idle_rss = net.rss_mb()
            for viewers in crowds:
                found = net.fanout(viewers, events)
                if found.missing:
                    print(
                        f"# web: {found.missing} of {found.expected} deliveries to "
                        f"{found.connected} viewers did not arrive",
                        file=sys.stderr,
                        flush=True,
                    )
                if found.latencies_ms:
                    p50 = percentile(found.latencies_ms, 0.5)
                    p99 = percentile(found.latencies_ms, 0.99)
                    emit(f"web.fanout_p50_ms_{viewers}", p50, "ms")
                    emit(f"web.fanout_p99_ms_{viewers}", p99, "ms")
                emit(f"web.broker_rss_mb_{viewers}", found.rss_mb, "MB")
                emit(f"web.broker_cpu_ms_per_event_{viewers}", found.cpu_ms_per_event, "ms")
                if viewers == crowds[-1] and found.connected:
                    added = (found.rss_mb - idle_rss) * 1000 / found.connected
                    emit("web.broker_rss_mb_per_1000_viewers", added, "MB")
            run_idle(emit, quick, folder, f"mqtt://127.0.0.1:{net.venue_port}")
