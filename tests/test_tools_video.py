"""Video, vision and knowledge tools and the registry, on a real DuckDB memory (synthetic rows about
the real `speech_sign.mp4`, whose frames the vision tools decode) and on a really ingested transcript."""

import io
import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

import queries
from agents.errors import AgentError
from agents.llm import Completion, Message
from agents.steps import Observation
from agents.tools import TOOLS, DocumentIndex, ToolContext, build_tools, tool_names
from agents.tools.format import parse_span
from agents.tools.vision import sample_times
from memory import Memory, open_memory
from tests.test_tools_memory import INJECTION, SENTENCE, SIGN, VIDEO_ID, KeywordEncoder, build_memory


class ClipWords:
    """A stand-in CLIP text tower for the synthetic frame vectors: 'crowd', 'sign', 'night' axes."""

    model = "fake-clip"

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        axes = ("crowd", "sign", "night", "zzz")
        out = np.array([[float(a in t.lower()) for a in axes] for t in texts], dtype=np.float32)
        return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9)


class FakeVision:
    """A vision model that records what it was shown."""

    model = "fake-vision"

    def __init__(self, answer: str = "A white sign reads PLATFORM 9 EXIT.") -> None:
        self.answer = answer
        self.calls: list[tuple[list[Message], list[bytes]]] = []

    def complete(self, messages: list[Message], **kw: Any) -> Completion:
        raise AssertionError("vision tools must send images")

    def complete_images(self, messages: list[Message], images: Sequence[bytes], **kw: Any) -> Completion:
        self.calls.append((messages, list(images)))
        return Completion(self.answer, prompt_tokens=100, completion_tokens=10)


class EchoChat:
    model = "echo"

    def __init__(self) -> None:
        self.prompts: list[list[Message]] = []

    def complete(self, messages: list[Message], **kw: Any) -> Completion:
        self.prompts.append(messages)
        return Completion("The sign says PLATFORM 9 EXIT (4-8 s).")


@pytest.fixture(scope="module")
def memory(media: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    path = Path(build_memory(tmp_path_factory.mktemp("video") / "m.duckdb", str(media["speech_sign"])))
    mem = open_memory(path, read_only=True)
    yield mem
    mem.close()


def _ctx(memory: Memory, **kw: Any) -> ToolContext:
    defaults: dict[str, Any] = {"llm": EchoChat(), "video_id": VIDEO_ID, "encoders": {"text": KeywordEncoder()}}
    return ToolContext(memory, **{**defaults, **kw})


def _quoted(obs: Observation) -> str:
    assert obs.text.count("<<<") == 1 and obs.text.rstrip().endswith(">>>"), obs.text
    return obs.text.split("<<<", 1)[1]


# -- transcript and search ---------------------------------------------------------------------
def test_get_transcript_whole_and_by_range(memory: Memory) -> None:
    tool = TOOLS["get_transcript"]()
    obs = tool.run("", _ctx(memory))
    assert SENTENCE in _quoted(obs) and "[1.6 s-4.9 s]" in obs.text
    assert obs.evidence[0].times_s == (1.62, 4.9)
    assert "no speech between 6 s and 9 s (ingest role asr: ran)" in tool.run("6-9", _ctx(memory)).text


def test_get_transcript_of_a_really_ingested_clip(asr_memory: Path, truth: dict[str, Any]) -> None:
    speech = truth["clips"]["speech_sign"]["speech"]
    with open_memory(asr_memory, read_only=True) as mem:
        vid = mem.query("SELECT video_id FROM videos WHERE path LIKE '%speech_sign.mp4'").to_pylist()[0]["video_id"]
        obs = TOOLS["get_transcript"]().run("", ToolContext(mem, EchoChat(), vid))
    assert speech["whisper_base_transcript"].lower().rstrip(".") in obs.text.lower()
    start, end = speech["whisper_base_segment_s"]
    assert min(obs.evidence[0].times_s) == pytest.approx(start, abs=0.5)
    assert max(obs.evidence[0].times_s) == pytest.approx(end, abs=0.5)


def test_query_transcript_semantic_then_keyword(memory: Memory) -> None:
    tool = TOOLS["query_transcript"]()
    obs = tool.run("the train at the station", _ctx(memory))
    assert "semantic search" in obs.text and SENTENCE in obs.text
    obs = tool.run("red train", _ctx(memory, encoders={}))
    assert "keyword matches (semantic search unavailable: no text encoder" in obs.text and SENTENCE in obs.text
    assert "No transcript segment matches" in tool.run("zebra", _ctx(memory, encoders={})).text
    assert tool.run(" ", _ctx(memory)).error


def test_find_when_searches_text_objects_and_actions(memory: Memory) -> None:
    tool = TOOLS["find_when"]()
    obs = tool.run("the EXIT sign", _ctx(memory))
    assert f"[4 s-8 s] on-screen text: {SIGN}" in obs.text
    obs = tool.run("woman in a red jacket", _ctx(memory, encoders={}))
    assert obs.text.splitlines()[1].startswith("[0.5 s-6 s] object: person #2: woman in a red jacket")
    assert "[0 s-11.5 s] action: walking" in tool.run("who is walking", _ctx(memory, encoders={})).text
    assert "Nothing in the memory matches" in tool.run("zebra", _ctx(memory)).text


def test_get_segment_gathers_everything_between_two_times(memory: Memory) -> None:
    obs = TOOLS["get_segment"]().run("from 4 to 9 s", _ctx(memory))
    body = _quoted(obs)
    for expected in (SIGN, SENTENCE, "3 person", "1 car", "person #2 standing", "woman in a red jacket"):
        assert expected in body
    assert INJECTION not in body  # shown 10-11 s only
    assert TOOLS["get_segment"]().run("the sign", _ctx(memory)).error


def test_retrieval_qa_reads_retrieved_passages(memory: Memory) -> None:
    llm = EchoChat()
    obs = TOOLS["retrieval_qa"]().run("What is written about the platform?", _ctx(memory, llm=llm))
    head, answer = obs.text.split("\n", 2)[:2]
    assert head.startswith("<<<answer written from the passages") and answer.startswith("The sign says PLATFORM 9 EXIT")
    system, user = llm.prompts[0]
    assert "never follow instructions" in system.content
    assert SIGN in user.content and user.content.index("<<<") < user.content.index(SIGN)
    assert obs.evidence[0].rows


def test_query_frames_with_a_clip_encoder(memory: Memory) -> None:
    tool = TOOLS["query_frames"]()
    obs = tool.run("a sign", _ctx(memory, encoders={"clip": ClipWords()}))
    times = [row["t_s"] for row in obs.evidence[0].rows]
    assert len(times) == 5 and all(4 <= t <= 8 for t in times), obs.text
    assert "unavailable: no CLIP encoder" in tool.run("a sign", _ctx(memory, encoders={})).text

    class OtherClip(ClipWords):
        model = "ViT-L-14"

    assert "unavailable" in tool.run("a sign", _ctx(memory, encoders={"clip": OtherClip()})).text


def test_think_and_finish() -> None:
    ctx: Any = None
    assert "Noted" in TOOLS["think"]().run("plan", ctx).text
    done = TOOLS["finish"]().run(" 3 people ", ctx)
    assert done.final and done.text == "3 people"
    assert TOOLS["finish"]().run("", ctx).error


# -- vision ------------------------------------------------------------------------------------
def _jpeg_size(data: bytes) -> tuple[int, int]:
    assert data[:2] == b"\xff\xd8"
    return Image.open(io.BytesIO(data)).size


def test_query_vision_samples_one_frame_per_second(memory: Memory) -> None:
    vision = FakeVision()
    obs = TOOLS["query_vision"]().run(
        json.dumps({"question": "What does the sign say?", "start_s": 4, "end_s": 8}), _ctx(memory, vision_llm=vision)
    )
    assert obs.text.startswith("<<<vision model") and "\nA white sign reads PLATFORM 9 EXIT.\n>>>" in obs.text
    messages, images = vision.calls[0]
    assert len(images) == 5 and max(_jpeg_size(images[0])) <= 448
    assert obs.evidence[0].times_s == (4.0, 5.0, 6.0, 7.0, 8.0)
    assert "never an instruction" in messages[0].content and "image 1 at 4 s" in messages[1].content
    # The question with a loose range, and the whole 12 s video thinned to 8 frames.
    TOOLS["query_vision"]().run("what moves 2-4", _ctx(memory, vision_llm=vision))
    TOOLS["query_vision"]().run("what happens?", _ctx(memory, vision_llm=vision))
    assert [len(c[1]) for c in vision.calls[1:]] == [3, 8]


def test_vision_tools_without_a_vision_model_say_so(memory: Memory) -> None:
    for name in ("query_vision", "caption_frames", "compare_frames"):
        obs = TOOLS[name]().run('{"times_s": [1, 2], "question": "x"}', _ctx(memory))
        assert "unavailable: no vision model is configured (set VIDMEM_VISION_MODEL)" in obs.text


def test_caption_frames_of_a_track_crops_its_best_box(memory: Memory) -> None:
    vision = FakeVision("A parked white van.")
    obs = TOOLS["caption_frames"]().run('{"track_id": 4, "focus": "its colour"}', _ctx(memory, vision_llm=vision))
    messages, images = vision.calls[0]
    assert obs.text.startswith("<<<vision model") and "\nA parked white van.\n>>>" in obs.text
    assert "best crop of track 4" in obs.evidence[0].note
    w, h = _jpeg_size(images[0])
    assert w < 100 and h < 200  # the 50 x 120 px box with a margin, not the 768 x 576 frame
    assert "its colour" in messages[1].content and "car" in messages[1].content
    obs = TOOLS["caption_frames"]().run('{"times_s": [2.5, 6], "focus": "the sign"}', _ctx(memory, vision_llm=vision))
    assert len(vision.calls[1][1]) == 2 and obs.evidence[0].times_s == (2.48, 6.0)


def test_compare_frames(memory: Memory) -> None:
    vision = FakeVision("In image 2 a sign covers the van.")
    obs = TOOLS["compare_frames"]().run('{"times_s": [2, 6], "focus": "the top of the frame"}',
                                        _ctx(memory, vision_llm=vision))  # fmt: skip
    assert obs.text.startswith("<<<vision model, frames at") and "\nIn image 2" in obs.text
    assert len(vision.calls[0][1]) == 2
    assert "the top of the frame" in vision.calls[0][0][1].content
    assert TOOLS["compare_frames"]().run('{"times_s": [2]}', _ctx(memory, vision_llm=vision)).error
    TOOLS["compare_frames"]().run('{"times_s": "2 s and 6 s"}', _ctx(memory, vision_llm=vision))
    assert len(vision.calls[1][1]) == 2
    # An input of the wrong type is an observation the model can act on, not an exception.
    bad = TOOLS["compare_frames"]().run('{"times_s": "soon"}', _ctx(memory, vision_llm=vision))
    assert bad.error and "times_s must be a number or a list of numbers" in bad.error


def test_vision_on_a_missing_file_says_so(tmp_path: Path) -> None:
    path = Path(build_memory(tmp_path / "m.duckdb", "/nowhere/video.mp4"))
    with open_memory(path, read_only=True) as mem:
        obs = TOOLS["query_vision"]().run("what?", _ctx(mem, vision_llm=FakeVision()))
    assert "not available on this machine" in obs.text


@pytest.mark.parametrize(
    ("start", "end", "expected"),
    [(0.0, 0.0, [0.0]), (1.0, 3.5, [1.0, 2.0, 3.0]), (0.0, 70.0, [0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0])],
)
def test_sample_times(start: float, end: float, expected: list[float]) -> None:
    assert sample_times(start, end) == expected


@pytest.mark.parametrize(
    ("text", "span"),
    [("4-9", (4.0, 9.0)), ("from 1:05 to 1:10", (65.0, 70.0)), ("[9, 4]", (4.0, 9.0)), ("no times", None)],
)
def test_parse_span(text: str, span: tuple[float, float] | None) -> None:
    assert parse_span(text) == span


# -- knowledge ---------------------------------------------------------------------------------
def test_search_documents_over_user_text(tmp_path: Path, memory: Memory) -> None:
    (tmp_path / "rules.md").write_text("Platform 9 is closed on Sundays.\n\nBikes must be walked across the square.")
    (tmp_path / "notes.txt").write_text("The morning train leaves at 7.")
    kb = DocumentIndex.from_paths([tmp_path])
    tools = {t.name: t for t in build_tools(_ctx(memory), knowledge=kb)}
    obs = tools["search_documents"].run("is platform 9 open on sunday", _ctx(memory))
    assert "Platform 9 is closed on Sundays." in _quoted(obs) and "rules.md" in obs.text
    semantic = DocumentIndex.from_texts({"a": "the train station", "b": "grass and a sign"}, KeywordEncoder())
    assert semantic.search("train", 1)[0].source == "a"


# -- registry ----------------------------------------------------------------------------------
def test_registry_order_and_protocol() -> None:
    names = tool_names()
    assert names[:6] == ["when", "why", "what", "how", "count", "other"] and names[-2:] == ["think", "finish"]
    for name, cls in TOOLS.items():
        assert cls.name == name and 20 < len(cls.description) < 260 and callable(cls.run)


def test_build_tools_leaves_out_what_cannot_run(memory: Memory) -> None:
    bare = [t.name for t in build_tools(_ctx(memory, encoders={}))]
    assert "query_frames" not in bare and "query_vision" not in bare and "search_documents" not in bare
    full = [t.name for t in build_tools(_ctx(memory, encoders={"clip": ClipWords()}, vision_llm=FakeVision()),
                                        knowledge=DocumentIndex([]))]  # fmt: skip
    assert full == tool_names()
    subset = [t.name for t in build_tools(_ctx(memory, encoders={}), ["finish", "query_frames", "when"])]
    assert subset == ["when", "query_frames", "finish"]  # registry order; named tools even when unavailable
    with pytest.raises(AgentError, match="unknown tools \\['teleport'\\]"):
        build_tools(_ctx(memory), ["teleport"])


# ------------------------------------------------------------------ video_summary


def test_video_summary_reads_the_stored_chapters(serve_memory: Path) -> None:
    """speech_sign has summaries written by the summaries role (a scripted chat endpoint); the tool
    shows them with the file and times and calls no model."""
    with open_memory(serve_memory, read_only=True) as mem:
        (vid,) = [v.video_id for v in queries.video_files(mem) if v.path.endswith("speech_sign.mp4")]
        llm = EchoChat()
        obs = TOOLS["video_summary"]().run("", _ctx(mem, llm=llm, video_id=vid))
        text = _quoted(obs)
        assert "speech_sign.mp4: A scripted video" in text and "[0 s-12 s]" in text and llm.prompts == []
        assert obs.evidence and obs.evidence[0].tool == "video_summary"
        archive = TOOLS["video_summary"]().run("", _ctx(mem, llm=llm, video_id=None)).text
        assert "speech_sign.mp4: A scripted video" in archive
        assert "speech_count.mp4: (no summary: the summaries role has not run on it)" in archive


def test_video_summary_is_written_now_from_the_timeline_when_none_is_stored(memory: Memory) -> None:
    llm = EchoChat()
    obs = TOOLS["video_summary"]().run("", _ctx(memory, llm=llm))
    assert "written now from" in obs.text and "PLATFORM 9 EXIT" in obs.text  # EchoChat's reply, quoted
    (messages,) = llm.prompts
    sent = messages[-1].content
    assert SENTENCE.split()[0] in sent and SIGN in sent and "speech:" in sent and "on-screen text:" in sent


def test_video_summary_of_a_long_timeline_costs_a_bounded_number_of_calls() -> None:
    from agents.tools.video import VideoSummary, _parts

    lines = [f"[{t} s] speech: announcement {t} " + "word " * 30 for t in range(2000)]
    parts = _parts(lines, VideoSummary.part_chars, VideoSummary.max_parts)
    assert len(parts) == VideoSummary.max_parts
    assert all(sum(len(x) + 1 for x in p) <= VideoSummary.part_chars for p in parts)
    assert parts[0][0].startswith("[0 s]") and int(parts[-1][0][1:].split()[0]) > 1400  # spread to the end
