"""What the games of a pairing must be, and the tables they are played on (pure).

The part of the director's state machine that follows from the results: a pairing whose
games are all final gets its result in the competition; a tied knockout match its next
playoff game (on the board-1 table); a pairing whose result came from elsewhere (the
organisers) or changed has its unneeded games cancelled; games not yet started are planned
again when a draw changed their first mover or their round's opening; a decided round is followed by
the next one, paired and laid out on the tables; waiting games take tables as they free
up. Every function works on a ``Work`` (a change laid over the core), never on the core;
what it needs of the venue and the director's options comes as a ``Floor``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from wuzi.bus.assignment import setup_from_assignment
from wuzi.director import screens
from wuzi.director.change import Work
from wuzi.director.games import Game, assignment_of, bus_result
from wuzi.director.schedule import (
    FinalGame,
    PlannedGame,
    playoff_game,
    playoff_sequence,
    regular_game,
    regular_plan,
    round_layout,
    slot_index,
)
from wuzi.tournament.draw import opening_settings, round_opening
from wuzi.tournament.errors import PairingError, TournamentError
from wuzi.tournament.event import Competition
from wuzi.tournament.history import Pairing, Round
from wuzi.tournament.report import pairing_json, result_text
from wuzi.tournament.results import GameResult, RoundResult, score_round

__all__ = ["Floor", "advance", "allocate", "cancel", "drop_unpaired", "settle_match"]

DIRECTOR = "director"


@dataclass(frozen=True)
class Floor:
    """What the games and tables depend on besides the work: fixed for the director's run.

    The core builds it once from the venue and its options and passes it in, so this
    module never needs the core itself."""

    tables: tuple[int, ...]  # the venue's tables, in venue order: waiting games take the first free
    host_of: Mapping[int, str]  # the host serving each table (for the audit log)
    time_scale: float  # rehearsals: every time control divided by this
    opening: str | None  # the tables' opening procedure instead of the event's
    event_id: str = ""  # the venue file's event this director runs ("": the one event)
    # a network event ([[halls]]: docs/linked.md "The network final"): each team's hall's
    # tables, board 1 first; a game is played at its two teams' halls
    team_tables: Mapping[str, tuple[int, ...]] = field(default_factory=dict)

    def linked_pair(self, planned: PlannedGame) -> tuple[int, int] | None:
        """A network event's game: (the owner table, the away table) — board *b* of the
        hall of the team holding black (its host runs the game) and of the other team's.
        None outside a network event, or for a team without a hall."""
        if not self.team_tables:
            return None
        black = self.team_tables.get(planned.black_team or planned.black_entrant)
        white = self.team_tables.get(planned.white_team or planned.white_entrant)
        if black is None or white is None:
            return None
        index = (planned.board or 1) - 1
        if not (0 <= index < len(black) and index < len(white)):
            return None
        return black[index], white[index]

    def named(self, planned: PlannedGame) -> PlannedGame:
        """``planned`` under its venue-wide game id. Every event's director lays out
        ``r1-m1-g1``; in a hall of several events a game id must still name one game (a
        host keeps a finished game's record as ``records/<game id>.json``, a referee's
        command is signed for a game id), so an event's games are ``<event>-r1-m1-g1``."""
        if not self.event_id:
            return planned
        return replace(planned, game_id=f"{self.event_id}-{planned.game_id}")


def settle_match(
    floor: Floor, work: Work, round_number: int, match: int, *, authoritative: bool
) -> None:
    """Bring one pairing of the round being played in line with its games.

    ``authoritative``: one of its games changed, so the director's final games decide
    its result (written to the competition). Otherwise (the start) the competition's
    result stands — the organisers may have entered one, a forfeit say — and only the
    games are derived from it: the missing ones created, the unneeded ones cancelled.
    """
    comp = work.comp
    if round_number != len(comp.rounds):
        return
    rnd = comp.rounds[round_number - 1]
    pairing = rnd.board(match)
    if pairing.second is None:
        return
    settings = comp.settings
    kind = settings.match
    games = [g for g in work.match_games(round_number, match) if g.state != "cancelled"]
    regular = {g.plan.slot: g for g in games if not g.plan.playoff}
    playoffs = {g.plan.index: g for g in games if g.plan.playoff}
    finals = {
        s: FinalGame(g.result, g.reason)
        for s, g in regular.items()
        if g.state == "final" and g.result is not None
    }
    plan = regular_plan(kind, finals)
    knockout = settings.format.is_knockout
    if authoritative and plan.result is not None:
        played: tuple[GameResult, ...] = ()
        first, second = score_round(plan.result, kind, settings.game_scoring)
        if knockout and first.fraction == second.fraction:
            mine = {
                k: g.result
                for k, g in playoffs.items()
                if g.state == "final" and g.result is not None
            }
            played = playoff_sequence(kind, mine, pairing.playoff)
        if (plan.result, played) != (pairing.result, pairing.playoff):
            pairing = enter_result(work, rnd, pairing, plan.result, played)
            comp = work.comp
    drawn = opening_settings(round_opening(work.draws, round_number))
    if pairing.result is None:
        replan(floor, work, round_number, pairing, regular, drawn)
        for slot in plan.slots:
            if slot not in regular:
                planned = floor.named(
                    regular_game(
                        comp,
                        round_number,
                        pairing,
                        slot,
                        time_scale=floor.time_scale,
                        opening=floor.opening,
                        opening_settings=drawn,
                    )
                )
                create(
                    floor, work, planned, preferred_table(floor, work, rnd, pairing, slot, regular)
                )
    else:
        for g in regular.values():
            if g.open:
                cancel(work, g, "the pairing's result is in without it")
    if not knockout or pairing.result is None:
        return
    need = None if comp.match_winner(pairing) is not None else len(pairing.playoff) + 1
    for k, g in playoffs.items():
        if need is None and k > len(pairing.playoff):
            cancel(work, g, "the match is decided without it")
        elif need is not None and g.open and k != need:
            cancel(work, g, "not the playoff game the match needs now")
    if need is not None and need not in playoffs:
        planned = floor.named(
            playoff_game(
                comp,
                round_number,
                pairing,
                need,
                time_scale=floor.time_scale,
                opening=floor.opening,
                opening_settings=drawn,
            )
        )
        work.audit(
            DIRECTOR,
            "playoff-created",
            game=planned.game_id,
            round=round_number,
            match=match,
            number=need,
            black=planned.black,
            white=planned.white,
            time_control=planned.time_control,
        )
        create(floor, work, planned, playoff_table(regular))


_DRAWN = ("black_entrant", "white_entrant", "opening", "opening_settings")
"""What a draw can change in a game not yet played: the first mover, the round's opening."""


def replan(
    floor: Floor,
    work: Work,
    round_number: int,
    pairing: Pairing,
    regular: dict[str, Game],
    drawn: Mapping[str, str | int],
) -> None:
    """Games of ``pairing`` planned before a draw (the round's opening drawn or set, its
    first movers drawn after the director laid the round out) are planned again — cancelled
    and assigned anew on the same table — unless their table shows them started: a game
    keeps the opening and colours it began with (``draw-not-applied`` in the audit)."""
    for slot, game in list(regular.items()):
        if game.state not in ("pending", "assigned"):
            continue
        fresh = floor.named(
            regular_game(
                work.comp,
                round_number,
                pairing,
                slot,
                time_scale=floor.time_scale,
                opening=floor.opening,
                opening_settings=drawn,
            )
        )
        if all(getattr(fresh, f) == getattr(game.plan, f) for f in _DRAWN):
            continue
        if work.started(game):
            work.audit(
                DIRECTOR,
                "draw-not-applied",
                game=game.id,
                table=game.table,
                reason="the game had started before the draw reached the director",
            )
            continue
        cancel(work, game, "a draw changed its first mover or opening before it started")
        del regular[slot]
        regular[slot] = create(floor, work, fresh, game.table)


def drop_unpaired(work: Work) -> None:
    """Open games of pairings that no longer exist (the organisers paired the round
    again) are cancelled."""
    rounds = work.comp.rounds
    for game in work.games():
        if not game.open:
            continue
        p = game.plan
        if p.place is not None:
            continue  # a place playoff: places.settle_places keeps those
        if p.round > len(rounds) or p.round < len(rounds):
            cancel(work, game, f"round {p.round} is not the round being played")
            continue
        try:
            pairing = rounds[p.round - 1].board(p.match)
        except TournamentError:
            cancel(work, game, f"round {p.round} has no match {p.match} any more")
            continue
        if {p.black_entrant, p.white_entrant} != {pairing.first, pairing.second}:
            cancel(work, game, "the pairing changed")


def enter_result(
    work: Work,
    rnd: Round,
    pairing: Pairing,
    result: RoundResult,
    playoff: tuple[GameResult, ...],
) -> Pairing:
    correct = pairing.result is not None
    comp = work.comp.set_result(rnd.number, pairing.board, result, playoff, correct=correct)
    command = f"director: result {rnd.number} {pairing.board} {result}"
    if playoff:
        command += " --playoff " + ",".join(g.value for g in playoff)
    if correct:
        command += " --correct"
    work.set_comp(comp, command)
    updated_round = comp.rounds[rnd.number - 1]
    updated = updated_round.board(pairing.board)
    work.audit(
        DIRECTOR,
        "match-result",
        round=rnd.number,
        match=pairing.board,
        result=str(result),
        playoff=[g.value for g in playoff],
        text=result_text(comp, updated_round, updated),
        correction=correct,
    )
    return updated


def preferred_table(
    floor: Floor,
    work: Work,
    rnd: Round,
    pairing: Pairing,
    slot: str,
    regular: Mapping[str, Game],
) -> int | None:
    if slot == "g2" and "g1" in regular:
        return regular["g1"].table
    layout = round_layout(work.comp.settings.match, rnd.pairings, floor.tables)
    tables = layout.get(pairing.board, ())
    index = slot_index(slot) - 1
    return tables[index] if index < len(tables) else None


def playoff_table(regular: Mapping[str, Game]) -> int | None:
    """The board-1 table (a team match), else the table of the last game played."""
    for slot in ("b1", "g2", "g1"):
        game = regular.get(slot)
        if game is not None and game.table is not None:
            return game.table
    return None


def decided(comp: Competition, rnd: Round) -> bool:
    knockout = comp.settings.format.is_knockout
    return all(
        p.second is None
        or (p.result is not None and (not knockout or comp.match_winner(p) is not None))
        for p in rnd.pairings
    )


def advance(floor: Floor, work: Work) -> None:
    """Pair the next round while the last one is decided; note the end of the event."""
    while True:
        comp = work.comp
        if comp.rounds:
            if not decided(comp, comp.rounds[-1]):
                return
            if len(comp.rounds) >= comp.round_count():
                if comp.finished and not work.core.comp.finished:  # finished by this change
                    state = screens.competition_state(comp, [], {}, work.now_ms)
                    work.audit(
                        DIRECTOR,
                        "event-finished",
                        standings=[
                            {"place": s.place, "place_to": s.place_to, "entrant": s.entrant}
                            for s in state.standings
                        ],
                    )
                return
        try:
            paired = comp.pair()
        except PairingError as exc:
            work.audit(
                DIRECTOR,
                "pairing-failed",
                round=len(comp.rounds) + 1,
                reason=str(exc),
                remedy="pair the round with 'wuzi tournament --db FILE pair …'; the "
                "director takes it from there",
            )
            return
        rnd = paired.rounds[-1]
        work.set_comp(paired, "director: pair")
        work.audit(DIRECTOR, "round-paired", **pairing_json(paired, rnd))
        for p in rnd.pairings:
            settle_match(floor, work, rnd.number, p.board, authoritative=False)


# -- games and tables ---------------------------------------------------------------


def is_free(work: Work, table: int, floor: Floor | None = None) -> bool:
    """No open game of this event on the table (nor, in a network event, as its away
    table), and no running game of another event (`Work.held`: logged once per table and
    game, the game waits for the table)."""
    if not all(not g.open for g in work.table_games(table)):
        return False
    if floor is not None and floor.team_tables:
        for g in work.games():
            pair = floor.linked_pair(g.plan) if g.open else None
            if pair is not None and pair[1] == table:
                return False
    held = work.held(table)
    if held is None:
        return True
    ref = f"held:{table}:{held.event_id}:{held.game_id}"
    if ref not in work.core.seen and ref not in work.change.seen:
        work.change.seen.append(ref)
        work.audit(
            DIRECTOR,
            "table-held",
            table=table,
            other_event=held.event_id,
            other_game=held.game_id,
            status=held.status,
            reason=f"table {table} still plays game {held.game_id} of event "
            f"{held.event_id!r} ({held.status}); it is assigned when that game ends",
        )
    return False


def create(floor: Floor, work: Work, planned: PlannedGame, preferred: int | None) -> Game:
    """A new game: on ``preferred`` if that table is free, else waiting for one."""
    if work.game(planned.game_id) is not None:
        # the slot's earlier game was cancelled (a correction made it unnecessary,
        # another made it necessary again): ids are never reused
        n = 2
        while work.game(f"{planned.game_id}-{n}") is not None:
            n += 1
        planned = replace(planned, game_id=f"{planned.game_id}-{n}")
    game = Game(
        plan=planned,
        seq=work.next_seq,
        table=None,
        state="pending",
        updated_ms=work.now_ms,
    )
    work.next_seq += 1
    pair = floor.linked_pair(planned)
    if pair is not None:  # a network event: the table of black's team's hall, no other
        preferred = pair[0] if is_free(work, pair[1], floor) else None
    if preferred is not None and is_free(work, preferred, floor):
        assign(floor, work, game, preferred)
    else:
        work.put(game)
        work.audit(DIRECTOR, "game-waiting", game=planned.game_id, reason="no free table")
    created = work.game(planned.game_id)
    assert created is not None
    return created


def assign(floor: Floor, work: Work, game: Game, table: int) -> None:
    game = replace(game, table=table, state="assigned", issued_ms=work.now_ms)
    assignment = assignment_of(game)
    setup_from_assignment(assignment)  # a table would refuse it: TableError
    work.put(game)
    pair = floor.linked_pair(game.plan)
    if pair is not None:  # the away table's assignment changes with it
        work.change.tables.add(pair[1])
    p = game.plan
    work.audit(
        DIRECTOR,
        "assignment",
        game=p.game_id,
        table=table,
        host=floor.host_of.get(table),
        black=p.black,
        white=p.white,
        rule_set=p.rule_set,
        opening=p.opening,
        opening_settings=dict(p.opening_settings) or None,
        time_control=p.time_control,
        board=p.board,
        game_in_match=p.game_in_match,
        playoff=p.playoff,
        **({"event_id": work.core.event_id} if work.core.event_id else {}),
    )


def allocate(floor: Floor, work: Work) -> None:
    """Waiting games get free tables, first come first served, in venue order."""
    for game in work.games():
        if game.state != "pending":
            continue
        pair = floor.linked_pair(game.plan)
        if pair is not None:  # a network event: only its two halls' tables will do
            if is_free(work, pair[0], floor) and is_free(work, pair[1], floor):
                assign(floor, work, game, pair[0])
            continue
        table = next((t for t in floor.tables if is_free(work, t)), None)
        if table is None:
            return
        assign(floor, work, game, table)


def cancel(work: Work, game: Game, why: str) -> None:
    before = game.state
    work.put(replace(game, state="cancelled", updated_ms=work.now_ms))
    work.audit(
        DIRECTOR,
        "game-cancelled",
        game=game.id,
        table=game.table,
        was=before,
        result=bus_result(game.result) if game.result is not None else None,
        reason=why,
    )
