"""Agent errors. Model mistakes (bad format, bad SQL) are observations shown back to the model;
these exceptions are for what the model cannot fix."""

from memory.errors import VidmemError


class AgentError(VidmemError):
    """An agent run could not proceed (no endpoint, budget exhausted, vidmem bug)."""


class LLMError(AgentError):
    """The LLM endpoint failed after retries, or is not configured."""


class GuardError(AgentError):
    """SQL rejected by the guard: not one read-only SELECT over the memory."""
