"""``wuzi director``: run the competition at the venue; print its audit log.

Contracts (docs/director.md):

* ``wuzi director --config VENUE.TOML [--event ID] [--db FILE] [--auto-confirm]
  [--time-scale X] [--opening NAME] [--broker URL] [--command-max-age SECONDS]
  [--log-level LEVEL]`` runs the director until SIGTERM/SIGINT (exit 0). The database is
  the competition's own (``wuzi tournament --db FILE new …`` creates it); ``--db`` is
  required unless the venue file names it (``[director] database``). A venue file with
  ``[[events]]`` runs one director per event: ``--event ID`` is required there (and
  refused without ``[[events]]``); the database is the event's own (``--db`` may not name
  another event's) and must be that event's (`wuzi.director.events`).
* ``wuzi director audit --db FILE [--format text|html] [--output FILE] [--utc]`` prints
  the audit log for the appeals committee.

Bad input (a venue file, a database without an event, a bad option) exits 1 with
``wuzi director: <what is wrong>`` on stderr and changes nothing; a usage error exits 2.
"""

from __future__ import annotations

import argparse
import datetime
import logging
import math
import signal
import sqlite3
import sys
from pathlib import Path
from typing import Any

__all__ = ["register"]


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "director",
        help="run the competition: assign games to tables, take results, publish standings",
        description=(
            "Run the event kept in the competition database at the venue: publish each "
            "round's games to the tables, accept results from the host that owns each "
            "table, make them final on a referee's confirmation, create playoffs, pair the "
            "next round, publish the standings and the bracket for the screens, and log "
            "everything for the appeals committee."
        ),
    )
    parser.add_argument("--config", metavar="VENUE.TOML", help="the venue file")
    parser.add_argument(
        "--event",
        metavar="ID",
        help="the event to run, of a venue file with [[events]] (required there): its "
        "database and only its tables",
    )
    parser.add_argument(
        "--db",
        metavar="FILE",
        help="the competition database (wuzi tournament --db FILE new … creates it); "
        "default: the venue file's [director] database",
    )
    parser.add_argument(
        "--auto-confirm",
        action="store_true",
        help="hosts' results are final at once, without a referee (demo and rehearsals)",
    )
    parser.add_argument(
        "--time-scale",
        type=float,
        default=1.0,
        metavar="X",
        help="rehearsal: divide every time control by X (default 1)",
    )
    parser.add_argument(
        "--opening",
        metavar="NAME",
        help="the tables' opening procedure instead of the event's (designated: "
        "chinese-2013; free: free)",
    )
    parser.add_argument(
        "--broker", metavar="URL", help="the broker, instead of the venue file's [broker] url"
    )
    parser.add_argument(
        "--command-max-age",
        type=float,
        default=12 * 3600.0,
        metavar="SECONDS",
        help="refuse referee commands signed longer ago than this (default 43200: commands "
        "queued while the director was down still count; repeats are always refused)",
    )
    parser.add_argument(
        "--log-level", default="info", choices=("debug", "info", "warning", "error")
    )
    parser.set_defaults(func=_run)
    sub = parser.add_subparsers(dest="director_command", metavar="SUBCOMMAND")
    audit = sub.add_parser(
        "audit",
        help="print the audit log for the appeals committee",
        description="Print every entry of the director's audit log: results reported, "
        "refused, confirmed and corrected, assignments, pairings, playoffs, with times "
        "and actors.",
    )
    audit.add_argument("--db", metavar="FILE", required=True, help="the competition database")
    audit.add_argument("--format", choices=("text", "html"), default="text")
    audit.add_argument("--output", metavar="FILE", help="write to FILE instead of stdout")
    audit.add_argument("--utc", action="store_true", help="times in UTC (default: local time)")
    audit.set_defaults(func=_audit)


def _fail(message: str) -> int:
    print(f"wuzi director: {message}", file=sys.stderr)
    return 1


def _run(args: argparse.Namespace) -> int:
    from wuzi.bus.url import BusConfigError, parse_broker_url
    from wuzi.config import ConfigError, load_venue
    from wuzi.director.events import choose_event, event_database
    from wuzi.director.schedule import DirectorError
    from wuzi.director.service import DirectorOptions, DirectorService

    if not args.config:
        return _fail("--config VENUE.TOML is required (or use 'wuzi director audit --db FILE')")
    logging.basicConfig(
        level=args.log_level.upper(), format="%(asctime)s %(name)s %(levelname)s %(message)s"
    )
    try:
        venue = load_venue(args.config)
    except ConfigError as exc:
        return _fail(str(exc))
    try:
        event = choose_event(venue, args.event)
        db = (
            event_database(venue, event, args.db)
            if event is not None
            else args.db or venue.director_database
        )
    except DirectorError as exc:
        return _fail(str(exc))
    if not db:
        return _fail(
            f"no database: give --db FILE (or 'database' in the [director] table of "
            f"{args.config}); create the event with 'wuzi tournament --db FILE new …'"
        )
    if not math.isfinite(args.time_scale) or args.time_scale <= 0:
        return _fail(f"--time-scale must be a positive number, not {args.time_scale}")
    if not 0 < args.command_max_age <= 86400:  # a day; also refuses nan and inf
        return _fail(
            f"--command-max-age must be more than 0 and at most 86400 s (24 h), "
            f"not {args.command_max_age}"
        )
    if args.broker is not None:
        try:
            parse_broker_url(args.broker)
        except BusConfigError as exc:
            return _fail(f"--broker: {exc}")
    if not Path(db).exists():
        return _fail(
            f"no competition database at {db}; create the event first with "
            f"'wuzi tournament --db {db} new --format …' and enter the teams or players"
        )
    options = DirectorOptions(
        db_path=Path(db),
        auto_confirm=args.auto_confirm,
        time_scale=args.time_scale,
        opening=args.opening,
        command_max_age_ms=int(args.command_max_age * 1000),
        broker_url=args.broker,
        base_dir=None,  # load_venue made the file's relative paths relative to its folder
        event_id=args.event,
    )
    service = DirectorService(venue, options)
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: service.request_stop())
    try:
        service.start()
    except (ValueError, OSError, sqlite3.Error) as exc:
        service.close()
        return _fail(str(exc))
    try:
        service.run()
    finally:
        service.close()
    return 0


def _audit(args: argparse.Namespace) -> int:
    from wuzi.director.audit import format_html, format_text, pending_draws
    from wuzi.director.store import DirectorStore
    from wuzi.tournament.errors import TournamentError

    store = DirectorStore(args.db)
    try:
        records = store.audit_records()
        event = store.event_name()
        stamp = store.event_stamp()  # a hall of several events: which one this log is
        if stamp is not None:
            event = f"{event} (event {stamp.event} of venue {stamp.venue})"
        records += pending_draws(store.unaudited_draws())
    except (TournamentError, sqlite3.Error) as exc:
        return _fail(f"audit: {exc}")
    tz: datetime.tzinfo = (
        datetime.UTC if args.utc else datetime.datetime.now().astimezone().tzinfo or datetime.UTC
    )
    fmt = format_html if args.format == "html" else format_text
    text = fmt(records, event=event, source=str(args.db), tz=tz)
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as exc:
            return _fail(f"audit: cannot write {args.output}: {exc.strerror or exc}")
    else:
        sys.stdout.write(text)
    return 0
