"""Whether a model (and so the role or query-time encoder that runs it) can run here: a value both
the roles (`Extractor.availability()`) and the query-time encoders (`ingest.models.encoders`) report."""

from dataclasses import dataclass

__all__ = ["Availability"]


@dataclass(frozen=True)
class Availability:
    """Whether a role can run here, what it will use, and why not when it cannot."""

    ok: bool
    detail: str  # e.g. "packaged weights: /path/model.bin" or "no weights: pass --clip-pretrained PATH"
    source: str = ""  # 'settings' | 'package' | 'cache' | 'download' | 'endpoint' | ''
