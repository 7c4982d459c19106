"""The arbiter view's referee commands: typed or hot-keyed, checked, confirmed, signed.

The view sends the same signed `ArbiterCommand`s as ``wuzi referee send`` and builds them
with the same code: `Signer` wraps `wuzi.host.referee_cli.build_command` (arguments
checked as the host checks them with `wuzi.host.commands.check_args`, the table checked
against the venue file, signed with `wuzi.bus.auth.sign`, parsed back as a host parses
it) and `load_signer` finds the referee and the key as that command does (a token file,
or a password checked against the venue file's hash). Nothing is signed twice or
differently here.

`CommandDesk` is the pure keyboard side: ``:`` opens a prompt where the referee types
``ACTION KEY=VALUE …`` (values as in ``wuzi referee send``: integers, ``null``, else text;
quotes allowed, and a word without ``=`` continues the previous value, so
``reason=clock fault`` works), or a hot key proposes a common command (pause, resume,
±30 s, set a result). Every command is shown for confirmation first: Enter sends it,
Escape drops it. The desk returns a `CommandIntent`; the app signs it *when* it is sent
(``issued_ms`` is then the wall clock, as the host's age check wants) and publishes it on
``arbiter/commands`` through its feed. A command for the focused table by default;
``all ACTION …`` addresses every table (``table: null``). A command for one table is
signed for the game the view shows there (`ArbiterModel.game_of`, from the host's
referee state), so a host refuses it once that table plays another game. Pure: no I/O, no clock —
except `load_signer`, which reads the key files.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import Any

from wuzi.bus.schemas import ArbiterCommand
from wuzi.config.venue import VenueConfig
from wuzi.display.arbiter_model import ArbiterModel
from wuzi.host.commands import RESULT_REASONS, CommandError, check_args
from wuzi.host.referee_signing import (
    SendError,
    build_command,
    find_referee,
    key_and_secret,
    parse_values,
)

__all__ = [
    "ADJUST_STEP_MS",
    "HOTKEYS",
    "CommandDesk",
    "CommandIntent",
    "PromptError",
    "Signer",
    "describe",
    "handle_key",
    "handle_text",
    "hotkey_intent",
    "load_signer",
    "parse_prompt",
]

ADJUST_STEP_MS = 30_000
HOTKEYS: dict[str, tuple[str, dict[str, Any]]] = {
    "pause": ("pause", {"reason": "referee"}),
    "resume": ("resume", {}),
    "black+30": ("adjust-time", {"seat": "black", "delta_ms": ADJUST_STEP_MS}),
    "black-30": ("adjust-time", {"seat": "black", "delta_ms": -ADJUST_STEP_MS}),
    "white+30": ("adjust-time", {"seat": "white", "delta_ms": ADJUST_STEP_MS}),
    "white-30": ("adjust-time", {"seat": "white", "delta_ms": -ADJUST_STEP_MS}),
    "black-wins": ("set-result", {"winner": "black", "reason": "other"}),
    "white-wins": ("set-result", {"winner": "white", "reason": "other"}),
    "draw": ("set-result", {"winner": None, "reason": "agreement"}),
    "next-game": ("next-game", {}),
}
"""What each hot key proposes (the app maps keys to these names; every one is confirmed)."""


class PromptError(ValueError):
    """A typed command that cannot be sent; the message says what is wrong."""


@dataclass(frozen=True)
class CommandIntent:
    """A checked command waiting to be signed and sent: ``table`` None is every table."""

    action: str
    table: int | None
    args: dict[str, Any]


def _words(text: str) -> list[str]:
    try:
        words = shlex.split(text)
    except ValueError as exc:  # an unclosed quote
        raise PromptError(f"cannot read the command: {exc}") from None
    joined: list[str] = []
    for word in words:
        if "=" not in word and joined and "=" in joined[-1]:
            joined[-1] += " " + word  # reason=clock fault
        else:
            joined.append(word)
    return joined


def parse_prompt(text: str, table: int | None) -> CommandIntent:
    """``[all] ACTION KEY=VALUE …`` for ``table`` (the focused one), checked as the host
    checks arguments; `PromptError` says what is wrong."""
    words = _words(text)
    if words and words[0].lower() == "all":
        words, table = words[1:], None
    elif table is None:
        raise PromptError("no table is focused: focus one, or start with 'all'")
    if not words:
        raise PromptError("type an action, e.g. pause reason=dispute (? lists them)")
    action = words[0].lower()
    try:
        args = parse_values(words[1:])
    except SendError as exc:
        raise PromptError(str(exc)) from None
    try:
        check_args(action, args)
    except CommandError as exc:
        raise PromptError(str(exc)) from None
    return CommandIntent(action, table, args)


def hotkey_intent(name: str, table: int | None) -> CommandIntent:
    """The command a hot key proposes for the focused ``table``."""
    if name not in HOTKEYS:
        raise PromptError(f"no hot key {name!r}")
    if table is None:
        raise PromptError("no table is focused")
    action, args = HOTKEYS[name]
    check_args(action, args)
    return CommandIntent(action, table, dict(args))


def _value(value: Any) -> str:
    if value is None:
        return "null"
    text = str(value)
    return shlex.quote(text) if (" " in text or not text) else text


def describe(intent: CommandIntent) -> str:
    """``table 3: adjust-time seat=black delta_ms=30000`` — what the referee confirms."""
    where = (
        "所有桌 all tables"
        if intent.table is None
        else f"第 {intent.table} 桌 table {intent.table}"
    )
    words = [intent.action, *(f"{k}={_value(v)}" for k, v in sorted(intent.args.items()))]
    return f"{where}: {' '.join(words)}"


HELP = (
    "keys: ↑↓ select · space ack · [ ] table · : command · P pause · R resume · "
    "B/b black ±30s · W/w white ±30s · 1 black wins · 2 white wins · = draw · N next game"
)
RESULT_HELP = "set-result winner=black|white|null reason=" + "|".join(RESULT_REASONS)


class CommandDesk:
    """The prompt and the confirmation step (see the module doc).

    States: idle (``prompt`` None, ``pending`` None), typing (``prompt`` a string), or
    confirming (``pending`` a `CommandIntent`). ``status`` is the line shown under them.
    """

    def __init__(self, enabled: bool = True, disabled_reason: str = "") -> None:
        self.enabled = enabled
        self.disabled_reason = disabled_reason or "commands are off"
        self.prompt: str | None = None
        self.pending: CommandIntent | None = None
        self.status = HELP if enabled else f"只读 read-only: {self.disabled_reason}"

    @property
    def busy(self) -> bool:
        """True while the desk takes the keyboard (typing or confirming)."""
        return self.prompt is not None or self.pending is not None

    def line(self) -> str | None:
        """What the prompt line shows, or None when nothing is being entered."""
        if self.pending is not None:
            return f"发送? send? {describe(self.pending)}   [Enter 发送 send · Esc 取消 cancel]"
        if self.prompt is not None:
            return f": {self.prompt}"
        return None

    def _refuse_if_disabled(self) -> bool:
        if not self.enabled:
            self.status = f"只读 read-only: {self.disabled_reason}"
            return True
        return False

    def open(self, text: str = "") -> None:
        if self._refuse_if_disabled():
            return
        self.pending = None
        self.prompt = text

    def type(self, text: str) -> None:
        if self.prompt is not None:
            self.prompt += text.replace("\n", " ").replace("\r", "")

    def backspace(self) -> None:
        if self.prompt:
            self.prompt = self.prompt[:-1]

    def cancel(self) -> None:
        if self.busy:
            self.prompt, self.pending = None, None
            self.status = "已取消 cancelled"

    def propose(self, intent: CommandIntent) -> None:
        if self._refuse_if_disabled():
            return
        self.prompt, self.pending = None, intent

    def hotkey(self, name: str, table: int | None) -> None:
        if self._refuse_if_disabled():
            return
        try:
            self.propose(hotkey_intent(name, table))
        except (PromptError, CommandError) as exc:
            self.status = f"错误 error: {exc}"

    def enter(self, table: int | None) -> CommandIntent | None:
        """Enter: check the typed command (then it waits for confirmation), or confirm the
        waiting one — which is returned, to be signed and sent now."""
        if self.pending is not None:
            intent, self.pending = self.pending, None
            self.status = f"发送中 sending: {describe(intent)}"
            return intent
        if self.prompt is None:
            return None
        text = self.prompt.strip()
        if text in ("?", "help"):
            self.status = f"{HELP} · {RESULT_HELP}"
            self.prompt = None
            return None
        try:
            intent = parse_prompt(text, table)
        except PromptError as exc:
            self.status = f"错误 error: {exc}"
            return None  # the prompt stays open for a fix
        self.propose(intent)
        return None

    def sent(self, command: ArbiterCommand) -> None:
        self.status = f"已发送 sent {command.action} ({command.command_id[:8]})"

    def failed(self, reason: str) -> None:
        self.status = f"未发送 not sent: {reason}"


@dataclass(frozen=True)
class Signer:
    """A referee's signing key for one venue; `command` builds and signs, as
    ``wuzi referee send`` does (the same function)."""

    venue: VenueConfig
    referee: str
    key: bytes

    def command(
        self,
        intent: CommandIntent,
        *,
        issued_ms: int,
        command_id: str | None = None,
        game_id: str | None = None,
    ) -> ArbiterCommand:
        """The signed command of ``intent``, for game ``game_id`` of its table (the
        game the view shows there: `ArbiterModel.game_of`; None for every table)."""
        try:
            return build_command(
                self.venue,
                self.referee,
                self.key,
                intent.action,
                intent.table,
                intent.args,
                issued_ms=issued_ms,
                command_id=command_id,
                game_id=game_id,
            )
        except SendError as exc:
            raise PromptError(str(exc)) from None


def load_signer(
    venue: VenueConfig, referee: str, token_file: str | None, password_file: str | None
) -> tuple[Signer, str]:
    """The referee's `Signer` and broker password (the token, or the password), found as
    ``wuzi referee send`` finds them; `PromptError` says what is wrong (never the key)."""
    if (token_file is None) == (password_file is None):
        raise PromptError("give exactly one of --token-file and --password-file")
    try:
        found = find_referee(venue, referee)
        key, secret = key_and_secret(found, token_file, password_file)
    except SendError as exc:
        raise PromptError(str(exc)) from None
    return Signer(venue, found.name, key), secret


# --- the keyboard -------------------------------------------------------------------------

TEXT_KEYS: dict[str, str] = {
    ":": "prompt",
    " ": "ack",
    "[": "prev-table",
    "]": "next-table",
    "?": "help",
    "p": "pause",
    "P": "pause",
    "r": "resume",
    "R": "resume",
    "B": "black+30",
    "b": "black-30",
    "W": "white+30",
    "w": "white-30",
    "1": "black-wins",
    "2": "white-wins",
    "=": "draw",
    "n": "next-game",
    "N": "next-game",
}
"""Typed characters and what they do while no command is being entered."""


def handle_text(model: ArbiterModel, desk: CommandDesk, text: str, now_ms: int) -> None:
    """Typed text: into the prompt while it is open, else hot keys (`TEXT_KEYS`)."""
    if desk.prompt is not None:
        desk.type(text)
        return
    if desk.pending is not None:
        return  # a command waits for Enter or Escape
    for char in text:
        what = TEXT_KEYS.get(char)
        if what is None:
            continue
        if what == "prompt":
            desk.open()
        elif what == "ack":
            model.acknowledge_selected(now_ms)
        elif what in ("prev-table", "next-table"):
            model.cycle_focus(-1 if what == "prev-table" else 1)
        elif what == "help":
            desk.status = f"{HELP} · {RESULT_HELP}"
        else:
            desk.hotkey(what, model.focus)
        if desk.busy:
            return  # the rest of the text belongs to the prompt or waits


def handle_key(
    model: ArbiterModel, desk: CommandDesk, name: str, now_ms: int
) -> CommandIntent | None:
    """A named key (``up``, ``down``, ``pageup``, ``pagedown``, ``enter``, ``escape``,
    ``backspace``); returns a confirmed command to sign and send, or None."""
    if name == "enter":
        return desk.enter(model.focus)
    if name == "escape":
        desk.cancel()
    elif name == "backspace":
        desk.backspace()
    elif not desk.busy and name in ("up", "down", "pageup", "pagedown"):
        step = {"up": -1, "down": 1, "pageup": -5, "pagedown": 5}[name]
        model.move_selection(step, now_ms)
    return None
