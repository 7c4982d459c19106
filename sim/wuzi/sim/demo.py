"""``wuzi demo``: the simulated final of the national team championship, on one machine.

Contract (docs/cli.md "wuzi demo"):

* ``wuzi demo [--headless] [--speed X] [--seed S] [--faults] [--out DIR] [--broker URL]``
  plays the whole final — 16 teams, 4 rounds of the placement knockout, every match on
  three boards, the captains' playoffs, all 16 places — through a broker, the director,
  four hosts and 24 simulated tables played by bots (``wuzi.sim.final.run``). Without
  ``--headless`` and with a display it also opens the scoreboard window; without a
  display it renders scoreboard frames to PNG files instead. It prints the final
  standings and writes ``DIR/games/NAME.json`` (each game's record), ``DIR/truth/NAME.json``
  (the bots' own moves), ``DIR/standings.json`` (``[{"place": n, "team": …}]``) and
  ``DIR/screens/*.png``. The public feed runs beside it — ``wuzi broadcast`` (delay 0) and
  ``wuzi web``, whose address it prints (``http://127.0.0.1:8080/``, or a free port) — and
  the scoreboard reads that feed (``--public``), as a hall's public screen does.
  ``--faults`` kills and restarts hosts and the director, restarts
  the broker, cuts a host off the network and disturbs the boards during the run.
  Exit 0 when the final ended and its checks hold (``wuzi.sim.final.check``), 1 when the
  run or a check failed (the reason on stderr), 2 on a usage error. At the end it prints
  the agreed draws' share of the board games and the captains' playoffs played
  (``wuzi.sim.final.tally``). SIGINT (Ctrl-C), SIGTERM or SIGHUP stops everything it started and
  says so in one line on stderr — what it stopped, where the partial results are — exit
  128 + the signal's number (130 for SIGINT). Its processes run in process groups of
  their own, so a Ctrl-C at the terminal reaches the run alone, which stops them in order.
* ``wuzi demo --hall open-2019 [--headless] [--speed X] [--seed S] [--out DIR] [--broker URL]``
  plays a hall of several events at once instead (``wuzi.sim.hall``): the 2019 open's
  men's, women's and open groups, each with its own database, tables, rules and director
  (``wuzi director --event ID``), on one broker and one set of hosts, with the scoreboard
  showing all three. It prints each event's standings, its games and the games lost by a
  forbidden move, and writes ``DIR/<event>/games``, ``DIR/<event>/truth``,
  ``DIR/<event>/standings.json`` and ``DIR/screens/*.png``. Exit 0 when every event
  ended and its checks hold, 1 otherwise (the reason on stderr), 2 on a usage error
  (``--faults`` is the team final's); a signal stops it as it stops the final.
* ``wuzi demo --linked [--speed X] [--seed S] [--out DIR] [--timeout S]`` plays the 2021
  final as a network event instead (``wuzi.sim.network``): sixteen halls, one per team,
  each its own broker and host, bridged to a central broker; every game between two
  halls; one hall line cut during the run. Exit 0 when the final ended with its sixteen
  places and every game's two halls wrote the same record, 1 otherwise, 2 with
  ``--hall`` or ``--faults``.
* ``wuzi demo --showcase [--out DIR]``: the quick one — a scripted game judged by the
  rules engine and the clock core, instant (``wuzi.sim.showcase``).

The broker is the one named by ``--broker`` (or the ``BROKER`` environment variable, as
``make demo BROKER=mqtt://…`` passes it), else a private Mosquitto, else an embedded one.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from wuzi.sim.final.run import RunOptions

__all__ = ["register", "stopped_line"]


class _Stopped(BaseException):  # like KeyboardInterrupt: no ``except Exception`` eats it
    """SIGINT or SIGTERM arrived during the run."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def stopped_line(
    signum: int, stopped: list[str], out: Path, databases: str = "the database"
) -> str:
    """The one line an interrupted demo ends with: what it stopped, where the partial
    results are."""
    what = ", ".join(stopped) if stopped else "nothing was running yet"
    name = signal.Signals(signum).name
    return (
        f"wuzi demo: stopped by {name}: {what}; partial results in {out}/ "
        f"(in run/: {databases}, each host's game records and journal, every log)"
    )


def _speed(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"the speed must be a number, not {text!r}") from None
    if not 1.0 <= value <= 100.0:
        raise argparse.ArgumentTypeError(f"the speed must be from 1 to 100, not {text}")
    return value


def _command(args: argparse.Namespace) -> int:
    if args.showcase:
        from wuzi.sim.showcase import play

        return play(Path(args.out) if args.out else None, sys.stdout)
    from wuzi.sim.final.check import check_notes, check_run
    from wuzi.sim.final.run import RunError, RunOptions, VenueRun
    from wuzi.sim.final.tally import tally_records

    if args.linked:
        if args.hall or args.faults:
            print(
                "wuzi demo: --linked is a final of its own (no --hall, no --faults)",
                file=sys.stderr,
            )
            return 2
        from wuzi.sim.network.run import NetworkOptions, run_network

        return run_network(
            NetworkOptions(
                out=Path(args.out or "demo-out"),
                seed=args.seed,
                speed=args.speed,
                timeout_s=args.timeout,
            )
        )
    if args.hall and args.faults:
        print("wuzi demo: --faults is for the team final, not --hall", file=sys.stderr)
        return 2
    window = not args.headless and bool(
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    )
    if not args.headless and not window:
        print("no display: the scoreboard is rendered to PNG files instead", flush=True)
    out = Path(args.out or "demo-out")
    options = RunOptions(
        out=out,
        seed=args.seed,
        speed=args.speed,
        faults=args.faults,
        broker_url=args.broker or os.environ.get("BROKER") or None,
        window=window,
        screens_every_s=args.screens_every,
        timeout_s=args.timeout,
        log=sys.stdout,
        public_feed=True,
    )

    _catch_signals()
    if args.hall:
        return _hall(args.hall, options)
    run = VenueRun(options)
    try:
        result = run.run()
    except _Stopped as stopped:
        print(stopped_line(stopped.signum, run.stopped, out), file=sys.stderr, flush=True)
        return 128 + stopped.signum
    except (RunError, OSError, ValueError) as exc:
        print(f"wuzi demo: {exc}", file=sys.stderr)
        return 1
    print(
        f"\nthe final took {result.wall_s:.0f} s: {result.games} games, "
        f"{result.messages} bus messages seen"
    )
    if result.faults:
        print(f"faults injected and recovered from: {len(result.faults)}")
    print("\nfinal standings:")
    for line in result.standings:
        print(f"  {line['place']:>2}  {line['team']}")
    for note in check_notes(out):
        print(f"note: {note}")
    problems = check_run(out) + result.problems
    print(tally_records(out / "games").line())
    print(f"\nrecords, results and standings in {out}/ (screens in {out}/screens)")
    if problems:
        for problem in problems:
            print(f"wuzi demo: check failed: {problem}", file=sys.stderr)
        return 1
    print(
        "checks: every record equals the bots' moves, every result is in the director's "
        "database once, no clock was charged for an outage, all 16 places given"
    )
    return 0


def _catch_signals() -> None:
    """A signal unwinds the run (its processes are stopped on the way out, in order)."""
    stops = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)  # Ctrl-C, kill, a closed terminal

    def stop(signum: int, _frame: object) -> None:
        for each in stops:  # a second Ctrl-C cannot cut the cleanup short
            signal.signal(each, signal.SIG_IGN)
        raise _Stopped(signum)  # unwinds the run: its processes are stopped on the way out

    for each in stops:  # the run's processes have process groups of their own: only the
        signal.signal(each, stop)  # run hears a terminal's signal, and stops them in order


def _hall(name: str, options: RunOptions) -> int:
    """``--hall NAME``: the hall's events at once (``wuzi.sim.hall``), each to its end."""
    from wuzi.sim.final.run import RunError
    from wuzi.sim.hall.check import check_hall
    from wuzi.sim.hall.run import HallRun
    from wuzi.sim.hall.setup import HALLS
    from wuzi.sim.hall.summary import event_figures

    plan = HALLS[name]
    run = HallRun(options, plan)
    out = options.out
    try:
        result = run.run_hall()
    except _Stopped as stopped:
        line = stopped_line(stopped.signum, run.stopped, out, "the events' databases")
        print(line, file=sys.stderr, flush=True)
        return 128 + stopped.signum
    except (RunError, OSError, ValueError) as exc:
        print(f"wuzi demo: {exc}", file=sys.stderr)
        return 1
    games = ", ".join(f"{event} {count}" for event, count in result.games.items())
    print(
        f"\nthe hall took {result.wall_s:.0f} s: games by event {games}; "
        f"{result.messages} bus messages seen"
    )
    for event in plan.events:
        print(f"\n{event.id} ({event.name}) standings:")
        for place in result.standings[event.id]:
            print(f"  {place['place']:>2}  {place['player']}  {place['points']}")
    print()
    for event in plan.events:
        print(event_figures(event.id, out / event.id / "games").line())
    print(f"\nrecords, results and standings in {out}/<event>/ (screens in {out}/screens)")
    problems = check_hall(out, plan, run.databases) + result.problems
    if problems:
        for problem in problems:
            print(f"wuzi demo: check failed: {problem}", file=sys.stderr)
        return 1
    print(
        "checks: every record equals the bots' moves, every result is in its event's "
        "database once, every event's places given, each event's games by its own rules"
    )
    return 0


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "demo",
        help="the simulated final: director, hosts, 24 tables of bots, the scoreboard",
        description="Play the whole final of the team championship on this machine: a broker, "
        "the director, four hosts with 24 simulated sensor boards and clock units, bots at "
        "every table, the scoreboard. Prints the final standings.",
    )
    p.add_argument("--headless", action="store_true", help="no window: scoreboard PNGs only")
    p.add_argument(
        "--speed",
        type=_speed,
        default=10.0,
        metavar="X",
        help="every time control divided by X (1-100; default 10)",
    )
    p.add_argument("--seed", type=int, default=1, metavar="S", help="the final's seed (default 1)")
    p.add_argument("--faults", action="store_true", help="inject faults during the run")
    p.add_argument(
        "--out", metavar="DIR", help="where the records, standings and screens go (demo-out)"
    )
    p.add_argument(
        "--broker", metavar="URL", help="use this broker (default: $BROKER, else a private one)"
    )
    p.add_argument(
        "--screens-every",
        type=float,
        default=30.0,
        metavar="S",
        help="a scoreboard PNG every S seconds of the run (0: only at the end; default 30)",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=3600.0,
        metavar="S",
        help="give up if the final has not ended after S seconds (default 3600)",
    )
    p.add_argument(
        "--hall",
        choices=("open-2019",),
        help="instead: a hall of several events at once, each by its own rules (open-2019: "
        "the 2019 open's men's, women's and open groups)",
    )
    p.add_argument(
        "--linked",
        action="store_true",
        help="instead: the 2021 final as a network event, each team in its own hall (16 "
        "halls, each its broker and host, bridged to a central one), every game between "
        "two halls, one hall line cut during the run (headless)",
    )
    p.add_argument(
        "--showcase",
        action="store_true",
        help="instead: one scripted game through the rules engine and the clock, instant",
    )
    p.set_defaults(func=_command)
