"""The final's sixteen (000 六(三)1, 五(三)): the semifinal's winners and the direct places,
no team typed twice, the bracket drawn by lot from a recorded seed — and the whole 2021 road
on the command line, from the preliminary's standings to the final's 16 entrants."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from support.championship import (
    DIRECT_2021,
    MEN_2020,
    WOMEN_2020,
    direct_teams_csv,
    places_csv,
    semifinal_csv,
    team_rows,
)
from wuzi.cli import main
from wuzi.tournament.entrants import Player, Sex, Team
from wuzi.tournament.errors import EntryError
from wuzi.tournament.event import EventSettings, Format
from wuzi.tournament.final import FinalTeam, draw_final_bracket, final_field
from wuzi.tournament.store import TournamentStore


def run(capsys: pytest.CaptureFixture[str], *argv: str, code: int = 0) -> str:
    got = main(["tournament", *argv])
    out, err = capsys.readouterr()
    assert got == code, (argv, out, err)
    return out if code == 0 else err


def team(name: str, ids: tuple[str, str, str] | None = None) -> Team:
    a, b, c = ids or (f"{name}-1", f"{name}-2", f"{name}-3")
    return Team(
        name,
        name,
        (
            Player(a, a, Sex.MALE, 2000),
            Player(b, b, Sex.MALE, 1900),
            Player(c, c, Sex.FEMALE, 1800),
        ),
    )


FINAL = EventSettings.create(Format.TEAM_KNOCKOUT_PLACEMENT)


# -- the functions ----------------------------------------------------------------------


def test_the_bracket_by_lot_is_a_function_of_its_seed() -> None:
    ids = [f"T{i}" for i in range(1, 17)]
    first = draw_final_bracket(ids, 20220115)
    assert sorted(first) == sorted(ids)
    assert draw_final_bracket(ids, 20220115) == first
    assert draw_final_bracket(ids, 20220116) != first
    teams = [FinalTeam(team(t), f"source {t}") for t in ids]
    comp, order = final_field(FINAL, teams, 20220115)
    assert [t.team.id for t in order] == list(first)
    assert {e.id: e.seed for e in comp.entrants} == {t: i for i, t in enumerate(first, start=1)}


def test_a_team_entered_twice_names_both_sources() -> None:
    teams = [FinalTeam(team("A"), "semifinal match 1, public #1"), FinalTeam(team("B"), "x")]
    clash = FinalTeam(team("A2", ("A-1", "Z-2", "Z-3")), "direct, unit 杭州")
    with pytest.raises(EntryError) as info:
        final_field(FINAL, [*teams, clash], 1)
    message = str(info.value)
    assert message.startswith("direct, unit 杭州: team 'A2': player ID 'A-1' is already entered")
    assert message.endswith(
        "already in the final from semifinal match 1, public #1; a team plays the final once"
    )


# -- the command ------------------------------------------------------------------------


def finished_semifinal(capsys: pytest.CaptureFixture[str], folder: Path) -> Path:
    """A semifinal whose public teams win matches 1-7 and whose match 8 went to the captains'
    playoff, won by pro #1."""
    db = folder / "semi.sqlite"
    run(capsys, "--db", str(db), "new", "--format", "team-semifinal")
    run(capsys, "--db", str(db), "import", str(semifinal_csv(folder)))
    run(capsys, "--db", str(db), "pair")
    for k in range(1, 8):
        run(capsys, "--db", str(db), "result", "1", str(k), "black,white,draw")
    run(
        capsys,
        "--db",
        str(db),
        "result",
        "1",
        "8",
        "black,black,draw",
        "--playoff",
        "draw,draw,white",
    )
    return db


def test_the_final_from_the_semifinal_and_the_direct_places(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    semi = finished_semifinal(capsys, tmp_path)
    direct = direct_teams_csv(tmp_path, DIRECT_2021)
    men, women = places_csv(tmp_path, "m.csv", MEN_2020), places_csv(tmp_path, "w.csv", WOMEN_2020)
    units = tmp_path / "units.csv"
    units.write_text(run(capsys, "direct-qualifiers", "--men", str(men), "--women", str(women)))
    db = tmp_path / "final.sqlite"
    new = ["--db", str(db), "new", "--format", "team-knockout-placement", "--name", "2021 决赛"]
    sources = ["--entrants-from", str(semi), "--direct", str(direct), "--direct-units", str(units)]
    out = run(capsys, *new, *sources, "--draw-seed", "20220115")
    assert "bracket drawn by lot: seed 20220115 (wuzi-lots-1)" in out
    comp = TournamentStore(db).load()
    assert len(comp.entrants) == 16
    winners = [f"众{k}" for k in range(1, 8)]
    assert [e.name for e in comp.entrants] == [*winners, "众8", *(f"{u}队" for u in DIRECT_2021)]
    drawn = draw_final_bracket([e.id for e in comp.entrants], 20220115)
    assert [e.id for e in comp.seeded()] == list(drawn)
    for seed, who in enumerate(drawn, start=1):
        assert f"{seed:4d}  {who}  (" in out
    # the winners come as the semifinal entered them: players, boards, unit
    semi_team = TournamentStore(semi).load().entrant("众3").team
    assert comp.entrant("众3").team == semi_team
    log = run(capsys, "--db", str(db), "log")
    assert "--draw-seed=20220115" in log
    assert f"bracket by lot by the organisers, seed 20220115: 1 {drawn[0]}," in log
    # recorded as a draw like every other (wuzi tournament draw list; the director's audit)
    (record,) = json.loads(run(capsys, "--db", str(db), "draw", "list", "--json"))
    assert (record["kind"], record["by"], record["method"], record["seed"]) == (
        "bracket",
        "the organisers",
        "lot",
        20220115,
    )
    assert record["result"] == {"order": list(drawn)}
    data = json.loads(run(capsys, "--db", str(db), "pair", "--json"))
    assert [(m["first"], m["second"]) for m in data["matches"]] == [
        (drawn[a - 1], drawn[b - 1])
        for a, b in ((1, 16), (8, 9), (4, 13), (5, 12), (2, 15), (7, 10), (3, 14), (6, 11))
    ]
    # without --draw-seed a fresh seed is drawn, printed and logged: the draw repeats from it
    again = tmp_path / "again.sqlite"
    new_again = ["--db", str(again), "new", "--format", "team-knockout-placement", *sources]
    out = run(capsys, *new_again, "--by", "裁判长 李")
    seed = int(out.split("bracket drawn by lot: seed ")[1].split()[0])
    assert 0 <= seed < 10**9  # nine digits at most, as every drawn seed: read out, written down
    assert f"--draw-seed={seed}" in run(capsys, "--db", str(again), "log")
    ids = [e.id for e in TournamentStore(again).load().entrants]
    assert [e.id for e in TournamentStore(again).load().seeded()] == list(
        draw_final_bracket(ids, seed)
    )


def bad_final(tmp_path: Path, capsys: pytest.CaptureFixture[str], *sources: str) -> str:
    db = tmp_path / "final.sqlite"
    err = run(
        capsys, "--db", str(db), "new", "--format", "team-knockout-placement", *sources, code=1
    )
    assert not db.exists()  # nothing is made
    return err


def test_what_the_final_refuses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    semi = finished_semifinal(capsys, tmp_path)
    direct = direct_teams_csv(tmp_path, DIRECT_2021)
    err = bad_final(tmp_path, capsys, "--entrants-from", str(semi))
    assert "--entrants-from SEMI.sqlite (the semifinal's winners) and --direct" in err
    err = bad_final(tmp_path, capsys, "--draw-seed", "5")
    assert "--entrants-from SEMI.sqlite (the semifinal's winners) and --direct" in err
    swiss = ["--db", str(tmp_path / "s.sqlite"), "new", "--format", "swiss", "--rounds", "5"]
    err = run(capsys, *swiss, "--entrants-from", str(semi), "--direct", "x.csv", code=1)
    assert "make the final: --format team-knockout-placement, not swiss" in err
    seven = direct_teams_csv(tmp_path, DIRECT_2021[:7], "seven.csv")
    err = bad_final(tmp_path, capsys, "--entrants-from", str(semi), "--direct", str(seven))
    assert f"--direct {seven}: 7 teams; the final has 8 direct places" in err
    units = tmp_path / "units.csv"
    units.write_text("\n".join([*DIRECT_2021[:7], "南京"]) + "\n", encoding="utf-8")
    args = ("--entrants-from", str(semi), "--direct", str(direct), "--direct-units", str(units))
    err = bad_final(tmp_path, capsys, *args)
    assert "team '成都队' is of unit '成都', which has no direct place in --direct-units" in err
    # a semifinal winner entered again as a direct team
    twice = tmp_path / "twice.csv"
    rows = direct.read_text(encoding="utf-8").splitlines()
    twice.write_text("\n".join([*rows[:-3], *team_rows("众1", "众1市", 1990)]) + "\n")
    err = bad_final(tmp_path, capsys, "--entrants-from", str(semi), "--direct", str(twice))
    assert "direct, unit 众1市: team '众1': player ID '众1-1' is already entered" in err
    assert "already in the final from semifinal match 1, public #1" in err
    # a semifinal still to finish
    open_semi = tmp_path / "open.sqlite"
    run(capsys, "--db", str(open_semi), "new", "--format", "team-semifinal")
    run(capsys, "--db", str(open_semi), "import", str(semifinal_csv(tmp_path, "s2.csv")))
    run(capsys, "--db", str(open_semi), "pair")
    run(capsys, "--db", str(open_semi), "result", "1", "1", "black,black,draw")
    err = bad_final(tmp_path, capsys, "--entrants-from", str(open_semi), "--direct", str(direct))
    assert "the semifinal is not finished (match 1, match 2, match 3" in err
    err = bad_final(
        tmp_path, capsys, "--entrants-from", str(tmp_path / "nope"), "--direct", str(direct)
    )
    assert "no such file (the semifinal's database)" in err


def test_the_installed_command_makes_the_final(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    semi = finished_semifinal(capsys, tmp_path)
    direct = direct_teams_csv(tmp_path, DIRECT_2021)
    wuzi = str(Path(sys.executable).with_name("wuzi"))
    db = tmp_path / "final.sqlite"
    args = ["tournament", "--db", str(db), "new", "--format", "team-knockout-placement"]
    args += ["--entrants-from", str(semi), "--direct", str(direct), "--draw-seed", "7"]
    done = subprocess.run([wuzi, *args], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert (
        "bracket drawn by lot: seed 7" in done.stdout
        and len(done.stdout.splitlines()) == 1 + 12 + 18
    )  # created, the summary, the draw


# -- the whole road ---------------------------------------------------------------------


def preliminary_files(folder: Path, group: str) -> tuple[Path, Path, dict[str, list[str]]]:
    """Ten teams of a preliminary group; the k-th team's players beat those of every team
    after it, so the ranking is the team order. Returns the games, the teams and every
    team's three entry-form rows."""
    names = [f"{group}{k:02d}" for k in range(1, 11)]
    teams = ["team,board1,board2,board3"]
    forms: dict[str, list[str]] = {}
    for name in names:
        teams.append(f"{name},{name}-1,{name}-2,{name}-3")
        forms[name] = team_rows(name, f"{name}会")
    games = ["black,white,result,seconds,moves"]
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            for board in (1, 2, 3):
                games.append(f"{a}-{board},{b}-{board},black,600,40")
    games_csv, teams_csv = folder / f"{group}-games.csv", folder / f"{group}-teams.csv"
    games_csv.write_text("\n".join(games) + "\n", encoding="utf-8")
    teams_csv.write_text("\n".join(teams) + "\n", encoding="utf-8")
    return games_csv, teams_csv, forms


def test_the_2021_road_from_the_preliminary_to_the_final_sixteen(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the preliminary's standings of both groups; their top 8 make the semifinal's file
    rows = ["team,board,name,sex,rating,id,club,group,seed"]
    for group in ("public", "pro"):
        games, teams, forms = preliminary_files(tmp_path, group)
        ranking = json.loads(
            run(capsys, "preliminary", str(games), "--teams", str(teams), "--json")
        )
        for entry in ranking["ranking"]:
            if entry["qualifies"]:
                rows += [f"{row},{group},{entry['place']}" for row in forms[entry["team"]]]
    semi_csv = tmp_path / "semifinal-teams.csv"
    semi_csv.write_text("\n".join(rows) + "\n", encoding="utf-8")
    semi = str(tmp_path / "semi.sqlite")
    run(capsys, "--db", semi, "new", "--format", "team-semifinal", "--name", "2021 复赛")
    run(capsys, "--db", semi, "import", str(semi_csv))
    matches: list[dict[str, Any]] = json.loads(run(capsys, "--db", semi, "pair", "--json"))[
        "matches"
    ]
    assert [(m["first"], m["second"]) for m in matches] == [
        (f"public{k:02d}", f"pro{9 - k:02d}") for k in range(1, 9)
    ]
    for m in matches:  # the pro team wins the odd matches; match 4 goes to the captains
        args = ["--db", semi, "result", "1", str(m["match"])]
        if m["match"] == 4:
            run(capsys, *args, "white,white,draw", "--playoff", "white")  # the public captain
        else:
            run(capsys, *args, "white,black,draw" if m["match"] % 2 else "black,white,draw")
    qualified = json.loads(run(capsys, "--db", semi, "standings", "--json"))["qualified"]
    assert [q["id"] for q in qualified] == [
        "pro08",
        "public02",
        "pro06",
        "public04",
        "pro04",
        "public06",
        "pro02",
        "public08",
    ]
    # last year's results give the direct places; their entry forms the direct teams
    men, women = places_csv(tmp_path, "m.csv", MEN_2020), places_csv(tmp_path, "w.csv", WOMEN_2020)
    units = tmp_path / "direct-units.csv"
    units.write_text(run(capsys, "direct-qualifiers", "--men", str(men), "--women", str(women)))
    direct = direct_teams_csv(tmp_path, [u.split(",")[0] for u in units.read_text().splitlines()])
    final = str(tmp_path / "final.sqlite")
    run(
        capsys,
        *("--db", final, "new", "--format", "team-knockout-placement", "--name", "2021 决赛"),
        *("--entrants-from", semi, "--direct", str(direct), "--direct-units", str(units)),
        *("--draw-seed", "2022"),
    )
    standings = json.loads(run(capsys, "--db", final, "standings", "--json"))
    names = sorted(row["name"] for row in standings["standings"])
    assert names == sorted([q["id"] for q in qualified] + [f"{u}队" for u in DIRECT_2021])
    assert all(row["places"] == [1, 16] for row in standings["standings"])
    data = json.loads(run(capsys, "--db", final, "pair", "--json"))
    assert len(data["matches"]) == 8 and all(len(m["boards"]) == 3 for m in data["matches"])
