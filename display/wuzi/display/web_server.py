"""``wuzi web``'s server: the page's static files over aiohttp, hardened for the internet.

The page needs nothing from this process but its files (`wuzi.display.web_page`): the
browsers take the delayed feed from the broker over MQTT on WebSockets themselves. So the
server holds no subscription and no per-viewer state, and every response is a few bytes
prepared at the start (each file plain and gzipped, with its headers).

Hardened, because a hand-made thread-per-connection server was not (issue 37):

* **Timeouts.** A connection that sends no complete request within ``idle_timeout_s`` of
  opening, or stays idle that long between requests, is closed (aiohttp's keep-alive timer
  starts when the connection opens and a half-sent request does not reset it): a slow
  client cannot hold a connection, and closed ones cost nothing.
* **Floods.** One event loop, no thread per connection: thousands of idle sockets are a
  few kilobytes each; the listen backlog is deep, request lines and headers are bounded
  (`MAX_LINE`, `MAX_HEADERS`), so a header or connection flood does not lock others out.
* **Quiet.** A client that drops is at most one debug line: aiohttp's own log records are
  passed on as one line at debug level, never with a traceback (`OneLine`).
* **Stops.** SIGTERM or SIGINT closes the listener and every connection, waiting at most
  `STOP_GRACE_S` for a response in flight: the process exits 0 within 2 s whatever its
  connections do.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import logging
import mimetypes
import signal
from collections.abc import Callable
from dataclasses import dataclass

from aiohttp import web

from wuzi.display.web_page import content_security_policy

__all__ = ["STOP_GRACE_S", "Asset", "OneLine", "build_assets", "make_app", "serve"]

log = logging.getLogger("wuzi.display.web")

IDLE_TIMEOUT_S = 10.0
STOP_GRACE_S = 1.0
BACKLOG = 4096
MAX_LINE = 4096
MAX_HEADERS = 64
ROUTES = {"/": "index.html", "/game": "index.html"}
_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".md": "text/plain; charset=utf-8",
}


@dataclass(frozen=True)
class Asset:
    """One file as served: its bytes plain and gzipped, and its content type."""

    plain: bytes
    packed: bytes
    kind: str


def build_assets(files: dict[str, bytes]) -> dict[str, Asset]:
    """Each URL path of the page (``/app.js``, and ``/`` and ``/game`` for the page)."""
    out = {}
    for name, body in files.items():
        suffix = "." + name.rsplit(".", 1)[-1]
        kind = _TYPES.get(suffix) or mimetypes.guess_type(name)[0] or "application/octet-stream"
        out["/" + name] = Asset(body, gzip.compress(body, 9, mtime=0), kind)
    for path, name in ROUTES.items():
        out[path] = out["/" + name]
    return out


def make_app(assets: dict[str, Asset], mqtt_url: str) -> web.Application:
    """The aiohttp application: GET and HEAD of the page's files, nothing else."""
    headers = {
        "Content-Security-Policy": content_security_policy(mqtt_url),
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        "Cache-Control": "no-cache",
    }

    async def page(request: web.Request) -> web.Response:
        asset = assets.get(request.path)
        if asset is None:
            return web.Response(
                status=404, text=f"404 Not Found: nothing at {request.path}\n", headers=headers
            )
        extra = {**headers, "Vary": "Accept-Encoding"}
        body = asset.plain
        if "gzip" in request.headers.get("Accept-Encoding", ""):
            extra["Content-Encoding"] = "gzip"
            body = asset.packed
        return web.Response(
            body=body, content_type=None, headers=extra | {"Content-Type": asset.kind}
        )

    app = web.Application(handler_args={"max_line_size": MAX_LINE, "max_headers": MAX_HEADERS})
    app.router.add_route("GET", "/{tail:.*}", page)
    return app


class OneLine(logging.Filter):
    """aiohttp's records as one debug line each, without a traceback: a client that
    drops, resets or sends garbage is not the server's fault and not the operator's."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.exc_info[1] is not None:
            record.msg = f"{record.getMessage()}: {record.exc_info[1]!r}"
            record.args = None
        record.exc_info = None
        record.exc_text = None
        record.stack_info = None
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return logging.getLogger("wuzi.display.web").isEnabledFor(logging.DEBUG)


def quiet_aiohttp() -> None:
    for name in ("aiohttp.server", "aiohttp.web", "aiohttp.access", "aiohttp.internal"):
        logger = logging.getLogger(name)
        logger.addFilter(OneLine())
    logging.getLogger("asyncio").addFilter(OneLine())


async def serve(
    app: web.Application,
    host: str,
    port: int,
    on_listening: Callable[[int], None],
    idle_timeout_s: float = IDLE_TIMEOUT_S,
) -> None:
    """Serve ``app`` on ``host:port`` (every address for ""; port 0: a free one, given to
    ``on_listening``) until SIGTERM or SIGINT; then close everything within about
    `STOP_GRACE_S`. `OSError` when it cannot listen."""
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(
        lambda _loop, context: log.debug("event loop: %s", context.get("message"))
    )
    stop = asyncio.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    runner = web.AppRunner(
        app,
        handle_signals=False,
        access_log=None,
        keepalive_timeout=idle_timeout_s,
        shutdown_timeout=STOP_GRACE_S,
    )
    await runner.setup()
    try:
        site = web.TCPSite(runner, host or None, port, backlog=BACKLOG, reuse_address=True)
        await site.start()
        addresses = runner.addresses
        on_listening(int(addresses[0][1]) if addresses else port)
        await stop.wait()
    finally:
        with contextlib.suppress(asyncio.TimeoutError, TimeoutError):
            await asyncio.wait_for(runner.cleanup(), STOP_GRACE_S + 0.5)
