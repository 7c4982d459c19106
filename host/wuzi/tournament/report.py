"""Pairings and standings as text (for the desk) and as JSON-ready data (for scripts).

The JSON of ``standings`` lists every entrant's place, points and *every* tie-break value
(the event's own order is given separately, with each formula); the text shows the event's
tie-breaks as columns and their formulas underneath. A knockout lists places instead; the
semifinal its qualifiers (``semifinal_json``): the match winners, in match order.
"""

from __future__ import annotations

from typing import Any

from wuzi.tournament import semifinal
from wuzi.tournament.event import Competition, Entrant, Format, playoff_black_entrant
from wuzi.tournament.history import Pairing, Round
from wuzi.tournament.prizes import prize_money
from wuzi.tournament.results import MatchKind, score_round
from wuzi.tournament.standings import Standings
from wuzi.tournament.team_match import board_games
from wuzi.tournament.tiebreaks import Tiebreak

PLAYOFF_RULE = (
    "two games at 5 min + 3 s a move, one with each colour, then single games at "
    "3 min + 2 s a move until one is decisive"
)


def number(value: float) -> int | float:
    """Whole numbers without a decimal point in JSON and text."""
    return int(value) if value == int(value) else value


def _fmt(value: float) -> str:
    return str(number(value))


# -- pairings ---------------------------------------------------------------------------


def pairing_json(comp: Competition, rnd: Round) -> dict[str, Any]:
    if comp.settings.format.is_knockout or comp.settings.team_event:
        return {"round": rnd.number, "matches": [_match_json(comp, p) for p in rnd.pairings]}
    return {
        "round": rnd.number,
        "pairings": [
            {
                "board": p.board,
                "black": p.first,
                "white": p.second,
                "manual_reason": p.manual_reason,
            }
            for p in rnd.pairings
        ],
    }


def _match_json(comp: Competition, p: Pairing) -> dict[str, Any]:
    data: dict[str, Any] = {
        "match": p.board,
        "first": p.first,
        "second": p.second,
        "places": list(p.places) if p.places else None,
    }
    first = comp.entrant(p.first)
    if comp.settings.format is Format.TEAM_SEMIFINAL:
        for side, who in (("first", p.first), ("second", p.second)):
            seed = comp.entrant(who).seed if who is not None else None
            group, place = semifinal.group_place(seed) if seed is not None else (None, None)
            data[f"{side}_group"] = group.value if group is not None else None
            data[f"{side}_seed"] = place
    if comp.settings.team_event and p.second is not None:
        second = comp.entrant(p.second)
        assert first.team is not None and second.team is not None
        data["boards"] = [
            {"board": g.board, "black": g.black.id, "white": g.white.id}
            for g in board_games(first.team, second.team)
        ]
    data["manual_reason"] = p.manual_reason
    return data


def pairing_text(comp: Competition, rnd: Round) -> str:
    knockout = comp.settings.format.is_knockout
    points = {e: sum(r.points for r in entries) for e, entries in comp.histories().items()}

    def label(entrant: str) -> str:
        e = comp.entrant(entrant)
        if comp.settings.format is Format.TEAM_SEMIFINAL and e.seed is not None:
            return f"{e.name} ({semifinal.label(e.seed)})"
        return e.name if knockout else f"{e.name} ({_fmt(points[entrant])})"

    lines = [f"{comp.settings.name} — round {rnd.number} of {comp.round_count()}"]
    for p in rnd.pairings:
        first = comp.entrant(p.first)
        places = f"  (places {p.places[0]}–{p.places[1]})" if p.places else ""
        note = f"  [by hand: {p.manual_reason}]" if p.manual_reason else ""
        if p.second is None:
            bye = "goes through (bye)" if knockout else "bye"
            lines.append(f"{p.board:4d}  {label(p.first)}  {bye}{places}{note}")
            continue
        second = comp.entrant(p.second)
        lines.append(f"{p.board:4d}  {label(p.first)}  –  {label(p.second)}{places}{note}")
        if first.team is not None and second.team is not None:
            for g in board_games(first.team, second.team):
                lines.append(f"        board {g.board}: {g.black.name} (black) – {g.white.name}")
    if not comp.settings.team_event:
        two = comp.settings.match is MatchKind.TWO_GAME
        lines.append("The first-named has Black" + (" in game 1." if two else "."))
    return "\n".join(lines)


# -- standings --------------------------------------------------------------------------


def tiebreak_legend(order: tuple[Tiebreak, ...]) -> list[dict[str, str]]:
    return [
        {
            "key": t.value,
            "name": t.title,
            "chinese": t.chinese,
            "short": t.short,
            "formula": t.formula,
        }
        for t in order
    ]


def standings_json(comp: Competition) -> dict[str, Any]:
    s = comp.settings
    base: dict[str, Any] = {
        "event": s.name,
        "format": s.format.value,
        "rounds": comp.round_count(),
        "rounds_paired": len(comp.rounds),
        "prize_places": comp.prize_places(),
    }
    if s.format is Format.TEAM_SEMIFINAL:
        return base | semifinal_json(comp)
    if s.format.is_knockout:
        base["finished"] = comp.finished
        base["standings"] = [
            {
                "place": low,
                "places": [low, high],
                "id": e.id,
                "name": e.name,
                "prize": prize_money(low, s.prizes) if low == high and s.prizes else 0,
            }
            for (low, high), e in comp.placements()
        ]
        return base
    standings = comp.standings()
    base["scoring"] = str(s.scoring)
    base["tiebreaks"] = tiebreak_legend(s.tiebreaks)
    base["standings"] = [
        {
            "place": row.place,
            "id": row.entrant,
            "name": comp.entrant(row.entrant).name,
            "points": number(row.points),
            "tiebreaks": {t.value: number(row.tiebreaks[t]) for t in Tiebreak},
            "shared": row.shared,
            "playoff_needed": row.playoff_needed,
        }
        for row in standings.rows
    ]
    base["playoffs_needed"] = [
        {"place": place, "entrants": list(who), "rule": PLAYOFF_RULE}
        for place, who in standings.playoffs_needed
    ]
    base["playoffs_owed"] = [
        {"place": place, "first": first, "second": second}
        for place, first, second in standings.playoffs_owed
    ]
    return base


def _place_label(place: int, shared: bool) -> str:
    return f"{place}=" if shared else str(place)


def standings_text(comp: Competition) -> str:
    s = comp.settings
    if s.format is Format.TEAM_SEMIFINAL:
        return semifinal_text(comp)
    lines = [f"{s.name} — after {_rounds_done(comp)} of {comp.round_count()} rounds"]
    if s.format.is_knockout:
        for (low, high), e in comp.placements():
            label = str(low) if low == high else f"{low}–{high}"
            prize = prize_money(low, s.prizes) if low == high and s.prizes else 0
            lines.append(f"{label:>7}  {e.name}" + (f"  {prize} CNY" if prize else ""))
        return "\n".join(lines)
    standings: Standings = comp.standings()
    order = s.tiebreaks
    head = f"{'Place':>6}  {'Name':<24} {'Pts':>5}" + "".join(f" {t.short:>6}" for t in order)
    lines.append(head)
    for row in standings.rows:
        name = comp.entrant(row.entrant).name
        values = "".join(f" {_fmt(row.tiebreaks[t]):>6}" for t in order)
        lines.append(
            f"{_place_label(row.place, row.shared):>6}  {name:<24} {_fmt(row.points):>5}{values}"
        )
    if order:
        lines.append("Tie-breaks, in order:")
        for t in order:
            lines.append(f"  {t.short:<4} {t.title} ({t.chinese}): {t.formula}")
    lines.append(f"Prize places: 1–{standings.prize_places}. Points: {s.scoring} (win/draw/loss).")
    for place, who in standings.playoffs_needed:
        names = ", ".join(comp.entrant(w).name for w in who)
        lines.append(f"Playoff needed for place {place}: {names} ({PLAYOFF_RULE}).")
        owed = [
            f"{comp.entrant(a).name} v {comp.entrant(b).name}"
            for at, a, b in standings.playoffs_owed
            if at == place
        ]
        if owed and len(who) > 2:
            lines.append(f"  a playoff round robin (002 六(四)1-3); still owed: {', '.join(owed)}")
        elif not owed:
            lines.append("  every playoff match is in and they are still level (a cycle)")
    return "\n".join(lines)


def _rounds_done(comp: Competition) -> int:
    return sum(1 for r in comp.rounds if r.finished)


def result_text(comp: Competition, rnd: Round, p: Pairing) -> str:
    """One board's result in words (e.g. ``Team A 4 – 2 Team B``)."""
    if p.second is None:
        return f"{comp.entrant(p.first).name} has a bye"
    if p.result is None:
        return "no result yet"
    first, second = score_round(p.result, comp.settings.match, comp.settings.game_scoring)
    text = (
        f"{comp.entrant(p.first).name} {_fmt(first.game_points)} – "
        f"{_fmt(second.game_points)} {comp.entrant(p.second).name}"
    )
    if p.playoff:
        blacks = [
            comp.entrant(playoff_black_entrant(comp.settings.match, p, i)).name
            for i in range(len(p.playoff))
        ]
        games = ", ".join(f"{g.value} ({b} black)" for g, b in zip(p.playoff, blacks, strict=True))
        text += f"; playoff: {games}"
    if comp.settings.format.is_knockout:
        winner = comp.match_winner(p)
        text += f"; winner {comp.entrant(winner).name}" if winner else "; playoff needed"
    return text


# -- the semifinal ----------------------------------------------------------------------


def _semifinal_rows(comp: Competition) -> list[tuple[int | None, Entrant, bool | None]]:
    """(match, entrant, qualified) in match order (first then second), or in sheet order
    before the round is paired; ``qualified`` is None while the match is undecided."""
    if not comp.rounds:
        return [(None, e, None) for e in comp.seeded()]
    rows: list[tuple[int | None, Entrant, bool | None]] = []
    for p in comp.rounds[0].pairings:
        winner = comp.match_winner(p)
        for who in (p.first, p.second):
            if who is not None:
                rows.append((p.board, comp.entrant(who), None if winner is None else who == winner))
    return rows


def semifinal_json(comp: Competition) -> dict[str, Any]:
    """``finished``, ``qualify`` (8), ``qualified`` (the winners so far, match order) and
    ``standings``: every team with its match, group, place in the group, and
    ``qualified`` (true, false, or null while its match is undecided); ``place``,
    ``places`` and ``prize`` as a knockout has them (1–8 a winner, 9–16 a loser)."""
    ranges = dict((e.id, r) for r, e in comp.placements())
    rows = []
    for match, e, qualified in _semifinal_rows(comp):
        group, place = semifinal.group_place(e.seed) if e.seed is not None else (None, None)
        low, high = ranges[e.id]
        rows.append(
            {
                "match": match,
                "id": e.id,
                "name": e.name,
                "group": group.value if group is not None else None,
                "seed": place,
                "qualified": qualified,
                "place": low,
                "places": [low, high],
                "prize": 0,
            }
        )
    return {
        "finished": comp.finished,
        "qualify": semifinal.GROUP_SIZE,
        "qualified": [
            {k: row[k] for k in ("match", "id", "name", "group", "seed")}
            for row in rows
            if row["qualified"]
        ],
        "standings": rows,
    }


def semifinal_text(comp: Competition) -> str:
    s = comp.settings
    rows = _semifinal_rows(comp)
    decided = sum(1 for _, _, q in rows if q) if comp.rounds else 0
    lines = [
        f"{s.name} — semifinal (000 五(二)): public #k v pro #(9−k); "
        f"{decided} of {semifinal.GROUP_SIZE} matches decided"
    ]

    def name(e: Entrant) -> str:
        return f"{e.name} ({semifinal.label(e.seed)})" if e.seed is not None else e.name

    if not comp.rounds:
        lines.append("Not paired yet. Entered:")
        lines.extend(f"  {name(e)}" for _, e, _ in rows)
        return "\n".join(lines)
    rnd = comp.rounds[0]

    def score(p: Pairing) -> str:
        assert p.second is not None
        first, second = comp.entrant(p.first), comp.entrant(p.second)
        text = f"{name(first)} v {name(second)}"
        if p.result is None:
            return text + ": no result yet"
        a, b = score_round(p.result, s.match, s.game_scoring)
        text += f" {_fmt(a.game_points)} – {_fmt(b.game_points)}"
        if p.playoff:
            text += f", captains' playoff {','.join(g.value for g in p.playoff)}"
        elif a.game_points == b.game_points:
            text += ": the captains' playoff is needed (board 1)"
        return text

    qualified = [(m, e) for m, e, q in rows if q]
    if qualified:
        lines.append("Qualified for the final (000 五(三)2):")
        for match, e in qualified:
            assert match is not None
            lines.append(f"  match {match}  {e.name}  ({score(rnd.board(match))})")
    waiting = [p for p in rnd.pairings if p.second is not None and comp.match_winner(p) is None]
    if waiting:
        lines.append("Still to decide:")
        lines.extend(f"  match {p.board}  {score(p)}" for p in waiting)
    return "\n".join(lines)
