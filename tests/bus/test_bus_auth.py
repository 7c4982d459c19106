"""Signed arbiter commands: signing, every reason to refuse, keys from token files and
from real mosquitto_passwd hashes."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wuzi.bus import topics
from wuzi.bus.auth import (
    MIN_KEY_BYTES,
    AuthError,
    canonical_bytes,
    hash_key,
    key_from_password,
    read_token_file,
    sign,
    verify,
)
from wuzi.bus.schemas import ArbiterCommand, MessageError, encode, parse_message
from wuzi.config.credentials import referee_keys
from wuzi.config.venue import parse_venue
from wuzi.table.commands import Ticket
from wuzi.table.commands import game_problem as table_game_problem

KEY = b"deputy-token-0123456789abcdef"
OTHER = b"someone-else-0123456789abcdef"
KEYS = {"deputy": KEY}
NOW = 900_000_000_000  # the signature does not care what the epoch is
TOPIC = topics.arbiter_commands("test-venue")


def command(**changes: object) -> ArbiterCommand:
    base = ArbiterCommand(
        command_id="c-1",
        referee="deputy",
        action="adjust-time",
        table=3,
        args={"seat": "black", "delta_ms": -30000, "reason": "clock misread 加时"},
        issued_ms=NOW - 500,
        game_id="g-A",
    )
    return replace(base, **changes)  # type: ignore[arg-type]


def check(cmd: ArbiterCommand, **kwargs: int) -> None:
    verify(cmd, KEYS, now_ms=kwargs.pop("now_ms", NOW), max_age_ms=60_000, **kwargs)


def refused(cmd: ArbiterCommand, match: str, **kwargs: int) -> AuthError:
    with pytest.raises(AuthError, match=match) as info:
        check(cmd, **kwargs)
    message = str(info.value)
    assert KEY.decode() not in message and KEY.hex() not in message
    assert "c-1" in message and "deputy" in message
    return info.value


def test_a_signed_command_verifies_and_survives_the_bus_encoding() -> None:
    signed = sign(command(), KEY)
    assert signed.auth is not None and signed.auth.startswith("hmac-sha256+game:")
    assert len(signed.auth) == len("hmac-sha256+game:") + 64
    check(signed)
    received = parse_message(TOPIC, encode(signed))
    assert isinstance(received, ArbiterCommand)
    check(received)


def test_arbiter_commands_carry_wall_clock_issued_ms() -> None:
    """The age check compares issued_ms with the receiver's wall clock, so the schema must
    accept milliseconds since 1970 (10**12 ms was September 2001)."""
    now_ms = 1_760_000_000_000  # October 2025
    signed = sign(command(issued_ms=now_ms), KEY)
    assert parse_message(TOPIC, encode(signed)) == signed
    verify(signed, KEYS, now_ms=now_ms, max_age_ms=60_000)


def test_canonical_bytes_are_the_bus_encoding_without_auth() -> None:
    cmd = command()
    assert canonical_bytes(cmd) == encode(cmd)
    assert canonical_bytes(sign(cmd, KEY)) == encode(cmd)
    assert b'"auth":null' in canonical_bytes(cmd) and b'"v":1' in canonical_bytes(cmd)
    assert sign(sign(cmd, OTHER), KEY) == sign(cmd, KEY)  # an old auth is replaced


def test_unknown_referee() -> None:
    with pytest.raises(AuthError, match="'chief': unknown referee"):
        verify(sign(command(referee="chief"), KEY), KEYS, now_ms=NOW, max_age_ms=60_000)
    with pytest.raises(AuthError, match="unknown referee"):
        verify(sign(command(), KEY), {}, now_ms=NOW, max_age_ms=60_000)


def test_unsigned_and_unknown_schemes() -> None:
    refused(command(), "unsigned")
    refused(command(auth="deadbeef"), "no scheme")
    refused(command(auth="hmac-md5:" + "0" * 32), "unknown auth scheme 'hmac-md5'")
    refused(command(auth="hmac-sha256+game:xyz"), "bad signature .not 64")
    digest = sign(command(), KEY).auth
    assert digest is not None
    upper = digest.upper().replace("HMAC-SHA256+GAME", "hmac-sha256+game")
    refused(command(auth=upper), "not 64 lower")


@pytest.mark.parametrize(
    "change",
    [
        {"table": 4},
        {"table": None},
        {"action": "adjust-moves"},
        {"args": {"seat": "white", "delta_ms": -30000, "reason": "clock misread 加时"}},
        {"args": {"seat": "black", "delta_ms": 30000, "reason": "clock misread 加时"}},
        {"issued_ms": NOW - 499},
        {"command_id": "c-2"},
        {"game_id": "g-B"},
        {"game_id": None},
        {"round": 1},
    ],
)
def test_any_altered_field_breaks_the_signature(change: dict[str, object]) -> None:
    signed = sign(command(), KEY)
    altered = replace(signed, **change)  # type: ignore[arg-type]
    if altered.command_id == "c-2":
        with pytest.raises(AuthError, match="bad signature"):
            check(altered)
    else:
        refused(altered, "bad signature .wrong key")


def test_a_command_signed_with_another_key_is_refused() -> None:
    refused(sign(command(), OTHER), "bad signature")


def test_too_old_and_in_the_future() -> None:
    signed = sign(command(issued_ms=NOW - 60_000), KEY)
    check(signed)  # exactly at the limit
    refused(sign(command(issued_ms=NOW - 60_001), KEY), "issued 60001 ms ago")
    check(sign(command(issued_ms=NOW + 30_000), KEY))
    refused(sign(command(issued_ms=NOW + 30_001), KEY), "30001 ms in the future")
    refused(sign(command(issued_ms=NOW + 2), KEY), "in the future", max_future_ms=1)


def test_a_forged_old_command_is_told_as_a_bad_signature_not_as_old() -> None:
    forged = sign(command(issued_ms=0), OTHER)
    refused(forged, "bad signature")


def test_signing_keys_must_be_long_enough_bytes() -> None:
    with pytest.raises(AuthError, match="at least 16 bytes"):
        sign(command(), b"short")
    with pytest.raises(AuthError, match="bytes, not str"):
        sign(command(), "a text key that is long enough")  # type: ignore[arg-type]


@given(
    st.dictionaries(
        st.text(min_size=1, max_size=8),
        st.one_of(st.none(), st.integers(-(10**15), 10**15), st.text(max_size=30)),
        max_size=5,
    )
)
def test_any_args_round_trip_through_the_bus_and_verify(args: dict[str, object]) -> None:
    signed = sign(command(args=args), KEY)
    received = parse_message(TOPIC, encode(signed))
    assert isinstance(received, ArbiterCommand)
    check(received)


def old_signature(cmd: ArbiterCommand, key: bytes) -> ArbiterCommand:
    """``cmd`` as an older wuzi signed it: no game_id or round in the signed bytes, and
    the scheme ``hmac-sha256``."""
    obj = json.loads(encode(replace(cmd, auth=None, game_id=None, round=None)))
    del obj["game_id"], obj["round"]
    text = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    digest = hmac.new(key, text.encode(), hashlib.sha256).hexdigest()
    obj["auth"] = f"hmac-sha256:{digest}"
    received = parse_message(TOPIC, json.dumps(obj).encode())  # an older sender's bytes parse
    assert isinstance(received, ArbiterCommand) and received.game_id is None
    return received


def test_an_old_signature_without_the_game_is_refused_with_its_reason() -> None:
    old = old_signature(command(game_id=None), KEY)
    error = refused(old, "old scheme 'hmac-sha256', which does not bind the command to its game")
    assert "hmac-sha256+game" in str(error)


def game_problem(cmd: ArbiterCommand, table: int, plays: str | None) -> str | None:
    """The table's game check (``wuzi.table.commands``) of a verified command."""
    ticket = Ticket(cmd.command_id, cmd.game_id, cmd.issued_ms, cmd.table is None)
    return table_game_problem(ticket, table, plays)


def test_a_command_for_table_3_game_a_does_not_act_in_game_b_or_on_table_4() -> None:
    signed = sign(command(), KEY)  # table 3, game g-A
    check(signed)
    assert game_problem(signed, 3, "g-A") is None
    assert game_problem(signed, 3, "g-B") == "command c-1 is for game g-A; table 3 plays game g-B"
    assert game_problem(signed, 3, None) == "command c-1 is for game g-A; table 3 has no game"
    # moved to game B or table 4, it no longer verifies (the fields are signed)
    for moved in (replace(signed, game_id="g-B"), replace(signed, table=4)):
        refused(moved, "bad signature")
    # a command for a table with no game yet (the first next-game) fits only such a table
    fresh = sign(command(game_id=None, action="next-game", args={}), KEY)
    assert game_problem(fresh, 3, None) is None
    assert "is for a table with no game; table 3 plays game g-A" in str(
        game_problem(fresh, 3, "g-A")
    )
    # a command for every table names no game and fits every table's
    hall = sign(command(table=None, game_id=None, action="pause", args={"reason": "x"}), KEY)
    assert game_problem(hall, 3, "g-A") is None and game_problem(hall, 4, None) is None


def test_a_command_for_every_table_cannot_name_a_game_on_the_wire() -> None:
    hall = sign(command(table=None, game_id=None), KEY)
    assert parse_message(TOPIC, encode(hall)) == hall
    payload = encode(replace(hall, game_id="g-A"))
    with pytest.raises(MessageError, match=r"game_id.*table null.*cannot name one game"):
        parse_message(TOPIC, payload)


def test_the_round_is_signed_and_travels() -> None:
    signed = sign(command(action="confirm-result", round=2, args={}), KEY)
    received = parse_message(TOPIC, encode(signed))
    assert isinstance(received, ArbiterCommand) and received.round == 2
    check(received)
    refused(replace(signed, round=3), "bad signature")


# --- keys ----------------------------------------------------------------------------------


def mosquitto_passwd() -> str:
    found = shutil.which("mosquitto_passwd") or next(
        (p for p in ("/usr/bin/mosquitto_passwd", "/usr/sbin/mosquitto_passwd") if os.access(p, 1)),
        None,
    )
    if found is None:
        pytest.fail("mosquitto_passwd is missing: run scripts/system-deps.sh", pytrace=False)
    return found


def real_hash(tmp_path: Path, user: str, password: str) -> str:
    """The hash line mosquitto_passwd itself writes for ``user``."""
    path = tmp_path / "passwd"
    subprocess.run(
        [mosquitto_passwd(), "-b", "-c", str(path), user, password],
        check=True,
        capture_output=True,
    )
    name, _, hashed = path.read_text().strip().partition(":")
    assert name == user
    return hashed


def test_keys_from_a_real_mosquitto_passwd_hash(tmp_path: Path) -> None:
    hashed = real_hash(tmp_path, "chief", "correct horse 马")
    assert hashed.startswith("$7$")
    key = hash_key(hashed)
    assert len(key) == 64
    assert key == base64.b64decode(hashed.split("$")[4])
    assert key_from_password("correct horse 马", hashed) == key
    with pytest.raises(AuthError, match="wrong password") as info:
        key_from_password("correct horse", hashed)
    assert key.hex() not in str(info.value)
    cmd = sign(replace(command(), referee="chief"), key_from_password("correct horse 马", hashed))
    verify(cmd, {"chief": key}, now_ms=NOW, max_age_ms=60_000)


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("plain-password", "not in mosquitto_passwd's"),
        ("$6$abc$def", r"\$6\$ is not supported"),
        ("$7$101$c2FsdA==", "found 3 '\\$'-separated parts"),
        ("$7$x$c2FsdA==$" + "A" * 88, "iteration count is not a number"),
        ("$7$0$c2FsdA==$" + "A" * 88, "iteration count must be"),
        ("$7$101$c2F*dA==$" + "A" * 88, "salt is not base64"),
        ("$7$101$c2FsdA==$A-B", "hash is not base64"),
        ("$7$101$c2FsdA==$AAAA", "the hash is 3 bytes"),
    ],
)
def test_malformed_password_hashes(text: str, match: str) -> None:
    with pytest.raises(AuthError, match=match):
        hash_key(text)
    with pytest.raises(AuthError, match=match):
        key_from_password("x", text)


def test_token_files(tmp_path: Path) -> None:
    good = tmp_path / "deputy.token"
    good.write_text("  " + KEY.decode() + "\n")
    assert read_token_file(good) == KEY
    short = tmp_path / "short.token"
    short.write_text("abc\n")
    with pytest.raises(AuthError, match=r"short\.token.*3 bytes; at least 16") as info:
        read_token_file(short)
    assert "abc" not in str(info.value).replace("abc\n", "")
    binary = tmp_path / "binary.token"
    binary.write_bytes(b"\xff" * 20)
    with pytest.raises(AuthError, match=r"binary\.token.*not UTF-8"):
        read_token_file(binary)
    with pytest.raises(AuthError, match=r"missing\.token.*cannot read"):
        read_token_file(tmp_path / "missing.token")
    assert MIN_KEY_BYTES == 16


VENUE = """
[venue]
id = "test-venue"
name = "Test"
[broker]
url = "mqtt://127.0.0.1"
[[hosts]]
id = "pi-1"
  [[hosts.tables]]
  number = 3
  board_port = "sim://board/3"
  clock_port = "sim://clock/3"
[[referees]]
name = "chief"
password_hash = "{hash}"
[[referees]]
name = "deputy"
token_file = "{token}"
"""


def test_referee_keys_reads_every_referee(tmp_path: Path) -> None:
    hashed = real_hash(tmp_path, "chief", "pw-of-the-chief")
    (tmp_path / "secrets").mkdir()
    (tmp_path / "secrets" / "deputy.token").write_bytes(KEY + b"\n")
    venue = parse_venue(VENUE.format(hash=hashed, token="secrets/deputy.token"))
    keys = referee_keys(venue, tmp_path)
    assert keys == {"chief": hash_key(hashed), "deputy": KEY}
    loaded = parse_venue(VENUE.format(hash=hashed, token="secrets/deputy.token"), base_dir=tmp_path)
    assert referee_keys(loaded) == keys


def test_referee_keys_errors_name_the_referee_and_the_file(tmp_path: Path) -> None:
    hashed = real_hash(tmp_path, "chief", "pw-of-the-chief")
    venue = parse_venue(VENUE.format(hash=hashed, token="nowhere.token"), source="v.toml")
    with pytest.raises(AuthError, match=r"v\.toml: referees\[1\] \('deputy'\): token file .*"):
        referee_keys(venue, tmp_path)
    broken = parse_venue(VENUE.format(hash="$7$101$bad", token="x"), source="v.toml")
    with pytest.raises(AuthError, match=r"referees\[0\] \('chief'\): password hash"):
        referee_keys(broken, tmp_path)
