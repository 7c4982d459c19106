"""Bad input for the director: junk on every topic it subscribes to, and well-formed
messages that are wrong — a result from a host that does not serve the table, for a game
that is not assigned there, repeated, for a finished game, with data that is not a
result; confirmations unsigned, forged, too old, repeated or saying nonsense.

The whole inbound path runs: the real `BusClient` parses the payload and hands it to
the `DirectorService`, which stores in its SQLite file — only the client is never
connected (`OfflineBus`: publishing queues in memory, `deliver` plays paho's part). For
every bad input: nothing raises, the database holds what it held (only the audit log
grows, by the refusal with its reason, and a refused event's id is remembered so its
repeat changes nothing), the core's games and competition are as they were, nothing is
published, and the reason is logged.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar

import paho.mqtt.client as mqtt
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from support.director import KEY, TABLES, confirm, result_event, write_event, write_venue
from wuzi.bus import topics
from wuzi.bus.auth import sign
from wuzi.bus.client import BusClient
from wuzi.bus.schemas import (
    ARBITER_ACTIONS,
    ArbiterCommand,
    HostStatus,
    Message,
    MessageError,
    TableEvent,
    TableState,
    encode,
    parse_message,
)
from wuzi.config import load_venue
from wuzi.director import service as service_module
from wuzi.director.service import DirectorOptions, DirectorService
from wuzi.table.checks import TableError
from wuzi.table.codec import decode_output

FUZZ = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
NOW = 1_700_000_000_000
VENUE = "fuzz-hall"
HOST_OF = dict(TABLES)
FINAL_TABLE, FINAL_GAME = 1, "r1-m1-b1"  # reported and confirmed 1-0 before the fuzzing
REPORTED_TABLE, REPORTED_GAME = 2, "r1-m1-b2"  # reported 0-1, not confirmed
SEEN_EVENT = result_event(HOST_OF[FINAL_TABLE], FINAL_TABLE, FINAL_GAME, "first")
SEEN_COMMAND = confirm(FINAL_TABLE, FINAL_GAME, "1-0", now_ms=NOW, command_id="seen-confirm")


class OfflineBus(BusClient):
    """The real client, never connected: what is published waits in its queue, and
    `deliver` hands a payload to the handlers whose filters match, as paho would, and
    an exception in a handler is not swallowed (the real client logs it): it fails the test."""

    made: ClassVar[list[OfflineBus]] = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        OfflineBus.made.append(self)

    def connect(self) -> None:
        pass

    def close(self, timeout_s: float = 5.0) -> None:
        pass

    def wait_drained(self, timeout_s: float) -> bool:
        return True

    def deliver(self, topic: str, payload: bytes) -> None:
        for topic_filter, handler in list(self._filters.items()):
            if mqtt.topic_matches_sub(topic_filter, topic):
                self._deliver(handler, topic, payload)

    @staticmethod
    def _call(callback: Callable[..., None], *args: object) -> None:
        callback(*args)  # a handler's exception fails the test (the real client logs it)

    def topics(self) -> list[str]:
        """The topics of everything published so far, in order."""
        return [held.topic for held in self._held]


@dataclass
class Director:
    service: DirectorService
    db: Path
    buses: list[OfflineBus]

    def send(self, topic: str, payload: bytes | Message) -> None:
        raw = payload if isinstance(payload, bytes) else encode(payload)
        for bus in self.buses:
            bus.deliver(topic, raw)

    @property
    def core(self) -> Any:
        assert self.service.core is not None
        return self.service.core


@pytest.fixture(scope="module")
def director(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Director]:
    folder = tmp_path_factory.mktemp("director-fuzz")
    config = write_venue(folder, VENUE, "mqtt://127.0.0.1:1")  # never connected
    db = folder / "final.db"
    write_event(db)
    patch = pytest.MonkeyPatch()
    patch.setattr(service_module, "BusClient", OfflineBus)
    OfflineBus.made = []
    service = DirectorService(
        load_venue(config),
        DirectorOptions(db_path=db, base_dir=config.parent),
        wall_ms=lambda: NOW,
    )
    service.start()
    d = Director(service, db, list(OfflineBus.made))
    assert len(d.buses) == 2
    # one game final, one reported: the fuzzing below must not change either
    d.send(topics.table_events(VENUE, FINAL_TABLE), SEEN_EVENT)
    d.send(topics.arbiter_commands(VENUE), SEEN_COMMAND)
    reported = result_event(HOST_OF[REPORTED_TABLE], REPORTED_TABLE, REPORTED_GAME, "second")
    d.send(topics.table_events(VENUE, REPORTED_TABLE), reported)
    assert d.core.games[FINAL_GAME].state == "final"
    assert d.core.games[REPORTED_GAME].state == "reported"
    yield d
    service.close()
    patch.undo()


# --- what "nothing changed" means ----------------------------------------------------------

BOOKKEEPING = ("director_audit", "director_seen", "sqlite_sequence")


@dataclass(frozen=True)
class Snapshot:
    state: tuple[str, ...]  # every row of every table but the bookkeeping
    audit: int
    seen: frozenset[str]
    games: dict[str, Any]
    competition: Any
    queued: tuple[int, ...]


def snapshot(d: Director) -> Snapshot:
    conn = sqlite3.connect(d.db)
    try:
        dump = [
            line
            for line in conn.iterdump()
            if not any(f'INSERT INTO "{t}"' in line for t in BOOKKEEPING)
        ]
        audit = conn.execute("SELECT COUNT(*) FROM director_audit").fetchone()[0]
        seen = frozenset(r[0] for r in conn.execute("SELECT id FROM director_seen"))
    finally:
        conn.close()
    return Snapshot(
        tuple(dump),
        audit,
        seen,
        dict(d.core.games),
        d.core.comp,
        tuple(len(b.topics()) for b in d.buses),
    )


def new_audit(d: Director, before: Snapshot) -> list[tuple[str, str, dict[str, Any]]]:
    conn = sqlite3.connect(d.db)
    try:
        rows = conn.execute(
            "SELECT actor, action, details FROM director_audit ORDER BY seq LIMIT -1 OFFSET ?",
            (before.audit,),
        ).fetchall()
    finally:
        conn.close()
    return [(actor, action, json.loads(details)) for actor, action, details in rows]


def check_unchanged(
    d: Director, before: Snapshot, *, seen: set[str] | None = None, screens: bool = False
) -> None:
    """Nothing stored or published; ``screens``: the competition state for the screens
    may be published again (a table's live status is shown, not stored)."""
    after = snapshot(d)
    assert after.state == before.state, "the database changed"
    assert after.games == before.games and after.competition is before.competition
    if screens:
        new = [t for bus, n in zip(d.buses, before.queued, strict=True) for t in bus.topics()[n:]]
        assert all(t == topics.competition_state(VENUE) for t in new), new
    else:
        assert after.queued == before.queued, "something was published"
    assert after.seen - before.seen <= (seen or set())


def check_refused(
    d: Director, before: Snapshot, caplog: pytest.LogCaptureFixture, action: str, **kw: Any
) -> str:
    """Exactly one refusal in the audit log, its reason logged; returns the reason."""
    check_unchanged(d, before, **kw)
    audit = new_audit(d, before)
    assert [a for _, a, _ in audit] == [action], audit
    reason = audit[0][2]["reason"]
    assert isinstance(reason, str) and reason
    logged = [r.getMessage() for r in caplog.records if r.name == "wuzi.director"]
    assert any(action in line and repr(reason) in line for line in logged), logged
    return str(reason)


# --- junk bytes on every subscribed topic --------------------------------------------------

SUBSCRIBED = [
    topics.table_events(VENUE, 1),
    topics.table_events(VENUE, 24),
    topics.table_events(VENUE, 99),
    topics.arbiter_commands(VENUE),
    topics.table_state(VENUE, 3),
    topics.host_status(VENUE, "pi-1"),
    topics.host_status(VENUE, "stranger"),
]


def _junk(floats: st.SearchStrategy[float]) -> st.SearchStrategy[object]:
    leaves = st.none() | st.booleans() | st.integers() | floats | st.text(max_size=12)
    return st.recursive(
        leaves,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
        max_leaves=10,
    )


json_junk = _junk(st.floats())
# What a message object built by a test can carry and still be sent: JSON has no NaN or
# infinity (raw payloads with them are json_junk's, and the bus parser refuses them).
wire_junk = _junk(st.floats(allow_nan=False, allow_infinity=False))


def near_valid(message: Message) -> st.SearchStrategy[bytes]:
    """``message``'s JSON with one field replaced by junk (or removed, or one added)."""
    obj = json.loads(encode(message))

    def change(name: str, value: object, how: str) -> bytes:
        changed = dict(obj)
        if how == "drop":
            changed.pop(name)
        elif how == "add":
            changed[f"{name}_extra"] = value
        else:
            changed[name] = value
        return json.dumps(changed, allow_nan=True).encode()

    return st.builds(
        change, st.sampled_from(sorted(obj)), json_junk, st.sampled_from(["set", "drop", "add"])
    )


@FUZZ
@given(
    st.sampled_from(SUBSCRIBED),
    st.binary(max_size=200)
    | json_junk.map(lambda v: json.dumps(v, allow_nan=True).encode())
    | near_valid(SEEN_EVENT)
    | near_valid(SEEN_COMMAND)
    | st.sampled_from([b"\xff", b"[" * 50_000 + b"]" * 50_000, b'{"v":1,"v":1}']),
)
def test_junk_on_any_topic_is_rejected_with_a_logged_reason_and_changes_nothing(
    director: Director, caplog: pytest.LogCaptureFixture, topic: str, payload: bytes
) -> None:
    try:
        parse_message(topic, payload)
    except MessageError:
        pass
    else:
        assume(False)  # a junk-looking payload that is valid (a retained message cleared …)
    before = snapshot(director)
    caplog.clear()
    with caplog.at_level(logging.INFO):
        director.send(topic, payload)
    check_unchanged(director, before)
    assert new_audit(director, before) == []
    rejected = [r.getMessage() for r in caplog.records if "rejected" in r.getMessage()]
    assert rejected, "the junk was not logged"
    assert all(topic in line for line in rejected)


# --- results that are well formed but wrong ------------------------------------------------


def assigned_elsewhere(table: int) -> str:
    """The game of a table other than ``table`` (its neighbour)."""
    other = table % 24 + 1
    return f"r1-m{(other - 1) // 3 + 1}-b{(other - 1) % 3 + 1}"


def game_of(table: int) -> str:
    return f"r1-m{(table - 1) // 3 + 1}-b{(table - 1) % 3 + 1}"


RESULT_FAULTS = [
    "wrong-host",
    "unknown-host",
    "other-tables-game",
    "table-not-in-venue",
    "unknown-game",
    "short-event-id",
    "long-event-id",
    "game-differs-from-event-id",
    "junk-data",
    "not-a-winner",
    "a-bad-value-in-the-data",
    "final-game-other-result",
]


@st.composite
def wrong_results(draw: st.DrawFn) -> tuple[str, TableEvent]:
    fault = draw(st.sampled_from(RESULT_FAULTS))
    table = draw(st.integers(3, 24))
    winner = draw(st.sampled_from(["first", "second", None]))
    seq = draw(st.integers(10, 10**6))
    host, game = HOST_OF[table], game_of(table)
    if fault == "final-game-other-result":
        table, game, host = FINAL_TABLE, FINAL_GAME, HOST_OF[FINAL_TABLE]
        winner = draw(st.sampled_from(["second", None]))  # it is final at 1-0
    event = result_event(host, table, game, winner, seq=seq)
    if fault == "wrong-host":
        other = draw(st.sampled_from(sorted(set(HOST_OF.values()) - {host})))
        event = replace(event, event_id=f"{other}/t{table}/{game}/{seq}")
    elif fault == "unknown-host":
        event = replace(event, event_id=f"{draw(st.sampled_from(['pi-9', 'director', 'x']))}"
                        f"/t{table}/{game}/{seq}")  # fmt: skip
    elif fault == "other-tables-game":
        game = assigned_elsewhere(table)
        event = replace(event, game_id=game, event_id=f"{host}/t{table}/{game}/{seq}")
    elif fault == "table-not-in-venue":
        table = draw(st.integers(25, 9999))
        event = replace(event, table=table)
    elif fault == "unknown-game":
        game = draw(st.sampled_from(["r9-m1-b1", "r1-m9-b1", "r1-m1-p1", "x"]))
        event = replace(event, game_id=game, event_id=f"{host}/t{table}/{game}/{seq}")
    elif fault == "short-event-id":
        event = replace(event, event_id=f"{host}/{game}/{seq}")
    elif fault == "long-event-id":
        event = replace(event, event_id=f"{host}/t{table}/{game}/{seq}/x")
    elif fault == "game-differs-from-event-id":
        event = replace(event, event_id=f"{host}/t{table}/{assigned_elsewhere(table)}/{seq}")
    elif fault == "junk-data":
        data = draw(st.dictionaries(st.text(max_size=8), wire_junk, max_size=5))
        assume(set(data) != set(event.data))
        event = replace(event, data=data)
    elif fault == "not-a-winner":
        bad = draw(st.sampled_from(["black", "both", "", 1, True, ["first"]]))
        event = replace(event, data={**event.data, "winner": bad})
    elif fault == "a-bad-value-in-the-data":
        name = draw(st.sampled_from(sorted(event.data)))
        event = replace(event, data={**event.data, name: draw(wire_junk)})
        try:
            decode_output("result", event.data)
        except TableError:
            pass
        else:
            assume(False)  # still a good result
    return fault, event


@FUZZ
@given(wrong_results())
def test_a_wrong_result_is_refused_with_a_logged_reason_and_changes_nothing(
    director: Director, caplog: pytest.LogCaptureFixture, case: tuple[str, TableEvent]
) -> None:
    fault, event = case
    before = snapshot(director)
    caplog.clear()
    with caplog.at_level(logging.INFO):
        director.send(topics.table_events(VENUE, event.table), event)
    if event.event_id in before.seen:  # the same id again: a repeat changes nothing at all
        check_unchanged(director, before)
        assert new_audit(director, before) == []
        return
    reason = check_refused(director, before, caplog, "result-refused", seen={event.event_id})
    expected = {
        "wrong-host": "is served by host",
        "unknown-host": "is served by host",
        "other-tables-game": "is assigned to table",
        "table-not-in-venue": "is not in the venue",
        "unknown-game": "in this event",
        "short-event-id": "not host/table/game/seq",
        "long-event-id": "not host/table/game/seq",
        "game-differs-from-event-id": "the event id names game",
        "junk-data": "not a game result",
        "not-a-winner": "not a game result",
        "a-bad-value-in-the-data": "not a game result",
        "final-game-other-result": "is final",
    }[fault]
    assert expected in reason, (fault, reason)
    # and the same event again changes nothing, not even the audit log
    again = snapshot(director)
    director.send(topics.table_events(VENUE, event.table), event)
    check_unchanged(director, again)
    assert new_audit(director, again) == []


@pytest.mark.parametrize(
    "event",
    [
        SEEN_EVENT,  # delivered again (QoS 1 redelivery)
        replace(SEEN_EVENT, event_id=f"{HOST_OF[1]}/t1/{FINAL_GAME}/77", seq=77),  # same result
        result_event(HOST_OF[2], 2, REPORTED_GAME, "second", seq=78),  # the reported one again
        replace(SEEN_EVENT, kind="move", event_id="pi-1/t1/r1-m1-b1/79"),  # not a result
    ],
)
def test_a_repeated_result_or_another_kind_of_event_changes_nothing_at_all(
    director: Director, event: TableEvent
) -> None:
    before = snapshot(director)
    director.send(topics.table_events(VENUE, event.table), event)
    check_unchanged(director, before, seen={event.event_id})
    assert new_audit(director, before) == []


# --- referee confirmations that are well formed but wrong -----------------------------------

OTHER_KEY = b"not-the-referees-token-0123456789"
COMMAND_FAULTS = [
    "unsigned",
    "wrong-key",
    "unknown-referee",
    "too-old",
    "from-the-future",
    "altered-after-signing",
    "junk-args",
    "every-table",
    "wrong-table",
    "unknown-game",
    "other-game",  # signed for another game than the one it confirms (issue 32)
    "other-round",  # signed for another round than the game's
    "no-round",
]


@st.composite
def wrong_confirmations(draw: st.DrawFn) -> tuple[str, ArbiterCommand]:
    fault = draw(st.sampled_from(COMMAND_FAULTS))
    table = draw(st.integers(3, 24))
    result = draw(st.sampled_from(["1-0", "0-1", "1/2-1/2", "black-by-forfeit"]))
    cid = f"fuzz-{draw(st.integers(0, 10**9))}"
    good = confirm(table, game_of(table), result, now_ms=NOW, command_id=cid)
    if fault == "unsigned":
        return fault, replace(good, auth=None)
    if fault == "wrong-key":
        return fault, sign(good, OTHER_KEY)
    if fault == "unknown-referee":
        return fault, sign(replace(good, referee="deputy"), KEY)
    if fault == "too-old":
        issued = NOW - draw(st.integers(12 * 3600 * 1000 + 1, NOW))
        return fault, sign(replace(good, issued_ms=issued), KEY)
    if fault == "from-the-future":
        issued = NOW + draw(st.integers(30_001, 10**12))
        return fault, sign(replace(good, issued_ms=issued), KEY)
    if fault == "altered-after-signing":
        return fault, replace(
            good, args={**good.args, "result": "0-1" if result != "0-1" else "1-0"}
        )
    if fault == "junk-args":
        args = draw(st.dictionaries(st.text(max_size=8), wire_junk, max_size=4))
        assume(set(args) != {"game_id", "result"})
        return fault, sign(replace(good, args=args), KEY)
    if fault == "every-table":
        return fault, sign(replace(good, table=None, game_id=None), KEY)
    if fault == "other-game":
        return fault, sign(replace(good, game_id=game_of(table % 24 + 1)), KEY)
    if fault in ("other-round", "no-round"):
        other = None if fault == "no-round" else (good.round or 0) + draw(st.integers(1, 5))
        return fault, sign(replace(good, round=other), KEY)
    if fault == "wrong-table":
        return fault, sign(replace(good, table=table % 24 + 1), KEY)
    game = draw(st.sampled_from(["r9-m1-b1", "r1-m1-p1", "nothing"]))
    return fault, sign(replace(good, args={"game_id": game, "result": result}), KEY)


@FUZZ
@given(wrong_confirmations())
def test_a_wrong_confirmation_is_refused_with_a_logged_reason_and_changes_nothing(
    director: Director, caplog: pytest.LogCaptureFixture, case: tuple[str, ArbiterCommand]
) -> None:
    fault, cmd = case
    before = snapshot(director)
    if cmd.command_id in before.seen:
        return  # drawn twice: a repeat (the test below)
    caplog.clear()
    with caplog.at_level(logging.INFO):
        director.send(topics.arbiter_commands(VENUE), cmd)
    authentic = fault in (
        "junk-args",
        "every-table",
        "wrong-table",
        "unknown-game",
        "other-game",
        "other-round",
        "no-round",
    )
    reason = check_refused(
        director, before, caplog, "command-refused", seen={cmd.command_id} if authentic else set()
    )
    expected = {
        "unsigned": "unsigned",
        "wrong-key": "bad signature",
        "unknown-referee": "unknown referee",
        "too-old": "ms ago",
        "from-the-future": "in the future",
        "altered-after-signing": "bad signature",
        "junk-args": "confirm-result",
        "every-table": "names one table",
        "wrong-table": "is assigned to table",
        "unknown-game": "no game",
        "other-game": f"is signed for game {cmd.game_id}, not for game",
        "other-round": f"is signed for round {cmd.round}; game",
        "no-round": "is signed for no round; game",
    }[fault]
    if fault == "junk-args":
        if set(cmd.args) - {"game_id", "result"}:
            expected = "confirm-result takes game_id and result"
        elif not isinstance(cmd.args.get("game_id"), str):
            expected = "confirm-result needs game_id"
        else:
            expected = "is not one of"  # the result is missing
    assert expected in reason, (fault, reason)
    assert snapshot(director).seen - before.seen == ({cmd.command_id} if authentic else set())


def test_a_replayed_confirmation_changes_nothing(director: Director) -> None:
    before = snapshot(director)
    director.send(topics.arbiter_commands(VENUE), SEEN_COMMAND)
    check_unchanged(director, before)
    assert new_audit(director, before) == []


@pytest.mark.parametrize("action", sorted(set(ARBITER_ACTIONS) - {"confirm-result"}))
def test_a_table_hosts_command_is_not_the_directors(director: Director, action: str) -> None:
    cmd = sign(ArbiterCommand(f"host-{action}", "chief-arbiter", action, 3, {}, NOW), KEY)
    before = snapshot(director)
    director.send(topics.arbiter_commands(VENUE), cmd)
    check_unchanged(director, before)
    assert new_audit(director, before) == []


# --- table states and host statuses that are wrong -------------------------------------------


@FUZZ
@given(
    st.integers(1, 24),
    st.sampled_from(["idle", "playing", "paused", "adjourned", "finished"]),
    st.sampled_from([None, "1-0", "0-1", "1/2-1/2"]),
    st.sampled_from([None, "r9-m1-b1", FINAL_GAME, REPORTED_GAME, "x"]) | st.just("neighbour"),
    st.sampled_from(["", "Somebody", "Team 1 captain"]),
)
def test_a_table_state_that_shows_no_missed_result_stores_nothing(
    director: Director, table: int, status: str, result: str | None, game: str | None, name: str
) -> None:
    """States for games not played there (or not waiting for a result) never report one.
    (They may change the screens' live view, which is not stored.)"""
    game_id = assigned_elsewhere(table) if game == "neighbour" else game
    state = TableState(
        table=table, game_id=game_id, seq=5, status=status, moves=(112,), black_ms=1000,
        white_ms=-5, running=None, result=result, at_ms=NOW, black=name, white="",
    )  # fmt: skip
    before = snapshot(director)
    director.send(topics.table_state(VENUE, table), state)
    check_unchanged(director, before, screens=True)
    assert new_audit(director, before) == []


@FUZZ
@given(
    st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_-]{0,20}", fullmatch=True).filter(
        lambda h: h not in HOST_OF.values()
    ),
    st.booleans(),
)
def test_a_status_of_a_host_the_venue_does_not_have_is_ignored(
    director: Director, host: str, online: bool
) -> None:
    before = snapshot(director)
    status = HostStatus(host, online, (1, 2), "boot", NOW)
    director.send(topics.host_status(VENUE, host), status)
    check_unchanged(director, before)
    assert new_audit(director, before) == []
