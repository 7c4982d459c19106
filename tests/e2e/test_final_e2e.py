"""The whole final, end to end, with faults: what ``wuzi demo --headless --faults`` runs.

A real Mosquitto, the director and four hosts as their own processes, 24 tables of
simulated boards and clock units on real ptys, bots at every table. During the final a
host and the director are killed with SIGKILL and started again, the broker restarts, a
host is cut off the network, a board's cable gets noisy, a board is unplugged and a
board's MCU resets. At the end (``wuzi.sim.final.check``): every record equals the bots'
moves, every result is in the director's database exactly once, no clock was charged for
an outage, all 16 places are given — and the standings are those of a clean run of the
same seed (``clean_standings_seed1.json``; ``test_a_clean_run_gives_the_same_final``,
marked slow, plays the clean run and must agree with it).

The clock is compressed (time × 10): a round takes a minute or two on two cores.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wuzi.sim.final.check import check_run
from wuzi.sim.final.faults import FAULT_KINDS
from wuzi.sim.final.run import RunOptions, VenueRun

SEED = 1
GOLDEN = Path(__file__).with_name(f"clean_standings_seed{SEED}.json")


def play(out: Path, *, faults: bool) -> list[dict[str, object]]:
    options = RunOptions(
        out=out, seed=SEED, speed=10, faults=faults, screens_every_s=0, timeout_s=900, think_ms=25
    )
    result = VenueRun(options).run()
    assert result.problems == []
    problems = check_run(out)
    assert problems == [], "\n".join(problems)
    if faults:
        hit = {line.split()[2] for line in result.faults}
        assert set(FAULT_KINDS) <= hit, result.faults
    games = sorted(p.stem for p in (out / "games").glob("*.json"))
    assert sum("-b" in g for g in games) == 96  # 4 rounds × 8 matches × 3 boards
    assert any("-p" in g for g in games), "no captains' playoff was played"
    assert (out / "screens" / "final-bracket.png").stat().st_size > 10_000
    standings: list[dict[str, object]] = json.loads((out / "standings.json").read_text())
    return standings


@pytest.mark.timeout(1200)
def test_a_final_with_faults_ends_as_the_clean_one_does(tmp_path: Path) -> None:
    standings = play(tmp_path, faults=True)
    assert standings == json.loads(GOLDEN.read_text(encoding="utf-8"))


@pytest.mark.slow
@pytest.mark.timeout(1200)
def test_a_clean_run_gives_the_same_final(tmp_path: Path) -> None:
    assert play(tmp_path, faults=False) == json.loads(GOLDEN.read_text(encoding="utf-8"))
