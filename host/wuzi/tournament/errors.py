"""Exceptions of the competition logic.

Every message names what is wrong — the entrant, the round and board, the CSV line and
column, the setting — so an organiser can fix the input; nothing is changed by a call that
raises.
"""

from __future__ import annotations


class TournamentError(ValueError):
    """Base class of every error raised by ``wuzi.tournament``."""


class EntryError(TournamentError):
    """An entrant or team that breaks the entry rules (group eligibility, board order…)."""


class ResultError(TournamentError):
    """A result that cannot be parsed or does not fit the game or match it is entered for."""


class PairingError(TournamentError):
    """A round that cannot be paired (or a manual pairing that does not fit the round)."""


class SettingsError(TournamentError):
    """An event setting (format, rounds, scoring, tie-breaks…) that is not valid."""


class CsvError(TournamentError):
    """A malformed CSV input; the message names the line and the column."""


class CsvFileError(CsvError):
    """A CSV file that cannot be read at all (not a regular file, too large, unreadable);
    the message names the file already."""


class StoreError(TournamentError):
    """A tournament database that is missing, of another schema version, or inconsistent."""
