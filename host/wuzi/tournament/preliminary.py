"""The online preliminary (预选赛, popular-rules group): scoring from a CSV of games.

Players play as many games as they like on the platform; a game *counts* only if it
lasted at least 2 minutes in total and at least 10 moves. A counted game scores 2 for a
win, 1 for a draw and 0 for a loss (configurable); a team's score is the sum of its three
players'. Games against players outside every team count for the team player only.

Teams are ranked by six levels, in order (regulation 六.(一).1.(6)):

1. team points — higher first;
2. total games counted — fewer first;
3. the lowest member score — higher first;
4. the fewest games of a member — fewer first;
5. the second-lowest member score — higher first;
6. the second-fewest games of a member — fewer first;

then, for a tie that touches a qualifying place, lots (网络视频抽签), drawn as every Wuzi
lot is (``draw.Lots``) from a seed announced beforehand or drawn fresh and printed, so the
draw can be repeated before witnesses; other ties share the place.

CSV of games: a header row naming the columns ``black``, ``white``, ``result`` (black,
white, draw, or 1-0 / 0-1 / ½-½), ``seconds`` (the game's total duration; or ``duration``
as ``m:ss`` or ``h:mm:ss``) and ``moves``; other columns are ignored. CSV of teams: ``team``,
``board1``, ``board2``, ``board3`` (the players' platform IDs, in board order). Every cell
read holds no control, line-break or invisible format character (``csvfile.check_cell``);
errors name the line and column.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from wuzi.base.numbers import NumberError, parse_int
from wuzi.rules.board import Colour
from wuzi.tournament.csvfile import check_cell, csv_records
from wuzi.tournament.draw import Lots
from wuzi.tournament.errors import CsvError, ResultError
from wuzi.tournament.names import NAME_MAX
from wuzi.tournament.results import GameResult, Scoring

MIN_SECONDS = 120
MIN_MOVES = 10
PRELIMINARY_SCORING = Scoring(2.0, 1.0, 0.0)
GAMES_COLUMNS = ("black", "white", "result", "seconds", "duration", "moves")
TEAMS_COLUMNS = ("team", "board1", "board2", "board3")
LEVELS = (
    "team points (higher first)",
    "total games (fewer first)",
    "lowest member score (higher first)",
    "fewest games of a member (fewer first)",
    "second-lowest member score (higher first)",
    "second-fewest games of a member (fewer first)",
)


@dataclass(frozen=True)
class OnlineGame:
    line: int
    black: str
    white: str
    result: GameResult
    seconds: int
    moves: int

    @property
    def counts(self) -> bool:
        """At least 2 minutes and at least 10 moves (有效积分对局)."""
        return self.seconds >= MIN_SECONDS and self.moves >= MIN_MOVES


def _reader(
    lines: Iterable[str], what: str, known: tuple[str, ...]
) -> tuple[list[str], list[tuple[int, dict[str, str]]]]:
    rows = csv_records(lines, f"{what} CSV")
    while rows and not any(cell.strip() for cell in rows[0][1]):
        rows.pop(0)
    if not rows:
        raise CsvError(f"the {what} CSV is empty: it needs a header row")
    first = rows[0][1]
    if first:
        first = [first[0].removeprefix("\ufeff"), *first[1:]]
    header = [h.strip().lower() for h in first]
    records = []
    for number, row in rows[1:]:
        if not any(cell.strip() for cell in row):
            continue
        if len(row) > len(header):
            raise CsvError(
                f"{what} CSV line {number}: {len(row)} cells, the header has {len(header)}"
            )
        for i, cell in enumerate(row):
            if header[i] in known:  # other columns are ignored, also what they hold
                check_cell(f"{what} CSV", number, header[i], cell, NAME_MAX)
        records.append(
            (number, {h: (row[i].strip() if i < len(row) else "") for i, h in enumerate(header)})
        )
    return header, records


_SECONDS = re.compile(r"[0-9]{1,9}(\.[0-9]{0,6})?")
"""Seconds in ASCII digits, at most 9 (31 years) before the point."""


def _duration(text: str, line: int, column: str) -> int:
    try:
        if ":" in text:
            parts = [parse_int(p, "part", 0, 99_999) for p in text.split(":")]
            if len(parts) > 3:
                raise ValueError
            seconds = 0
            for part in parts:
                seconds = seconds * 60 + part
            return seconds
        if not _SECONDS.fullmatch(text):  # float() reads ٣٤ and 1e9 and nan
            raise ValueError
        value = float(text)
    except ValueError:
        raise CsvError(
            f"games CSV line {line}, column {column!r}: {text!r} is not a duration "
            "(seconds, m:ss or h:mm:ss)"
        ) from None
    if value < 0:
        raise CsvError(f"games CSV line {line}, column {column!r}: negative duration {text!r}")
    return int(value)


def parse_games(lines: Iterable[str]) -> list[OnlineGame]:
    """The games of a CSV (see the module docstring); errors name the line and column."""
    header, records = _reader(lines, "games", GAMES_COLUMNS)
    time_column = "seconds" if "seconds" in header else "duration"
    for needed in ("black", "white", "result", time_column, "moves"):
        if needed not in header:
            raise CsvError(
                f"games CSV: the header has no {needed!r} column (it has {', '.join(header)})"
            )
    games = []
    for line, row in records:
        for column in ("black", "white"):
            if not row[column]:
                raise CsvError(f"games CSV line {line}, column {column!r}: empty player ID")
        if row["black"] == row["white"]:
            raise CsvError(f"games CSV line {line}: {row['black']!r} cannot play themself")
        try:
            result = GameResult.parse(row["result"])
        except ResultError as exc:
            raise CsvError(f"games CSV line {line}, column 'result': {exc}") from None
        if not result.played:
            raise CsvError(f"games CSV line {line}, column 'result': online games have no forfeits")
        try:
            moves = parse_int(row["moves"], "moves", 0, 9999)
        except NumberError:
            raise CsvError(
                f"games CSV line {line}, column 'moves': {row['moves']!r} is not a move count"
            ) from None
        seconds = _duration(row[time_column], line, time_column)
        games.append(OnlineGame(line, row["black"], row["white"], result, seconds, moves))
    return games


def parse_teams(lines: Iterable[str]) -> dict[str, tuple[str, str, str]]:
    """Team name → its three players' IDs in board order."""
    header, records = _reader(lines, "teams", TEAMS_COLUMNS)
    for needed in ("team", "board1", "board2", "board3"):
        if needed not in header:
            raise CsvError(f"teams CSV: the header has no {needed!r} column")
    teams: dict[str, tuple[str, str, str]] = {}
    owner: dict[str, str] = {}
    for line, row in records:
        name = row["team"]
        if not name:
            raise CsvError(f"teams CSV line {line}, column 'team': empty team name")
        if name in teams:
            raise CsvError(f"teams CSV line {line}: team {name!r} is listed twice")
        players = (row["board1"], row["board2"], row["board3"])
        for board, player in enumerate(players, start=1):
            if not player:
                raise CsvError(f"teams CSV line {line}, column 'board{board}': empty player ID")
            if player in owner:
                raise CsvError(
                    f"teams CSV line {line}: player {player!r} is already in team {owner[player]!r}"
                )
            owner[player] = name
        teams[name] = players
    return teams


@dataclass(frozen=True)
class PlayerScore:
    player: str
    points: float
    games: int


@dataclass(frozen=True)
class TeamScore:
    team: str
    points: float
    games: int
    members: tuple[PlayerScore, ...]

    @property
    def member_points(self) -> tuple[float, ...]:
        return tuple(sorted(m.points for m in self.members))

    @property
    def member_games(self) -> tuple[int, ...]:
        return tuple(sorted(m.games for m in self.members))

    def levels(self) -> tuple[float, int, float, int, float, int]:
        """The six ranking levels' values (as listed in ``LEVELS``)."""
        points, games = self.member_points, self.member_games
        return (self.points, self.games, points[0], games[0], points[1], games[1])

    def sort_key(self) -> tuple[float, int, float, int, float, int]:
        p, g, low, fewest, low2, fewest2 = self.levels()
        return (-p, g, -low, fewest, -low2, fewest2)


def score_teams(
    teams: Mapping[str, Sequence[str]],
    games: Iterable[OnlineGame],
    scoring: Scoring = PRELIMINARY_SCORING,
) -> list[TeamScore]:
    """Every team's points and game count from the counted games."""
    points: dict[str, float] = {p: 0.0 for players in teams.values() for p in players}
    played: dict[str, int] = dict.fromkeys(points, 0)
    for game in games:
        if not game.counts:
            continue
        for player, colour in ((game.black, Colour.BLACK), (game.white, Colour.WHITE)):
            if player in points:
                points[player] += scoring.points(game.result.fraction(colour))
                played[player] += 1
    result = []
    for team, players in teams.items():
        members = tuple(PlayerScore(p, points[p], played[p]) for p in players)
        result.append(
            TeamScore(team, sum(m.points for m in members), sum(m.games for m in members), members)
        )
    return result


@dataclass(frozen=True)
class PreliminaryPlace:
    place: int
    score: TeamScore
    shared: bool  # level on all six levels, no qualifying place involved
    by_lot: bool  # level on all six levels and ordered by drawing lots


def rank_teams(
    scores: Sequence[TeamScore], qualify: int = 8, seed: int | None = None
) -> list[PreliminaryPlace]:
    """Places by the six levels; lots for ties touching places 1..``qualify``.

    The lots are Wuzi's lots (``draw.Lots``: SHA-256 over ``wuzi-lots-1|preliminary
    p<P>|<seed>|<k>``, the place P the tie starts at), as every other draw, so the order
    can be drawn again before witnesses from the seed announced or printed; a tie that
    needs lots without a ``seed`` is an error, never a fixed generator's choice."""
    ordered = sorted(scores, key=lambda s: (s.sort_key(), s.team))
    groups: list[list[TeamScore]] = []
    for score in ordered:
        if groups and groups[-1][0].sort_key() == score.sort_key():
            groups[-1].append(score)
        else:
            groups.append([score])
    places: list[PreliminaryPlace] = []
    for group in groups:
        place = len(places) + 1
        if len(group) == 1:
            places.append(PreliminaryPlace(place, group[0], False, False))
        elif place <= qualify:
            if seed is None:
                names = ", ".join(s.team for s in group)
                raise ResultError(
                    f"{names} are level on all six levels at place {place}: lots decide "
                    "(000 六(一)1(6)); give the seed of the draw"
                )
            by_name = {s.team: s for s in group}
            drawn = Lots(seed, f"preliminary p{place}").shuffle(sorted(by_name))
            places.extend(
                PreliminaryPlace(place + i, by_name[t], False, True) for i, t in enumerate(drawn)
            )
        else:
            places.extend(PreliminaryPlace(place, s, True, False) for s in group)
    return places
