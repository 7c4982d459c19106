"""``wuzi bench --pi``: the benchmarks under a Raspberry Pi's budget, without a Pi.

A venue's Pi 4 is about four times slower per core than the development machines the
figures are taken on, and a Pi 5 about twice (docs/performance.md). What can be imitated
here is done: the bench and every process it starts (broker, host, simulators) run on
one core, so nothing gains from a second one. What cannot is said: a container seldom
lets a process slow its CPU (no ``cpufreq`` in ``/sys``, and changing it would slow the
other users of the machine too), so the figures stay at full speed and are scaled by the
factors below to read them as a Pi's.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["PI4_SCALE", "PI5_SCALE", "pin_like_a_pi"]

PI4_SCALE = 4.0
"""CPU-bound seconds here times this: a Pi 4 (Cortex-A72, 1.8 GHz)."""
PI5_SCALE = 2.0
"""CPU-bound seconds here times this: a Pi 5 (Cortex-A76, 2.4 GHz; ~2-2.5x a Pi 4)."""

CPUFREQ = Path("/sys/devices/system/cpu/cpu0/cpufreq")


def pin_like_a_pi(core: int | None = None) -> list[str]:
    """Pin this process (and so every process it starts) to one core; the lines that say
    what was done and how to read the figures."""
    allowed = sorted(os.sched_getaffinity(0))
    chosen = allowed[0] if core is None else core
    os.sched_setaffinity(0, {chosen})
    lines = [f"pinned to CPU {chosen} (of {len(allowed)} allowed): one core, as `taskset -c`"]
    if (CPUFREQ / "scaling_max_freq").exists():
        top = (CPUFREQ / "scaling_max_freq").read_text().strip()
        lines.append(
            f"cpufreq present (max {top} kHz): left as it is; lower it by hand "
            "(cpupower frequency-set -u …) for a slower core, then read the figures as they are"
        )
    else:
        lines.append("no cpufreq here (a container): the core runs at full speed")
    lines.append(
        f"read CPU-bound times x{PI4_SCALE:g} for a Pi 4, x{PI5_SCALE:g} for a Pi 5 "
        "(waits such as a board's settle window do not scale): docs/performance.md"
    )
    return lines
