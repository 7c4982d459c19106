"""The arbiter view's commands: the prompt, hot keys, confirmation, signing, the keyboard."""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path

import pytest

from support.screens import REFEREE, TOKEN, write_venue
from wuzi.bus import topics
from wuzi.bus.auth import AuthError, verify
from wuzi.bus.schemas import encode, parse_message
from wuzi.config.credentials import referee_keys
from wuzi.config.venue import load_venue, parse_venue
from wuzi.display.arbiter_commands import (
    HOTKEYS,
    CommandDesk,
    CommandIntent,
    PromptError,
    describe,
    handle_key,
    handle_text,
    hotkey_intent,
    load_signer,
    parse_prompt,
)
from wuzi.display.arbiter_model import ArbiterModel
from wuzi.display.arbiter_sample import FORBIDDEN_ALERT, sample_arbiter_messages
from wuzi.host.commands import check_args

NOW = 10_000_000


def test_a_typed_command_becomes_checked_arguments_for_the_focused_table() -> None:
    intent = parse_prompt("adjust-time seat=black delta_ms=-30000 reason=clock fault", 3)
    assert intent == CommandIntent(
        "adjust-time", 3, {"seat": "black", "delta_ms": -30000, "reason": "clock fault"}
    )
    quoted = parse_prompt('pause reason="fire alarm"', 3)
    assert quoted.args == {"reason": "fire alarm"}
    assert parse_prompt("all pause reason=fire", None) == CommandIntent(
        "pause", None, {"reason": "fire"}
    )
    assert parse_prompt("set-result winner=null reason=agreement", 7).args["winner"] is None
    assert parse_prompt("correct-stone old=h8 new=h9 reason=misread", 2).args["new"] == "h9"


@pytest.mark.parametrize(
    ("text", "table", "message"),
    [
        ("", 3, "type an action"),
        ("pause", None, "no table is focused"),
        ("fly seat=black", 3, "unknown action"),
        ("pause", 3, "reason: missing"),
        ("adjust-time seat=green delta_ms=1", 3, "seat: must be one of"),
        ("adjust-time seat=black delta_ms=soon", 3, "delta_ms: must be an integer"),
        ("pause reason=x reason=y", 3, "given twice"),
        ('pause reason="open', 3, "cannot read the command"),
        ("pause =x", 3, "is not an argument name"),
        ("confirm-result", 3, "unknown action"),  # the director's, not a table host's
    ],
)
def test_a_bad_typed_command_says_what_is_wrong(text: str, table: int | None, message: str) -> None:
    with pytest.raises(PromptError, match=message):
        parse_prompt(text, table)


def test_every_hot_key_proposes_a_command_the_host_accepts() -> None:
    for name in HOTKEYS:
        intent = hotkey_intent(name, 4)
        check_args(intent.action, intent.args)
        assert intent.table == 4
    with pytest.raises(PromptError, match="no table"):
        hotkey_intent("pause", None)
    with pytest.raises(PromptError, match="no hot key"):
        hotkey_intent("explode", 1)


def test_describe_names_the_table_and_every_argument() -> None:
    intent = CommandIntent("adjust-time", 3, {"seat": "white", "delta_ms": 30000, "reason": "a b"})
    assert describe(intent) == "第 3 桌 table 3: adjust-time delta_ms=30000 reason='a b' seat=white"
    assert describe(CommandIntent("next-game", None, {})).startswith("所有桌 all tables")


def test_the_desk_types_checks_confirms_and_returns_the_command() -> None:
    desk = CommandDesk()
    desk.open()
    desk.type("pause reason=dispute!")
    desk.backspace()
    assert desk.line() == ": pause reason=dispute"
    assert desk.enter(3) is None  # checked, now waiting for the confirmation
    assert desk.pending == CommandIntent("pause", 3, {"reason": "dispute"})
    assert "Enter" in (desk.line() or "")
    intent = desk.enter(3)
    assert intent == CommandIntent("pause", 3, {"reason": "dispute"}) and not desk.busy


def test_the_desk_keeps_a_wrong_command_open_and_escape_drops_anything() -> None:
    desk = CommandDesk()
    desk.open("adjust-time seat=black")
    assert desk.enter(3) is None and desk.prompt is not None
    assert "delta_ms: missing" in desk.status
    desk.cancel()
    assert not desk.busy and desk.line() is None
    desk.hotkey("pause", 3)
    assert desk.pending is not None
    desk.cancel()
    assert desk.pending is None and "cancelled" in desk.status
    desk.hotkey("pause", None)
    assert "no table" in desk.status and not desk.busy


def test_a_read_only_desk_refuses_everything() -> None:
    desk = CommandDesk(enabled=False, disabled_reason="no key")
    desk.open()
    desk.hotkey("pause", 3)
    desk.propose(CommandIntent("pause", 3, {"reason": "x"}))
    assert not desk.busy and "read-only" in desk.status and "no key" in desk.status
    assert desk.enter(3) is None


def test_help_is_a_status_line() -> None:
    desk = CommandDesk()
    desk.open("?")
    assert desk.enter(1) is None and "set-result winner=" in desk.status and not desk.busy


def sample_model() -> ArbiterModel:
    model = ArbiterModel(focus=3)
    for topic, message, age in sample_arbiter_messages():
        model.apply(topic, message, NOW - age)
    return model


def test_keys_select_acknowledge_focus_and_propose() -> None:
    model, desk = sample_model(), CommandDesk()
    handle_key(model, desk, "down", NOW)
    first = model.selected_alert(NOW)
    assert first is not None and first.table == 5 and model.focus == 5
    handle_text(model, desk, " ", NOW)
    assert first.key in model.acknowledged
    handle_text(model, desk, "]", NOW)
    assert model.focus == 6
    handle_text(model, desk, "B", NOW)
    assert desk.pending == CommandIntent("adjust-time", 6, {"seat": "black", "delta_ms": 30_000})
    handle_text(model, desk, "p", NOW)  # ignored while a command waits
    assert desk.pending is not None and desk.pending.action == "adjust-time"
    handle_key(model, desk, "up", NOW)  # no selection change while busy
    assert model.focus == 6
    intent = handle_key(model, desk, "enter", NOW)
    assert intent is not None and intent.action == "adjust-time"


def test_a_command_is_signed_for_the_game_the_view_shows_on_its_table() -> None:
    model = sample_model()
    for number, table in model.tables.items():
        if table.referee is not None:
            assert model.game_of(number) == table.referee.game_id
        elif table.state is not None:
            assert model.game_of(number) == table.state.game_id
    assert any(model.game_of(n) for n in model.tables)  # the sample shows games
    assert model.game_of(None) is None  # every table: no game
    assert model.game_of(9999) is None  # a table the view knows nothing of


def test_colon_opens_the_prompt_and_the_rest_is_typed() -> None:
    model, desk = sample_model(), CommandDesk()
    handle_text(model, desk, ":", NOW)
    assert desk.prompt == ""
    handle_text(model, desk, "take-back reason=illegal p", NOW)  # 'p' is text here
    handle_key(model, desk, "backspace", NOW)
    handle_key(model, desk, "backspace", NOW)
    assert handle_key(model, desk, "enter", NOW) is None
    assert desk.pending == CommandIntent("take-back", 3, {"reason": "illegal"})
    handle_key(model, desk, "escape", NOW)
    assert not desk.busy


def test_signed_commands_verify_with_the_venues_keys(tmp_path: Path) -> None:
    venue = load_venue(write_venue(tmp_path, "hall-1"))
    (tmp_path / "mine.token").write_text(TOKEN + "\n")
    signer, secret = load_signer(venue, REFEREE, str(tmp_path / "mine.token"), None)
    assert secret == TOKEN
    intent = parse_prompt("adjust-time seat=white delta_ms=-5000", 2)
    cmd = signer.command(intent, issued_ms=NOW, command_id="cmd-1", game_id="g-2")
    assert cmd.referee == REFEREE and cmd.table == 2 and cmd.auth is not None
    assert cmd.game_id == "g-2"  # signed for the game the view shows there
    verify(cmd, referee_keys(venue), now_ms=NOW + 1000, max_age_ms=120_000)
    topic = topics.arbiter_commands("hall-1")
    assert parse_message(topic, encode(cmd)) == cmd
    everyone = signer.command(CommandIntent("pause", None, {"reason": "fire"}), issued_ms=NOW)
    assert everyone.table is None and everyone.command_id != cmd.command_id
    with pytest.raises(PromptError, match="no table 9"):
        signer.command(CommandIntent("pause", 9, {"reason": "x"}), issued_ms=NOW)
    wrong = signer.command(intent, issued_ms=NOW)
    with pytest.raises(AuthError, match="bad signature"):
        verify(
            type(wrong)(**{**wrong.__dict__, "args": {"seat": "black", "delta_ms": -5000}}),
            referee_keys(venue),
            now_ms=NOW,
            max_age_ms=120_000,
        )


def _password_hash(password: str) -> str:
    salt = b"0123456789abcdef"
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, 101, dklen=64)
    return f"$7$101${base64.b64encode(salt).decode()}${base64.b64encode(digest).decode()}"


def test_a_password_referee_signs_after_the_password_is_checked(tmp_path: Path) -> None:
    text = (
        '[venue]\nid = "hall-2"\nname = "x"\n[broker]\nurl = "mqtt://127.0.0.1:1"\n'
        '[[hosts]]\nid = "pi"\n  [[hosts.tables]]\n  number = 1\n'
        '  board_port = "/dev/x"\n  clock_port = "/dev/y"\n'
        f'[[referees]]\nname = "deputy"\npassword_hash = "{_password_hash("s3cret pass")}"\n'
    )
    venue = parse_venue(text, "venue.toml")
    (tmp_path / "pw").write_text("s3cret pass\n")
    signer, secret = load_signer(venue, "deputy", None, str(tmp_path / "pw"))
    assert secret == "s3cret pass"
    cmd = signer.command(CommandIntent("resume", 1, {}), issued_ms=NOW)
    verify(cmd, referee_keys(venue), now_ms=NOW, max_age_ms=1000)
    (tmp_path / "bad").write_text("wrong\n")
    with pytest.raises(PromptError, match="wrong password"):
        load_signer(venue, "deputy", None, str(tmp_path / "bad"))
    with pytest.raises(PromptError, match="use --password-file"):
        load_signer(venue, "deputy", str(tmp_path / "pw"), None)


def test_load_signer_errors_name_the_problem(tmp_path: Path) -> None:
    venue = load_venue(write_venue(tmp_path, "hall-3"))
    with pytest.raises(PromptError, match="no referee 'nobody'"):
        load_signer(venue, "nobody", str(tmp_path / "chief.token"), None)
    with pytest.raises(PromptError, match="exactly one"):
        load_signer(venue, REFEREE, None, None)
    with pytest.raises(PromptError, match="cannot read"):
        load_signer(venue, REFEREE, str(tmp_path / "missing.token"), None)


def test_selecting_the_forbidden_alert_focuses_its_table() -> None:
    model = sample_model()
    model.focus = 1
    for line in model.alerts(NOW):
        if line.key == FORBIDDEN_ALERT.event_id:
            model.select(line)
    assert model.focus == 3 and model.frame(NOW).selected == 2
