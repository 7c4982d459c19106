"""From a round's pairings to planned games on the venue's tables (pure).

The competition (``wuzi.tournament``) knows pairings and results; a table knows one game.
This module is the bridge: for a pairing of a round it plans every game the pairing is
made of — the three boards of a team match, game 1 and game 2 of a two-game round, the
single game, and the playoff games a tied knockout match needs — with everything a table
host needs to start it (players, colours, rule set, opening, time control, match
context) and the names its record carries (the event, the round, the match, the board,
both teams and players), and it lays a round out on the venue's tables.

Game ids are stable, topic-safe and unique within an event: ``r<round>-m<match>-<slot>``
where the slot is ``b1``–``b3`` (team boards), ``g1``/``g2`` (the games of a single or
two-game pairing) or ``p1``, ``p2`` … (playoff games), e.g. ``r2-m3-b1``, ``r2-m3-p1``; a
place playoff after the last round is ``pl<place>-m<match>-p<game>`` (round 0).

The round's opening settings (a designated opening drawn or set, ``wuzi.tournament.draw``)
come in as an argument and go into the plan only when the table's procedure takes them.

Colours follow the tournament package: the first-named entrant has Black in game 1; in a
team match the first-mover team has Black on boards 1 and 3 (``team_match.board_games``);
game 2 of a two-game round swaps colours; the captains' playoff starts with the
second-named team's captain in Black and alternates (``playoff.playoff_black``). The
assignment's ``black`` is the *first seat* (the opener) — an opening that swaps colours
at the table (Chinese 2013's swap after move 3) does not change who the competition calls
Black, so results are always stated in the assignment's colours.

``game_in_match`` tells the host whether the players changed colours at the same table
(even: the first seat sits where White sat in game 1): 1 and 2 for a pairing's games,
3 and up for playoff games, chosen so that its parity follows the playoff's colours.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from wuzi.clock.control import NS_PER_MS, TimeControl, parse_control
from wuzi.clock.errors import ControlSpecError
from wuzi.rules.board import Colour
from wuzi.rules.errors import RulesError
from wuzi.rules.openings import make_procedure
from wuzi.rules.ruleset import RuleSet
from wuzi.tournament.event import Competition, playoff_black_entrant
from wuzi.tournament.history import Pairing
from wuzi.tournament.playoff import (
    PlayoffKind,
    place_playoff_time_control,
    playoff_black,
    playoff_time_control,
    playoff_winner,
)
from wuzi.tournament.results import GameResult, MatchKind, RoundResult, Side
from wuzi.tournament.team_match import BOARDS, board_games

__all__ = [
    "PLACE_ROUND",
    "DirectorError",
    "FinalGame",
    "PlannedGame",
    "RegularPlan",
    "bus_rule_set",
    "game_id",
    "opening_for",
    "place_game_id",
    "place_pair",
    "place_playoff_game",
    "playoff_game",
    "playoff_kind",
    "playoff_sequence",
    "regular_game",
    "regular_plan",
    "regular_slots",
    "round_layout",
    "scale_control",
    "slot_index",
    "table_opening_settings",
    "tables_per_match",
]

_SLOT = re.compile(r"([bgp])([1-9][0-9]*)")
_KEYWORD = re.compile(r"[a-z][a-z0-9_.-]{0,63}")  # wuzi.bus.schemas' keyword


class DirectorError(ValueError):
    """A competition or a venue the director cannot run (the message says what to fix)."""


@dataclass(frozen=True)
class PlannedGame:
    """One game of a pairing, as the director assigns it to a table.

    ``black`` / ``white`` are the players' names as the table shows them (the first and
    the second seat); ``black_entrant`` / ``white_entrant`` the competition's entrant ids
    (teams for a team match) and ``black_player`` / ``white_player`` the players' ids.
    """

    game_id: str
    round: int
    match: int  # the pairing's board number in the round
    slot: str  # b1..b3, g1, g2, p1, p2 …
    black: str
    white: str
    black_entrant: str
    white_entrant: str
    black_player: str
    white_player: str
    rule_set: str
    opening: str
    opening_settings: tuple[tuple[str, str | int], ...]
    time_control: str
    board: int | None  # the board of a team match (the captains' playoff: 1)
    game_in_match: int
    playoff: bool
    place: int | None = None  # a place playoff after the last round: the place it decides
    # the names a record of the game carries (docs/records.md); "" in plans stored before
    event: str = ""
    black_team: str = ""  # a team match's teams; a player's club otherwise
    white_team: str = ""

    @property
    def index(self) -> int:
        """The slot's number: the board, game or playoff game (1-based)."""
        return slot_index(self.slot)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            name: getattr(self, name)
            for name in self.__dataclass_fields__
            if name != "opening_settings"
        }
        data["opening_settings"] = dict(self.opening_settings)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PlannedGame:
        values = dict(data)
        settings = values.pop("opening_settings", {})
        try:
            return cls(opening_settings=tuple(sorted(settings.items())), **values)
        except TypeError as exc:
            raise DirectorError(f"a stored game plan does not fit: {exc}") from None


def game_id(round_number: int, match: int, slot: str) -> str:
    return f"r{round_number}-m{match}-{slot}"


def slot_index(slot: str) -> int:
    m = _SLOT.fullmatch(slot)
    if m is None:
        raise DirectorError(f"{slot!r} is not a game slot (b1-b3, g1, g2, p1 …)")
    return int(m.group(2))


def regular_slots(kind: MatchKind) -> tuple[str, ...]:
    """Every game of a pairing of ``kind`` (a two-game round's game 2 may not be needed)."""
    if kind is MatchKind.TEAM:
        return tuple(f"b{b}" for b in range(1, BOARDS + 1))
    return tuple(f"g{g}" for g in range(1, kind.games + 1))


def tables_per_match(kind: MatchKind) -> int:
    """Tables a pairing plays on at once: 3 for a team match, 1 otherwise."""
    return BOARDS if kind is MatchKind.TEAM else 1


def playoff_kind(kind: MatchKind) -> PlayoffKind:
    return PlayoffKind.CAPTAINS if kind is MatchKind.TEAM else PlayoffKind.PLACE


# -- time controls and openings -----------------------------------------------------------


def scale_control(text: str, factor: float) -> str:
    """``text`` with every time divided by ``factor`` (rehearsals: ``2700+30`` / 60 is
    ``45+0.5``), rounded to whole milliseconds and never below 1 ms; move counts and
    periods stay. A factor of 1 returns the text unchanged."""
    if not math.isfinite(factor) or factor <= 0:
        raise DirectorError(f"a time scale must be a positive number, not {factor!r}")
    try:
        control = parse_control(text)
    except ControlSpecError as exc:
        raise DirectorError(f"time control {text!r}: {exc}") from None
    if factor == 1:
        return text

    def scaled(ns: int) -> int:
        if ns == 0:
            return 0
        return max(NS_PER_MS, round(ns / factor / NS_PER_MS) * NS_PER_MS)

    phases = tuple(
        replace(p, time_ns=scaled(p.time_ns), bonus_ns=scaled(p.bonus_ns)) for p in control.phases
    )
    overtime = control.overtime
    if overtime is not None:
        overtime = replace(overtime, period_ns=scaled(overtime.period_ns))
    result = str(TimeControl(phases, overtime))
    parse_control(result)  # what a table will parse
    return result


def opening_for(comp: Competition, override: str | None = None) -> str:
    """The table's opening procedure for the event's ``opening`` setting: the Chinese 2013
    procedure (designated opening, swap after move 3, two fifth-move offers) for
    ``designated``, ``free`` otherwise; ``override`` names another procedure."""
    if override:
        return override
    return "chinese-2013" if comp.settings.opening == "designated" else "free"


# -- planning the games of one pairing ----------------------------------------------------


def _player(comp: Competition, entrant: str, board: int | None) -> tuple[str, str]:
    """(name, player id) of an entrant's player (the board's player of a team)."""
    e = comp.entrant(entrant)
    if e.team is not None:
        p = e.team.board(board or 1)
        return p.name, p.id
    return e.name, e.id


def _names(comp: Competition, black_entrant: str, white_entrant: str) -> dict[str, Any]:
    """The names of the game for its record: the event, and each side's team — the team
    of a team match, a player's club (the unit they play for) in an individual event."""

    def team(entrant: str) -> str:
        e = comp.entrant(entrant)
        if e.team is not None:
            return e.team.name
        return e.player.club if e.player is not None else ""

    return {
        "event": comp.settings.name,
        "black_team": team(black_entrant),
        "white_team": team(white_entrant),
    }


def bus_rule_set(text: str) -> str:
    """The rule set as an assignment carries it (a keyword): the event's canonical form
    (``no-forbidden:overline=both``) shortened to its name when that means the same."""
    try:
        rules = RuleSet.parse(text)
    except RulesError as exc:
        raise DirectorError(f"rule set {text!r}: {exc}") from None
    name = text.partition(":")[0].strip()
    if _KEYWORD.fullmatch(text):
        return text
    if _KEYWORD.fullmatch(name) and RuleSet.parse(name) == rules:
        return name
    raise DirectorError(
        f"rule set {text!r} cannot travel in an assignment (its rule_set is a keyword); "
        "only the default options of a rule set can be assigned to a table"
    )


def table_opening_settings(
    procedure: str, settings: Mapping[str, str | int]
) -> tuple[tuple[str, str | int], ...]:
    """The round's opening settings (a drawn or set designated opening, ``wuzi.tournament
    .draw.opening_settings``) as a table of ``procedure`` takes them: none when the
    procedure has no designated opening (``free``, ``swap2``, a director's ``--opening``
    override without one), so a draw never makes an assignment a table would refuse."""
    if not settings:
        return ()
    try:
        make_procedure(procedure, **dict(settings))
    except RulesError:
        return ()
    return tuple(sorted(settings.items()))


def _common(
    comp: Competition, opening: str | None, settings: Mapping[str, str | int]
) -> dict[str, Any]:
    procedure = opening_for(comp, opening)
    return {
        "rule_set": bus_rule_set(comp.settings.rules),
        "opening": procedure,
        "opening_settings": table_opening_settings(procedure, settings),
    }


def regular_game(
    comp: Competition,
    round_number: int,
    pairing: Pairing,
    slot: str,
    *,
    time_scale: float = 1.0,
    opening: str | None = None,
    opening_settings: Mapping[str, str | int] | None = None,
) -> PlannedGame:
    """Game ``slot`` (``b1``–``b3`` or ``g1``/``g2``) of ``pairing``."""
    kind = comp.settings.match
    if pairing.second is None:
        raise DirectorError(f"round {round_number} match {pairing.board} is a bye: no games")
    if slot not in regular_slots(kind):
        raise DirectorError(f"a {kind.value} pairing has no game {slot!r}")
    index = slot_index(slot)
    first, second = comp.entrant(pairing.first), comp.entrant(pairing.second)
    board: int | None = None
    if kind is MatchKind.TEAM:
        assert first.team is not None and second.team is not None
        game = board_games(first.team, second.team)[index - 1]
        board = index
        first_black = game.black.id == first.team.board(index).id
        game_in_match = 1
    else:
        first_black = kind.first_colour(index - 1) is Colour.BLACK
        game_in_match = index
    black_e, white_e = (first.id, second.id) if first_black else (second.id, first.id)
    black, black_player = _player(comp, black_e, board)
    white, white_player = _player(comp, white_e, board)
    return PlannedGame(
        game_id=game_id(round_number, pairing.board, slot),
        round=round_number,
        match=pairing.board,
        slot=slot,
        black=black,
        white=white,
        black_entrant=black_e,
        white_entrant=white_e,
        black_player=black_player,
        white_player=white_player,
        time_control=scale_control(comp.settings.time_control, time_scale),
        board=board,
        game_in_match=game_in_match,
        playoff=False,
        **_common(comp, opening, opening_settings or {}),
        **_names(comp, black_e, white_e),
    )


def playoff_game(
    comp: Competition,
    round_number: int,
    pairing: Pairing,
    number: int,
    *,
    time_scale: float = 1.0,
    opening: str | None = None,
    opening_settings: Mapping[str, str | int] | None = None,
) -> PlannedGame:
    """Playoff game ``number`` (1-based) of a tied knockout match: the captains' playoff
    of a team match (board 1's players, the event's playoff time control), or the place
    playoff of an individual match (two games at 5 min + 3 s, then 3 min + 2 s)."""
    if pairing.second is None:
        raise DirectorError(f"round {round_number} match {pairing.board} is a bye: no playoff")
    if number < 1:
        raise DirectorError(f"playoff games are numbered from 1, not {number}")
    kind = comp.settings.match
    pkind = playoff_kind(kind)
    black_e = playoff_black_entrant(kind, pairing, number - 1)
    white_e = pairing.second if black_e == pairing.first else pairing.first
    board = 1 if kind is MatchKind.TEAM else None
    control = playoff_time_control(pkind, number - 1, comp.settings.playoff_time_control)
    # parity: odd when the first-named entrant (who had Black in game 1 / on board 1) has
    # Black, so the host knows whether the players changed colours in their chairs
    base = 3 if playoff_black(pkind, 0) is Side.FIRST else 4
    return _playoff_plan(
        comp,
        (black_e, white_e),
        game_id=game_id(round_number, pairing.board, f"p{number}"),
        round=round_number,
        match=pairing.board,
        number=number,
        board=board,
        time_control=scale_control(control, time_scale),
        game_in_match=min(99, base + number - 1),
        opening=opening,
        opening_settings=opening_settings or {},
    )


def _playoff_plan(
    comp: Competition,
    colours: tuple[str, str],
    *,
    game_id: str,
    round: int,
    match: int,
    number: int,
    board: int | None,
    time_control: str,
    game_in_match: int,
    opening: str | None,
    opening_settings: Mapping[str, str | int],
    place: int | None = None,
) -> PlannedGame:
    """A playoff game (a tied match's, or a prize place's) of the entrants ``colours``
    (Black, White): the players, the names and the opening around what the two kinds
    decide themselves."""
    black_e, white_e = colours
    black, black_player = _player(comp, black_e, board)
    white, white_player = _player(comp, white_e, board)
    return PlannedGame(
        game_id=game_id,
        round=round,
        match=match,
        slot=f"p{number}",
        black=black,
        white=white,
        black_entrant=black_e,
        white_entrant=white_e,
        black_player=black_player,
        white_player=white_player,
        time_control=time_control,
        board=board,
        game_in_match=game_in_match,
        playoff=True,
        place=place,
        **_common(comp, opening, opening_settings),
        **_names(comp, black_e, white_e),
    )


PLACE_ROUND = 0
"""The round of a place playoff game in the director's records: it follows every round."""


def place_game_id(place: int, match: int, number: int) -> str:
    """``pl<place>-m<match>-p<number>``: the place, the playoff match (numbered over the
    event's ties, place by place) and the game."""
    return f"pl{place}-m{match}-p{number}"


def place_playoff_game(
    comp: Competition,
    place: int,
    match: int,
    first: str,
    second: str,
    number: int,
    *,
    time_scale: float = 1.0,
    opening: str | None = None,
) -> PlannedGame:
    """Game ``number`` (1-based) of the playoff between entrants ``first`` and ``second``,
    level on prize place ``place`` after the last round (002 六(四)1–2: 涉及录取名次的进行加赛).
    002 六(四)3: two games, one with each colour — ``first`` (the higher in the standings'
    order) Black in game 1 — at the event's playoff time control (``--playoff-time-control``,
    default ``300+3``, the clause's 5 min + 3 s), then single games at 3 min + 2 s, colours
    alternating, until one is decisive. The round's opening draw does not reach a playoff:
    the procedure's default selection applies."""
    if number < 1:
        raise DirectorError(f"playoff games are numbered from 1, not {number}")
    first_black = playoff_black(PlayoffKind.PLACE, number - 1) is Side.FIRST
    black_e, white_e = (first, second) if first_black else (second, first)
    control = place_playoff_time_control(number - 1, comp.settings.playoff_time_control)
    return _playoff_plan(
        comp,
        (black_e, white_e),
        game_id=place_game_id(place, match, number),
        round=PLACE_ROUND,
        match=match,
        number=number,
        board=None,
        time_control=scale_control(control, time_scale),
        game_in_match=min(99, 2 + number),  # odd: the first-named has Black (game 1)
        opening=opening,
        opening_settings={},
        place=place,
    )


def place_pair(plan: PlannedGame) -> tuple[str, str]:
    """(first, second) of the place playoff a game belongs to (first: Black in game 1)."""
    if playoff_black(PlayoffKind.PLACE, plan.index - 1) is Side.FIRST:
        return plan.black_entrant, plan.white_entrant
    return plan.white_entrant, plan.black_entrant


def round_layout(
    kind: MatchKind, pairings: Sequence[Pairing], tables: Sequence[int]
) -> dict[int, tuple[int, ...]]:
    """Each pairing's tables (board order), consecutive in venue order, pairing after
    pairing (byes take none): 8 team matches on 24 tables are 1-3, 4-6, … 22-24. A pairing
    beyond the tables gets fewer (or none): its other games wait for a free table."""
    per = tables_per_match(kind)
    layout: dict[int, tuple[int, ...]] = {}
    at = 0
    for p in pairings:
        if p.second is None:
            continue
        layout[p.board] = tuple(tables[at : at + per])
        at += per
    return layout


# -- what a pairing's final games decide --------------------------------------------------


@dataclass(frozen=True)
class FinalGame:
    """A game's final result (in its assignment's colours) and how it ended."""

    result: GameResult
    reason: str | None = None


@dataclass(frozen=True)
class RegularPlan:
    """Which of a pairing's games must exist now, and the round result once they are all
    final (None while some are still to be played)."""

    slots: tuple[str, ...]
    result: RoundResult | None


def regular_plan(kind: MatchKind, finals: Mapping[str, FinalGame]) -> RegularPlan:
    """A team match is its three boards and a single pairing its one game. In a two-game
    round, game 2 is needed unless game 1 was lost on the flag (that player loses the whole
    round: ``flag:<colour>``, game 2 is not played)."""
    if kind is MatchKind.TWO_GAME:
        g1 = finals.get("g1")
        if g1 is None:
            return RegularPlan(("g1",), None)
        if g1.reason == "flag" and g1.result in (GameResult.BLACK, GameResult.WHITE):
            loser = Colour.BLACK if g1.result is GameResult.WHITE else Colour.WHITE
            return RegularPlan(("g1",), RoundResult((), loser))
        g2 = finals.get("g2")
        if g2 is None:
            return RegularPlan(("g1", "g2"), None)
        return RegularPlan(("g1", "g2"), RoundResult((g1.result, g2.result)))
    slots = regular_slots(kind)
    if all(s in finals for s in slots):
        return RegularPlan(slots, RoundResult(tuple(finals[s].result for s in slots)))
    return RegularPlan(slots, None)


def playoff_sequence(
    kind: MatchKind, director: Mapping[int, GameResult], stored: Sequence[GameResult]
) -> tuple[GameResult, ...]:
    """The playoff games that count, in order: game k is the director's final playoff
    game k, else the k-th the competition holds (entered by the organisers); it stops at
    the first gap and at the game that decides the playoff."""
    pkind = playoff_kind(kind)
    games: list[GameResult] = []
    k = 1
    while True:
        if k in director:
            games.append(director[k])
        elif k <= len(stored):
            games.append(stored[k - 1])
        else:
            break
        if playoff_winner(pkind, games) is not None:
            break
        k += 1
    return tuple(games)
