"""What crosses into the memory: one video's record and its rows, as typed Arrow tables."""

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import pyarrow as pa

from memory.ddl import arrow_schema
from memory.errors import SchemaError
from memory.schema import CONTENT_TABLES, table, videos

_CONTENT_NAMES = tuple(t.name for t in CONTENT_TABLES)


@dataclass(frozen=True)
class VideoRecord:
    """The `videos` row of one file. Times in seconds."""

    video_id: str
    path: str
    status: str  # 'ok' | 'failed'
    content_hash: str | None = None
    size_bytes: int | None = None
    duration_s: float | None = None
    fps: float | None = None
    num_frames: int | None = None
    width: int | None = None
    height: int | None = None
    video_codec: str | None = None
    has_audio: bool | None = None
    audio_codec: str | None = None
    error: str | None = None
    roles: Mapping[str, str] = field(default_factory=dict)
    pipeline_version: str | None = None
    settings_hash: str | None = None
    settings: Mapping[str, Any] = field(default_factory=dict)
    ingested_at: datetime = field(default_factory=lambda: datetime.now(UTC).replace(tzinfo=None))
    ingest_seconds: float | None = None

    def __post_init__(self) -> None:
        if self.status not in ("ok", "failed"):
            raise SchemaError(f"video status must be 'ok' or 'failed', got {self.status!r} for {self.path}")
        if not self.video_id:
            raise SchemaError(f"empty video_id for {self.path}")

    def to_arrow(self) -> pa.Table:
        row = {c.name: getattr(self, c.name) for c in videos.columns}
        row["roles"] = json.dumps(dict(self.roles), sort_keys=True)
        row["settings"] = json.dumps(dict(self.settings), sort_keys=True, default=str)
        return pa.Table.from_pylist([row], schema=arrow_schema(videos))


def rows_table(name: str, rows: Iterable[Mapping[str, Any]], video_id: str) -> pa.Table:
    """Build the Arrow table for schema table `name` from dict rows, stamping `video_id`.

    Missing nullable columns become NULL; unknown keys are an error (a typo would otherwise be lost).
    """
    schema = arrow_schema(table(name))
    known = set(schema.names)
    out = []
    for row in rows:
        extra = set(row) - known
        if extra:
            raise SchemaError(f"table {name}: unknown columns {sorted(extra)}; expected some of {schema.names}")
        out.append({**row, "video_id": video_id})
    try:
        return pa.Table.from_pylist(out, schema=schema)
    except (pa.ArrowInvalid, pa.ArrowTypeError) as exc:
        raise SchemaError(f"table {name}: rows do not fit the schema: {exc}") from exc


@dataclass(frozen=True)
class VideoRows:
    """Everything ingestion produced for one video: written together or not at all."""

    record: VideoRecord
    tables: Mapping[str, pa.Table] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name, tbl in self.tables.items():
            if name not in _CONTENT_NAMES:
                raise SchemaError(f"unknown content table {name!r}; expected one of {list(_CONTENT_NAMES)}")
            expected = arrow_schema(table(name))
            if not tbl.schema.equals(expected, check_metadata=False):
                raise SchemaError(
                    f"table {name}: Arrow schema differs from the memory's.\n"
                    f"expected: {expected}\ngot: {tbl.schema}\nBuild it with memory.rows_table()."
                )
            ids = set(tbl.column("video_id").to_pylist()) if tbl.num_rows else set()
            if ids - {self.record.video_id}:
                raise SchemaError(
                    f"table {name}: rows for other videos {sorted(ids)} in the batch of {self.record.video_id}"
                )
