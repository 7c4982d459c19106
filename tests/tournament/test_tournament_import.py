"""CSV import as functions (``importer``, ``csvfile``): unknown columns, bytes that are not
UTF-8, control characters in cells — each an error naming the line (as an editor counts
it) and the column."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from support.hostile import HOSTILE_NAMES
from wuzi.tournament import csvfile
from wuzi.tournament.csvfile import csv_lines, csv_records, decode_csv, read_csv
from wuzi.tournament.errors import CsvError
from wuzi.tournament.event import Competition, EventSettings, Format
from wuzi.tournament.importer import INDIVIDUAL_COLUMNS, TEAM_COLUMNS, import_entrants
from wuzi.tournament.preliminary import parse_games, parse_teams


def _comp(fmt: Format = Format.ROUND_ROBIN) -> Competition:
    return Competition(EventSettings.create(fmt))


def _import(text: str, **options: bool) -> Competition:
    return import_entrants(_comp(), csv_lines(text), **options)


def test_an_unknown_column_is_named_with_the_known_ones() -> None:
    text = "name,sex,ratng\nAnn,f,1800\n"
    with pytest.raises(CsvError) as info:
        _import(text)
    message = str(info.value)
    assert message.startswith("import CSV line 1: unknown column 'ratng' (did you mean 'rating'?)")
    assert ", ".join(INDIVIDUAL_COLUMNS) in message
    assert "--ignore-unknown-columns" in message
    comp = _import(text, ignore_unknown_columns=True)  # today's behaviour, asked for
    assert comp.entrant("Ann").rating == 0


def test_several_unknown_columns_and_a_team_event() -> None:
    with pytest.raises(CsvError, match=r"unknown columns 'note', 'clb' \(did you mean 'club'\?\);"):
        _import("name,sex,note,clb\nAnn,f,x,y\n")
    team = _comp(Format.TEAM_KNOCKOUT_PLACEMENT)
    with pytest.raises(CsvError, match=", ".join(TEAM_COLUMNS)):
        import_entrants(team, csv_lines("team,board,name,sex,capitan\n"))


def test_a_column_without_a_name_is_ignored_while_it_is_empty() -> None:
    comp = _import("name,sex,\nAnn,f,\nBea,f,\n")  # a spreadsheet's trailing comma
    assert len(comp.entrants) == 2
    with pytest.raises(CsvError, match=r"^import CSV line 3, column 3: a value in a column"):
        _import("name,sex,\nAnn,f,\nBea,f,oops\n")
    assert len(_import("name,sex,\nAnn,f,\nBea,f,oops\n", ignore_unknown_columns=True).entrants)


def test_a_repeated_column_is_named() -> None:
    with pytest.raises(CsvError, match="the column 'name' is named twice"):
        _import("name,sex,Name\nAnn,f,Ann\n")


@pytest.mark.parametrize(("label", "bad", "code"), HOSTILE_NAMES, ids=[h[0] for h in HOSTILE_NAMES])
def test_a_bad_character_in_a_cell_names_line_and_column(label: str, bad: str, code: int) -> None:
    # (a file's NUL stops at decode_csv, before the csv module: see below)
    quoted = '"' + bad.replace('"', '""') + '"'
    text = f"name,sex,club\nAnn,f,\nBea,f,{quoted}\nCid,m,\n"
    with pytest.raises(CsvError, match=rf"^import CSV line 3, column 'club': .*U\+{code:04X}"):
        _import(text)
    text = f"name,sex\nAnn,f\n{quoted},m\n"
    with pytest.raises(CsvError, match=rf"^import CSV line 3, column 'name': .*U\+{code:04X}"):
        _import(text)


def test_line_numbers_count_the_lines_of_a_quoted_cell() -> None:
    """A quoted cell spanning lines 2–4 (in a column ignored on request): the bad sex on
    the next record is on line 5, as an editor shows it."""
    text = 'name,sex,note\nAnn,f,"one\ntwo\nthree"\nBea,x,\n'
    with pytest.raises(CsvError, match=r"^import CSV line 5, column 'sex'"):
        _import(text, ignore_unknown_columns=True)


def test_unicode_line_separators_do_not_split_a_record() -> None:
    """``str.splitlines`` would cut at U+2028; ``csv_lines`` does not, so the cell is seen
    whole and refused on its own line."""
    with pytest.raises(CsvError, match=r"^import CSV line 2, column 'name': .*U\+2028"):
        _import("name,sex\nAnn\u2028Bea,f\n")
    assert [line for _, line in csv_records(csv_lines("a\u2028b,c\r\nd,e\n"), "x")] == [
        ["a\u2028b", "c"],
        ["d", "e"],
    ]


def test_a_header_cell_with_a_control_character() -> None:
    with pytest.raises(CsvError, match=r"^import CSV line 1, column 'header 2': .*U\+001B"):
        _import("name,\x1bsex\nAnn,f\n")


def test_a_cell_longer_than_a_name_is_refused() -> None:
    with pytest.raises(CsvError, match=r"^import CSV line 2, column 'club': .* at most 64"):
        _import("name,sex,club\nAnn,f," + "c" * 65 + "\n")


def test_a_cell_beyond_the_csv_modules_limit_names_its_line() -> None:
    with pytest.raises(CsvError, match=r"^import CSV line 3: field larger than field limit"):
        _import("name,sex\nAnn,f\n" + '"' + "x" * 200_000 + '",m\n')


def test_decoding_names_the_line_and_byte() -> None:
    assert decode_csv("\ufeffname,sex\n王,m\n".encode(), "import CSV") == "name,sex\n王,m\n"
    gbk = "name,sex\nAnn,f\n王小明,m\n".encode("gbk")
    with pytest.raises(CsvError) as info:
        decode_csv(gbk, "import CSV")
    assert str(info.value).startswith(
        "import CSV line 3: not UTF-8 (byte 1 of the line is 0xCD; GBK or Windows-1252?)"
    )
    with pytest.raises(
        CsvError, match=r"^import CSV line 2: not UTF-8 .byte 4 of the line is 0xE9"
    ):
        decode_csv("name,sex\nJos\u00e9,m\n".encode("cp1252"), "import CSV")
    with pytest.raises(CsvError, match=r"^teams CSV line 1: the file is UTF-16"):
        decode_csv("team\n".encode("utf-16"), "teams CSV")
    with pytest.raises(CsvError, match=r"^import CSV line 1: the file is a ZIP archive \(an .xlsx"):
        decode_csv(b"PK\x03\x04\x14\x00\x06\x00", "import CSV")
    with pytest.raises(CsvError, match=r"^import CSV line 2, character 4: NUL \(U\+0000\)"):
        decode_csv(b"name,sex\nAnn\x00,f\n", "import CSV")


def test_read_csv_refuses_a_file_too_big(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(csvfile, "MAX_CSV_BYTES", 1024)
    big = tmp_path / "big.csv"
    big.write_bytes(b"name,sex\n" + b"Ann,f\n" * 200)
    with pytest.raises(CsvError, match="larger than 1 KiB, the cap for the entrants CSV"):
        read_csv(big, "import CSV")
    small = tmp_path / "small.csv"
    small.write_bytes(b"name,sex\nAnn,f\n")
    assert read_csv(small, "import CSV") == "name,sex\nAnn,f\n"


def test_the_preliminary_csvs_refuse_control_characters_in_the_columns_they_read() -> None:
    with pytest.raises(CsvError, match=r"^teams CSV line 2, column 'team': .*U\+001B"):
        parse_teams(csv_lines("team,board1,board2,board3\n\x1b[2JT,a,b,c\n"))
    with pytest.raises(CsvError, match=r"^games CSV line 3, column 'white': .*U\+202E"):
        parse_games(
            csv_lines(
                "black,white,result,seconds,moves\na,b,black,300,20\na,\u202eb,white,300,20\n"
            )
        )
    # a platform's other columns are ignored, whatever they hold
    games = parse_games(
        csv_lines('black,white,result,seconds,moves,comment\na,b,black,300,20,"x\ny"\n')
    )
    assert len(games) == 1


@pytest.mark.parametrize(
    ("cells", "column", "problem"),
    [
        (
            "Bo,m,٣٤٥٦,",
            "rating",
            "'٣٤٥٦' is not a whole number in ASCII digits 0-9 (another script's digits)",
        ),
        (
            "Bo,m,３４５６,",
            "rating",
            "'３４５６' is not a whole number in ASCII digits 0-9 (another script's digits)",
        ),
        ("Bo,m,1_900,", "rating", "'1_900' is not a whole number in the digits 0-9"),
        ("Bo,m,4001,", "rating", "'4001' is out of range: the rating is from 0 to 4000"),
        (
            "Bo,m,1900,٢",
            "seed",
            "'٢' is not a whole number in ASCII digits 0-9 (another script's digits)",
        ),
        ("Bo,m,1900,0", "seed", "'0' is out of range: the seed is from 1 to 99999"),
    ],
)
def test_numbers_are_ascii_decimal_in_range(cells: str, column: str, problem: str) -> None:
    """int() read ٣٤٥٦ as 3456: a rating typed on another keyboard reached the TRF."""
    with pytest.raises(CsvError) as info:
        _import(f"name,sex,rating,seed\nAda,f,1900,\n{cells}\n")
    assert str(info.value) == f"import CSV line 3, column {column!r}: {problem}"


def test_read_csv_refuses_what_is_not_a_regular_file(tmp_path: Path) -> None:
    fifo = tmp_path / "entrants.csv"
    os.mkfifo(fifo)
    with pytest.raises(CsvError) as info:
        read_csv(fifo, "import CSV")
    assert str(info.value) == (
        f"import CSV {fifo}: is a FIFO (named pipe), not a regular file (the entrants CSV must"
        " be a file)"
    )
    with pytest.raises(CsvError, match="--men /dev/zero: is a character device"):
        read_csv("/dev/zero", "--men /dev/zero")
