"""The generated question set: videos whose truth is known by construction, and questions over them
that record which rows of the memory answer them.

    python -m bench.qset                      # build the videos (cached) and rewrite questions.jsonl
    python -m bench.qset --check              # is questions.jsonl what the generator writes?
    python -m bench.qset heldout              # the held-out set (heldout.py): its videos and heldout.jsonl
    vidmem eval bench/qset/questions.jsonl --video-root ~/.cache/vidmem/qset --sample 40

spec.py holds the videos (footage, spoken lines, signs, hand-checked counts), build.py makes them,
questions.py writes the questions, heldout.py the held-out open questions (its own videos, split
dev/test by video), evidence.py finds the rows a question's evidence names, memory.py ingests the
videos once into a cached memory.
"""

from bench.qset.build import default_out_dir, ensure_videos, speech_seconds
from bench.qset.evidence import matching_rows, squash, video_ids
from bench.qset.memory import ALL_ROLES, TEXT_ROLES, ensure_memory, memory_path
from bench.qset.questions import QUESTIONS_PATH, TYPES, dumps, generate, load
from bench.qset.spec import CITY_DAY_10MIN, HELDOUT_VIDEOS, VIDEOS, Count, Footage, Line, Sign, Video

__all__ = [
    "ALL_ROLES",
    "CITY_DAY_10MIN",
    "HELDOUT_VIDEOS",
    "QUESTIONS_PATH",
    "TEXT_ROLES",
    "TYPES",
    "VIDEOS",
    "Count",
    "Footage",
    "Line",
    "Sign",
    "Video",
    "default_out_dir",
    "dumps",
    "ensure_memory",
    "ensure_videos",
    "generate",
    "load",
    "matching_rows",
    "memory_path",
    "speech_seconds",
    "squash",
    "video_ids",
]
