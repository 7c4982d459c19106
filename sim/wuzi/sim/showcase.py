"""``wuzi demo --showcase``: one judged game, scripted, instant.

One game of the team final is played through the real rules engine and the real clock
core, as a table host will drive them: the Chinese 2013 opening (寒星 Kansei placed by the
opener, the swap decision, two fifth-move offers with an equivalent one refused), then
play until Black makes a double-three. The referee's private channel sees the foul at
once; the players' side sees nothing until White claims; the claim is judged with the
referee's explanation, and the record is printed as a score sheet and, with ``--out``,
written in every format.

Time is simulated (each action's thinking time is given), so the run is instant and the
same every time — the quick look at the rules engine and the clock; ``wuzi demo`` without
``--showcase`` plays the whole simulated final (``wuzi.sim.final.run``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from wuzi.clock.clock import Clock
from wuzi.clock.control import parse_control
from wuzi.clock.opening import table_press
from wuzi.clock.snapshot import side_text
from wuzi.rules.errors import RulesError
from wuzi.rules.formats import FORMATS, export
from wuzi.rules.game import Game
from wuzi.rules.openings import chinese_2013
from wuzi.rules.procedure import Seat
from wuzi.rules.record import Player

NS_PER_S = 1_000_000_000

# (action, argument, thinking seconds). The board is seen from the first seat.
SCRIPT: tuple[tuple[str, str, float], ...] = (
    ("place", "h8", 4),  # B1
    ("place", "h9", 3),  # W2
    ("place", "h10", 5),  # B3: 1D 寒星 Kansei
    ("decide", "stay", 41),  # White keeps White
    ("place", "i9", 33),  # W4
    ("place", "g8", 52),  # offer 1
    ("place", "g10", 9),  # offer 2: equivalent to g8 (mirror), refused at once
    ("place", "j8", 27),  # offer 2
    ("choose", "g8", 38),  # White keeps g8; j8 comes off the board
    *(
        ("place", p, s)
        for p, s in (
            ("g9", 61),
            ("j10", 45),
            ("f7", 72),
            ("e6", 30),
            ("i11", 58),
            ("f10", 66),
            ("g11", 80),
            ("g10", 41),
            ("f11", 95),
            ("h11", 39),
            ("e11", 77),
        )
    ),
    ("place", "e8", 120),  # Black: a double-three (row 8 and the a4–l15 diagonal)
    ("claim", "e8", 6),  # White claims the forbidden move
)


def play(out: Path | None, stream: Any) -> int:
    """Play the scripted game; print what each party sees; write the record files."""
    control = parse_control("2700+30")  # the team final: 45 minutes + 30 s per move
    clock = Clock(control)
    game = Game("renju", opening=chinese_2013("opener", n=2))
    names = {Seat.FIRST: "王一鸣", Seat.SECOND: "陈思远"}
    teams = {Seat.FIRST: "北京", Seat.SECOND: "上海"}
    now_ns = 0
    clock.start(now_ns)
    print("Wuzi showcase — team final, board 1, Chinese 2013 rules, 45 min + 30 s", file=stream)
    for seat, colour in ((Seat.FIRST, "Black"), (Seat.SECOND, "White")):
        print(
            f"  {seat.value} seat ({colour} at the start): {names[seat]} ({teams[seat]})",
            file=stream,
        )
    print(file=stream)
    seen_alerts = 0
    for action, arg, think_s in SCRIPT:
        now_ns += int(think_s * NS_PER_S)
        actor = game.to_move
        reading = clock.view(now_ns).reading()
        step = game.step
        mover = game.colour_to_move
        label = step.description if step is not None else f"{mover.label if mover else '-'} moves"
        try:
            if action == "place":
                game.place(arg, t_ms=now_ns // 1_000_000, clocks=reading)
            elif action == "decide":
                game.decide(arg, t_ms=now_ns // 1_000_000, clocks=reading)
            elif action == "choose":
                game.choose(arg, t_ms=now_ns // 1_000_000, clocks=reading)
            elif action == "claim":
                verdict = game.claim_forbidden(arg, t_ms=now_ns // 1_000_000, clocks=reading)
                print(f"\n  CLAIM by White on {arg}: {verdict.verdict.value}", file=stream)
        except RulesError as exc:
            print(f"  refused  {action} {arg}: {exc}", file=stream)
            continue
        if action != "claim" and actor is not None:
            table_press(clock, now_ns, game, acted=True, by=actor)
        view = clock.view(now_ns)
        clocks = f"[{side_text(view.first)} | {side_text(view.second)}]"
        print(f"  {clocks:>20}  {action:6} {arg:5}  ({label})", file=stream)
        for alert in game.referee_alerts[seen_alerts:]:
            print("  ── referee only ──", file=stream)
            for line in alert.text.splitlines():
                print(f"     {line}", file=stream)
        seen_alerts = len(game.referee_alerts)
        if game.is_over:
            clock.end(now_ns)
            break
    result = game.result
    print(f"\nResult: {result.detail if result else 'game not over'}\n", file=stream)
    record = game.record(
        event="全国五子棋团体锦标赛 决赛 (showcase)",
        round="1",
        table=1,
        game_number=1,
        first=Player(name=names[Seat.FIRST], team=teams[Seat.FIRST]),
        second=Player(name=names[Seat.SECOND], team=teams[Seat.SECOND]),
        time_control=str(control),
    )
    print(export(record, "sheet"), file=stream)
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        for fmt in FORMATS.values():
            ext = fmt.extensions[0] if fmt.extensions else ".txt"
            data = export(record, fmt.name)
            path = out / f"showcase-{fmt.name}{ext}"
            path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
            print(f"wrote {path}", file=stream)
    return 0 if result is not None else 1
