"""``wuzi web``: the spectators' page, for the hall's phones and for followers at home.

Contract (docs/cli.md "wuzi web")::

    wuzi web --config VENUE.TOML [--port 8080] [--bind ADDRESS] [--broker URL]
             [--log-level LEVEL]

Serves ``http://ADDRESS:PORT/`` (every address when ``--bind`` is not given; port 8080)
built from the delayed public feed and ``competition/#`` only (in a hall of several
events the page lists them and opens each: ``/?event=ID``). The broker is
``--broker`` (e.g. the outside broker the venue bridges to: the same page from anywhere),
else the venue file's ``[broker] url``; the login is the URL's when it names a user, else
the public screen account ``web-<machine>`` (``[screens] public``; anonymous on a broker
without accounts). Prints ``wuzi web: serving http://…/`` once it listens; runs until
SIGTERM or SIGINT, exit 0 then; 1 when the venue file, the login or the address is bad
(one line on stderr), 2 on a usage error. Never imports pyglet.
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from typing import Any

__all__ = ["register"]

DEFAULT_PORT = 8080


def _fail(message: str) -> int:
    print(f"wuzi web: {message}", file=sys.stderr)
    return 1


def _port(text: str) -> int:
    if not text.isdigit() or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"a port 0-65535, not {text!r}")
    return int(text)


def _command(args: argparse.Namespace) -> int:
    from wuzi.broadcast.settings import load
    from wuzi.bus.client import BusClient
    from wuzi.bus.identity import client_id, machine_name
    from wuzi.bus.url import BusConfigError, parse_broker_url
    from wuzi.config.credentials import login
    from wuzi.config.venue import ConfigError
    from wuzi.display.web_model import WebModel
    from wuzi.display.web_server import Hub, WebFeed, WebServer

    logging.basicConfig(
        level=args.log_level.upper(), format="%(asctime)s %(name)s %(levelname)s %(message)s"
    )
    try:
        venue, broadcast, _bridge = load(args.config)
        url = args.broker or venue.broker.url
        address = parse_broker_url(url)
        name = f"web-{machine_name()}"
        if address.username is not None:
            ident, username, password, source = (
                client_id(venue.id, "screen", name),
                None,
                None,
                None,
            )
        else:
            found = login(venue, "screen-public", name)
            ident, username, password, source = (
                found.client_id,
                found.username,
                found.password,
                found.source,
            )
    except (ConfigError, BusConfigError, ValueError) as exc:
        return _fail(str(exc))
    ruleset = venue.defaults.ruleset
    meta = {
        "venue": venue.id,
        "name": venue.name,
        "delay_minutes": broadcast.delay_minutes,
        "ruleset": ruleset.name if ruleset is not None else "renju",
        # each event's rule set (its defaults over the venue's), for its games' records
        "rulesets": {
            event.id: rules.name
            for event in venue.events
            if (rules := event.defaults.over(venue.defaults).ruleset) is not None
        },
    }
    hub = Hub(WebModel(venue.id), meta)
    client = BusClient(
        url,
        ident,
        username=username,
        password=password,
        login_source=source,
        ca_file=venue.broker.ca_file,
    )
    feed = WebFeed(hub, client, venue.id)
    try:
        server = WebServer((args.bind, args.port), hub)
    except OSError as exc:
        return _fail(f"cannot listen on {args.bind or '*'}:{args.port}: {exc.strerror or exc}")
    host, port = server.server_address[:2]
    shown = args.bind or "localhost"
    if ":" in shown:
        shown = f"[{shown}]"
    print(f"wuzi web: serving http://{shown}:{port}/ (venue {venue.id})", flush=True)
    log.info("listening on %s:%s", host, port)
    feed.start()
    stop = threading.Event()

    def shut(*_: object) -> None:
        stop.set()
        threading.Thread(target=server.shutdown, daemon=True).start()

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, shut)
    try:
        server.serve_forever(poll_interval=0.5)
    finally:
        server.server_close()
        feed.close()
    return 0


log = logging.getLogger("wuzi.display.web")


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "web",
        help="the spectators' web page: every table, delayed, standings, game records",
        description="Serve the spectators' page (every table with its board, clocks and "
        "players, the standings or bracket, a replayable page and SGF/.psq download per "
        "game) from the delayed public feed, pushed to every browser over one broker "
        "subscription.",
    )
    p.add_argument("--config", required=True, metavar="VENUE.TOML", help="the venue file")
    p.add_argument(
        "--port", type=_port, default=DEFAULT_PORT, help=f"HTTP port (default {DEFAULT_PORT})"
    )
    p.add_argument(
        "--bind", default="", metavar="ADDRESS", help="listen on this address only (default: all)"
    )
    p.add_argument(
        "--broker", metavar="URL", help="the broker, instead of the venue file's [broker] url"
    )
    p.add_argument(
        "--log-level",
        default="warning",
        choices=("debug", "info", "warning", "error"),
        help="how much to log on stderr (warning)",
    )
    p.set_defaults(func=_command)
