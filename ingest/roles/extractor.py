"""The one small interface every model role implements.

An extractor is built once per run from the settings and reused across videos (its model loads
lazily, once). For each video the pipeline calls `begin`, then, in the role's own thread, `warm`
(load what `end` will need while other roles work), `process` with only the frames sampled for the
extractor's role (never, for audio-only roles), `prepare` (the work that reads no other role's rows),
then `end`, which puts the rows it produced into the video's context. Roles that build on others
(appearance on tracks, text embeddings on transcript/OCR/captions) name them in `after` and read their
output from the context; a role that can use another's rows but does without them (speech recognition
takes the on-screen words as hints) names it in `uses_if_run`.

Each role runs in its own thread (see ingest/overlap.py), so `process` and `end` of different roles
overlap; one role's calls never overlap each other, and `end` starts only after the `after` and
`uses_if_run` roles' (those that run on this video).
"""

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pyarrow as pa

from ingest.media.frames import FrameBatch
from ingest.media.probe import VideoInfo
from ingest.models.availability import Availability
from ingest.settings import IngestSettings


@dataclass
class VideoContext:
    """Everything produced for one video so far: tables by name, plus in-memory artifacts
    (e.g. best crops per track) that later roles use but the memory does not store."""

    info: VideoInfo
    audio: Any = None  # float32 mono 16 kHz samples, loaded once when a role needs them
    tables: dict[str, pa.Table] = field(default_factory=dict)
    artifacts: dict[str, Any] = field(default_factory=dict)


class Extractor(ABC):
    role: ClassVar[str]
    #: Tables this role writes (for `vidmem models` and for clearing a role's rows).
    tables: ClassVar[tuple[str, ...]]
    #: Roles whose output `end` reads: it runs once theirs have finished (or failed, or were skipped).
    after: ClassVar[tuple[str, ...]] = ()
    #: Roles whose output `end` uses when they run on the same video, waiting for them as for `after`, and does
    #: without when they do not: they are not brought along, and their re-running does not re-run this role.
    uses_if_run: ClassVar[tuple[str, ...]] = ()

    def __init__(self, settings: IngestSettings) -> None:
        self.settings = settings

    @abstractmethod
    def availability(self) -> Availability:
        """Cheap check (no model load): can this role run here, and with what."""

    def sample_rate(self) -> float | None:
        """Frames per second this role wants decoded; None for roles that take no frames."""
        return None

    def needs_audio(self) -> bool:
        return False

    def begin(self, ctx: VideoContext) -> None:  # noqa: B027 - optional hook
        """Reset per-video state."""

    def warm(self) -> None:  # noqa: B027 - optional hook
        """Load the model now, in this role's thread, before it waits for frames or for the roles it
        reads: a role that only works in `end` would otherwise load at the tail of the first video."""

    def process(self, batch: FrameBatch) -> None:  # noqa: B027 - optional hook
        """Consume a batch of this role's sampled frames."""

    def prepare(self, ctx: VideoContext) -> None:  # noqa: B027 - optional hook
        """The video's work that reads no other role's rows, once this role's frames are done and before it waits
        for the roles it reads: speech recognition transcribes here while OCR still reads frames."""

    @abstractmethod
    def end(self, ctx: VideoContext) -> None:
        """Finish the video: put this role's tables (and artifacts) into `ctx`."""
