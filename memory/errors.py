"""The root of vidmem's exception tree.

It lives in `memory` because every other package depends on `memory`, never the other way round.
Messages say what was expected, what came, where, and how to fix it.
"""


class VidmemError(Exception):
    """Base class of every error vidmem raises on purpose."""


class StoreError(VidmemError):
    """The memory could not be opened, read or written."""


class SchemaError(StoreError):
    """Rows or a memory do not match the schema this vidmem knows."""


class UsageError(VidmemError):
    """What was asked cannot run as written (a flag, number, settings file, memory URI, list file):
    the command line answers with one line and exit status 2, before any work starts."""


class MemoryURIError(StoreError, UsageError):
    """A memory URI that names no memory vidmem can open (unknown scheme, missing parts)."""
