"""vidmem's SQL memory: the schema, opening a memory by URI, atomic per-video writes."""

from memory.ddl import arrow_schema
from memory.description import describe_schema, schema_dict
from memory.errors import MemoryURIError, SchemaError, StoreError, UsageError, VidmemError
from memory.export import EXPORT_FORMATS, ExportResult, export_format, export_memory, read_parquet_export
from memory.extensions import load_extension
from memory.rows import RoleRun, RoleState, VideoRecord, VideoRows, rows_table
from memory.schema import CONTENT_TABLES, SCHEMA_VERSION, TRAJECTORY_ACTIONS, VIDEO_TABLES, metadata, table
from memory.store import FailedFile, Memory, StoredVideo, open_memory
from memory.uri import DEFAULT_URI, MemoryURI, attach_sql, parse_uri

__all__ = [
    "CONTENT_TABLES",
    "DEFAULT_URI",
    "EXPORT_FORMATS",
    "SCHEMA_VERSION",
    "TRAJECTORY_ACTIONS",
    "VIDEO_TABLES",
    "ExportResult",
    "FailedFile",
    "Memory",
    "MemoryURI",
    "MemoryURIError",
    "RoleRun",
    "RoleState",
    "SchemaError",
    "StoreError",
    "StoredVideo",
    "UsageError",
    "VideoRecord",
    "VideoRows",
    "VidmemError",
    "arrow_schema",
    "attach_sql",
    "describe_schema",
    "export_format",
    "export_memory",
    "load_extension",
    "metadata",
    "open_memory",
    "parse_uri",
    "read_parquet_export",
    "rows_table",
    "schema_dict",
    "table",
]
