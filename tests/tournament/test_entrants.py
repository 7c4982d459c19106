"""Entrants: the team's board order and the groups' eligibility; errors name the entrant."""

from __future__ import annotations

import pytest

from wuzi.tournament.entrants import Group, Player, Sex, Team, check_group
from wuzi.tournament.errors import EntryError
from wuzi.tournament.event import Competition, EventSettings, Format
from wuzi.tournament.prizes import FINAL_2021_PRIZES_CNY, awards, prize_money, prize_places


def man(name: str, rating: int = 1800) -> Player:
    return Player(name, name, Sex.MALE, rating)


def woman(name: str, rating: int = 1700) -> Player:
    return Player(name, name, Sex.FEMALE, rating)


def test_a_team_is_three_with_a_woman_on_board_three() -> None:
    team = Team("T", "Hangzhou", (man("Li"), man("Wang"), woman("Zhao")))
    assert team.captain.name == "Li" and team.board(3).name == "Zhao"
    with pytest.raises(EntryError, match="board 3 must be a woman, but Wang is entered as male"):
        Team("T", "Hangzhou", (man("Li"), woman("Zhao"), man("Wang")))
    with pytest.raises(EntryError, match="has 2 players"):
        Team("T", "Hangzhou", (man("Li"), woman("Zhao")))
    with pytest.raises(EntryError, match="'Li' on two boards"):
        Team("T", "Hangzhou", (man("Li"), man("Li"), woman("Zhao")))


def test_group_eligibility() -> None:
    check_group(woman("Chen", 1600), Group.MEN)  # a woman rated 1600 may enter the men's
    with pytest.raises(EntryError, match=r"Chen may not enter the men's group.*hers is 1599"):
        check_group(woman("Chen", 1599), Group.MEN)
    with pytest.raises(EntryError, match="Li may not enter the women's group"):
        check_group(man("Li"), Group.WOMEN)
    check_group(man("Li"), Group.OPEN)
    check_group(woman("Chen", 1000), Group.OPEN)
    comp = Competition(EventSettings.create(Format.SWISS, rounds=5, group=Group.WOMEN))
    with pytest.raises(EntryError, match="Li may not enter the women's group"):
        comp.add_player(man("Li"))


def test_entries_are_unique_and_of_the_right_kind() -> None:
    comp = Competition(EventSettings.create(Format.SWISS, rounds=5)).add_player(man("Li"))
    with pytest.raises(EntryError, match="'Li' is already entered"):
        comp.add_player(man("Li"))
    with pytest.raises(EntryError, match="individual event"):
        comp.add_team(Team("T", "T", (man("A"), man("B"), woman("C"))))
    teams = Competition(EventSettings.create(Format.TEAM_KNOCKOUT_PLACEMENT))
    teams = teams.add_team(Team("T", "T", (man("A"), man("B"), woman("C"))), seed=1)
    with pytest.raises(EntryError, match="player ID 'A' is already entered"):
        teams.add_team(Team("U", "U", (man("A"), man("D"), woman("E"))))
    with pytest.raises(EntryError, match="seed 1 is already 'T'"):
        teams.add_team(Team("U", "U", (man("F"), man("D"), woman("E"))), seed=1)
    with pytest.raises(EntryError, match="team event"):
        teams.add_player(man("Z"))
    with pytest.raises(EntryError, match="rating 5000"):
        Player("x", "x", Sex.MALE, 5000)
    assert Sex.parse("女") is Sex.FEMALE
    with pytest.raises(EntryError, match="sex must be m or f"):
        Sex.parse("x")


def test_prize_places_by_field_size_and_the_final_prize_money() -> None:
    assert [prize_places(n) for n in (8, 29, 30, 49, 50, 200)] == [8, 8, 10, 10, 12, 12]
    assert FINAL_2021_PRIZES_CNY == (30000, 18000, 12000, 9000, 7500, 6000, 4500, 3000)
    assert sum(FINAL_2021_PRIZES_CNY) == 90000
    assert prize_money(1) == 30000 and prize_money(8) == 3000 and prize_money(9) == 0
    rows = [(i, f"T{i}") for i in range(1, 17)]
    got = awards(rows, 16, FINAL_2021_PRIZES_CNY)
    assert [(a.place, a.money, a.medal) for a in got][:4] == [
        (1, 30000, True),
        (2, 18000, True),
        (3, 12000, True),
        (4, 9000, False),
    ]
    assert len(got) == 8
