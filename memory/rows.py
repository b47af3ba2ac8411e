"""What crosses into the memory: one video's record and its rows, as typed Arrow tables."""

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import pyarrow as pa

from memory.ddl import arrow_schema
from memory.errors import SchemaError
from memory.schema import CONTENT_TABLES, role_runs, table, videos

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


ROLE_STATUSES = ("ok", "failed", "skipped")


@dataclass(frozen=True)
class RoleRun:
    """One model role's run on one video, as `role_runs` records it.

    `tables` are the content tables the role owns: on 'ok' they are replaced by the rows the run
    produced, in the same transaction as this record; on 'failed' or 'skipped' they keep what they had.
    """

    role: str
    status: str  # 'ok' | 'failed' | 'skipped'
    reason: str | None = None
    settings_hash: str | None = None
    settings: Mapping[str, Any] = field(default_factory=dict)
    model: str | None = None
    tables: tuple[str, ...] = ()

    def to_arrow(self, video_id: str, rows: Mapping[str, int], at: datetime) -> pa.Table:
        """The `role_runs` row of a successful run that stored `rows` (table -> count) at `at`."""
        row = {
            "video_id": video_id,
            "role": self.role,
            "status": self.status,
            "reason": self.reason,
            "settings_hash": self.settings_hash,
            "settings": json.dumps(dict(self.settings), sort_keys=True, default=str),
            "model": self.model,
            "row_count": sum(rows.values()),
            "rows": json.dumps(dict(rows), sort_keys=True),
            "stored_at": at,
            "attempt_settings_hash": self.settings_hash,
            "attempted_at": at,
        }
        if self.status != "ok":  # nothing stored by this run: the row only says how it went
            row.update(settings_hash=None, settings=None, model=None, row_count=0, rows="{}", stored_at=None)
        return pa.Table.from_pylist([row], schema=arrow_schema(role_runs))

    def __post_init__(self) -> None:
        if self.status not in ROLE_STATUSES:
            raise SchemaError(f"role {self.role}: status must be one of {ROLE_STATUSES}, got {self.status!r}")
        unknown = set(self.tables) - set(_CONTENT_NAMES)
        if unknown:
            raise SchemaError(f"role {self.role}: unknown content tables {sorted(unknown)}")


@dataclass(frozen=True)
class RoleState:
    """What `role_runs` holds for one video and role: enough to decide whether the role runs again."""

    status: str
    reason: str | None
    settings_hash: str | None  # of the stored rows; NULL for rows migrated from schema 1 (see `settings`)
    settings: str | None  # JSON
    attempt_settings_hash: str | None


@dataclass(frozen=True)
class VideoRows:
    """Everything ingestion produced for one video: written together or not at all.

    Without `runs`, every row of the video is replaced. With `runs`, only the tables of the roles
    that ran 'ok' are replaced; the rows of every other role stay as they were.
    """

    record: VideoRecord
    tables: Mapping[str, pa.Table] = field(default_factory=dict)
    runs: tuple[RoleRun, ...] = ()

    def __post_init__(self) -> None:
        if self.runs:
            owned = {t for run in self.runs if run.status == "ok" for t in run.tables}
            stray = set(self.tables) - owned
            if stray:
                raise SchemaError(f"tables {sorted(stray)} of {self.record.video_id} belong to no role that ran ok")
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
