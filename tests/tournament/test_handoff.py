"""The semifinal's sixteen from the two preliminary groups' exports (000 五(二)): the top 8
of each enter in their ranking, from the teams' entry forms, no place typed; the lots the
preliminary drew are recorded with the semifinal (``draw list``)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from support.championship import TEAM_HEADER, team_rows
from support.tournament_cli import Wuzi
from wuzi.cli import main


def preliminary_files(folder: Path, prefix: str) -> tuple[Path, Path]:
    """Ten teams ``<prefix>1`` … ``<prefix>10``; team k's captain wins 20 − k counted games,
    except that teams 3 and 4 score the same on all six levels (lots decide place 3)."""
    teams = ["team,board1,board2,board3"]
    games = ["black,white,result,seconds,moves"]
    for k in range(1, 11):
        name = f"{prefix}{k}"
        teams.append(f"{name},{name}-a,{name}-b,{name}-c")
        wins = 20 - (3 if k == 4 else k)
        games += [f"{name}-a,guest,black,300,40"] * wins
    (folder / f"{prefix}-teams.csv").write_text("\n".join(teams) + "\n", encoding="utf-8")
    (folder / f"{prefix}-games.csv").write_text("\n".join(games) + "\n", encoding="utf-8")
    return folder / f"{prefix}-games.csv", folder / f"{prefix}-teams.csv"


def export(folder: Path, prefix: str, group: str, capsys: pytest.CaptureFixture[str]) -> Path:
    games, teams = preliminary_files(folder, prefix)
    argv = ["tournament", "preliminary", str(games), "--teams", str(teams), "--group", group]
    assert main([*argv, "--seed", "2021", "--json"]) == 0
    path = folder / f"{group}.json"
    path.write_text(capsys.readouterr().out, encoding="utf-8")
    return path


def rosters(folder: Path) -> Path:
    """Every team's entry form (all twenty: the file need not be cut to the qualifiers)."""
    lines = [TEAM_HEADER]
    for prefix in ("众", "专"):
        for k in range(1, 11):
            lines += team_rows(f"{prefix}{k}", f"{prefix}{k}市", 2000 - 10 * k)
    path = folder / "rosters.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def wuzi(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Wuzi:
    return Wuzi(tmp_path / "semi.db", capsys)


def test_the_semifinal_from_the_preliminary_exports(
    wuzi: Wuzi, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    public = export(tmp_path, "众", "public", capsys)
    pro = export(tmp_path, "专", "pro", capsys)
    data = json.loads(public.read_text(encoding="utf-8"))
    assert data["group"] == "public" and data["seed"] == 2021
    lots = [lot["team"] for lot in data["lots"]]
    assert sorted(lots) == ["众3", "众4"]
    out = wuzi("new", "--format", "team-semifinal", "--name", "2021 复赛",
               "--entrants-from-preliminary", str(public), "--entrants-from-preliminary",
               str(pro), "--rosters", str(rosters(tmp_path)), "--by", "裁判长")  # fmt: skip
    assert "public #1  众1" in out and "pro #8  专8" in out
    assert f"preliminary lots recorded: public preliminary: 3 {lots[0]}, 4 {lots[1]}" in out
    matches = wuzi.json("pair")["matches"]
    assert [(m["first"], m["second"]) for m in matches][:3] == [
        ("众1", "专8"),
        ("众2", "专7"),
        (lots[0], "专6"),  # public #3, drawn by lot
    ]
    draws = wuzi.json("draw", "list")
    assert [(d["kind"], d["seed"], d["by"], d["result"]["group"]) for d in draws] == [
        ("preliminary", 2021, "裁判长", "public"),
        ("preliminary", 2021, "裁判长", "pro"),
    ]
    assert draws[0]["result"]["order"] == lots
    assert "draw 1: preliminary by 裁判长 (lot, seed 2021)" in wuzi("draw", "list")


def test_every_file_is_checked_before_the_database_is_made(
    wuzi: Wuzi, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    public = export(tmp_path, "众", "public", capsys)
    pro = export(tmp_path, "专", "pro", capsys)
    forms = rosters(tmp_path)
    new = ["new", "--format", "team-semifinal", "--rosters", str(forms)]
    err = wuzi(*new, "--entrants-from-preliminary", str(public), code=1)
    assert "give the public and the professional group's exports, one each (given: public)" in err
    short = tmp_path / "short.csv"
    short.write_text(
        "\n".join(line for line in forms.read_text(encoding="utf-8").splitlines()
                  if not line.startswith("专2,")) + "\n", encoding="utf-8",
    )  # fmt: skip
    err = wuzi("new", "--format", "team-semifinal", "--rosters", str(short),
               "--entrants-from-preliminary", str(public), "--entrants-from-preliminary",
               str(pro), code=1)  # fmt: skip
    assert "no entry form for '专2' (pro #2 of the preliminary)" in err
    old = tmp_path / "old.json"
    data = json.loads(public.read_text(encoding="utf-8"))
    del data["group"]
    old.write_text(json.dumps(data), encoding="utf-8")
    err = wuzi(*new, "--entrants-from-preliminary", str(old), "--entrants-from-preliminary",
               str(pro), code=1)  # fmt: skip
    assert "the export names no group; make it with preliminary … --group public|pro" in err
    err = wuzi("new", "--format", "swiss", "--rounds", "3", "--rosters", str(forms),
               "--entrants-from-preliminary", str(public), "--entrants-from-preliminary",
               str(pro), code=1)  # fmt: skip
    assert "makes the semifinal: --format team-semifinal, not swiss" in err
    data = json.loads(public.read_text(encoding="utf-8"))
    assert data["lots"], "the public group's export draws lots (teams 3 and 4)"
    data["lots"][0]["place"] = "٣"  # int() would read it as 3
    odd = tmp_path / "odd.json"
    odd.write_text(json.dumps(data), encoding="utf-8")
    err = wuzi(*new, "--entrants-from-preliminary", str(odd), "--entrants-from-preliminary",
               str(pro), code=1)  # fmt: skip
    assert "a lot is not a place (a whole number) and a team" in err
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    err = wuzi(*new, "--entrants-from-preliminary", str(fifo), "--entrants-from-preliminary",
               str(pro), code=1)  # fmt: skip
    assert f"--entrants-from-preliminary {fifo}: is a FIFO (named pipe), not a regular" in err
    assert not wuzi.db.exists()


def test_the_entry_forms_registered_in_time(
    wuzi: Wuzi, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    public = export(tmp_path, "众", "public", capsys)
    pro = export(tmp_path, "专", "pro", capsys)
    lines = rosters(tmp_path).read_text(encoding="utf-8").splitlines()
    late = {"众7": "2022-01-03"}
    body = [f"{line},{late.get(line.split(',')[0], '2021-12-31')}" for line in lines[1:]]
    forms = tmp_path / "dated.csv"
    forms.write_text("\n".join([lines[0] + ",registered", *body]) + "\n", encoding="utf-8")
    new = ["new", "--format", "team-semifinal", "--entrants-from-preliminary", str(public),
           "--entrants-from-preliminary", str(pro), "--rosters", str(forms)]  # fmt: skip
    err = wuzi(*new, "--registration-window", "2021-12-29..2022-01-01", code=1)
    assert "team '众7' registered on 2022-01-03, outside the registration window" in err
    assert not wuzi.db.exists()
    wuzi(*new, "--registration-window", "2021-12-29..2022-01-03")
