"""``wuzi bench linked``: two halls on this machine, their Mosquittos bridged to a central
one through delaying proxies (``wuzi.sim.net.halls``), each hall line 37.5 ms ± 7.5 ms each
way: a 150 ms round trip from hall to hall.

* ``linked.bridge_transit_p50_ms`` / ``_p99_ms`` — a QoS 1 message published at hall A's
  broker to its receipt by a client of hall B's broker, through both bridges and the
  central broker (the two lines' one-way delays, about 75 ms, plus three brokers' time);
* ``linked.hall_rtt_ms`` — the round trip the run actually had: the medians of the delays
  the four proxy directions measured (A up, B down, B up, A down), added.

The figures of two real hosts playing a linked game (``linked.opponent_move_to_display_
p99_ms``, ``linked.cut_to_both_held_ms``, ``linked.charged_for_mirroring_ms``) are
``wuzi.sim.bench.linked_game``'s.
Messages go one at a time (the next once the last arrived): the figure is a line's
transit, not a queue's.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from wuzi.sim.net.halls import BridgedHalls, Tap

__all__ = ["run"]

TOPIC = "link/bench/transit"
_ARRIVAL_TIMEOUT_S = 5.0


def _percentile(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def run(emit: Callable[[str, float, str], None], quick: bool) -> None:
    count = 30 if quick else 300
    with (
        tempfile.TemporaryDirectory(prefix="wuzi-bench-linked-") as folder,
        BridgedHalls(Path(folder)) as halls,
    ):
        sender = Tap(halls.hall("a").url)
        receiver = Tap(halls.hall("b").url, [TOPIC])
        try:
            transits_ms = [_transit_ms(sender, receiver, i) for i in range(count)]
        finally:
            sender.close()
            receiver.close()
        medians = []
        for name in ("a", "b"):
            for direction, stats in halls.hall(name).proxy.stats().items():
                if stats is None:
                    raise RuntimeError(f"hall {name}'s proxy measured nothing {direction}")
                medians.append(stats.median_ms)
    transits_ms.sort()
    emit("linked.bridge_transit_p50_ms", _percentile(transits_ms, 0.5), "ms")
    emit("linked.bridge_transit_p99_ms", _percentile(transits_ms, 0.99), "ms")
    emit("linked.hall_rtt_ms", sum(medians), "ms")
    # the figures of two real hosts playing a linked game (wuzi.sim.bench.linked_game)
    from wuzi.sim.bench.linked_game import run_game

    run_game(emit, quick)


def _transit_ms(sender: Tap, receiver: Tap, index: int) -> float:
    payload = f"transit-{index}".encode()
    sent_ns = sender.publish(TOPIC, payload)
    deadline = time.monotonic() + _ARRIVAL_TIMEOUT_S
    while (arrived_ns := receiver.arrival_ns(TOPIC, payload)) is None:
        if time.monotonic() > deadline:
            raise RuntimeError(f"message {index} did not reach hall B in {_ARRIVAL_TIMEOUT_S} s")
        time.sleep(0.0005)
    return (arrived_ns - sent_ns) / 1e6
