"""The hall line's messages on the bus: canonical JSON out, strict parsing in.

The two hosts of a linked game exchange ``LinePacket`` values (``wuzi.table.line_messages``)
on the link's line topics (``wuzi.bus.topics``: ``line/<link>/to-owner`` carries the away
host's packets, whose items are its stamped inputs; ``line/<link>/to-away`` the owner's,
whose items are its truth of the game). Like every message of the bus (``wuzi.bus.schemas``)
a payload is a UTF-8 JSON object with ``"v": 1`` and exactly its fields; the direction is
decided by the topic, never by the payload, so an away host cannot pass off an owner's
truth. ``parse_to_owner`` and ``parse_to_away`` return a typed, frozen packet or raise
`MessageError` naming the field that is wrong, whatever the bytes; ``encode_packet`` is
their inverse (sorted keys, no spaces). The owner's truth alone (the retained
``line/<link>/state``) has ``encode_truth`` and ``parse_truth``. Pure: no I/O, no clock.
"""

from __future__ import annotations

import json
import re
from typing import Any, cast

from wuzi.bus.schemas import (
    COLOURS,
    MAX_POINT,
    MAX_STAMP_MS,
    MAX_TIME_MS,
    SCHEMA_VERSION,
    JsonObject,
    MessageError,
    _decode,
    _Reader,
)
from wuzi.table.line_messages import (
    LINE_STATES,
    RUNNING,
    AwayButton,
    AwayClaim,
    AwayInput,
    AwayMirrored,
    AwayPress,
    AwayShown,
    AwayStone,
    LineItem,
    LinePacket,
    LineState,
    OwnerTruth,
)

__all__ = [
    "INPUT_KINDS",
    "MAX_BUTTON",
    "MAX_MOVE",
    "MAX_NUMBER",
    "encode_packet",
    "encode_truth",
    "item_from_json",
    "item_json",
    "parse_to_away",
    "parse_to_owner",
    "parse_truth",
]

INPUT_KINDS = ("stone", "press", "claim", "button", "shown", "mirrored")
"""The ``kind`` of an away input's item, one per type (``AwayStone`` … ``AwayButton``,
``AwayShown``, ``AwayMirrored``)."""
MAX_MOVE = MAX_POINT + 1
"""A move number names a stone of ``OwnerTruth.moves``: 1 to a full board."""
MAX_NUMBER = 10**9
"""Items numbered (and acknowledged) up to this: a game has a few hundred."""
MAX_RESUMES = 10**6
MAX_BUTTON = 255
_LINK = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?")  # the [[links]] id
_BOOT = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}")
_REFEREE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:/-]{0,127}")  # as ArbiterCommand.referee
_KIND_OF: dict[type, str] = {
    AwayStone: "stone",
    AwayPress: "press",
    AwayClaim: "claim",
    AwayButton: "button",
    AwayShown: "shown",
    AwayMirrored: "mirrored",
}


def _away_input(r: _Reader) -> AwayInput:
    kind = r.choice("kind", INPUT_KINDS)
    at_ms = r.integer("at_ms", 0, MAX_STAMP_MS)
    if kind == "stone":
        colour = r.choice("colour", COLOURS)
        assert colour is not None  # not optional
        return AwayStone(r.integer("point", 0, MAX_POINT), colour, at_ms)
    if kind == "shown":
        return AwayShown(r.integer("move", 1, MAX_MOVE), at_ms)
    if kind == "mirrored":
        return AwayMirrored(r.integer("move", 1, MAX_MOVE), r.integer("point", 0, MAX_POINT), at_ms)
    button = r.integer("button", 0, MAX_BUTTON)
    if kind == "press":
        return AwayPress(button, at_ms)
    return AwayClaim(button, at_ms) if kind == "claim" else AwayButton(button, at_ms)


def _owner_truth(r: _Reader) -> OwnerTruth:
    truth = OwnerTruth(
        moves=r.int_list("moves", 0, MAX_POINT, MAX_POINT + 1),
        black_ms=r.integer("black_ms", -MAX_TIME_MS, MAX_TIME_MS),
        white_ms=r.integer("white_ms", -MAX_TIME_MS, MAX_TIME_MS),
        running=r.choice("running", RUNNING, optional=True),
        held=r.boolean("held"),
        mirror=r.opt_integer("mirror", 0, MAX_POINT),
        at_ms=r.integer("at_ms", 0, MAX_STAMP_MS),
        game=_opt_text(r, "game", _GAME_ID),
        black=r.name("black") if r.has("black") else "",
        white=r.name("white") if r.has("white") else "",
        away=(r.choice("away", COLOURS) or "white") if r.has("away") else "white",
        result=_opt_choice(r, "result", RESULTS),
        reason=_opt_text(r, "reason", _REASON),
    )
    if truth.mirror is not None and truth.mirror not in truth.moves:
        r.fail("mirror", f"{truth.mirror} is not in moves")
    return truth


RESULTS = ("black", "white", "draw")
_GAME_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")
_REASON = re.compile(r"[a-z][a-z0-9_-]{0,39}")


def _opt_text(r: _Reader, name: str, pattern: re.Pattern[str]) -> str:
    """An optional short token: "" when absent or empty (an older owner)."""
    if not r.has(name) or r.raw(name) == "":
        return ""
    return r.text(name, pattern)


def _opt_choice(r: _Reader, name: str, allowed: tuple[str, ...]) -> str:
    if not r.has(name) or r.raw(name) == "":
        return ""
    return r.choice(name, allowed) or ""


def _reader(topic: str, payload: bytes) -> _Reader:
    if not isinstance(payload, bytes | bytearray | memoryview):
        raise MessageError(topic, None, f"payload must be bytes, not {type(payload).__name__}")
    if not payload:
        raise MessageError(topic, None, "empty payload")
    reader = _Reader(topic, _decode(topic, bytes(payload)))
    version = reader.raw("v")
    if isinstance(version, bool) or not isinstance(version, int):
        reader.fail("v", "schema version must be an integer")
    if version != SCHEMA_VERSION:
        reader.fail("v", f"schema version {version} is not supported (this host reads v1)")
    return reader


def _packet(topic: str, payload: bytes, link: str, to_owner: bool) -> LinePacket[Any]:
    r = _reader(topic, payload)
    got_link = r.text("link", _LINK, 64)
    if got_link != link:
        r.fail("link", f"is {got_link!r} but the topic is for link {link!r}")
    boot = r.text("boot", _BOOT, 64)
    sent_ms = r.integer("sent_ms", 0, MAX_STAMP_MS)
    state = r.choice("state", LINE_STATES)
    resumes = r.integer("resumes", 0, MAX_RESUMES)
    ack = r.integer("ack", 0, MAX_NUMBER)
    last = r.integer("last", 0, MAX_NUMBER)
    echo_ms = r.opt_integer("echo_ms", 0, MAX_STAMP_MS)
    echo_age_ms = r.integer("echo_age_ms", 0, MAX_TIME_MS)
    n = r.integer("n", 0, MAX_NUMBER)
    if n > last:
        r.fail("n", f"{n} is beyond last ({last})")
    raw_item = r.raw("item")
    item: LineItem | None = None
    if raw_item is None:
        if n != 0:
            r.fail("item", f"is missing though n is {n}")
    else:
        if n == 0:
            r.fail("item", "is given though n is 0 (a ping carries none)")
        inner = _Reader(topic, r.mapping("item"), "item.")
        item = _away_input(inner) if to_owner else _owner_truth(inner)
        inner.finish()
    request = _request(r)
    r.finish()
    line_state = cast(LineState, state)  # one of LINE_STATES: checked
    return LinePacket(
        link, boot, sent_ms, line_state, resumes, ack, last, echo_ms, echo_age_ms, n, item,
        request,
    )  # fmt: skip


def _request(r: _Reader) -> tuple[str, str] | None:
    """A resumption asked at the sender: ``{"hall": …, "referee": …}`` or null."""
    if r.raw("request") is None:
        return None
    inner = _Reader(r.topic, r.mapping("request"), "request.")
    request = (inner.text("hall", _LINK, 64), inner.text("referee", _REFEREE, 128))
    inner.finish()
    return request


def parse_to_owner(topic: str, payload: bytes, link: str) -> LinePacket[AwayInput]:
    """An away host's packet on ``topic`` (the link's ``to-owner``), or `MessageError`."""
    return _packet(topic, payload, link, to_owner=True)


def parse_to_away(topic: str, payload: bytes, link: str) -> LinePacket[OwnerTruth]:
    """An owner host's packet on ``topic`` (the link's ``to-away``), or `MessageError`."""
    return _packet(topic, payload, link, to_owner=False)


def parse_truth(topic: str, payload: bytes) -> OwnerTruth:
    """The owner's truth alone (the retained ``line/<link>/state``), or `MessageError`."""
    r = _reader(topic, payload)
    truth = _owner_truth(r)
    r.finish()
    return truth


def _item(item: LineItem) -> JsonObject:
    if isinstance(item, OwnerTruth):
        return {
            "moves": list(item.moves),
            "black_ms": item.black_ms,
            "white_ms": item.white_ms,
            "running": item.running,
            "held": item.held,
            "mirror": item.mirror,
            "at_ms": item.at_ms,
            "game": item.game,
            "black": item.black,
            "white": item.white,
            "away": item.away,
            "result": item.result,
            "reason": item.reason,
        }
    obj: JsonObject = {"kind": _KIND_OF[type(item)], "at_ms": item.at_ms}
    if isinstance(item, AwayStone):
        obj.update(point=item.point, colour=item.colour)
    elif isinstance(item, AwayShown):
        obj["move"] = item.move
    elif isinstance(item, AwayMirrored):
        obj.update(move=item.move, point=item.point)
    else:
        obj["button"] = item.button
    return obj


def item_json(item: LineItem) -> JsonObject:
    """A line item as JSON (a journal record's ``item``; ``item_from_json`` reads it)."""
    return _item(item)


def item_from_json(obj: JsonObject, *, truth: bool) -> LineItem:
    """The item ``item_json`` wrote: an owner's truth or an away input; `MessageError`."""
    r = _Reader("journal", obj)
    item: LineItem = _owner_truth(r) if truth else _away_input(r)
    return item


def _dump(obj: JsonObject) -> bytes:
    return json.dumps(
        obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode()


def encode_packet(packet: LinePacket[Any]) -> bytes:
    """Canonical JSON bytes of ``packet``: ``parse_to_*`` gives it back unchanged."""
    return _dump(
        {
            "v": SCHEMA_VERSION,
            "link": packet.link,
            "boot": packet.boot,
            "sent_ms": packet.sent_ms,
            "state": packet.state,
            "resumes": packet.resumes,
            "ack": packet.ack,
            "last": packet.last,
            "echo_ms": packet.echo_ms,
            "echo_age_ms": packet.echo_age_ms,
            "n": packet.n,
            "item": None if packet.item is None else _item(packet.item),
            "request": None
            if packet.request is None
            else {"hall": packet.request[0], "referee": packet.request[1]},
        }
    )


def encode_truth(truth: OwnerTruth) -> bytes:
    """Canonical JSON bytes of the owner's truth alone (``parse_truth`` is its inverse)."""
    return _dump({"v": SCHEMA_VERSION, **_item(truth)})
