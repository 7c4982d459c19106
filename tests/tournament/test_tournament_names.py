"""Names in the competition's own values: ``Player``, ``Team`` and ``EventSettings`` refuse a
control, line-break or invisible format character whichever way they are made, naming the
field (``wuzi.tournament.names``)."""

from __future__ import annotations

import pytest

from support.hostile import GOOD_NAMES, HOSTILE_NAMES
from wuzi.tournament.entrants import Player, Sex, Team
from wuzi.tournament.errors import EntryError, SettingsError
from wuzi.tournament.event import Competition, EventSettings, Format
from wuzi.tournament.names import EVENT_NAME_MAX, NAME_MAX, check_name

IDS = [h[0] for h in HOSTILE_NAMES]


def _team(name: str = "T", leader: str = "", coach: str = "", club: str = "") -> Team:
    players = (
        Player("a", "A", Sex.MALE),
        Player("b", "B", Sex.MALE),
        Player("c", "C", Sex.FEMALE),
    )
    return Team(name, name, players, leader, coach, club)


@pytest.mark.parametrize(("label", "bad", "code"), HOSTILE_NAMES, ids=IDS)
def test_a_player_refuses_a_bad_name_id_or_club(label: str, bad: str, code: int) -> None:
    with pytest.raises(EntryError, match=rf"^player name: .*U\+{code:04X}"):
        Player("p1", bad, Sex.MALE)
    with pytest.raises(EntryError, match=rf"^player 'Ann': ID: .*U\+{code:04X}"):
        Player(bad, "Ann", Sex.MALE)
    with pytest.raises(EntryError, match=rf"^player 'Ann': club: .*U\+{code:04X}"):
        Player("p1", "Ann", Sex.MALE, 0, bad)


@pytest.mark.parametrize(("label", "bad", "code"), HOSTILE_NAMES, ids=IDS)
def test_a_team_refuses_a_bad_name_leader_coach_or_club(label: str, bad: str, code: int) -> None:
    with pytest.raises(EntryError, match=rf"^team name: .*U\+{code:04X}"):
        _team(bad)
    for role in ("leader", "coach", "club"):
        with pytest.raises(EntryError, match=rf"^team 'T': {role}: .*U\+{code:04X}"):
            _team(**{role: bad})


@pytest.mark.parametrize(("label", "bad", "code"), HOSTILE_NAMES, ids=IDS)
def test_an_event_name_is_checked_before_it_is_trimmed(label: str, bad: str, code: int) -> None:
    with pytest.raises(SettingsError, match=rf"^event name: .*U\+{code:04X}"):
        EventSettings.create(Format.ROUND_ROBIN, name=bad)
    # a name that is only a line break is not quietly replaced by the default name
    with pytest.raises(SettingsError, match=r"U\+000A"):
        EventSettings.create(Format.ROUND_ROBIN, name="\n")


@pytest.mark.parametrize("name", GOOD_NAMES)
def test_good_names_enter_an_event(name: str) -> None:
    comp = Competition(EventSettings.create(Format.ROUND_ROBIN, name=name))
    comp = comp.add_player(Player(name, name, Sex.FEMALE, 1500, name))
    assert comp.entrant(name).name == name and comp.settings.name == name


def test_the_limits() -> None:
    Player("p", "x" * NAME_MAX, Sex.MALE)
    with pytest.raises(EntryError, match=f"65 characters long; at most {NAME_MAX}"):
        Player("p", "x" * (NAME_MAX + 1), Sex.MALE)
    EventSettings.create(Format.ROUND_ROBIN, name="e" * EVENT_NAME_MAX)
    with pytest.raises(SettingsError, match=f"at most {EVENT_NAME_MAX}"):
        EventSettings.create(Format.ROUND_ROBIN, name="e" * (EVENT_NAME_MAX + 1))
    with pytest.raises(EntryError, match=r"^player name: is empty$"):
        Player("p", " ", Sex.MALE)
    with pytest.raises(SettingsError, match=r"^--reason: "):
        check_name("--reason", "a\x1bb", error=SettingsError)


def test_a_seed_is_bounded() -> None:
    comp = Competition(EventSettings.create(Format.ROUND_ROBIN))
    with pytest.raises(EntryError, match="a seed is 1 to 9999, not 10000000000000000000000"):
        comp.add_player(Player("p", "P", Sex.MALE), 10**22)
