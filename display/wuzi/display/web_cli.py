"""``wuzi web``: the spectators' page, for the hall's phones and for followers at home.

Contract (docs/cli.md "wuzi web" and "wuzi web export")::

    wuzi web --config VENUE.TOML [--port 8080] [--bind ADDRESS] [--mqtt-url URL]
             [--broker URL] [--idle-timeout SECONDS] [--log-level LEVEL]
    wuzi web export --out DIR [--config VENUE.TOML [--broker URL] | --venue ID]
             [--mqtt-url URL]

The page is static files (`wuzi.display.web_page`); the browsers read the delayed public
feed from the broker over MQTT on WebSockets (``--mqtt-url``; default: the venue file's
``[followers] websockets_url`` (docs/followers.md), else ``ws://<the venue broker's
host>:9001/``; ``--broker`` names another broker whose host that is), so this process
subscribes to nothing and logs in nowhere.
``export`` writes the files into DIR for any static server or CDN (exit 0, 1 on bad input
with one line on stderr); the server form prints ``wuzi web: serving http://…/`` once it
listens and runs until SIGTERM or SIGINT, exit 0 then; 1 when the venue file, the URL or
the address is bad (one line on stderr), 2 on a usage error. Never imports pyglet.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path
from typing import Any

__all__ = ["register"]

DEFAULT_PORT = 8080
log = logging.getLogger("wuzi.display.web")


def _fail(message: str) -> int:
    print(f"wuzi web: {message}", file=sys.stderr)
    return 1


def _port(text: str) -> int:
    if not text.isdigit() or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"a port 0-65535, not {text!r}")
    return int(text)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.1 <= value <= 3600:
        raise argparse.ArgumentTypeError(f"seconds 0.1-3600, not {text!r}")
    return value


def _settings(args: argparse.Namespace) -> Any:
    """The page's settings from the venue file and the options; raises the config and
    page errors (the caller turns them into one line)."""
    from wuzi.bus.url import parse_broker_url
    from wuzi.display.web_page import PageSettings, WebPageError, check_mqtt_url
    from wuzi.display.web_page import default_mqtt_url as default_url

    if args.config is None:
        if args.venue is None or (args.mqtt_url is None and args.broker is None):
            raise WebPageError("without --config, give --venue ID and --mqtt-url URL")
        from wuzi.bus.topics import check_name

        if args.mqtt_url is None:
            broker = parse_broker_url(args.broker)
            url = default_url(broker.host, broker.tls)
        else:
            url = check_mqtt_url(args.mqtt_url)
        return PageSettings(url, check_name("venue", args.venue))
    from wuzi.broadcast.settings import load

    venue, broadcast, _bridge = load(args.config)
    if args.venue is not None and args.venue != venue.id:
        raise WebPageError(f"--venue {args.venue!r} is not the venue file's ({venue.id!r})")
    if args.mqtt_url is not None:
        url = check_mqtt_url(args.mqtt_url)
    elif venue.followers is not None and args.broker is None:
        # the followers' broker the venue file names (wuzi venue broker-config writes it)
        url = check_mqtt_url(venue.followers.websockets_url)
    else:  # the WebSockets listener of the broker the venue file (or --broker) names
        broker = parse_broker_url(args.broker or venue.broker.url)
        url = default_url(broker.host, broker.tls)
    rulesets = {
        event.id: rules.name
        for event in venue.events
        if (rules := event.defaults.over(venue.defaults).ruleset) is not None
    }
    if venue.defaults.ruleset is not None:
        rulesets[""] = venue.defaults.ruleset.name
    return PageSettings(url, venue.id, venue.name, broadcast.delay_minutes, rulesets)


def _export(args: argparse.Namespace) -> int:
    from wuzi.bus.topics import TopicError
    from wuzi.bus.url import BusConfigError
    from wuzi.config.venue import ConfigError
    from wuzi.display.web_page import WebPageError, page_files

    out = Path(args.out)
    if out.exists() and not out.is_dir():
        return _fail(f"--out {out}: is a file, not a folder")
    try:
        files = page_files(_settings(args))
    except (ConfigError, BusConfigError, TopicError, WebPageError) as exc:
        return _fail(str(exc))
    try:
        for name, body in files.items():
            path = out / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(body)
    except OSError as exc:
        return _fail(f"--out {out}: cannot write {exc.filename or out}: {exc.strerror or exc}")
    print(f"wuzi web: wrote {len(files)} files to {out}/")
    return 0


def _serve(args: argparse.Namespace) -> int:
    from wuzi.bus.topics import TopicError
    from wuzi.bus.url import BusConfigError
    from wuzi.config.venue import ConfigError
    from wuzi.display.web_page import WebPageError, page_files
    from wuzi.display.web_server import build_assets, make_app, quiet_aiohttp, serve

    logging.basicConfig(
        level=args.log_level.upper(), format="%(asctime)s %(name)s %(levelname)s %(message)s"
    )
    quiet_aiohttp()
    if args.config is None:
        return _fail("the server needs --config VENUE.TOML (or use `wuzi web export`)")
    if args.out is not None:
        return _fail("--out is for `wuzi web export`")
    try:
        settings = _settings(args)
        files = page_files(settings)
    except (ConfigError, BusConfigError, TopicError, WebPageError) as exc:
        return _fail(str(exc))
    app = make_app(build_assets(files), settings.mqtt_url)
    shown = args.bind or "localhost"
    if ":" in shown:
        shown = f"[{shown}]"

    def listening(port: int) -> None:
        print(
            f"wuzi web: serving http://{shown}:{port}/ (venue {settings.venue}, "
            f"broker {settings.mqtt_url})",
            flush=True,
        )

    try:
        asyncio.run(serve(app, args.bind, args.port, listening, args.idle_timeout))
    except OSError as exc:
        return _fail(f"cannot listen on {args.bind or '*'}:{args.port}: {exc.strerror or exc}")
    return 0


def _command(args: argparse.Namespace) -> int:
    if args.action == "export":
        if args.out is None:
            return _fail("export needs --out DIR")
        return _export(args)
    return _serve(args)


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "web",
        help="the spectators' web page: serve it, or export it as static files",
        description="The spectators' page (every table with its board, clocks and players, "
        "the standings or bracket, a replayable view per game), static files whose script "
        "reads the delayed public feed from the broker over MQTT on WebSockets. "
        "`wuzi web export --out DIR` writes them for any static server or CDN; "
        "`wuzi web --config VENUE.TOML` serves them itself.",
    )
    p.add_argument(
        "action", nargs="?", choices=("export",), help="export: write the files into --out"
    )
    p.add_argument("--config", metavar="VENUE.TOML", help="the venue file")
    p.add_argument("--out", metavar="DIR", help="export: the folder to write the page into")
    p.add_argument("--venue", metavar="ID", help="export without --config: the venue id")
    p.add_argument(
        "--mqtt-url",
        metavar="URL",
        help="the broker's WebSockets URL the browsers use (default: ws://<the venue "
        "broker's host>:9001/)",
    )
    p.add_argument(
        "--broker",
        metavar="URL",
        help="the broker (mqtt://…) whose host gives the default --mqtt-url, instead of the "
        "venue file's [broker] url",
    )
    p.add_argument(
        "--port", type=_port, default=DEFAULT_PORT, help=f"HTTP port (default {DEFAULT_PORT})"
    )
    p.add_argument(
        "--bind", default="", metavar="ADDRESS", help="listen on this address only (default: all)"
    )
    p.add_argument(
        "--idle-timeout",
        type=_seconds,
        default=10.0,
        metavar="SECONDS",
        help="close a connection idle, or sending its request, this long (default 10)",
    )
    p.add_argument(
        "--log-level",
        default="warning",
        choices=("debug", "info", "warning", "error"),
        help="how much to log on stderr (warning)",
    )
    p.set_defaults(func=_command)
