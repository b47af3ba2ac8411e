"""Sentence embeddings of what was said, shown and seen -> `text_embeddings`.

Reads the `transcript`, `ocr_spans`, `captions` and `summaries` rows that earlier roles produced for
the same video (so it comes after asr, ocr, captions and summaries in the registry) and embeds each text with the
`TextEncoder` (all-MiniLM-L6-v2 from its package by default). Captions: only clip-level ones,
which are the deduplicated frame captions (every frame caption lies inside one of them).
Queries embed a question with a `TextEncoder` of the same `model` and rank by cosine.
"""

import logging
from typing import Any, ClassVar

import pyarrow as pa

from ingest.models.encoders import TextEncoder
from ingest.roles.extractor import Availability, Extractor, VideoContext
from memory import rows_table

log = logging.getLogger(__name__)

#: source table -> its id column
SOURCES: dict[str, str] = {
    "transcript": "segment_id", "ocr_spans": "span_id", "captions": "caption_id", "summaries": "summary_id"
}


def summary_texts(tbl: pa.Table) -> list[str]:
    """A summaries row as one searchable text, the same as the `text_items` view shows it."""
    return [f"{t}: {x}" for t, x in zip(tbl.column("title").to_pylist(), tbl.column("text").to_pylist(), strict=True)]


def texts_to_embed(tables: dict[str, pa.Table]) -> list[tuple[str, int, str]]:
    """(source, item_id, text) for every non-empty text in the video's tables."""
    items = []
    for source, id_col in SOURCES.items():
        tbl = tables.get(source)
        if tbl is None or tbl.num_rows == 0:
            continue
        levels = tbl.column("level").to_pylist() if source == "captions" else [None] * tbl.num_rows
        ids, texts = tbl.column(id_col).to_pylist(), tbl.column("text").to_pylist()
        if source == "summaries":  # searched as one text: the title, then its sentences
            texts = summary_texts(tbl)
        for item_id, text, level in zip(ids, texts, levels, strict=True):
            if level not in (None, "clip") or not text or not text.strip():
                continue
            items.append((source, int(item_id), text.strip()))
    return items


class TextEmbedder(Extractor):
    role: ClassVar[str] = "text_embeddings"
    tables: ClassVar[tuple[str, ...]] = ("text_embeddings",)
    after: ClassVar[tuple[str, ...]] = ("asr", "ocr", "captions", "summaries")

    _encoder: TextEncoder | None = None

    def encoder(self) -> TextEncoder:
        if self._encoder is None:
            cfg = self.settings.text_embeddings
            self._encoder = TextEncoder(cfg.model, self.settings.device, cfg.batch_size)
        return self._encoder

    def availability(self) -> Availability:
        return self.encoder().availability()

    def warm(self) -> None:
        # ~1.5-7 s on 2 cores: loaded while ASR and OCR work, not after them (speech_sign: 0.12 s of
        # this role per video second, nearly all the load, at the tail of the video)
        self.encoder().load()

    def end(self, ctx: VideoContext) -> None:
        items = texts_to_embed(ctx.tables)
        rows: list[dict[str, Any]] = []
        if items:
            encoder = self.encoder()
            vectors = encoder.encode([text for _, _, text in items])
            for (source, item_id, _), vec in zip(items, vectors, strict=True):
                rows.append({"source": source, "item_id": item_id, "model": encoder.model, "embedding": vec.tolist()})
        log.info("%s: %d text embeddings", ctx.info.path, len(rows))
        ctx.tables["text_embeddings"] = rows_table("text_embeddings", rows, ctx.info.video_id)
