"""Schema migrations: MIGRATIONS[n] upgrades a memory from version n to n + 1, inside the
transaction that `open_memory` runs them in. A migration is history: it names the tables and
roles as they were at its version, not as the schema is today.
"""

import json
from collections.abc import Callable
from typing import Any

import duckdb
import pyarrow as pa

from memory.ddl import arrow_schema, create_table_sql
from memory.schema import role_runs, summaries

#: Schema 1's roles and the content tables each wrote (appearance filled columns of tracks).
_V1_ROLE_TABLES: dict[str, tuple[str, ...]] = {
    "tracking": ("tracks", "detections"),
    "asr": ("transcript", "transcript_words"),
    "ocr": ("ocr", "ocr_spans"),
    "clip": ("frame_embeddings",),
    "appearance": (),
    "actions": ("actions",),
    "captions": ("captions",),
    "text_embeddings": ("text_embeddings",),
}


def _v1_model(role: str, settings: dict[str, Any]) -> str | None:
    if role == "clip" and settings.get("model"):
        return f"{settings['model']}/{settings.get('pretrained')}"
    if role == "ocr":
        return settings.get("engine")
    if role == "actions":
        return settings.get("vision_model") or "trajectory classifier"
    model = settings.get("model")
    return str(model) if model is not None else None


def _v1_to_v2(con: duckdb.DuckDBPyConnection) -> None:
    """Add `role_runs`, filled from each stored video's `roles` and `settings` JSON.

    Schema 1 kept one settings hash per video, so a migrated role has `settings_hash` NULL and its
    own settings in `settings`: ingest compares those, so nothing runs again after the upgrade
    unless the role's settings really changed.
    """
    con.execute(create_table_sql(role_runs))
    counts: dict[str, dict[str, int]] = {}
    for name in {t for tables in _V1_ROLE_TABLES.values() for t in tables}:
        rows = con.execute(f"SELECT video_id, count(*) FROM {name} GROUP BY video_id").fetchall()
        counts[name] = {vid: int(n) for vid, n in rows}
    out: list[dict[str, Any]] = []
    videos = con.execute("SELECT video_id, roles, settings, ingested_at FROM videos WHERE status = 'ok'").fetchall()
    for video_id, roles_json, settings_json, ingested_at in videos:
        roles = json.loads(roles_json or "{}")
        settings = json.loads(settings_json or "{}")
        for role, state in roles.items():
            own = settings.get(role) if isinstance(settings.get(role), dict) else {}
            row: dict[str, Any] = {"video_id": video_id, "role": role, "attempted_at": ingested_at, "rows": "{}"}
            if state == "ran":
                stored = {t: counts.get(t, {}).get(video_id, 0) for t in _V1_ROLE_TABLES.get(role, ())}
                row.update(
                    status="ok",
                    settings=json.dumps(own, sort_keys=True),
                    model=_v1_model(role, own),
                    row_count=sum(stored.values()),
                    rows=json.dumps(stored, sort_keys=True),
                    stored_at=ingested_at,
                )
            else:
                status, _, reason = str(state).partition(": ")
                row.update(status=status if status in ("failed", "skipped") else "failed", reason=reason or state,
                           row_count=0)
            out.append(row)
    if out:
        con.register("_vidmem_role_runs", pa.Table.from_pylist(out, schema=arrow_schema(role_runs)))
        try:
            con.execute("INSERT INTO role_runs BY NAME SELECT * FROM _vidmem_role_runs")
        finally:
            con.unregister("_vidmem_role_runs")


def _v2_to_v3(con: duckdb.DuckDBPyConnection) -> None:
    """Add `summaries` (the summaries role's chapters and video summaries), empty: the role runs on
    the stored videos when it is first selected with a chat model."""
    con.execute(create_table_sql(summaries))


MIGRATIONS: dict[int, Callable[[duckdb.DuckDBPyConnection], None]] = {1: _v1_to_v2, 2: _v2_to_v3}
