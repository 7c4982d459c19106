"""Refused logins and kicks back off (issue 19): the pure policy with fake random numbers
and time, then the real client against a real Mosquitto made by ``wuzi venue
broker-config`` — a wrong password, a host refused at its real login path, and two
connections of one account pushing each other off — counting connection attempts and log
lines. Every process also says at start who it is on the broker."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from support.acl import Broker, generated_broker
from wuzi.bus.backoff import Backoff, StateLog
from wuzi.bus.client import BusClient
from wuzi.config.credentials import login

# --- the policy ---------------------------------------------------------------------------


def test_failures_double_the_delay_to_the_cap() -> None:
    backoff = Backoff(0.1, 30.0, random=lambda: 1.0)
    delays = [backoff.failed() for _ in range(12)]
    assert delays[:5] == pytest.approx([0.1, 0.2, 0.4, 0.8, 1.6])
    assert max(delays) == 30.0 and delays[-1] == 30.0


def test_jitter_draws_from_the_upper_half() -> None:
    low = Backoff(1.0, 30.0, random=lambda: 0.0)
    high = Backoff(1.0, 30.0, random=lambda: 1.0)
    assert [low.failed() for _ in range(3)] == [0.5, 1.0, 2.0]
    assert [high.failed() for _ in range(3)] == [1.0, 2.0, 4.0]


def test_an_unreachable_broker_has_its_own_lower_cap() -> None:
    backoff = Backoff(0.1, 30.0, random=lambda: 1.0)
    delays = [backoff.failed(5.0) for _ in range(10)]
    assert max(delays) == 5.0
    assert backoff.failed() == 30.0  # a refusal after them waits the long way


def test_a_stable_connection_resets_the_delay_and_a_short_one_does_not() -> None:
    backoff = Backoff(0.1, 30.0, stable_s=10.0, random=lambda: 1.0)
    for _ in range(6):
        backoff.failed()
    backoff.connected(100.0)
    assert not backoff.ended(100.5)  # dropped at once: a kick, the delay goes on growing
    assert backoff.failed() == pytest.approx(6.4)
    backoff.connected(200.0)
    backoff.stable(209.0)
    assert backoff.base_s == pytest.approx(12.8)
    backoff.stable(210.0)
    assert backoff.base_s == pytest.approx(0.1)
    assert backoff.ended(300.0)  # up 100 s: a plain loss, from the start again
    assert backoff.failed() == pytest.approx(0.1)


def test_a_bad_range_is_refused() -> None:
    with pytest.raises(ValueError, match="min_s <= max_s"):
        Backoff(2.0, 1.0)


def test_the_state_log_logs_each_change_once(caplog: pytest.LogCaptureFixture) -> None:
    log = logging.getLogger("test.statelog")
    states = StateLog(log, "c: ")
    with caplog.at_level(logging.INFO, logger="test.statelog"):
        assert states.enter("refused", logging.WARNING, "refused: bad password")
        for _ in range(5):
            assert not states.enter("refused", logging.WARNING, "refused: bad password")
        assert states.enter("connected", logging.INFO, "connected")
    messages = [r.getMessage() for r in caplog.records]
    assert messages == ["c: refused: bad password", "c: refused: 6 attempts in all", "c: connected"]


# --- the real client on a real broker ------------------------------------------------------


@pytest.fixture(scope="module")
def broker() -> Iterator[Broker]:
    with generated_broker() as found:
        yield found


def url(broker: Broker) -> str:
    return f"mqtt://127.0.0.1:{broker.port}"


def bus_lines(caplog: pytest.LogCaptureFixture, client_id: str) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "wuzi.bus" and r.getMessage().startswith(client_id + ":")
    ]


def test_a_refused_login_backs_off_and_logs_once(
    broker: Broker, caplog: pytest.LogCaptureFixture
) -> None:
    """Before: a retry every 0.1 s for ever (30 in 3 s, a log line each)."""
    account = login(broker.venue, "host", "h1")
    client = BusClient(
        url(broker),
        account.client_id,
        username=account.username,
        password="not-the-password",
        login_source="a wrong password, on purpose",
        jitter=lambda: 1.0,  # delays 0.1, 0.2, 0.4, 0.8, 1.6: attempts at 0, .1, .3, .7, 1.5, 3.1
    )
    with caplog.at_level(logging.INFO, logger="wuzi.bus"):
        client.connect()
        time.sleep(3.0)
        client.close()
    assert 4 <= client.attempts <= 6, client.attempts
    lines = bus_lines(caplog, account.client_id)
    assert lines[0] == (
        f"{account.client_id}: connecting to 127.0.0.1:{broker.port} as broker user "
        f"{account.username} (a wrong password, on purpose)"
    )
    refused = [line for line in lines if "refused the login" in line]
    assert len(refused) == 1, lines
    assert (
        f"refused the login of user {account.username} (a wrong password, on purpose): "
        "Not authorized"
    ) in refused[0]
    assert "back-off up to 30 s" in refused[0]
    assert len(lines) == 2, lines


def test_a_refused_host_backs_off_and_says_who_it_is(
    broker: Broker, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The host's own login path (`HostService._connect_bus`) with a password file of the
    wrong password: it says its account and the file, and backs off."""
    from wuzi.config import load_venue
    from wuzi.host.service import HostService, ServiceOptions

    wrong = tmp_path / "h1.pass"
    wrong.write_text("not-the-password\n", encoding="utf-8")
    text = (broker.directory / "venue.toml").read_text(encoding="utf-8")
    text = text.replace('id = "h1"', f'id = "h1"\nbroker_password_file = "{wrong}"')
    (tmp_path / "venue.toml").write_text(text, encoding="utf-8")
    venue = load_venue(tmp_path / "venue.toml")
    options = ServiceOptions(host_id="h1", journal_path=tmp_path / "h1.journal")
    service = HostService(venue, options)
    with caplog.at_level(logging.INFO, logger="wuzi.bus"):
        service._connect_bus()
        bus = service.bus
        assert bus is not None
        try:
            time.sleep(2.5)
        finally:
            bus.close()
    client_id = "wuzi.acl-test.host.h1"
    lines = bus_lines(caplog, client_id)
    assert lines[0] == (
        f"{client_id}: connecting to 127.0.0.1:{broker.port} as broker user {client_id} "
        f"(password file {wrong})"
    )
    assert len([line for line in lines if "refused the login" in line]) == 1, lines
    assert bus.attempts <= 8, bus.attempts  # jittered: at most 0.1+0.2+... in 2.5 s


def test_two_connections_of_one_account_back_off_instead_of_fighting(
    broker: Broker, caplog: pytest.LogCaptureFixture
) -> None:
    """Each connect of one takes the account's session from the other (a kick): both back
    off, so the tug-of-war slows down instead of running at 10 Hz for ever."""
    account = login(broker.venue, "host", "h2")
    clients = [
        BusClient(
            url(broker),
            account.client_id,
            username=account.username,
            password=account.password,
            login_source=account.source,
        )
        for _ in range(2)
    ]
    with caplog.at_level(logging.INFO, logger="wuzi.bus"):
        for client in clients:
            client.connect()
        time.sleep(4.0)
        for client in clients:
            client.close()
    total = sum(c.attempts for c in clients)
    assert total <= 20, total  # before: about 80 (each every 0.1 s)
    dropped = [line for line in bus_lines(caplog, account.client_id) if "dropped" in line]
    assert dropped and all("back-off up to 30 s" in line for line in dropped)


def test_an_anonymous_process_says_so(caplog: pytest.LogCaptureFixture) -> None:
    from wuzi.config import parse_venue
    from wuzi.sim.box import free_port

    venue = parse_venue(
        f'[venue]\nid = "demo"\nname = "Demo"\n[broker]\nurl = "mqtt://127.0.0.1:{free_port()}"\n'
        '[[hosts]]\nid = "pi-1"\n  [[hosts.tables]]\n  number = 1\n  board_port = "sim://board/1"\n'
        '  clock_port = "sim://clock/1"\n',
        base_dir=Path("/nonexistent"),
    )
    account = login(venue, "host", "pi-1")
    client = BusClient(
        venue.broker.url, account.client_id, login_source=account.source, reconnect_max_s=0.2
    )
    with caplog.at_level(logging.INFO, logger="wuzi.bus"):
        client.connect()
        time.sleep(0.3)
        client.close()
    lines = bus_lines(caplog, "wuzi.demo.host.pi-1")
    assert lines[0].endswith(
        "anonymously (no [broker] login and no password file /nonexistent/secrets/pi-1.pass)"
    )
    unreachable = [line for line in lines if "cannot reach broker" in line]
    assert len(unreachable) == 1 and client.attempts >= 2  # retried, logged once
