"""The format registry: names, file endings, dispatch, and the two file helpers."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_record import sample_record

from wuzi.rules.errors import RecordFormatError
from wuzi.rules.formats import FORMATS, export, format_for_path, load, read_record, write_record
from wuzi.rules.record import GameRecord


@pytest.mark.parametrize(
    ("name", "fmt"),
    [
        ("game.json", "json"),
        ("GAME.SGF", "sgf"),
        ("dir.v2/x.psq", "psq"),
        ("a.pos", "pos"),
        ("a.lib", "lib"),
        ("moves.txt", "moves"),
        ("g.moves", "moves"),
        ("final.sheet.txt", "sheet"),
        ("final.html", "sheet-html"),
        ("final.HTM", "sheet-html"),
    ],
)
def test_format_for_path(name: str, fmt: str) -> None:
    assert format_for_path(name) == fmt


def test_unknown_names_and_formats_are_refused_with_the_known_ones() -> None:
    with pytest.raises(RecordFormatError, match=r"cannot tell the format of 'game\.xyz'"):
        format_for_path("game.xyz")
    with pytest.raises(
        RecordFormatError, match="unknown record format 'pgn': known formats are json"
    ):
        export(GameRecord(), "pgn")
    with pytest.raises(RecordFormatError, match="unknown record format"):
        load("", "doc")


def test_text_formats_give_str_and_binary_ones_bytes() -> None:
    record = sample_record()
    for name, f in FORMATS.items():
        data = export(record, name)
        assert isinstance(data, bytes) is f.binary, name


def test_every_readable_format_reads_back_its_own_points() -> None:
    record = sample_record()
    for name, f in FORMATS.items():
        if f.reader is not None:
            assert load(export(record, name), name).points == record.points, name


def test_file_helpers_write_and_read(tmp_path: Path) -> None:
    record = sample_record()
    for name in ("g.json", "g.sgf", "g.pos", "g.lib", "g.psq", "g.txt"):
        path = tmp_path / name
        write_record(record, path)
        assert read_record(path).points == record.points
    assert read_record(tmp_path / "g.sgf") == record
    write_record(record, tmp_path / "sheet.html")
    assert "A4" in (tmp_path / "sheet.html").read_text(encoding="utf-8")
    write_record(record, tmp_path / "x.dat", "json")
    assert read_record(tmp_path / "x.dat", "json") == record


def test_a_played_game_round_trips_through_json_and_sgf() -> None:
    from wuzi.rules.game import Game
    from wuzi.rules.procedure import Seat
    from wuzi.rules.record import ClockReading, Player

    game = Game("renju")
    for i, p in enumerate(["h8", "i9", "j10", "h9", "pass"]):
        clocks = ClockReading(60_000 - 900 * i, 60_000 - 700 * i)
        if p == "pass":
            game.pass_turn(t_ms=1000 * (i + 1), clocks=clocks)
        else:
            game.place(p, t_ms=1000 * (i + 1), clocks=clocks)
    game.resign(Seat.SECOND, t_ms=6500)
    record = game.record(event="Club night", first=Player("Ann"), second=Player("Bo"))
    assert record.points[-1] is None and len(record.moves) == 5
    assert record.result is not None and record.result.winner == "black"
    for fmt in ("json", "sgf"):
        assert load(export(record, fmt), fmt) == record, fmt


@settings(max_examples=200, deadline=None)
@given(
    st.text(alphabet="()[];:\\ \nBWhABGMSZ0123456789,.-abcxyz", max_size=60) | st.text(max_size=40)
)
def test_noise_never_crashes_a_reader(noise: str) -> None:
    for name, f in FORMATS.items():
        if f.reader is None or f.binary:
            continue
        try:
            record = load(noise, name, warn=lambda message: None)
        except RecordFormatError:
            continue
        assert len([m for m in record.moves if m.point is not None]) <= 225
