"""The director's state machine (pure: no I/O, no clock — ``now_ms`` is an argument).

``DirectorCore`` holds the competition (``wuzi.tournament.event.Competition``) and the
director's games, and turns what arrives from the venue into a ``Change``:

* a host's ``result`` event (``on_result_event``): accepted only if the table is assigned
  that game and the reporting host — the first part of the event id
  ``host/table/game/pseq`` — is the host that serves the table in the venue file;
* a table's retained state (``on_table_state``): which games are being played, and a
  result the director missed (a state ``finished`` for a game still waiting for its
  report), used like the host's own report;
* a referee's signed ``confirm-result`` (``on_command``): makes a result final; a result
  different from the host's is a correction, and so is one that changes a final result;
* a host's status (``on_host_status``): logged when a host comes, goes or restarts;
* the start (``on_start``): pairs round 1 if needed and re-derives the games of the round
  being played (also after the organisers changed the competition with ``wuzi tournament``).

Anything refused is written to the audit log with its reason and changes nothing else;
repeats (the same event or command id, the same result again) change nothing at all.
A ``Change`` says what to store (in one transaction), which tables' retained assignments
to publish and whether the screens' ``CompetitionState`` changed; ``commit`` applies it
once it is stored, so a failed write leaves the core as it was.

When every game of a pairing is final its result goes into the competition; a tied
knockout match gets its playoff game (on the board-1 table), again and again until one is
decisive; when every pairing of the round is decided the next round is paired and its
games laid out on the tables; when the last round is decided the event is finished, and
a Swiss or round robin plays off its ties on prize places (``places``).

The draws of lots (``wuzi tournament draw``, read by the shell with the competition) are
audited once each at the start, and the round's drawn or set opening goes into every
game's ``opening_settings`` (``matches``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from wuzi.bus.auth import AuthError, verify
from wuzi.bus.newest import supersedes
from wuzi.bus.schemas import (
    DIRECTOR_ACTIONS,
    RESULTS,
    ArbiterCommand,
    Assignment,
    CompetitionState,
    HostStatus,
    TableEvent,
    TableState,
)
from wuzi.director import matches, places, screens
from wuzi.director.change import RUNNING, Change, Work, tables_of
from wuzi.director.games import (
    AUTO,
    Game,
    HostSeen,
    assignment_of,
    bus_result,
    draw_entry,
    parse_bus_result,
)
from wuzi.director.schedule import (
    DirectorError,
    PlannedGame,
    place_pair,
    scale_control,
)
from wuzi.rules.procedure import Seat
from wuzi.table.checks import TableError
from wuzi.table.codec import decode_output
from wuzi.table.outputs import GameOver
from wuzi.tournament.draw import DrawRecord
from wuzi.tournament.errors import TournamentError
from wuzi.tournament.event import Competition
from wuzi.tournament.results import GameResult

__all__ = ["Change", "CoreOptions", "DirectorCore", "tables_of"]

DIRECTOR = "director"
DEFAULT_COMMAND_MAX_AGE_MS = 12 * 3600 * 1000
"""Referee commands are accepted up to 12 hours after they were signed: commands queued
by the broker while the director was down arrive late, and every accepted command id is
kept for good, so a repeat is recognised however old."""

_PLAYING = RUNNING


@dataclass(frozen=True)
class CoreOptions:
    auto_confirm: bool = False  # host results are final at once (demo, rehearsals)
    time_scale: float = 1.0  # rehearsals: every time control divided by this
    opening: str | None = None  # the tables' opening procedure instead of the event's
    command_max_age_ms: int = DEFAULT_COMMAND_MAX_AGE_MS


class DirectorCore:
    """The competition and its games; see the module docstring."""

    def __init__(
        self,
        competition: Competition,
        tables: Sequence[tuple[int, str]],
        *,
        options: CoreOptions = CoreOptions(),
        referee_keys: Mapping[str, bytes] | None = None,
        games: Iterable[Game] = (),
        seen: Iterable[str] = (),
        hosts: Mapping[str, HostSeen] | None = None,
        draws: Iterable[DrawRecord] = (),
        event_id: str = "",
        venue_tables: Sequence[tuple[int, str]] | None = None,
        team_tables: Mapping[str, tuple[int, ...]] | None = None,
        venue_of: Mapping[int, str] | None = None,
    ) -> None:
        numbers = [n for n, _ in tables]
        if not numbers:
            raise DirectorError(
                f"event {event_id!r} has no tables" if event_id else "the venue has no tables"
            )
        if len(set(numbers)) != len(numbers):
            raise DirectorError("the venue lists a table twice")
        self.comp = competition
        self.tables = tuple(numbers)
        # every table of the venue and its host: a result is taken only from that host;
        # the tables of other events (venue_tables less tables) are not this director's
        self.host_of = dict(venue_tables if venue_tables is not None else tables)
        self.host_of.update(tables)
        self.event_id = event_id  # the venue file's [[events]] id; "" for one event
        self.options = options
        self.keys = dict(referee_keys or {})
        self.games: dict[str, Game] = {}
        self.by_match: dict[tuple[int, int], list[str]] = {}
        self.by_table: dict[int, list[str]] = {}
        self.seen: set[str] = set(seen)
        self.hosts: dict[str, HostSeen] = dict(hosts or {})
        self.draws: tuple[DrawRecord, ...] = tuple(draws)  # read at start, and at each reload
        self.live: dict[int, tuple[str | None, str]] = {}
        # each table's newest state: an older one (`wuzi.bus.newest`: a broker restored
        # from an old database, a resend) must not take the table back
        self.states: dict[int, TableState] = {}
        self.next_seq = 1
        # what matches.py needs of the venue and the options (it never sees the core)
        self.floor = matches.Floor(
            self.tables,
            self.host_of,
            options.time_scale,
            options.opening,
            event_id,
            dict(team_tables or {}),
        )
        # a network event: the venue (hall) whose topics name each table ({}: this one)
        self.venue_of: dict[int, str] = dict(venue_of or {})
        for game in sorted(games, key=lambda g: g.seq):
            self._index(game)
        scale_control(competition.settings.time_control, options.time_scale)  # DirectorError

    # -- reading ------------------------------------------------------------------------

    def assignment(self, table: int) -> Assignment | None:
        """The retained assignment of ``table``: its latest game that is not cancelled
        (a finished one too: a host that restarts sees it is its current game), or None
        (the retained message is cleared). In a network event a game is linked: its owner
        table's assignment names the away table, and the away table gets one too."""
        latest: Game | None = None
        for gid in reversed(self.by_table.get(table, ())):
            game = self.games[gid]
            if game.table == table and game.state != "cancelled":
                latest = game
                break
        if self.floor.team_tables:
            for game in self.games.values():
                pair = self.floor.linked_pair(game.plan)
                if (
                    pair is not None
                    and pair[1] == table
                    and game.table is not None
                    and game.state != "cancelled"
                    and (latest is None or game.seq > latest.seq)
                ):
                    latest = game
        if latest is None:
            return None
        assignment = replace(assignment_of(latest), event_id=self.event_id)
        pair = self.floor.linked_pair(latest.plan)
        if pair is None:
            return assignment
        owner, away = pair
        if table == owner:
            return replace(
                assignment, linked_venue=self.venue_of.get(away, ""), linked_table=away,
                linked_role="owner",
            )  # fmt: skip
        return replace(
            assignment, table=table, linked_venue=self.venue_of.get(owner, ""),
            linked_table=owner, linked_role="away",
        )  # fmt: skip

    def competition_state(self, now_ms: int) -> CompetitionState:
        state = screens.competition_state(self.comp, list(self.games.values()), self.live, now_ms)
        return replace(state, event_id=self.event_id)

    def held(self, table: int) -> bool:
        """The table's retained state shows another event's game still running there
        (`Work.held`): nothing of this director's goes to it, not even a cleared
        assignment."""
        return Work(self, 0).held(table) is not None

    def foreign(self, table: int | None) -> bool:
        """A table of another event of the venue: its results, states and commands are
        that event's director's, never this one's (ignored, not refused: no audit noise).
        A table of this event's that the venue file moved away still counts as this
        event's while a game of this event is open on it."""
        if table is None or table in self.tables or table not in self.host_of:
            return False
        return not any(self.games[g].open for g in self.by_table.get(table, ()))

    @property
    def finished(self) -> bool:
        return self.comp.finished

    # -- applying a stored change -------------------------------------------------------

    def commit(self, change: Change) -> None:
        """Apply ``change`` (after it is stored)."""
        if change.competition is not None:
            self.comp = change.competition
        for game in sorted(change.games.values(), key=lambda g: g.seq):
            self._index(game)
        self.seen.update(change.seen)
        self.hosts.update(change.hosts)
        self.live.update(change.live)
        self.states.update(change.states)

    def _index(self, game: Game) -> None:
        old = self.games.get(game.id)
        self.games[game.id] = game
        key = (game.plan.round, game.plan.match)
        if old is None:
            self.by_match.setdefault(key, []).append(game.id)
        if game.table is not None and (old is None or old.table != game.table):
            self.by_table.setdefault(game.table, []).append(game.id)
        self.next_seq = max(self.next_seq, game.seq + 1)

    # -- inputs -------------------------------------------------------------------------

    def on_start(self, now_ms: int, *, external: Sequence[str] | None = None) -> Change:
        """Pair round 1 if nothing is paired yet and re-derive the games of the round
        being played; every table's assignment and the screens are published again.
        ``external``: the organisers' commands (``wuzi tournament`` log) found since the
        director last wrote — they are logged, and their results are respected.
        Raises ``DirectorError`` when the event cannot be run."""
        comp = self.comp
        if len(comp.entrants) < 2:
            raise DirectorError(
                f"the event has {len(comp.entrants)} entrant(s); enter them first with "
                "'wuzi tournament --db FILE add-team …' (or add-player, import)"
            )
        work = Work(self, now_ms)
        if external is None:
            work.audit(
                DIRECTOR,
                "director-started",
                event=comp.settings.name,
                event_id=self.event_id or None,
                round=len(comp.rounds),
                tables=len(self.tables),
                auto_confirm=self.options.auto_confirm,
                time_scale=self.options.time_scale,
            )
        else:
            work.audit("organisers", "competition-changed", commands=list(external))
        self._audit_draws(work)
        try:
            matches.drop_unpaired(work)
            if comp.rounds:
                for p in comp.rounds[-1].pairings:
                    matches.settle_match(
                        self.floor, work, len(comp.rounds), p.board, authoritative=False
                    )
            matches.advance(self.floor, work)
            places.settle_places(self.floor, work)
            matches.allocate(self.floor, work)
        except (TournamentError, TableError) as exc:
            raise DirectorError(f"cannot run the event: {exc}") from None
        work.change.tables.update(self.tables)
        work.change.screens = True
        return work.change

    def _audit_draws(self, work: Work) -> None:
        """Every draw of lots not yet in the audit goes in, with who asked for it (its
        ``draw:<seq>`` id is remembered, so each is logged once, also after a restart)."""
        for draw in self.draws:
            ref = f"draw:{draw.seq}"
            if ref not in self.seen:
                work.change.seen.append(ref)
                work.change.audit.append(draw_entry(draw, work.now_ms))

    def on_result_event(self, event: TableEvent, now_ms: int) -> Change:
        """A host's table event; only kind ``result`` concerns the director."""
        if event.kind != "result" or event.event_id in self.seen or self.foreign(event.table):
            return Change(now_ms)
        work = Work(self, now_ms)
        work.change.seen.append(event.event_id)
        parts = event.event_id.split("/")
        host = parts[0]
        base = {"event": event.event_id, "table": event.table, "game": event.game_id}
        actor = f"host:{host}"

        def refuse(reason: str) -> Change:
            work.audit(actor, "result-refused", reason=reason, **base)
            return work.change

        if len(parts) != 4:
            return refuse("the event id is not host/table/game/seq")
        if parts[2] != event.game_id:
            return refuse(f"the event id names game {parts[2]!r}, the event {event.game_id!r}")
        owner = self.host_of.get(event.table)
        if owner is None:
            return refuse(f"table {event.table} is not in the venue")
        if host != owner:
            return refuse(f"table {event.table} is served by host {owner!r}, not {host!r}")
        game = work.game(event.game_id)
        if game is None:
            return refuse(f"no game {event.game_id!r} in this event")
        if game.table != event.table:
            where = f"table {game.table}" if game.table is not None else "no table yet"
            return refuse(f"game {game.id} is assigned to {where}, not table {event.table}")
        if game.state in ("pending", "cancelled"):
            return refuse(f"game {game.id} is {game.state}")
        try:
            over = decode_output("result", event.data)
        except TableError as exc:
            return refuse(f"the result's data is not a game result: {exc}")
        assert isinstance(over, GameOver)
        result = (
            GameResult.DRAW
            if over.winner is None
            else GameResult.BLACK
            if over.winner is Seat.FIRST
            else GameResult.WHITE
        )
        return self._guarded(
            work,
            actor,
            "result-refused",
            base,
            lambda w: self._host_result(w, game, result, over.reason, host, event.event_id),
        )

    def on_table_state(self, state: TableState, now_ms: int) -> Change:
        """A table's retained state: which game is being played there (for the screens)
        and, for a game whose result the director never received, the result it shows.
        A state older than the newest one of its table changes nothing."""
        work = Work(self, now_ms)
        if self.foreign(state.table):
            return work.change
        old = self.states.get(state.table)
        if not supersedes(state, old):
            return work.change
        if state != old:
            work.change.states[state.table] = state
        if state.event_id and state.event_id != self.event_id:
            # another event's game (the table was moved to this event): not ours to
            # show or take a result from; once it no longer runs, the table is free
            was_held = Work(self, now_ms).held(state.table) is not None
            if self.live.get(state.table) != (None, "idle"):
                work.change.live[state.table] = (None, "idle")
                work.change.screens = True
            if was_held and work.held(state.table) is None:
                self._allocate(work)
            return work.change
        was_held = Work(self, now_ms).held(state.table) is not None
        if was_held:
            self._allocate(work)
        live = (state.game_id, state.status)
        before = self.live.get(state.table)
        if before != live:
            work.change.live[state.table] = live
            was = before is not None and before[1] in _PLAYING
            moved = before is not None and before[0] != state.game_id
            if (state.status in _PLAYING) != was or moved:
                work.change.screens = True
        game = self.games.get(state.game_id) if state.game_id else None
        if (
            game is None
            or game.table != state.table
            or game.state != "assigned"
            or state.status != "finished"
            or state.result not in RESULTS
        ):
            return work.change
        black_now = _seat_of_black(game.plan, state)
        if black_now is None:
            return work.change  # names unknown or ambiguous: wait for the event or a referee
        result = parse_bus_result(state.result)
        if black_now is Seat.SECOND and result is not GameResult.DRAW:
            result = GameResult.WHITE if result is GameResult.BLACK else GameResult.BLACK
        loser_ms = state.white_ms if state.result == "1-0" else state.black_ms
        reason = "flag" if state.result != "1/2-1/2" and loser_ms < 0 else None
        host = self.host_of.get(state.table, "?")
        ref = f"state:{state.table}:{state.seq}"
        base = {"event": ref, "table": state.table, "game": game.id}
        return self._guarded(
            work,
            f"host:{host}",
            "result-refused",
            base,
            lambda w: self._host_result(w, game, result, reason, host, ref),
        )

    def on_command(self, cmd: ArbiterCommand, now_ms: int) -> Change:
        """A referee command; only the director's actions (``confirm-result``) count."""
        if cmd.action not in DIRECTOR_ACTIONS or cmd.command_id in self.seen:
            return Change(now_ms)
        if self.foreign(cmd.table):
            return Change(now_ms)  # the other event's director's command
        work = Work(self, now_ms)
        actor = f"referee:{cmd.referee}"
        base = {"command": cmd.command_id, "table": cmd.table, "args": dict(cmd.args)}
        try:
            verify(cmd, self.keys, now_ms=now_ms, max_age_ms=self.options.command_max_age_ms)
        except AuthError as exc:
            # not remembered as seen: it is not a referee's command
            work.audit(actor, "command-refused", reason=str(exc), **base)
            return work.change
        work.change.seen.append(cmd.command_id)
        return self._guarded(
            work, actor, "command-refused", base, lambda w: self._confirm(w, cmd, actor)
        )

    def on_host_status(self, status: HostStatus, now_ms: int) -> Change:
        """A host's retained status: logged when it changes (online, offline, restarted)."""
        if status.host not in self.host_of.values():
            return Change(now_ms)
        before = self.hosts.get(status.host)
        if before is not None and (before.online, before.boot_id) == (
            status.online,
            status.boot_id,
        ):
            return Change(now_ms)
        work = Work(self, now_ms)
        work.change.hosts[status.host] = HostSeen(status.online, status.boot_id, status.at_ms)
        work.audit(
            f"host:{status.host}",
            "host-online" if status.online else "host-offline",
            boot_id=status.boot_id,
            tables=list(status.tables),
            restarted=before is not None and before.boot_id != status.boot_id,
            host_at_ms=status.at_ms,
        )
        return work.change

    def _allocate(self, work: Work) -> None:
        """Waiting games take tables that just came free (another event's game ended)."""
        try:
            matches.allocate(self.floor, work)
        except (TournamentError, TableError) as exc:
            work.audit(DIRECTOR, "allocation-failed", reason=str(exc))

    # -- results ------------------------------------------------------------------------

    def _guarded(
        self,
        work: Work,
        actor: str,
        action: str,
        base: Mapping[str, Any],
        apply: Callable[[Work], str | None],
    ) -> Change:
        """Run ``apply``; if it refuses (returns a reason) or the competition refuses
        (``TournamentError``), nothing but the refusal (and the seen id) is kept."""
        seen, live, screens_before = list(work.change.seen), work.change.live, work.change.screens
        try:
            reason = apply(work)
        except (TournamentError, DirectorError, TableError) as exc:
            reason = str(exc)
        if reason is None:
            return work.change
        fresh = Work(self, work.now_ms)
        fresh.change.seen = seen
        fresh.change.live = live
        fresh.change.screens = screens_before
        fresh.audit(actor, action, reason=reason, **base)
        return fresh.change

    def _correctable(self, work: Work, game: Game) -> str | None:
        if game.plan.place is not None:
            first, second = place_pair(game.plan)
            if any({t.first, t.second} == {first, second} for t in work.comp.tie_playoffs):
                return (
                    f"game {game.id} belongs to a place playoff already decided; only the "
                    "organisers can change it now ('wuzi tournament playoff')"
                )
            return None
        current = len(work.comp.rounds)
        if game.plan.round != current:
            return (
                f"game {game.id} is in round {game.plan.round}, and round {current} is "
                "already paired from its results; only the organisers can change it now"
            )
        return None

    def _host_result(
        self,
        work: Work,
        game: Game,
        result: GameResult,
        reason: str | None,
        host: str,
        event_ref: str,
    ) -> str | None:
        actor = f"host:{host}"
        details = {
            "game": game.id,
            "table": game.table,
            "result": bus_result(result),
            "reason": reason,
            "event": event_ref,
        }
        auto = self.options.auto_confirm
        if game.state == "final":
            if game.result is result:
                return None  # a repeat
            assert game.result is not None
            if not (auto and game.confirmed_by == AUTO):
                return (
                    f"game {game.id} is final ({bus_result(game.result)}, confirmed by "
                    f"{game.confirmed_by}); only a referee's confirm-result changes it"
                )
            problem = self._correctable(work, game)
            if problem is not None:
                return problem
            work.audit(actor, "result-corrected", previous=bus_result(game.result), **details)
            game = replace(
                game,
                result=result,
                reason=reason,
                reported_result=result,
                reported_by=host,
                reported_by_event=event_ref,
                updated_ms=work.now_ms,
            )
            work.put(game)
            self._settled(work, game)
            return None
        if game.state == "reported" and game.result is result:
            if not auto:
                return None  # a repeat
        else:
            if game.state == "reported" and game.result is not None:
                details["replaces"] = bus_result(game.result)
            work.audit(actor, "result-reported", **details)
            game = replace(
                game,
                state="reported",
                result=result,
                reason=reason,
                reported_result=result,
                reported_by=host,
                reported_by_event=event_ref,
                updated_ms=work.now_ms,
            )
            work.put(game)
        if auto:
            game = replace(game, state="final", confirmed_by=AUTO, updated_ms=work.now_ms)
            work.put(game)
            work.audit(
                DIRECTOR,
                "result-confirmed",
                game=game.id,
                table=game.table,
                result=bus_result(result),
                by="auto-confirm",
            )
            self._settled(work, game)
        return None

    def _confirm(self, work: Work, cmd: ArbiterCommand, actor: str) -> str | None:
        extra = sorted(set(cmd.args) - {"game_id", "result"})
        if extra:
            return f"confirm-result takes game_id and result, not {extra[0]!r}"
        gid = cmd.args.get("game_id")
        if not isinstance(gid, str):
            return "confirm-result needs game_id (the assignment's game id)"
        try:
            result = parse_bus_result(cmd.args.get("result"))
        except ValueError as exc:
            return str(exc)
        if cmd.table is None:
            return "confirm-result names one table, not every table"
        game = work.game(gid)
        if game is None:
            return f"no game {gid!r} in this event"
        if game.table != cmd.table:
            where = f"table {game.table}" if game.table is not None else "no table yet"
            return f"game {gid} is assigned to {where}, not table {cmd.table}"
        if game.state in ("pending", "cancelled"):
            return f"game {gid} is {game.state}"
        problem = _binding_problem(cmd, gid, game.plan.round)
        if problem is not None:
            return problem
        details: dict[str, Any] = {
            "game": gid,
            "table": game.table,
            "result": bus_result(result),
            "command": cmd.command_id,
        }
        if game.state == "final":
            assert game.result is not None
            if game.result is result:
                work.audit(actor, "confirm-repeated", **details)
                return None
            problem = self._correctable(work, game)
            if problem is not None:
                return problem
            action = "result-corrected"
            details["previous"] = bus_result(game.result)
            details["previously_confirmed_by"] = game.confirmed_by
        elif game.state == "reported":
            assert game.result is not None
            action = "result-confirmed" if game.result is result else "result-corrected"
            details["reported"] = bus_result(game.result)
        else:
            action = "result-confirmed"
            details["note"] = "no result was reported by the host"
        reason = game.reason if game.result is result else "referee"
        game = replace(
            game,
            state="final",
            result=result,
            reason=reason,
            confirmed_by=cmd.referee,
            updated_ms=work.now_ms,
        )
        work.put(game)
        work.audit(actor, action, **details)
        self._settled(work, game)
        return None

    def _settled(self, work: Work, game: Game) -> None:
        """A game became final (or its final result changed): settle its pairing, pair
        the next round when this one is decided, give waiting games free tables."""
        if game.plan.place is None:
            matches.settle_match(
                self.floor, work, game.plan.round, game.plan.match, authoritative=True
            )
            matches.advance(self.floor, work)
        places.settle_places(self.floor, work)
        matches.allocate(self.floor, work)


def _binding_problem(cmd: ArbiterCommand, game_id: str, round_number: int) -> str | None:
    """Why a director's command for game ``game_id`` of round ``round_number`` is not
    signed for them, or None. Its signature binds ``game_id`` and ``round`` (issue 32;
    docs/referee.md): a confirm-result of one game is never taken for another."""
    if cmd.game_id != game_id:
        return (
            f"command {cmd.command_id} is signed for game {cmd.game_id or 'none'}, not for"
            f" game {game_id} that it confirms"
        )
    if cmd.round != round_number:
        signed = "no round" if cmd.round is None else f"round {cmd.round}"
        return (
            f"command {cmd.command_id} is signed for {signed}; game {game_id} is of"
            f" round {round_number}"
        )
    return None


def _seat_of_black(plan: PlannedGame, state: TableState) -> Seat | None:
    """Which seat holds Black in a table state, from the names it shows (None when the
    names do not tell)."""
    if plan.black == plan.white:
        return None
    if (state.black, state.white) == (plan.black, plan.white):
        return Seat.FIRST
    if (state.black, state.white) == (plan.white, plan.black):
        return Seat.SECOND
    return None
