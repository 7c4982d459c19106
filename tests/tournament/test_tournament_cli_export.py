"""``wuzi tournament export games|html|rating-list|rating-csv`` and ``titles`` through the
real command: the files they write, the records they take, and the errors naming what is
wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.tournament_cli import Wuzi, play_round, swiss_event
from wuzi.rules.board import parse_point
from wuzi.rules.formats.sgf import load_sgf
from wuzi.rules.record import GameRecord, GameResult, Player
from wuzi.rules.record_json import record_to_json


@pytest.fixture
def wuzi(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Wuzi:
    return Wuzi(tmp_path / "event.db", capsys)


def write_records(folder: Path, event: str = "Open men") -> None:
    folder.mkdir()
    for board in (1, 2):
        record = GameRecord.from_points(
            [parse_point("h8"), parse_point("h9")],
            event=event,
            round="1",
            match=board,
            first=Player(f"Player {board}", f"p{board}", "Club A"),
            second=Player(f"Player {board + 4}", f"p{board + 4}", "Club B"),
            start_time="2019-07-15T09:00:00+08:00",
            result=GameResult("draw", "agreement"),
            tags={"game_id": f"r1-m{board}-g1"},
        )
        (folder / f"r1-m{board}-g1.json").write_text(record_to_json(record), encoding="utf-8")


def test_export_games_writes_each_rounds_files(
    wuzi: Wuzi, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    swiss_event(wuzi)
    play_round(wuzi)
    write_records(tmp_path / "pi-1")
    out = tmp_path / "out"
    assert wuzi("export", "games", "--records", str(tmp_path / "pi-1"), "--output", str(out)) == ""
    assert sorted(p.name for p in out.iterdir()) == ["round-1.lib", "round-1.sgf"]
    text = (out / "round-1.sgf").read_text(encoding="utf-8")
    assert text.count("(;FF[4]") == 2 and "EV[Open men]RO[1]" in text
    first = load_sgf(text.split(")\n(")[0] + ")")
    assert (first.event, first.round, first.match, first.first.team) == (
        "Open men",
        "1",
        1,
        "Club A",
    )


def test_export_html_draws_the_games_and_rating_exports(wuzi: Wuzi, tmp_path: Path) -> None:
    swiss_event(wuzi)
    play_round(wuzi)
    write_records(tmp_path / "pi-1")
    page = wuzi("export", "html", "--records", str(tmp_path / "pi-1"))
    assert page.count('<svg xmlns="http://www.w3.org/2000/svg" class="board"') == 2
    trf = wuzi("export", "--format", "rating-list")
    assert trf.startswith("012 Open men\n062 9\n") and trf.count("\n001 ") == 9
    table = wuzi("export", "rating-csv", "--k", "10")
    assert table.startswith("\ufeffrank,id,name,sex,team,place,before,games,score")


def test_export_errors_name_what_is_wrong(wuzi: Wuzi, tmp_path: Path) -> None:
    swiss_event(wuzi)
    assert "export games needs the records" in wuzi("export", "games", code=1)
    assert "not a folder" in wuzi(
        "export", "games", "--records", "nowhere", "--output", "o", code=1
    )
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "x.json").write_text('{"format": "wuzi-record", "version": 1, "moves": ["z9"]}')
    err = wuzi("export", "html", "--records", str(bad), code=1)
    assert f"{bad / 'x.json'}: not a Wuzi game record: moves[0]" in err
    assert "--records is for html and games" in wuzi("export", "csv", "--records", str(bad), code=1)
    assert "give the kind once" in wuzi("export", "csv", "--format", "html", code=1)


def round_robin_of_three(wuzi: Wuzi) -> None:
    """The men's group as a round robin of three, p1 beating p2 and p3, p2 beating p3."""
    wuzi("new", "--format", "round-robin", "--name", "Open men", "--group", "men")
    for i in (1, 2, 3):
        wuzi("add-player", f"Player {i}", "--sex", "m", "--rating", "1900", "--id", f"p{i}")
    for _ in range(3):
        data = wuzi.json("pair")
        for p in data["pairings"]:
            if p["white"] is not None:
                won = "black" if p["black"] < p["white"] else "white"
                wuzi("result", str(data["round"]), str(p["board"]), won)


def test_titles_of_the_mens_group(wuzi: Wuzi, tmp_path: Path) -> None:
    round_robin_of_three(wuzi)
    text = wuzi("titles")
    assert "titles per 002 八(五)" in text and "assumed default table" in text
    data = wuzi.json("titles")
    assert data["assumed"] is True and data["reason"] is None
    assert data["titles"][0]["title"] == "三段 (3 dan)"
    table = tmp_path / "titles.csv"
    table.write_text("from,to,title\n1,1,初段\n", encoding="utf-8")
    own = wuzi.json("titles", "--table", str(table))
    assert [t["title"] for t in own["titles"]] == ["初段"] and own["assumed"] is False
    table.write_text("place,title\n1,x\n", encoding="utf-8")
    assert "the header must be from,to,title" in wuzi("titles", "--table", str(table), code=1)
