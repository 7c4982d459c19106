"""The faults the demo final suffers with ``--faults``: a seeded plan, drawn before the run.

What goes wrong at a real venue, each kind at least once in a final: a host's Pi loses
power (SIGKILL) and is started again; so does the director's machine; the broker
restarts; a host's network cable is pulled for a while; a sensor board's cable picks up
noise, is unplugged, or its MCU resets. The plan is pure — a list of ``Fault``s with
their instants in seconds from the first round — so a test can read what will happen
and a run with the same seed suffers the same faults (the instants in the run's own
time, which a slow machine stretches: the plan is the same, the moves they hit differ).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["FAULT_KINDS", "Fault", "plan_faults"]

FAULT_KINDS = (
    "kill-host",  # SIGKILL a host, start it again after length_s
    "kill-director",  # SIGKILL the director, start it again after length_s
    "restart-broker",  # stop the broker, start it again after length_s
    "cut-host",  # drop a host's network connection for length_s
    "board-noise",  # bit errors on a sensor board's cable for length_s
    "unplug-board",  # a sensor board's cable out for length_s
    "reboot-board",  # a sensor board's MCU resets
)


@dataclass(frozen=True)
class Fault:
    at_s: float  # from the start of the first round
    kind: str  # one of FAULT_KINDS
    target: str  # a host id, "director", "broker", or a table number as text
    length_s: float = 0.0

    def __str__(self) -> str:
        length = f" for {self.length_s:.0f} s" if self.length_s else ""
        return f"{self.at_s:6.1f} s  {self.kind} {self.target}{length}"


def plan_faults(
    seed: int, *, span_s: float, hosts: Sequence[str], tables: int, per_kind: int = 1
) -> list[Fault]:
    """``per_kind`` faults of each kind, at instants drawn over ``span_s`` seconds (the
    first 5 % and the last 30 % left quiet, so a fault never lands after the final's
    last game), sorted by time. Faults of the processes never overlap one another: a
    host killed while the broker is down would test nothing more, and would make the
    plan's outcome depend on which of the two recovered first."""
    if span_s <= 0:
        raise ValueError(f"the fault span must be positive, not {span_s}")
    if not hosts or tables < 1:
        raise ValueError("faults need at least one host and one table")
    rng = random.Random(f"wuzi-faults-{seed}")
    start, end = span_s * 0.05, span_s * 0.70
    out: list[Fault] = []
    busy: list[tuple[float, float]] = []  # process faults' windows

    def free_instant(length_s: float) -> float:
        for _ in range(200):
            at = rng.uniform(start, end)
            window = (at - 3.0, at + length_s + 8.0)  # and time to recover
            if all(window[1] < a or window[0] > b for a, b in busy):
                busy.append(window)
                return at
        return rng.uniform(start, end)  # crowded: let it overlap

    for _ in range(per_kind):
        out.append(Fault(free_instant(2.0), "kill-host", rng.choice(list(hosts)), 2.0))
        out.append(Fault(free_instant(3.0), "kill-director", "director", 3.0))
        out.append(Fault(free_instant(2.0), "restart-broker", "broker", 2.0))
        cut = rng.uniform(10.0, 20.0)
        out.append(Fault(free_instant(cut), "cut-host", rng.choice(list(hosts)), cut))
        out.append(Fault(rng.uniform(start, end), "board-noise", str(rng.randint(1, tables)), 5.0))
        out.append(Fault(rng.uniform(start, end), "unplug-board", str(rng.randint(1, tables)), 3.0))
        out.append(Fault(rng.uniform(start, end), "reboot-board", str(rng.randint(1, tables))))
    return sorted(out, key=lambda f: f.at_s)
