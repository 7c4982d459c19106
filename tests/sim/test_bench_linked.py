"""``wuzi bench linked`` prints its figures in the one-line format (quick mode: three real
Mosquittos bridged through the delaying proxies; no timing thresholds)."""

from __future__ import annotations

import pytest

from wuzi.sim.bench.cli import run_area


@pytest.mark.bench
@pytest.mark.broker
def test_linked_bench_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_area("linked", quick=True)
    figures = {}
    for line in capsys.readouterr().out.splitlines():
        bench, name, value, unit = line.split()
        assert bench == "BENCH"
        figures[name] = (float(value), unit)
    assert set(figures) == {
        "linked.bridge_transit_p50_ms",
        "linked.bridge_transit_p99_ms",
        "linked.hall_rtt_ms",
        "linked.opponent_move_to_display_p99_ms",
        "linked.cut_to_both_held_ms",
        "linked.charged_for_mirroring_ms",
    }
    assert all(unit == "ms" for _, unit in figures.values())
    # the lines' delays were applied: a transit crosses two lines one way (2 x 30 ms at
    # least), the round trip four (4 x 30 ms)
    assert figures["linked.bridge_transit_p50_ms"][0] >= 60
    assert figures["linked.hall_rtt_ms"][0] >= 120
