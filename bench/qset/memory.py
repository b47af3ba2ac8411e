"""A memory of the question set's videos, ingested once and cached beside them.

The file name carries the ingest settings' hash and the videos' recipe stamps, so changed settings
or a changed video spec make a new file instead of mixing old rows with new ones.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from pathlib import Path

from bench.qset.build import default_out_dir, stamp
from bench.qset.spec import BY_NAME
from tests.fixtures import make_fixtures as fx

TEXT_ROLES = ("asr", "ocr", "text_embeddings")  # what a brief reads; tracking is ~3x the cost of these together
ALL_ROLES = ("asr", "ocr", "tracking", "text_embeddings")


def memory_path(roles: Sequence[str], out_dir: Path | None = None) -> Path:
    from ingest import IngestSettings

    stamps = "|".join(stamp(v) for v in BY_NAME.values())
    key = hashlib.sha256(f"{IngestSettings().only(*roles).settings_hash()}|{stamps}".encode()).hexdigest()[:12]
    return (out_dir or default_out_dir()) / f"memory-{'-'.join(roles)}-{key}.duckdb"


def ensure_memory(
    videos: Iterable[Path], roles: Sequence[str] = TEXT_ROLES, path: Path | None = None, *, verbose: bool = False
) -> Path:
    """`videos` ingested with `roles` into `path` (default: memory_path), skipping those stored already."""
    from ingest import IngestSettings, Pipeline, ingest_video
    from memory import open_memory

    path = path or memory_path(roles)
    path.parent.mkdir(parents=True, exist_ok=True)
    pipeline = Pipeline(IngestSettings().only(*roles))
    with fx._locked(path.parent), open_memory(path) as mem:  # parallel test workers: one ingests, others wait
        for video in sorted(videos):
            result = ingest_video(video, mem, pipeline)
            if result.status == "failed":
                raise RuntimeError(f"could not ingest {video}: {result.error}")
            if verbose:
                print(f"{result.status} {video.name}", flush=True)
    return path
