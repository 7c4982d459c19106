"""``wuzi sim board --script FILE [--noise BER] [--drop P]``: a virtual sensor board on a pty.

The first stdout line is the pty's path (open it with ``wuzi board watch PATH``); then the
script plays, its times counted from start. The board goes on serving after the script's last
step until it is stopped (or for ``--linger`` ms).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, TextIO

from wuzi.link.errors import LinkError, ScriptError
from wuzi.rules.board import point_name
from wuzi.sim.devices.runner import monotonic_ms, run_boards
from wuzi.sim.devices.script import parse_script
from wuzi.sim.devices.virtual_board import Faults, VirtualBoard


def _probability(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.0 <= value < 1.0:
        raise argparse.ArgumentTypeError(f"must be a probability in [0, 1), not {value}")
    return value


def _timing(revision: str) -> dict[str, Any]:
    """The scan timing of a board revision, from boards/<revision>/board.json.

    Without a boards/ folder (an installed wheel) the simulator keeps its built-in timing,
    which is sensor-rev-a's.
    """
    from wuzi.io.boards import load_board_spec
    from wuzi.link.errors import BoardSpecError

    try:
        spec = load_board_spec(revision)
    except BoardSpecError:
        if revision != "sensor-rev-a":
            raise
        return {}
    return {
        "revision": spec.revision,
        "scan_ms": max(1, spec.scan_period_us // 1000),
        "debounce_scans": spec.debounce_scans,
        "heartbeat_ms": spec.heartbeat_ms,
        "snapshot_ms": spec.snapshot_ms,
        "log_size": spec.log_size,
    }


def _board_command(args: argparse.Namespace) -> int:
    try:
        with open(args.script, encoding="utf-8") as f:
            steps = parse_script(f.read())
    except OSError as exc:
        print(f"wuzi sim board: cannot read the script: {exc}", file=sys.stderr)
        return 1
    except ScriptError as exc:
        print(f"wuzi sim board: {args.script}: {exc}", file=sys.stderr)
        return 1
    try:
        _timing(args.revision)
    except LinkError as exc:
        print(f"wuzi sim board: {exc}", file=sys.stderr)
        return 1
    trace: TextIO | None = open(args.trace, "w", encoding="utf-8") if args.trace else None  # noqa: SIM115

    def on_physical(point: int, code: int, now_ms: int) -> None:
        if trace is not None:
            record = {"point": point_name(point), "code": code, "t_ns": time.monotonic_ns()}
            trace.write(json.dumps(record) + "\n")
            trace.flush()

    def on_change_sent(evno: int, point: int, code: int) -> None:
        if trace is not None:
            record = {"sent": point_name(point), "code": code, "evno": evno}
            trace.write(json.dumps(record | {"t_ns": time.monotonic_ns()}) + "\n")
            trace.flush()

    board = VirtualBoard(
        serial=args.serial,
        faults=Faults(ber=args.noise, drop=args.drop, dup=args.dup, seed=args.seed),
        seed=args.seed,
        **_timing(args.revision),
        on_physical=on_physical,
        on_change_sent=on_change_sent if trace is not None else None,
    )
    path = board.open_pty()
    print(path, flush=True)
    start = monotonic_ms()
    board.boot(start)
    for step in steps:
        board.schedule(step, start)
    until = None if args.linger is None else board.script_end_ms() + args.linger
    try:
        run_boards([board], until_ms=until)
    except KeyboardInterrupt:
        pass
    finally:
        board.close()
        if trace is not None:
            trace.close()
    return 0


def _boards_command(args: argparse.Namespace) -> int:
    from wuzi.sim.devices.random_play import RandomPlayer

    boards = [
        VirtualBoard(serial=f"SIM-{i + 1:04d}", seed=None if args.seed is None else args.seed + i)
        for i in range(args.count)
    ]
    for b in boards:
        print(b.open_pty(), flush=True)
    start = monotonic_ms()
    players = [
        RandomPlayer(b, move_ms=args.move_ms, seed=(args.seed or 0) + i)
        for i, b in enumerate(boards)
    ]
    for b in boards:
        b.boot(start)

    until = None if args.duration is None else start + args.duration

    def play(now: int) -> None:
        for player in players:
            player.tick(now)

    try:
        run_boards(boards, until_ms=until, on_tick=play)
    except KeyboardInterrupt:
        pass
    finally:
        for b in boards:
            b.close()
    return 0


def register(subparsers: Any) -> None:
    sim = subparsers.add_parser("sim", help="simulated boards and clock units on ptys")
    sub = sim.add_subparsers(dest="sim_command", metavar="SIM_COMMAND")
    p = sub.add_parser(
        "board",
        help="a virtual sensor board on a pty, playing a script",
        description="Serve a virtual sensor board (running the firmware's logic) on a pty. "
        "The first stdout line is the pty path; then the script plays.",
    )
    p.add_argument("--script", required=True, metavar="FILE", help="the script to play")
    p.add_argument("--noise", type=_probability, default=0.0, metavar="BER", help="bit error rate")
    p.add_argument(
        "--drop", type=_probability, default=0.0, metavar="P", help="frame drop probability"
    )
    p.add_argument(
        "--dup", type=_probability, default=0.0, metavar="P", help="frame duplication probability"
    )
    p.add_argument("--seed", type=int, default=None, help="seed for faults and boot ids")
    p.add_argument("--serial", default="SIM-0001", help="the board serial it reports")
    p.add_argument(
        "--revision", default="sensor-rev-a", help="board revision whose timing to use (boards/)"
    )
    p.add_argument(
        "--linger",
        type=int,
        default=None,
        metavar="MS",
        help="exit this long after the script's last step (default: serve until stopped)",
    )
    p.add_argument("--trace", default=None, metavar="FILE", help=argparse.SUPPRESS)
    p.set_defaults(func=_board_command)

    q = sub.add_parser(
        "boards",
        help="several virtual boards with random play (one pty path per line)",
        description="Serve COUNT virtual sensor boards with random play; their pty paths "
        "are printed one per line first.",
    )
    q.add_argument("--count", type=int, default=1, help="how many boards")
    q.add_argument("--move-ms", type=int, default=2000, help="mean time between moves")
    q.add_argument("--seed", type=int, default=None)
    q.add_argument("--duration", type=int, default=None, metavar="MS", help="stop after MS")
    q.set_defaults(func=_boards_command)

    def _usage(args: argparse.Namespace) -> int:
        sim.print_help()
        return 2

    sim.set_defaults(func=_usage)
