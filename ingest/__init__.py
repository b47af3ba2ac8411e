"""Ingestion: decode each video once, run every model role over it, store its rows atomically."""

from ingest.errors import BadVideoError, IngestError, RoleUnavailable, SettingsError
from ingest.extractor import Availability, Extractor, VideoContext
from ingest.pipeline import IngestResult, Pipeline, ingest_video
from ingest.probe import VideoInfo, probe
from ingest.registry import ROLE_NAMES
from ingest.settings import PIPELINE_VERSION, IngestSettings

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
    "ingest_video",
    "probe",
]
