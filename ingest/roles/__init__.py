"""Model roles: one module per role (tracking, asr, ocr, clip, appearance, actions, captions,
text_embeddings), each an `Extractor` (extractor.py: the one small interface every role implements)
that turns a video's sampled frames or audio into the rows of the memory's tables it names.

`registry.py` lists the roles in data-flow order. Adding a role is one new module here and one line
in `EXTRACTORS`; the runtime (ingest/pipeline.py, ingest/overlap.py) needs no change.
"""
