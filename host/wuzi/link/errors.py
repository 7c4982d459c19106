"""Errors of the board link: each says what is wrong and with which board."""

from __future__ import annotations


class LinkError(Exception):
    """Base class of board-link errors."""


class VersionMismatchError(LinkError):
    """The board speaks another major version of the wire protocol: nothing it says is safe."""


class BoardMismatchError(LinkError):
    """The board on this port is not the one expected (serial number or kind)."""


class BoardSpecError(LinkError):
    """A board description (boards/<revision>/board.json) is missing a key or has a bad value."""


class ScriptError(LinkError):
    """A simulator script line is malformed (the message names the line)."""
