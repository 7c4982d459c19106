"""The export of an event's games: the records of this event, one per game, grouped by
round into an SGF collection and a RenLib library each; the HTML report's boards with
numbered stones and the knockout's bracket as a picture."""

from __future__ import annotations

import re

import pytest

from support.director import final
from wuzi.rules.board import parse_point
from wuzi.rules.formats.renlib import LIB_HEADER, load_lib
from wuzi.rules.formats.sgf import load_sgf
from wuzi.rules.record import GameRecord, GameResult, Player
from wuzi.tournament.diagram import board_svg, bracket_svg
from wuzi.tournament.errors import SettingsError
from wuzi.tournament.event import Competition
from wuzi.tournament.export import export_html
from wuzi.tournament.games_export import (
    event_games,
    games_html,
    named_by_id,
    round_files,
    rounds_of,
)
from wuzi.tournament.results import GameResult as Board
from wuzi.tournament.results import RoundResult

EVENT = "决赛"


def game(round_: str, match: int, board: int, moves: str, **fields: object) -> GameRecord:
    points = [None if m == "pass" else parse_point(m) for m in moves.split()]
    values: dict[str, object] = {
        "event": EVENT,
        "round": round_,
        "match": match,
        "board": board,
        "first": Player("王勇", f"p{match}{board}", "上海"),
        "second": Player("郭涛", f"q{match}{board}", "广东"),
        "start_time": "2022-01-15T09:30:00+08:00",
        "result": GameResult("black", "five"),
        "tags": {"game_id": f"r{round_}-m{match}-b{board}"},
    }
    values.update(fields)
    return GameRecord.from_points(points, **values)


def test_only_this_events_records_count_and_a_copy_counts_once() -> None:
    a, b = game("1", 1, 1, "h8 h9"), game("1", 1, 2, "h8 i9")
    other = game("1", 1, 1, "h8", event="another event")
    records, notes = event_games(EVENT, [("x/a", a), ("y/a", a), ("x/b", b), ("x/o", other)])
    assert records == [a, b]
    assert notes == ["1 record(s) of other events or standalone games left out"]


def test_two_different_records_of_one_game_are_an_error_naming_both() -> None:
    a, changed = game("1", 1, 1, "h8 h9"), game("1", 1, 1, "h8 j10")
    with pytest.raises(
        SettingsError, match="game 'r1-m1-b1' has two different records: x/a and y/a"
    ):
        event_games(EVENT, [("x/a", a), ("y/a", changed)])


def test_an_older_hosts_record_is_named_by_its_game_id() -> None:
    old = GameRecord(event=EVENT, tags={"game_id": "r2-m3-b1"})
    assert (named_by_id(old).round, named_by_id(old).match, named_by_id(old).board) == ("2", 3, 1)
    place = named_by_id(GameRecord(tags={"game_id": "pl5-m1-p2"}))
    assert (place.round, place.match) == ("playoff for place 5", 1)
    assert named_by_id(GameRecord(tags={"game_id": "standalone-t1-9"})).round == ""


def test_each_round_is_one_sgf_collection_and_one_renlib_library() -> None:
    games = [
        game("2", 1, 1, "h8 h9 h10"),
        game("1", 2, 1, "h8 i9"),
        game("1", 1, 2, "h8 h7"),
        game("1", 1, 1, "h8 h9"),
        game("playoff for place 5", 1, 1, "h8"),
    ]
    rounds = rounds_of(games)
    assert [(r.round, r.stem) for r in rounds] == [
        ("1", "round-1"),
        ("2", "round-2"),
        ("playoff for place 5", "playoff-for-place-5"),
    ]
    assert [(g.match, g.board) for g in rounds[0].records] == [(1, 1), (1, 2), (2, 1)]
    files = round_files(rounds)
    assert sorted(files) == [
        "playoff-for-place-5.lib",
        "playoff-for-place-5.sgf",
        "round-1.lib",
        "round-1.sgf",
        "round-2.lib",
        "round-2.sgf",
    ]
    collection = files["round-1.sgf"].decode("utf-8")
    trees = ["(;" + t for t in collection.split("(;")[1:]]
    assert len(trees) == 3  # (;…)(;…)(;…): one game tree a game, in match and board order
    assert [load_sgf(t) for t in trees] == list(rounds[0].records)
    assert "EV[决赛]RO[1]GN[round 1, match 1, board 1: 上海 – 广东]" in collection
    library = files["round-1.lib"]
    assert library.startswith(LIB_HEADER) and load_lib(library).points == games[3].points
    assert b"Match: 2" in library and "王勇 (上海) - 郭涛 (广东) 1-0".encode() in library


def test_the_board_diagram_numbers_every_stone() -> None:
    record = game("1", 1, 1, "h8 h9 pass i10")
    svg = board_svg(record, "r1 <b1>")
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert "<title>r1 &lt;b1&gt;</title>" in svg  # escaped
    numbers = re.findall(r'fill="#(?:fff|111)">(\d+)</text>', svg)
    assert numbers == ["1", "2", "4"]  # the pass (3) is numbered but not drawn
    assert svg.count('stroke="#c00"') == 1  # the last stone ringed


def test_the_games_section_has_a_board_and_a_caption_per_game() -> None:
    text = games_html(rounds_of([game("1", 1, 1, "h8 h9"), game("1", 1, 2, "h8")]))
    assert text.count("<svg") == 2 and "<h3>Round 1</h3>" in text
    assert "round 1, match 1, board 1: ● 王勇 (上海) – ○ 郭涛 (广东) — 1-0 (five)" in text


def played_final() -> Competition:
    """The 16-team final with round 1 played (the first-named team wins 5–1)."""
    comp = final().pair()
    win = RoundResult((Board.BLACK, Board.WHITE, Board.DRAW))
    for p in comp.rounds[0].pairings:
        comp = comp.set_result(1, p.board, win)
    return comp.pair()


def test_the_bracket_is_a_picture_of_every_round() -> None:
    comp = played_final()
    svg = bracket_svg(comp)
    assert svg.count("<rect") == 16  # 8 matches in each of the two rounds paired
    assert "places 1–8" in svg and "places 9–16" in svg
    assert svg.count("<polyline") == 16  # every team joined to its next match
    assert 'font-weight="bold">Team 1<' in svg  # a winner in bold
    page = export_html(comp, [game("1", 1, 1, "h8 h9")])
    assert "<h2>Bracket</h2><svg" in page and "<h2>Games</h2>" in page
    assert bracket_svg(Competition(comp.settings)) == ""  # nothing paired: no picture
