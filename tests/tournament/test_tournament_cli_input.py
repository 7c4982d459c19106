"""Hostile and broken input through ``wuzi tournament`` as an organiser runs it: each is
exit 1 with one line naming what is wrong, and the database is byte for byte as before;
what the exports write of a name is safe for their format (TRF, CSV, HTML)."""

from __future__ import annotations

import csv
import io
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from support.hostile import HOSTILE_NAMES
from wuzi.cli import main
from wuzi.tournament.export import TRF_NAME_WIDTH


class Desk:
    """The organiser's desk: ``wuzi tournament --db FILE …`` in this process."""

    def __init__(self, db: Path, capsys: pytest.CaptureFixture[str]):
        self.db = db
        self.capsys = capsys

    def __call__(self, *argv: str, code: int = 0) -> str:
        got = main(["tournament", "--db", str(self.db), *argv])
        out, err = self.capsys.readouterr()
        assert got == code, (argv, out, err)
        return out if code == 0 else err

    def refused(self, *argv: str) -> str:
        """Run a command that must fail: exit 1, one line on stderr, nothing changed."""
        before = self.db.read_bytes() if self.db.exists() else None
        dump = list(sqlite3.connect(self.db).iterdump()) if before is not None else None
        err = self(*argv, code=1)
        assert err.startswith(f"wuzi tournament {argv[0]}: "), err
        assert err.count("\n") == 1 and "Traceback" not in err, err
        assert "\x1b" not in err and "\x00" not in err and "\u202e" not in err, err
        if before is None:
            assert not self.db.exists()
        else:
            assert self.db.read_bytes() == before, argv
            assert list(sqlite3.connect(self.db).iterdump()) == dump, argv
        return err


@pytest.fixture
def desk(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Desk:
    return Desk(tmp_path / "event.db", capsys)


def _swiss(desk: Desk) -> None:
    desk("new", "--format", "swiss", "--rounds", "3", "--name", "Open")
    for i in range(1, 5):
        desk("add-player", f"Player {i}", "--sex", "m", "--rating", str(1900 - i), "--id", f"p{i}")
    desk("pair")


def test_bad_csv_files_are_refused_and_change_nothing(desk: Desk, tmp_path: Path) -> None:
    _swiss(desk)  # round 1 paired: an import is a late entry
    files: list[tuple[bytes, str]] = [
        ("name,sex\nAnn,f\n王小明,m\n".encode("gbk"), "import CSV line 3: not UTF-8 (byte 1"),
        ("name,sex\nJosé,m\n".encode("cp1252"), "import CSV line 2: not UTF-8 (byte 4"),
        ("name,sex\nAnn,f\n".encode("utf-16"), "line 1: the file is UTF-16"),
        (b"PK\x03\x04\x14\x00\x06\x00\x08\x00", "ZIP archive (an .xlsx workbook?)"),
        (b"name,sex\nAnn,f\nBe\x00a,f\n", "import CSV line 3, character 3: NUL"),
        (b"name,sex,ratng\nAnn,f,1800\n", "unknown column 'ratng' (did you mean 'rating'?)"),
        (b'name,sex\nAnn,f\n"Bea\n001 9999 m Mallory",f\n', "line 3, column 'name': 'Bea\\n001"),
        (b"name,sex\n\x1b[2JAnn,f\n", r"line 2, column 'name': '\x1b[2JAnn' has U+001B (ESCAPE"),
        ("name,sex\nAnn\u202eboB,f\n".encode(), "U+202E (RIGHT-TO-LEFT OVERRIDE"),
        ("name,sex,club\nAnn,f,Club\u0085X\n".encode(), "column 'club'"),
        (b"name,sex\n" + b"A" * 65 + b",f\n", "line 2, column 'name'"),
        (b"", "line 1: expected a header row"),
        (b"name,sex\nPlayer 1,m\n", "line 2: an entrant named 'Player 1' is already entered"),
    ]
    for number, (data, message) in enumerate(files):
        path = tmp_path / f"bad{number}.csv"
        path.write_bytes(data)
        err = desk.refused("import", str(path))
        assert message in err, (data, err)
    assert "is a directory, not a regular file" in desk.refused("import", str(tmp_path))
    # --ignore-unknown-columns keeps today's behaviour: the file goes in without the column
    good = tmp_path / "late.csv"
    good.write_bytes(b"\xef\xbb\xbfname,sex,ratng\nAnn,f,1800\n")
    assert "imported 1 entrants" in desk("import", str(good), "--ignore-unknown-columns")
    assert "--ignore-unknown-columns" in desk("log")


@pytest.mark.parametrize(("label", "bad", "code"), HOSTILE_NAMES, ids=[h[0] for h in HOSTILE_NAMES])
def test_bad_names_from_the_command_line(desk: Desk, label: str, bad: str, code: int) -> None:
    u = f"U+{code:04X}"
    assert u in desk.refused("new", "--format", "round-robin", "--name", bad)
    desk("new", "--format", "round-robin", "--name", "Club night")
    err = desk.refused("add-player", bad, "--sex", "m")
    assert "add-player: player name: " in err and u in err
    assert u in desk.refused("add-player", "Ann", "--sex", "f", "--club", bad)
    assert u in desk.refused("add-player", "Ann", "--sex", "f", "--id", bad)
    desk("add-player", "Ann", "--sex", "f")
    desk("add-player", "Bea", "--sex", "f")
    # a round robin takes no --fix: the reason is checked first all the same
    assert "--reason: " in desk.refused("pair", "--fix", "Ann:Bea", "--reason", bad)


def test_bad_names_in_a_team(desk: Desk) -> None:
    desk("new", "--format", "team-knockout-placement")
    boards = ["--player", "A,m,1800", "--player", "B,m,1700", "--player", "C,f,1600"]
    err = desk.refused("add-team", "T", "--player", "A\x1b[2J,m,1800", *boards[2:])
    assert "--player 'A\\x1b[2J,m,1800' (board 1): player name: " in err
    for option in ("--leader", "--coach", "--club"):
        assert f"team 'T': {option[2:]}: " in desk.refused("add-team", "T", *boards, option, "x\ny")
    assert "team name: " in desk.refused("add-team", "T\u2028U", *boards)
    assert "added team T" in desk("add-team", "T", *boards, "--leader", "王老师")


def test_a_rating_in_another_scripts_digits_is_refused(desk: Desk, tmp_path: Path) -> None:
    """int() read ٣٤٥٦ as 3456: the TRF export then carried a rating nobody typed."""
    desk("new", "--format", "team-knockout-placement")
    boards = ["--player", "B,m,1700", "--player", "C,f,1600"]
    err = desk.refused("add-team", "T", "--player", "A,m,٣٤٥٦", *boards)
    assert "(board 1): rating '٣٤٥٦' is not a whole number in ASCII digits 0-9" in err
    err = desk.refused("add-team", "T", "--player", "A,m,4001", *boards)
    assert "rating '4001' is out of range: the rating is from 0 to 4000" in err
    entrants = tmp_path / "team.csv"
    entrants.write_text(
        "team,board,name,sex,rating\nT,1,A,m,1800\nT,2,B,m,１７００\nT,3,C,f,1600\n",
        encoding="utf-8",
    )
    err = desk.refused("import", str(entrants))
    assert "line 3, column 'rating': '１７００' is not a whole number in ASCII digits" in err


def test_the_installed_command_prints_no_traceback(tmp_path: Path) -> None:
    """The same through the ``wuzi`` an organiser types: a GBK file and a name with an
    escape sequence, each one line on stderr with the escape written out, not sent."""
    wuzi = str(Path(sys.executable).with_name("wuzi"))
    db = str(tmp_path / "e.db")

    def run(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [wuzi, "tournament", "--db", db, *argv], capture_output=True, text=True, timeout=60
        )

    assert run("new", "--format", "round-robin").returncode == 0
    gbk = tmp_path / "gbk.csv"
    gbk.write_bytes("name,sex\n王小明,m\n".encode("gbk"))
    for argv, message in [
        (("import", str(gbk)), "import CSV line 2: not UTF-8"),
        (("add-player", "Ann\x1b]0;owned\x07", "--sex", "f"), "U+001B (ESCAPE"),
        (("add-player", "Ann\n001 x", "--sex", "f"), "U+000A (LINE FEED"),
    ]:
        result = run(*argv)
        assert result.returncode == 1, result
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
        assert message in result.stderr and "\x1b" not in result.stderr


def test_a_stored_bad_name_is_an_error_naming_it(
    desk: Desk, capsys: pytest.CaptureFixture[str]
) -> None:
    """A database written by an older Wuzi (or by hand) with a line break in a name: every
    command that reads it says where, none crashes, none passes the name on."""
    _swiss(desk)
    conn = sqlite3.connect(desk.db)
    conn.execute("UPDATE player SET name = 'Player 2\n001 9999 m    Mallory' WHERE id = 'p2'")
    conn.commit()
    conn.close()
    for argv in (
        ("standings",),
        ("export", "trf"),
        ("export", "csv"),
        ("result", "1", "1", "black"),
    ):
        err = desk.refused(*argv)
        assert "table player, row 'p2', column name: " in err and "U+000A" in err, err
    assert main(["director", "audit", "--db", str(desk.db)]) == 1
    err = capsys.readouterr().err
    assert "table player, row 'p2', column name" in err and "Traceback" not in err
    conn = sqlite3.connect(desk.db)
    conn.execute("UPDATE player SET name = 'Player 2' WHERE id = 'p2'")
    conn.execute("UPDATE entrant SET club = 'A\x1b[2J' WHERE id = 'p3'")
    conn.execute("INSERT INTO log (command) VALUES ('add-player --name=\x1b[2J\u202e')")
    conn.commit()
    conn.close()
    assert "table entrant, row 'p3', column club: " in desk.refused("pair")
    log = desk("log")  # the log reads no names: it shows an old line with its escapes
    assert "--name=\\x1b[2J\\u202e" in log and "\x1b" not in log


NAMES = (
    "L" * 64,
    '=HYPERLINK("http://x/?"&A1,"go")',
    "-5+3",
    "+cmd",
    "@SUM(A1)",
    "<script>alert(1)</script>",
    "王小明",
    'O\'Neil & "Sons"',
)


def _event_with_names(desk: Desk) -> None:
    desk("new", "--format", "swiss", "--rounds", "3", "--name", "<b>Open</b> & =1+1")
    for i, name in enumerate(NAMES, start=1):
        # '--' as a shell user writes it, for the name that starts with '-'
        desk("add-player", "--sex", "m", "--rating", str(2000 - i), "--id", f"p{i}", "--", name)
    desk("pair")
    for board in range(1, 5):
        desk("result", "1", str(board), "black")


def test_the_trf_keeps_every_field_in_its_columns(desk: Desk) -> None:
    _event_with_names(desk)
    trf = desk("export", "trf")
    assert trf.splitlines()[0] == "012 <b>Open</b> & =1+1"
    records = [line for line in trf.splitlines() if line.startswith("001")]
    assert len(records) == len(NAMES) and trf.count("\n") == len(trf.splitlines())
    names = {line[14:47].rstrip() for line in records}
    assert "L" * TRF_NAME_WIDTH in names  # cut to its 33 columns, not into the rating's
    for line in records:
        assert re.fullmatch(r"001 [ \d]{4} m {4}.{33} \d{4} {28}[ \d.]{4} [ \d]{4}", line[:89])
        assert re.fullmatch(r"  [ \d]{4} [wb] [10=]", line[89:99]), line  # round 1 in 92–99


def test_a_number_too_wide_for_its_trf_columns_is_an_error(desk: Desk) -> None:
    desk("new", "--format", "round-robin", "--scoring", "100/50/0")
    for name in ("A", "B", "C"):
        desk("add-player", name, "--sex", "m")
    for round_number in (1, 2):
        desk("pair")
        desk("result", str(round_number), "1", "black")
    err = desk.refused("export", "trf")
    assert "does not fit columns 81–84" in err and "points '200.0'" in err
    assert desk.refused("new", "--format", "swiss", "--scoring", "nan/0/0").count("-100 to 100")


def test_the_csv_has_a_bom_and_no_formula(desk: Desk, tmp_path: Path) -> None:
    _event_with_names(desk)
    out = tmp_path / "standings.csv"
    desk("export", "csv", "--output", str(out))
    data = out.read_bytes()
    assert data.startswith(b"\xef\xbb\xbfplace,shared,id,name,points,")
    rows = list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))
    names = {row["name"] for row in rows}
    for name in NAMES:
        risky = name[0] in "=+-@"
        assert ("'" + name if risky else name) in names, name
    for row in rows:
        assert row["points"][0].isdigit()  # numbers stay numbers


def test_the_html_escapes_every_name(desk: Desk) -> None:
    _event_with_names(desk)
    page = desk("export", "html")
    assert "<script>" not in page and "<b>Open" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "&lt;b&gt;Open&lt;/b&gt; &amp; =1+1" in page
    assert "O&#x27;Neil &amp; &quot;Sons&quot;" in page


def test_withdraw_names_a_round_of_the_event(desk: Desk) -> None:
    _swiss(desk)
    assert "no round 99999999999999999999" in desk.refused(
        "withdraw", "p1", "--from-round", "99999999999999999999"
    )
    assert "numbered from 1, not -5" in desk.refused("withdraw", "p1", "--from-round", "-5")


def test_the_preliminary_refuses_a_file_that_is_not_utf8(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = tmp_path / "games.csv"
    teams = tmp_path / "teams.csv"
    games.write_text("black,white,result,seconds,moves\na1,x,black,300,40\n", encoding="utf-8")
    teams.write_bytes("team,board1,board2,board3\n甲队,a1,a2,a3\n".encode("gbk"))
    assert main(["tournament", "preliminary", str(games), "--teams", str(teams)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("wuzi tournament preliminary: teams CSV line 2: not UTF-8 (byte 1")
    assert err.count("\n") == 1
    teams.write_text("team,board1,board2,board3\n甲队,a1,a2,a3\n", encoding="utf-8-sig")
    assert main(["tournament", "preliminary", str(games), "--teams", str(teams), "--json"]) == 0
