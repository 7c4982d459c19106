"""A hall line simulated in milliseconds: the owner and away sides of ``wuzi.table.hall_line``
joined by a network that loses, repeats, delays (so reorders) and cuts packets.

One true time ``t`` runs in ticks; the owner's monotonic clock reads ``t``, the away host's
``t + offset_ms`` plus a drift; every packet sent is given a fate by the seeded random
(lost, or delivered once or twice, each copy after its direction's delay and jitter), and
every packet that would cross a cut is lost. Each side keeps the journal of its records
(the host's part), so a side can be crashed and rebuilt (``crash``) at any tick. The
referees are played by ``resume``: the chief resumes at the owner as soon as it can.
"""

from __future__ import annotations

import heapq
import random
from dataclasses import dataclass, field

from wuzi.table.hall_line import (
    AwayLine,
    Journal,
    LineCut,
    LineDecision,
    OwnerLine,
    Take,
)
from wuzi.table.line_messages import (
    AwayInput,
    AwayPress,
    AwayStone,
    LinePacket,
    LineRecord,
    OwnerTruth,
)

LINK = "hall-a-3-hall-b-3"


@dataclass(frozen=True)
class Cut:
    """Packets crossing ``start_ms``..``end_ms`` (true time) ``direction`` are lost:
    ``both``, ``to_owner`` or ``to_away``."""

    start_ms: int
    end_ms: int
    direction: str = "both"


@dataclass
class Net:
    """The line's faults: each copy lost with ``loss``, a second copy with ``dup``, each
    direction's delay ``base ± jitter`` ms (asymmetric when the bases differ)."""

    loss: float = 0.0
    dup: float = 0.0
    to_owner_ms: int = 75
    to_away_ms: int = 75
    jitter_ms: int = 20
    cuts: tuple[Cut, ...] = ()


@dataclass
class LineSim:
    """The two sides and the network between them, run tick by tick."""

    net: Net
    seed: int = 0
    offset_ms: int = 123_456  # away clock minus the owner's at t = 0
    drift_ppm: int = 50
    tick_ms: int = 10
    t: int = 0
    owner: OwnerLine = field(init=False)
    away: AwayLine = field(init=False)
    journals: dict[str, list[LineRecord]] = field(init=False)
    inputs: list[AwayInput] = field(init=False, default_factory=list)
    truths: list[OwnerTruth] = field(init=False, default_factory=list)
    cuts_seen: dict[str, list[int]] = field(init=False)
    input_true_ms: dict[AwayInput, int] = field(init=False, default_factory=dict)
    decisions: dict[str, list[LineDecision]] = field(init=False)
    boots: int = 0

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.owner = OwnerLine(LINK, "owner-1", "hall-a", "hall-b")
        self.away = AwayLine(LINK, "away-1", "hall-b", "hall-a")
        self.journals = {"owner": [], "away": []}
        self.cuts_seen = {"owner": [], "away": []}
        self.decisions = {"owner": [], "away": []}
        self._flight: list[tuple[int, int, str, LinePacket]] = []  # type: ignore[type-arg]
        self._count = 0

    def away_ms(self, t: int | None = None) -> int:
        t = self.t if t is None else t
        return t + self.offset_ms + t * self.drift_ppm // 1_000_000

    def now(self, side: str) -> int:
        return self.t if side == "owner" else self.away_ms()

    # -- the hosts ---------------------------------------------------------------------

    def press(self, button: int = 1) -> AwayInput:
        """An input of the away table now (alternately a stone and a press)."""
        n = len(self.inputs)
        item: AwayInput
        if n % 2 == 0:
            item = AwayStone(n % 225, "black" if n % 4 == 0 else "white", self.away_ms())
        else:
            item = AwayPress(button, self.away_ms())
        self.inputs.append(item)
        self.input_true_ms[item] = self.t
        self.journals["away"].append(self.away.send_input(item, self.away_ms()))
        return item

    def truth(self) -> OwnerTruth:
        """The owner's truth now (its moves: the inputs it has taken)."""
        taken = len(self.owner.taken)
        running = "black" if taken % 2 == 0 else "white"
        truth = OwnerTruth(
            tuple(range(taken)), 900_000 - taken, 900_000, running, False, None, self.t
        )
        self.truths.append(truth)
        self.journals["owner"].append(self.owner.send_truth(truth, self.t))
        return truth

    def _side(self, name: str) -> OwnerLine | AwayLine:
        return self.owner if name == "owner" else self.away

    def _record(self, name: str, decisions: list[LineDecision]) -> None:
        for d in decisions:
            self.decisions[name].append(d)
            if isinstance(d, Take | Journal):
                self.journals[name].append(d.record)
            elif isinstance(d, LineCut):
                self.cuts_seen[name].append(self.t)

    def crash(self, name: str) -> None:
        """The host of ``name`` crashes and is rebuilt from its journal (a new run)."""
        self.boots += 1
        records = list(self.journals[name])
        if name == "owner":
            self.owner = OwnerLine.recover(
                LINK, f"owner-{self.boots + 1}", "hall-a", "hall-b", records, self.now(name)
            )
        else:
            self.away = AwayLine.recover(
                LINK, f"away-{self.boots + 1}", "hall-b", "hall-a", records, self.now(name)
            )

    def resume(self) -> None:
        """The chief resumes the game at the owner whenever both sides wait for it."""
        if self.owner.state == "waiting_for_referees":
            self._record("owner", self.owner.resume_by_chief("chief", self.t))

    # -- the network -------------------------------------------------------------------

    def _cut(self, at: int, direction: str) -> bool:
        return any(
            c.start_ms <= at < c.end_ms and c.direction in ("both", direction)
            for c in self.net.cuts
        )

    def _send(self, dest: str, packet: LinePacket) -> None:  # type: ignore[type-arg]
        net = self.net
        base = net.to_owner_ms if dest == "owner" else net.to_away_ms
        copies = 2 if self.rng.random() < net.dup else 1
        for _ in range(copies):
            if self.rng.random() < net.loss:
                continue
            arrive = self.t + max(1, base + self.rng.randint(-net.jitter_ms, net.jitter_ms))
            direction = "to_owner" if dest == "owner" else "to_away"
            if self._cut(self.t, direction) or self._cut(arrive, direction):
                continue
            self._count += 1
            heapq.heappush(self._flight, (arrive, self._count, dest, packet))

    def step(self) -> None:
        """One tick: packets arrive, each side polls, then sends what it has to send."""
        self.t += self.tick_ms
        while self._flight and self._flight[0][0] <= self.t:
            _, _, dest, packet = heapq.heappop(self._flight)
            side = self._side(dest)
            self._record(dest, side.receive(packet, self.now(dest)))
        for name in ("owner", "away"):
            self._record(name, self._side(name).poll(self.now(name)))
        for name, dest in (("owner", "away"), ("away", "owner")):
            for packet in self._side(name).outgoing(self.now(name)):
                self._send(dest, packet)

    def run(self, until_ms: int) -> None:
        while self.t < until_ms:
            self.step()

    def settle(self, max_ms: int = 20_000) -> None:
        """Run on a clean line (no loss, no cut) until both sides are up with nothing
        outstanding, the referees resuming as soon as they can."""
        self.net = Net(0.0, 0.0, self.net.to_owner_ms, self.net.to_away_ms, self.net.jitter_ms)
        end = self.t + max_ms
        while self.t < end:
            self.step()
            self.resume()
            done = all(s.state == "up" and not s.durable().unacked for s in (self.owner, self.away))
            counts = (len(self.owner.taken), len(self.away.taken))
            if done and counts == (len(self.inputs), len(self.truths)):
                return
        raise AssertionError(
            f"not settled after {max_ms} ms: owner {self.owner.state} "
            f"{len(self.owner.taken)}/{len(self.inputs)}, away {self.away.state} "
            f"{len(self.away.taken)}/{len(self.truths)}"
        )
