"""``wuzi board watch PORT``: one JSON object per line for every reconciled event.

``{"event": "stone", "point": "h8", "colour": "black", ...}`` for a stone, ``{"event":
"alert", "kind": ..., ...}`` for everything else, until stopped (Ctrl-C or a signal). A
board speaking another protocol version, or the wrong board (``--serial``), is a clear error
on stderr and exit status 1.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
from typing import Any

from wuzi.link.board_link import BoardLink
from wuzi.link.errors import LinkError
from wuzi.link.reconciler import DEFAULT_SETTLE_MS, Alert, StoneEvent
from wuzi.rules.board import Colour


def _watch(args: argparse.Namespace) -> int:
    from wuzi.io.serial_link import BoardDriver, Driver, LinkLoop

    link = BoardLink(settle_ms=args.settle_ms, expected_serial=args.serial, port_name=args.port)
    if args.expect:
        link.expect(Colour.parse(args.expect))
    driver = BoardDriver(args.port, link)
    loop = LinkLoop()
    stopping = False

    def stop(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)

    def emit(drv: Driver, ev: object) -> None:
        if isinstance(ev, StoneEvent | Alert):
            record = ev.to_json()
            record["board"] = args.port
            print(json.dumps(record), flush=True)
            if args.alternate and isinstance(ev, StoneEvent):
                link.expect(ev.colour.other)

    try:
        loop.add(driver)
        if driver.port is None:
            print(f"wuzi board watch: {driver.health.last_error}; retrying", file=sys.stderr)
        loop.run(emit, stop=lambda: stopping)
    except LinkError as exc:
        print(f"wuzi board watch: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    finally:
        loop.close()
        if args.health:
            print(json.dumps({"health": link.health, "port": vars(driver.health)}), file=sys.stderr)
    return 0


def register(subparsers: Any) -> None:
    board = subparsers.add_parser("board", help="sensor boards: watch what a board reports")
    sub = board.add_subparsers(dest="board_command", metavar="BOARD_COMMAND")
    p = sub.add_parser(
        "watch",
        help="print reconciled stone events and alerts as JSON lines",
        description="Open a sensor board's port and print one JSON object per line for each "
        "reconciled event (stones and alerts), until stopped.",
    )
    p.add_argument("port", metavar="PORT", help="serial device, pty path or pyserial URL")
    p.add_argument("--serial", default=None, help="the board serial expected on this port")
    p.add_argument(
        "--settle-ms",
        type=int,
        default=DEFAULT_SETTLE_MS,
        help=f"quiet time before a change counts (default {DEFAULT_SETTLE_MS})",
    )
    p.add_argument("--expect", default=None, help="colour expected for the next stone")
    p.add_argument(
        "--alternate",
        action="store_true",
        help="after each stone expect the other colour (with --expect)",
    )
    p.add_argument("--health", action="store_true", help="print link health on exit (stderr)")
    p.set_defaults(func=_watch)

    def _usage(args: argparse.Namespace) -> int:
        board.print_help()
        return 2

    board.set_defaults(func=_usage)
