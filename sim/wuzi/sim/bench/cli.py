"""``wuzi bench [AREA ...]``: performance figures, one ``BENCH <name> <value> <unit>`` line each.

Each area keeps its benchmarks in ``wuzi.sim.bench.<area>`` with a function
``run(emit, quick)``; ``emit(name, value, unit)`` prints one figure at once (so a long run
shows progress). Targets live here, never in pass/fail tests.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from collections.abc import Callable
from typing import Any

AREAS = ("rules", "clock", "link", "host", "tournament", "display", "venue", "linked", "web")

Emit = Callable[[str, float, str], None]


def emit(name: str, value: float, unit: str) -> None:
    """Print one figure as ``BENCH <name> <value> <unit>``."""
    if isinstance(value, float):
        text = f"{value:.0f}" if abs(value) >= 1000 else f"{value:.4g}"
    else:
        text = str(value)
    print(f"BENCH {name} {text} {unit}", flush=True)


def run_area(area: str, quick: bool = False) -> bool:
    """Run one area's benchmarks; False if the area has none yet."""
    module = importlib.import_module(f"wuzi.sim.bench.{area}")
    started = time.perf_counter()
    module.run(emit, quick)
    print(f"# bench {area}: {time.perf_counter() - started:.1f} s", file=sys.stderr, flush=True)
    return True


def _command(args: argparse.Namespace) -> int:
    unknown = [a for a in args.areas if a not in AREAS]
    if unknown:
        print(
            f"wuzi bench: unknown area {unknown[0]!r}; choose from {', '.join(AREAS)}",
            file=sys.stderr,
        )
        return 2
    if args.pi:
        from wuzi.sim.bench.pi import pin_like_a_pi

        for line in pin_like_a_pi():
            print(f"# {line}", file=sys.stderr, flush=True)
    for area in args.areas or AREAS:
        run_area(area, quick=args.quick)
    return 0


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "bench",
        help="performance figures (BENCH <name> <value> <unit>)",
        description="Run the benchmarks of every area, or of the areas named.",
    )
    p.add_argument(
        "areas", nargs="*", metavar="AREA", help=f"one of: {', '.join(AREAS)} (default: all)"
    )
    p.add_argument(
        "--quick",
        action="store_true",
        help="shorter runs (smoke test of the benchmarks themselves)",
    )
    p.add_argument(
        "--pi",
        action="store_true",
        help="a Raspberry Pi's budget: run on one core (this process and every process it "
        "starts), and say how the figures map to a Pi 4 and a Pi 5 (docs/performance.md)",
    )
    p.set_defaults(func=_command)
