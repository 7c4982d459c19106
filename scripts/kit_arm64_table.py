"""The venue's people for scripts/kit-arm64-systemd.sh: a simulated table outside the image.

    .venv/bin/python scripts/kit_arm64_table.py --ptys-file FILE --token-file FILE \
        [--broker mqtt://127.0.0.1:18934] [--venue arm64-trial] [--host pi-1] [--timeout-s 300]

The arm64 image has the host-only kit (no wuzi/sim), so its table's sensor board and
clock unit are simulated here, from a checkout's .venv, on real ptys that the script
bind-mounts into the image as /dev/wuzi/board-1 and /dev/wuzi/clock-1. This program:

1. opens the two ptys (`wuzi.sim.box.SimTables`) and writes "BOARD CLOCK" to --ptys-file;
2. waits until the host that systemd started in the image says on the broker that it is
   online with table 1's board and clock unit linked (its retained host status);
3. plays the director (a retained assignment for table 1) and the referee (`next-game`,
   signed with the venue file's referee token, sent over the bus);
4. places h8 Black on the simulated board and presses Black's button, then waits until
   the host's retained table state holds the move; then ends the game as the referee (a
   draw by agreement), so that the host writes the game's record in its state folder;
5. prints each step and the retained messages as the broker has them (the evidence), then
   keeps the ptys open until SIGTERM or SIGINT, so the host stays served while the script
   reads `systemctl status` and the journal.

Exit 0 when the move was seen and the game ended; 1 naming the step that timed out.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from wuzi.bus import topics
from wuzi.bus.auth import read_token_file, sign
from wuzi.bus.client import BusClient
from wuzi.bus.identity import throwaway_client_id
from wuzi.bus.schemas import (
    ArbiterCommand,
    Assignment,
    HostStatus,
    JsonObject,
    Message,
    RefereeState,
    TableEvent,
    TableState,
    encode,
)
from wuzi.rules.board import parse_point
from wuzi.sim.box import SimTables

BLACK = 1  # the board's colour code (wuzi.rules)
BLACK_BUTTON = 0  # the first seat's button plays Black in game 1
REFEREE = "chief"
TABLE = 1
MOVE = "h8"


class Seen:
    """The newest message of each topic, for the waits and the evidence."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.by_topic: dict[str, Message] = {}
        self.moves: list[TableEvent] = []

    def __call__(self, topic: str, message: Message) -> None:
        with self.lock:
            self.by_topic[topic] = message
            if isinstance(message, TableEvent) and message.kind == "move":
                self.moves.append(message)

    def get(self, topic: str) -> Message | None:
        with self.lock:
            return self.by_topic.get(topic)


def wait(what: str, condition: Callable[[], bool], deadline: float, stop: threading.Event) -> None:
    """Poll ``condition`` until it is true; exit 1 naming ``what`` at the deadline (a
    monotonic time in seconds) or when stopped (SIGTERM, SIGINT) before it."""
    while time.monotonic() < deadline and not stop.is_set():
        if condition():
            print(f"table: {what}: yes", flush=True)
            return
        time.sleep(0.2)
    why = "stopped" if stop.is_set() else "timed out"
    print(f"table: {why} waiting for {what}", file=sys.stderr, flush=True)
    raise SystemExit(1)


def signed(action: str, game_id: str, arguments: JsonObject, key: bytes) -> ArbiterCommand:
    """The referee's command ``action`` for table 1's game ``game_id``, signed with ``key``."""
    command = ArbiterCommand(
        command_id="c-" + uuid.uuid4().hex,
        referee=REFEREE,
        action=action,
        table=TABLE,
        args=arguments,
        issued_ms=time.time_ns() // 1_000_000,
        game_id=game_id,
    )
    return sign(command, key)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ptys-file", required=True, type=Path)
    parser.add_argument("--token-file", required=True, type=Path)
    parser.add_argument("--broker", default="mqtt://127.0.0.1:18934")
    parser.add_argument("--venue", default="arm64-trial")
    parser.add_argument("--host", default="pi-1")
    parser.add_argument("--timeout-s", type=float, default=300.0)
    args = parser.parse_args(argv)
    deadline = time.monotonic() + args.timeout_s
    key = read_token_file(args.token_file)

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())

    sim = SimTables(1)
    args.ptys_file.write_text(f"{sim.board_paths[0]} {sim.clock_paths[0]}\n")
    print(f"table: board {sim.board_paths[0]}, clock unit {sim.clock_paths[0]}", flush=True)
    seen = Seen()
    bus = BusClient(args.broker, throwaway_client_id(args.venue, "tool"), reconnect_max_s=1.0)
    bus.subscribe(f"wuzi/v1/{args.venue}/#", seen)
    bus.connect()
    status_topic = topics.host_status(args.venue, args.host)
    state_topic = topics.table_state(args.venue, TABLE)
    referee_topic = topics.arbiter_state(args.venue, TABLE)
    try:

        def linked() -> bool:
            status = seen.get(status_topic)
            return (
                isinstance(status, HostStatus)
                and status.online
                and TABLE in status.tables
                and TABLE not in status.links_down
            )

        wait(f"host {args.host} online on the broker, table {TABLE} linked", linked, deadline, stop)
        game_id = "g-arm64-" + uuid.uuid4().hex[:8]
        now_ms = time.time_ns() // 1_000_000
        bus.publish(
            topics.assignment(args.venue, TABLE),
            Assignment(
                TABLE, game_id, "Ann", "Bo", "renju", "free", {}, "600+5", None, 1, False, now_ms
            ),
        )

        def waiting() -> bool:
            ref = seen.get(referee_topic)
            return isinstance(ref, RefereeState) and any(
                "waits for the referee" in a.text for a in ref.alerts
            )

        wait(f"the assignment {game_id} held for the referee", waiting, deadline, stop)
        # the game the table shows: the one waiting for its start
        bus.publish(topics.arbiter_commands(args.venue), signed("next-game", game_id, {}, key))

        def playing() -> bool:
            state = seen.get(state_topic)
            return isinstance(state, TableState) and state.status == "playing"

        wait("the game started by the referee's next-game", playing, deadline, stop)
        sim.place(TABLE, parse_point(MOVE), BLACK)

        def settled() -> bool:
            ref = seen.get(referee_topic)
            return isinstance(ref, RefereeState) and ref.pending_stone == parse_point(MOVE)

        wait(f"{MOVE} settled on the board, seen by the host", settled, deadline, stop)
        sim.press(TABLE, BLACK_BUTTON)

        def judged() -> bool:
            state = seen.get(state_topic)
            return isinstance(state, TableState) and state.moves == (parse_point(MOVE),)

        wait(f"{MOVE} judged: in the host's table state", judged, deadline, stop)
        for topic in (status_topic, state_topic):
            message = seen.get(topic)
            assert message is not None
            print(f"retained {topic} {encode(message).decode()}", flush=True)
        draw = {"winner": None, "reason": "agreement"}
        bus.publish(topics.arbiter_commands(args.venue), signed("set-result", game_id, draw, key))

        def ended() -> bool:
            state = seen.get(state_topic)
            return isinstance(state, TableState) and state.result is not None

        wait("the game ended by the referee (a draw by agreement)", ended, deadline, stop)
        final = seen.get(state_topic)
        assert final is not None
        print(f"retained {state_topic} {encode(final).decode()}", flush=True)
        for event in seen.moves:
            print(f"event {topics.table_events(args.venue, TABLE)} {encode(event).decode()}")
        print("table: MOVE SEEN; serving the ptys until SIGTERM", flush=True)
        while not stop.wait(0.5) and time.monotonic() < deadline:
            pass
        return 0
    finally:
        bus.close()
        sim.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
