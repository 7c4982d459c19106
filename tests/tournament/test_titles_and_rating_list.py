"""Titles (002 八(五)) for the men's and women's groups' place winners, none for the open
group or a team event (000 九(二)); the rating list in TRF style with team rosters and as
CSV with a BOM."""

from __future__ import annotations

import csv
import io

import pytest

from support.director import final
from wuzi.tournament.entrants import Group, Player, Sex
from wuzi.tournament.errors import SettingsError
from wuzi.tournament.event import Competition, EventSettings, Format
from wuzi.tournament.rating_list import rating_csv, rating_rows, rating_trf
from wuzi.tournament.ratings import updated_ratings
from wuzi.tournament.results import GameResult, MatchKind, RoundResult
from wuzi.tournament.titles import DEFAULT_TABLE, TitleRule, award_titles, parse_table


def group_event(group: Group | None, players: int = 4) -> Competition:
    """A round robin of ``players`` (p1 strongest), every game won by the higher seed."""
    comp = Competition(EventSettings.create(Format.ROUND_ROBIN, name="2019 公开赛", group=group))
    sex = Sex.FEMALE if group is Group.WOMEN else Sex.MALE
    for i in range(1, players + 1):
        comp = comp.add_player(Player(f"p{i}", f"选手{i}", sex, 2000 - 10 * i), seed=i)
    while len(comp.rounds) < comp.round_count():
        comp = comp.pair()
        rnd = comp.rounds[-1]
        for p in rnd.pairings:
            if p.second is None:
                continue
            first_wins = int(p.first[1:]) < int(p.second[1:])
            won = (GameResult.BLACK, GameResult.WHITE)  # the first-named Black in game 1
            games = won if first_wins else won[::-1]
            if comp.settings.match is MatchKind.SINGLE:
                games = games[:1]
            comp = comp.set_result(rnd.number, p.board, RoundResult(games))
    return comp


def test_the_mens_group_place_winners_get_the_assumed_titles() -> None:
    titles = award_titles(group_event(Group.MEN))
    assert titles.reason == "" and titles.assumed and not titles.provisional
    assert [(r.place, r.id, r.title) for r in titles.rows] == [
        (1, "p1", "三段 (3 dan)"),
        (2, "p2", "二段 (2 dan)"),
        (3, "p3", "二段 (2 dan)"),
        (4, "p4", "初段 (1 dan)"),
    ]  # 4 entrants: prize places 1–8 (八(一)), all placed


def test_an_organisers_table_replaces_the_assumed_one() -> None:
    table = parse_table([(2, {"from": "1", "to": "2", "title": "二段"})], "t.csv")
    titles = award_titles(group_event(Group.WOMEN), table)
    assert [(r.place, r.title) for r in titles.rows] == [(1, "二段"), (2, "二段")]
    assert not titles.assumed
    with pytest.raises(SettingsError, match=r"t\.csv line 3: places 3–2 are not 1 ≤ from ≤ to"):
        parse_table([(3, {"from": "3", "to": "2", "title": "x"})], "t.csv")
    assert DEFAULT_TABLE[0] == TitleRule(1, 1, "三段 (3 dan)")


def test_the_open_group_and_the_team_final_give_no_titles() -> None:
    assert "men's and women's groups only" in award_titles(group_event(Group.OPEN)).reason
    assert award_titles(final()).reason.startswith("000 九(二)")


def played_final_round() -> Competition:
    comp = final(4).pair()
    for p in comp.rounds[0].pairings:  # the first-named team: boards 1 and 2 won, 3 drawn
        comp = comp.set_result(
            1, p.board, RoundResult((GameResult.BLACK, GameResult.WHITE, GameResult.DRAW))
        )
    return comp


def test_the_rating_list_is_the_elo_of_every_board_game() -> None:
    comp = played_final_round()
    rows = rating_rows(comp)
    assert len(rows) == 12 and [r.after for r in rows] == sorted(
        (r.after for r in rows), reverse=True
    )
    expected = updated_ratings(comp.player_ratings(), comp.rated_games(), comp.settings.k_factor)
    assert {r.id: r.after for r in rows} == expected
    assert all(r.games == 1 for r in rows)


def test_the_trf_rating_list_has_fixed_columns_and_team_rosters() -> None:
    comp = played_final_round()
    lines = rating_trf(comp).splitlines()
    assert lines[0] == "012 决赛" and lines[1] == "062 12" and lines[3] == "XXR 1"
    players = [line for line in lines if line.startswith("001")]
    teams = [line for line in lines if line.startswith("013")]
    assert len(players) == 12 and len(teams) == 4
    first = players[0]
    assert first[4:8] == "   1" and first[14:47].rstrip() == "T1 captain"
    assert first[48:52] == "2099"  # the rating before the event
    assert first[91:99].endswith("w 1")  # board 1, Black (w: the first mover), won
    assert teams[0][4:36].rstrip() == "Team 1" and teams[0][36:].split() == ["1", "2", "3"]
    assert sum(1 for line in lines if line.startswith("### after")) == 12


def test_the_csv_rating_list_has_a_bom_and_every_player() -> None:
    text = rating_csv(played_final_round())
    assert text.startswith("\ufeffrank,id,name,sex,team,place,before,games,score")
    rows = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))
    assert len(rows) == 12 and {r["team"] for r in rows} == {f"Team {i}" for i in range(1, 5)}
    assert rows[0]["rank"] == "1"
