"""``wuzi bench host`` prints its figures in the one-line format (quick mode: a real
Mosquitto, 24 simulated tables and a ``wuzi host`` process; no timing thresholds)."""

from __future__ import annotations

import pytest

from wuzi.sim.bench.cli import run_area
from wuzi.sim.bench.host import game_moves, spread_points


@pytest.mark.bench
def test_host_bench_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_area("host", quick=True)
    lines = capsys.readouterr().out.splitlines()
    figures = {}
    for line in lines:
        bench, name, value, unit = line.split()
        assert bench == "BENCH"
        figures[name] = (float(value), unit)
    assert set(figures) == {
        "host.journal_us_per_event",
        "host.move_latency_p99_ms",
        "host.press_after_stone_ms_p99",
        "host.press_after_stone_infractions",
        "host.flag_to_paused_ms_max",
        "host.cold_start_s",
        "host.recovery_s_24_tables",
    }
    assert figures["host.journal_us_per_event"][1] == "us"
    assert figures["host.move_latency_p99_ms"][1] == "ms"
    assert figures["host.recovery_s_24_tables"][1] == "s"
    assert figures["host.press_after_stone_ms_p99"][1] == "ms"
    assert figures["host.flag_to_paused_ms_max"][1] == "ms"
    assert figures["host.press_after_stone_infractions"] == (0.0, "count")  # none may be
    timed = {name: value for name, (value, unit) in figures.items() if unit != "count"}
    assert all(value > 0 for value in timed.values())


def test_the_spread_game_has_no_three_in_a_row_of_one_colour() -> None:
    black, white = spread_points()
    assert len(black) + len(white) == 225 and not set(black) & set(white)
    for stones in (set(black), set(white)):
        for p in stones:
            r, c = divmod(p, 15)
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                line = [(r + k * dr, c + k * dc) for k in range(3)]
                inside = all(0 <= y < 15 and 0 <= x < 15 for y, x in line)
                assert not (inside and all(y * 15 + x in stones for y, x in line))
    assert len(set(game_moves(200))) == 200
    with pytest.raises(ValueError, match="at most"):
        game_moves(226)
