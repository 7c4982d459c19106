"""SGF (FF[4]) game records for Gomoku and Renju: ``GM[4]``, ``SZ[15]``.

Points are two letters from the top-left corner, as in every SGF game: the column
(``a`` = column a) then the row counted from the top (``a`` = row 15), so h8 is ``hh``
and a1 is ``ao``. A pass is ``B[]`` (``B[tt]`` is read too, as RenLib writes it).

Everything a viewer knows goes in standard properties: ``RU`` the rule set, ``PB``/``PW``
and ``BT``/``WT`` the players and teams by colour, ``EV``, ``RO``, ``DT``, ``TM`` (when
the time control is plain seconds), ``RE`` (``B+R`` resignation, ``B+T`` time, ``B+F``
forfeit, ``B+`` any other win, ``0`` a draw), and ``BL``/``WL`` on every move (the time
left on each clock after the press, in seconds). What SGF has no property for goes in
private ``WZ…`` properties (listed in docs/records.md), which also hold the exact values
of what the standard properties round off (clocks in ms, players by seat), so a Wuzi
record survives a round trip through SGF unchanged; when a file has both, the private
property wins. Composed values separate their parts with ``:`` (escaped ``\\:`` inside a
part), and empty parts stand for "not known".

The reader takes the first game of a collection and the first variation at every branch.
Setup stones (``AB``/``AW``/``AE``) are refused: a record is a sequence of moves.

Files other programs wrote are read with a warning (``warn``) where they stray from
FF[4] GM[4] but say enough: ``GM[1]`` (GoWrite, KataGomo) or ``GM[5]`` (ZJRenju, ORC) on
an ``SZ[15]`` board; an ``RU`` Wuzi does not know (``Yamaguchi``, ``swap2``, ``五子棋``…),
kept as the tag ``sgf-rules``; a property Wuzi does not read given twice in one node
(GoWrite's ``LB``). ``CA[gb2312]`` is decoded as GB18030, the superset of GB2312 and
GBK that such files really hold; a file that says ``CA[UTF-8]`` but holds GBK too, with a
warning naming the line and the property. Gomoku Quest's opening stones (``QPR[hh,hg,jf]``, the
designated opening) and White's fourth move (``QSLW[ig]``) are the game's first moves.
Renju servers' ``5A`` (the fifth move's alternative; no valid SGF identifier, but RenLib
reads it) is kept as the tag ``sgf-5A``; any other identifier that is not letters is an
error naming it.
"""

from __future__ import annotations

import codecs
import dataclasses
import datetime
import re
from collections.abc import Callable, Iterator

from wuzi.base import __version__
from wuzi.rules.board import SIZE, Colour, Point, parse_point, point_name
from wuzi.rules.errors import RecordFormatError, RulesError
from wuzi.rules.formats.common import Warn, decode_text, warner
from wuzi.rules.formats.sgf_tree import (
    Prop,
    Reader,
    Repeat,
    composed,
    escape_part,
    escape_text,
    parse_main_line,
)
from wuzi.rules.procedure import Seat
from wuzi.rules.record import (
    Claim,
    ClockReading,
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
    check_moves,
)

_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_RESULT_SUFFIX = {"resignation": "R", "flag": "T", "forfeit": "F"}
_SUFFIX_REASON = {"R": "resignation", "RESIGN": "resignation", "T": "flag", "TIME": "flag"}
_SUFFIX_REASON |= {"F": "forfeit", "FORFEIT": "forfeit"}

# --- writing ----------------------------------------------------------------------------


def sgf_point(p: Point) -> str:
    """``h8`` -> ``hh``; ``a1`` -> ``ao`` (columns from the left, rows from the top)."""
    return _LETTERS[p % SIZE] + _LETTERS[SIZE - 1 - p // SIZE]


def _seconds(ms: int) -> str:
    sign = "-" if ms < 0 else ""
    whole, frac = divmod(abs(ms), 1000)
    return f"{sign}{whole}.{frac:03d}"


def _opt_point(p: Point | None) -> str | None:
    return None if p is None else point_name(p)


def _seat(s: Seat | None) -> str | None:
    return None if s is None else s.value


def export_sgf(record: GameRecord) -> str:
    """The whole record as one SGF game tree (UTF-8 text)."""
    root: list[tuple[str, list[str]]] = [
        ("FF", ["4"]),
        ("GM", ["4"]),
        ("CA", ["UTF-8"]),
        ("AP", [f"Wuzi:{__version__}"]),
        ("SZ", [str(SIZE)]),
        ("RU", [escape_text(record.ruleset)]),
    ]
    black, white = record.player_of(Colour.BLACK), record.player_of(Colour.WHITE)
    for ident, value in (
        ("PB", black.name),
        ("PW", white.name),
        ("BT", black.team),
        ("WT", white.team),
        ("EV", record.event),
        ("RO", record.round),
        ("GN", _game_name(record)),
    ):
        if value:
            root.append((ident, [escape_text(value)]))
    if record.start_time:
        root.append(("DT", [escape_text(record.start_time[:10])]))
    if record.time_control.isascii() and record.time_control.isdigit():
        root.append(("TM", [record.time_control]))
    if record.result is not None:
        root.append(("RE", [_re_value(record.result)]))
    root += _private_root(record)

    lines = ["(;" + _props(root)]
    for move in record.moves:
        props: list[tuple[str, list[str]]] = [
            ("B" if move.colour is Colour.BLACK else "W", [_sgf_move(move.point)])
        ]
        if move.clocks is not None:
            black_ms = move.clocks.of(record.black_seat)
            white_ms = move.clocks.of(record.black_seat.other)
            props += [("BL", [_seconds(black_ms)]), ("WL", [_seconds(white_ms)])]
            props.append(("WZC", [composed(move.clocks.first_ms, move.clocks.second_ms)]))
        if move.t_ms is not None:
            props.append(("WZT", [str(move.t_ms)]))
        props.append(("WZS", [move.seat.value]))
        lines.append(";" + _props(props))
    return "\n".join(lines) + ")\n"


def _game_name(record: GameRecord) -> str:
    """``GN``, the game's name as a viewer lists it: ``round 1, match 5, board 2: 上海 –
    广东`` (the teams, or the players when there are no teams, Black's first); not read
    back: ``RO``, ``WZMA``, ``WZBD`` and the players hold the same."""
    black, white = record.player_of(Colour.BLACK), record.player_of(Colour.WHITE)
    sides = (black.team, white.team) if black.team and white.team else (black.name, white.name)
    who = " – ".join(sides) if all(sides) else ""
    return ": ".join(part for part in (record.label, who) if part)


def _sgf_move(p: Point | None) -> str:
    return "" if p is None else sgf_point(p)


def _props(props: list[tuple[str, list[str]]]) -> str:
    return "".join(ident + "".join(f"[{v}]" for v in values) for ident, values in props)


def _re_value(result: GameResult) -> str:
    if result.winner == "draw":
        return "0"
    return ("B+" if result.winner == "black" else "W+") + _RESULT_SUFFIX.get(result.reason, "")


def _private_root(record: GameRecord) -> list[tuple[str, list[str]]]:
    props: list[tuple[str, list[str]]] = [
        ("WZMO", [escape_part(record.mode)]),
        ("WZBS", [record.black_seat.value]),
    ]
    for ident, p in (("WZPF", record.first), ("WZPS", record.second)):
        if p != Player():
            props.append((ident, [composed(p.name, p.id, p.team)]))
    if record.match is not None:
        props.append(("WZMA", [str(record.match)]))
    if record.board is not None:
        props.append(("WZBD", [str(record.board)]))
    if record.table is not None:
        props.append(("WZTB", [str(record.table)]))
    if record.game_number is not None:
        props.append(("WZGN", [str(record.game_number)]))
    if record.start_time:
        props.append(("WZST", [escape_part(record.start_time)]))
    if record.time_control:
        props.append(("WZTC", [escape_part(record.time_control)]))
    opening = record.opening
    props.append(("WZOP", [escape_part(opening.procedure)]))
    if opening.opening_id is not None:
        props.append(("WZOI", [escape_text(opening.opening_id)]))
    if opening.opening_name is not None:
        props.append(("WZON", [escape_text(opening.opening_name)]))
    if opening.set_by is not None:
        props.append(("WZOS", [opening.set_by]))
    if opening.decisions:
        props.append(
            (
                "WZOD",
                [composed(d.seat.value, d.choice, d.stones, d.t_ms) for d in opening.decisions],
            )
        )
    offers = opening.offers
    if offers is not None:
        props.append(
            (
                "WZFR",
                [
                    composed(
                        offers.move,
                        offers.n,
                        _seat(offers.declared_by),
                        _seat(offers.chosen_by),
                        _opt_point(offers.kept),
                    )
                ],
            )
        )
        if offers.offers:
            props.append(
                (
                    "WZFO",
                    [composed(point_name(o.point), o.seat.value, o.t_ms) for o in offers.offers],
                )
            )
    if record.claims:
        props.append(
            (
                "WZCL",
                [
                    composed(
                        c.seat.value,
                        c.kind,
                        c.verdict,
                        _opt_point(c.point),
                        c.t_ms,
                        c.forbidden,
                        c.proof,
                    )
                    for c in record.claims
                ],
            )
        )
    if record.infractions:
        props.append(
            (
                "WZIF",
                [
                    composed(i.seat.value, i.t_ms, i.loses, i.description)
                    for i in record.infractions
                ],
            )
        )
    if record.referee_actions:
        props.append(
            (
                "WZRF",
                [composed(a.action, a.referee, a.t_ms, a.detail) for a in record.referee_actions],
            )
        )
    if record.result is not None:
        props.append(("WZRR", [escape_part(record.result.reason)]))
        props.append(("WZRD", [escape_text(record.result.detail)]))
        if record.result.t_ms is not None:
            props.append(("WZRT", [str(record.result.t_ms)]))
    if record.tags:
        props.append(("WZTG", [composed(k, v) for k, v in record.tags.items()]))
    return props


# --- parsing ----------------------------------------------------------------------------
Fail = Callable[[str], RecordFormatError]


def _to_int(text: str, fail: Fail) -> int:
    if not re.fullmatch(r"-?[0-9]{1,15}", text.strip()):  # longer: garbage, and slow to convert
        raise fail(f"{text[:30]!r} is not a whole number of at most 15 digits")
    return int(text)


def _opt_int(text: str, fail: Fail, minimum: int | None = 0) -> int | None:
    if text == "":
        return None
    value = _to_int(text, fail)
    if minimum is not None and value < minimum:
        raise fail(f"{value} is below {minimum}")
    return value


def _seat_of(text: str, fail: Fail) -> Seat:
    try:
        return Seat(text)
    except ValueError:
        raise fail(f"seat must be 'first' or 'second', not {text!r}") from None


def _opt_seat(text: str, fail: Fail) -> Seat | None:
    return None if text == "" else _seat_of(text, fail)


def _wz_point(text: str, fail: Fail) -> Point:
    try:
        p = parse_point(text)
    except RulesError:
        raise fail(f"{text!r} is not a point such as h8") from None
    return p


def _opt_point_of(text: str, fail: Fail) -> Point | None:
    return None if text == "" else _wz_point(text, fail)


def _token(text: str, fail: Fail) -> str:
    if not re.fullmatch(r"[a-z0-9][a-z0-9_.+-]*", text):
        raise fail(f"{text!r} is not a token such as 'forbidden-33'")
    return text


def _bool(text: str, fail: Fail) -> bool:
    if text not in ("0", "1"):
        raise fail(f"{text!r} must be 0 or 1")
    return text == "1"


def _sgf_point_of(value: str, fail: Fail) -> Point | None:
    """A move value: two letters, or empty / ``tt`` for a pass."""
    v = value.strip()
    if v == "" or v.lower() == "tt":
        return None
    if len(v) != 2 or not v.isalpha():
        raise fail(f"[{value}] is not a point (two letters a–o)")
    col, row = _LETTERS.find(v[0].lower()), _LETTERS.find(v[1].lower())
    if not (0 <= col < SIZE and 0 <= row < SIZE):
        raise fail(f"[{value}] is off the 15×15 board (letters a–o)")
    return (SIZE - 1 - row) * SIZE + col


def _ms_of_seconds(text: str, fail: Fail) -> int:
    if not re.fullmatch(r"-?[0-9]{1,12}(\.[0-9]*)?", text.strip()):
        raise fail(f"{text[:30]!r} is not a number of seconds (at most 12 digits before '.')")
    sign = -1 if text.strip().startswith("-") else 1
    whole, _, frac = text.strip().lstrip("-").partition(".")
    return sign * (int(whole) * 1000 + int((frac + "000")[:3]))


_GB = ("gb2312", "gbk")
"""Character sets read as GB18030: Chinese renju programs label GBK text ``CA[gb2312]``
(GB2312 lacks characters such as 堃 that players' names use), and GB18030 holds both."""


def _sgf_text(data: str | bytes, report: Warn) -> str:
    """UTF-8, or the character set the file names in ``CA[…]`` (GB2312/GBK as GB18030).

    A file that says ``CA[UTF-8]`` but holds GBK (a RenLib library converted to SGF by a
    tool that writes the header but not the text) is read as GB18030 with a warning
    naming the line and the property, rather than refused: its moves are what matters,
    and the labels still read as their writer meant."""
    if isinstance(data, str):
        return data
    try:
        return decode_text(data, "SGF")
    except RecordFormatError:
        match = re.search(rb"CA\s*\[([A-Za-z0-9_.:-]+)\]", bytes(data))
        if match is None:
            raise
        charset = match.group(1).decode("ascii")
        if charset.lower().replace("_", "-") in ("utf-8", "utf8"):
            return _mislabelled_utf8(bytes(data), charset, report)
        try:
            info = codecs.lookup(charset)
        except LookupError:
            raise RecordFormatError(f"CA[{charset}]: unknown character set") from None
        if not getattr(info, "_is_text_encoding", True):  # uu, base64, zlib…: no text
            raise RecordFormatError(f"CA[{charset}]: not a character set") from None
        codec = info.name
        if codec in _GB:
            codec = "gb18030"
        try:
            return bytes(data).decode(codec)
        except UnicodeDecodeError as exc:
            raise RecordFormatError(
                f"byte {exc.start}: not {charset} text (CA[{charset}])"
            ) from None


def _mislabelled_utf8(data: bytes, charset: str, report: Warn) -> str:
    """``data`` (labelled ``CA[charset]``, UTF-8, but not UTF-8) read as GB18030 with a
    warning; the UTF-8 error again when it is not GB18030 either."""
    bad = 0
    try:
        data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        bad = exc.start
    try:
        text = data.decode("gb18030")
    except UnicodeDecodeError:
        raise RecordFormatError(f"byte {bad}: not UTF-8 text (CA[{charset}])") from None
    line = data.count(b"\n", 0, bad) + 1
    found = re.findall(rb"([A-Za-z0-9]+)\s*\[", data[:bad])
    where = f"{found[-1].decode('ascii')}[…]" if found else "the text"
    report(
        f"line {line}: CA[{charset}], but {where} is not UTF-8 (byte {bad}): read as "
        "GB18030 (GBK), the character set Chinese Gomoku programs write"
    )
    return text


def load_sgf(data: str | bytes, *, warn: Warn | None = None) -> GameRecord:
    """Read an SGF game; the first game of a collection, the main line of its tree.

    What another program wrote that strays from FF[4] GM[4] but can be read (see the
    module's docstring) is reported to ``warn`` (``wuzi.rules.formats.common.Warn``).
    """
    report = warner(warn)
    nodes = parse_main_line(_sgf_text(data, report), odd=(_FIFTH,))
    if not nodes:
        raise RecordFormatError("line 1: the game tree has no node")
    repeat = _repeats(report)
    root = Reader(nodes[0], repeat)
    _check_game(root, report)
    black_seat = Seat.FIRST
    if root.has("WZBS"):
        black_seat = _seat_of(root.text("WZBS"), lambda m: root.error("WZBS", m))

    moves: list[RecordedMove] = []
    move_lines: list[int] = []
    quest: list[RecordedMove] = []  # Gomoku Quest's opening stones, which B/W may repeat
    echo: list[RecordedMove] = []
    for props in nodes:
        node = Reader(props, repeat) if props is not nodes[0] else root
        for setup in ("AB", "AW", "AE"):
            if node.has(setup):
                raise node.error(setup, "setup stones are not supported in a game record")
        for ident in _QUEST:
            for point in _quest_points(node, ident):
                colour = Colour.BLACK if len(moves) % 2 == 0 else Colour.WHITE
                seat = black_seat if colour is Colour.BLACK else black_seat.other
                stone = RecordedMove(point, colour, seat)
                moves.append(stone)
                move_lines.append(node.props[ident].line)
                quest.append(stone)
                echo.append(stone)
        move = _read_move(node, black_seat)
        if move is not None:
            if echo and (move.point, move.colour) == (echo[0].point, echo[0].colour):
                echo.pop(0)  # the opening's stone written again as B/W: the same move
                continue
            echo.clear()
            moves.append(move)
            colour_ident = "B" if move.colour is Colour.BLACK else "W"
            move_lines.append(node.props[colour_ident].line)
    check_moves(tuple(moves), lambda i: f"line {move_lines[i]}: move {i + 1}")

    first, second = _players(root, black_seat)
    ruleset, tags = _ruleset(root, report), _tags(root)
    fifth = [p for props in nodes for p in props if p.ident == _FIFTH]
    if fifth:
        tags.setdefault(f"sgf-{_FIFTH}", " ".join(v for p in fifth for v in p.values))
        report(
            f"line {fifth[0].line}: {_FIFTH!r} is not a valid property identifier (SGF "
            f"identifiers are letters A–Z only), but renju programs write it for the fifth "
            f"move's alternatives and RenLib reads it: kept as the tag sgf-{_FIFTH}"
        )
    if ruleset is None:
        ruleset = "renju"
        tags.setdefault("sgf-rules", root.text("RU").strip())
    return GameRecord(
        moves=tuple(moves),
        result=_result(root),
        ruleset=ruleset,
        mode=_mode(root),
        opening=_quest_opening(root, _opening(root), quest),
        black_seat=black_seat,
        claims=tuple(_claims(root)),
        infractions=tuple(_infractions(root)),
        referee_actions=tuple(_referee_actions(root)),
        event=root.text("EV"),
        round=root.text("RO"),
        match=_opt_int(root.text("WZMA"), lambda m: root.error("WZMA", m), 1),
        board=_opt_int(root.text("WZBD"), lambda m: root.error("WZBD", m), 1),
        table=_opt_int(root.text("WZTB"), lambda m: root.error("WZTB", m)),
        game_number=_opt_int(root.text("WZGN"), lambda m: root.error("WZGN", m), 1),
        first=first,
        second=second,
        time_control=root.text("WZTC") if root.has("WZTC") else root.text("TM"),
        start_time=_start_time(root),
        tags=tags,
    )


_ROOT_READ = frozenset({"GM", "SZ", "CA", "RU", "PB", "PW", "BT", "WT", "EV", "RO", "DT", "TM"})
_READ = _ROOT_READ | {"RE", "B", "W", "BL", "WL", "AB", "AW", "AE", "QPR", "QSLW"}
"""The standard (and Gomoku Quest's) properties Wuzi reads; its own ``WZ…`` ones too."""


def _repeats(report: Warn) -> Repeat:
    """A property given twice in one node: an error if Wuzi reads it, else one warning."""
    warned: set[str] = set()

    def repeat(prop: Prop, first: Prop) -> None:
        if prop.ident in _READ or prop.ident.startswith("WZ"):
            raise RecordFormatError(f"line {prop.line}: property {prop.ident} given twice")
        if prop.ident not in warned:
            warned.add(prop.ident)
            report(
                f"line {prop.line}: property {prop.ident} given twice in one node (first on "
                f"line {first.line}); Wuzi does not read {prop.ident}, so both are ignored"
            )

    return repeat


_FIFTH = "5A"
"""The fifth move's alternative(s) (RIF's 五手两打): not an SGF identifier (it starts
with a digit), but RenLib's ``Sgf::Parse`` reads it, from the SGF files of renju game
servers (``GM[5]``, ``GN[A-B(B) : RIF rule]``, ``RE[W+Resign]``, ``5A[gg]``)."""

_QUEST = ("QPR", "QSLW")
"""Gomoku Quest's opening: ``QPR[hh,hg,jf]`` the opening's stones from Black (the
designated opening, 珠型), ``QSLW[ig]`` White's next move; B/W nodes follow (and may
repeat those stones first)."""


def _quest_points(node: Reader, ident: str) -> list[Point | None]:
    prop = node.props.get(ident)
    if prop is None:
        return []
    points: list[Point | None] = []
    for value in prop.values:
        for part in re.split(r"[,\s]+", value.strip()):
            if part:
                points.append(_sgf_point_of(part, lambda m: node.error(ident, m)))
    if not points or None in points:
        raise node.error(ident, f"{_brackets(prop)} is not a list of points such as [hh,hg,jf]")
    return points


def _brackets(prop: Prop) -> str:
    return "".join(f"[{v}]" for v in prop.values)


def _quest_opening(
    root: Reader, opening: OpeningRecord, quest: list[RecordedMove]
) -> OpeningRecord:
    """The designated opening Gomoku Quest's ``QPR`` placed, unless Wuzi's own props say."""
    from wuzi.rules.designated import match_designated

    if root.has("WZOP") or len(quest) < 3:
        return opening
    try:
        designated = match_designated([m.point for m in quest[:3] if m.point is not None]).opening
    except RulesError:
        return opening
    return dataclasses.replace(
        opening,
        procedure="designated",
        opening_id=designated.id,
        opening_name=f"{designated.chinese} {designated.romaji}",
    )


def _start_time(root: Reader) -> str:
    if root.has("WZST"):
        text = root.text("WZST")
        try:
            datetime.datetime.fromisoformat(text)
        except ValueError:
            raise root.error("WZST", f"{text!r} is not an ISO 8601 time") from None
        return text
    date = root.text("DT").strip()
    try:
        datetime.date.fromisoformat(date)
    except ValueError:
        return ""  # SGF dates may be partial or lists ("2026-05-01,02"): kept in tags
    return date


def _tags(root: Reader) -> dict[str, str]:
    tags = {k: v for k, v in root.parts("WZTG", 2)}
    date = root.text("DT").strip()
    if date and not root.has("WZST") and not _start_time(root):
        tags.setdefault("sgf-date", date)
    return tags


_GAMES = {"1": "Go", "2": "Othello", "3": "chess", "5": "Nine Men's Morris"}


def _check_game(root: Reader, report: Warn) -> None:
    size = root.text("SZ").strip() if root.has("SZ") else None
    fifteen = size in (str(SIZE), f"{SIZE}:{SIZE}")
    if root.has("GM") and root.text("GM").strip() != "4":
        game = root.text("GM").strip()
        if not (fifteen and game.isascii() and game.isdigit()):
            also = "" if size is not None else "; no SZ[15] says the board is 15×15"
            raise root.error("GM", f"GM[{root.text('GM')}] is not Gomoku/Renju (GM[4]){also}")
        report(
            f"line {root.props['GM'].line}: GM[{game}] is {_GAMES.get(game, 'not Gomoku')}'s "
            f"number, not Gomoku/Renju's (GM[4]), but the board is SZ[{size}]: read as "
            "Gomoku/Renju (GoWrite and KataGomo write GM[1], ZJRenju and ORC GM[5])"
        )
    if size is not None and not fifteen:
        raise root.error("SZ", f"the board is {size}; Wuzi plays on 15×15")


def _read_move(node: Reader, black_seat: Seat) -> RecordedMove | None:
    if node.has("B") and node.has("W"):
        raise node.error("W", "a node holds both a Black and a White move")
    ident = "B" if node.has("B") else "W" if node.has("W") else None
    if ident is None:
        return None
    colour = Colour.BLACK if ident == "B" else Colour.WHITE
    point = _sgf_point_of(node.text(ident), lambda m: node.error(ident, m))
    seat = black_seat if colour is Colour.BLACK else black_seat.other
    if node.has("WZS"):
        seat = _seat_of(node.text("WZS"), lambda m: node.error("WZS", m))
    t_ms = _opt_int(node.text("WZT"), lambda m: node.error("WZT", m))
    clocks: ClockReading | None = None
    if node.has("WZC"):
        fail: Fail = lambda m: node.error("WZC", m)  # noqa: E731
        first_ms, second_ms = next(node.parts("WZC", 2))
        clocks = ClockReading(_to_int(first_ms, fail), _to_int(second_ms, fail))
    elif node.has("BL") and node.has("WL"):
        black_ms = _ms_of_seconds(node.text("BL"), lambda m: node.error("BL", m))
        white_ms = _ms_of_seconds(node.text("WL"), lambda m: node.error("WL", m))
        by_seat = {black_seat: black_ms, black_seat.other: white_ms}
        clocks = ClockReading(by_seat[Seat.FIRST], by_seat[Seat.SECOND])
    return RecordedMove(point, colour, seat, t_ms, clocks)


def _players(root: Reader, black_seat: Seat) -> tuple[Player, Player]:
    by_seat: dict[Seat, Player] = {
        black_seat: Player(name=root.text("PB"), team=root.text("BT")),
        black_seat.other: Player(name=root.text("PW"), team=root.text("WT")),
    }
    for ident, seat in (("WZPF", Seat.FIRST), ("WZPS", Seat.SECOND)):
        for name, pid, team in root.parts(ident, 3):
            by_seat[seat] = Player(name=name, id=pid, team=team)
    return by_seat[Seat.FIRST], by_seat[Seat.SECOND]


_KATAGOMO_RULES = re.compile(
    r"basicrule(renju|standard|freestyle)(?:vcnrulenovc)?(?:firstpasswin0)?(?:maxmoves0)?",
    re.IGNORECASE,
)
"""KataGomo's ``Rules::toString`` (``basicruleRENJUvcnruleNOVCfirstpasswin0maxmoves0``)
when it names a plain rule set: its VCN rule off (``NOVC``), no first-pass win, no move
limit. Any other value of those is a variant Wuzi cannot hold (an unknown ``RU``)."""


def _ruleset(root: Reader, report: Warn) -> str | None:
    """The canonical rule set; None (after a warning) for an ``RU`` Wuzi does not know."""
    from wuzi.rules.ruleset import RuleSet

    text = root.text("RU").strip()
    if not text:
        return "renju"
    katagomo = _KATAGOMO_RULES.fullmatch(text)
    if katagomo:
        return katagomo.group(1).lower()
    try:
        return str(RuleSet.parse(text))
    except RulesError as exc:
        report(
            f"line {root.props['RU'].line}: RU[{text}]: {exc}; read as renju, and the "
            "text kept as the tag sgf-rules"
        )
        return None


def _mode(root: Reader) -> str:
    mode = root.text("WZMO", "claim")
    if mode not in ("claim", "auto"):
        raise root.error("WZMO", f"mode must be claim or auto, not {mode!r}")
    return mode


def _result(root: Reader) -> GameResult | None:
    winner: ResultValue | None = None
    reason = "unknown"
    if root.has("RE"):
        value = root.text("RE").strip().upper()
        if value in ("0", "DRAW", "JIGO"):
            winner = "draw"
        elif value[:2] in ("B+", "W+"):
            winner = "black" if value[0] == "B" else "white"
            reason = _SUFFIX_REASON.get(value[2:], "unknown")
        elif value not in ("?", "VOID", ""):
            raise root.error("RE", f"[{root.text('RE')}] is not a result such as B+R, W+ or 0")
    if root.has("WZRR"):
        reason = _token(root.text("WZRR"), lambda m: root.error("WZRR", m))
        if winner is None:
            raise root.error("WZRR", "a result reason without a result (RE)")
    if winner is None:
        return None
    t_ms = _opt_int(root.text("WZRT"), lambda m: root.error("WZRT", m))
    return GameResult(winner, reason, root.text("WZRD"), t_ms)


def _opening(root: Reader) -> OpeningRecord:
    set_by = root.text("WZOS") if root.has("WZOS") else None
    if set_by is not None and set_by not in ("opener", "lot", "referee"):
        raise root.error("WZOS", f"must be opener, lot or referee, not {set_by!r}")
    decisions: list[OpeningDecision] = []
    fail: Fail = lambda m: root.error("WZOD", m)  # noqa: E731
    for seat, choice, stones, t_ms in root.parts("WZOD", 4):
        count = _opt_int(stones, fail)
        if count is None:
            raise fail("the number of stones is missing")
        decisions.append(
            OpeningDecision(_seat_of(seat, fail), _token(choice, fail), count, _opt_int(t_ms, fail))
        )
    return OpeningRecord(
        procedure=_token(root.text("WZOP", "free"), lambda m: root.error("WZOP", m)),
        opening_id=root.text("WZOI") if root.has("WZOI") else None,
        opening_name=root.text("WZON") if root.has("WZON") else None,
        set_by=_set_by(set_by),
        decisions=tuple(decisions),
        offers=_offers(root),
    )


def _set_by(value: str | None) -> SetBy | None:
    if value == "opener":
        return "opener"
    if value == "lot":
        return "lot"
    if value == "referee":
        return "referee"
    return None


def _offers(root: Reader) -> OfferRound | None:
    if not root.has("WZFR"):
        if root.has("WZFO"):
            raise root.error("WZFO", "offers without their round (WZFR)")
        return None
    fail: Fail = lambda m: root.error("WZFR", m)  # noqa: E731
    move, n, declared_by, chosen_by, kept = next(root.parts("WZFR", 5))
    move_no, count = _opt_int(move, fail, 1), _opt_int(n, fail, 1)
    if move_no is None or count is None:
        raise fail("the move number and N are required")
    offer_fail: Fail = lambda m: root.error("WZFO", m)  # noqa: E731
    offers = tuple(
        Offer(_wz_point(p, offer_fail), _seat_of(s, offer_fail), _opt_int(t, offer_fail))
        for p, s, t in root.parts("WZFO", 3)
    )
    kept_point = _opt_point_of(kept, fail)
    if kept_point is not None and kept_point not in [o.point for o in offers]:
        raise fail(f"the kept stone {point_name(kept_point)} is not one of the offers")
    return OfferRound(
        move=move_no,
        n=count,
        offers=offers,
        kept=kept_point,
        declared_by=_opt_seat(declared_by, fail),
        chosen_by=_opt_seat(chosen_by, fail),
    )


def _claims(root: Reader) -> Iterator[Claim]:
    fail: Fail = lambda m: root.error("WZCL", m)  # noqa: E731
    for seat, kind, verdict, point, t_ms, forbidden, proof in root.parts("WZCL", 7):
        if forbidden not in ("", "33", "44", "ol"):
            raise fail(f"forbidden kind must be 33, 44 or ol, not {forbidden!r}")
        yield Claim(
            seat=_seat_of(seat, fail),
            kind=_token(kind, fail),
            verdict=_token(verdict, fail),
            point=_opt_point_of(point, fail),
            t_ms=_opt_int(t_ms, fail),
            forbidden=forbidden or None,
            proof=proof,
        )


def _infractions(root: Reader) -> Iterator[Infraction]:
    fail: Fail = lambda m: root.error("WZIF", m)  # noqa: E731
    for seat, t_ms, loses, description in root.parts("WZIF", 4):
        yield Infraction(
            _seat_of(seat, fail), description, _opt_int(t_ms, fail), _bool(loses, fail)
        )


def _referee_actions(root: Reader) -> Iterator[RefereeAction]:
    fail: Fail = lambda m: root.error("WZRF", m)  # noqa: E731
    for action, referee, t_ms, detail in root.parts("WZRF", 4):
        yield RefereeAction(_token(action, fail), referee, _opt_int(t_ms, fail), detail)
