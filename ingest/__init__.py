"""Ingestion: decode each video once, run every model role over it, store its rows atomically.

Layout: `media/` reads a file (probe, sampling plan and decode, audio); `roles/` holds one
`Extractor` per model role and their registry; `models/` what the roles run (detectors, trackers,
encoders, the vision client) and their weights. This top level is the runtime: settings, the
per-video pipeline (plans and extracts; never writes), the writer (the one write path: `Writer`,
`ingest_video`), batch runs and their workers.
"""

from ingest.errors import BadVideoError, IngestError, RoleUnavailable, SettingsError
from ingest.media.probe import VideoInfo, probe
from ingest.pipeline import IngestResult, Pipeline
from ingest.roles.extractor import Availability, Extractor, VideoContext
from ingest.roles.registry import ROLE_NAMES
from ingest.settings import PIPELINE_VERSION, IngestSettings
from ingest.writer import Writer, ingest_video

__all__ = [
    "PIPELINE_VERSION",
    "ROLE_NAMES",
    "Availability",
    "BadVideoError",
    "Extractor",
    "IngestError",
    "IngestResult",
    "IngestSettings",
    "Pipeline",
    "RoleUnavailable",
    "SettingsError",
    "VideoContext",
    "VideoInfo",
    "Writer",
    "ingest_video",
    "probe",
]
