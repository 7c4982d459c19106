"""The rating list after a rated event, in the forms a federation's rating officer takes.

000 九(二): the final is rated (决赛阶段计算等级分) but awards no titles. Two files:

* ``rating-list`` — TRF-style text (FIDE TRF16's fixed columns, as ``export trf`` writes
  for individual events): ``012`` the event, ``062`` the number of players, ``092`` the
  system, ``XXR`` the rounds, then one ``001`` line per player — start rank (teams in
  entry order, each team's boards 1–3), sex, name (columns 15–47), the rating *before*
  the event (49–52), points (81–84: game points, 1 a win, ½ a draw) and the player's
  team's place (86–89), and one 10-column block per round (opponent's start rank,
  colour ``w`` = Black the first mover / ``b``, result ``1 = 0`` or ``+ -`` a forfeit,
  ``0000 - Z`` not played) — and one ``013`` line per team (the team's name in columns
  5–36, its players' start ranks from column 37, 5 columns each), as TRF16 lists team
  rosters. A rating program recomputes the ratings from these lines; ``###`` lines say
  how Wuzi reads TRF's chess words and give Wuzi's own computed list (``### after``:
  start rank, rating after, change), so a rating officer can check it against theirs.
  Individual events have the same file without the ``013`` lines.
* ``rating-csv`` — the computed list for a spreadsheet (UTF-8 with a BOM, text cells
  made safe as in ``export csv``): ``rank,id,name,sex,team,before,games,score,expected,
  change,after``, highest rating after first (``wuzi.tournament.ratings``: Elo, the
  event's K; playoff games, byes and forfeits not rated).

Only games played over the board count (a forfeit is written, not rated). Pure.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass

from wuzi.tournament.entrants import Player
from wuzi.tournament.errors import SettingsError
from wuzi.tournament.event import Competition
from wuzi.tournament.ratings import expected_score, rating_changes, updated_ratings

__all__ = ["RatingRow", "rating_csv", "rating_rows", "rating_trf"]

CSV_BOM = "\ufeff"
TRF_NAME_WIDTH = 33


@dataclass(frozen=True)
class _Game:
    round: int
    black: str
    white: str
    result: str  # "black", "white", "draw", or a forfeit: "black-by-forfeit" …
    rated: bool


@dataclass(frozen=True)
class RatingRow:
    """One player of the rating list."""

    number: int  # start rank
    id: str
    name: str
    sex: str  # m / f
    team: str  # the team's name ("" in an individual event)
    place: int  # the player's (team's) place
    before: int
    games: int  # rated games
    score: float
    expected: float
    change: float
    after: int


def _players(comp: Competition) -> list[tuple[Player, str, int]]:
    """(player, team name, place) in start order: entry order, a team's boards 1–3."""
    places = _places(comp)
    out: list[tuple[Player, str, int]] = []
    for e in sorted(comp.entrants, key=lambda e: e.order):
        if e.team is not None:
            out.extend((p, e.team.name, places.get(e.id, 0)) for p in e.team.players)
        elif e.player is not None:
            out.append((e.player, "", places.get(e.id, 0)))
    return out


def _places(comp: Competition) -> dict[str, int]:
    if comp.settings.format.is_knockout:
        return {e.id: low for (low, _), e in comp.placements()}
    return {row.entrant: row.place for row in comp.standings().rows}


def _games(comp: Competition) -> Iterator[_Game]:
    """Every game of the rounds between players (team boards included), forfeits too."""
    for g in comp.board_games():
        yield _Game(g.round, g.black, g.white, g.result.value, g.played)


def rating_rows(comp: Competition, k: float | None = None) -> list[RatingRow]:
    """The rating list, highest rating after first (then by start rank)."""
    from wuzi.tournament.ratings import RatedGame

    k = comp.settings.k_factor if k is None else k
    players = _players(comp)
    if not players:
        raise SettingsError("the event has no players: no rating list")
    before = {p.id: float(p.rating) for p, _, _ in players}
    games = [g for g in _games(comp) if g.rated]
    rated = [
        RatedGame(g.black, g.white, {"black": 1.0, "white": 0.0, "draw": 0.5}[g.result])
        for g in games
    ]
    changes = rating_changes(before, rated, k)
    after = updated_ratings(before, rated, k)
    count = dict.fromkeys(before, 0)
    score = dict.fromkeys(before, 0.0)
    expected = dict.fromkeys(before, 0.0)
    for g in rated:
        for who, opponent, s in (
            (g.black, g.white, g.black_score),
            (g.white, g.black, 1 - g.black_score),
        ):
            count[who] += 1
            score[who] += s
            expected[who] += expected_score(before[who], before[opponent])
    rows = [
        RatingRow(
            number,
            p.id,
            p.name,
            p.sex.value,
            team,
            place,
            p.rating,
            count[p.id],
            score[p.id],
            round(expected[p.id], 2),
            round(changes[p.id], 2),
            after[p.id],
        )
        for number, (p, team, place) in enumerate(players, start=1)
    ]
    return sorted(rows, key=lambda r: (-r.after, r.number))


def _put(line: list[str], column: int, width: int, text: str, what: str) -> None:
    if len(text) > width:
        raise SettingsError(
            f"TRF: {what} {text.strip()!r} does not fit columns {column}–{column + width - 1}"
        )
    for offset, char in enumerate(text):
        line[column - 1 + offset] = char


def rating_trf(comp: Competition, k: float | None = None) -> str:
    """The TRF-style rating list (see the module docstring)."""
    from wuzi.tournament.export import trf_text

    s = comp.settings
    rows = rating_rows(comp, k)
    by_id = {r.id: r for r in rows}
    rounds = len(comp.rounds)
    blocks: dict[str, dict[int, str]] = {r.id: {} for r in rows}
    points = dict.fromkeys(by_id, 0.0)
    for g in _games(comp):
        for who, opponent, colour in ((g.black, g.white, "w"), (g.white, g.black, "b")):
            won = g.result.startswith("black") == (who == g.black)
            if g.result == "draw":
                code, value = "=", 0.5
            elif g.result == "double-forfeit":
                code, value = "-", 0.0
            elif g.rated:
                code, value = ("1", 1.0) if won else ("0", 0.0)
            else:
                code, value = ("+", 1.0) if won else ("-", 0.0)
            points[who] += value
            number = by_id[opponent].number
            shown = colour if g.rated else "-"
            blocks[who][g.round] = f"{number:>4} {shown} {code}"
    system = "Team knockout (placement)" if s.team_event else s.format.value
    out = [
        f"012 {trf_text(s.name)}",
        f"062 {len(rows)}",
        f"092 {system}",
        f"XXR {rounds}",
        "### colours: w = Black, the first mover (Gomoku); points: game points (1 a win)",
        f"### rated: 000 九(二) 等级分; Elo K = {comp.settings.k_factor if k is None else k:g};"
        " 49-52 the rating before the event, ### after: start rank, after, change",
    ]
    for r in sorted(rows, key=lambda r: r.number):
        line = [" "] * (91 + 10 * rounds)
        who = f"{r.name!r}:"
        _put(line, 1, 3, "001", "record")
        _put(line, 5, 4, f"{r.number:>4}", f"{who} start rank")
        _put(line, 10, 1, "w" if r.sex == "f" else "m", f"{who} sex")
        _put(line, 15, TRF_NAME_WIDTH, trf_text(r.name, TRF_NAME_WIDTH), f"{who} name")
        _put(line, 49, 4, f"{r.before:>4}" if r.before else "    ", f"{who} rating")
        _put(line, 81, 4, f"{points[r.id]:>4.1f}", f"{who} points")
        _put(line, 86, 4, f"{r.place:>4}", f"{who} place")
        for number in range(1, rounds + 1):
            block = blocks[r.id].get(number, "0000 - Z")
            _put(line, 92 + 10 * (number - 1), 8, block, f"{who} round {number}")
        out.append("".join(line).rstrip())
    teams: dict[str, list[int]] = {}
    for r in sorted(rows, key=lambda r: r.number):
        if r.team:
            teams.setdefault(r.team, []).append(r.number)
    for name, numbers in teams.items():
        line = [" "] * (36 + 5 * len(numbers))
        _put(line, 1, 3, "013", "record")
        _put(line, 5, 32, trf_text(name, 32), f"team {name!r}: name")
        for index, number in enumerate(numbers):
            _put(line, 37 + 5 * index, 4, f"{number:>4}", f"team {name!r}: player")
        out.append("".join(line).rstrip())
    for r in sorted(rows, key=lambda r: r.number):
        out.append(f"### after {r.number:>4} {r.after:>4} {r.change:+.2f}")
    return "\n".join(out) + "\n"


def rating_csv(comp: Competition, k: float | None = None) -> str:
    """The computed rating list as CSV (BOM first; text cells made safe)."""
    from wuzi.tournament.export import csv_text

    buffer = io.StringIO()
    buffer.write(CSV_BOM)
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(
        ["rank", "id", "name", "sex", "team", "place", "before", "games", "score",
         "expected", "change", "after"]
    )  # fmt: skip
    for rank, r in enumerate(rating_rows(comp, k), start=1):
        writer.writerow(
            [rank, csv_text(r.id), csv_text(r.name), r.sex, csv_text(r.team), r.place,
             r.before, r.games, f"{r.score:g}", f"{r.expected:.2f}", f"{r.change:+.2f}",
             r.after]
        )  # fmt: skip
    return buffer.getvalue()
