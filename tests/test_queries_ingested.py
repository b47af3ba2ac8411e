"""The library on really ingested samples, against tests/fixtures/truth.json (slow: runs the models).

`speech_count` (vtest.avi's first 20 s with a spoken sentence and a sign) goes through every role
that works offline; `speech_sign` through speech, on-screen text and sentence embeddings.
"""

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import queries
from memory import Memory, open_memory

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def real(media: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Memory, dict[str, str]]]:
    from ingest import IngestSettings, ingest_video

    path = tmp_path_factory.mktemp("ingested") / "samples.duckdb"
    ids = {}
    with open_memory(path) as writable:
        for name, settings in (
            ("speech_count", IngestSettings()),
            ("speech_sign", IngestSettings().only("asr", "ocr", "text_embeddings")),
        ):
            result = ingest_video(media[name], writable, settings)
            assert result.status == "ok", result.error
            ids[name] = result.video_id
        queries.install(writable)
        queries.build_text_index(writable)
    with open_memory(path, read_only=True) as memory:
        yield memory, ids


@pytest.fixture(scope="module")
def encoder() -> Any:
    from ingest.models.encoders import TextEncoder

    return TextEncoder()  # the query side of what ingest stored: same model label


@pytest.mark.parametrize(
    ("clip", "question"),
    [
        ("speech_sign", "When does the train depart?"),
        ("speech_sign", "a railway train departing from the station at dawn"),
        ("speech_count", "how many pedestrians cross the plaza"),
    ],
)
def test_paraphrase_finds_where_the_sentence_is_spoken(
    real: tuple[Memory, dict[str, str]], encoder: Any, truth: dict[str, Any], clip: str, question: str
) -> None:
    memory, ids = real
    spoken = truth["clips"][clip]["speech"]
    hit = queries.search_transcript(memory, encoder, question, k=1)[0]
    assert hit.video_id == ids[clip]
    assert hit.text.strip().rstrip(".").lower() == spoken["text"].rstrip(".").lower()
    assert hit.start_s <= spoken["voiced_start_s"] + 0.5 and hit.end_s >= spoken["voiced_end_s"] - 0.5


def test_speech_and_text_near_a_time(real: tuple[Memory, dict[str, str]], truth: dict[str, Any]) -> None:
    memory, ids = real
    t = truth["clips"]["speech_count"]
    middle = (t["speech"]["voiced_start_s"] + t["speech"]["voiced_end_s"]) / 2
    said = queries.speech_near(memory, ids["speech_count"], middle, window_s=0).to_pylist()
    assert [r["text"] for r in said] == [t["speech"]["whisper_base_transcript"]]
    assert said[0]["distance_s"] == 0
    sign = t["onscreen_text"]
    on_screen = (sign["start_s"] + sign["end_s"]) / 2
    shown = queries.text_near(memory, ids["speech_count"], on_screen, window_s=0).to_pylist()
    assert [r["text"] for r in shown] == [sign["text"]]
    assert shown[0]["start_s"] <= sign["start_s"] + 1.0 and shown[0]["end_s"] >= sign["end_s"] - 1.0  # OCR at 1 fps
    assert queries.text_near(memory, ids["speech_count"], sign["end_s"] + 3, window_s=1).num_rows == 0


def test_keyword_search_finds_the_sign(real: tuple[Memory, dict[str, str]]) -> None:
    memory, ids = real
    hits = queries.keyword_search(memory, "north gate")
    assert (hits[0].video_id, hits[0].source, hits[0].text) == (ids["speech_count"], "ocr_spans", "CAMERA 2 NORTH GATE")


def test_people_visible_match_the_hand_checked_counts(
    real: tuple[Memory, dict[str, str]], truth: dict[str, Any]
) -> None:
    """vtest.avi's people_visible facts, within two of the hand count (a detector is not a person)."""
    memory, ids = real
    vid = ids["speech_count"]
    last = queries.run_sql(memory, "SELECT max(t_s) AS t FROM detections WHERE video_id = ?", [vid])["t"][0].as_py()
    for fact in truth["clips"]["speech_count"]["people_visible"]:
        t = min(fact["t"], last)  # 19.9 s is after the last frame sampled at 5 fps
        alive = queries.tracks_at(memory, vid, t).to_pylist()
        people = [r for r in alive if r["category"] == "person"]
        assert fact["min"] - 2 <= len(people) <= fact["max"] + 2, (t, len(people), fact)
        for r in people:  # an interpolated box lies between its samples
            assert r["before_s"] <= t <= r["after_s"] and r["x1"] < r["x2"] and r["y1"] < r["y2"]
    spans = queries.when_visible(memory, vid, "person").to_pylist()
    assert len(spans) == 1 and spans[0]["start_s"] == 0 and spans[0]["end_s"] >= 19.5  # people all the time


def test_timeline_of_a_real_video(real: tuple[Memory, dict[str, str]], truth: dict[str, Any]) -> None:
    memory, ids = real
    events = queries.video_timeline(memory, ids["speech_sign"]).to_pylist()
    kinds = {e["kind"] for e in events}
    assert {"speech", "text"} <= kinds
    speech = next(e for e in events if e["kind"] == "speech")
    assert abs(speech["start_s"] - truth["clips"]["speech_sign"]["speech"]["voiced_start_s"]) < 1.0
