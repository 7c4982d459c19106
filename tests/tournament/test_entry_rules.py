"""The 2021 entry rules checked when teams are entered, each refusal naming the rule and
its clause: one professional team per unit (000 五(一)2), three players with a woman on
board 3 (000 五(一)3); and the open's groups (002 五(二))."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.championship import semifinal_csv
from support.tournament_cli import Wuzi


@pytest.fixture
def wuzi(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Wuzi:
    w = Wuzi(tmp_path / "semi.db", capsys)
    w("new", "--format", "team-semifinal")
    return w


def add_team(wuzi: Wuzi, name: str, group: str, seed: int, unit: str, code: int = 0) -> str:
    return wuzi(
        "add-team", name, "--group", group, "--seed", str(seed), "--club", unit,
        "--player", f"{name}一,m,2000", "--player", f"{name}二,m,1990",
        "--player", f"{name}三,f,1980", code=code,
    )  # fmt: skip


def test_one_professional_team_per_unit(wuzi: Wuzi) -> None:
    add_team(wuzi, "浙江队", "pro", 1, "浙江")
    before = wuzi.db.read_bytes()
    err = add_team(wuzi, "浙江二队", "pro", 2, "浙江", code=1)
    assert err == (
        "wuzi tournament add-team: team '浙江二队': its unit 浙江 already has a professional "
        "team, '浙江队' (pro #1); 000 五(一)2: 每单位限报1支队伍\n"
    )
    assert wuzi.db.read_bytes() == before
    add_team(wuzi, "浙江棋院", "public", 1, "浙江")  # the public group has no such limit
    add_team(wuzi, "杭州队", "public", 2, "杭州")
    add_team(wuzi, "杭州二队", "public", 3, "杭州")


def test_an_import_with_two_professional_teams_of_one_unit_is_refused(
    wuzi: Wuzi, tmp_path: Path
) -> None:
    good = semifinal_csv(tmp_path)
    lines = good.read_text(encoding="utf-8").splitlines()
    # 专2 (pro #2) enters for 专1's unit
    lines = [line.replace(",专2市,", ",专1市,") for line in lines]
    bad = tmp_path / "bad.csv"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    before = wuzi.db.read_bytes()
    err = wuzi("import", str(bad), code=1)
    assert "its unit 专1市 already has a professional team, '专1' (pro #1); 000 五(一)2" in err
    assert wuzi.db.read_bytes() == before  # all or nothing
    assert "imported 16 entrants" in wuzi("import", str(good))


def test_three_players_and_a_woman_on_board_3(wuzi: Wuzi, tmp_path: Path) -> None:
    lines = semifinal_csv(tmp_path).read_text(encoding="utf-8").splitlines()
    lines = [line.replace("众1三台,f,", "众1三台,m,") for line in lines]
    bad = tmp_path / "man.csv"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert "is entered as male (000 五(一)3: 女选手在第三台)" in wuzi("import", str(bad), code=1)
    err = wuzi("add-team", "X", "--group", "public", "--seed", "1", "--player", "a,m,1",
               code=1)  # fmt: skip
    assert "a team has exactly 3 players in board order (--player three times), not 1" in err


def dated(path: Path, dates: dict[str, str]) -> Path:
    """``path`` with a ``registered`` column: each team's date from ``dates``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out = [lines[0] + ",registered"]
    out += [line + "," + dates.get(line.split(",")[0], "2021-12-30") for line in lines[1:]]
    dated_path = path.with_name("dated-" + path.name)
    dated_path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return dated_path


def test_registration_in_time(wuzi: Wuzi, tmp_path: Path) -> None:
    """000 十(二): the preliminary's entries from 2021-12-29 to 2022-01-01; a late form is
    not taken. The window is given on the command line; the forms carry their dates."""
    window = ["--registration-window", "2021-12-29..2022-01-01"]
    late = dated(semifinal_csv(tmp_path), {"专5": "2022-01-02"})
    before = wuzi.db.read_bytes()
    err = wuzi("import", str(late), *window, code=1)
    assert "team '专5' registered on 2022-01-02, outside the registration window " in err
    assert "2021-12-29..2022-01-01 (000 十(二), 十(三)" in err
    assert wuzi.db.read_bytes() == before
    undated = semifinal_csv(tmp_path)
    assert "team '众1' has no registration date" in wuzi("import", str(undated), *window, code=1)
    err = wuzi("import", str(undated), "--registration-window", "2022-01-01..2021-12-29", code=1)
    assert "give FROM..UNTIL, two dates YYYY-MM-DD, the first not after the last" in err
    bad = dated(semifinal_csv(tmp_path), {"众2": "30.12.2021"})
    assert "team '众2': registered: '30.12.2021' is not a date" in wuzi("import", str(bad), code=1)
    in_time = dated(semifinal_csv(tmp_path), {"专5": "2022-01-01"})
    assert "imported 16 entrants" in wuzi("import", str(in_time), *window)
