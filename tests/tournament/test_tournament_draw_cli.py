"""``wuzi tournament --db FILE draw …`` through the real command: the seed printed and
stored, the same seed giving the same draw on another copy of the event, the log, the
checks (``--by`` like a name, a free-opening event, a played round) and a refused draw
leaving the file byte for byte as it was."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from support.tournament_cli import Wuzi
from wuzi.tournament.draw_store import DrawStore


@pytest.fixture
def final(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Wuzi:
    """An 8-team placement knockout (designated openings, the 2021 final's rules)."""
    wuzi = Wuzi(tmp_path / "final.db", capsys)
    wuzi("new", "--format", "team-knockout-placement", "--name", "决赛")
    for i in range(1, 9):
        wuzi(
            "add-team",
            f"队{i}",
            *(f"--player=T{i}-{b},{s},2000" for b, s in ((1, "m"), (2, "m"), (3, "f"))),
        )
    return wuzi


def test_a_bracket_is_drawn_from_the_printed_seed_and_the_same_seed_draws_it_again(
    final: Wuzi, tmp_path: Path
) -> None:
    copy = tmp_path / "copy.db"
    shutil.copy(final.db, copy)
    out = final("draw", "bracket", "--by", "竞赛组 王", "--seed", "20210718")
    lines = out.splitlines()
    assert lines[0] == "seed 20210718"
    assert lines[1] == "draw 1: bracket by 竞赛组 王 (lot, seed 20210718)"
    assert sorted(line.split(". ")[1] for line in lines[2:]) == [f"队{i}" for i in range(1, 9)]
    again = final("draw", "bracket", "--by", "another", "--seed", "20210718", db=copy)
    assert again.splitlines()[2:] == lines[2:]
    seeds = {e.name: e.seed for e in DrawStore(final.db).load().entrants}
    assert [name for name, _ in sorted(seeds.items(), key=lambda kv: kv[1] or 0)] == [
        line.split(". ")[1] for line in lines[2:]
    ]
    assert "draw 1: bracket by 竞赛组 王 (lot, seed 20210718): 1. " in final("log")


def test_without_a_seed_one_is_drawn_printed_and_stored(final: Wuzi) -> None:
    out = final("draw", "opening", "--round", "1", "--by", "裁判长")
    seed = int(out.splitlines()[0].removeprefix("seed "))
    assert 0 <= seed < 10**9
    (record,) = json.loads(final("draw", "list", "--json"))
    assert record["seed"] == seed and record["by"] == "裁判长" and record["method"] == "lot"
    assert record["result"]["opening_id"] in record["options"]["pool"]


def test_the_chief_referee_sets_an_opening_and_the_latest_record_stands(final: Wuzi) -> None:
    final("draw", "opening", "--round", "2", "--by", "裁判长", "--seed", "5")
    out = final("draw", "opening", "--round", "2", "--set", "花月", "--by", "裁判长")
    assert out.splitlines() == [
        "draw 2: opening round 2 by 裁判长 (set)",
        "  opening 4D 花月 Kagetsu",
    ]
    store = DrawStore(final.db)
    assert [d.opening_id for d in store.draws()][-1] == "4D"
    err = final(
        "draw", "opening", "--round", "2", "--set", "4D", "--seed", "1", "--by", "x", code=1
    )
    assert "--set names the opening" in err


def test_no_repeat_draws_an_opening_no_other_round_has(final: Wuzi) -> None:
    for rnd in (1, 2):
        final(
            "draw", "opening", "--round", str(rnd), "--set", "4D" if rnd == 1 else "5D", "--by", "x"
        )
    final(
        "draw",
        "opening",
        "--round",
        "3",
        "--by",
        "x",
        "--seed",
        "1",
        "--no-repeat",
        "--pool",
        "4D,5D,6D",
    )
    assert DrawStore(final.db).draws()[-1].opening_id == "6D"


def test_first_movers_are_drawn_for_a_paired_round_and_swap_its_pairings(final: Wuzi) -> None:
    final("draw", "first-mover", "--round", "1", "--by", "x", code=1)
    final("pair")
    out = final("draw", "first-mover", "--round", "1", "--by", "裁判长", "--seed", "3")
    firsts = [line.split(": ")[1].split(" moves first")[0] for line in out.splitlines()[2:]]
    comp = DrawStore(final.db).load()
    assert [comp.entrant(p.first).name for p in comp.rounds[0].pairings] == firsts


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["draw", "opening", "--round", "1", "--by", "a\x1b[2Jb"], "U+001B"),
        (["draw", "opening", "--round", "1", "--by", ""], "--by"),
        (["draw", "opening", "--round", "9", "--by", "x"], "rounds 1–3, not 9"),
        (["draw", "opening", "--round", "1", "--by", "x", "--set", "14D"], "not one of the 26"),
        (["draw", "opening", "--round", "1", "--by", "x", "--seed", "-4"], "whole number"),
        (["draw", "bracket", "--by", "x", "--keep-seeds", "--seed", "1"], None),
    ],
)
def test_a_refused_draw_names_the_problem_and_changes_nothing(
    final: Wuzi, argv: list[str], message: str | None
) -> None:
    if message is None:  # a bracket after round 1 is paired
        final("pair")
        message = "already paired"
    before = final.db.read_bytes()
    assert message in final(*argv, code=1)
    assert final.db.read_bytes() == before


def test_a_free_opening_event_has_no_opening_to_draw(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wuzi = Wuzi(tmp_path / "open.db", capsys)
    wuzi(
        "new",
        "--format",
        "swiss",
        "--rounds",
        "5",
        "--match",
        "two-game",
        "--rules",
        "no-forbidden",
    )
    err = wuzi("draw", "opening", "--round", "1", "--by", "x", code=1)
    assert "free opening" in err and "002 六(一)2" in err
