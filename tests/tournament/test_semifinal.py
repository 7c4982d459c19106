"""The 2021 semifinal (000 五(二), 六(二)): public #k v pro #(9−k), one round, three boards,
a tie to the captains' playoff; its winners qualify. Through the functions and through
``wuzi tournament`` as an organiser runs it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from support.championship import semifinal_csv, semifinal_team
from support.tournament_cli import Wuzi
from wuzi.tournament import semifinal
from wuzi.tournament.csvfile import csv_lines
from wuzi.tournament.errors import CsvError, EntryError, PairingError
from wuzi.tournament.event import Competition, EventSettings, Format
from wuzi.tournament.importer import import_entrants
from wuzi.tournament.semifinal import PreliminaryGroup, group_place, semifinal_slots, sheet_seed


@pytest.fixture
def wuzi(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Wuzi:
    return Wuzi(tmp_path / "semi.sqlite", capsys)


# -- the functions ----------------------------------------------------------------------


def test_the_sheet_puts_public_first_and_pro_after() -> None:
    assert [sheet_seed(PreliminaryGroup.PUBLIC, k) for k in (1, 8)] == [1, 8]
    assert [sheet_seed(PreliminaryGroup.PRO, k) for k in (1, 8)] == [9, 16]
    assert group_place(12) == (PreliminaryGroup.PRO, 4)
    assert semifinal.label(3) == "public #3"
    assert PreliminaryGroup.parse(" 专业场 ") is PreliminaryGroup.PRO
    with pytest.raises(EntryError, match="not 9"):
        sheet_seed(PreliminaryGroup.PUBLIC, 9)
    with pytest.raises(EntryError, match=r"public .*pro.*not 'open'"):
        PreliminaryGroup.parse("open")


def test_the_pool_is_public_k_against_pro_nine_minus_k() -> None:
    seeds = {f"A{k}": k for k in range(1, 9)} | {f"B{k}": 8 + k for k in range(1, 9)}
    slots = semifinal_slots(seeds)
    pairs = list(zip(slots[::2], slots[1::2], strict=True))
    assert pairs == [(f"A{k}", f"B{9 - k}") for k in range(1, 9)]


def test_an_empty_place_on_the_sheet_is_named() -> None:
    seeds = {f"A{k}": k for k in range(1, 9)} | {f"B{k}": 8 + k for k in (1, 2, 4, 5, 6, 7)}
    with pytest.raises(PairingError, match=r"000 五\(二\)\); no team is entered as pro #3, pro #8"):
        semifinal_slots(seeds)


# -- the command ------------------------------------------------------------------------


def boards(match: dict[str, Any]) -> list[tuple[int, str, str]]:
    return [(b["board"], b["black"], b["white"]) for b in match["boards"]]


def test_the_semifinal_from_import_to_its_qualifiers(wuzi: Wuzi, tmp_path: Path) -> None:
    out = wuzi("new", "--format", "team-semifinal", "--name", "2021 复赛")
    assert "team-semifinal" in out and "tie-breaks none" in out
    assert "imported 16 entrants" in wuzi("import", str(semifinal_csv(tmp_path)))
    data = wuzi.json("pair")
    assert data["round"] == 1 and len(data["matches"]) == 8
    for k, m in enumerate(data["matches"], start=1):
        first, second = semifinal_team("public", k), semifinal_team("pro", 9 - k)
        assert (m["match"], m["first"], m["second"], m["places"]) == (k, first, second, None)
        assert (m["first_group"], m["first_seed"]) == ("public", k)
        assert (m["second_group"], m["second_seed"]) == ("pro", 9 - k)
        # 000 六(三)3: the first mover Black on boards 1 and 3
        assert boards(m) == [
            (1, f"{first}-1", f"{second}-1"),
            (2, f"{second}-2", f"{first}-2"),
            (3, f"{first}-3", f"{second}-3"),
        ]
    standings = wuzi.json("standings")
    assert standings["qualified"] == [] and standings["finished"] is False
    for k in range(1, 8):  # the public team wins matches 1-6, the pro team match 7
        out = wuzi("result", "1", str(k), "black,white,draw" if k < 7 else "white,black,draw")
        winner = semifinal_team("public", k) if k < 7 else semifinal_team("pro", 2)
        assert out.rstrip().endswith(f"winner {winner}")
    out = wuzi("result", "1", "8", "black,black,draw")  # 3-3: the captains decide
    assert "3 – 3" in out and "playoff needed" in out
    text = wuzi("standings")
    assert "the captains' playoff is needed (board 1)" in text
    assert "wuzi tournament pair" not in text
    # game 1 of the playoff: the second team's captain (pro #1) has Black and wins
    out = wuzi("result", "1", "8", "black,black,draw", "--playoff", "black", "--correct")
    assert out.rstrip().endswith("winner 专1")
    standings = wuzi.json("standings")
    assert standings["finished"] is True and standings["qualify"] == 8
    winners = [q["id"] for q in standings["qualified"]]
    assert winners == ["众1", "众2", "众3", "众4", "众5", "众6", "专2", "专1"]
    assert standings["qualified"][7] == {
        "match": 8,
        "id": "专1",
        "name": "专1",
        "group": "pro",
        "seed": 1,
    }
    rows = {r["id"]: r for r in standings["standings"]}
    assert (rows["专1"]["qualified"], rows["专1"]["places"]) == (True, [1, 8])
    assert (rows["众8"]["qualified"], rows["众8"]["places"]) == (False, [9, 16])
    text = wuzi("standings")
    assert "Qualified for the final (000 五(三)2):" in text
    assert "match 8  专1  (众8 (public #8) v 专1 (pro #1) 3 – 3, captains' playoff black)" in text
    assert "event is over" in wuzi("pair", code=1)
    assert "a knockout decides every place itself" in wuzi("playoff", "众8", "专1", "black", code=1)
    assert "专1" in wuzi("export", "csv")
    assert "<td>9–16</td>" not in wuzi("export", "html") and "众8" in wuzi("export", "html")


def test_each_group_may_come_in_its_own_file() -> None:
    comp = Competition(EventSettings.create(Format.TEAM_SEMIFINAL))
    header, *rows = semifinal_csv_rows()
    public = [r for r in rows if ",public," in r]
    pro = [r for r in rows if ",pro," in r]
    comp = import_entrants(comp, csv_lines("\n".join([header, *public])), what="public.csv")
    assert len(comp.entrants) == 8
    with pytest.raises(CsvError, match=r"^pro\.csv, column 'seed': the pro group has 7 teams"):
        import_entrants(comp, csv_lines("\n".join([header, *pro[3:]])), what="pro.csv")
    with pytest.raises(
        CsvError, match=r"^pro\.csv line 2, column 'seed': public #1 is already '众1'"
    ):
        import_entrants(comp, csv_lines("\n".join([header, *public[:3]])), what="pro.csv")
    comp = import_entrants(comp, csv_lines("\n".join([header, *pro])), what="pro.csv")
    assert {e.seed for e in comp.entrants} == set(range(1, 17))
    assert semifinal_slots({e.id: e.seed for e in comp.entrants})[:2] == ("众1", "专8")


def semifinal_csv_rows() -> list[str]:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        return semifinal_csv(Path(folder)).read_text(encoding="utf-8").splitlines()


def test_a_semifinal_team_by_hand_needs_its_group_and_place(wuzi: Wuzi) -> None:
    wuzi("new", "--format", "team-semifinal")
    team = ("--player", "A1,m,2000", "--player", "A2,m,1900", "--player", "A3,f,1800")
    err = wuzi("add-team", "A", *team, code=1)
    assert "needs its preliminary group and place" in err
    assert "--group goes with --seed" in wuzi("add-team", "A", *team, "--group", "pro", code=1)
    assert "added team A" in wuzi("add-team", "A", *team, "--group", "pro", "--seed", "3")
    other = ("--player", "B1,m,2000", "--player", "B2,m,1900", "--player", "B3,f,1800")
    assert "seed 11 is already 'A'" in wuzi(
        "add-team", "B", *other, "--group", "专业", "--seed", "3", code=1
    )
    wuzi("add-team", "B", *other, "--group", "public", "--seed", "1")
    err = wuzi("pair", code=1)
    assert "no team is entered as public #2, public #3" in err and "pro #3" not in err


def test_group_is_only_for_a_semifinal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    final = Wuzi(tmp_path / "final.sqlite", capsys)
    final("new", "--format", "team-knockout-placement")
    team = ("--player", "A1,m,2000", "--player", "A2,m,1900", "--player", "A3,f,1800")
    err = final("add-team", "A", *team, "--group", "pro", "--seed", "1", code=1)
    assert "--group (public or pro) is for a team-semifinal" in err


def rows_of(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def bad_files(tmp_path: Path) -> list[tuple[str, list[str], str]]:
    rows = rows_of(semifinal_csv(tmp_path))
    header, body = rows[0], rows[1:]
    no_group = [
        header.replace(",group", ""),
        *(r.rsplit(",", 2)[0] + "," + r.rsplit(",", 1)[1] for r in body),
    ]
    pro8 = [r for r in body if not r.startswith("专8,")]
    dup = [r.replace(",pro,3", ",pro,4") if r.startswith("专3,") else r for r in body]
    pros = [r.replace(",pro,5", ",pros,5") if r.startswith("专5,") else r for r in body]
    nine = [r.replace(",pro,5", ",pro,9") if r.startswith("专5,") else r for r in body]
    bare = [r.rsplit(",", 2)[0] + ",," if r.startswith("专6,") else r for r in body]
    return [
        ("no group column", no_group, "line 1: a team-semifinal event needs a 'group' column"),
        ("seven pro teams", [header, *pro8], "column 'seed': the pro group has 7 teams, no #8"),
        (
            "a place twice",
            [header, *dup],
            "line 35, column 'seed': pro #4 is already '专3' (line 32)",
        ),
        ("a bad group", [header, *pros], "line 38, column 'group': a semifinal group is public"),
        ("a place of 9", [header, *nine], "line 38, column 'seed': a place in the pro group"),
        ("no place", [header, *bare], "line 41, column 'group': team '专6' has no group"),
    ]


@pytest.mark.parametrize("case", range(6))
def test_a_bad_semifinal_csv_names_file_line_and_column_and_stores_nothing(
    wuzi: Wuzi, tmp_path: Path, case: int
) -> None:
    wuzi("new", "--format", "team-semifinal")
    before = Path(wuzi.db).read_bytes()
    what, rows, message = bad_files(tmp_path)[case]
    bad = tmp_path / "bad.csv"
    bad.write_text("\n".join(rows) + "\n", encoding="utf-8")
    err = wuzi("import", str(bad), code=1)
    assert err.startswith(f"wuzi tournament import: {bad}: import CSV"), (what, err)
    assert message in err, (what, err)
    assert Path(wuzi.db).read_bytes() == before
