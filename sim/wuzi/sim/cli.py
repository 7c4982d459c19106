"""``wuzi sim board|clock --script FILE``: a virtual sensor board or clock unit on a pty.

The first stdout line is the pty's path (open it with ``wuzi board watch PATH``, or give it
to a ``wuzi host``); then the script plays, its times counted from start. A ``replug``
step prints the new pty's path as a further line when the cable is back in; ``--link
PATH`` keeps a symlink at PATH pointing at the current pty, as udev's /dev/wuzi/ names
follow a device. The device goes on serving after the script's last step until it is
stopped (SIGTERM or SIGINT: exit 0), or for ``--linger`` ms. A script that does not parse
is named by line (``wuzi sim clock: FILE: line N: ...``) and nothing is served (exit 1).

The scripts' verbs are documented in ``wuzi.sim.devices.script`` (boards) and
``wuzi.sim.devices.clock_script`` (clock units).
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any, TextIO

from wuzi.base.files import SCRIPT_FILE, FileError, read_text
from wuzi.link.errors import LinkError, ScriptError
from wuzi.rules.board import point_name
from wuzi.sim.devices.clock_script import ClockStep, parse_clock_script
from wuzi.sim.devices.old_firmware import CURRENT, parse_protocol
from wuzi.sim.devices.runner import monotonic_ms, run_boards, run_devices
from wuzi.sim.devices.script import Step, parse_script
from wuzi.sim.devices.virtual_board import Faults, VirtualBoard
from wuzi.sim.devices.virtual_clock import VirtualClock


def _probability(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.0 <= value < 1.0:
        raise argparse.ArgumentTypeError(f"must be a probability in [0, 1), not {value}")
    return value


def _protocol(text: str) -> tuple[int, int]:
    try:
        return parse_protocol(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _noise_from(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of ms: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 ms or more, not {value}")
    return value


def _wire(device: VirtualBoard | VirtualClock, args: argparse.Namespace) -> Callable[[int], None]:
    """Set the device's wire as the options say: the protocol it plays, and its faults —
    from the start, or (``--noise-from``) a clean line that turns faulty that many ms
    after the start. Returns what to call with the start (it schedules the change)."""
    device.protocol = args.protocol
    faults = Faults(ber=args.noise, drop=args.drop, dup=args.dup, seed=args.seed)
    if not args.noise_from:
        device.faults = faults
        return lambda t0_ms: None

    def turn_faulty() -> None:
        device.faults = faults

    device.faults = Faults(seed=args.seed)
    return lambda t0_ms: device.at(t0_ms + args.noise_from, turn_faulty)


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
        "point_leds": spec.point_leds,  # sensor-rev-b: an LED under every point
    }


def _read_script(command: str, path: str, parse: Callable[[str], list[Any]]) -> list[Any] | None:
    """The script's steps, or None after saying on stderr what is wrong (naming the line)."""
    try:
        return parse(read_text(path, SCRIPT_FILE))
    except FileError as exc:
        print(f"wuzi sim {command}: the script {exc}", file=sys.stderr)
    except ScriptError as exc:
        print(f"wuzi sim {command}: {path}: {exc}", file=sys.stderr)
    return None


def _schedule(
    schedule: Callable[[Any, int], None],
    steps: list[Any],
    t0_ms: int,
    then: Callable[[int], None] = lambda t0_ms: None,
) -> None:
    """Queue the script's steps, counted from ``t0_ms``; then ``then(t0_ms)`` (the line's
    faults turned on later, ``--noise-from``)."""
    for step in steps:
        schedule(step, t0_ms)
    then(t0_ms)


@contextmanager
def _stop_on_signals() -> Iterator[Callable[[], bool]]:
    """A ``stop()`` that turns true on SIGTERM or SIGINT: the loop ends at its next turn
    (within 50 ms), the pty is closed and the command exits 0, as a service stops."""
    stopped: list[int] = []

    def handler(signum: int, _frame: object) -> None:
        stopped.append(signum)

    old = {sig: signal.signal(sig, handler) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield lambda: bool(stopped)
    finally:
        for sig, previous in old.items():
            signal.signal(sig, previous)


def _serve(
    device: VirtualBoard | VirtualClock,
    schedule: Callable[[int], object],
    linger: int | None,
    t0_ms: int | None = None,
) -> None:
    """Print the pty path, boot, ``schedule`` the script from its time 0 (the start, or
    ``t0_ms`` on CLOCK_MONOTONIC: ``--t0-ms``), serve until stopped or ``linger`` ms
    after the script's last step."""

    def announce(path: str) -> None:
        with suppress(BrokenPipeError):  # nobody reads our stdout any more: serve on
            print(path, flush=True)

    device.on_replug = announce
    with _stop_on_signals() as stop:
        try:
            announce(device.open_pty())
            start = monotonic_ms()
            device.boot(start)
            if t0_ms is not None and t0_ms < start:
                print(
                    f"wuzi sim: started {start - t0_ms} ms after --t0-ms: the script's steps"
                    " due meanwhile are played at once",
                    file=sys.stderr,
                    flush=True,
                )
            schedule(start if t0_ms is None else t0_ms)
            until = None if linger is None else device.script_end_ms() + linger
            run_devices([device], until_ms=until, stop=stop)
        finally:
            device.close()
            device.remove_link()


def _board_command(args: argparse.Namespace) -> int:
    steps: list[Step] | None = _read_script("board", args.script, parse_script)
    if steps is None:
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
        seed=args.seed,
        **_timing(args.revision),
        on_physical=on_physical,
        on_change_sent=on_change_sent if trace is not None else None,
    )
    board.link_path = args.link
    noise = _wire(board, args)
    try:
        _serve(
            board, lambda t0: _schedule(board.schedule, steps, t0, noise), args.linger, args.t0_ms
        )
    except OSError as exc:
        print(f"wuzi sim board: {exc}", file=sys.stderr)
        return 1
    finally:
        if trace is not None:
            trace.close()
    return 0


def _clock_command(args: argparse.Namespace) -> int:
    clock_steps: list[ClockStep] | None = _read_script("clock", args.script, parse_clock_script)
    if clock_steps is None:
        return 1
    clock = VirtualClock(serial=args.serial, seed=args.seed)
    clock.link_path = args.link
    noise = _wire(clock, args)
    try:
        _serve(
            clock,
            lambda t0: _schedule(clock.schedule, clock_steps, t0, noise),
            args.linger,
            args.t0_ms,
        )
    except OSError as exc:
        print(f"wuzi sim clock: {exc}", file=sys.stderr)
        return 1
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


def _device_options(p: argparse.ArgumentParser, serial: str) -> None:
    """The options ``wuzi sim board`` and ``wuzi sim clock`` share."""
    p.add_argument("--script", required=True, metavar="FILE", help="the script to play")
    p.add_argument("--noise", type=_probability, default=0.0, metavar="BER", help="bit error rate")
    p.add_argument(
        "--drop", type=_probability, default=0.0, metavar="P", help="frame drop probability"
    )
    p.add_argument(
        "--dup", type=_probability, default=0.0, metavar="P", help="frame duplication probability"
    )
    p.add_argument(
        "--noise-from",
        type=_noise_from,
        default=0,
        metavar="MS",
        help="the line is clean until MS after the start, then --noise/--drop/--dup apply "
        "(default: from the start)",
    )
    p.add_argument("--seed", type=int, default=None, help="seed for faults and boot ids")
    p.add_argument(
        "--t0-ms",
        type=int,
        default=None,
        metavar="MS",
        help="count the script's times from this CLOCK_MONOTONIC instant (ms; the clock "
        "every process of the machine shares) instead of the device's own start: devices "
        "started together share their time 0 (default: the start)",
    )
    p.add_argument(
        "--protocol",
        type=_protocol,
        default=CURRENT,
        metavar="M.N",
        help="play a firmware of this wire protocol: its INFO in that version's layout "
        f"(1.0: 42 bytes, the serial's last 12 digits); default "
        f"{CURRENT[0]}.{CURRENT[1]}. A host refuses another major",
    )
    p.add_argument("--serial", default=serial, help=f"the serial it reports (default {serial})")
    p.add_argument(
        "--linger",
        type=int,
        default=None,
        metavar="MS",
        help="exit this long after the script's last step (default: serve until stopped)",
    )
    p.add_argument(
        "--link",
        default=None,
        metavar="PATH",
        help="keep a symlink at PATH pointing at the current pty (re-pointed on a replug, "
        "as udev's /dev/wuzi/ names follow a device)",
    )


_REPLUG_HELP = (
    "A 'replug <ms>' step closes the pty (the port vanishes) and prints the new pty's path "
    "as a further stdout line when the cable is back. SIGTERM or SIGINT stops it (exit 0)."
)


def register(subparsers: Any) -> None:
    sim = subparsers.add_parser("sim", help="simulated boards and clock units on ptys")
    sub = sim.add_subparsers(dest="sim_command", metavar="SIM_COMMAND")
    p = sub.add_parser(
        "board",
        help="a virtual sensor board on a pty, playing a script",
        description="Serve a virtual sensor board (running the firmware's logic) on a pty. "
        "The first stdout line is the pty path; then the script plays. Script steps, one a "
        "line, times in ms from start: '<t> place <point> black|white', '<t> remove <point>', "
        "'<t> slide <from> <to> black|white', '<t> knock <from> <to>', "
        "'<t> stuck <point> black|white|both|clear', '<t> slow <ms> <scan_ms>', "
        "'<t> unplug <ms>' (silent both ways), '<t> reboot' (the MCU resets), "
        "'<t> stall <ms>' (stops reading its input), '<t> replug <ms>' (the USB cable "
        "pulled: a power loss; a new pty after ms). " + _REPLUG_HELP,
    )
    _device_options(p, "SIM-0001")
    p.add_argument(
        "--revision",
        default="sensor-rev-a",
        help="board revision whose timing (and point LEDs: sensor-rev-b) to play (boards/)",
    )
    p.add_argument("--trace", default=None, metavar="FILE", help=argparse.SUPPRESS)
    p.set_defaults(func=_board_command)

    c = sub.add_parser(
        "clock",
        help="a virtual clock unit on a pty, playing a script",
        description="Serve a virtual clock unit (running the firmware's ClockUnit) on a pty. "
        "The first stdout line is the pty path; then the script plays. Script steps, one a "
        "line, times in ms from start: '<t> press black|white|0|1 [bounce <n>]' (a player's "
        "button: black = 0, white = 1, the seats of a match's game 1; held 80 ms), "
        "'<t> claim [bounce <n>]' (the claim/referee button 2), '<t> unplug <ms>' (silent "
        "both ways; the unit runs on), '<t> reboot' (a new boot id, its press log lost), "
        "'<t> stall <ms>' (stops reading its input), '<t> replug <ms>' (the USB cable "
        "pulled: a power loss; a new pty after ms). " + _REPLUG_HELP,
    )
    _device_options(c, "SIMCLK-0001")
    c.set_defaults(func=_clock_command)

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
