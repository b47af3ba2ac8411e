"""Question sets: one record type, loaders for the public datasets' own files and for vidmem's
JSONL format.

vidmem JSONL, one question per line:
    {"id": "q1", "video": "clips/a.mp4", "question": "...", "type": "when",
     "choices": ["...", "..."], "answer": 1}                     # multiple choice: answer = index
    {"id": "q2", "video": "clips/a.mp4", "question": "...", "type": "what",
     "answer": "PLATFORM 9 EXIT", "accept": ["platform 9"]}      # open-ended: reference (+ accepted variants)
An optional "split" ("dev", "test", ...) names the part of a set a question belongs to (select(split=)).
A relative `video` is resolved against the file's folder, or by `resolve_video` (e.g. fixture names).
An archive question ("scope": "archive", asked of the whole memory) may give "video": null.
"""

import csv
import json
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agents.errors import AgentError

# NExT-QA's type codes: causal (why/how), temporal (previous/current/next), descriptive (count/location/other).
NEXTQA_TYPES = {
    "CW": "causal", "CH": "causal",
    "TP": "temporal", "TC": "temporal", "TN": "temporal",
    "DC": "descriptive", "DL": "descriptive", "DO": "descriptive",
}  # fmt: skip


class QuestionSetError(AgentError):
    """A question file is missing, malformed, or refers to what it cannot."""


@dataclass(frozen=True)
class Question:
    id: str
    #: the video asked about (of an archive question: the one that answers it, or None when the set names none)
    video: Path | None
    question: str
    type: str
    answer: str | int  # choice index for multiple choice, reference text for open-ended
    choices: tuple[str, ...] = ()
    accept: tuple[str, ...] = ()  # other acceptable open answers
    source: str = "vidmem"
    split: str = ""  # the set's part ('dev', 'test'); '' when the file has none
    #: 'video': asked about `video`; 'archive': asked of the whole memory, no video given (`video`
    #: is the one that answers it, and every video of the set is in the memory)
    scope: str = "video"
    #: For a question asking when: the seconds during which the event is said or shown (the JSONL's
    #: 'time_window_s'); an answer that states a time inside it is right, however it writes it
    time_window: tuple[float, float] | None = None

    def __post_init__(self) -> None:
        if not self.question.strip():
            raise QuestionSetError(f"question {self.id}: empty question text")
        if self.choices and (not isinstance(self.answer, int) or not 0 <= self.answer < len(self.choices)):
            raise QuestionSetError(
                f"question {self.id}: answer must be a choice index 0..{len(self.choices) - 1}, got {self.answer!r}"
            )
        if self.scope not in ("video", "archive"):
            raise QuestionSetError(f"question {self.id}: scope must be 'video' or 'archive', got {self.scope!r}")
        if self.video is None and self.scope != "archive":
            raise QuestionSetError(f"question {self.id}: a question about one video needs its 'video'")
        if not self.choices and (not isinstance(self.answer, str) or not self.answer.strip()):
            raise QuestionSetError(f"question {self.id}: an open question needs a reference answer text")

    @property
    def multiple_choice(self) -> bool:
        return bool(self.choices)


def load_jsonl(path: str | Path, resolve_video: Callable[[str], Path] | None = None) -> list[Question]:
    path = Path(path)
    out = []
    for n, line in enumerate(_read(path).splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            rec = json.loads(line)
            # an archive question may name no video ("video": null): a user asking it knows none
            named = rec.get("video") if rec.get("scope") == "archive" else rec["video"]
            video = None if named is None else resolve_video(named) if resolve_video else _relative(path, named)
            out.append(
                Question(
                    id=str(rec.get("id", f"{path.stem}-{n}")),
                    video=video,
                    question=rec["question"],
                    type=rec.get("type", "other"),
                    answer=rec["answer"],
                    choices=tuple(rec.get("choices") or ()),
                    accept=tuple(rec.get("accept") or ()),
                    source=rec.get("source", "vidmem"),
                    split=str(rec.get("split", "")),
                    scope=str(rec.get("scope", "video")),
                    time_window=_window(rec.get("time_window_s")),
                )
            )
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            raise QuestionSetError(f"{path}:{n}: not a question record ({type(exc).__name__}: {exc})") from exc
    return out


def _window(value: Any) -> tuple[float, float] | None:
    """A record's 'time_window_s' ([start, end] in seconds) as a pair; None when absent."""
    if value is None:
        return None
    start, end = (float(v) for v in value)
    if end < start:
        raise TypeError(f"time_window_s ends before it starts: {value!r}")
    return start, end


def load_nextqa(csv_path: str | Path, video_root: str | Path, video_map: str | Path | None = None) -> list[Question]:
    """NExT-QA multiple choice (val.csv/test.csv: video, question, answer, qid, type, a0..a4).

    `video_map` is the dataset's map_vid_vidorID.json (video id -> 'folder/vidorid'); without it
    videos are looked up as `<video_root>/<video>.mp4`.
    """
    mapping = json.loads(_read(Path(video_map))) if video_map else {}
    root = Path(video_root)
    out = []
    with Path(csv_path).open(newline="") as fh:
        for row in csv.DictReader(fh):
            try:
                rel = mapping.get(row["video"], row["video"])
                out.append(
                    Question(
                        id=f"{row['video']}_{row['qid']}",
                        video=root / f"{rel}.mp4",
                        question=row["question"].strip() + "?" * (not row["question"].strip().endswith("?")),
                        type=NEXTQA_TYPES.get(row["type"], row["type"]),
                        answer=int(row["answer"]),
                        choices=tuple(row[f"a{i}"] for i in range(5)),
                        source="nextqa",
                    )
                )
            except (KeyError, ValueError) as exc:
                raise QuestionSetError(f"{csv_path}: row {row} is not NExT-QA ({exc})") from exc
    return out


def load_egoschema(questions_json: str | Path, video_root: str | Path, answers_json: str | Path) -> list[Question]:
    """EgoSchema (questions.json: q_uid, question, option 0..4; subset_answers.json: q_uid -> index).
    Only questions with a known answer are returned."""
    questions = json.loads(_read(Path(questions_json)))
    answers = json.loads(_read(Path(answers_json)))
    out = []
    for rec in questions:
        if rec["q_uid"] not in answers:
            continue
        out.append(
            Question(
                id=rec["q_uid"],
                video=Path(video_root) / f"{rec['q_uid']}.mp4",
                question=rec["question"],
                type="egoschema",
                answer=int(answers[rec["q_uid"]]),
                choices=tuple(rec[f"option {i}"] for i in range(5)),
                source="egoschema",
            )
        )
    return out


def select(
    questions: Sequence[Question],
    *,
    types: Iterable[str] | None = None,
    sample: int | None = None,
    seed: int = 0,
    split: str | None = None,
) -> list[Question]:
    """The questions of `split` and `types` (all when None); with `sample`, that many drawn evenly
    across the types (round robin over each type shuffled by `seed`, so a small sample still covers
    every type), kept in file order. The same arguments always pick the same questions."""
    if split is not None:
        splits = {q.split for q in questions}
        if split not in splits:
            have = ", ".join(sorted(s for s in splits if s)) or "none"
            raise QuestionSetError(f"no questions in split {split!r} (the file's splits: {have})")
        questions = [q for q in questions if q.split == split]
    wanted = set(types) if types is not None else None
    if wanted is not None:
        unknown = wanted - {q.type for q in questions}
        if unknown:
            raise QuestionSetError(f"no questions of type {', '.join(sorted(unknown))}")
    pool = [q for q in questions if wanted is None or q.type in wanted]
    if sample is None or sample >= len(pool):
        return pool
    if sample < 0:
        raise QuestionSetError(f"sample must be >= 0, got {sample}")
    groups: dict[str, list[int]] = {}
    for i, q in enumerate(pool):
        groups.setdefault(q.type, []).append(i)
    rng = random.Random(seed)
    queues = [rng.sample(idx, len(idx)) for _, idx in sorted(groups.items())]
    picked: list[int] = []
    while len(picked) < sample:
        for queue in queues:
            if queue and len(picked) < sample:
                picked.append(queue.pop())
    return [pool[i] for i in sorted(picked)]


def load_questions(path: str | Path, **kwargs: str | Path) -> list[Question]:
    """By file type: .jsonl (vidmem), .csv (NExT-QA, needs video_root=), .json (EgoSchema, needs
    video_root= and answers=)."""
    suffix = Path(path).suffix.lower()
    if suffix == ".jsonl":
        return load_jsonl(path)
    if suffix == ".csv":
        return load_nextqa(path, kwargs["video_root"], kwargs.get("video_map"))
    if suffix == ".json":
        return load_egoschema(path, kwargs["video_root"], kwargs["answers"])
    raise QuestionSetError(f"{path}: unknown question file type; expected .jsonl, NExT-QA .csv or EgoSchema .json")


def _relative(base: Path, video: str) -> Path:
    p = Path(video).expanduser()
    return p if p.is_absolute() else (base.parent / p).resolve()


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError as exc:
        raise QuestionSetError(f"cannot read question file {path}: {exc}") from exc
