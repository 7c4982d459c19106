"""Playoffs for prize places after the last round of a Swiss or round robin (pure).

002 六(四)1 (round robin) and 2 (Swiss): entrants still level after every tie-break share
the place — 涉及录取名次的进行加赛: unless a prize place (八(一): the top 8, 10 or 12 by
the number of entrants) is involved; then a playoff decides. 六(四)3 says how: two games,
one with each colour, at 5 min + 3 s a move; if still level, single games at 3 min + 2 s
until one side wins. The competition knows which ties need one
(``Standings.playoffs_needed``) and records a decided playoff (``add_tie_playoff``);
this module plays them on the venue's tables:

* when the event's last round is decided, every tie on a prize place gets a playoff
  match — two entrants one match, three or more every two of them (the competition
  orders them by matches won) — numbered over the event, place by place;
* each match has one game at a time (the players are the same), created when the one
  before is final and the playoff still undecided, given the first free table in venue
  order (the table of the match's previous game when it is free);
* when a match is decided its games go into the competition (``director: playoff A B
  g1,g2,…`` in the tournament log, ``place-playoff-decided`` in the audit) and the
  standings show the place it settled;
* a match no longer needed (the organisers corrected a result, or entered the playoff
  themselves with ``wuzi tournament playoff``) has its open games cancelled.
"""

from __future__ import annotations

from itertools import combinations

from wuzi.director.change import Work
from wuzi.director.games import Game
from wuzi.director.matches import DIRECTOR, Floor, cancel, create, is_free
from wuzi.director.schedule import place_pair, place_playoff_game
from wuzi.tournament.playoff import PlayoffKind, playoff_winner
from wuzi.tournament.results import GameResult
from wuzi.tournament.settings import Format

__all__ = ["PlaceMatch", "place_matches", "settle_places"]

PlaceMatch = tuple[int, int, str, str]
"""(match number, place, first, second): ``first`` is Black in playoff game 1."""


def place_matches(work: Work) -> list[PlaceMatch]:
    """The playoff matches the final standings need: none before the last round is
    decided, and none but in a Swiss or round robin (a knockout decides every place
    itself; a semifinal's ties go to the captains)."""
    comp = work.comp
    if comp.settings.format not in (Format.SWISS, Format.ROUND_ROBIN) or not comp.finished:
        return []
    found: list[PlaceMatch] = []
    for place, tied in comp.standings(with_playoffs=False).playoffs_needed:
        for first, second in combinations(tied, 2):  # in the standings' order
            found.append((len(found) + 1, place, first, second))
    return found


def _games(work: Work) -> dict[int, list[Game]]:
    """Every place playoff game not cancelled, by match number, in game order."""
    games: dict[int, list[Game]] = {}
    for game in work.games():
        if game.plan.place is not None and game.state != "cancelled":
            games.setdefault(game.plan.match, []).append(game)
    for listed in games.values():
        listed.sort(key=lambda g: g.plan.index)
    return games


def _played(games: list[Game]) -> tuple[GameResult, ...]:
    """The final games in order, up to the first one not final."""
    played: list[GameResult] = []
    for number, game in enumerate(games, start=1):
        if game.plan.index != number or game.state != "final" or game.result is None:
            break
        played.append(game.result)
    return tuple(played)


def settle_places(floor: Floor, work: Work) -> None:
    """Bring the place playoffs in line with the standings and the games' results."""
    wanted = {m: (place, a, b) for m, place, a, b in place_matches(work)}
    games = _games(work)
    for match, listed in games.items():
        keep = wanted.get(match)
        for game in listed:
            unneeded = keep is None or place_pair(game.plan) != (keep[1], keep[2])
            if unneeded and game.open:
                cancel(work, game, "the standings no longer need this playoff")
    recorded = {frozenset((t.first, t.second)): t for t in work.comp.tie_playoffs}
    for match, (place, first, second) in wanted.items():
        listed = [g for g in games.get(match, []) if place_pair(g.plan) == (first, second)]
        record = recorded.get(frozenset((first, second)))
        if record is not None and record.winner() is not None:
            for game in listed:
                if game.open:
                    cancel(work, game, "the playoff is decided (entered by the organisers)")
            continue
        played = _played(listed)
        if playoff_winner(PlayoffKind.PLACE, played) is not None:
            _decide(work, place, first, second, played)
            continue
        if any(g.open for g in listed):
            continue  # its next game is on a table, or waiting for one
        planned = floor.named(
            place_playoff_game(
                work.comp,
                place,
                match,
                first,
                second,
                len(played) + 1,
                time_scale=floor.time_scale,
                opening=floor.opening,
            )
        )
        work.audit(
            DIRECTOR,
            "playoff-created",
            game=planned.game_id,
            place=place,
            match=match,
            number=len(played) + 1,
            black=planned.black,
            white=planned.white,
            time_control=planned.time_control,
        )
        create(floor, work, planned, _table(floor, work, listed))


def _table(floor: Floor, work: Work, listed: list[Game]) -> int | None:
    """The table of the match's last game if it is free, else the first free table."""
    if listed and listed[-1].table is not None and is_free(work, listed[-1].table):
        return listed[-1].table
    return next((t for t in floor.tables if is_free(work, t)), None)


def _decide(
    work: Work, place: int, first: str, second: str, played: tuple[GameResult, ...]
) -> None:
    comp = work.comp.add_tie_playoff(first, second, played)
    games = ",".join(g.value for g in played)
    work.set_comp(comp, f"director: playoff {first} {second} {games}")
    record = comp.tie_playoffs[-1]
    winner = record.winner()
    standings = comp.standings()
    work.audit(
        DIRECTOR,
        "place-playoff-decided",
        place=place,
        first=comp.entrant(first).name,
        second=comp.entrant(second).name,
        games=[g.value for g in played],
        winner=comp.entrant(winner).name if winner is not None else None,
        places={
            comp.entrant(r.entrant).name: r.place
            for r in standings.rows
            if r.entrant in (first, second)
        },
    )
