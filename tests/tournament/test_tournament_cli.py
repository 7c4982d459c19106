"""``wuzi tournament --db FILE …`` through the real command: the contracts, the errors,
and that a failed command leaves the database byte for byte as it was."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from support.tournament_cli import Wuzi, play_round, swiss_event
from wuzi.cli import main
from wuzi.tournament.store import TournamentStore
from wuzi.tournament.tiebreaks import Tiebreak


@pytest.fixture
def wuzi(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Wuzi:
    return Wuzi(tmp_path / "event.db", capsys)


def test_a_swiss_from_new_to_export(wuzi: Wuzi, tmp_path: Path) -> None:
    swiss_event(wuzi)
    r1 = play_round(wuzi)
    assert r1["round"] == 1 and len(r1["pairings"]) == 5
    assert r1["pairings"][-1] == {"board": 5, "black": "p9", "white": None, "manual_reason": None}
    for _ in range(3):
        play_round(wuzi)
    data = wuzi.json("standings")
    assert data["format"] == "swiss" and data["rounds"] == 4 and data["prize_places"] == 8
    assert [t["key"] for t in data["tiebreaks"]] == ["buchholz", "median_buchholz", "wins"]
    assert all(t["formula"] for t in data["tiebreaks"])
    rows = data["standings"]
    assert len(rows) == 9 and rows[0]["place"] == 1
    for row in rows:
        assert set(row["tiebreaks"]) == {t.value for t in Tiebreak}
        assert set(row) >= {"place", "id", "name", "points", "tiebreaks", "shared"}
    text = wuzi("standings")
    assert "Buchholz (对手分)" in text and "BH = sum of the opponents' points" in text
    trf = wuzi("export", "trf")
    lines = [line for line in trf.splitlines() if line.startswith("001")]
    assert len(lines) == 9
    first = next(line for line in lines if line[4:8] == "   1")
    assert first[14:22] == "Player 1" and first[48:52] == "1990"
    assert first[91:99].strip()[-1] in "10=U+-"  # round 1: opponent, colour, result
    assert "XXR 4" in trf
    csv_text = wuzi("export", "csv")
    assert csv_text.startswith("\ufeffplace,shared,id,name,points,buchholz")  # BOM: spreadsheets
    out = tmp_path / "standings.html"
    wuzi("export", "html", "--output", str(out))
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "Round 4" in page and "Player 9" in page
    log = wuzi("log")
    assert "pair" in log and "result" in log and log.count("\n") >= 1 + 9 + 4 * 5


def test_failed_commands_leave_the_database_byte_for_byte_unchanged(
    wuzi: Wuzi, tmp_path: Path
) -> None:
    swiss_event(wuzi, players=6, rounds=3)
    play_round(wuzi)
    wuzi.json("pair")  # round 2 paired, no results yet
    bad_csv = tmp_path / "late.csv"
    bad_csv.write_text("name,sex,rating\nNew One,m,1500\nNew Two,x,1500\n", encoding="utf-8")
    db = Path(wuzi.db)
    before = db.read_bytes()
    dump_before = list(sqlite3.connect(db).iterdump())
    attempts = [
        (("result", "2", "1", "blak"), "'blak' is not a game result"),
        (("result", "2", "9", "black"), "round 2 has no board 9"),
        (("result", "3", "1", "black"), "round 3 is not paired"),
        (("result", "1", "1", "white"), "already has the result"),
        (("result", "1", "1", "white", "--correct"), "round 2 is already paired"),
        (("pair",), "round 2 is not finished"),
        (("add-player", "Player 1", "--sex", "m", "--id", "p1"), "'p1' is already entered"),
        (
            ("add-player", "Ms Low", "--sex", "f", "--rating", "1500"),
            "a woman needs a rating of 1600",
        ),
        (("import", str(bad_csv)), "line 3, column 'sex'"),
        (("import", str(tmp_path / "missing.csv")), "No such file"),
        (("withdraw", "nobody"), "no entrant 'nobody'"),
        (("withdraw", "p1", "--from-round", "2"), "already paired"),
        (("add-team", "T", "--player", "a,m,1", "--player", "b,m,1"), "exactly 3 players"),
        (("playoff", "p1", "p2", "black,white"), "not level on a prize place"),
        (("new", "--format", "swiss", "--rounds", "3"), "already exists"),
        (("pair", "--replace", "--fix", "p1:p2"), "needs a reason"),
    ]
    for argv, message in attempts:
        err = wuzi(*argv, code=1)
        assert message in err, (argv, err)
        assert err.startswith(f"wuzi tournament {argv[0]}: ")
        assert db.read_bytes() == before, argv
    assert list(sqlite3.connect(db).iterdump()) == dump_before


def test_database_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nothing.db"
    assert main(["tournament", "--db", str(missing), "standings"]) == 1
    assert "no tournament database at" in capsys.readouterr().err
    assert not missing.exists()
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"this is not sqlite at all" * 100)
    assert main(["tournament", "--db", str(garbage), "pair"]) == 1
    assert "not a tournament database" in capsys.readouterr().err
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE x (y)").connection.commit()
    assert main(["tournament", "--db", str(other), "standings"]) == 1
    assert "not a tournament database (no settings table)" in capsys.readouterr().err
    assert main(["tournament", "standings"]) == 1
    assert "needs the database" in capsys.readouterr().err
    # a failed `new` leaves no file behind
    bad = tmp_path / "bad.db"
    assert main(["tournament", "--db", str(bad), "new", "--format", "swiss"]) == 1
    assert "needs its number of rounds" in capsys.readouterr().err
    assert not bad.exists()


def test_schema_version_and_foreign_keys(wuzi: Wuzi) -> None:
    swiss_event(wuzi, players=2, rounds=1)
    conn = sqlite3.connect(wuzi.db)
    conn.execute("PRAGMA foreign_keys=ON")
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute("INSERT INTO round (number) VALUES (1)")
        conn.execute("INSERT INTO pairing (round, board, first) VALUES (1, 1, 'ghost')")
    conn.rollback()
    conn.execute("PRAGMA user_version = 7")
    conn.commit()
    conn.close()
    err = wuzi("standings", code=1)
    assert "schema version 7; this wuzi reads version 1" in err


def test_new_validates_every_setting(wuzi: Wuzi) -> None:
    for argv, message in [
        (("--format", "swiss", "--rounds", "10"), "1 to 9 rounds"),
        (("--format", "round-robin", "--rounds", "5"), "follows from the field"),
        (("--format", "swiss", "--rounds", "5", "--tiebreaks", "buchholz,koya"), "'koya'"),
        (
            ("--format", "swiss", "--rounds", "5", "--time-control", "60min"),
            "time control '60min': field 1 '60min': character 3 'm'",
        ),
        (("--format", "swiss", "--rounds", "5", "--rules", "go"), "unknown rule set 'go'"),
        (("--format", "swiss", "--rounds", "5", "--scoring", "3-1-0"), "WIN/DRAW/LOSS"),
        (("--format", "knockout-placement", "--match", "team"), "team-knockout-placement"),
    ]:
        assert message in wuzi("new", *argv, code=1)
        assert not Path(wuzi.db).exists()
    with pytest.raises(SystemExit) as info:  # a usage error: argparse names the choices
        main(["tournament", "--db", str(wuzi.db), "new", "--format", "chess"])
    assert info.value.code == 2
    assert "invalid choice: 'chess'" in wuzi.capsys.readouterr().err


def test_db_may_follow_the_subcommand_and_help_exists(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "x.db")
    assert main(["tournament", "new", "--db", db, "--format", "round-robin"]) == 0
    assert main(["tournament", "add-player", "A", "--sex", "m", "--db", db]) == 0
    capsys.readouterr()
    for sub in (
        "new",
        "add-team",
        "add-player",
        "import",
        "pair",
        "result",
        "standings",
        "export",
        "simulate",
        "withdraw",
        "playoff",
        "ratings",
        "log",
        "preliminary",
    ):
        with pytest.raises(SystemExit) as info:
            main(["tournament", sub, "--help"])
        assert info.value.code == 0
        assert f"usage: wuzi tournament {sub}" in capsys.readouterr().out


def test_team_import_and_the_pairing_json(wuzi: Wuzi, tmp_path: Path) -> None:
    wuzi("new", "--format", "team-knockout-placement")
    rows = ["team,board,name,sex,rating,seed"]
    for t in range(1, 5):
        rows += [
            f"T{t},1,T{t} captain,m,2000,{t}",
            f"T{t},2,T{t} two,m,1900,",
            f"T{t},3,T{t} three,f,1800,",
        ]
    csv_file = tmp_path / "teams.csv"
    csv_file.write_text("\n".join(rows) + "\n", encoding="utf-8")
    assert "imported 4 entrants" in wuzi("import", str(csv_file))
    data = wuzi.json("pair")
    assert data["matches"][0] == {
        "match": 1,
        "first": "T1",
        "second": "T4",
        "places": [1, 4],
        "boards": [
            {"board": 1, "black": "T1 captain", "white": "T4 captain"},
            {"board": 2, "black": "T4 two", "white": "T1 two"},
            {"board": 3, "black": "T1 three", "white": "T4 three"},
        ],
        "manual_reason": None,
    }
    out = wuzi("result", "1", "1", "black,black,draw")
    assert "3 – 3" in out and "playoff needed" in out
    out = wuzi("result", "1", "1", "black,black,draw", "--correct", "--playoff", "white")
    assert "winner T1" in out  # playoff game 1: T4's captain Black, White (T1) wins
    bad = tmp_path / "bad.csv"
    bad.write_text("team,board,name,sex\nU,1,a,m\nU,2,b,m\nU,3,c,m\n", encoding="utf-8")
    assert "board 3 must be a woman" in wuzi("import", str(bad), code=1)


def test_two_game_rounds_and_a_flag_in_game_one(wuzi: Wuzi) -> None:
    wuzi("new", "--format", "round-robin", "--match", "two-game", "--rules", "no-forbidden")
    for name in ("A", "B", "C", "D"):
        wuzi("add-player", name, "--sex", "f")
    data = wuzi.json("pair")
    boards = [(p["board"], p["black"], p["white"]) for p in data["pairings"]]
    assert boards == [(1, "A", "D"), (2, "B", "C")]
    wuzi("result", "1", "1", "flag:black")  # A flags in game 1: A loses the round
    wuzi("result", "1", "2", "black,draw")  # B wins game 1 with Black, game 2 drawn
    rows = {r["id"]: r for r in wuzi.json("standings")["standings"]}
    assert (rows["D"]["points"], rows["D"]["tiebreaks"]["game_points"]) == (1, 2)
    assert (rows["B"]["points"], rows["B"]["tiebreaks"]["game_points"]) == (1, 1.5)
    assert wuzi.json("standings")["tiebreaks"][0]["key"] == "game_points"
    err = wuzi("result", "1", "2", "black", "--correct", code=1)
    assert "a two-game pairing needs 2 game results, not 1" in err


def test_manual_pairing_with_a_reason_is_recorded(wuzi: Wuzi) -> None:
    swiss_event(wuzi, players=6, rounds=3)
    r1 = play_round(wuzi, ("black",))
    a, b = r1["pairings"][0]["black"], r1["pairings"][0]["white"]
    data = json.loads(
        wuzi("pair", "--json", "--fix", f"{b}:{a}", "--reason", "arbiter: clubmates split")
    )
    fixed = [p for p in data["pairings"] if p["manual_reason"]]
    assert fixed == [
        {
            "board": fixed[0]["board"],
            "black": b,
            "white": a,
            "manual_reason": "arbiter: clubmates split",
        }
    ]
    assert any("met before" in p for p in data["rules_set_aside"])
    comp = TournamentStore(wuzi.db).load()
    assert [p.manual_reason for p in comp.rounds[1].pairings if p.manual_reason] == [
        "arbiter: clubmates split"
    ]
    # re-pair automatically while no result is in
    data = json.loads(wuzi("pair", "--json", "--replace"))
    assert all(p["manual_reason"] is None for p in data["pairings"])


def test_playoff_for_a_tied_prize_place(wuzi: Wuzi) -> None:
    wuzi("new", "--format", "round-robin", "--tiebreaks", "none")
    for name in ("A", "B", "C"):
        wuzi("add-player", name, "--sex", "m")
    for _ in range(3):
        data = wuzi.json("pair")
        for p in data["pairings"]:
            if p["white"]:
                wuzi("result", str(data["round"]), str(p["board"]), "draw")
    rows = wuzi.json("standings")
    assert [r["playoff_needed"] for r in rows["standings"]] == [True] * 3
    assert rows["playoffs_needed"][0]["place"] == 1
    assert "decided" in wuzi("playoff", "A", "B", "black", code=1)
    out = wuzi("playoff", "A", "B", "black,black,black")  # 1-1, then A wins game 3 as Black
    assert "won by A" in out
    assert "still owed for place 1: A v C" in out and "B v C" in out
    data = wuzi.json("standings")
    # A never met C in the playoff: the three still share place 1 (002 六(四)1-3)
    assert [(r["id"], r["place"], r["shared"]) for r in data["standings"]] == [
        ("A", 1, True),
        ("B", 1, True),
        ("C", 1, True),
    ]
    assert data["playoffs_owed"] == [
        {"place": 1, "first": "A", "second": "C"},
        {"place": 1, "first": "B", "second": "C"},
    ]
    assert "still owed: A v C, B v C" in wuzi("standings")
    before = wuzi.db.read_bytes()
    err = wuzi("playoff", "B", "A", "black,white", code=1)
    assert "already entered (black,black,black); use --correct" in err
    assert wuzi.db.read_bytes() == before
    wuzi("playoff", "A", "C", "black,white")
    wuzi("playoff", "B", "C", "white,black")  # C wins both
    rows = wuzi.json("standings")["standings"]
    assert [(r["id"], r["place"], r["shared"]) for r in rows] == [
        ("A", 1, False),
        ("C", 2, False),
        ("B", 3, False),
    ]
    wuzi("playoff", "B", "A", "black,white", "--correct")  # B wins both: a cycle now
    rows = wuzi.json("standings")["standings"]
    assert [r["shared"] for r in rows] == [True] * 3
    assert "(replaces A v B black,black,black)" in wuzi("log")


def test_preliminary_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games = tmp_path / "games.csv"
    teams = tmp_path / "teams.csv"
    teams.write_text("team,board1,board2,board3\nAlpha,a1,a2,a3\nBeta,b1,b2,b3\n", encoding="utf-8")
    games.write_text(
        "black,white,result,seconds,moves\n"
        "a1,x,black,300,40\n"  # counts: a1 +2
        "b1,a2,white,300,40\n"  # counts: a2 +2
        "b2,y,black,100,40\n"  # too short
        "b3,z,draw,200,12\n",  # counts: b3 +1
        encoding="utf-8",
    )
    assert main(["tournament", "preliminary", str(games), "--teams", str(teams), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["counted"] == 3
    assert [(r["team"], r["levels"][0]) for r in data["ranking"]] == [("Alpha", 4), ("Beta", 1)]
    assert main(["tournament", "preliminary", str(games), "--teams", str(tmp_path / "no.csv")]) == 1
    assert "No such file" in capsys.readouterr().err


def test_the_installed_command_runs(tmp_path: Path) -> None:
    wuzi = Path(sys.executable).with_name("wuzi")
    result = subprocess.run(
        [
            str(wuzi),
            "tournament",
            "simulate",
            "--format",
            "round-robin",
            "--entrants",
            "4",
            "--seed",
            "2",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(result.stdout)
    assert len(data["rounds"]) == 3 and len(data["standings"]) == 4
