"""vidmem's analyst query library: SQL views and macros over the memory, the same queries as Python
functions with bound parameters, semantic and keyword search, and result formatting.

    >>> import queries
    >>> from memory import open_memory
    >>> mem = open_memory("archive.duckdb")                              # doctest: +SKIP
    >>> queries.install(mem)                                             # doctest: +SKIP
    >>> queries.when_visible(mem, "v1a2b3c4d5e6f7a8b", "person").to_pandas()  # doctest: +SKIP
    >>> print(queries.describe_library())                                # doctest: +SKIP

How to open a memory from the DuckDB CLI, pandas or a BI tool: queries/ACCESS.md.
"""

from queries.archive_search import KINDS, ArchiveHit, ArchiveSearch, search_archive
from queries.brief import Brief, BriefItem, evidence_brief
from queries.browse import MAX_WINDOW_S, detections_between, list_videos, track_best_box, video_record, video_tracks
from queries.choice_scores import ChoiceScore, score_choices
from queries.connect import sqlalchemy_engine, sqlalchemy_url
from queries.counts import (
    category_counts,
    category_pairs,
    cooccurrence,
    instance_counts,
    track_cooccurrence,
    tracks_with,
)
from queries.errors import ParameterError, QueryError, SearchUnavailable, UnknownTrackError, UnknownVideoError
from queries.integrity import MemoryCheck, check_memory
from queries.library import (
    EXAMPLE_QUERIES,
    Installation,
    LibraryObject,
    cursor,
    describe_library,
    install,
    library_objects,
    library_script,
    library_version,
)
from queries.lockdown import lock_down
from queries.output import FORMATS, format_result, format_stream, write_parquet
from queries.readonly import ReadOnlyError, ReadOnlySession
from queries.run import run_sql
from queries.sandbox import QueryResult, Sandbox, release_sandbox, shared_sandbox
from queries.search import (
    Encoder,
    FrameHit,
    HybridHit,
    HybridResult,
    TextHit,
    frames_like,
    fuse_ranks,
    has_frame_vectors,
    hybrid_search,
    keyword_search,
    search_frames,
    search_texts,
    search_transcript,
    search_words,
    word_search,
)
from queries.summaries import Chapter, VideoSummary, archive_summaries, video_summary
from queries.text_index import build_text_index
from queries.time_phrases import TimeWindow, time_windows
from queries.timeline import (
    SegmentContents,
    segment_contents,
    speech_near,
    text_near,
    transcript_between,
    video_overview,
    video_timeline,
)
from queries.vector_index import build_frame_index
from queries.videos import (
    AmbiguousVideoError,
    MemoryStatus,
    VideoFile,
    memory_status,
    resolve_video,
    role_states,
    video_by_path,
    video_files,
)
from queries.visibility import (
    TrackPosition,
    seen_at,
    track_path,
    track_position,
    tracks_at,
    when_track_visible,
    when_visible,
)

__all__ = [
    "EXAMPLE_QUERIES",
    "FORMATS",
    "KINDS",
    "MAX_WINDOW_S",
    "AmbiguousVideoError",
    "ArchiveHit",
    "ArchiveSearch",
    "Brief",
    "BriefItem",
    "Chapter",
    "ChoiceScore",
    "Encoder",
    "FrameHit",
    "HybridHit",
    "HybridResult",
    "Installation",
    "LibraryObject",
    "MemoryCheck",
    "MemoryStatus",
    "ParameterError",
    "QueryError",
    "QueryResult",
    "ReadOnlyError",
    "ReadOnlySession",
    "Sandbox",
    "SearchUnavailable",
    "SegmentContents",
    "TextHit",
    "TimeWindow",
    "TrackPosition",
    "UnknownTrackError",
    "UnknownVideoError",
    "VideoFile",
    "VideoSummary",
    "archive_summaries",
    "build_frame_index",
    "build_text_index",
    "category_counts",
    "category_pairs",
    "check_memory",
    "cooccurrence",
    "cursor",
    "describe_library",
    "detections_between",
    "evidence_brief",
    "format_result",
    "format_stream",
    "frames_like",
    "fuse_ranks",
    "has_frame_vectors",
    "hybrid_search",
    "install",
    "instance_counts",
    "keyword_search",
    "library_objects",
    "library_script",
    "library_version",
    "list_videos",
    "lock_down",
    "memory_status",
    "release_sandbox",
    "resolve_video",
    "role_states",
    "run_sql",
    "score_choices",
    "search_archive",
    "search_frames",
    "search_texts",
    "search_transcript",
    "search_words",
    "seen_at",
    "segment_contents",
    "shared_sandbox",
    "speech_near",
    "sqlalchemy_engine",
    "sqlalchemy_url",
    "text_near",
    "time_windows",
    "track_best_box",
    "track_cooccurrence",
    "track_path",
    "track_position",
    "tracks_at",
    "tracks_with",
    "transcript_between",
    "video_by_path",
    "video_files",
    "video_overview",
    "video_record",
    "video_summary",
    "video_timeline",
    "video_tracks",
    "when_track_visible",
    "when_visible",
    "word_search",
    "write_parquet",
]
