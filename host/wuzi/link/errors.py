"""Errors of the board link: each says what is wrong and with which board."""

from __future__ import annotations


class LinkError(Exception):
    """Base class of board-link errors."""


class DeviceMismatchError(LinkError):
    """The device on a port is not the one expected: another kind, another serial, another
    wire protocol. It carries what answered and what was expected, field by field, so the
    serial driver can refuse the device (and the referees read) one line that names the
    port and both sides, and the host can compare them without parsing the message."""

    def __init__(
        self,
        port: str,
        problem: str,
        *,
        expected_kind: str,
        expected_serial: str | None,
        expected_protocol: str,
        found_kind: str,
        found_serial: str,
        found_protocol: str,
        advice: str = "",
    ) -> None:
        self.port = port
        self.problem = problem
        self.expected_kind = expected_kind
        self.expected_serial = expected_serial
        self.expected_protocol = expected_protocol
        self.found_kind = found_kind
        self.found_serial = found_serial
        self.found_protocol = found_protocol
        self.advice = advice
        wanted = f"a {expected_kind}"
        if expected_serial is not None:
            wanted += f" serial {expected_serial!r}"
        message = (
            f"{port}: {problem} (answered: {found_kind} serial {found_serial!r} wire protocol"
            f" v{found_protocol}; expected: {wanted} wire protocol v{expected_protocol})"
        )
        if advice:
            message += f"; {advice}"
        super().__init__(message)


class VersionMismatchError(DeviceMismatchError):
    """The board speaks another major version of the wire protocol: nothing it says is safe."""


class BoardMismatchError(DeviceMismatchError):
    """The board on this port is not the one expected (serial number or kind)."""


class BoardSpecError(LinkError):
    """A board description (boards/<revision>/board.json) is missing a key or has a bad value."""


class ScriptError(LinkError):
    """A simulator script line is malformed (the message names the line)."""
