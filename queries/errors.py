"""Errors the query library raises: one branch of vidmem's tree, rooted at `memory.VidmemError`."""

from memory import VidmemError


class QueryError(VidmemError):
    """A query could not run: bad SQL, an unknown video or track, a bad parameter.

    `sql` is the statement that failed, when there was one, so a caller can show it beside
    DuckDB's message.
    """

    def __init__(self, message: str, *, sql: str | None = None) -> None:
        super().__init__(message)
        self.sql = sql


class UnknownVideoError(QueryError, LookupError):
    """The memory holds no video with the id asked for."""


class UnknownTrackError(QueryError, LookupError):
    """The video has no track with the id asked for."""


class ParameterError(QueryError, ValueError):
    """A parameter is out of range or of the wrong kind (the message says what was expected)."""


class SearchUnavailable(QueryError):
    """A search cannot run: no embeddings of the encoder's model, or no index of the asked kind."""


class QueryBusy(QueryError):
    """The query was stopped, or not started, because others hold what it needs (the sandbox's long
    query slots): it may well run if tried again shortly."""

    retry_after_s = 5
