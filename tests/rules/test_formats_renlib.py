"""RenLib .pos and .lib: byte layouts from RenLib's source; errors name the byte offset."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_record import P, move_lists, sample_record

from wuzi.rules.board import POINTS
from wuzi.rules.errors import RecordFormatError
from wuzi.rules.formats.renlib import LIB_HEADER, export_lib, export_pos, load_lib, load_pos
from wuzi.rules.record import GameRecord, RecordedMove, alternating_moves


def _renlib_pos_byte(name: str) -> int:
    """RenLib's Pos::Save: (y - 1) * 15 + x - 1, x from the left, y from the top (1-based)."""
    p = P(name)
    x, y = p % 15 + 1, 15 - p // 15
    return (y - 1) * 15 + x - 1


def test_pos_bytes_follow_renlib() -> None:
    record = GameRecord.from_points([P("h8"), P("i9"), P("a1"), P("o15")])
    data = export_pos(record)
    assert data == bytes([4, 112, 98, 210, 14])
    assert list(data[1:]) == [_renlib_pos_byte(n) for n in ("h8", "i9", "a1", "o15")]


def _plain(moves: tuple[RecordedMove, ...]) -> GameRecord:
    return GameRecord(moves=alternating_moves([m.point for m in moves]))


@settings(max_examples=100, deadline=None)
@given(move_lists(max_size=225, passes=False))
def test_pos_round_trips_the_moves(moves: tuple[RecordedMove, ...]) -> None:
    record = _plain(moves)
    assert load_pos(export_pos(record)) == record


def test_pos_cannot_hold_a_pass() -> None:
    with pytest.raises(RecordFormatError, match="move 2 is a pass"):
        export_pos(GameRecord.from_points([P("h8"), None]))


def test_an_empty_pos_is_one_zero_byte() -> None:
    assert export_pos(GameRecord()) == b"\x00"
    assert load_pos(b"\x00") == GameRecord()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "byte 0: empty file"),
        (bytes([226]), "byte 0: 226 moves is more than the board's 225 points"),
        (bytes([3, 112, 98]), "byte 3: the file ends after 2 of its 3 moves"),
        (bytes([2, 112, 225]), "byte 2: 225 is not a point"),
        (bytes([3, 112, 98, 112]), "byte 3: h8 is already occupied (byte 1)"),
    ],
)
def test_pos_errors_name_the_byte(data: bytes, message: str) -> None:
    with pytest.raises(RecordFormatError) as info:
        load_pos(data)
    assert message in str(info.value)


def test_pos_refuses_text() -> None:
    with pytest.raises(RecordFormatError, match="binary"):
        load_pos("h8 i9")


# --- .lib -------------------------------------------------------------------------------


def test_lib_layout_of_one_game() -> None:
    record = GameRecord.from_points([P("h8"), P("i9"), None])
    data = export_lib(record)
    assert data[:20] == bytes([0xFF, *b"RenLib", 0xFF, 3, 4]) + b"\xff" * 10
    # root, then h8 = 0x78 (RenLib's centre), i9 = 16 * 6 + 9, a pass = 0; the last node
    # has no children (0x40) and a comment (0x08)
    assert data[20:28] == bytes([0x00, 0x00, 0x78, 0x00, 0x69, 0x00, 0x00, 0x48])
    comment = data[28:]
    assert len(comment) % 2 == 0 and comment.rstrip(b"\x00").startswith(b"Black - White\x08")


def test_lib_comment_names_players_and_result() -> None:
    data = export_lib(sample_record())
    assert b"Ana Kask (Tallinn) - Li Wei (Shanghai) 0-1\x08Team final" in data


@settings(max_examples=100, deadline=None)
@given(move_lists(max_size=100))
def test_lib_round_trips_moves_and_passes(moves: tuple[RecordedMove, ...]) -> None:
    record = _plain(moves)
    assert load_lib(export_lib(record)) == record


def _node(name: str | None, flags: int = 0) -> bytes:
    if name is None:
        return bytes([0, flags])
    p = P(name)
    return bytes([16 * (14 - p // 15) + p % 15 + 1, flags])


def test_lib_reads_the_first_variation_of_a_tree() -> None:
    # root; h8; under it i9 (with j10 below) and, as a sibling of i9, g7 — written in
    # RenLib's pre-order with its on-disk flags: 0x80 "a sibling follows", 0x40 "leaf".
    data = (
        LIB_HEADER
        + _node(None)
        + _node("h8")
        + _node("i9", 0x80 | 0x08)
        + b"a comment\x00"
        + _node("j10", 0x40)
        + _node("g7", 0x40)
    )
    assert load_lib(data).points == (P("h8"), P("i9"), P("j10"))


def test_lib_skips_labels_and_board_texts() -> None:
    data = (
        LIB_HEADER
        + _node(None)
        + _node("h8")
        + _node("a1", 0x80 | 0x40 | 0x02 | 0x01)  # a board label only, with an extension
        + bytes([0x00, 0x01])  # extension: a board text follows
        + b"A\x00"
        + _node("i9", 0x40)
    )
    assert load_lib(data).points == (P("h8"), P("i9"))


def test_lib_reads_old_version_files_without_a_root() -> None:
    old = bytes([0xFF, *b"RenLib", 0xFF, 3, 0]) + b"\xff" * 10
    assert load_lib(old + _node("h8") + _node("i9", 0x40)).points == (P("h8"), P("i9"))
    assert load_lib(_node("h8") + _node("g7", 0x40)).points == (P("h8"), P("g7"))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"RenLib", "byte 0: not a RenLib library"),
        (bytes([0xFF, *b"RenLib", 0xFF, 3, 9]) + b"\xff" * 10, "byte 8: library version 3.9"),
        (LIB_HEADER + _node(None) + b"\x78", "byte 22: the file ends inside a node"),
        (LIB_HEADER + _node(None) + bytes([0x10, 0]), "byte 22: 0x10 is not a point"),
        (LIB_HEADER + _node(None) + _node("h8", 0x08) + b"abc", "the text that starts at byte 24"),
        (
            LIB_HEADER + _node(None) + _node("h8", 0xC0) + _node("h8", 0x40),
            "",  # the same point twice in a line is merged, as RenLib does: no error
        ),
    ],
)
def test_lib_errors_name_the_byte(data: bytes, message: str) -> None:
    if not message:
        assert load_lib(data).points == (P("h8"),)
        return
    with pytest.raises(RecordFormatError) as info:
        load_lib(data)
    assert message in str(info.value)


def test_lib_refuses_a_line_that_reuses_a_point() -> None:
    data = LIB_HEADER + _node(None) + _node("h8") + _node("i9") + _node("h8", 0x40)
    with pytest.raises(RecordFormatError, match="byte 26: h8 is already occupied \\(byte 22\\)"):
        load_lib(data)


@given(st.binary(max_size=80))
def test_lib_and_pos_never_crash_on_noise(data: bytes) -> None:
    for loader in (load_lib, load_pos):
        try:
            record = loader(data, warn=lambda message: None)
        except RecordFormatError:
            continue
        assert len([m for m in record.moves if m.point is not None]) <= POINTS


def test_the_lib_comment_names_the_game() -> None:
    data = export_lib(sample_record())
    text = data[data.index(b"Ana Kask") :].decode("utf-8", "replace")
    for part in ("Ana Kask (Tallinn) - Li Wei (Shanghai) 0-1", "Team final", "Round: 4"):
        assert part in text
    for part in ("Match: 3", "Board: 1", "Table: 12", "Start: 2026-05-01T09:30:00+08:00"):
        assert part in text


def test_a_library_of_several_games_shares_their_first_moves() -> None:
    """A round's games as one library: h8 h9 i10 / h8 h9 g7 / h8 i9 share h8 (and h9);
    node flags from RenLib's LibraryFile.cpp (0x80 a sibling follows, 0x40 a leaf, 0x08 a
    comment follows); the first variation reads back as the first game."""
    from wuzi.rules.formats.renlib import export_lib_games

    games = [
        GameRecord.from_points([P("h8"), P("h9"), P("i10")], round="1", match=1),
        GameRecord.from_points([P("h8"), P("h9"), P("g7")], round="1", match=2),
        GameRecord.from_points([P("h8"), P("i9")], round="1", match=3),
    ]
    data = export_lib_games(games)
    assert data.startswith(LIB_HEADER)
    body = data[len(LIB_HEADER) :]
    nodes = [body[0:2], body[2:4], body[4:6], body[6:8]]
    assert nodes == [bytes([0, 0]), bytes([0x78, 0]), bytes([0x68, 0x80]), bytes([0x59, 0xC8])]
    assert b"Match: 2" in data and b"Match: 3" in data
    assert load_lib(data).points == games[0].points


def test_a_sibling_mark_on_the_root_does_not_lose_the_root() -> None:
    """A library whose first node marks a sibling and closes a branch at once (a fuzzer's
    find) is read, not an IndexError: the root has no siblings and stays."""
    data = b"\xffRenLib\xff" + bytes(13) + b"\xc0\x00\x00"
    record = load_lib(data)
    assert len(record.moves) <= 1
