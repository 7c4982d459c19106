"""The spectators' web page's model: the public feed in, JSON views and game records out.

Pure: no I/O, no clock — ``received_ms``/``now_ms`` are the server's monotonic
milliseconds. `WebModel.apply` folds one message of ``public/table/<n>/state``,
``public/table/<n>/events``, ``competition/state`` or ``competition/<event>/state`` and
says what changed; the views
(`table_view`, `game_view`, `competition_view`, `snapshot`) are plain JSON values the
server sends to every browser; `record` builds a finished (or running) game's
`GameRecord` for the SGF and ``.psq`` writers of `wuzi.rules.formats`.

What the page may show is what the delayed public feed carries — the stones, the clocks,
the players, the results — and the director's competition summary. The model refuses
any other topic (a live ``table/`` message included), so a wrong subscription cannot put
live play on a page that the internet reads.

Events: a hall may run several events at once (the 2019 open's men's, women's and open
groups), each director publishing its summary on ``competition/<event>/state``. The model
keeps one summary per event (``competitions``, "" the one-event topic's); each table's
view carries its game's ``event`` id and ``event_name``; `events_view` lists the events of
a hall of several (each with its standings and bracket, the page's event pages), empty
for a one-event venue, whose views are as they were before events.

Clocks: a view carries each side's time *at ``now_ms``* (the running side counted down
from the state's local receive time, as the scoreboard does); the browser counts on from
the moment it got the view. Games are kept by ``game_id`` (at most ``max_games``, oldest
dropped first), so a game's page and its record stay after its table moved on.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from wuzi.bus.newest import supersedes
from wuzi.bus.schemas import (
    Cleared,
    CompetitionState,
    MatchSummary,
    Message,
    TableEvent,
    TableState,
)
from wuzi.bus.topics import TopicError, TopicKind, parse_topic
from wuzi.display.scoreboard_model import LABELS, TIEBREAK_LABELS, format_score
from wuzi.rules.board import point_name
from wuzi.rules.record import GameRecord, GameResult, Player

__all__ = ["Change", "WebModel", "WebModelError"]

MAX_GAMES = 5000
_RESULTS = {"1-0": "black", "0-1": "white", "1/2-1/2": "draw"}
_REASON_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-_")

Change = tuple[str, str]
"""What changed: ``("table", "12")``, ``("competition", "")`` (the one-event venue's),
``("competition", "men")`` (an event's of a hall of several)."""


class WebModelError(ValueError):
    """A message the page must not be built from (another topic, another venue)."""


@dataclass
class _Game:
    table: int
    state: TableState
    received_ms: int
    reason: str | None = None  # from the game's public ``result`` event


@dataclass
class WebModel:
    venue: str
    max_games: int = MAX_GAMES
    competitions: dict[str, CompetitionState] = field(default_factory=dict)  # by event id
    _tables: dict[int, tuple[TableState, int]] = field(default_factory=dict)
    _games: OrderedDict[str, _Game] = field(default_factory=OrderedDict)

    # --- folding messages ---------------------------------------------------------------

    def apply(self, topic: str, message: Message, received_ms: int) -> list[Change]:
        """Fold ``message``; the changes it made (none for a repeat or an older state)."""
        try:
            where = parse_topic(topic)
        except TopicError as exc:
            raise WebModelError(str(exc)) from None
        if where.venue != self.venue:
            raise WebModelError(f"{topic!r} is not of venue {self.venue!r}")
        if where.kind is TopicKind.COMPETITION:
            event = where.event or ""
            if isinstance(message, CompetitionState):
                if message == self.competitions.get(event):
                    return []
                self.competitions[event] = message
                return [("competition", event)]
            if isinstance(message, Cleared) and self.competitions.pop(event, None) is not None:
                return [("competition", event)]
            return []
        if where.kind is TopicKind.PUBLIC_EVENTS and isinstance(message, TableEvent):
            return self._event(message)
        if where.kind is not TopicKind.PUBLIC_STATE:
            raise WebModelError(
                f"{topic!r}: the web page reads the public feed and competition/ only"
            )
        assert where.table is not None
        if isinstance(message, Cleared):
            return [("table", str(where.table))] if self._tables.pop(where.table, None) else []
        if not isinstance(message, TableState):
            return []
        old = self._tables.get(where.table)
        if old is not None and (old[0] == message or not supersedes(message, old[0])):
            return []  # a repeat, or an older state (wuzi.bus.newest): never go back
        self._tables[where.table] = (message, received_ms)
        if message.game_id is not None:
            game = self._games.get(message.game_id)
            reason = game.reason if game is not None else None
            self._games[message.game_id] = _Game(where.table, message, received_ms, reason)
            self._games.move_to_end(message.game_id)
            while len(self._games) > self.max_games:
                self._games.popitem(last=False)
        return [("table", str(where.table))]

    def _event(self, event: TableEvent) -> list[Change]:
        if event.kind != "result":
            return []  # the state that follows every event carries what the page shows
        reason = event.data.get("reason")
        game = self._games.get(event.game_id)
        if game is not None and isinstance(reason, str) and set(reason) <= _REASON_CHARS:
            game.reason = reason or None
        return []

    # --- views --------------------------------------------------------------------------

    def tables(self) -> list[int]:
        return sorted(self._tables)

    @property
    def competition(self) -> CompetitionState | None:
        """The venue's one competition: the one-event topic's, else the only event's."""
        if "" in self.competitions:
            return self.competitions[""]
        if len(self.competitions) == 1:
            return next(iter(self.competitions.values()))
        return None

    def competition_of(self, event: str) -> CompetitionState | None:
        """Event ``event``'s summary; "" (a game of no event): the venue's one."""
        return self.competitions.get(event) if event else self.competition

    def event_name(self, event: str) -> str:
        """Event ``event``'s name (its summary's), else its id; "" the one event's name."""
        competition = self.competition_of(event)
        if competition is not None and competition.event:
            return competition.event
        return event

    def events(self) -> list[str]:
        """The events of a hall of several, in the order of their lowest table (then id);
        [] for a one-event venue."""
        known = {event for event in self.competitions if event}
        first: dict[str, int] = {}
        for table, (state, _ms) in sorted(self._tables.items()):
            if state.event_id:
                known.add(state.event_id)
                first.setdefault(state.event_id, table)
        for event, competition in self.competitions.items():
            for match in competition.matches:
                for table in match.tables:
                    if event and table < first.get(event, 10_000):
                        first[event] = table
        return sorted(known, key=lambda e: (first.get(e, 10_000), e))

    def match_of(self, table: int, event: str = "") -> MatchSummary | None:
        """The match table ``table`` plays in, from its game's event's summary."""
        competition = self.competition_of(event)
        if competition is None:
            return None
        for match in competition.matches:
            if table in match.tables:
                return match
        return None

    def table_view(self, table: int, now_ms: int) -> dict[str, Any] | None:
        """One table's card as JSON at ``now_ms``, or None when the table has no state."""
        slot = self._tables.get(table)
        if slot is None:
            return None
        state, received_ms = slot
        view = _state_view(state, received_ms, now_ms)
        match = self.match_of(table, state.event_id)
        board = state.board
        if board is None and match is not None and len(match.tables) > 1:
            board = match.tables.index(table) + 1
        view["board"] = board
        view["title"] = f"{table}" + (
            "" if board is None else " · " + LABELS["board"].format(n=board)
        )
        view["match"] = None if match is None else _match_view(match)
        view["event"] = state.event_id
        view["event_name"] = self.event_name(state.event_id) if state.event_id else ""
        return view

    def game_view(self, game_id: str, now_ms: int) -> dict[str, Any] | None:
        """One game (its latest state) as JSON, or None for a game the page never saw."""
        game = self._games.get(game_id)
        if game is None:
            return None
        view = _state_view(game.state, game.received_ms, now_ms)
        view["names"] = [point_name(p) for p in game.state.moves]
        view["reason"] = game.reason
        event = game.state.event_id
        match = self.match_of(game.table, event)
        view["match"] = None if match is None else _match_view(match)
        competition = self.competition_of(event)
        view["event"] = competition.event if competition is not None else event
        view["event_id"] = event
        return view

    def game_event(self, game_id: str) -> str:
        """The event id of a game kept ("" for none, or a game never seen)."""
        game = self._games.get(game_id)
        return game.state.event_id if game is not None else ""

    def games(self) -> list[dict[str, Any]]:
        """Every game kept, newest first: id, table, players, result (for the game list)."""
        return [
            {
                "game_id": game_id,
                "table": g.table,
                "black": g.state.black,
                "white": g.state.white,
                "result": g.state.result,
                "status": g.state.status,
                "moves": len(g.state.moves),
                "event": g.state.event_id,
            }
            for game_id, g in reversed(self._games.items())
        ]

    def competition_view(self, event: str | None = None) -> dict[str, Any] | None:
        """The summary of event ``event`` as JSON (None: the venue's one event's), with
        its ``id`` ("" for the one-event venue's)."""
        c = self.competition if event is None else self.competitions.get(event)
        if c is None:
            return None
        return {
            "id": (event or "") if event is not None else c.event_id,
            "event": c.event,
            "format": c.format,
            "round": c.round,
            "rounds": c.rounds,
            "finished": c.finished,
            "matches": [_match_view(m) for m in c.matches],
            "tiebreaks": [TIEBREAK_LABELS.get(name, name) for name in c.tiebreak_names],
            "standings": [
                {
                    "place": line.place
                    if line.place == line.place_to
                    else f"{line.place}-{line.place_to}",
                    "entrant": line.entrant,
                    "points": format_score(line.points),
                    "tiebreaks": [format_score(value) for value in line.tiebreaks],
                }
                for line in c.standings
            ],
            "bracket": [
                {
                    "round": m.round,
                    "places": m.places,
                    "first": m.first,
                    "second": m.second,
                    "first_score": format_score(m.first_score),
                    "second_score": format_score(m.second_score),
                    "winner": m.winner,
                }
                for m in c.bracket
            ],
        }

    def events_view(self) -> list[dict[str, Any]]:
        """The events of a hall of several, each with its summary (or none yet) and its
        tables; [] for a one-event venue."""
        out = []
        for event in self.events():
            tables = [n for n, (state, _ms) in self._tables.items() if state.event_id == event]
            out.append(
                {
                    "id": event,
                    "name": self.event_name(event),
                    "tables": sorted(tables),
                    "competition": self.competition_view(event),
                }
            )
        return out

    def snapshot(self, now_ms: int) -> dict[str, Any]:
        """Everything a page needs at its start."""
        tables = [self.table_view(n, now_ms) for n in self.tables()]
        several = len(self.events()) > 1
        return {
            "tables": [t for t in tables if t is not None],
            "competition": None if several else self.competition_view(),
            "events": self.events_view() if several else [],
        }

    # --- records ------------------------------------------------------------------------

    def record(self, game_id: str, ruleset: str = "renju") -> GameRecord | None:
        """The game's record as the public feed knows it: the stones in order (Black
        first), the players holding each colour, the result and its reason, the table,
        the event and the match. None for a game the page never saw."""
        game = self._games.get(game_id)
        if game is None:
            return None
        state = game.state
        result = None
        winner = _RESULTS.get(state.result or "")
        if winner is not None:
            result = GameResult(winner, game.reason or "result")  # type: ignore[arg-type]
        match = self.match_of(game.table, state.event_id)
        competition = self.competition_of(state.event_id)
        return GameRecord.from_points(
            list(state.moves),
            result=result,
            ruleset=ruleset,
            table=game.table,
            game_number=state.game_in_match,
            event=competition.event if competition is not None else state.event_id,
            round=match.label if match is not None else "",
            first=Player(name=state.black),
            second=Player(name=state.white),
            tags={"game_id": game_id},
        )


def _state_view(state: TableState, received_ms: int, now_ms: int) -> dict[str, Any]:
    elapsed = max(0, now_ms - received_ms)
    black_ms, white_ms = state.black_ms, state.white_ms
    if state.running == "black":
        black_ms -= elapsed
    elif state.running == "white":
        white_ms -= elapsed
    return {
        "table": state.table,
        "game_id": state.game_id,
        "status": state.status,
        "status_text": _status_text(state),
        "black": state.black,
        "white": state.white,
        "moves": list(state.moves),
        "offers": list(state.offers),
        "last": state.moves[-1] if state.moves else None,
        "black_ms": black_ms,
        "white_ms": white_ms,
        "running": state.running,
        "result": state.result,
        "game_in_match": state.game_in_match,
        "seq": state.seq,
    }


def _match_view(match: MatchSummary) -> dict[str, Any]:
    return {
        "label": match.label,
        "first": match.first,
        "second": match.second,
        "first_score": format_score(match.first_score),
        "second_score": format_score(match.second_score),
        "tables": list(match.tables),
        "status": match.status,
        "winner": match.winner,
    }


def _status_text(state: TableState) -> str:
    if state.status == "finished":
        return {
            "1-0": LABELS["black_wins"],
            "0-1": LABELS["white_wins"],
            "1/2-1/2": LABELS["draw"],
        }.get(state.result or "", LABELS["finished"])
    if state.status in ("paused", "adjourned"):
        return LABELS[state.status]
    if state.status == "idle":
        return LABELS["idle"]
    return ""
