"""``result R M --playoff G,G,…`` on a team match entered as level (3–3): the captains'
playoff (000 六(二), 六(三)3) decides it without the boards typed again, must decide it,
and is changed only with ``--correct``."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.championship import semifinal_csv
from support.tournament_cli import Wuzi
from wuzi.tournament.store import TournamentStore

LEVEL = "black,black,draw"  # 2 + 0 + 1 each: 3-3


@pytest.fixture
def wuzi(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Wuzi:
    w = Wuzi(tmp_path / "semi.db", capsys)
    w("new", "--format", "team-semifinal", "--name", "2021 复赛")
    w("import", str(semifinal_csv(tmp_path)))
    w("pair")
    return w


def test_a_level_match_is_decided_by_its_captains_playoff(wuzi: Wuzi) -> None:
    assert wuzi("result", "1", "1", LEVEL).rstrip().endswith("众1 3 – 3 专8; playoff needed")
    before = wuzi.db.read_bytes()
    # game 1: the second team's captain has Black; a draw decides nothing
    err = wuzi("result", "1", "1", "--playoff", "draw", code=1)
    assert "round 1 match 1 stands level (black,black,draw) and the playoff draw does not " in err
    assert wuzi.db.read_bytes() == before
    out = wuzi("result", "1", "1", "--playoff", "draw,black")  # the first's captain wins
    assert out.rstrip().endswith("winner 众1")
    pairing = TournamentStore(wuzi.db).load().rounds[0].board(1)
    assert str(pairing.result) == LEVEL  # the boards as they were entered
    err = wuzi("result", "1", "1", "--playoff", "white", code=1)
    assert "already has the playoff draw,black; use --correct" in err
    out = wuzi("result", "1", "1", "--playoff", "black", "--correct")
    assert out.rstrip().endswith("winner 专8")


def test_the_playoff_with_the_boards_must_decide_too(wuzi: Wuzi) -> None:
    err = wuzi("result", "1", "2", LEVEL, "--playoff", "draw,draw", code=1)
    assert "does not decide it" in err
    assert "winner" in wuzi("result", "1", "2", LEVEL, "--playoff", "draw,draw,white")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["1", "3"], "give the result, or --playoff G,G,… for a level match"),
        (["1", "3", "--playoff", "black"], "match 3 has no result yet"),
    ],
)
def test_a_playoff_needs_a_level_match_entered(wuzi: Wuzi, argv: list[str], message: str) -> None:
    assert message in wuzi("result", *argv, code=1)


def test_a_decided_match_has_no_playoff(wuzi: Wuzi) -> None:
    wuzi("result", "1", "4", "black,white,draw")
    assert "the match is decided" in wuzi("result", "1", "4", "--playoff", "black", code=1)
