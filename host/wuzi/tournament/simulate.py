"""A rehearsal: a whole event with random but plausible results, from a seed.

Entrants get ratings around 1750 (σ 180); teams are three such players, a woman on board
3. Each game is decided by the Elo expectation (``ratings.expected_score``) with a small
first-move bonus for Black and a fixed draw rate — high enough that tied team matches, and
so captains' playoffs, happen in most team knockouts. Everything goes through the same
``Competition`` code the organisers' command uses; the same seed gives the same output.

The JSON shapes are a contract (``wuzi tournament simulate --json``):

* team-knockout-placement: ``{"rounds": [{"matches": [{"first", "second", "games":
  [{"board", "black", "result"}], "playoff": [{"black", "result"}], "winner"}]}],
  "standings": [{"place", "team"}]}`` — a walkover against a bye is not a match and is left
  out;
* knockout-placement: the same with ``games`` of ``{"black", "result"}`` and standings
  ``{"place", "player"}``;
* swiss and round-robin: ``{"rounds": [{"games": [{"black", "white", "result"}]}],
  "standings": [{"place", "player", "points", "tiebreaks": {"buchholz",
  "median_buchholz", "sonneborn_berger", "wins"}}]}``, ``white`` null and ``result``
  ``"bye"`` for a bye.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from wuzi.rules.board import Colour
from wuzi.tournament.entrants import Player, Sex, Team
from wuzi.tournament.errors import SettingsError
from wuzi.tournament.event import (
    MAX_SWISS_ROUNDS,
    Competition,
    EventSettings,
    Format,
    default_swiss_rounds,
    playoff_black_entrant,
)
from wuzi.tournament.history import Pairing
from wuzi.tournament.knockout import round_count as knockout_rounds
from wuzi.tournament.ratings import expected_score
from wuzi.tournament.results import GameResult, MatchKind, RoundResult
from wuzi.tournament.roundrobin import round_count as round_robin_rounds
from wuzi.tournament.tiebreaks import Tiebreak

FIRST_MOVE_BONUS = 35.0  # Elo points Black is worth in a game between equals
DRAW_RATE = 0.2
MAX_ENTRANTS = 1000
SHOWN_TIEBREAKS = (
    Tiebreak.BUCHHOLZ,
    Tiebreak.MEDIAN_BUCHHOLZ,
    Tiebreak.SONNEBORN_BERGER,
    Tiebreak.WINS,
)


def _rating(rng: random.Random) -> int:
    return max(1000, min(2600, round(rng.gauss(1750, 180))))


def _game(rng: random.Random, black: float, white: float) -> GameResult:
    roll = rng.random()
    if roll < DRAW_RATE:
        return GameResult.DRAW
    expected = expected_score(black + FIRST_MOVE_BONUS, white)
    return GameResult.BLACK if roll < DRAW_RATE + (1 - DRAW_RATE) * expected else GameResult.WHITE


def _number(value: float) -> int | float:
    return int(value) if value == int(value) else value


class _Simulation:
    def __init__(self, fmt: Format, entrants: int, rounds: int | None, seed: int):
        if not 2 <= entrants <= MAX_ENTRANTS:
            raise SettingsError(f"--entrants must be 2 to {MAX_ENTRANTS}, not {entrants}")
        self.rng = random.Random(seed)
        self.format = fmt
        width = len(str(entrants))
        settings_rounds: int | None = None
        if fmt is Format.SWISS:
            settings_rounds = rounds if rounds is not None else default_swiss_rounds(entrants)
            if not 1 <= settings_rounds <= min(MAX_SWISS_ROUNDS, entrants - 1 + entrants % 2):
                raise SettingsError(
                    f"a Swiss of {entrants} has 1 to "
                    f"{min(MAX_SWISS_ROUNDS, entrants - 1 + entrants % 2)} rounds, not "
                    f"{settings_rounds}"
                )
        double = False
        if fmt is Format.ROUND_ROBIN:
            single = round_robin_rounds(entrants)
            if rounds not in (None, single, 2 * single):
                raise SettingsError(
                    f"a round robin of {entrants} has {single} rounds (double: {2 * single}), "
                    f"not {rounds}"
                )
            double = rounds == 2 * single
        if fmt.is_knockout and rounds not in (None, knockout_rounds(entrants)):
            raise SettingsError(
                f"a knockout of {entrants} has {knockout_rounds(entrants)} rounds, not {rounds}"
            )
        settings = EventSettings.create(
            fmt, name="Rehearsal", rounds=settings_rounds, double_round_robin=double
        )
        made: list[Player | Team] = []
        for i in range(1, entrants + 1):
            if settings.team_event:
                name = f"Team {i:0{width}d}"
                players = tuple(
                    Player(
                        f"{name} #{board}",
                        f"{name} #{board}",
                        Sex.FEMALE if board == 3 else self.rng.choice((Sex.MALE, Sex.FEMALE)),
                        _rating(self.rng),
                    )
                    for board in (1, 2, 3)
                )
                made.append(Team(name, name, players))
            else:
                name = f"Player {i:0{width}d}"
                sex = self.rng.choice((Sex.MALE, Sex.FEMALE))
                made.append(Player(name, name, sex, _rating(self.rng)))
        seeds: dict[str, int] = {}
        if fmt.is_knockout:  # seeded by rating, as organisers would from past results
            by_rating = sorted(made, key=lambda e: -e.rating)
            seeds = {e.id: i + 1 for i, e in enumerate(by_rating)}
        comp = Competition(settings)
        for item in made:
            if isinstance(item, Team):
                comp = comp.add_team(item, seeds.get(item.id))
            else:
                comp = comp.add_player(item, seeds.get(item.id))
        self.comp = comp
        self.ratings = comp.player_ratings()

    def run(self) -> dict[str, Any]:
        comp = self.comp
        while not comp.finished:
            comp = comp.pair()
            rnd = comp.rounds[-1]
            for pairing in rnd.pairings:
                if pairing.second is None:
                    continue
                result, playoff = self._play(pairing)
                comp = comp.set_result(rnd.number, pairing.board, result, playoff)
        self.comp = comp
        if self.format.is_knockout:
            return {"rounds": self._knockout_rounds(), "standings": self._knockout_standings()}
        return {"rounds": self._rounds(), "standings": self._standings()}

    def _play(self, pairing: Pairing) -> tuple[RoundResult, tuple[GameResult, ...]]:
        comp = self.comp
        kind = comp.settings.match
        assert pairing.second is not None
        first, second = comp.entrant(pairing.first), comp.entrant(pairing.second)
        games = []
        for index in range(kind.games):
            if first.team is not None and second.team is not None:
                a = first.team.board(index + 1).id
                b = second.team.board(index + 1).id
            else:
                a, b = first.id, second.id
            black, white = (a, b) if kind.first_colour(index) is Colour.BLACK else (b, a)
            games.append(_game(self.rng, self.ratings[black], self.ratings[white]))
        result = RoundResult(tuple(games))
        playoff: list[GameResult] = []
        if comp.settings.format.is_knockout:
            trial = replace(pairing, result=result)
            while comp.match_winner(replace(trial, playoff=tuple(playoff))) is None:
                black_entrant = playoff_black_entrant(kind, pairing, len(playoff))
                white_entrant = pairing.second if black_entrant == pairing.first else pairing.first
                assert white_entrant is not None
                games_tuple = (self._captain(black_entrant), self._captain(white_entrant))
                playoff.append(
                    _game(self.rng, self.ratings[games_tuple[0]], self.ratings[games_tuple[1]])
                )
        return result, tuple(playoff)

    def _captain(self, entrant: str) -> str:
        e = self.comp.entrant(entrant)
        return e.team.captain.id if e.team is not None else e.id

    def _name(self, entrant: str | None) -> str | None:
        return None if entrant is None else self.comp.entrant(entrant).name

    def _knockout_rounds(self) -> list[dict[str, Any]]:
        comp = self.comp
        kind = comp.settings.match
        rounds = []
        for rnd in comp.rounds:
            matches = []
            for p in rnd.pairings:
                if p.second is None or p.result is None:
                    continue
                games = []
                for index, game in enumerate(p.result.games):
                    first_black = kind.first_colour(index) is Colour.BLACK
                    black = p.first if first_black else p.second
                    entry: dict[str, Any] = {}
                    if kind is MatchKind.TEAM:
                        entry["board"] = index + 1
                    entry["black"] = self._name(black)
                    entry["result"] = game.value
                    games.append(entry)
                playoff = [
                    {
                        "black": self._name(playoff_black_entrant(kind, p, index)),
                        "result": game.value,
                    }
                    for index, game in enumerate(p.playoff)
                ]
                matches.append(
                    {
                        "first": self._name(p.first),
                        "second": self._name(p.second),
                        "games": games,
                        "playoff": playoff,
                        "winner": self._name(comp.match_winner(p)),
                    }
                )
            rounds.append({"matches": matches})
        return rounds

    def _knockout_standings(self) -> list[dict[str, Any]]:
        key = "team" if self.comp.settings.team_event else "player"
        return [{"place": first, key: e.name} for (first, _), e in self.comp.placements()]

    def _rounds(self) -> list[dict[str, Any]]:
        rounds = []
        for rnd in self.comp.rounds:
            games = []
            for p in rnd.pairings:
                if p.second is None:
                    result = "bye"
                else:
                    assert p.result is not None
                    result = p.result.games[0].value
                games.append(
                    {"black": self._name(p.first), "white": self._name(p.second), "result": result}
                )
            rounds.append({"games": games})
        return rounds

    def _standings(self) -> list[dict[str, Any]]:
        rows = []
        for row in self.comp.standings().rows:
            tiebreaks = {t.value: _number(row.tiebreaks[t]) for t in SHOWN_TIEBREAKS}
            tiebreaks["wins"] = int(row.tiebreaks[Tiebreak.WINS])
            rows.append(
                {
                    "place": row.place,
                    "player": self._name(row.entrant),
                    "points": _number(row.points),
                    "tiebreaks": tiebreaks,
                }
            )
        return rows


def simulate(fmt: Format | str, entrants: int, rounds: int | None, seed: int) -> dict[str, Any]:
    """Run a whole event and return ``{"rounds": [...], "standings": [...]}``."""
    if isinstance(fmt, str):
        fmt = Format.parse(fmt)
    return _Simulation(fmt, entrants, rounds, seed).run()
