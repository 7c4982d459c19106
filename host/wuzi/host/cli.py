"""``wuzi host --config venue.toml``: run this Pi's tables (the contract is in docs/cli.md).

The venue file is the same on every host; which tables this process serves follows from
its host id (``--host``, default the machine's short hostname). State lives in one
journal file (``--journal``, default ``STATE_DIR/HOST.journal``); the local control socket
(``--control-socket``) takes signed referee commands from ``wuzi referee send --socket``.
SIGTERM and SIGINT stop cleanly; SIGKILL and power cuts are what the journal is for.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import logging
import os
import signal
import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from wuzi.host.service import HostService

__all__ = ["MAX_COMMAND_AGE_S", "build_service", "register"]

MAX_COMMAND_AGE_S = 86400
"""The longest ``--command-max-age``: a referee's command a day old is no command to
replay; a larger value (or ``inf``) would only disable the check."""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "host",
        help="run the table host service for this Pi's tables",
        description=(
            "Serve the tables the venue file gives to this host: read boards and clocks, "
            "judge moves, journal everything, publish on MQTT."
        ),
    )
    parser.add_argument("--config", required=True, metavar="VENUE.TOML", help="the venue file")
    parser.add_argument(
        "--host", metavar="ID", help="this host's id in the venue file (default: hostname)"
    )
    parser.add_argument(
        "--state-dir",
        metavar="DIR",
        help="where the journal and the control socket live (default: $STATE_DIRECTORY or "
        "./wuzi-state)",
    )
    parser.add_argument(
        "--journal", metavar="PATH", help="the journal file (default: STATE_DIR/HOST.journal)"
    )
    parser.add_argument(
        "--control-socket",
        metavar="PATH",
        help="the local referee command socket (default: STATE_DIR/HOST.sock; 'none': no socket)",
    )
    parser.add_argument(
        "--broker",
        metavar="URL",
        help="the broker as this host reaches it, instead of the venue file's [broker] url",
    )
    parser.add_argument(
        "--records-dir",
        metavar="DIR",
        help="where each finished game's JSON record is written (default: STATE_DIR/records;"
        " 'none': not written)",
    )
    parser.add_argument(
        "--standalone",
        action="store_true",
        help="without a director: each table plays the venue file's [defaults]",
    )
    parser.add_argument(
        "--command-max-age",
        type=float,
        default=120.0,
        metavar="SECONDS",
        help="refuse referee commands issued longer ago than this (default 120)",
    )
    parser.add_argument(
        "--log-level", default="info", choices=("debug", "info", "warning", "error")
    )
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from wuzi.journal import JournalError

    logging.basicConfig(
        level=args.log_level.upper(), format="%(asctime)s %(name)s %(levelname)s %(message)s"
    )
    with _no_collection_while_starting():
        built = build_service(args)
        if isinstance(built, str):
            return _fail(built)
        service = built
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: service.request_stop())
        try:
            service.start()
        except (JournalError, OSError, ValueError) as exc:
            service.close()
            return _fail(str(exc))
    try:
        service.run()
    finally:
        service.close()
    return 0


def build_service(args: argparse.Namespace) -> HostService | str:
    """The service exactly as ``wuzi host`` runs it (not started), or why it cannot run.
    Apart from ``_run`` so a test can run the command's own service in its process —
    e.g. with no pin factory in code, gpiozero's default from the environment."""
    from wuzi.config import ConfigError, load_venue
    from wuzi.host.service import HostService, ServiceOptions
    from wuzi.host.systemd import Notifier

    # The venue file's relative paths (token files, the broker's password and CA files)
    # are relative to its own folder: load it by its resolved path, so they come out
    # absolute and nothing joins them to a base a second time.
    config = Path(args.config).resolve()
    try:
        venue = load_venue(config)
    except ConfigError as exc:
        return str(exc)
    if args.broker is not None:
        from wuzi.bus.url import BusConfigError, parse_broker_url

        try:
            parse_broker_url(args.broker)
        except BusConfigError as exc:
            return f"--broker: {exc}"
    host_id = args.host or socket.gethostname().split(".")[0].lower()
    known = [h.id for h in venue.hosts]
    if host_id not in known:
        return f"{args.config}: no host {host_id!r} (hosts: {', '.join(known)}); use --host"
    state = Path(args.state_dir or os.environ.get("STATE_DIRECTORY") or "wuzi-state")
    try:
        state.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"cannot create the state folder {state}: {exc.strerror or exc}"
    control: Path | None = Path(args.control_socket or state / f"{host_id}.sock")
    if args.control_socket == "none":
        control = None
    if not 0 < args.command_max_age <= MAX_COMMAND_AGE_S:  # also refuses nan
        return (
            f"--command-max-age must be more than 0 and at most {MAX_COMMAND_AGE_S} s (24 h), "
            f"not {args.command_max_age}"
        )
    options = ServiceOptions(
        host_id=host_id,
        journal_path=Path(args.journal) if args.journal else state / f"{host_id}.journal",
        control_path=control,
        standalone=args.standalone,
        command_max_age_ms=int(args.command_max_age * 1000),
        base_dir=config.parent,
        broker_url=args.broker,
        records_dir=(
            None
            if args.records_dir == "none"
            else Path(args.records_dir)
            if args.records_dir
            else state / "records"
        ),
    )
    return HostService(venue, options, notifier=Notifier.from_environment())


@contextlib.contextmanager
def _no_collection_while_starting() -> Iterator[None]:
    """No cyclic garbage collection while the host imports its modules and recovers its
    tables, then what the start built is frozen out of the collector's sight.

    What a start allocates lives on (modules, classes, every table's recovered game), yet
    the collector, seeing it new, walked it again and again: ~60 ms of a 24-table
    recovery went to it, two full collections among them (docs/performance.md).
    ``gc.freeze`` moves everything alive to the permanent generation, so the collections
    of the running host do not walk it either; the only cost is that garbage cycles made
    during the start are kept (33 objects in a 24-table recovery), once per process."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.freeze()
            gc.enable()


def _fail(message: str) -> int:
    print(f"wuzi host: {message}", file=sys.stderr)
    return 1
