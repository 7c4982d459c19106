"""The spectators' web page's model: the public feed in, JSON views and game records out.

Pure: no I/O, no clock — ``received_ms``/``now_ms`` are the server's monotonic
milliseconds. `WebModel.apply` folds one message of ``public/table/<n>/state``,
``public/table/<n>/events`` or ``competition/state`` and says what changed; the views
(`table_view`, `game_view`, `competition_view`, `snapshot`) are plain JSON values the
server sends to every browser; `record` builds a finished (or running) game's
`GameRecord` for the SGF and ``.psq`` writers of `wuzi.rules.formats`.

What the page may show is what the delayed public feed carries — the stones, the clocks,
the players, the results — and the director's competition summary. The model refuses
any other topic (a live ``table/`` message included), so a wrong subscription cannot put
live play on a page that the internet reads.

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
"""What changed: ``("table", "12")``, ``("competition", "")``."""


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
    competition: CompetitionState | None = None
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
            if isinstance(message, CompetitionState) and message != self.competition:
                self.competition = message
                return [("competition", "")]
            return []
        if where.kind is TopicKind.PUBLIC_EVENTS and isinstance(message, TableEvent):
            return self._event(message)
        if where.kind is not TopicKind.PUBLIC_STATE:
            raise WebModelError(
                f"{topic!r}: the web page reads the public feed and competition/state only"
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

    def match_of(self, table: int) -> MatchSummary | None:
        if self.competition is None:
            return None
        for match in self.competition.matches:
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
        match = self.match_of(table)
        board = state.board
        if board is None and match is not None and len(match.tables) > 1:
            board = match.tables.index(table) + 1
        view["board"] = board
        view["title"] = f"{table}" + (
            "" if board is None else " · " + LABELS["board"].format(n=board)
        )
        view["match"] = None if match is None else _match_view(match)
        return view

    def game_view(self, game_id: str, now_ms: int) -> dict[str, Any] | None:
        """One game (its latest state) as JSON, or None for a game the page never saw."""
        game = self._games.get(game_id)
        if game is None:
            return None
        view = _state_view(game.state, game.received_ms, now_ms)
        view["names"] = [point_name(p) for p in game.state.moves]
        view["reason"] = game.reason
        match = self.match_of(game.table)
        view["match"] = None if match is None else _match_view(match)
        view["event"] = self.competition.event if self.competition is not None else ""
        return view

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
            }
            for game_id, g in reversed(self._games.items())
        ]

    def competition_view(self) -> dict[str, Any] | None:
        c = self.competition
        if c is None:
            return None
        return {
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

    def snapshot(self, now_ms: int) -> dict[str, Any]:
        """Everything a page needs at its start."""
        tables = [self.table_view(n, now_ms) for n in self.tables()]
        return {
            "tables": [t for t in tables if t is not None],
            "competition": self.competition_view(),
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
        match = self.match_of(game.table)
        return GameRecord.from_points(
            list(state.moves),
            result=result,
            ruleset=ruleset,
            table=game.table,
            game_number=state.game_in_match,
            event=self.competition.event if self.competition is not None else "",
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
