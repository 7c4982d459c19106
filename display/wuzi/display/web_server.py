"""``wuzi web``'s server: one MQTT subscription, any number of browsers (stdlib only).

* **One subscription.** `WebFeed` is one `BusClient` subscribed to
  ``public/table/+/state``, ``public/table/+/events`` and ``competition/#`` (the one
  event's ``competition/state``, each event's ``competition/<event>/state`` in a hall of
  several) of the venue — never the live ``table/`` tree. Every message is folded into
  the `WebModel` by the `Hub`, which fans each change out to every connected browser: a
  thousand readers cost the broker what one does.
* **Pushed updates.** ``GET /events`` is a server-sent-events stream (``text/event-stream``):
  a ``snapshot`` event first (every table, the competition, the events of a hall of
  several), then a ``table`` event for every table that changed, a ``competition`` event
  when the one-event summary did, and an ``events`` event (the whole list, each with its
  summary) when an event's summary changed or an event appeared; a comment
  line every 15 s keeps proxies and phones from closing it. The browser's ``EventSource``
  reconnects by itself and gets a fresh snapshot.
* **Pages and files.** ``/`` (all tables, standings, bracket; in a hall of several events
  the list of events, each opening as ``/?event=ID``: its tables, standings, bracket and
  games) and ``/game?id=…`` (one game, replayable) are the same small page
  (``web_assets/``: HTML, CSS and JS served from here, gzip when the browser takes it —
  nothing from outside the venue, enforced by a Content-Security-Policy of ``'self'``);
  ``/api/state``, ``/api/game?id=…`` and ``/api/games`` give the same JSON;
  ``/record.sgf?id=…`` and ``/record.psq?id=…`` the game's record as a download, written
  by `wuzi.rules.formats`.

`ThreadingHTTPServer`: a thread per connection, so an open event stream costs a thread
and a queue of at most `CLIENT_QUEUE` updates; a browser that falls that far behind is
dropped (it reconnects and starts from a snapshot) rather than let memory grow.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import logging
import queue
import re
import threading
import time
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

from wuzi.bus import topics
from wuzi.bus.client import BusClient
from wuzi.bus.schemas import Message
from wuzi.display.web_model import Change, WebModel

__all__ = ["CLIENT_QUEUE", "Hub", "WebFeed", "WebServer", "monotonic_ms"]

log = logging.getLogger("wuzi.display.web")

CLIENT_QUEUE = 1000
KEEPALIVE_S = 15.0
_CLOSE = ""  # the sentinel that ends a stream
_ASSETS = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/game": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/app.css": ("app.css", "text/css; charset=utf-8"),
    "/favicon.svg": ("favicon.svg", "image/svg+xml"),
}
_SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
    "style-src 'self'; script-src 'self'; connect-src 'self'; base-uri 'none'; "
    "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
_SAFE_NAME = re.compile(r"[^A-Za-z0-9_.-]+")


def monotonic_ms() -> int:
    return time.monotonic_ns() // 1_000_000


def _load_assets() -> dict[str, tuple[bytes, bytes, str]]:
    """Each path's (plain, gzipped, content type), read once from the package."""
    folder = resources.files("wuzi.display").joinpath("web_assets")
    out = {}
    for path, (name, kind) in _ASSETS.items():
        body = folder.joinpath(name).read_bytes()
        out[path] = (body, gzip.compress(body, 9, mtime=0), kind)
    return out


class Hub:
    """The model and the browsers' queues: every change goes to every stream."""

    def __init__(
        self,
        model: WebModel,
        meta: dict[str, Any],
        clock: Callable[[], int] = monotonic_ms,
        client_queue: int = CLIENT_QUEUE,
    ) -> None:
        self.model = model
        self.meta = meta
        self._clock = clock
        self._client_queue = client_queue
        self._lock = threading.Lock()
        self._clients: set[queue.Queue[str]] = set()
        self.dropped = 0
        self.peak_clients = 0
        self.connected = False
        self._events: list[str] = model.events()  # the events the browsers were told of

    @property
    def clients(self) -> int:
        with self._lock:
            return len(self._clients)

    def apply(self, topic: str, message: Message) -> None:
        """Fold one bus message (network thread) and push what changed."""
        with self._lock:
            now = self._clock()
            changes = self.model.apply(topic, message, now)
            frames = [f for f in (self._frame(change, now) for change in changes) if f]
            events = self.model.events()
            several = len(events) > 1
            if several and (events != self._events or any(k == "competition" for k, _ in changes)):
                frames.append(_sse("events", self.model.events_view()))
            self._events = events
            if frames:
                self._broadcast(frames)

    def set_connected(self, up: bool) -> None:
        with self._lock:
            if up != self.connected:
                self.connected = up
                self._broadcast([_sse("meta", {**self.meta, "connected": up})])

    def _frame(self, change: Change, now: int) -> str:
        kind, key = change
        if kind == "table":
            table = int(key)
            view = self.model.table_view(table, now)
            return _sse("table", view if view is not None else {"table": table, "gone": True})
        if len(self.model.events()) > 1:  # an event of several: in the "events" list
            return ""
        return _sse("competition", self.model.competition_view())

    def _broadcast(self, frames: list[str]) -> None:
        for client in list(self._clients):
            try:
                for frame in frames:
                    client.put_nowait(frame)
            except queue.Full:  # too far behind: drop it; it reconnects to a snapshot
                self._clients.discard(client)
                self.dropped += 1
                with client.mutex:
                    client.queue.clear()
                client.put_nowait(_CLOSE)

    def subscribe(self) -> queue.Queue[str]:
        """A new stream's queue, holding the snapshot and meta first (no change between
        the snapshot and the first update can be lost: both happen under the lock)."""
        client: queue.Queue[str] = queue.Queue(self._client_queue)
        with self._lock:
            snapshot = self.model.snapshot(self._clock())
            client.put_nowait(_sse("meta", {**self.meta, "connected": self.connected}))
            client.put_nowait(_sse("snapshot", snapshot))
            self._clients.add(client)
            self.peak_clients = max(self.peak_clients, len(self._clients))
        return client

    def unsubscribe(self, client: queue.Queue[str]) -> None:
        with self._lock:
            self._clients.discard(client)

    def close(self) -> None:
        with self._lock:
            for client in self._clients:
                with contextlib.suppress(queue.Full):
                    client.put_nowait(_CLOSE)
            self._clients.clear()

    def json(self, what: str, game_id: str | None = None) -> Any:
        with self._lock:
            now = self._clock()
            if what == "state":
                return {**self.model.snapshot(now), "meta": self.meta}
            if what == "games":
                return self.model.games()
            assert game_id is not None
            return self.model.game_view(game_id, now)

    def record(self, game_id: str, fmt: str) -> str | None:
        from wuzi.rules import formats

        with self._lock:
            event = self.model.game_event(game_id)  # a hall of several: the event's rules
            ruleset = (self.meta.get("rulesets") or {}).get(event) or self.meta.get("ruleset")
            record = self.model.record(game_id, ruleset or "renju")
        if record is None:
            return None
        text = formats.export(record, fmt)
        return text if isinstance(text, str) else text.decode("latin-1")


def _sse(event: str, data: Any) -> str:
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"event: {event}\ndata: {body}\n\n"


class WebFeed:
    """The one bus connection: the public feed and the competition, into the hub."""

    def __init__(self, hub: Hub, client: BusClient, venue: str) -> None:
        self.hub = hub
        self.client = client
        for topic_filter in (
            f"{topics.all_public(venue).removesuffix('#')}table/+/state",
            f"{topics.all_public(venue).removesuffix('#')}table/+/events",
            topics.all_competitions(venue),
        ):
            client.subscribe(topic_filter, hub.apply)
        self._stop = threading.Event()
        self._watch = threading.Thread(target=self._watch_link, name="wuzi-web-link", daemon=True)

    def start(self) -> None:
        self.client.connect()
        self._watch.start()

    def _watch_link(self) -> None:
        while not self._stop.wait(0.5):
            self.hub.set_connected(self.client.connected)

    def close(self) -> None:
        self._stop.set()
        self.client.close()


class _Handler(BaseHTTPRequestHandler):
    server: WebServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("%s " + format, self.address_string(), *args)

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        game_id = (query.get("id") or [""])[0]
        hub = self.server.hub
        if url.path in self.server.assets:
            self._asset(url.path)
        elif url.path == "/events":
            self._stream()
        elif url.path in ("/api/state", "/api/games"):
            self._json(hub.json(url.path.removeprefix("/api/")))
        elif url.path == "/api/game" and game_id:
            view = hub.json("game", game_id)
            if view is None:
                self._error(HTTPStatus.NOT_FOUND, f"no game {game_id!r} on the public feed")
            else:
                self._json(view)
        elif url.path in ("/record.sgf", "/record.psq") and game_id:
            self._record(game_id, url.path.rsplit(".", 1)[1])
        else:
            self._error(HTTPStatus.NOT_FOUND, f"nothing at {url.path}")

    def _send(self, status: int, kind: str, body: bytes, extra: dict[str, str]) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        for name, value in {**_SECURITY_HEADERS, **extra}.items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _asset(self, path: str) -> None:
        plain, packed, kind = self.server.assets[path]
        gz = "gzip" in self.headers.get("Accept-Encoding", "")
        extra = {"Cache-Control": "no-cache", "Vary": "Accept-Encoding"}
        if gz:
            extra["Content-Encoding"] = "gzip"
        self._send(HTTPStatus.OK, kind, packed if gz else plain, extra)

    def _json(self, value: Any) -> None:
        body = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()
        self._send(HTTPStatus.OK, "application/json", body, {"Cache-Control": "no-store"})

    def _error(self, status: HTTPStatus, text: str) -> None:
        body = f"{status.value} {status.phrase}: {text}\n".encode()
        self._send(status, "text/plain; charset=utf-8", body, {})

    def _record(self, game_id: str, fmt: str) -> None:
        text = self.server.hub.record(game_id, fmt)
        if text is None:
            self._error(HTTPStatus.NOT_FOUND, f"no game {game_id!r} on the public feed")
            return
        name = _SAFE_NAME.sub("-", game_id).strip("-") or "game"
        disposition = f"attachment; filename=\"{name}.{fmt}\"; filename*=UTF-8''{quote(name)}.{fmt}"
        kind = (
            "application/x-go-sgf; charset=utf-8" if fmt == "sgf" else "text/plain; charset=utf-8"
        )
        self._send(HTTPStatus.OK, kind, text.encode(), {"Content-Disposition": disposition})

    def _stream(self) -> None:
        hub = self.server.hub
        client = hub.subscribe()
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Accel-Buffering", "no")  # a reverse proxy must not buffer it
        for name, value in _SECURITY_HEADERS.items():
            self.send_header(name, value)
        self.end_headers()
        self.close_connection = True
        try:
            self.wfile.write(b"retry: 2000\n\n")
            while not self.server.closing.is_set():
                try:
                    frame = client.get(timeout=KEEPALIVE_S)
                except queue.Empty:
                    frame = ": keep-alive\n\n"
                if frame == _CLOSE:
                    break
                self.wfile.write(frame.encode())
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            pass
        finally:
            hub.unsubscribe(client)


class WebServer(ThreadingHTTPServer):
    """The HTTP side: assets, JSON, records and the event streams of one `Hub`."""

    daemon_threads = True
    request_queue_size = 128

    def __init__(self, address: tuple[str, int], hub: Hub) -> None:
        self.hub = hub
        self.assets = _load_assets()
        self.closing = threading.Event()
        super().__init__(address, _Handler)

    def page_bytes(self) -> dict[str, tuple[int, int]]:
        """Each asset's size, plain and gzipped (the page weight)."""
        return {path: (len(p), len(g)) for path, (p, g, _) in self.assets.items()}

    def server_close(self) -> None:
        self.closing.set()
        self.hub.close()
        super().server_close()
