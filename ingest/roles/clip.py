"""CLIP image embeddings of sampled frames (open-clip-torch) -> `frame_embeddings`.

Weights: `clip.pretrained` as a checkpoint file (an open_clip state_dict for `clip.model`), else
the tag's file in the Hugging Face cache, else open_clip's download by tag (needs internet; when
the hub cannot be reached the role is skipped with one line). Nothing is packaged, and random
weights are never used. Vectors are L2-normalized and stored under `model` = 'ARCH/TAG' or
'ARCH/CHECKPOINT_FILE_NAME', the same string `ClipTextEncoder.model` gives for text queries.
"""

import logging
from typing import ClassVar

from ingest.media.frames import Frame, FrameBatch
from ingest.models.encoders import ClipModel, clip_availability, load_clip
from ingest.roles.extractor import Availability, Extractor, VideoContext
from memory import rows_table

log = logging.getLogger(__name__)


class FrameEmbedder(Extractor):
    role: ClassVar[str] = "clip"
    tables: ClassVar[tuple[str, ...]] = ("frame_embeddings",)

    _pending: list[Frame]
    _rows: list[dict[str, object]]
    _clip: ClipModel | None = None

    def availability(self) -> Availability:
        return clip_availability(self.settings.clip)

    def sample_rate(self) -> float | None:
        return self.settings.clip.fps

    def _model(self) -> ClipModel:
        if self._clip is None:
            self._clip = load_clip(self.settings.clip, self.settings.device)
        return self._clip

    def begin(self, ctx: VideoContext) -> None:
        self._pending, self._rows = [], []
        self._model()  # load (or fail) before any frame is decoded for it

    def process(self, batch: FrameBatch) -> None:
        # Decode batches hold few frames of this role; embed in full batches of its own size.
        self._pending.extend(batch.frames)
        size = self.settings.clip.batch_size
        while len(self._pending) >= size:
            self._embed(self._pending[:size])
            del self._pending[:size]

    def end(self, ctx: VideoContext) -> None:
        if self._pending:
            self._embed(self._pending)
            self._pending = []
        ctx.tables["frame_embeddings"] = rows_table("frame_embeddings", self._rows, ctx.info.video_id)

    def _embed(self, frames: list[Frame]) -> None:
        model = self._model()
        vectors = model.encode_images([f.image for f in frames], batch_size=len(frames))
        for frame, vec in zip(frames, vectors, strict=True):
            self._rows.append(
                {"frame_index": frame.index, "t_s": frame.t_s, "model": model.label, "embedding": vec.tolist()}
            )
