"""The competition as the hall's screens see it: ``CompetitionState`` (pure).

Built from the competition and the director's games: the round being played with each
pairing's score so far (final results only — a provisional result is not shown to the
hall until a referee confirms it), the standings with the event's tie-break columns and
their formulas (a knockout: the places still open to each entrant), and the knockout's
bracket, every round, every place range. After the last round of a Swiss or round robin
the playoffs for tied prize places follow the round's matches (label ``playoff, place
N``), and the event is ``finished`` only when they are decided.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from wuzi.bus.schemas import (
    MAX_TEXT,
    BracketMatch,
    CompetitionState,
    MatchSummary,
    StandingLine,
)
from wuzi.director.games import Game
from wuzi.director.schedule import place_pair
from wuzi.rules.board import Colour
from wuzi.tournament.errors import TournamentError
from wuzi.tournament.event import Competition
from wuzi.tournament.history import Pairing
from wuzi.tournament.results import MatchKind, score_round
from wuzi.tournament.team_match import BOARDS

__all__ = ["competition_state", "pairing_scores"]

_PLAYING = ("playing", "paused", "adjourned")
_MAX_TABLES = 16  # MatchSummary.tables holds at most 16


def _cut(text: str, limit: int = MAX_TEXT) -> str:
    text = text.strip() or "?"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def pairing_scores(
    comp: Competition, pairing: Pairing, games: Iterable[Game]
) -> tuple[float, float]:
    """The two sides' game points (board points of a team match) so far: the result in the
    competition once it is in, else the sum over the pairing's final games."""
    settings = comp.settings
    kind = settings.match
    if pairing.second is None:
        return 0.0, 0.0
    if pairing.result is not None:
        first, second = score_round(pairing.result, kind, settings.game_scoring)
        return first.game_points, second.game_points
    a = b = 0.0
    for game in games:
        p = game.plan
        if p.playoff or game.state != "final" or game.result is None:
            continue
        index = p.index - 1
        if kind is MatchKind.TEAM and not 0 <= index < BOARDS:
            continue
        if index >= len(_colours(kind)):
            continue
        colour = kind.first_colour(index)
        a += settings.game_scoring.points(game.result.fraction(colour))
        b += settings.game_scoring.points(game.result.fraction(colour.other))
    return a, b


def _colours(kind: MatchKind) -> tuple[Colour, ...]:
    return tuple(kind.first_colour(i) for i in range(kind.games))


def _name(comp: Competition, entrant: str | None) -> str:
    if entrant is None:
        return ""
    return _cut(comp.entrant(entrant).name)


def _winner(comp: Competition, pairing: Pairing) -> str | None:
    if pairing.second is None:
        return pairing.first
    if comp.settings.format.is_knockout:
        try:
            return comp.match_winner(pairing)
        except TournamentError:  # e.g. both sides forfeited: no winner to show
            return None
    if pairing.result is None:
        return None
    first, second = score_round(pairing.result, comp.settings.match, comp.settings.game_scoring)
    if first.fraction == second.fraction:
        return None
    return pairing.first if first.fraction > second.fraction else pairing.second


def _live(game: Game, live: Mapping[int, tuple[str | None, str]]) -> bool:
    """Whether the game's table says it is being played."""
    if game.table is None or game.table not in live:
        return False
    game_id, status = live[game.table]
    return game_id == game.id and status in _PLAYING


def _places(pairing: Pairing) -> str:
    if pairing.places is None:
        return ""
    low, high = pairing.places
    return str(low) if low == high else f"{low}-{high}"


def place_playoffs(
    comp: Competition, games: Iterable[Game], live: Mapping[int, tuple[str | None, str]]
) -> list[MatchSummary]:
    """The playoffs for tied prize places (``places``) as matches for the screens: the
    place, the two players, the playoff's score (final games only), its table, its status
    and, once decided, its winner."""
    by_match: dict[int, list[Game]] = {}
    for game in games:
        if game.plan.place is not None and game.state != "cancelled":
            by_match.setdefault(game.plan.match, []).append(game)
    decided = {frozenset((t.first, t.second)): t.winner() for t in comp.tie_playoffs}
    out = []
    for _, own in sorted(by_match.items()):
        own.sort(key=lambda g: g.seq)
        first, second = place_pair(own[0].plan)
        score = {first: 0.0, second: 0.0}
        for g in own:
            if g.state == "final" and g.result is not None:
                score[g.plan.black_entrant] += g.result.fraction(Colour.BLACK)
                score[g.plan.white_entrant] += g.result.fraction(Colour.WHITE)
        winner = decided.get(frozenset((first, second)))
        playing = any(g.state in ("reported", "final") or _live(g, live) for g in own)
        tables = [g.table for g in own if g.table is not None]
        out.append(
            MatchSummary(
                label=f"playoff, place {own[0].plan.place}",
                first=_name(comp, first),
                second=_name(comp, second),
                first_score=score[first],
                second_score=score[second],
                tables=tuple(dict.fromkeys(tables))[-_MAX_TABLES:],
                status="finished" if winner else "playing" if playing else "scheduled",
                winner=_name(comp, winner) if winner else None,
            )
        )
    return out


def competition_state(
    comp: Competition,
    games: Iterable[Game],
    live: Mapping[int, tuple[str | None, str]],
    now_ms: int,
) -> CompetitionState:
    games = list(games)
    settings = comp.settings
    knockout = settings.format.is_knockout
    by_match: dict[tuple[int, int], list[Game]] = {}
    for game in games:
        if game.state != "cancelled":
            by_match.setdefault((game.plan.round, game.plan.match), []).append(game)
    current = len(comp.rounds)
    matches: list[MatchSummary] = []
    if comp.rounds:
        for p in comp.rounds[-1].pairings:
            own = sorted(by_match.get((current, p.board), []), key=lambda g: g.seq)
            first_score, second_score = pairing_scores(comp, p, own)
            winner = _winner(comp, p)
            decided = p.second is None or (
                p.result is not None and (not knockout or winner is not None)
            )
            tables: list[int] = []
            for g in own:
                if g.table is not None and g.table not in tables:
                    tables.append(g.table)
            playing = any(g.state in ("reported", "final") or _live(g, live) for g in own)
            label = f"places {_places(p)}" if knockout and p.places else ""
            matches.append(
                MatchSummary(
                    label=label,
                    first=_name(comp, p.first),
                    second=_name(comp, p.second),
                    first_score=first_score,
                    second_score=second_score,
                    tables=tuple(tables[:_MAX_TABLES]),
                    status="finished" if decided else "playing" if playing else "scheduled",
                    winner=_name(comp, winner) if winner is not None and decided else None,
                )
            )
    playoffs = place_playoffs(comp, games, live) if comp.finished else []
    matches.extend(playoffs)
    standings: list[StandingLine] = []
    names: tuple[str, ...] = ()
    formulas: tuple[str, ...] = ()
    if knockout:
        points = {e: sum(r.points for r in rows) for e, rows in comp.histories().items()}
        for (low, high), e in comp.placements():
            standings.append(StandingLine(low, high, _cut(e.name), points.get(e.id, 0.0), ()))
    elif comp.entrants:
        table = comp.standings()
        order = table.order
        names = tuple(t.value for t in order)
        formulas = tuple(_cut(f"{t.short}: {t.formula}") for t in order)
        count: dict[int, int] = {}
        for row in table.rows:
            count[row.place] = count.get(row.place, 0) + 1
        for row in table.rows:
            standings.append(
                StandingLine(
                    place=row.place,
                    place_to=row.place + count[row.place] - 1,
                    entrant=_cut(comp.entrant(row.entrant).name),
                    points=row.points,
                    tiebreaks=tuple(float(row.tiebreaks[t]) for t in order),
                )
            )
    bracket: list[BracketMatch] = []
    if knockout:
        for rnd in comp.rounds:
            for p in rnd.pairings:
                own = by_match.get((rnd.number, p.board), [])
                a, b = pairing_scores(comp, p, own)
                winner = _winner(comp, p)
                bracket.append(
                    BracketMatch(
                        round=rnd.number,
                        places=_places(p) or "1",
                        first=_name(comp, p.first),
                        second=_name(comp, p.second),
                        first_score=a,
                        second_score=b,
                        winner=_name(comp, winner) if winner is not None else None,
                    )
                )
    return CompetitionState(
        event=_cut(settings.name),
        format=settings.format.value,
        round=current,
        rounds=comp.round_count(),
        matches=tuple(matches),
        standings=tuple(standings),
        tiebreak_names=names,
        tiebreak_formulas=formulas,
        bracket=tuple(bracket),
        finished=comp.finished and all(m.status == "finished" for m in playoffs),
        at_ms=now_ms,
    )
