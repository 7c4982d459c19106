"""``wuzi board watch PORT``: one JSON object per line for every reconciled event.

``{"event": "stone", "point": "h8", "colour": "black", ...}`` for a stone, ``{"event":
"alert", "kind": ..., ...}`` for everything else, until stopped: SIGTERM or SIGINT (Ctrl-C)
end it within about 50 ms whatever the port does (writes never wait for the device), exit
status 0. A lost port is a line on stderr (and a ``link_down`` alert on stdout) while the
watch retries; a board speaking another protocol version, or the wrong board
(``--serial``), or another kind of device is one line on stderr naming the port, what
answered and what was expected, and exit status 1. Never a traceback.
"""

from __future__ import annotations

import argparse
import json
import logging
import signal
import sys
from typing import Any

from wuzi.link.board_link import BoardLink
from wuzi.link.reconciler import DEFAULT_SETTLE_MS, Alert, StoneEvent
from wuzi.rules.board import Colour

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


class _OneLine(logging.Formatter):
    """The driver's log records as single lines: a watch shows what happened to the
    port, not a traceback (the host's journal keeps those)."""

    def format(self, record: logging.LogRecord) -> str:
        text = f"wuzi board watch: {record.getMessage()}"
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            text += f" ({type(exc).__name__}: {exc})"
        return text.replace("\n", " ")


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

    previous = {signum: signal.signal(signum, stop) for signum in STOP_SIGNALS}
    io_log = logging.getLogger("wuzi.io")
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_OneLine())
    io_log.addHandler(handler)
    propagate, io_log.propagate = io_log.propagate, False

    def emit(drv: Driver, ev: object) -> None:
        if isinstance(ev, StoneEvent | Alert):
            record = ev.to_json()
            record["board"] = args.port
            print(json.dumps(record), flush=True)
            if args.alternate and isinstance(ev, StoneEvent):
                link.expect(ev.colour.other)

    status = 0
    try:
        loop.add(driver)
        if driver.port is None:
            print(f"wuzi board watch: {driver.health.last_error}; retrying", file=sys.stderr)
        while not stopping:
            loop.run_once(emit, max_wait_ms=50)
            if driver.refused is not None:
                status = 1  # said on stderr by the driver's log line
                break
    except KeyboardInterrupt:  # a SIGINT before the handler was installed
        pass
    finally:
        loop.close()
        io_log.removeHandler(handler)
        io_log.propagate = propagate
        for signum, old in previous.items():
            signal.signal(signum, old)
        if args.health:
            print(json.dumps({"health": link.health, "port": vars(driver.health)}), file=sys.stderr)
    return status


def _list(args: argparse.Namespace) -> int:
    """``wuzi board list [PORT…]``: one line per Wuzi device (docs/wire.md, "Finding the
    devices"); skipped ports on stderr, and a device of another protocol major (a host
    refuses it) named there too. Exit 1 when a PORT named on the command line gave no
    answer, or a device found would be refused."""
    from wuzi.io.discovery import ProbeError, candidates, probe, stable_path

    prog = "wuzi board list"
    ports = list(args.ports) if args.ports else candidates(every_port=args.all)
    failed = False
    found = 0
    for port in ports:
        try:
            info = probe(port, args.timeout)
        except ProbeError as exc:
            print(f"{prog}: {exc}; skipped", file=sys.stderr)
            failed = failed or bool(args.ports)
            continue
        found += 1
        path = stable_path(port, info.serial)
        print(
            f"{info.kind} {info.serial} firmware {info.firmware} protocol {info.protocol} {path}",
            flush=True,
        )
        if info.refused is not None:  # old firmware: listed, and said to be refused
            print(f"{prog}: {info.refused}", file=sys.stderr, flush=True)
            failed = True
    if not found:
        print(f"{prog}: no Wuzi board or clock unit found", file=sys.stderr)
    return 1 if failed else 0


def _flash(args: argparse.Namespace) -> int:
    import shlex
    import subprocess

    from wuzi.io.flash import FLASH_TIMEOUT_S, FlashError, flash_command, mpremote_reason

    try:
        command = flash_command(args.port, args.board)
    except FlashError as exc:
        print(f"wuzi board flash: {exc}", file=sys.stderr)
        return 1
    print(shlex.join(command), flush=True)
    if args.dry_run:
        return 0
    try:  # its progress shown as it goes; its errors kept, to be said in one line
        done = subprocess.run(
            command, check=False, stderr=subprocess.PIPE, text=True, timeout=FLASH_TIMEOUT_S
        )
    except subprocess.TimeoutExpired:
        print(
            f"wuzi board flash: no answer from {args.port} in {FLASH_TIMEOUT_S:g} s "
            "(is MicroPython on the board, and nothing else holding the port?)",
            file=sys.stderr,
        )
        return 1
    except OSError as exc:
        print(f"wuzi board flash: cannot run mpremote: {exc}", file=sys.stderr)
        return 1
    if done.returncode != 0:
        print(
            f"wuzi board flash: mpremote failed on {args.port} (exit {done.returncode})"
            + mpremote_reason(done.stderr),
            file=sys.stderr,
        )
        return 1
    print(f"wuzi board flash: {args.port} flashed with {args.board}")
    return 0


def _timeout(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 < value <= 60:
        raise argparse.ArgumentTypeError(f"must be more than 0 and at most 60 s, not {text}")
    return value


def register(subparsers: Any) -> None:
    board = subparsers.add_parser(
        "board", help="sensor boards: watch what a board reports, list the devices"
    )
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
    ls = sub.add_parser(
        "list",
        help="list the Wuzi boards and clock units on this machine's serial ports",
        description="Ask every RP2040 serial device (or the PORTs given) for its INFO and "
        "print one line per Wuzi device: KIND SERIAL firmware REVISION protocol M.N PATH, "
        "PATH being the stable name for the venue file. Busy and silent ports are skipped "
        "(said on stderr).",
    )
    ls.add_argument("ports", nargs="*", metavar="PORT", help="probe these ports only")
    ls.add_argument(
        "--all", action="store_true", help="probe every serial port, not only RP2040 devices"
    )
    ls.add_argument(
        "--timeout",
        type=_timeout,
        default=0.5,
        metavar="S",
        help="how long to wait for each device's answer (default 0.5)",
    )
    ls.set_defaults(func=_list)
    fl = sub.add_parser(
        "flash",
        help="copy the firmware and a board description to a board (mpremote)",
        description="Copy the firmware (firmware/, as this install carries it) and the board "
        "description of --board to the RP2040 on PORT with mpremote, then reset it. Works "
        "from a checkout and from the unpacked offline bundle alike.",
    )
    fl.add_argument("port", metavar="PORT", help="the board's serial device, e.g. /dev/ttyACM0")
    fl.add_argument(
        "--board",
        default="sensor-rev-a",
        metavar="REV",
        help="board revision: boards/<REV>/board.json (default sensor-rev-a; also sensor-rev-b,"
        " clock-rev-a)",
    )
    fl.add_argument(
        "--dry-run", action="store_true", help="print the mpremote command, do not run it"
    )
    fl.set_defaults(func=_flash)

    def _usage(args: argparse.Namespace) -> int:
        board.print_help()
        return 2

    board.set_defaults(func=_usage)
