"""Ingest errors: what went wrong with which file, and how to fix it."""

from memory.errors import UsageError, VidmemError


class IngestError(VidmemError):
    """A video could not be ingested (the batch goes on; the reason is recorded)."""


class BadVideoError(IngestError):
    """The file is missing, empty, unreadable, truncated or not a video."""


class SettingsError(IngestError, UsageError):
    """Ingest settings or sources are invalid; raised when a run starts, not an hour into it."""


class RoleUnavailable(IngestError):
    """A model role has no weights or endpoint; the role is skipped, the video still lands."""


def first_line(exc: BaseException) -> str:
    """An exception's first line (library errors carry tracebacks and hints below it), else its type."""
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__
