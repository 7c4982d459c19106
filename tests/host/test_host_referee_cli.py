"""``wuzi referee send`` in-process: to a control socket served in a thread (checked as a
host checks it: parse, verify, map to inputs) and over a real Mosquitto broker."""

from __future__ import annotations

import argparse
import selectors
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from support.broker import (  # type: ignore[import-not-found,unused-ignore]
    MosquittoBroker,
    free_port,
    wait_until,
)
from wuzi.bus import topics
from wuzi.bus.auth import AuthError, verify
from wuzi.bus.client import BusClient
from wuzi.bus.schemas import (
    ArbiterCommand,
    Cleared,
    Message,
    MessageError,
    TableState,
    parse_message,
)
from wuzi.config.credentials import referee_keys
from wuzi.config.venue import load_venue
from wuzi.host import referee_cli
from wuzi.host.commands import CommandError, to_inputs
from wuzi.host.control import GAMES_QUERY, ControlServer, games_message
from wuzi.host.referee_signing import SendError, parse_values
from wuzi.rules.game import Game

VENUE_ID = "referee-cli-test"
TOPIC = topics.arbiter_commands(VENUE_ID)
TOKEN = "deputy-token-0123456789abcdef"
PASSWORD = "pw of the chief 裁判"


@pytest.fixture
def work() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="wz", dir="/tmp"))  # short: a socket path lives here
    yield path
    shutil.rmtree(path, ignore_errors=True)


def password_hash(directory: Path, user: str, password: str) -> str:
    binary = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
    path = directory / "passwd"
    subprocess.run([binary, "-b", "-c", str(path), user, password], check=True)
    return path.read_text().strip().partition(":")[2]


def write_venue(directory: Path, broker_url: str = "mqtt://127.0.0.1:1") -> Path:
    (directory / "deputy.token").write_text(TOKEN + "\n")
    (directory / "chief.pass").write_text(PASSWORD + "\n")
    (directory / "wrong.pass").write_text("not the password\n")
    config = directory / "venue.toml"
    config.write_text(
        f"""
[venue]
id = "{VENUE_ID}"
name = "Test"
[broker]
url = "{broker_url}"
[[hosts]]
id = "pi-1"
  [[hosts.tables]]
  number = 3
  board_port = "sim://board/3"
  clock_port = "sim://clock/3"
  [[hosts.tables]]
  number = 4
  board_port = "sim://board/4"
  clock_port = "sim://clock/4"
[[referees]]
name = "chief"
password_hash = "{password_hash(directory, "chief", PASSWORD)}"
[[referees]]
name = "deputy"
token_file = "deputy.token"
"""
    )
    return config


class Host(threading.Thread):
    """A host's command path in a thread: control socket -> parse -> verify -> inputs."""

    def __init__(self, socket_path: Path, config: Path, refuse: str | None = None) -> None:
        super().__init__(daemon=True)
        self.keys = referee_keys(load_venue(config))
        self.server = ControlServer(socket_path)
        self.refuse = refuse
        self.received: list[ArbiterCommand] = []
        self.games_asked = 0
        self.stop = threading.Event()

    def answer(self, payload: bytes) -> tuple[bool, str]:
        try:
            cmd = parse_message(TOPIC, payload)
            assert isinstance(cmd, ArbiterCommand)
            verify(cmd, self.keys, now_ms=time.time_ns() // 1_000_000, max_age_ms=60_000)
            made = to_inputs(cmd, 1_000, Game("renju", t_ms=0))
        except (MessageError, AuthError, CommandError) as exc:
            return False, str(exc)
        self.received.append(cmd)
        if self.refuse is not None:
            return False, self.refuse
        return True, f"table {cmd.table}: {type(made[0]).__name__}"

    def run(self) -> None:
        with selectors.DefaultSelector() as outer:
            outer.register(self.server.fileno(), selectors.EVENT_READ)
            while not self.stop.is_set():
                if outer.select(timeout=0.05):
                    for request in self.server.on_readable():
                        if request.payload == GAMES_QUERY:  # as wuzi host answers it
                            self.games_asked += 1
                            request.reply(True, games_message({3: "g-3", 4: None}))
                            continue
                        request.reply(*self.answer(request.payload))
        self.server.close()

    def __enter__(self) -> Host:
        self.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop.set()
        self.join(5.0)


Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str], work: Path) -> Run:
    """Run ``wuzi referee send`` with the venue in ``work``; (status, stdout, stderr)."""

    def go(*argv: str, config: Path | None = None) -> tuple[int, str, str]:
        parser = argparse.ArgumentParser(prog="wuzi")
        referee_cli.register(parser.add_subparsers(dest="command"))
        args = parser.parse_args(
            ["referee", "send", "--config", str(config or work / "venue.toml"), *argv]
        )
        code = args.func(args)
        out, err = capsys.readouterr()
        return code, out, err

    return go


def as_deputy(work: Path) -> list[str]:
    return ["--referee", "deputy", "--token-file", str(work / "deputy.token")]


def test_values_are_integers_null_or_text() -> None:
    assert parse_values(["delta_ms=-30000", "moves=+3", "penalty=null", "old=h8", "reason="]) == {
        "delta_ms": -30000,
        "moves": 3,
        "penalty": None,
        "old": "h8",
        "reason": "",
    }
    assert parse_values(["reason=a=b c"]) == {"reason": "a=b c"}
    for bad, match in [
        (["h8"], "is not KEY=VALUE"),
        (["=x"], "is not an argument name"),
        (["a=1", "a=2"], "'a' is given twice"),
    ]:
        with pytest.raises(SendError, match=match):
            parse_values(bad)


def test_a_token_referee_sends_over_the_socket(run: Run, work: Path) -> None:
    write_venue(work)
    sock = work / "h.sock"
    with Host(sock, work / "venue.toml") as host:
        code, out, err = run(
            *as_deputy(work),
            "--socket",
            str(sock),
            "--table",
            "3",
            "adjust-time",
            "seat=black",
            "delta_ms=-30000",
            "reason=clock fault",
        )
    assert (code, out, err) == (0, "table 3: AdjustTime\n", "")
    [cmd] = host.received
    assert cmd.referee == "deputy" and cmd.table == 3 and cmd.action == "adjust-time"
    assert cmd.args == {"seat": "black", "delta_ms": -30000, "reason": "clock fault"}
    assert abs(cmd.issued_ms - time.time_ns() // 1_000_000) < 60_000
    assert cmd.auth is not None and cmd.auth.startswith("hmac-sha256+game:")
    assert cmd.game_id == "g-3"  # the game the host says table 3 plays: signed with it


def test_the_game_is_the_hosts_or_the_option_and_none_for_every_table(run: Run, work: Path) -> None:
    write_venue(work)
    sock = work / "h.sock"
    where = ["--socket", str(sock)]
    with Host(sock, work / "venue.toml") as host:
        assert run(*as_deputy(work), *where, "--table", "4", "next-game")[0] == 0
        assert host.games_asked == 1
        assert run(*as_deputy(work), *where, "--table", "3", "--game", "g-9", "resume")[0] == 0
        assert run(*as_deputy(work), *where, "--all", "pause", "reason=x")[0] == 0
        assert host.games_asked == 1  # neither asked the host
        code, _, err = run(*as_deputy(work), *where, "--all", "--game", "g-3", "resume")
    assert [c.game_id for c in host.received] == [None, "g-9", None]  # table 4 has no game
    assert code == 1
    assert err == (
        "wuzi referee send: a command for every table names no game (not 'g-3'): give --table N\n"
    )


def test_a_password_referee_sends_to_every_table(run: Run, work: Path) -> None:
    write_venue(work)
    sock = work / "h.sock"
    pw = ["--referee", "chief", "--password-file", str(work / "chief.pass")]
    with Host(sock, work / "venue.toml") as host:
        code, out, _ = run(*pw, "--socket", str(sock), "--all", "pause", "reason=fire alarm")
        code2, _, _ = run(*pw, "--socket", str(sock), "--all", "pause", "reason=fire alarm")
    assert (code, out, code2) == (0, "table None: RefereePause\n", 0)
    first, second = host.received
    assert first.table is None and first.command_id != second.command_id


def test_the_hosts_refusal_exits_1_with_its_message(run: Run, work: Path) -> None:
    write_venue(work)
    sock = work / "h.sock"
    with Host(sock, work / "venue.toml", refuse="the game is not paused"):
        code, out, err = run(*as_deputy(work), "--socket", str(sock), "--table", "3", "resume")
    assert code == 1 and out == ""
    assert err.startswith("wuzi referee send: the host refused ")
    assert err.endswith(": the game is not paused\n")


def test_a_wrong_secret_is_caught_before_sending(run: Run, work: Path) -> None:
    write_venue(work)
    (work / "other.token").write_text("another-token-0123456789abcdef\n")
    sock = work / "h.sock"
    with Host(sock, work / "venue.toml") as host:
        code, _, err = run(
            "--referee",
            "deputy",
            "--token-file",
            str(work / "other.token"),
            "--socket",
            str(sock),
            "--table",
            "3",
            "next-game",
        )
        assert code == 1 and "bad signature" in err  # the host's verdict, relayed
        code, _, err = run(
            "--referee",
            "chief",
            "--password-file",
            str(work / "wrong.pass"),
            "--socket",
            str(sock),
            "--table",
            "3",
            "next-game",
        )
    assert code == 1
    assert err == (
        "wuzi referee send: referee 'chief': wrong password: it does not match the referee's"
        " password_hash\n"
    )
    assert "not the password" not in err
    assert host.received == []


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--referee", "nobody", "--token-file", "x", "--table", "3", "pause", "reason=x"],
         "no referee 'nobody' in"),
        (["--referee", "chief", "--token-file", "{work}/deputy.token", "--table", "3", "next-game"],
         "referee 'chief' signs with a password (password_hash in the venue file): use"
         " --password-file"),
        (["--referee", "deputy", "--password-file", "{work}/chief.pass", "--table", "3",
          "next-game"], "referee 'deputy' signs with a token"),
        (["--referee", "deputy", "--token-file", "{work}/nowhere", "--table", "3", "next-game"],
         "nowhere': cannot read"),
        (["--referee", "deputy", "--token-file", "{work}/deputy.token", "--table", "7",
          "next-game"], "no table 7 in"),
        (["--referee", "deputy", "--token-file", "{work}/deputy.token", "--table", "3", "fly"],
         "fly: unknown action"),
        (["--referee", "deputy", "--token-file", "{work}/deputy.token", "--table", "3",
          "adjust-time", "seat=black", "delta_ms=30s"],
         "adjust-time: delta_ms: must be an integer, not the string '30s'"),
        (["--referee", "deputy", "--token-file", "{work}/deputy.token", "--table", "3",
          "pause", "reason=x", "colour=red"], "pause: colour: unknown argument"),
        (["--referee", "deputy", "--token-file", "{work}/deputy.token", "--table", "3",
          "pause", "reason"], "argument 'reason' is not KEY=VALUE"),
        (["--referee", "deputy", "--token-file", "{work}/deputy.token", "--table", "3",
          "--timeout", "0", "next-game"], "--timeout must be a positive number"),
    ],
)  # fmt: skip
def test_mistakes_exit_1_naming_what_is_wrong(
    run: Run, work: Path, argv: list[str], message: str
) -> None:
    write_venue(work)
    sock = work / "h.sock"
    with Host(sock, work / "venue.toml") as host:
        code, out, err = run(*[a.replace("{work}", str(work)) for a in argv], "--socket", str(sock))
    assert code == 1 and out == ""
    assert err.startswith("wuzi referee send: ") and message in err, err
    assert host.received == []


def test_a_bad_config_and_a_missing_socket(run: Run, work: Path) -> None:
    write_venue(work)
    (work / "bad.toml").write_text("[venue]\nid = 3\n")
    code, _, err = run(
        *as_deputy(work), "--socket", str(work / "x.sock"), "--all", "next-game",
        config=work / "bad.toml",
    )  # fmt: skip
    assert code == 1 and "bad.toml: venue.id: expected a string" in err
    code, _, err = run(*as_deputy(work), "--socket", str(work / "x.sock"), "--all", "next-game")
    assert code == 1 and "x.sock': cannot reach the host" in err


def test_usage_errors_exit_2(run: Run, work: Path) -> None:
    write_venue(work)
    with pytest.raises(SystemExit) as info:  # neither --socket nor --broker
        run(*as_deputy(work), "--table", "3", "next-game")
    assert info.value.code == 2
    assert referee_cli.main(["referee"]) == 2  # no subcommand: the help


# --- over a real broker --------------------------------------------------------------------


@pytest.fixture(scope="module")
def mosquitto() -> Iterator[MosquittoBroker]:
    directory = Path(tempfile.mkdtemp(prefix="wzmq", dir="/tmp"))
    broker = MosquittoBroker(directory)
    broker.start()
    yield broker
    broker.stop()
    shutil.rmtree(directory, ignore_errors=True)


def test_a_command_published_on_the_broker_reaches_a_host(
    run: Run, work: Path, mosquitto: MosquittoBroker
) -> None:
    config = write_venue(work, mosquitto.url)
    keys = referee_keys(load_venue(config))
    got: list[Message] = []
    listener = BusClient(mosquitto.url, "test-referee-listener")
    listener.subscribe(TOPIC, lambda _topic, message: got.append(message))
    listener.connect()
    state_topic = topics.table_state(VENUE_ID, 4)
    now_ms = time.time_ns() // 1_000_000
    state = TableState(4, "g-4", 7, "playing", (112,), 60_000, 60_000, "white", None, now_ms)
    try:
        assert listener.wait_subscribed(5.0)
        listener.publish(state_topic, state)  # retained, as table 4's host publishes it
        assert listener.wait_drained(5.0)
        code, out, err = run(
            "--referee",
            "chief",
            "--password-file",
            str(work / "chief.pass"),
            "--broker",
            "--table",
            "4",
            "set-result",
            "winner=white",
            "reason=resignation",
        )
        assert (code, err) == (0, "")
        wait_until(lambda: len(got) == 1, 5.0, "the command on the bus")
        listener.publish(state_topic, Cleared(state_topic))
        assert listener.wait_drained(5.0)
    finally:
        listener.close()
    [cmd] = got
    assert isinstance(cmd, ArbiterCommand)
    assert out == f"published {cmd.command_id} on {TOPIC}\n"
    assert (cmd.referee, cmd.table, cmd.action) == ("chief", 4, "set-result")
    assert cmd.args == {"winner": "white", "reason": "resignation"}
    assert cmd.game_id == "g-4"  # from the table's retained state
    verify(cmd, keys, now_ms=time.time_ns() // 1_000_000, max_age_ms=60_000)


def test_over_the_broker_a_table_without_a_state_needs_the_game(
    run: Run, work: Path, mosquitto: MosquittoBroker
) -> None:
    write_venue(work, mosquitto.url)
    code, out, err = run(*as_deputy(work), "--broker", "--table", "3", "resume")
    assert code == 1 and out == ""
    assert "holds no state of table 3 (is its host running?): give --game ID" in err
    code, out, err = run(*as_deputy(work), "--broker", "--table", "3", "--game", "g-3", "resume")
    assert (code, err) == (0, "") and out.startswith("published ")


def test_an_unreachable_broker_exits_1_within_the_timeout(run: Run, work: Path) -> None:
    write_venue(work, f"mqtt://127.0.0.1:{free_port()}")
    code, out, err = run(
        *as_deputy(work), "--broker", "--timeout", "0.5", "--table", "3", "next-game"
    )
    assert code == 1 and out == ""
    assert err.startswith("wuzi referee send: cannot reach the broker at 127.0.0.1:")
    assert "within 0.5 s" in err and TOKEN not in err
