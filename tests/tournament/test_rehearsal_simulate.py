"""``wuzi tournament simulate``: the exact JSON shapes, seeded, plausible."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest

from wuzi.cli import main
from wuzi.tournament.event import Format
from wuzi.tournament.simulate import _Simulation

POINTS = {"black": (2, 0), "white": (0, 2), "draw": (1, 1)}


def simulate(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[str, dict[str, Any]]:
    code = main(["tournament", "simulate", *args, "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out, json.loads(out)


def test_team_knockout_placement_shape(capsys: pytest.CaptureFixture[str]) -> None:
    _, data = simulate(
        capsys, "--format", "team-knockout-placement", "--entrants", "16", "--seed", "1"
    )
    assert set(data) == {"rounds", "standings"}
    assert len(data["rounds"]) == 4
    playoffs = 0
    for rnd in data["rounds"]:
        assert set(rnd) == {"matches"} and len(rnd["matches"]) == 8
        for m in rnd["matches"]:
            assert set(m) == {"first", "second", "games", "playoff", "winner"}
            first, second = m["first"], m["second"]
            assert [g["board"] for g in m["games"]] == [1, 2, 3]
            assert [g["black"] for g in m["games"]] == [first, second, first]
            score = {first: 0, second: 0}
            for g in m["games"]:
                assert set(g) == {"board", "black", "result"}
                white = second if g["black"] == first else first
                b, w = POINTS[g["result"]]
                score[g["black"]] += b
                score[white] += w
            assert m["winner"] in (first, second)
            if m["playoff"]:
                playoffs += 1
                assert score[first] == score[second]
                assert all(set(p) == {"black", "result"} for p in m["playoff"])
                assert [p["result"] for p in m["playoff"][:-1]] == ["draw"] * (
                    len(m["playoff"]) - 1
                )
                last = m["playoff"][-1]
                assert last["result"] in ("black", "white")
                blacks = [p["black"] for p in m["playoff"]]
                assert blacks[0] == second and all(a != b for a, b in itertools.pairwise(blacks))
                won_with_black = last["result"] == "black"
                assert (m["winner"] == last["black"]) == won_with_black
            else:
                assert score[m["winner"]] > min(score.values())
    assert playoffs >= 1
    assert [s["place"] for s in data["standings"]] == list(range(1, 17))
    assert all(set(s) == {"place", "team"} for s in data["standings"])
    assert len({s["team"] for s in data["standings"]}) == 16


@pytest.mark.parametrize(
    ("fmt", "entrants", "rounds"), [("swiss", 61, "9"), ("round-robin", 7, None)]
)
def test_swiss_and_round_robin_shape(
    capsys: pytest.CaptureFixture[str], fmt: str, entrants: int, rounds: str | None
) -> None:
    args = ["--format", fmt, "--entrants", str(entrants), "--seed", "5"]
    if rounds:
        args += ["--rounds", rounds]
    _, data = simulate(capsys, *args)
    assert set(data) == {"rounds", "standings"}
    assert len(data["rounds"]) == (9 if fmt == "swiss" else 7)
    met: set[frozenset[str]] = set()
    draws = games = 0
    for rnd in data["rounds"]:
        assert set(rnd) == {"games"}
        seen = []
        for g in rnd["games"]:
            assert set(g) == {"black", "white", "result"}
            seen.append(g["black"])
            if g["white"] is None:
                assert g["result"] == "bye"
                continue
            seen.append(g["white"])
            assert g["result"] in ("black", "white", "draw")
            games += 1
            draws += g["result"] == "draw"
            pair = frozenset((g["black"], g["white"]))
            assert pair not in met
            met.add(pair)
        assert sorted(seen) == sorted(set(seen)) and len(seen) == entrants
    assert draws >= 0.05 * games
    standings = data["standings"]
    assert len(standings) == entrants
    for row in standings:
        assert set(row) == {"place", "player", "points", "tiebreaks"}
        assert set(row["tiebreaks"]) == {"buchholz", "median_buchholz", "sonneborn_berger", "wins"}
        assert isinstance(row["tiebreaks"]["wins"], int)
    points = [row["points"] for row in standings]
    assert points == sorted(points, reverse=True)
    assert standings[0]["place"] == 1
    if fmt == "round-robin":
        assert len(met) == entrants * (entrants - 1) // 2


def test_same_seed_same_output_and_another_seed_another(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--format", "swiss", "--entrants", "20", "--rounds", "5"]
    one, _ = simulate(capsys, *args, "--seed", "42")
    two, _ = simulate(capsys, *args, "--seed", "42")
    three, _ = simulate(capsys, *args, "--seed", "43")
    assert one == two
    assert one != three
    ko1, _ = simulate(
        capsys, "--format", "team-knockout-placement", "--entrants", "12", "--seed", "3"
    )
    ko2, _ = simulate(
        capsys, "--format", "team-knockout-placement", "--entrants", "12", "--seed", "3"
    )
    assert ko1 == ko2


def test_stronger_entrants_win_more_often() -> None:
    sim = _Simulation(Format.SWISS, 60, 9, seed=11)
    sim.run()
    rows = sim.comp.standings().rows
    ratings = [sim.comp.entrant(r.entrant).rating for r in rows]
    assert sum(ratings[:15]) / 15 > sum(ratings[-15:]) / 15 + 100


def test_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    for args, message in [
        (["--format", "swiss", "--entrants", "1"], "--entrants must be 2"),
        (["--format", "swiss", "--entrants", "30", "--rounds", "12"], "1 to 9 rounds"),
        (["--format", "round-robin", "--entrants", "6", "--rounds", "4"], "has 5 rounds"),
        (["--format", "team-knockout-placement", "--entrants", "16", "--rounds", "3"], "has 4"),
    ]:
        assert main(["tournament", "simulate", *args, "--seed", "1", "--json"]) == 1
        assert message in capsys.readouterr().err
