"""Event settings accept exactly the time controls a table clock can run, and their
defaults are the regulations' (each clause in docs/tournament.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from wuzi.cli import main
from wuzi.tournament.errors import SettingsError
from wuzi.tournament.results import MatchKind
from wuzi.tournament.settings import EventSettings, Format


@pytest.mark.parametrize("spec", ["3600", "2700+30", "40/5400:1800+30", "600:5x30", "300d5"])
def test_clock_specs_are_accepted(spec: str) -> None:
    settings = EventSettings.create(Format.SWISS, rounds=7, time_control=spec)
    assert settings.time_control == spec


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ("36\u00b2", "'\u00b2'"),  # a superscript digit is not a digit of seconds
        ("abc", "character 1 'a'"),
        ("", "empty"),
        ("0", "time control '0'"),
    ],
)
def test_bad_time_controls_name_the_fault(spec: str, fragment: str) -> None:
    with pytest.raises(SettingsError) as info:
        EventSettings.create(Format.SWISS, rounds=7, time_control=spec)
    assert fragment in str(info.value)


def test_playoff_time_control_is_labelled() -> None:
    with pytest.raises(SettingsError, match=r"^playoff time control: "):
        EventSettings.create(Format.SWISS, rounds=7, playoff_time_control="5m")


# -- the regulations' defaults (docs/tournament.md, "Defaults and the clauses") ----------

SWISS_2019 = ("buchholz", "median_buchholz", "wins")  # 002 六(四)2: 对手分, 中间对手分, 胜局


@pytest.mark.parametrize(
    ("fmt", "match", "order"),
    [
        (Format.SWISS, "single", SWISS_2019),
        (Format.SWISS, "two-game", SWISS_2019),  # game points are not in 六(四)2's list
        (Format.SWISS, "team", ("game_points", *SWISS_2019)),  # no regulation: see the docs
        (Format.ROUND_ROBIN, "single", ("sonneborn_berger", "wins", "direct_encounter")),
        (Format.ROUND_ROBIN, "two-game", ("game_points", "wins", "direct_encounter")),
        (Format.TEAM_KNOCKOUT_PLACEMENT, None, ()),
        (Format.TEAM_SEMIFINAL, None, ()),
    ],
)
def test_tiebreak_defaults_follow_the_regulations(
    fmt: Format, match: str | None, order: tuple[str, ...]
) -> None:
    kind = MatchKind.parse(match) if match else None
    settings = EventSettings.create(fmt, rounds=7 if fmt is Format.SWISS else None, match=kind)
    assert tuple(t.value for t in settings.tiebreaks) == order


def test_other_defaults_follow_the_regulations() -> None:
    swiss = EventSettings.create(Format.SWISS, rounds=9)
    assert (swiss.time_control, str(swiss.scoring), swiss.rules, swiss.opening) == (
        "3600",  # 002 六(三)1
        "1/0.5/0",
        "renju",  # 002 六(一)1
        "designated",
    )
    final = EventSettings.create(Format.TEAM_KNOCKOUT_PLACEMENT)
    assert (final.time_control, str(final.game_scoring)) == ("2700+30", "2/1/0")  # 000 六(三)4
    assert final.prizes == (30000, 18000, 12000, 9000, 7500, 6000, 4500, 3000)  # 000 九(三)
    semi = EventSettings.create(Format.TEAM_SEMIFINAL)
    assert (semi.match, semi.prizes) == (MatchKind.TEAM, ())
    with pytest.raises(SettingsError, match="a team-semifinal event plays team matches"):
        EventSettings.create(Format.TEAM_SEMIFINAL, match=MatchKind.SINGLE)
    with pytest.raises(SettingsError, match="follows from the field"):
        EventSettings.create(Format.TEAM_SEMIFINAL, rounds=1)


def test_new_prints_the_order_it_chose_and_its_help_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "open.sqlite")
    argv = ["tournament", "--db", db, "new", "--format", "swiss", "--rounds", "7"]
    assert main([*argv, "--match", "two-game", "--rules", "no-forbidden"]) == 0
    assert "tie-breaks buchholz, median_buchholz, wins)" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["tournament", "new", "--help"])
    text = "".join(capsys.readouterr().out.split())  # argparse wraps lines, also at "-"
    assert "Swisstie-breaksbuchholz,median_buchholz,winsforsingleandtwo-gamerounds" in text
    assert "(002六(四)2)" in text and "game_pointsfirstforteamrounds" in text
