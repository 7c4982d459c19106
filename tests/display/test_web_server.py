"""`wuzi web` as a process on a real Mosquitto: many browsers' event streams on one broker
subscription, updates pushed to each, the page's files served from the process itself
(nothing from outside), records downloadable, clear errors."""

from __future__ import annotations

import gzip
import json
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from support.broker import MosquittoBroker
from support.public_feed import live_publisher, live_state, now_ms
from support.web import SseClient, running_cli, web_args, write_venue
from wuzi.bus import topics

REPO = Path(__file__).resolve().parents[2]
OUTPUT = REPO / "build" / "test-output"
CLIENTS = 300


def get(port: int, path: str, gz: bool = False) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}")
    if gz:
        request.add_header("Accept-Encoding", "gzip")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


def tables_seen(events: list[tuple[str, object, int]]) -> dict[int, object]:
    """Fold a stream as the page does: the snapshot's tables, then each ``table`` event
    (a table's state, or ``gone``)."""
    tables: dict[int, object] = {}
    for name, data, _ in events:
        if name == "snapshot" and isinstance(data, dict):
            tables = {t["table"]: t for t in data["tables"]}
        elif name == "table" and isinstance(data, dict):
            if data.get("gone"):
                tables.pop(data["table"], None)
            else:
                tables[data["table"]] = data
    return tables


def test_many_streams_one_subscription_pushed_updates_and_files(
    mosquitto: MosquittoBroker, tmp_path: Path
) -> None:
    venue = "web-many"
    venue_file = write_venue(tmp_path, venue, mosquitto.url, "[broadcast]\ndelay_minutes = 5\n")
    feed = live_publisher(mosquitto.url, venue)  # stands for the broadcast
    finished = live_state(1, (112, 113, 127, 128, 142), status="finished", result="1-0")
    feed.publish(topics.public_state(venue, 1), finished)
    feed.publish(topics.public_state(venue, 3), live_state(3, (112,), game_id="g-3"))
    assert feed.wait_drained(10)
    args, port = web_args(venue_file)
    with running_cli(args, tmp_path / "web.log", ready="serving http://"):
        clients = [SseClient(port) for _ in range(CLIENTS)]
        for client in clients:  # the retained states may come before or after the snapshot
            client.read_until(lambda ev: sorted(tables_seen(ev)) == [1, 3])
        assert clients[0].events[1][0] == "snapshot"  # meta, then the snapshot, first
        meta = next(data for name, data, _ in clients[0].events if name == "meta")
        assert isinstance(meta, dict) and meta["delay_minutes"] == 5

        moved = live_state(3, (112, 113), game_id="g-3")
        sent = now_ms()
        feed.publish(topics.public_state(venue, 3), moved)
        latencies = []
        for client in clients:
            client.read_until(
                lambda ev: any(
                    name == "table" and isinstance(d, dict) and d["moves"] == [112, 113]
                    for name, d, _ in ev
                )
            )
            arrived = next(
                at
                for name, d, at in client.events
                if name == "table" and isinstance(d, dict) and d["moves"] == [112, 113]
            )
            latencies.append(arrived - sent)
        for client in clients:
            client.close()

        status, headers, body = get(port, "/")
        assert status == 200 and b"/app.js" in body
        assert "'self'" in headers["Content-Security-Policy"]
        weight = {}
        for path in ("/", "/app.js", "/app.css", "/favicon.svg"):
            status, headers, plain = get(port, path)
            assert status == 200, path
            local = plain.replace(b'xmlns="http://www.w3.org/2000/svg"', b"")  # a name, not a fetch
            assert b"http://" not in local and b"https://" not in local, (
                f"{path} loads from outside"
            )
            _, zipped_headers, zipped = get(port, path, gz=True)
            assert zipped_headers.get("Content-Encoding") == "gzip"
            assert gzip.decompress(zipped) == plain
            weight[path] = {"bytes": len(plain), "gzip": len(zipped)}

        status, headers, sgf = get(port, "/record.sgf?id=g-1")
        assert status == 200 and "attachment" in headers["Content-Disposition"]
        assert b"RE[B+]" in sgf and b";B[hh]" in sgf
        status, _, psq = get(port, "/record.psq?id=g-1")
        assert status == 200 and psq.startswith(b"Piskvorky 15x15")
        assert get(port, "/record.sgf?id=nope")[0] == 404
        assert get(port, "/api/game?id=nope")[0] == 404
        assert get(port, "/etc/passwd")[0] == 404
        state = json.loads(get(port, "/api/state")[2])
        assert [t["table"] for t in state["tables"]] == [1, 3]
    feed.close()
    OUTPUT.mkdir(parents=True, exist_ok=True)
    metrics = {
        "clients": CLIENTS,
        "latency_ms": {
            "median": statistics.median(latencies),
            "max": max(latencies),
        },
        "page_weight": weight,
        "page_weight_total": {
            "bytes": sum(w["bytes"] for w in weight.values()),
            "gzip": sum(w["gzip"] for w in weight.values()),
        },
    }
    (OUTPUT / "web-server-metrics.json").write_text(json.dumps(metrics, indent=2) + "\n")
    print(json.dumps(metrics))
    assert max(latencies) < 2000


def test_a_bad_venue_file_is_one_line_and_exit_1(tmp_path: Path) -> None:
    bad = write_venue(tmp_path, "x", "mqtt://127.0.0.1:1", "[broadcast]\ndelay_minutes = 999\n")
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "wuzi.cli", "web", "--config", str(bad)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"wuzi web: {bad}: broadcast.delay_minutes: the delay must be 0-240 minutes, not 999"
    ]
    assert time.monotonic() - started < 30
