"""The memory's schema: SQLAlchemy Core tables, the one source of truth.

Every table carries `video_id`; every time is in seconds from the start of the video (`*_s`);
frame indices are secondary. Boxes are pixels in the decoded frame, (x1, y1) top-left.
A column's `comment` is its meaning and `info["unit"]` its unit: the schema description that
people and prompts read is generated from them (`memory.description`).

No primary-key or foreign-key constraints: DuckLake does not enforce them, and the writer
guarantees one copy of each video's rows by replacing a role's rows, together with its
`role_runs` provenance, in one transaction.
"""

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Double,
    Integer,
    MetaData,
    String,
    Table,
)

from memory.types import FloatList

SCHEMA_VERSION = 3

metadata = MetaData()


def _video_id() -> Column[str]:
    return Column("video_id", String, nullable=False, comment="Which video the row belongs to (videos.video_id).")


def _seconds(name: str, meaning: str, nullable: bool = False) -> Column[float]:
    return Column(name, Double, nullable=nullable, comment=meaning, info={"unit": "s"})


def _pixels(name: str, meaning: str) -> Column[float]:
    return Column(name, Double, nullable=False, comment=meaning, info={"unit": "px"})


def _box(what: str) -> list[Column[float]]:
    return [
        _pixels("x1", f"Left edge of the {what}."),
        _pixels("y1", f"Top edge of the {what}."),
        _pixels("x2", f"Right edge of the {what}."),
        _pixels("y2", f"Bottom edge of the {what}."),
    ]


videos = Table(
    "videos",
    metadata,
    Column("video_id", String, nullable=False, comment="Stable id: 'v' + first 16 hex of the content's SHA-256."),
    Column("path", String, nullable=False, comment="Path the video was ingested from (absolute)."),
    Column("content_hash", String, comment="SHA-256 of the file's bytes; NULL if the file could not be read."),
    Column("size_bytes", BigInteger, comment="File size.", info={"unit": "bytes"}),
    _seconds("duration_s", "Length of the video.", nullable=True),
    Column("fps", Double, comment="Average frame rate.", info={"unit": "frames/s"}),
    Column("num_frames", Integer, comment="Number of video frames."),
    Column("width", Integer, comment="Frame width.", info={"unit": "px"}),
    Column("height", Integer, comment="Frame height.", info={"unit": "px"}),
    Column("video_codec", String, comment="Codec of the video stream (ffprobe name, e.g. h264)."),
    Column("has_audio", Boolean, comment="Whether the file has an audio stream."),
    Column("audio_codec", String, comment="Codec of the first audio stream, NULL without audio."),
    Column(
        "status", String, nullable=False, comment="'ok' when its rows are stored, 'failed' when the file failed."
    ),
    Column("error", String, comment="Why ingestion failed (or the last failed re-ingest), in words; NULL if none."),
    Column(
        "roles", String, comment="JSON object: model role -> 'ran', or 'skipped: why' / 'failed: why' (see role_runs)."
    ),
    Column("pipeline_version", String, comment="vidmem ingest pipeline version that wrote the rows."),
    Column("settings_hash", String, comment="Hash of the ingest settings of the latest run (each role's: role_runs)."),
    Column("settings", String, comment="The ingest settings as JSON."),
    Column("ingested_at", DateTime, comment="When the rows were committed (UTC)."),
    _seconds("ingest_seconds", "Wall time the ingestion took.", nullable=True),
    comment="One row per video file: metadata, ingest status and the settings it was ingested with.",
)

role_runs = Table(
    "role_runs",
    metadata,
    _video_id(),
    Column("role", String, nullable=False, comment="Model role, as `vidmem models` names it (e.g. 'asr')."),
    Column(
        "status",
        String,
        nullable=False,
        comment="Latest run of the role on the video: 'ok', or 'failed' / 'skipped' (its earlier rows are kept).",
    ),
    Column("reason", String, comment="Why the latest run failed or was skipped, in words; NULL when ok."),
    Column("settings_hash", String, comment="Hash of the role's own settings that made its stored rows; NULL if none."),
    Column("settings", String, comment="The role's own settings that made its stored rows, as JSON."),
    Column("model", String, comment="Model or weights that made the stored rows."),
    Column("row_count", Integer, comment="Rows the role stored for the video, over all its tables."),
    Column("rows", String, comment="JSON object: table -> rows the role stored for the video."),
    Column("stored_at", DateTime, comment="When the role's stored rows were committed (UTC)."),
    Column("attempt_settings_hash", String, comment="Hash of the role's settings on its latest run."),
    Column("attempted_at", DateTime, comment="When the role last ran on the video (UTC)."),
    comment="Provenance: one row per video and model role: what made its rows, and how its latest run went.",
)

tracks = Table(
    "tracks",
    metadata,
    _video_id(),
    Column("track_id", Integer, nullable=False, comment="Instance id, unique within the video."),
    Column("category", String, nullable=False, comment="Object class of the instance (e.g. 'person')."),
    _seconds("first_s", "First time the instance is seen."),
    _seconds("last_s", "Last time the instance is seen."),
    Column("num_detections", Integer, nullable=False, comment="Number of sampled frames with a box."),
    Column("mean_confidence", Double, comment="Mean detector confidence over its boxes (0-1)."),
    _seconds("best_t_s", "Time of the instance's best (largest, most confident) box.", nullable=True),
    Column("appearance", String, comment="Short text describing what the instance looks like."),
    Column("appearance_embedding", FloatList(), comment="Image embedding of the best crop (model: appearance_model)."),
    Column("appearance_model", String, comment="Model that produced appearance and its embedding."),
    comment="Space-dominant: one row per tracked object instance over its whole lifetime.",
)

detections = Table(
    "detections",
    metadata,
    _video_id(),
    Column("track_id", Integer, nullable=False, comment="Instance this box belongs to (tracks.track_id)."),
    Column("frame_index", Integer, nullable=False, comment="Decoded frame number (0-based)."),
    _seconds("t_s", "Time of the frame."),
    *_box("bounding box"),
    Column(
        "confidence",
        Double,
        nullable=False,
        comment="Detector confidence (0-1); 0 marks a box interpolated over a missed detection.",
    ),
    Column("category", String, nullable=False, comment="Object class of the box."),
    Column("mask_polygon", String, comment="Instance mask outline as JSON [[x, y], ...] in pixels; NULL if none."),
    Column("mask_area", Double, comment="Area of the mask (or the box if no mask).", info={"unit": "px^2"}),
    comment="Space-dominant: the trajectory of each track, one box (and mask) per sampled frame.",
)

actions = Table(
    "actions",
    metadata,
    _video_id(),
    Column("track_id", Integer, comment="Instance doing the action; NULL for a whole-scene action."),
    _seconds("start_s", "Start of the action."),
    _seconds("end_s", "End of the action."),
    Column("label", String, nullable=False, comment="What is being done (e.g. 'walking')."),
    Column("score", Double, comment="Confidence of the label (0-1)."),
    Column("model", String, comment="Model that produced the label."),
    comment="Space-dominant: actions of tracked instances over time intervals.",
)
#: The labels the actions role writes with no model (its trajectory classifier, ingest/roles/actions.py):
#: wherever the role has run, a track not labelled one of them was not doing it, so a count can be narrowed
#: by them ("how many people are walking at 0:40?", `queries.brief_counts.action_labels`).
TRAJECTORY_ACTIONS = ("standing", "walking", "running", "entering", "leaving")

transcript = Table(
    "transcript",
    metadata,
    _video_id(),
    Column("segment_id", Integer, nullable=False, comment="Segment number within the video, in time order."),
    _seconds("start_s", "When the segment's speech starts."),
    _seconds("end_s", "When the segment's speech ends."),
    Column("text", String, nullable=False, comment="What was said (speech recognition output)."),
    Column("language", String, comment="Detected language code (e.g. 'en')."),
    Column("avg_logprob", Double, comment="Mean token log-probability: closer to 0 is more confident."),
    Column("no_speech_prob", Double, comment="Probability that the segment holds no speech (0-1)."),
    Column("model", String, comment="Speech recognition model."),
    comment="Time-dominant: the speech transcript (ASR), one row per segment.",
)

transcript_words = Table(
    "transcript_words",
    metadata,
    _video_id(),
    Column("segment_id", Integer, nullable=False, comment="Segment the word belongs to (transcript.segment_id)."),
    Column("word_index", Integer, nullable=False, comment="Position of the word within its segment."),
    _seconds("start_s", "When the word starts."),
    _seconds("end_s", "When the word ends."),
    Column("word", String, nullable=False, comment="The word as recognized."),
    Column("probability", Double, comment="Recognizer's probability for the word (0-1)."),
    comment="Time-dominant: word-level times of the transcript.",
)

ocr = Table(
    "ocr",
    metadata,
    _video_id(),
    Column("frame_index", Integer, nullable=False, comment="Decoded frame number (0-based)."),
    _seconds("t_s", "Time of the frame."),
    Column("text", String, nullable=False, comment="Text read on screen (OCR output)."),
    Column("confidence", Double, comment="Recognizer confidence (0-1)."),
    *_box("text line"),
    comment="Time-dominant: on-screen text per sampled frame (raw OCR lines).",
)

ocr_spans = Table(
    "ocr_spans",
    metadata,
    _video_id(),
    Column("span_id", Integer, nullable=False, comment="Span number within the video, in time order."),
    _seconds("start_s", "First sampled time the text is seen."),
    _seconds("end_s", "Last sampled time the text is seen."),
    Column("text", String, nullable=False, comment="The text, deduplicated over consecutive frames."),
    Column("confidence", Double, comment="Best recognizer confidence over the span (0-1)."),
    *_box("text line (where first seen)"),
    Column("num_frames", Integer, comment="Number of sampled frames the text was read in."),
    comment="Time-dominant: on-screen text merged over the time it stays visible.",
)

captions = Table(
    "captions",
    metadata,
    _video_id(),
    Column("caption_id", Integer, nullable=False, comment="Caption number within the video and level."),
    Column(
        "level", String, nullable=False, comment="'frame' for one sampled frame, 'clip' for merged near-identical ones."
    ),
    _seconds("start_s", "Start of the time the caption describes."),
    _seconds("end_s", "End of the time the caption describes."),
    Column("text", String, nullable=False, comment="Description of what is visible."),
    Column("model", String, comment="Captioning model."),
    comment="Time-dominant: natural-language descriptions of frames and clips.",
)

summaries = Table(
    "summaries",
    metadata,
    _video_id(),
    Column(
        "summary_id", Integer, nullable=False, comment="0 for the video's summary, then 1, 2, ... for its chapters."
    ),
    Column("level", String, nullable=False, comment="'video' for the summary of the whole video, 'chapter' for one."),
    _seconds("start_s", "Start of the stretch summarized (0 for the video)."),
    _seconds("end_s", "End of the stretch summarized (the video's length for the video)."),
    Column("title", String, nullable=False, comment="A short title (the video's: its one-line summary)."),
    Column("text", String, nullable=False, comment="A few sentences on what is said, shown and seen in the stretch."),
    Column("model", String, comment="Chat model that wrote it."),
    comment="Time-dominant: chapters and one summary per video, written by a chat model from the memory's other rows.",
)

frame_embeddings = Table(
    "frame_embeddings",
    metadata,
    _video_id(),
    Column("frame_index", Integer, nullable=False, comment="Decoded frame number (0-based)."),
    _seconds("t_s", "Time of the frame."),
    Column(
        "model",
        String,
        nullable=False,
        comment="Image-text model (e.g. 'ViT-B-32/openai'); compare only same-model vectors.",
    ),
    Column("embedding", FloatList(), nullable=False, comment="L2-normalized image embedding (cosine = dot product)."),
    comment="Time-dominant: CLIP image embeddings of sampled frames, for text-to-frame search.",
)

text_embeddings = Table(
    "text_embeddings",
    metadata,
    _video_id(),
    Column(
        "source",
        String,
        nullable=False,
        comment="Table the text comes from: 'transcript', 'ocr_spans', 'captions' or 'summaries'.",
    ),
    Column("item_id", Integer, nullable=False, comment="segment_id, span_id, caption_id or summary_id in that table."),
    Column("model", String, nullable=False, comment="Text embedding model; compare only same-model vectors."),
    Column("embedding", FloatList(), nullable=False, comment="L2-normalized sentence embedding."),
    comment="Embeddings of transcript segments, on-screen text spans, captions and summaries, for semantic search.",
)

schema_info = Table(
    "schema_info",
    metadata,
    Column("key", String, nullable=False, comment="Setting name, e.g. 'schema_version'."),
    Column("value", String, nullable=False, comment="Its value."),
    comment="Bookkeeping: the schema version of this memory.",
)

#: Tables that hold per-video content, in the order a video's rows are written.
CONTENT_TABLES: tuple[Table, ...] = (
    tracks,
    detections,
    actions,
    transcript,
    transcript_words,
    ocr,
    ocr_spans,
    captions,
    summaries,
    frame_embeddings,
    text_embeddings,
)

#: Every table a video has rows in (videos first, then the provenance of its roles).
VIDEO_TABLES: tuple[Table, ...] = (videos, role_runs, *CONTENT_TABLES)


def table(name: str) -> Table:
    """The schema table called `name`; raises KeyError naming the known tables."""
    try:
        return metadata.tables[name]
    except KeyError:
        raise KeyError(f"no table {name!r} in the vidmem schema; known: {sorted(metadata.tables)}") from None
