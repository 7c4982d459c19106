"""A game's record: the ``GameRecord`` (``wuzi.rules.record``) built from a game's events.

``Game.record()`` calls ``build_record`` with what only the game knows (the stones and
passes that stand, the opening procedure's state, the proof behind each claim); the rest
comes from the events: the swap decisions and offers of the opening, the claims and their
verdicts, the infractions, the referee's actions and the result. Pure: no I/O.

The record model has no place for the referee's private alerts (forbidden move made,
five on the board): they stay in the events, which the journal keeps.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from wuzi.rules.board import Colour, point_name
from wuzi.rules.errors import RulesError
from wuzi.rules.events import (
    ClaimJudged,
    Decided,
    Declared,
    GameEnded,
    GameEvent,
    InfractionRecorded,
    OfferChosen,
    RefereeCorrected,
    RefereeDecided,
    RefereePaused,
    RefereeRemovedStone,
    RefereeReplacedStone,
    RefereeResumed,
    Result,
    ResultReason,
    StonePlaced,
)
from wuzi.rules.procedure import OpeningProcedure, Seat
from wuzi.rules.record import (
    Claim,
    GameRecord,
    GameResult,
    Infraction,
    Offer,
    OfferRound,
    OpeningDecision,
    OpeningRecord,
    Player,
    RecordedMove,
    RefereeAction,
    ResultValue,
    SetBy,
)
from wuzi.rules.ruleset import Mode, RuleSet

RECORD_METADATA = frozenset(
    {"event", "round", "match", "board", "table", "game_number", "first", "second"}
    | {"time_control"}
    | {"start_time", "tags"}
)
"""The event's fields of a ``GameRecord`` that ``Game.record(**metadata)`` accepts."""

TAKE_BACK = "take-back"
"""The referee action token of ``referee_remove_stone``."""
REPLACE_STONE = "replace-stone"
"""The referee action token of ``referee_replace_stone``."""

_SET_BY: dict[str, SetBy] = {"opener": "opener", "lot": "lot", "referee": "referee"}


def check_metadata(metadata: Mapping[str, Any]) -> None:
    """Refuse a name that is not one of the record's event fields, or a value of the wrong
    type (caught here, not later when a score sheet is printed)."""
    unknown = sorted(set(metadata) - RECORD_METADATA)
    if unknown:
        raise RulesError(
            f"record() has no field {unknown[0]!r}; the event's fields are "
            + ", ".join(sorted(RECORD_METADATA))
        )
    for name, value in metadata.items():
        if name in ("table", "game_number", "match", "board"):
            ok = value is None or (isinstance(value, int) and not isinstance(value, bool))
            expected = "an integer or None"
        elif name in ("first", "second"):
            ok, expected = isinstance(value, Player), "a Player"
        elif name == "tags":
            ok = isinstance(value, Mapping) and all(
                isinstance(k, str) and isinstance(v, str) for k, v in value.items()
            )
            expected = "a mapping of text to text"
        else:
            ok, expected = isinstance(value, str), "text"
        if not ok:
            raise RulesError(f"record(): {name} must be {expected}, not {value!r}")


def build_record(
    *,
    events: Sequence[GameEvent],
    moves: Sequence[RecordedMove],
    opening: OpeningProcedure,
    ruleset: RuleSet,
    mode: Mode,
    black_seat: Seat,
    claim_proofs: Sequence[str],
    metadata: Mapping[str, Any],
) -> GameRecord:
    """The record of a game so far.

    ``moves`` are the stones that stand and the passes, in order; ``claim_proofs`` holds
    one text per ``judged`` event (the verdict, and for a forbidden move the
    explanation the referee read when the claim was judged); ``metadata`` fills the
    event's fields (``check_metadata`` first).
    """
    check_metadata(metadata)
    claims: list[Claim] = []
    infractions: list[Infraction] = []
    actions: list[RefereeAction] = []
    ended: GameEnded | None = None
    proofs = iter(claim_proofs)
    for event in events:
        if isinstance(event, ClaimJudged):
            v = event.verdict
            claims.append(
                Claim(
                    seat=event.seat,
                    kind=v.claim.value,
                    verdict=v.verdict.value,
                    point=v.point,
                    t_ms=event.t_ms,
                    forbidden=None if v.forbidden is None else v.forbidden.value,
                    proof=next(proofs, v.detail),
                )
            )
        elif isinstance(event, InfractionRecorded):
            infractions.append(Infraction(event.seat, event.description, event.t_ms, event.loses))
        elif isinstance(event, GameEnded):
            ended = event
        else:
            action = _referee_action(event)
            if action is not None:
                actions.append(action)
    return GameRecord(
        moves=tuple(moves),
        result=None if ended is None else _game_result(ended),
        ruleset=str(ruleset),
        mode=mode.value,
        opening=_opening_record(opening, events),
        black_seat=black_seat,
        claims=tuple(claims),
        infractions=tuple(infractions),
        referee_actions=tuple(actions),
        **metadata,
    )


def _referee_action(event: GameEvent) -> RefereeAction | None:
    if isinstance(event, RefereePaused):
        return RefereeAction("pause", event.referee, event.t_ms, event.reason)
    if isinstance(event, RefereeResumed):
        words = [] if event.penalty is None else [f"penalty: {event.penalty}"]
        words += [event.note] if event.note else []
        return RefereeAction("resume", event.referee, event.t_ms, "; ".join(words))
    if isinstance(event, RefereeDecided | RefereeCorrected):
        action = "decide" if isinstance(event, RefereeDecided) else "correct"
        detail = f"{_winner_text(event.winner)}: {event.reason}"
        return RefereeAction(action, event.referee, event.t_ms, detail)
    if isinstance(event, RefereeRemovedStone):
        detail = f"{point_name(event.point)} taken back: {event.reason}"
        return RefereeAction(TAKE_BACK, event.referee, event.t_ms, detail)
    if isinstance(event, RefereeReplacedStone):
        detail = f"{point_name(event.old)} stands on {point_name(event.new)}: {event.reason}"
        return RefereeAction(REPLACE_STONE, event.referee, event.t_ms, detail)
    return None


def _game_result(ended: GameEnded) -> GameResult:
    r = ended.result
    winner: ResultValue = "draw"
    if r.winner_colour is not None:
        winner = "black" if r.winner_colour is Colour.BLACK else "white"
    return GameResult(winner, _reason_token(r), r.detail, ended.t_ms)


def _reason_token(result: Result) -> str:
    if result.reason is ResultReason.FORBIDDEN and result.forbidden is not None:
        return f"forbidden-{result.forbidden.value}"
    return result.reason.value


def _winner_text(winner: Seat | None) -> str:
    return "draw" if winner is None else f"the {winner.value} seat wins"


def _opening_record(procedure: OpeningProcedure, events: Sequence[GameEvent]) -> OpeningRecord:
    state = procedure.state
    name: str | None = None
    if state.opening_id is not None:
        from wuzi.rules.designated import get_designated

        try:
            found = get_designated(state.opening_id)
            name = f"{found.chinese} {found.romaji}"
        except RulesError:
            name = None
    set_by = state.opening_selection
    decisions: list[OpeningDecision] = []
    offers: list[Offer] = []
    offer_move: int | None = None
    declared_by: Seat | None = None
    chosen: OfferChosen | None = None
    standing = 0
    for event in events:
        if isinstance(event, StonePlaced):
            if event.offer:
                offer_move = standing + 1 if offer_move is None else offer_move
                offers.append(Offer(event.point, event.seat, event.t_ms))
            else:
                standing += 1
        elif isinstance(event, OfferChosen):
            chosen = event
            standing += 1
        elif isinstance(event, Decided):
            decisions.append(OpeningDecision(event.seat, event.choice, standing, event.t_ms))
        elif isinstance(event, Declared):
            declared_by = event.seat
    offer_round = None
    if offer_move is not None:
        offer_round = OfferRound(
            move=offer_move,
            n=state.declared if state.declared is not None else len(offers),
            offers=tuple(offers),
            kept=None if chosen is None else chosen.point,
            declared_by=declared_by,
            chosen_by=None if chosen is None else chosen.seat,
        )
    return OpeningRecord(
        procedure=procedure.name,
        opening_id=state.opening_id,
        opening_name=name,
        set_by=_SET_BY.get(set_by or ""),
        decisions=tuple(decisions),
        offers=offer_round,
    )
