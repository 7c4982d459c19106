"""``wuzi demo --linked``: the 2021 final as a network event, as the command runs it —
sixteen halls on this machine, each its own real Mosquitto (bridged to a central one
through a delaying, cuttable hall line) and its own host process serving three simulated
tables on ptys, the director on the central broker, players mirroring each other's
stones at every table, one hall line cut during the run.

At the end: exit 0; the sixteen places; every game's record the same at its two halls
(the owner's and the away host's ``<game>.linked.json``), each game's moves those the
owner judged (its full record). About ten to fifteen minutes on two cores: marked slow
(``make test-slow``), not in ``make test-e2e``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.broker, pytest.mark.pty, pytest.mark.slow]


@pytest.mark.timeout(2000)
def test_the_network_final_ends_with_the_same_record_of_each_game_at_both_halls(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    args = ["demo", "--linked", "--seed", "1", "--timeout", "1700", "--out", str(out)]
    done = subprocess.run(
        [sys.executable, "-m", "wuzi.cli", *args],
        capture_output=True,
        text=True,
        timeout=1900,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    said = done.stdout
    assert "cut for" in said and "resumed by the chief referee" in said
    standings = json.loads((out / "standings.json").read_text("utf-8"))
    assert sorted(int(line["place"]) for line in standings) == list(range(1, 17))
    linked = sorted((out / "run" / "state").glob("*/records/*.linked.json"))
    games = {path.name for path in linked}
    assert len(games) >= 96  # 4 rounds × 8 matches × 3 boards, and any playoffs
    for name in games:
        copies = [json.loads(p.read_text("utf-8")) for p in linked if p.name == name]
        assert len(copies) == 2 and copies[0] == copies[1], name
        owner = next(p for p in linked if p.name == name).parent
        full = owner / name.replace(".linked", "")
        if full.exists():  # the owner's own rules record
            assert json.loads(full.read_text("utf-8"))["moves"] == copies[0]["moves"]
