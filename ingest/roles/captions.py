"""Frame captions from a vision model behind any OpenAI-compatible endpoint -> `captions`.

Each sampled frame goes out as a base64 JPEG in one chat-completions request (the shared
`ingest.models.vision_client`, bounded by `timeout_s` and `max_retries`, `concurrency` requests in
flight). The answers are the frame-level captions; consecutive near-identical ones (similarity >=
`merge_similarity`) merge into clip-level captions spanning their times. Similarity is the cosine
of sentence embeddings when the text encoder loads, else the overlap (Jaccard) of word sets, which needs no model.

The role is off until a vision model is named (`captions.model`); the endpoint is
`captions.base_url`, else $OPENAI_BASE_URL, else OpenAI's own API (which needs $OPENAI_API_KEY).
A frame whose request fails is left out and logged; the role fails when every frame did.
Caption ids are unique across both levels within a video, so (`captions`, caption_id) names one
row in `text_embeddings`.
"""

import logging
import os
import re
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ingest.errors import IngestError
from ingest.media.frames import FrameBatch
from ingest.models.encoders import TextEncoder
from ingest.models.vision_client import VisionClient, VisionError, VisionRefused, jpeg_data_url
from ingest.models.vision_client import endpoint as vision_endpoint
from ingest.roles.extractor import Availability, Extractor, VideoContext
from ingest.settings import CaptionSettings
from memory import rows_table

log = logging.getLogger(__name__)


#: A caption request that gave no usable caption (the shared vision client's error).
CaptionError = VisionError


@dataclass(frozen=True)
class ClipCaption:
    start_s: float
    end_s: float
    text: str
    num_frames: int


#: texts -> square matrix of pairwise similarities in 0..1
Similarity = Callable[[Sequence[str]], np.ndarray]


def token_overlap(texts: Sequence[str]) -> np.ndarray:
    """Pairwise Jaccard similarity of the texts' lower-cased word sets.

    >>> token_overlap(["A man walks a dog.", "a man walks a dog", "Two cars"]).round(2)[0].tolist()
    [1.0, 1.0, 0.0]
    """
    sets = [set(re.findall(r"\w+", t.casefold())) for t in texts]
    out = np.eye(len(texts), dtype=np.float32)
    for i in range(len(sets)):
        for j in range(i + 1, len(sets)):
            union = sets[i] | sets[j]
            out[i, j] = out[j, i] = len(sets[i] & sets[j]) / len(union) if union else 1.0
    return out


def embedding_similarity(encoder: TextEncoder) -> Similarity:
    def similarity(texts: Sequence[str]) -> np.ndarray:
        vectors = encoder.encode(texts)
        return np.clip(vectors @ vectors.T, 0.0, 1.0)

    return similarity


def merge_captions(frames: Sequence[tuple[float, str]], similarity: Similarity, threshold: float) -> list[ClipCaption]:
    """Runs of consecutive captions each at least `threshold` similar to the one before.

    A run's text is its most typical caption (highest mean similarity to the others in the run).

    >>> runs = merge_captions([(0.0, "a dog runs"), (5.0, "A dog runs."), (10.0, "a red car")], token_overlap, 0.8)
    >>> [(c.start_s, c.end_s, c.num_frames) for c in runs]
    [(0.0, 5.0, 2), (10.0, 10.0, 1)]
    """
    if not frames:
        return []
    sims = similarity([text for _, text in frames])
    runs: list[list[int]] = [[0]]
    for i in range(1, len(frames)):
        if sims[i - 1, i] >= threshold:
            runs[-1].append(i)
        else:
            runs.append([i])
    out = []
    for run in runs:
        typical = max(run, key=lambda i: (float(sims[i, run].mean()), -i))
        out.append(ClipCaption(frames[run[0]][0], frames[run[-1]][0], frames[typical][1], len(run)))
    return out


def endpoint(cfg: CaptionSettings) -> str | None:
    """The base URL requests go to (None: the openai client's default, OpenAI's API)."""
    return vision_endpoint(cfg.base_url)


class Captioner(Extractor):
    role: ClassVar[str] = "captions"
    tables: ClassVar[tuple[str, ...]] = ("captions",)

    _client: VisionClient | None = None
    _similarity: Similarity | None = None
    _pool: ThreadPoolExecutor | None = None

    def availability(self) -> Availability:
        cfg = self.settings.captions
        if not cfg.model:
            return Availability(
                False,
                "no vision model configured: set captions.model (VIDMEM_CAPTIONS_MODEL) and captions.base_url "
                "or OPENAI_BASE_URL to an OpenAI-compatible endpoint that takes images",
            )
        url = endpoint(cfg)
        if url is None and not os.environ.get("OPENAI_API_KEY"):
            return Availability(
                False, f"captions.model is {cfg.model!r} but no endpoint: set captions.base_url or OPENAI_BASE_URL "
                "(or OPENAI_API_KEY for OpenAI's API)"
            )
        where = url or "OpenAI's API"
        detail = f"vision model {cfg.model!r} at {where} (first contacted on the first frame)"
        return Availability(True, detail, "endpoint")

    def sample_rate(self) -> float | None:
        return self.settings.captions.fps

    def client(self) -> VisionClient:
        if self._client is None:
            cfg = self.settings.captions
            self._client = VisionClient(str(cfg.model), cfg.base_url, cfg.timeout_s, cfg.max_retries)
        return self._client

    def begin(self, ctx: VideoContext) -> None:
        self._close_pool(wait=False)  # left over when the last video failed before end()
        self._pending: list[tuple[int, float, Future[str]]] = []
        self._fatal: BaseException | None = None

    def process(self, batch: FrameBatch) -> None:
        cfg = self.settings.captions
        for frame in batch.frames:
            if self._fatal is not None:
                return
            url = jpeg_data_url(frame.image, cfg.image_size)
            if self._pool is None:
                self._pool = ThreadPoolExecutor(cfg.concurrency, thread_name_prefix="caption")
            self._pending.append((frame.index, frame.t_s, self._pool.submit(self._ask, url)))

    def _close_pool(self, wait: bool) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=wait, cancel_futures=True)
            self._pool = None

    def _ask(self, image_url: str) -> str:
        cfg = self.settings.captions
        try:
            return self.client().ask(cfg.prompt, [image_url], cfg.max_tokens)
        except VisionRefused as exc:
            self._fatal = exc  # every later frame would fail the same way
            raise

    def end(self, ctx: VideoContext) -> None:
        cfg = self.settings.captions
        frames: list[tuple[float, str]] = []
        errors: list[str] = []
        try:
            for _, t_s, future in sorted(self._pending, key=lambda p: p[1]):
                try:
                    frames.append((t_s, future.result()))
                except CaptionError as exc:
                    errors.append(f"t={t_s:.1f}s: {exc}")
        finally:
            self._close_pool(wait=True)
        if errors:
            log.warning("%s: %d of %d caption requests failed; first: %s", ctx.info.path, len(errors),
                        len(self._pending), errors[0])
            if not frames:
                raise CaptionError(f"all {len(errors)} caption requests failed; first: {errors[0]}")
        clips = merge_captions(frames, self._merge_similarity(), cfg.merge_similarity)
        rows = [
            {"caption_id": i, "level": "frame", "start_s": t, "end_s": t, "text": text, "model": cfg.model}
            for i, (t, text) in enumerate(frames)
        ]
        rows += [
            {"caption_id": len(frames) + i, "level": "clip", "start_s": c.start_s, "end_s": c.end_s, "text": c.text,
             "model": cfg.model}
            for i, c in enumerate(clips)
        ]
        ctx.tables["captions"] = rows_table("captions", rows, ctx.info.video_id)

    def _merge_similarity(self) -> Similarity:
        """Sentence-embedding cosine when the text encoder is here (no download), else word overlap."""
        if self._similarity is None:
            cfg = self.settings.text_embeddings
            encoder = TextEncoder(cfg.model, self.settings.device, cfg.batch_size)
            avail = encoder.availability()
            self._similarity = token_overlap
            if avail.ok and avail.source != "download":
                try:
                    encoder.encode(["warm-up"])
                    self._similarity = embedding_similarity(encoder)
                except IngestError as exc:
                    log.warning("captions: merging by word overlap, the text encoder failed to load: %s", exc)
            how = "word overlap" if self._similarity is token_overlap else f"{encoder.model} embeddings"
            log.info("captions: merging consecutive captions by %s", how)
        return self._similarity
