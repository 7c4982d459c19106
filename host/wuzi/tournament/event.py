"""One competition as a value: its settings, entrants, rounds and results.

``Competition`` is what the organisers' command keeps in SQLite and what the rehearsal
(``simulate``) runs in memory. Every change returns a new ``Competition`` (or raises with
the reason, changing nothing): add an entrant, withdraw one, pair the next round, enter a
result. Pairing dispatches on the format:

* ``swiss`` — ``swiss.pair_swiss_round`` over the entrants taking part in the round (late
  entries from the round after they entered; withdrawn entrants no longer);
* ``round-robin`` — the Berger table (``roundrobin``), pairing numbers by seed, else entry
  order;
* ``knockout-placement`` / ``team-knockout-placement`` — the placement knockout
  (``knockout``), seeds by seed, else entry order; a tied match needs its playoff before the
  next round can be paired;
* ``team-semifinal`` — one knockout round whose pool is the cross pairing of the two
  preliminary groups (``semifinal``): public #k v pro #(9−k); its winners qualify.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

from wuzi.rules.board import Colour
from wuzi.tournament import knockout, roundrobin, semifinal
from wuzi.tournament.entrants import Player, Team, check_group
from wuzi.tournament.errors import EntryError, PairingError, ResultError, SettingsError
from wuzi.tournament.history import Pairing, Round, RoundEntry, build_histories
from wuzi.tournament.playoff import PlayoffKind, playoff_black, playoff_winner
from wuzi.tournament.prizes import prize_places
from wuzi.tournament.ratings import RatedGame
from wuzi.tournament.results import GameResult, MatchKind, RoundResult, Side
from wuzi.tournament.settings import MAX_SWISS_ROUNDS, EventSettings, Format
from wuzi.tournament.standings import Standings, TiePlayoff, compute_standings
from wuzi.tournament.swiss import SwissEntrant, pair_swiss_round, pairing_numbers
from wuzi.tournament.team_match import match_winner

MAX_SEED = 9999
"""More than any field has entrants; bounded so a mistyped seed is an error, not an integer
too big for SQLite."""


@dataclass(frozen=True)
class BoardGame:
    """One game between two players of a round (a team match's board game, or an
    individual game), in its colours."""

    round: int
    black: str  # player id
    white: str
    result: GameResult
    played: bool  # False: a forfeit, no game over the board


@dataclass(frozen=True)
class Entrant:
    """A player or a team in this event, with its entry facts."""

    id: str
    name: str
    rating: int
    order: int  # entry order, from 1
    seed: int | None = None
    joined_round: int = 1  # a late entry's first round
    withdrawn_round: int | None = None  # not paired from this round on
    player: Player | None = None
    team: Team | None = None

    def active_in(self, round_number: int) -> bool:
        if round_number < self.joined_round:
            return False
        return self.withdrawn_round is None or round_number < self.withdrawn_round


@dataclass(frozen=True)
class TiePlayoffRecord:
    """A place playoff between two entrants level on a prize place."""

    first: str
    second: str
    games: tuple[GameResult, ...]

    def winner(self) -> str | None:
        side = playoff_winner(PlayoffKind.PLACE, self.games)
        if side is None:
            return None
        return self.first if side is Side.FIRST else self.second


@dataclass(frozen=True)
class Competition:
    settings: EventSettings
    entrants: tuple[Entrant, ...] = ()
    rounds: tuple[Round, ...] = ()
    tie_playoffs: tuple[TiePlayoffRecord, ...] = field(default=())

    # -- entrants ---------------------------------------------------------------------

    def entrant(self, key: str) -> Entrant:
        """An entrant by ID or by (unique) name."""
        for e in self.entrants:
            if e.id == key:
                return e
        named = [e for e in self.entrants if e.name == key]
        if len(named) == 1:
            return named[0]
        if len(named) > 1:
            raise EntryError(f"{key!r} names {len(named)} entrants; use the ID")
        raise EntryError(f"no entrant {key!r} in this event")

    def _player_ids(self) -> dict[str, str]:
        used: dict[str, str] = {}
        for e in self.entrants:
            used[e.id] = e.name
            if e.team is not None:
                for p in e.team.players:
                    used[p.id] = p.name
        return used

    def add_player(self, player: Player, seed: int | None = None) -> Competition:
        if self.settings.team_event:
            raise EntryError(f"this is a team event; enter {player.label} in a team")
        if self.settings.group is not None:
            check_group(player, self.settings.group)
        return self._add(Entrant(player.id, player.name, player.rating, 0, seed, player=player))

    def add_team(self, team: Team, seed: int | None = None) -> Competition:
        if not self.settings.team_event:
            raise EntryError(f"this is an individual event; team {team.name!r} cannot enter")
        if self.settings.format is Format.TEAM_SEMIFINAL:
            semifinal.check_entry(team.name, seed)
            semifinal.check_unit(team, seed, [(e.team, e.seed) for e in self.entrants])
        used = self._player_ids()
        for p in team.players:
            if p.id in used:
                raise EntryError(
                    f"team {team.name!r}: player ID {p.id!r} is already entered ({used[p.id]})"
                )
        return self._add(Entrant(team.id, team.name, team.rating, 0, seed, team=team))

    def _add(self, entrant: Entrant) -> Competition:
        used = self._player_ids()
        if entrant.id in used:
            raise EntryError(f"ID {entrant.id!r} is already entered ({used[entrant.id]})")
        if any(e.name == entrant.name for e in self.entrants):
            raise EntryError(f"an entrant named {entrant.name!r} is already entered")
        if entrant.seed is not None:
            if not 1 <= entrant.seed <= MAX_SEED:
                raise EntryError(f"{entrant.name!r}: a seed is 1 to {MAX_SEED}, not {entrant.seed}")
            for e in self.entrants:
                if e.seed == entrant.seed:
                    raise EntryError(f"seed {entrant.seed} is already {e.name!r}'s")
        joined = 1
        if self.rounds:
            if self.settings.format is not Format.SWISS:
                raise EntryError(
                    f"{entrant.name!r}: a {self.settings.format.value} cannot take entries "
                    "once round 1 is paired (late entries are for a Swiss)"
                )
            joined = len(self.rounds) + 1
        added = replace(entrant, order=len(self.entrants) + 1, joined_round=joined)
        return replace(self, entrants=(*self.entrants, added))

    def withdraw(self, key: str, from_round: int | None = None) -> Competition:
        """Take an entrant out from ``from_round`` on (default: the next round to pair).

        Results already in stay; a round already paired is settled with a forfeit result.
        """
        who = self.entrant(key)
        if self.settings.format is not Format.SWISS:
            raise EntryError(
                f"{who.name!r}: in a {self.settings.format.value} a withdrawal is entered as "
                "forfeits of the remaining games (result … white-by-forfeit)"
            )
        start = len(self.rounds) + 1 if from_round is None else from_round
        if start < 1:
            raise EntryError(f"{who.name!r}: rounds are numbered from 1, not {start}")
        if start > self.round_count():
            raise EntryError(
                f"{who.name!r}: the event has {self.round_count()} rounds; there is no round "
                f"{start} to withdraw from"
            )
        if start <= len(self.rounds):
            raise EntryError(
                f"round {start} is already paired; withdraw {who.name!r} from round "
                f"{len(self.rounds) + 1} and enter a forfeit for round {start}"
            )
        if who.withdrawn_round is not None:
            raise EntryError(
                f"{who.name!r} has already withdrawn (from round {who.withdrawn_round})"
            )
        entrants = tuple(
            replace(e, withdrawn_round=start) if e is who else e for e in self.entrants
        )
        return replace(self, entrants=entrants)

    # -- rounds -----------------------------------------------------------------------

    def round_count(self) -> int:
        n = len(self.entrants)
        fmt = self.settings.format
        if fmt is Format.SWISS:
            return self.settings.rounds
        if n < 2:
            return 0
        if fmt is Format.ROUND_ROBIN:
            return roundrobin.round_count(n, self.settings.double_round_robin)
        if fmt is Format.TEAM_SEMIFINAL:
            return 1
        return knockout.round_count(n)

    @property
    def finished(self) -> bool:
        return (
            len(self.rounds) == self.round_count()
            and bool(self.rounds)
            and all(self._round_decided(r) for r in self.rounds)
        )

    def seeded(self) -> list[Entrant]:
        """Entrants in seed order: seeded ones by seed, then the rest by entry order."""
        return sorted(self.entrants, key=lambda e: (e.seed is None, e.seed or 0, e.order))

    def pairing_numbers(self) -> dict[str, int]:
        if self.settings.format is Format.SWISS:
            return pairing_numbers([SwissEntrant(e.id, e.rating, e.order) for e in self.entrants])
        return {e.id: i + 1 for i, e in enumerate(self.seeded())}

    def histories(self) -> dict[str, list[RoundEntry]]:
        s = self.settings
        return build_histories(
            [e.id for e in self.entrants], self.rounds, s.match, s.scoring, s.game_scoring
        )

    def _round_decided(self, rnd: Round) -> bool:
        if not rnd.finished:
            return False
        if not self.settings.format.is_knockout:
            return True
        return all(p.is_bye or self.match_winner(p) is not None for p in rnd.pairings)

    def match_winner(self, pairing: Pairing) -> str | None:
        """A knockout match's winner (None while undecided or unplayed)."""
        if pairing.second is None:
            return pairing.first
        if pairing.result is None:
            return None
        side = match_winner(
            self.settings.match, pairing.result, pairing.playoff, self.settings.game_scoring
        )
        if side is None:
            return None
        return pairing.first if side is Side.FIRST else pairing.second

    def next_round(
        self, fixed: Sequence[tuple[str, str | None]] = (), reason: str | None = None
    ) -> Round:
        """Pair the next round (not added: see ``with_round``)."""
        number = len(self.rounds) + 1
        fmt = self.settings.format
        if len(self.entrants) < 2:
            raise PairingError(f"{len(self.entrants)} entrants: at least 2 are needed to pair")
        if self.rounds and not self._round_decided(self.rounds[-1]):
            missing = [
                f"board {p.board}"
                for p in self.rounds[-1].pairings
                if not p.finished
                or (fmt.is_knockout and not p.is_bye and self.match_winner(p) is None)
            ]
            raise PairingError(
                f"round {number - 1} is not finished: {', '.join(missing)} "
                + ("need a result or a playoff" if fmt.is_knockout else "need a result")
            )
        if number > self.round_count():
            raise PairingError(f"all {self.round_count()} rounds are paired; the event is over")
        if fixed and fmt is not Format.SWISS:
            raise PairingError(f"a {fmt.value} follows its table; pairing by hand is for a Swiss")
        if fmt is Format.SWISS:
            return self._pair_swiss(number, fixed, reason)
        if fmt is Format.ROUND_ROBIN:
            return self._pair_round_robin(number)
        return self._pair_knockout(number)

    def with_round(self, rnd: Round) -> Competition:
        if rnd.number != len(self.rounds) + 1:
            raise PairingError(f"round {rnd.number} is not the next round ({len(self.rounds) + 1})")
        return replace(self, rounds=(*self.rounds, rnd))

    def pair(
        self, fixed: Sequence[tuple[str, str | None]] = (), reason: str | None = None
    ) -> Competition:
        return self.with_round(self.next_round(fixed, reason))

    def unpair_last(self) -> Competition:
        """Drop the last round, allowed only while none of its results is in."""
        if not self.rounds:
            raise PairingError("no round is paired yet")
        last = self.rounds[-1]
        if any(p.result is not None for p in last.pairings):
            raise PairingError(f"round {last.number} already has results; it cannot be re-paired")
        return replace(self, rounds=self.rounds[:-1])

    def _pair_swiss(
        self, number: int, fixed: Sequence[tuple[str, str | None]], reason: str | None
    ) -> Round:
        active = [e for e in self.entrants if e.active_in(number)]
        histories = self.histories()
        points = {e: sum(r.points for r in entries) for e, entries in histories.items()}
        resolved = [
            (self.entrant(b).id, self.entrant(w).id if w is not None else None) for b, w in fixed
        ]
        pairings = pair_swiss_round(
            number,
            [SwissEntrant(e.id, e.rating, e.order) for e in active],
            histories,
            points,
            fixed=resolved,
            reason=reason,
            initial_colour=self.settings.initial_colour,
            numbers=self.pairing_numbers(),
        )
        return Round(number, pairings)

    def _pair_round_robin(self, number: int) -> Round:
        seeded = self.seeded()
        table = roundrobin.berger_rounds(len(seeded), self.settings.double_round_robin)
        pairings = []
        for board, (a, b) in enumerate(table[number - 1], start=1):
            second = seeded[b - 1].id if b is not None else None
            pairings.append(Pairing(board, seeded[a - 1].id, second))
        # the bye goes last, as in a Swiss
        pairings.sort(key=lambda p: p.second is None)
        return Round(number, tuple(replace(p, board=i + 1) for i, p in enumerate(pairings)))

    def knockout_pools(self) -> tuple[knockout.Pool, ...]:
        """The pools after the rounds decided so far (the semifinal's: ``PairingError`` while
        a place of its sheet is empty)."""
        if self.settings.format is Format.TEAM_SEMIFINAL:
            slots = semifinal.semifinal_slots({e.id: e.seed for e in self.entrants})
            pools: tuple[knockout.Pool, ...] = (knockout.Pool(1, slots),)
        else:
            pools = knockout.initial_pools([e.id for e in self.seeded()])
        for rnd in self.rounds:
            if not self._round_decided(rnd):
                break
            winners = {p.board: self.match_winner(p) for p in rnd.pairings}
            pools = knockout.next_pools(pools, rnd.number, winners)
        return pools

    def _pair_knockout(self, number: int) -> Round:
        pools = self.knockout_pools()
        pairings = []
        for match in knockout.round_matches(pools, number):
            places: tuple[int, int] | None = (match.first_place, match.last_place)
            if self.settings.format is Format.TEAM_SEMIFINAL:
                places = None  # no place is played for: a place in the final is
            if match.first is None and match.second is None:
                continue
            if match.first is None or match.second is None:
                walkover = match.walkover_winner
                assert walkover is not None
                pairings.append(Pairing(match.number, walkover, None, places=places))
            else:
                pairings.append(Pairing(match.number, match.first, match.second, places=places))
        return Round(number, tuple(pairings))

    # -- results ----------------------------------------------------------------------

    def set_result(
        self,
        round_number: int,
        board: int,
        result: RoundResult,
        playoff: Sequence[GameResult] = (),
        correct: bool = False,
        decisive: bool = False,
    ) -> Competition:
        """Enter (or, with ``correct``, change) the result of one board of a round.

        ``decisive``: the playoff games given must decide the match (the organisers enter
        a playoff once it is over; the director enters it game by game)."""
        if not 1 <= round_number <= len(self.rounds):
            raise ResultError(
                f"round {round_number} is not paired (rounds paired: {len(self.rounds)})"
            )
        rnd = self.rounds[round_number - 1]
        pairing = rnd.board(board)
        if pairing.second is None:
            raise ResultError(f"round {round_number} board {board} is a bye: it has no result")
        result.check(self.settings.match)
        if pairing.result is not None and not correct:
            raise ResultError(
                f"round {round_number} board {board} already has the result {pairing.result}; "
                "use --correct to change it"
            )
        if (
            correct
            and round_number < len(self.rounds)
            and self.settings.format is not Format.ROUND_ROBIN
        ):
            raise ResultError(
                f"round {round_number + 1} is already paired from this result; a correction "
                f"to round {round_number} needs round {len(self.rounds)} re-paired first"
            )
        if playoff and not self.settings.format.is_knockout:
            raise ResultError("a playoff belongs to a knockout match; this event has none")
        updated = replace(pairing, result=result, playoff=tuple(playoff))
        if self.settings.format.is_knockout:
            won = match_winner(
                self.settings.match, result, updated.playoff, self.settings.game_scoring
            )
            if decisive and playoff and won is None:
                games = ",".join(g.value for g in playoff)
                raise ResultError(
                    f"round {round_number} match {board} stands level ({result}) and the "
                    f"playoff {games} does not decide it: it goes on until one game is "
                    "decisive (000 六(二)); enter it when it is decided"
                )
        pairings = tuple(updated if p.board == board else p for p in rnd.pairings)
        rounds = list(self.rounds)
        rounds[round_number - 1] = Round(rnd.number, pairings)
        return replace(self, rounds=tuple(rounds))

    def set_playoff(
        self, round_number: int, board: int, playoff: Sequence[GameResult], correct: bool = False
    ) -> Competition:
        """The playoff of a knockout match already entered as level (a team match standing
        3–3): the board results stay, the playoff must decide it; a playoff already entered
        is replaced only with ``correct``."""
        if not 1 <= round_number <= len(self.rounds):
            raise ResultError(
                f"round {round_number} is not paired (rounds paired: {len(self.rounds)})"
            )
        pairing = self.rounds[round_number - 1].board(board)
        if pairing.result is None:
            raise ResultError(
                f"round {round_number} match {board} has no result yet: enter the boards "
                "and the playoff together (result R M BOARDS --playoff G,G,…)"
            )
        if not self.settings.format.is_knockout:
            raise ResultError("a playoff belongs to a knockout match; this event has none")
        if pairing.playoff and not correct:
            games = ",".join(g.value for g in pairing.playoff)
            raise ResultError(
                f"round {round_number} match {board} already has the playoff {games}; "
                "use --correct to change it"
            )
        return self.set_result(
            round_number, board, pairing.result, playoff, correct=True, decisive=True
        )

    def add_tie_playoff(
        self, first: str, second: str, games: Sequence[GameResult], correct: bool = False
    ) -> Competition:
        """Record a place playoff between two entrants level on a prize place.

        A pair's playoff is entered once: entering it again with other games would quietly
        move a prize place, so it takes ``correct`` (``playoff --correct``, logged)."""
        a, b = self.entrant(first), self.entrant(second)
        if a.id == b.id:
            raise ResultError(f"a playoff needs two entrants, not {a.name!r} twice")
        if self.settings.format.is_knockout:
            raise ResultError("a knockout decides every place itself; no place playoff")
        standings = self.standings(with_playoffs=False)
        rows = {r.entrant: r for r in standings.rows}
        ra, rb = rows[a.id], rows[b.id]
        if ra.place != rb.place or not ra.playoff_needed:
            raise ResultError(
                f"{a.name!r} (place {ra.place}) and {b.name!r} (place {rb.place}) are not "
                "level on a prize place"
            )
        record = TiePlayoffRecord(a.id, b.id, tuple(games))
        if record.winner() is None:
            raise ResultError(
                f"the playoff {a.name} v {b.name} is not decided by {len(games)} game(s): "
                "two games with colours swapped, then single games until one is decisive"
            )
        entered = [t for t in self.tie_playoffs if {t.first, t.second} == {a.id, b.id}]
        if entered and not correct:
            games_in = ",".join(g.value for g in entered[0].games)
            raise ResultError(
                f"the playoff {a.name} v {b.name} is already entered ({games_in}); "
                "use --correct to replace it"
            )
        if correct and not entered:
            raise ResultError(f"no playoff {a.name} v {b.name} is entered yet: nothing to correct")
        others = tuple(t for t in self.tie_playoffs if {t.first, t.second} != {a.id, b.id})
        return replace(self, tie_playoffs=(*others, record))

    # -- standings --------------------------------------------------------------------

    def prize_places(self) -> int:
        if self.settings.format is Format.TEAM_SEMIFINAL:
            return 0  # its winners qualify (000 五(三)2); no prizes (000 九)
        if self.settings.format.is_knockout:
            return len(self.settings.prizes) or prize_places(len(self.entrants))
        return prize_places(len(self.entrants))

    def standings(self, with_playoffs: bool = True) -> Standings:
        if self.settings.format.is_knockout:
            raise SettingsError("a knockout has places, not points standings: see placements()")
        playoffs = []
        if with_playoffs:
            for t in self.tie_playoffs:
                winner = t.winner()
                if winner is not None:
                    playoffs.append(TiePlayoff(t.first, t.second, winner))
        # ties on a prize place need a playoff only once the last round is in
        return compute_standings(
            self.histories(),
            self.settings.tiebreaks,
            self.prize_places(),
            playoffs,
            self.pairing_numbers(),
            final=self.finished,
        )

    def placements(self) -> list[tuple[tuple[int, int], Entrant]]:
        """Knockout places so far: every entrant with the places still open to it (in the
        semifinal, 1–8 for a winner, 9–16 for a loser; 1–n for all while its sheet is not
        full)."""
        try:
            pools = self.knockout_pools()
        except PairingError:
            if self.settings.format is not Format.TEAM_SEMIFINAL:
                raise
            pools = (knockout.Pool(1, tuple(e.id for e in self.seeded())),)
        ranges = knockout.place_ranges(pools)
        return sorted(
            ((ranges[e.id], e) for e in self.entrants), key=lambda item: (item[0], item[1].order)
        )

    # -- ratings ----------------------------------------------------------------------

    def board_games(self) -> Iterator[BoardGame]:
        """Every game of the rounds between players (team boards included), in round,
        match and board order; forfeits too (``played`` False). A match lost on the flag
        in game 1 is one game, first entrant against second."""
        kind = self.settings.match
        for rnd in self.rounds:
            for p in rnd.pairings:
                if p.second is None or p.result is None:
                    continue
                first, second = self.entrant(p.first), self.entrant(p.second)
                if p.result.flag_in_game1 is not None:
                    loser_black = p.result.flag_in_game1 is Colour.BLACK
                    won = GameResult.WHITE if loser_black else GameResult.BLACK
                    yield BoardGame(rnd.number, p.first, p.second, won, True)
                    continue
                for index, game in enumerate(p.result.games):
                    if kind is MatchKind.TEAM:
                        assert first.team is not None and second.team is not None
                        a, b = first.team.board(index + 1).id, second.team.board(index + 1).id
                    else:
                        a, b = first.id, second.id
                    black, white = (a, b) if kind.first_colour(index) is Colour.BLACK else (b, a)
                    yield BoardGame(rnd.number, black, white, game, game.played)

    def rated_games(self) -> list[RatedGame]:
        """Every game played over the board, between players (team boards included);
        playoff games are not rated."""
        return [
            RatedGame(g.black, g.white, g.result.fraction(Colour.BLACK))
            for g in self.board_games()
            if g.played
        ]

    def player_ratings(self) -> dict[str, float]:
        ratings: dict[str, float] = {}
        for e in self.entrants:
            if e.team is not None:
                ratings.update((p.id, float(p.rating)) for p in e.team.players)
            else:
                ratings[e.id] = float(e.rating)
        return ratings


def playoff_black_entrant(kind: MatchKind, pairing: Pairing, index: int) -> str:
    """The entrant (team or player) with Black in playoff game ``index`` of a knockout
    match."""
    playoff_kind = PlayoffKind.CAPTAINS if kind is MatchKind.TEAM else PlayoffKind.PLACE
    side = playoff_black(playoff_kind, index)
    assert pairing.second is not None
    return pairing.first if side is Side.FIRST else pairing.second


def default_swiss_rounds(entrants: int) -> int:
    """A sensible Swiss length: ⌈log2 n⌉ + 2, at most 9 and fewer than the field."""
    if entrants < 2:
        return 1
    return max(1, min(MAX_SWISS_ROUNDS, math.ceil(math.log2(entrants)) + 2, entrants - 1))


__all__ = [
    "MAX_SWISS_ROUNDS",
    "BoardGame",
    "Competition",
    "Entrant",
    "EventSettings",
    "Format",
    "TiePlayoffRecord",
    "default_swiss_rounds",
    "playoff_black_entrant",
]
