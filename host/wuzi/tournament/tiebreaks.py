"""Tie-breaks: what each one is, its formula, and its value for every entrant.

All of them rank higher values first. ``P(x)`` is entrant x's points; for every round r,
``f_r`` is x's result fraction (1 win, ½ draw, 0 loss) and ``c_r`` the *opponent
contribution*: ``P(opponent)`` when a game was played, and x's own points ``P(x)`` when it
was not — a bye, a forfeit (won or lost) and a round x was absent from all count as a game
against a virtual opponent with x's own score (the FIDE 2023 "dummy opponent"
convention). So a bye or an opponent's no-show neither helps nor hurts x's Buchholz
against the players x is tied with.

* Buchholz (对手分): ``BH = Σ c_r``.
* Median Buchholz (中间对手分): BH without the single highest and the single lowest
  ``c_r`` (all rounds counted when fewer than three).
* Sonneborn-Berger (索伯分): ``SB = Σ f_r · c_r``.
* Game points (小分): the sum of x's game points; the default for team matches and
  two-game rounds.
* Wins (胜局): games won over the board (a bye or a forfeit win is not a game won).
* Direct encounter (直胜): among the entrants still tied when it is applied, the points x
  scored in games played against the others; used only when every two of them have
  played each other (otherwise it separates nobody and is 0).
* Progressive score (累进分): ``Σ_k P_k(x)``, the sum of x's running points after each
  round, so early points weigh more.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence

from wuzi.tournament.errors import SettingsError
from wuzi.tournament.history import History


class Tiebreak(enum.Enum):
    BUCHHOLZ = "buchholz"
    MEDIAN_BUCHHOLZ = "median_buchholz"
    SONNEBORN_BERGER = "sonneborn_berger"
    GAME_POINTS = "game_points"
    WINS = "wins"
    DIRECT_ENCOUNTER = "direct_encounter"
    PROGRESSIVE = "progressive"

    @property
    def title(self) -> str:
        return _TITLES[self][0]

    @property
    def chinese(self) -> str:
        return _TITLES[self][1]

    @property
    def short(self) -> str:
        return _TITLES[self][2]

    @property
    def formula(self) -> str:
        return _FORMULAS[self]

    @classmethod
    def parse(cls, text: str) -> Tiebreak:
        key = text.strip().lower().replace("-", "_").replace(" ", "_")
        for tiebreak in cls:
            if key in (tiebreak.value, tiebreak.short.lower(), tiebreak.chinese):
                return tiebreak
        raise SettingsError(
            f"unknown tie-break {text.strip()!r}: expected one of "
            + ", ".join(t.value for t in cls)
        )


_TITLES = {
    Tiebreak.BUCHHOLZ: ("Buchholz", "对手分", "BH"),
    Tiebreak.MEDIAN_BUCHHOLZ: ("Median Buchholz", "中间对手分", "MBH"),
    Tiebreak.SONNEBORN_BERGER: ("Sonneborn-Berger", "索伯分", "SB"),
    Tiebreak.GAME_POINTS: ("Game points", "小分", "GP"),
    Tiebreak.WINS: ("Wins", "胜局", "W"),
    Tiebreak.DIRECT_ENCOUNTER: ("Direct encounter", "直胜", "DE"),
    Tiebreak.PROGRESSIVE: ("Progressive score", "累进分", "PS"),
}

_UNPLAYED = "an unplayed round (bye, forfeit, absence) counts the entrant's own points"
_FORMULAS = {
    Tiebreak.BUCHHOLZ: f"BH = sum of the opponents' points; {_UNPLAYED}",
    Tiebreak.MEDIAN_BUCHHOLZ: "MBH = BH without the highest and the lowest opponent "
    "contribution (all counted when fewer than 3 rounds)",
    Tiebreak.SONNEBORN_BERGER: "SB = sum over rounds of result (1, 1/2, 0) x opponent's "
    f"points; {_UNPLAYED}",
    Tiebreak.GAME_POINTS: "GP = sum of the game points of every game (byes and forfeits "
    "score as games won or lost)",
    Tiebreak.WINS: "W = number of games won over the board (byes and forfeits excluded)",
    Tiebreak.DIRECT_ENCOUNTER: "DE = points scored in games among the entrants still tied, "
    "when all of them have met (otherwise 0)",
    Tiebreak.PROGRESSIVE: "PS = sum of the running points after each round",
}


def parse_order(text: str) -> tuple[Tiebreak, ...]:
    """A comma-separated tie-break order, e.g. ``buchholz,median_buchholz,wins``; ``none``
    or an empty text for no tie-breaks."""
    if text.strip().lower() in ("", "none"):
        return ()
    order = tuple(Tiebreak.parse(part) for part in text.split(","))
    for i, tiebreak in enumerate(order):
        if tiebreak in order[:i]:
            raise SettingsError(f"tie-break {tiebreak.value!r} is listed twice in {text!r}")
    return order


def contributions(entrant: str, histories: History, points: Mapping[str, float]) -> list[float]:
    """The opponent contribution ``c_r`` of every round of ``entrant``."""
    own = points[entrant]
    return [
        points[e.opponent] if e.played and e.opponent is not None else own
        for e in histories[entrant]
    ]


def compute_all(
    histories: History, points: Mapping[str, float]
) -> dict[str, dict[Tiebreak, float]]:
    """Every tie-break except direct encounter (which depends on who is tied), per entrant."""
    values: dict[str, dict[Tiebreak, float]] = {}
    for entrant, entries in histories.items():
        own = points[entrant]
        cs = [points[e.opponent] if e.played and e.opponent is not None else own for e in entries]
        buchholz = sum(cs)
        median = buchholz - max(cs) - min(cs) if len(cs) >= 3 else buchholz
        running = 0.0
        progressive = 0.0
        sb = 0.0
        game_points = 0.0
        wins = 0
        for entry, c in zip(entries, cs, strict=True):
            running += entry.points
            progressive += running
            sb += entry.fraction * c
            game_points += entry.game_points
            wins += entry.wins
        values[entrant] = {
            Tiebreak.BUCHHOLZ: buchholz,
            Tiebreak.MEDIAN_BUCHHOLZ: median,
            Tiebreak.SONNEBORN_BERGER: sb,
            Tiebreak.GAME_POINTS: game_points,
            Tiebreak.WINS: float(wins),
            Tiebreak.PROGRESSIVE: progressive,
        }
    return values


def direct_encounter(group: Sequence[str], histories: History) -> dict[str, float]:
    """Points each member of a tied ``group`` scored in games against the others; all 0
    unless every two of them have played each other."""
    members = set(group)
    scored = dict.fromkeys(group, 0.0)
    met: set[frozenset[str]] = set()
    for entrant in group:
        for entry in histories[entrant]:
            if entry.played and entry.opponent in members:
                scored[entrant] += entry.points
                met.add(frozenset((entrant, entry.opponent)))
    pairs = len(group) * (len(group) - 1) // 2
    if len(met) < pairs:
        return dict.fromkeys(group, 0.0)
    return scored
