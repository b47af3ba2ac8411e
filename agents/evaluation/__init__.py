"""Evaluation: question sets, scoring, reports and their comparison."""

from agents.evaluation.questions import (
    Question,
    QuestionSetError,
    load_egoschema,
    load_jsonl,
    load_nextqa,
    load_questions,
    select,
)
from agents.evaluation.report import Record, Report, Summary, compare, wilson_interval
from agents.evaluation.runner import evaluate, video_id_of
from agents.evaluation.scoring import Score, score

__all__ = [
    "Question",
    "QuestionSetError",
    "Record",
    "Report",
    "Score",
    "Summary",
    "compare",
    "evaluate",
    "load_egoschema",
    "load_jsonl",
    "load_nextqa",
    "load_questions",
    "score",
    "select",
    "video_id_of",
    "wilson_interval",
]
