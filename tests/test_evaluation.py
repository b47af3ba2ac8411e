"""Evaluation: question-set loaders on the datasets' own formats, scoring, reports, comparison."""

import json
from pathlib import Path

import pytest

from agents.evaluation import (
    Question,
    QuestionSetError,
    Record,
    Report,
    compare,
    load_egoschema,
    load_jsonl,
    load_nextqa,
    score,
)
from agents.llm import Completion, Message

DEVSET = Path(__file__).parent.parent / "bench" / "devset.jsonl"


def test_nextqa_csv_loads_with_types_and_video_map(tmp_path: Path) -> None:
    csv_file = tmp_path / "val.csv"
    csv_file.write_text(
        "video,frame_count,width,height,question,answer,qid,type,a0,a1,a2,a3,a4\n"
        "4010069381,1035,640,480,why did the boy pick up one present from the group of them,2,6,CW,"
        "to show the camera,to keep it,to open it,to throw it,to eat it\n"
        "4882821564,1350,640,480,how many children are there,1,2,DC,one,two,three,four,five\n"
    )
    vmap = tmp_path / "map.json"
    vmap.write_text(json.dumps({"4010069381": "1024/4010069381"}))
    qs = load_nextqa(csv_file, tmp_path / "videos", vmap)
    assert [q.type for q in qs] == ["causal", "descriptive"]
    assert qs[0].video == tmp_path / "videos" / "1024" / "4010069381.mp4"
    assert qs[1].video == tmp_path / "videos" / "4882821564.mp4"
    assert qs[0].answer == 2 and qs[0].choices[2] == "to open it"
    assert qs[0].question.endswith("?")


def test_egoschema_keeps_only_answered_questions(tmp_path: Path) -> None:
    opts = {f"option {i}": f"choice {i}" for i in range(5)}
    (tmp_path / "questions.json").write_text(
        json.dumps([{"q_uid": "a", "question": "What is C doing?", **opts}, {"q_uid": "b", "question": "Why?", **opts}])
    )
    (tmp_path / "subset_answers.json").write_text(json.dumps({"a": 3}))
    qs = load_egoschema(tmp_path / "questions.json", tmp_path, tmp_path / "subset_answers.json")
    assert [(q.id, q.answer, q.video.name) for q in qs] == [("a", 3, "a.mp4")]


def test_devset_covers_every_question_type() -> None:
    qs = load_jsonl(DEVSET, lambda v: Path("/fixtures") / v)
    assert {q.type for q in qs} >= {"when", "why", "what", "how", "count"}
    assert len({q.id for q in qs}) == len(qs)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"video": "a.mp4", "question": "x?", "choices": ["a", "b"], "answer": 5}', "choice index"),
        ('{"video": "a.mp4", "question": "x?", "answer": ""}', "reference answer"),
        ('{"video": "a.mp4", "answer": "x"}', "not a question record"),
        ('{"video": null, "question": "x?", "answer": "y"}', "needs its 'video'"),  # only an archive question
        ("not json", "not a question record"),
    ],
)
def test_malformed_question_files_say_where(tmp_path: Path, line: str, message: str) -> None:
    f = tmp_path / "q.jsonl"
    f.write_text(line + "\n")
    with pytest.raises(QuestionSetError, match=message):
        load_jsonl(f)


def test_an_archive_question_may_name_no_video(tmp_path: Path) -> None:
    """out16's archive questions give "video": null, as a user asking of the whole archive knows no video:
    `vidmem eval` stopped at the first one with a TypeError."""
    f = tmp_path / "q.jsonl"
    f.write_text('{"id": "a1", "video": null, "scope": "archive", "question": "Which video names Ann?", '
                 '"answer": "a.mp4"}\n{"id": "v1", "video": "a.mp4", "question": "Who?", "answer": "Ann"}\n')
    archive, asked = load_jsonl(f)
    assert archive.video is None and archive.scope == "archive" and asked.video == tmp_path / "a.mp4"


class ScriptedJudge:
    model = "judge"

    def __init__(self, reply: str) -> None:
        self.reply = reply
        self.prompts: list[str] = []

    def complete(self, messages: list[Message], **kw: object) -> Completion:
        self.prompts.append(messages[-1].content)
        return Completion(self.reply, prompt_tokens=50, completion_tokens=1)


def test_scoring_multiple_choice_open_match_and_judge() -> None:
    mc = Question("q", Path("v.mp4"), "When?", "when", 1, ("at 2 s", "at 8 s"))
    assert score(mc, "B", 1).correct
    assert not score(mc, "A", 0).correct
    assert score(mc, "It is said at 8 s.", None).correct  # matched from the text
    open_q = Question("o", Path("v.mp4"), "What does the sign say?", "what", "PLATFORM 9 EXIT")
    assert score(open_q, "The sign reads 'Platform 9 exit'.", None).correct
    assert not score(open_q, "It says CAMERA 2.", None).correct
    judge = ScriptedJudge(" yes.")
    judged = score(open_q, "platform nine, the exit", None, judge)
    assert judged.correct and judged.method == "judge" and judged.prompt_tokens == 50
    assert "PLATFORM 9 EXIT" in judge.prompts[0]
    assert not score(open_q, "no idea", None, ScriptedJudge("NO")).correct


def test_a_when_question_with_a_time_window_takes_any_time_stated_inside_it(tmp_path: Path) -> None:
    """out15's "when does the briefing announce that the traverse is closed?" (said 24.7-28.7 s) was answered
    "24.6-28.7 s" and scored wrong: its accepted forms were whole seconds."""
    f = tmp_path / "q.jsonl"
    f.write_text('{"video": "a.mp4", "question": "When is the traverse closed?", "type": "when", "answer": "0:25", '
                 '"accept": ["25 s"], "time_window_s": [22.7, 30.7]}\n')
    [q] = load_jsonl(f)
    assert q.time_window == (22.7, 30.7)
    assert score(q, "24.6-28.7 s", None).correct
    assert score(q, "It is announced at 0:29.", None).correct
    assert not score(q, "At 96 seconds.", None).correct
    assert not score(q, "The board reads 25 km/h.", None).correct  # no time of the video


def _record(i: str, kind: str, correct: bool, tokens: int, failure: str | None = None) -> Record:
    return Record(i, kind, "q", "A", "A" if correct else "B", correct, "choice", failure, tokens, 10, 2, 5.0)


def test_report_summaries_table_json_and_comparison(tmp_path: Path) -> None:
    a = Report("mcts", "dev", (_record("1", "when", True, 100), _record("2", "when", True, 300),
                               _record("3", "count", False, 200, "no_answer")))  # fmt: skip
    b = Report("react", "dev", (_record("1", "when", True, 50), _record("2", "when", False, 50),
                                _record("3", "count", False, 50)))  # fmt: skip
    assert a.overall.accuracy == pytest.approx(2 / 3)
    assert a.by_type()["when"].accuracy == 1.0
    assert a.by_type()["when"].prompt_tokens_per_answer == 200
    assert a.failures() == {"no_answer": 1}
    loaded = Report.load(a.save(tmp_path / "a.json"))
    assert loaded.overall == a.overall
    assert "count" in a.table() and "failures: no_answer 1" in a.table()
    table = compare(a, b)
    when_line = next(ln for ln in table.splitlines() if ln.startswith("when"))
    assert "100%" in when_line and "50%" in when_line and "+50%" in when_line
    with pytest.raises(Exception, match="share no question"):
        compare(a, Report("x", "other", (_record("9", "when", True, 1),)))


def test_wilson_interval_known_values() -> None:
    from agents.evaluation import wilson_interval

    assert wilson_interval(8, 10) == pytest.approx((0.4902, 0.9433), abs=1e-4)  # the textbook 8 of 10
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)  # not empty at 0 correct
    assert wilson_interval(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(160, 200)
    assert high - low < 0.12  # 200 questions tell 80% from 68%; 13 questions (one is 8 points) do not
    summary = Report("react", "set", (_record("1", "when", True, 10), _record("2", "when", False, 10))).overall
    assert (summary.ci_low, summary.ci_high) == pytest.approx(wilson_interval(1, 2))
    assert summary.ci_text == "50% [9-91]"


def test_select_samples_evenly_across_types_and_reproducibly() -> None:
    from agents.evaluation import QuestionSetError, select

    qs = [Question(f"{t}{i}", Path("v.mp4"), "Q?", t, "a") for t in ("when", "what", "count") for i in range(10)]
    qs += [Question("why0", Path("v.mp4"), "Q?", "why", "a")]
    picked = select(qs, sample=7, seed=3)
    assert len(picked) == 7 and {q.type for q in picked} == {"when", "what", "count", "why"}
    assert [q.id for q in picked] == [q.id for q in qs if q in picked]  # file order kept
    assert select(qs, sample=7, seed=3) == picked and select(qs, sample=7, seed=4) != picked
    assert {q.type for q in select(qs, types=["count"])} == {"count"} and len(select(qs, types=["count"])) == 10
    assert select(qs, sample=100) == qs
    with pytest.raises(QuestionSetError, match="no questions of type colour"):
        select(qs, types=["colour"])
