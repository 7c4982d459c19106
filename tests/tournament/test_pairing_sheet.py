"""``pair --show ROUND``: a paired round printed again (text, JSON, HTML, CSV), the
points as they were when it was paired, and nothing in the database changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.tournament_cli import Wuzi, play_round, swiss_event


@pytest.fixture
def wuzi(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Wuzi:
    return Wuzi(tmp_path / "event.db", capsys)


def test_a_lost_pairing_sheet_is_printed_again_unchanged(wuzi: Wuzi, tmp_path: Path) -> None:
    swiss_event(wuzi)
    wuzi("pair")
    first_print = wuzi("pair", "--show", "1")
    r1 = wuzi.json("pair", "--show", "1")
    for board in (1, 2, 3, 4):
        wuzi("result", "1", str(board), "black")
    round_2 = play_round(wuzi)
    before = wuzi.db.read_bytes()
    # round 1 after its results and round 2: the same sheet, the points before round 1
    assert wuzi("pair", "--show", "1") == first_print
    assert "Player 1 (0)" in first_print and "The first-named has Black." in first_print
    assert wuzi.json("pair", "--show", "1") == r1
    assert wuzi.json("pair", "--show", "2") == round_2
    assert "(1)" in wuzi("pair", "--show", "2")  # round 1's winners had a point
    csv_sheet = wuzi("pair", "--show", "1", "--format", "csv")
    lines = csv_sheet.splitlines()
    assert lines[0] == "\ufeffmatch,board,first,second,black,white,places,by_hand"
    assert lines[5] == "5,,Player 9,bye,,,,"
    page = tmp_path / "round1.html"
    wuzi("pair", "--show", "1", "--format", "html", "--output", str(page))
    text = page.read_text(encoding="utf-8")
    assert "<title>Open men — round 1 of 4</title>" in text and "<td>Player 9</td>" in text
    assert wuzi.db.read_bytes() == before  # nothing changed, not even the log


def test_a_team_match_sheet_has_every_board(wuzi: Wuzi, tmp_path: Path) -> None:
    from support.championship import semifinal_csv

    wuzi("new", "--format", "team-semifinal")
    wuzi("import", str(semifinal_csv(tmp_path)))
    wuzi("pair")
    lines = wuzi("pair", "--show", "1", "--format", "csv").splitlines()
    assert len(lines) == 1 + 8 * 3
    assert lines[1] == "1,1,众1,专8,众1主将,专8主将,,"
    assert lines[2] == "1,2,众1,专8,专8二台,众1二台,,"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--show", "3"], "round 3 is not paired (rounds 1–1 paired)"),
        (["--show", "1", "--replace"], "--show reprints a round; it takes no --fix"),
        (["--show", "1", "--json", "--format", "csv"], "--json or --format csv: give one"),
        (["--format", "csv"], "--format and --output go with --show ROUND"),
    ],
)
def test_bad_reprints_are_refused(wuzi: Wuzi, argv: list[str], message: str) -> None:
    swiss_event(wuzi)
    wuzi("pair")
    before = wuzi.db.read_bytes()
    assert message in wuzi("pair", *argv, code=1)
    assert wuzi.db.read_bytes() == before
