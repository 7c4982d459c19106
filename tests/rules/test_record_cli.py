"""``wuzi rules record convert`` and ``show``, through the real command."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from test_record import P, sample_record

from wuzi.cli import main
from wuzi.rules.formats import read_record, write_record
from wuzi.rules.record import GameRecord

WUZI = Path(sys.executable).with_name("wuzi")


def test_convert_json_to_sgf_and_back_keeps_everything(tmp_path: Path) -> None:
    write_record(sample_record(), tmp_path / "game.json")
    assert (
        main(
            ["rules", "record", "convert", str(tmp_path / "game.json"), str(tmp_path / "game.sgf")]
        )
        == 0
    )
    assert (
        main(
            ["rules", "record", "convert", str(tmp_path / "game.sgf"), str(tmp_path / "back.json")]
        )
        == 0
    )
    assert read_record(tmp_path / "back.json") == sample_record()


def test_convert_with_explicit_formats(tmp_path: Path) -> None:
    (tmp_path / "g.dat").write_text("h8 i9 j10\n", encoding="utf-8")
    code = main(
        [
            "rules",
            "record",
            "convert",
            str(tmp_path / "g.dat"),
            str(tmp_path / "g.out"),
            "--from",
            "moves",
            "--to",
            "pos",
        ]
    )
    assert code == 0
    assert (tmp_path / "g.out").read_bytes() == bytes([3, 112, 98, 84])


def test_show_prints_the_score_sheet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_record(sample_record(), tmp_path / "game.sgf")
    assert main(["rules", "record", "show", str(tmp_path / "game.sgf")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("GAME SCORE SHEET") and "Result: 0-1" in out


def test_a_malformed_file_names_the_line_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "bad.txt").write_text("h8 i9\nj10 q3\n", encoding="utf-8")
    out = tmp_path / "out.json"
    assert main(["rules", "record", "convert", str(tmp_path / "bad.txt"), str(out)]) == 1
    err = capsys.readouterr().err
    assert f"wuzi rules record convert: {tmp_path / 'bad.txt'}: line 2: 'q3' is not a point" in err
    assert not out.exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["convert", "{d}/g.txt", "{d}/g.xyz"], "cannot tell the format of"),
        (["convert", "{d}/none.txt", "{d}/g.json"], "cannot read"),
        (["convert", "{d}/g.txt", "{d}/g.json", "--to", "pgn"], "unknown record format 'pgn'"),
        (["convert", "-", "{d}/g.json"], "--from is needed when the file is '-'"),
        (["convert", "{d}/pass.txt", "{d}/g.pos"], "move 2 is a pass, which a RenLib .pos"),
        (["show", "{d}/g.html"], "written for people; it cannot be read"),
    ],
)
def test_errors_exit_1_with_a_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    (tmp_path / "g.txt").write_text("h8\n", encoding="utf-8")
    (tmp_path / "pass.txt").write_text("h8 pass\n", encoding="utf-8")
    (tmp_path / "g.html").write_text("<html>", encoding="utf-8")
    argv = ["rules", "record", *[a.format(d=tmp_path) for a in args]]
    assert main(argv) == 1
    assert message in capsys.readouterr().err
    assert not (tmp_path / "g.pos").exists()


def test_stdin_and_stdout_through_the_installed_command() -> None:
    done = subprocess.run(
        [str(WUZI), "rules", "record", "convert", "-", "-", "--from", "moves", "--to", "json"],
        input=b"h8 i9 pass\n",
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    from wuzi.rules.record_json import record_from_json

    assert record_from_json(done.stdout) == GameRecord.from_points([P("h8"), P("i9"), None])


def test_help_lists_the_formats() -> None:
    done = subprocess.run(
        [str(WUZI), "rules", "record", "convert", "--help"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and "psq" in done.stdout and ".sheet.txt" in done.stdout


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("g.json", b'{"format": ' + b"9" * 5000 + b"}", "a number of 5000 digits"),
        ("g.json", b'{"format": NaN}', "NaN is not a number in JSON"),
        ("g.json", b"[" * 100_000, "nested too deeply"),
        ("g.psq", b"Piskvorky " + b"9" * 5000 + b"x15, 0:0, 0\n", "line 1:"),
        ("g.psq", b"Piskvorky 15x15, 0:0, 0\n8,8," + b"9" * 5000 + b"\n", ""),
        ("g.txt", b"9" * 5000 + b". h8\n", "is not a point"),
        ("g.txt", b"h" + b"9" * 5000 + b"\n", "line 1: 'h99999999999999999999999999999'… is not"),
        ("g.sgf", b"(;GM[4]SZ[15]WZTB[" + b"9" * 5000 + b"];B[hh])", "at most 15 digits"),
        ("g.sgf", b"(;GM[4]SZ[15];B[hh]WL[1]BL[" + b"9" * 5000 + b"])", "at most 12 digits"),
    ],
)
def test_huge_numbers_and_nesting_are_refused_by_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, data: bytes, message: str
) -> None:
    """Issue 19: numbers of thousands of digits (Python will not convert them) and deep
    nesting are errors naming the file, never a traceback."""
    (tmp_path / name).write_bytes(data)
    code = main(["rules", "record", "show", str(tmp_path / name)])
    err = capsys.readouterr().err
    assert code in (0, 1)
    if message:
        assert code == 1 and f"{tmp_path / name}: " in err and message in err, err


def test_a_record_larger_than_16_mib_is_refused_unread() -> None:
    done = subprocess.run(
        [str(WUZI), "rules", "record", "convert", "-", "-", "--from", "moves", "--to", "json"],
        input=b"h8 " * (6 * 1024 * 1024),
        capture_output=True,
        check=False,
    )
    assert done.returncode == 1
    assert b"-: more than 16777216 bytes: too large for a game record" in done.stderr
