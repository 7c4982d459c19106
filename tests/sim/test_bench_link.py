"""``wuzi bench link`` prints its figures in the one-line format (quick mode: real ptys, the
simulator's boards in their own processes and, for the fault figures, in a thread; no
timing thresholds)."""

from __future__ import annotations

import pytest

from wuzi.sim.bench.cli import run_area


@pytest.mark.bench
def test_link_bench_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_area("link", quick=True)
    figures = {}
    for line in capsys.readouterr().out.splitlines():
        bench, name, value, unit = line.split()
        assert bench == "BENCH"
        figures[name] = (float(value), unit)
    assert set(figures) == {
        "link.event_latency_p50_ms",
        "link.event_latency_p99_ms",
        "link.change_to_event_minus_window_p99_ms",
        "link.down_detect_pulled_ms",
        "link.down_detect_silent_ms",
        "link.down_detect_stalled_ms",
        "link.cpu_pct_32_boards",
        "link.stones_per_s_32_boards",
        "link.noise_1e-3_false_link_downs_per_h",
        "link.noise_1e-3_stones_recorded_pct",
    }
    for fault in ("pulled", "silent", "stalled"):
        value, unit = figures[f"link.down_detect_{fault}_ms"]
        assert unit == "ms" and value >= 0
    assert figures["link.noise_1e-3_false_link_downs_per_h"][1] == "count/h"
    value, unit = figures["link.noise_1e-3_stones_recorded_pct"]
    assert unit == "%" and 0 <= value <= 100
