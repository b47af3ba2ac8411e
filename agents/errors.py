"""Agent errors. Model mistakes (bad format, bad SQL) are observations shown back to the model;
these exceptions are for what the model cannot fix."""

from memory.errors import VidmemError


class AgentError(VidmemError):
    """An agent run could not proceed (no endpoint, budget exhausted, vidmem bug)."""


class LLMError(AgentError):
    """The LLM endpoint failed after retries, or is not configured."""


class GuardError(AgentError):
    """SQL rejected by the guard: not one read-only SELECT over the memory."""


class SQLRunError(AgentError):
    """SQL passed the guard but failed when it ran (DuckDB error, time limit). Like GuardError, its
    message is written for the model to act on: tools show it back as an observation."""


class ModelOutputError(AgentError):
    """A model reply could not be read (no action, no SQL, broken JSON). Tools and planners show the
    message back to the model; it says what was expected."""
