"""``wuzi demo --hall open-2019 --headless``: the 2019 open's three groups at once, to
their end, as the command runs them — a real Mosquitto, three hosts and three directors
(``wuzi director --event``) as processes, nine tables of simulated boards and clock units
on real ptys, bots at every table.

At the end: exit 0; each group's standings printed and written, every place once; each
group's games judged by its own rules — the men's group has a game lost by a forbidden
move (Black slipped, White claimed), while in the open group Black's double-threes (and
other shapes renju forbids) are played on and no game is lost by one; the open group's
rounds are two games at one table; the scoreboard's frames of the hall and each event.
Seed 1 at time × 100: about two minutes on two cores."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from wuzi.sim.hall.setup import OPEN_2019
from wuzi.sim.hall.summary import (
    forbidden_losses,
    forbidden_shapes_played_on,
    load_records,
    two_game_rounds,
)

pytestmark = [pytest.mark.broker, pytest.mark.pty]


@pytest.mark.timeout(600)
def test_the_three_groups_play_to_their_end_each_by_its_own_rules(tmp_path: Path) -> None:
    out = tmp_path / "out"
    args = ["demo", "--hall", "open-2019", "--headless", "--speed", "100", "--seed", "1"]
    args += ["--screens-every", "0", "--timeout", "480", "--out", str(out)]
    done = subprocess.run(
        [sys.executable, "-m", "wuzi.cli", *args],
        capture_output=True,
        text=True,
        timeout=560,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    said = done.stdout
    for event in OPEN_2019.events:
        assert f"{event.id} ({event.name}) standings:" in said
        standings = json.loads((out / event.id / "standings.json").read_text("utf-8"))
        assert sorted(int(line["place"]) for line in standings) == list(range(1, event.players + 1))
        assert (out / "screens" / f"final-{event.id}-standings.png").stat().st_size > 10_000
    assert (out / "screens" / "final-hall.png").stat().st_size > 10_000

    men = load_records(out / "men" / "games")
    assert len(men) >= 12  # 3 rounds × 4 games, and any place playoffs
    lost = forbidden_losses(men)
    assert lost, "no game of the men's group was lost by a forbidden move"
    for game_id in lost:
        record = men[game_id]
        assert record["ruleset"] == "renju" and record["result"] == "white"
    assert forbidden_shapes_played_on(men) == []  # none stood: White claimed each
    assert "lost by a forbidden move" in said

    open_ = load_records(out / "open" / "games")
    assert all(r["ruleset"].startswith("no-forbidden") for r in open_.values())
    assert forbidden_losses(open_) == []
    played_on = forbidden_shapes_played_on(open_)
    assert any("double_three" in what for what in played_on), played_on
    rounds = two_game_rounds(open_)
    assert len(rounds) == 4  # 2 rounds of 2 matches
    assert all(numbers == [1, 2] for numbers in rounds.values()), rounds


@pytest.mark.timeout(120)
def test_a_hall_that_does_not_end_in_time_fails_with_where_each_event_stood(
    tmp_path: Path,
) -> None:
    """``--timeout``: exit 1, the first line saying the hall did not end, then each
    event's round as its director last published it."""
    out = tmp_path / "out"
    args = ["demo", "--hall", "open-2019", "--headless", "--speed", "100", "--timeout", "4"]
    args += ["--screens-every", "0", "--out", str(out)]
    done = subprocess.run(
        [sys.executable, "-m", "wuzi.cli", *args],
        capture_output=True,
        text=True,
        timeout=100,
        check=False,
    )
    assert done.returncode == 1, done.stdout[-2000:] + done.stderr[-2000:]
    lines = done.stderr.splitlines()
    assert lines[0] == "wuzi demo: the hall did not end in 4.0 s", done.stderr
    for event in OPEN_2019.events:
        assert any(line.startswith(f"{event.id}: ") for line in lines[1:4]), done.stderr
    assert "Traceback" not in done.stderr
