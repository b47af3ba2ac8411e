"""The summaries role: chapters cut from the memory's facts, written by a chat model, and a summary.

The role's arithmetic (where chapters start, how many requests an hour costs, how sloppy replies
are read, what a failure keeps) is tested against a scripted chat endpoint (tests/vision_endpoint.py)
that answers from the facts it was sent; the whole path (real speech and OCR of a generated video,
the local chat model, text embeddings, search) against the local model.
"""

import dataclasses
import itertools
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import queries
from ingest import IngestSettings, SettingsError, ingest_video
from ingest.media.probe import VideoInfo
from ingest.roles.extractor import VideoContext
from ingest.roles.summaries import Summarizer, chapter_cuts, chapters_of, facts_of, read_reply
from memory import open_memory, rows_table
from tests.vision_endpoint import VisionServer, vision_server

MODEL = "tiny-chat"
needs_llm = pytest.mark.skipif(not os.environ.get("OPENAI_BASE_URL"), reason="OPENAI_BASE_URL is unset")


def _scripted_reply(body: dict[str, Any]) -> str:
    """A well-behaved small model: each chapter titled by its first fact, in a code fence with prose."""
    prompt = body["messages"][-1]["content"]
    chapters = []
    for number, block in re.findall(r"Chapter (\d+) \[[^\]]*\]\n(.*?)(?=\n\nChapter |\Z)", prompt, re.S):
        first = re.search(r"\] \w+: (.*)", block)
        text = first.group(1) if first else "Nothing is said or shown."
        chapters.append({"chapter": int(number), "title": text[:40], "text": text})
    reply: dict[str, Any] = {"chapters": chapters}
    if '"summary"' in prompt:
        reply.update(title="A scripted video", summary="It says what its chapters say.")
    return "Here you go:\n```json\n" + json.dumps(reply) + "\n```"


@pytest.fixture
def chat() -> Iterator[VisionServer]:
    with vision_server() as server:
        server.answer_for = _scripted_reply
        yield server


def _settings(server: VisionServer, *roles: str, **summaries: Any) -> IngestSettings:
    base = IngestSettings().only(*roles, "summaries")
    cfg = {"model": MODEL, "base_url": server.url, **summaries}
    return dataclasses.replace(base, summaries=dataclasses.replace(base.summaries, **cfg))


def _info(duration_s: float) -> VideoInfo:
    fields = {f.name: None for f in dataclasses.fields(VideoInfo)}
    fields.update(video_id="vtest00000000000", path=Path("/videos/talk.mp4"), duration_s=duration_s)
    return VideoInfo(**fields)


def _talk(minutes: int, every_s: float = 10.0) -> dict[str, Any]:
    """A long talk's rows: a spoken line every `every_s` seconds and a sign each minute."""
    vid = "vtest00000000000"
    said = [{"segment_id": i, "start_s": t, "end_s": t + 4.0, "text": f"Announcement number {i} about topic {i}.",
             "language": "en", "avg_logprob": -0.2, "no_speech_prob": 0.01, "model": "base"}
            for i, t in enumerate(x * every_s for x in range(int(minutes * 60 / every_s)))]
    shown = [{"span_id": i, "start_s": 60.0 * i + 5, "end_s": 60.0 * i + 30, "text": f"SIGN {i}", "confidence": 0.9,
              "x1": 0.0, "y1": 0.0, "x2": 10.0, "y2": 10.0, "num_frames": 25} for i in range(minutes)]
    return {"transcript": rows_table("transcript", said, vid), "ocr_spans": rows_table("ocr_spans", shown, vid)}


# ------------------------------------------------------------------ chapters from facts (pure)


def test_chapters_start_at_facts_and_cover_the_video() -> None:
    tables = _talk(10)
    chapters = chapters_of(tables, 600.0, 90.0)
    assert 5 <= len(chapters) <= 8
    assert chapters[0].start_s == 0.0 and chapters[-1].end_s == 600.0
    for a, b in itertools.pairwise(chapters):
        assert a.end_s == b.start_s
    starts = {f.start_s for f in facts_of(tables)}
    assert all(c.start_s in starts | {0.0} for c in chapters)  # a cut never splits a fact
    for c in chapters:  # every fact lies in its chapter's span
        assert all(c.start_s <= f.start_s < c.end_s for f in c.facts)
    assert sum(len(c.facts) for c in chapters) == len(facts_of(tables))


def test_a_short_video_gets_chapters_of_about_thirty_seconds() -> None:
    assert chapter_cuts([0.0, 5.0], 20.0, 90.0) == [0.0]
    chapters = chapters_of(_talk(2), 120.0, 90.0)
    assert len(chapters) in (3, 4), [(c.start_s, c.end_s) for c in chapters]


def test_noise_on_screen_is_not_read_but_text_is() -> None:
    vid = "vtest00000000000"
    spans = [{"span_id": i, "start_s": float(i), "end_s": float(i), "text": t, "confidence": 0.5, "x1": 0.0,
              "y1": 0.0, "x2": 1.0, "y2": 1.0, "num_frames": 1} for i, t in enumerate(["字", "|.", "EXIT 4", "OK!"])]
    facts = facts_of({"ocr_spans": rows_table("ocr_spans", spans, vid)})
    assert [f.text for f in facts] == ["EXIT 4"]


@pytest.mark.parametrize(
    ("reply", "chapters", "summary"),
    [
        ('{"title": "T", "summary": "S", "chapters": [{"chapter": 1, "title": "a", "text": "x"}]}', {1: "a"}, "S"),
        ('```json\n[{"Title": "b", "Summary": "y"}, {"title": "c"}]\n```', {1: "b", 2: "c"}, ""),
        ('Chapter one: {"chapter": "2", "heading": "d", "content": "z"} and {"summary": "S2"}', {2: "d"}, "S2"),
        ("I cannot do that.", {}, ""),
        ('{"chapters": "none", "title": ["not text"]}', {}, ""),
        ('{"chapters": [{"chapter": 7, "title": "out of range"}]}', {1: "out of range"}, ""),
    ],
)
def test_sloppy_replies_are_read_leniently(reply: str, chapters: dict[int, str], summary: str) -> None:
    got = read_reply(reply, [1, 2])
    assert {n: t for n, (t, _) in got.chapters.items()} == chapters
    assert got.summary == summary


# ------------------------------------------------------------------ the role, against a scripted endpoint


def test_without_a_chat_model_the_role_is_off_with_a_reason() -> None:
    avail = Summarizer(IngestSettings()).availability()
    assert not avail.ok and "summaries.model" in avail.detail


def test_bad_summary_settings_are_refused() -> None:
    with pytest.raises(SettingsError, match="prompt_chars"):
        dataclasses.replace(IngestSettings().summaries, prompt_chars=200)


@pytest.mark.parametrize(("minutes", "most_calls"), [(2, 2), (10, 4), (60, 15)])
def test_an_hour_costs_a_bounded_number_of_bounded_requests(chat: VisionServer, minutes: int, most_calls: int) -> None:
    settings = _settings(chat)
    role = Summarizer(settings)
    ctx = VideoContext(_info(minutes * 60.0), tables=_talk(minutes))
    role.begin(ctx)
    role.end(ctx)
    rows = ctx.tables["summaries"].to_pylist()
    prompts = [r["messages"][-1]["content"] for r in chat.requests]
    assert 1 <= len(prompts) <= most_calls, len(prompts)
    assert max(len(p) for p in prompts) <= settings.summaries.prompt_chars + 1200  # the instructions
    video = [r for r in rows if r["level"] == "video"]
    chapters = [r for r in rows if r["level"] == "chapter"]
    assert len(video) == 1 and video[0]["text"].startswith("It says what its chapters say. ")
    # the summary carries the chapters' texts in order (their first sentences when all do not fit)
    assert chapters[0]["text"].split(".")[0] in video[0]["text"]
    assert len(video[0]["text"]) <= settings.summaries.summary_chars
    assert chapters and chapters[-1]["end_s"] == minutes * 60.0
    assert [r["summary_id"] for r in rows] == list(range(len(rows)))
    assert ctx.artifacts["summaries_usage"]["calls"] == len(prompts)


def test_a_video_with_nothing_in_it_asks_nothing(chat: VisionServer) -> None:
    role = Summarizer(_settings(chat))
    ctx = VideoContext(_info(30.0))
    role.begin(ctx)
    role.end(ctx)
    assert ctx.tables["summaries"].num_rows == 0 and chat.requests == []


@pytest.mark.slow
def test_a_failed_summary_keeps_the_stored_one(chat: VisionServer, media: dict[str, Path], tmp_path: Path) -> None:
    """speech_sign: real speech and OCR; the first run stores chapters, a later run whose model
    writes nothing usable fails the role (asked once more first) and the stored rows stay."""
    settings = _settings(chat, "asr", "ocr")
    with open_memory(tmp_path / "m.duckdb") as mem:
        first = ingest_video(media["speech_sign"], mem, settings)
        assert first.roles["summaries"] == "ran", first.roles
        before = mem.query("SELECT * FROM summaries ORDER BY summary_id").to_pylist()
        assert before and "red train" in json.dumps(before).lower()
        sent = chat.requests[0]["messages"][-1]["content"]
        assert re.search(r"\] said: The red train", sent) and re.search(r"\] shown: PLATFORM 9", sent), sent
        chat.answer_for = None
        chat.answer = "Sorry, I can only chat."
        chat.requests.clear()
        again = ingest_video(media["speech_sign"], mem, settings, force=True)
        assert again.roles["summaries"].startswith("failed: 'tiny-chat' wrote no usable chapter"), again.roles
        assert len(chat.requests) == 2
        assert mem.query("SELECT * FROM summaries ORDER BY summary_id").to_pylist() == before


@pytest.mark.slow
def test_an_unreachable_endpoint_fails_the_role_not_the_video(media: dict[str, Path], tmp_path: Path) -> None:
    base = IngestSettings().only("ocr", "summaries")
    settings = dataclasses.replace(base, summaries=dataclasses.replace(
        base.summaries, model=MODEL, base_url="http://127.0.0.1:9/v1", timeout_s=2.0, max_retries=0))
    with open_memory(tmp_path / "m.duckdb") as mem:
        result = ingest_video(media["speech_sign"], mem, settings)
        assert result.status == "ok" and result.roles["ocr"] == "ran"
        assert result.roles["summaries"].startswith("failed: summaries request failed"), result.roles


# ------------------------------------------------------------------ the whole path, with the local model


@pytest.mark.slow
@pytest.mark.llm
@needs_llm
def test_the_local_model_summarizes_what_was_said_and_search_finds_it(
    qset_videos: dict[str, Path], tmp_path: Path
) -> None:
    """q01: four spoken lines and signs in 24 s. The summary is written by the local 1.5B model,
    so the check is on facts a summary must carry (the train, the library) and on search."""
    base = IngestSettings().only("asr", "ocr", "summaries", "text_embeddings")
    settings = dataclasses.replace(base, summaries=dataclasses.replace(base.summaries, model="local"))
    mem_path = tmp_path / "m.duckdb"
    with open_memory(mem_path) as mem:
        result = ingest_video(qset_videos["q01_square_morning"], mem, settings)
    assert result.roles["summaries"] == "ran", result.roles
    with open_memory(mem_path, read_only=True) as mem:
        (vid,) = [v.video_id for v in queries.video_files(mem)]
        summary = queries.video_summary(mem, vid)
        assert summary is not None and summary.file == "q01_square_morning.mp4"
        words = f"{summary.title} {summary.text} {' '.join(c.text for c in summary.chapters)}".lower()
        assert sum(w in words for w in ("train", "library", "locker", "anna")) >= 2, words
        assert summary.chapters and summary.chapters[-1].end_s == pytest.approx(24.0, abs=0.5)
        hits = queries.search_archive(mem, summary.chapters[0].title, kinds=["chapter"], k=3).hits
        assert hits and hits[0].kind == "chapter" and Path(hits[0].path).name == "q01_square_morning.mp4"
