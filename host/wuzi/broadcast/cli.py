"""``wuzi broadcast``: publish the delayed public feed of a venue.

Contract (docs/cli.md "wuzi broadcast")::

    wuzi broadcast --config VENUE.TOML [--delay-minutes N] [--broker URL] [--log-level LEVEL]

Reads the live ``table/+/state`` and ``table/+/events`` of the venue and republishes them,
schema unchanged, on ``public/table/<n>/state`` (retained) and ``public/table/<n>/events``,
``N`` minutes behind play: ``--delay-minutes``, else ``[broadcast] delay_minutes`` of the
venue file, else 15; 0-240, 0 allowed. The broker is ``--broker``, else the venue file's
``[broker] url``; the login is the URL's when it names a user, else the broadcast's own
account ``wuzi.<venue>.broadcast.<[broadcast] id>`` with the password of
``secrets/broadcast/<id>.pass`` (`wuzi.config.credentials.login`, as every process logs in:
without that file the shared ``[broker]`` login or anonymously, saying which). Runs until
SIGTERM or SIGINT; exit 0 then, 1 when the venue file, the journal or an option is bad
(one line on stderr saying which), 2 on a usage error.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
from pathlib import Path
from typing import Any

from wuzi.config.broadcast import DEFAULT_JOURNAL
from wuzi.config.venue import ConfigError

__all__ = ["register"]


def _fail(message: str) -> int:
    print(f"wuzi broadcast: {message}", file=sys.stderr)
    return 1


def _command(args: argparse.Namespace) -> int:
    from wuzi.broadcast.journal import JournalError
    from wuzi.broadcast.service import Broadcast, BroadcastOptions
    from wuzi.broadcast.settings import load
    from wuzi.bus.url import BusConfigError, parse_broker_url
    from wuzi.config import credentials
    from wuzi.config.broadcast import SectionError, check_delay_minutes

    logging.basicConfig(
        level=args.log_level.upper(), format="%(asctime)s %(name)s %(levelname)s %(message)s"
    )
    try:
        venue, settings, _bridge = load(args.config)
        minutes = settings.delay_minutes
        if args.delay_minutes is not None:
            minutes = check_delay_minutes(args.delay_minutes, "--delay-minutes")
        url = args.broker or venue.broker.url
        address = parse_broker_url(url)
        login = None
        if address.username is None:  # the broadcast's own account, as every process
            login = credentials.login(venue, "broadcast", settings.id)
    except SectionError as exc:
        return _fail(str(exc))
    except (ConfigError, BusConfigError) as exc:
        return _fail(str(exc))
    options = BroadcastOptions(
        venue=venue.id,
        ident=settings.id,
        broker_url=url,
        delay_ms=round(minutes * 60_000),
        journal=_journal(settings.journal, settings.journal_given),
        username=None if login is None else login.username,
        password=None if login is None else login.password,
        login_source=None if login is None else login.source,
        ca_file=venue.broker.ca_file,
    )
    try:
        service = Broadcast(options)
    except (JournalError, ValueError) as exc:
        return _fail(str(exc))
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    service.start()
    try:
        service.run(stop)
    finally:
        service.close()
    return 0


def _journal(path: str, given: bool) -> Path:
    """The venue file's journal; without one, ``$STATE_DIRECTORY/broadcast.sqlite`` when
    systemd gave the service a state folder (deploy/systemd/wuzi-broadcast.service: the
    venue file's folder is read-only there), else the default beside the venue file."""
    state = os.environ.get("STATE_DIRECTORY", "").split(":")[0]
    if not given and state:
        return Path(state) / DEFAULT_JOURNAL
    return Path(path)


def _minutes(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number of minutes, not {text!r}") from None


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "broadcast",
        help="publish the delayed public feed (public/table/N/…) of every table",
        description="Republish every table's live state and events of the venue on "
        "public/table/N/state (retained) and public/table/N/events, N minutes behind play: "
        "the only feed the hall's public screens, the web page and the outside world read.",
    )
    p.add_argument("--config", required=True, metavar="VENUE.TOML", help="the venue file")
    p.add_argument(
        "--delay-minutes",
        type=_minutes,
        metavar="N",
        help="minutes behind play, 0-240 (default: [broadcast] delay_minutes, else 15)",
    )
    p.add_argument(
        "--broker", metavar="URL", help="the broker, instead of the venue file's [broker] url"
    )
    p.add_argument(
        "--log-level",
        default="info",
        choices=("debug", "info", "warning", "error"),
        help="how much to log on stderr (info)",
    )
    p.set_defaults(func=_command)
