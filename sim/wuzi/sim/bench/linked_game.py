"""The linked game's figures (``wuzi bench linked``): two real hosts, one per hall, each
hall's Mosquitto bridged to a central one through a delaying proxy (``BridgedHalls``:
37.5 ms ± 7.5 ms each way on each hall line, a 150 ms round trip from hall to hall), the
tables' simulated boards and clock units on ptys, started together from this process.

Link ``board-1`` joins table 1 of both halls; hall A owns it. Black (hall A) and white
(hall B) play moves; at every move the other player mirrors the stone once their clock
unit shows its point:

* ``linked.opponent_move_to_display_p99_ms`` — black's press at hall A (the move made:
  the stone on the board, the clock pressed) to hall B's clock unit showing its point;
* ``linked.cut_to_both_held_ms`` — both hall lines cut (the proxies drop everything) to
  both clock units showing ``HOLd``;
* ``linked.charged_for_mirroring_ms`` — what white's clock lost beyond their own thinking
  (from their stone of the mirroring on the board to their press), with the mirroring
  made ``MIRROR_AFTER_MS`` after the point showed (within the 10 s grace): the worst
  move's, never below 0 (the rule gives the stamps' doubt to the player, so a move's raw
  figure is a few ms to the player's credit, within the offset's bound).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from wuzi.bus.line import parse_truth
from wuzi.link import segments
from wuzi.sim.box import SimTables
from wuzi.sim.devices.runner import monotonic_ms
from wuzi.sim.net.halls import BridgedHalls, Tap
from wuzi.sim.venue_file import table_toml
from wuzi.table.away_table import HELD_TEXT, point_text
from wuzi.table.line_messages import OwnerTruth

__all__ = ["run_game"]

LINK = "board-1"
A, B = "hall-a", "hall-b"
MIRROR_AFTER_MS = 2_000
THINK_MS = 800
INCREMENT_MS = 5_000
BLACK, WHITE = 1, 2
_MOVES = (  # black's, white's: no five before the end
    ("h8", "a1"), ("j8", "c1"), ("h10", "e1"), ("j10", "g1"), ("l12", "i1"),
    ("b14", "k1"), ("d14", "m1"), ("f14", "o3"), ("n14", "o5"), ("b4", "o7"),
)  # fmt: skip


def _venue(path: Path, venue: str, other: str, url: str, central: str, sim: SimTables) -> None:
    owner = "here" if venue == A else "there"
    table = "\n".join(table_toml(1, sim.board_paths[0], sim.clock_paths[0]))
    path.write_text(
        f"""[venue]
id = "{venue}"
name = "Bench hall {venue}"
[broker]
url = "{url}"
[[hosts]]
id = "pi-1"
{table}
[defaults]
ruleset = "renju"
opening = "free"
time_control = "900+{INCREMENT_MS // 1000}"
[central]
url = "{central}"
[[links]]
id = "{LINK}"
table = 1
other_venue = "{other}"
other_table = 1
owner = "{owner}"
""",
        encoding="utf-8",
    )


def _wait(condition: Callable[[], bool], timeout_s: float, what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError(f"linked bench: timed out waiting for {what}")
        time.sleep(0.001)


def run_game(emit: Callable[[str, float, str], None], quick: bool) -> None:
    moves = _MOVES[:4] if quick else _MOVES
    with tempfile.TemporaryDirectory(prefix="wuzi-bench-linked-game-") as folder:
        root = Path(folder)
        sims = {A: SimTables(1), B: SimTables(1, seed=7)}
        processes: list[subprocess.Popen[bytes]] = []
        try:
            with BridgedHalls(
                root / "brokers", halls=("a", "b"), topics=("wuzi/v1/+/line/#",)
            ) as halls:
                for venue, other, name in ((A, B, "a"), (B, A, "b")):
                    (root / venue).mkdir()
                    config = root / venue / "venue.toml"
                    _venue(
                        config, venue, other, halls.hall(name).url, halls.central_url, sims[venue]
                    )
                    log = (root / f"{venue}.log").open("wb")
                    args = [sys.executable, "-m", "wuzi.cli", "host", "--config", str(config)]
                    args += ["--host", "pi-1", "--state-dir", str(root / venue / "state")]
                    processes.append(
                        subprocess.Popen(
                            [*args, "--standalone"], stdout=log, stderr=subprocess.STDOUT
                        )
                    )
                    log.close()
                truths = Tap(halls.hall("a").url, [f"wuzi/v1/{A}/line/{LINK}/state"])
                try:
                    _play(emit, halls, sims, truths, moves, root)
                finally:
                    truths.close()
        finally:
            for process in processes:
                process.terminate()
            for process in processes:
                process.wait(10)
            for sim in sims.values():
                sim.close()


def _face(sims: dict[str, SimTables], hall: str, index: int) -> bytes:
    return sims[hall].clocks[0].displays[index].segments


def _shows(sims: dict[str, SimTables], hall: str, seg: bytes) -> bool:
    return _face(sims, hall, 1) == seg


def _not_shows(sims: dict[str, SimTables], hall: str, seg: bytes) -> bool:
    return _face(sims, hall, 1) != seg


def _has_truth(truths: Tap, moves: int) -> bool:
    return _truth(truths, moves) is not None


def _truth(truths: Tap, moves: int) -> OwnerTruth | None:
    """The owner's newest truth with ``moves`` moves (the retained state's history)."""
    topic = f"wuzi/v1/{A}/line/{LINK}/state"
    for payload in reversed(truths.payloads(topic)):
        truth = parse_truth(topic, payload)
        if len(truth.moves) == moves:
            return truth
    return None


def _play(
    emit: Callable[[str, float, str], None],
    halls: BridgedHalls,
    sims: dict[str, SimTables],
    truths: Tap,
    moves: tuple[tuple[str, str], ...],
    root: Path,
) -> None:
    from wuzi.rules.board import parse_point

    idle = segments.text("----")
    _wait(lambda: _face(sims, B, 0) not in (idle, bytes(4)), 30, "hall B's first truth")
    to_display: list[float] = []
    charged: list[int] = []
    count = 0
    for black, white in moves:
        # black at hall A: the stone, the press; hall B's unit shows the point
        sims[A].place(1, parse_point(black), BLACK)
        time.sleep(0.25)
        pressed = monotonic_ms()
        sims[A].press(1, 0)
        shown = segments.text(point_text(parse_point(black)))
        _wait(partial(_shows, sims, B, shown), 10, f"{black} shown at hall B")
        to_display.append(monotonic_ms() - pressed)
        count += 1
        _wait(partial(_has_truth, truths, count), 10, f"the truth of move {count}")
        before = _truth(truths, count)
        assert before is not None
        # white mirrors after MIRROR_AFTER_MS, thinks THINK_MS, places and presses
        time.sleep(MIRROR_AFTER_MS / 1000)
        mirrored = monotonic_ms()
        sims[B].place(1, parse_point(black), BLACK)
        time.sleep(THINK_MS / 1000)
        sims[B].place(1, parse_point(white), WHITE)
        time.sleep(0.25)
        white_pressed = monotonic_ms()
        sims[B].press(1, 0)
        shown = segments.text(point_text(parse_point(white)))
        _wait(partial(_shows, sims, A, shown), 10, f"{white} shown at hall A")
        count += 1
        _wait(partial(_has_truth, truths, count), 10, f"the truth of move {count}")
        after = _truth(truths, count)
        assert after is not None
        used = before.white_ms + INCREMENT_MS - after.white_ms
        charged.append(used - (white_pressed - mirrored))
        sims[A].place(1, parse_point(white), WHITE)  # black mirrors at hall A
        _wait(partial(_not_shows, sims, A, shown), 10, f"{white} mirrored at hall A")
    # the cut: both hall lines drop everything
    cut = monotonic_ms()
    for name in ("a", "b"):
        halls.hall(name).proxy.cut()
    held = segments.text(HELD_TEXT)
    _wait(lambda: _face(sims, A, 0) == held and _face(sims, B, 0) == held, 10, "both held")
    held_ms = monotonic_ms() - cut
    for name in ("a", "b"):
        halls.hall(name).proxy.restore()
    to_display.sort()
    p99 = to_display[min(len(to_display) - 1, round(0.99 * (len(to_display) - 1)))]
    emit("linked.opponent_move_to_display_p99_ms", p99, "ms")
    emit("linked.cut_to_both_held_ms", held_ms, "ms")
    emit("linked.charged_for_mirroring_ms", max(0, max(charged)), "ms")
    (root / "charged.txt").write_text(" ".join(map(str, charged)))
