"""The 2019 open's groups as 002 defines them: ``new --group open`` alone makes the open
group (六(一)2, 六(三)2); the men's and women's groups their rules (六(一)1, 六(三)1); a
setting that contradicts the group is refused naming both, unless ``--allow``; ``new``
prints its summary in words."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.seed_events import men_2019
from support.tournament_cli import Wuzi
from wuzi.tournament.awards import compute_awards
from wuzi.tournament.entrants import Group
from wuzi.tournament.errors import SettingsError
from wuzi.tournament.event import EventSettings, Format
from wuzi.tournament.results import MatchKind
from wuzi.tournament.store import TournamentStore

NO_FORBIDDEN = "no-forbidden:overline=both"


@pytest.fixture
def wuzi(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Wuzi:
    return Wuzi(tmp_path / "open.db", capsys)


def test_group_open_alone_is_the_open_group(wuzi: Wuzi) -> None:
    out = wuzi("new", "--format", "swiss", "--rounds", "7", "--group", "open")
    s = TournamentStore(wuzi.db).load().settings
    assert (s.match, s.rules, s.opening, s.time_control) == (
        MatchKind.TWO_GAME,
        NO_FORBIDDEN,
        "free",
        "3600",
    )
    assert "  rules         no forbidden moves (不执行禁手规则)" in out
    assert "  opening       free opening (自由开局)" in out
    assert "a flag while game 1 runs loses the round (002 六(一)2, 六(三)2)" in out
    assert "  game length   3600: 1 h for the whole game each, a flag loses" in out
    assert "no prize money" in out and "8, 10 or 12 by the entrants (002 八(一))" in out
    for label in ("format", "rounds", "scoring", "tie-breaks", "prize places"):
        assert f"\n  {label} " in out
    # a flag in game 1 loses the round: game 2 is not played
    for name, sex in (("甲", "m"), ("乙", "f")):
        wuzi("add-player", name, "--sex", sex)
    wuzi("pair")
    assert "乙" in wuzi("result", "1", "1", "flag:black")
    points = {r.entrant: r.points for r in TournamentStore(wuzi.db).load().standings().rows}
    assert points == {"甲": 0.0, "乙": 1.0}


@pytest.mark.parametrize("group", [Group.MEN, Group.WOMEN])
def test_the_men_s_and_women_s_groups_play_renju_with_designated_openings(group: Group) -> None:
    s = EventSettings.create(Format.SWISS, rounds=9, group=group)
    assert (s.match, s.rules, s.opening, s.time_control) == (
        MatchKind.SINGLE,
        "renju",
        "designated",
        "3600",
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--group", "open", "--rules", "renju"],
            "--rules renju contradicts --group open: the open group plays --rules "
            "no-forbidden (002 六(一)2, 六(三)2); add --allow if that is meant",
        ),
        (["--group", "open", "--match", "single"], "--match single contradicts --group open"),
        (["--group", "open", "--opening", "designated"], "--opening designated contradicts"),
        (["--group", "men", "--rules", "no-forbidden"], "the men's group plays --rules renju"),
        (["--group", "women", "--opening", "free"], "--opening free contradicts --group women"),
        (["--group", "men", "--match", "two-game"], "the men's group plays --match single"),
        (
            ["--opening", "free"],
            "--opening free contradicts --rules renju: renju games use the designated "
            "openings (002 六(一)1, 000 六(三)2)",
        ),
    ],
)
def test_a_setting_that_contradicts_the_group_is_refused_unless_allowed(
    wuzi: Wuzi, argv: list[str], message: str
) -> None:
    new = ["new", "--format", "swiss", "--rounds", "5", *argv]
    assert message in wuzi(*new, code=1)
    assert not wuzi.db.exists()
    wuzi(*new, "--allow")
    assert "--allow" in TournamentStore(wuzi.db).log()[0]


def test_a_shorter_game_is_no_contradiction() -> None:
    """002 六(三)3: a large group may play less; the group does not fix the time."""
    s = EventSettings.create(Format.SWISS, rounds=9, group=Group.OPEN, time_control="1800")
    assert s.time_control == "1800"
    with pytest.raises(SettingsError, match="contradicts --group open"):
        EventSettings.create(Format.SWISS, rounds=9, group=Group.OPEN, rules="renju")


def test_the_open_group_awards_certificates_and_medals_but_no_money_or_titles() -> None:
    """002 八(二) (各组: medals 1–3, certificates), 八(三) (money for men and women only),
    八(四) (the open group: certificates), 八(五) (titles for men and women only)."""
    awards = compute_awards(men_2019(30, Group.OPEN, "2019 公开组"))
    assert awards.prize_places == 10
    assert [(r.place, r.medal, r.money, r.title) for r in awards.rows][:2] == [
        (1, "gold", 0, None),
        (5, None, 0, None),
    ]
    assert {r.certificate for r in awards.rows} == {"certificate"}
    assert any("八(四)" in line for line in awards.basis)
