"""The values a changed thing is given over the video, in time order (`queries.brief_change`), in the brief."""

from pathlib import Path
from typing import Any

import pytest

from memory import open_memory, rows_table
from queries import evidence_brief
from tests import test_queries_data
from tests.test_queries_data import build_rows, written

#: Trial 10's Lindmouth flight, shortened: gate 3 said and shown, the change said with both gates, gate 7 after.
SPEECH = [
    (0, 1.0, 4.0, "Flight BC214 to Lindmouth will depart from gate three."),
    (1, 12.0, 15.0, "Gate change. Flight BC 214 to Lindmouth will now depart from gate 7, not gate 3."),
    (2, 22.0, 25.0, "Final call for flight BC 214 at gate seven."),
    (3, 30.0, 32.0, "Tomorrow it will rain in the mountains."),
]


def _memory(minilm: Any, folder: Path, monkeypatch: Any, speech: list[tuple[int, float, float, str]],
            signs: list[tuple[str, float, float]]) -> Path:
    """The known memory with vA's speech replaced by `speech` and its on-screen texts by `signs`."""
    monkeypatch.setattr(test_queries_data, "VA_SPEECH", speech)
    rows = build_rows(minilm)
    spans = rows[0].tables["ocr_spans"].to_pylist()
    edited = [{**spans[k % len(spans)], "span_id": k, "text": t, "start_s": a, "end_s": b}
              for k, (t, a, b) in enumerate(signs)]
    rows[0].tables["ocr_spans"] = rows_table(
        "ocr_spans", [{k: v for k, v in r.items() if k != "video_id"} for r in edited], "vA")
    return written(rows, folder / "vA.duckdb")


def _changes(brief: Any) -> list[Any]:
    return [i for i in brief.items if i.kind == "count" and i.text.startswith("'")]


@pytest.mark.parametrize("question", [
    "The Lindmouth flight's gate was changed: from which gate to which?",
    "Which gate was the Lindmouth flight originally departing from?",
    "What gate was the flight to Lindmouth moved to?",
])  # fmt: skip
def test_the_values_of_a_changed_thing_in_time_order(minilm: Any, tmp_path: Path, monkeypatch: Any,
                                                     question: str) -> None:
    """Shown the line that states the change ("from gate 7, not gate 3"), the model read it backwards
    (trial 10). The line with both gates dates neither; the lines with one do, the sign without the name
    joined by the flight's code."""
    signs = [("BC214 LINDMOUTH - GATE 3", 5.0, 10.0), ("BC214 - NOW GATE 7", 16.0, 28.0)]
    with open_memory(_memory(minilm, tmp_path, monkeypatch, SPEECH, signs), read_only=True) as mem:
        brief = evidence_brief(mem, question, video_id="vA", encoder=minilm)
    [item] = _changes(brief)
    assert item.text == ("'gate' in the lines about 'lindmouth', in time order: gate 3 (said at 1 s, shown at 5 s) "
                         "first, then gate 7 (shown at 16 s, said at 22 s); the change stated, both in one line: "
                         "said at 12 s")
    assert [(r["value"], r["first_s"], r["source"]) for r in item.rows] == [("3", 1.0, "said"), ("7", 16.0, "shown")]


def test_no_order_from_lines_that_only_state_the_change(minilm: Any, tmp_path: Path, monkeypatch: Any) -> None:
    """"Every 15 minutes, instead of every 10" names both values; its word order says nothing of which came
    first, and no other line gives one: nothing is computed (nor for a question that names no change)."""
    speech = [(0, 1.0, 4.0, "The shuttle bus will now run every 15 minutes, instead of every 10 minutes."),
              (1, 12.0, 15.0, "Tomorrow it will rain in the mountains.")]
    signs = [("SHUTTLE BUS EVERY 15 MINUTES 10 MINUTES", 5.0, 10.0), ("WELCOME", 16.0, 28.0)]
    with open_memory(_memory(minilm, tmp_path, monkeypatch, speech, signs), read_only=True) as mem:
        before = evidence_brief(mem, "How often did the shuttle bus run before it was changed?", video_id="vA")
    assert not _changes(before), before.items


def test_a_question_about_no_change_gets_no_values(minilm: Any, tmp_path: Path, monkeypatch: Any) -> None:
    signs = [("BC214 LINDMOUTH - GATE 3", 5.0, 10.0), ("BC214 - NOW GATE 7", 16.0, 28.0)]
    with open_memory(_memory(minilm, tmp_path, monkeypatch, SPEECH, signs), read_only=True) as mem:
        brief = evidence_brief(mem, "Which gate does the Lindmouth flight board at?", video_id="vA")
    assert not _changes(brief), brief.items


def test_a_slot_the_video_numbers_but_never_for_the_thing_asked(minilm: Any, tmp_path: Path,
                                                                 monkeypatch: Any) -> None:
    """Trial 10's "which gate does Marcus Oyelaran's flight leave from?" was answered with another flight's gate:
    the video numbers gates, and no line about him gives one. The code answers that no gate is given."""
    speech = [*SPEECH[:3], (3, 30.0, 33.0, "Would passenger Marcus Oyelaran please come to the information desk.")]
    signs = [("BC214 LINDMOUTH - GATE 3", 5.0, 10.0), ("MARCUS OYELARAN - PLEASE GO TO INFO DESK", 30.0, 40.0)]
    with open_memory(_memory(minilm, tmp_path, monkeypatch, speech, signs), read_only=True) as mem:
        unstated = evidence_brief(mem, "Which gate does Marcus Oyelaran's flight leave from?", video_id="vA")
        stated = evidence_brief(mem, "Which gate does the Lindmouth flight leave from?", video_id="vA")
        unnumbered = evidence_brief(mem, "Which desk should Marcus Oyelaran go to?", video_id="vA")
        # a thing named in a time clause says when: out15's "what wind speed was the board showing while the
        # chairlift reopening was announced?" was answered that no line about the reopening gives a wind
        during = evidence_brief(mem, "Which gate was on the sign while Marcus Oyelaran was called?", video_id="vA")
    assert not during.absent.unstated, during.absent
    assert unstated.absent.unstated == "gate", unstated.absent
    assert unstated.absent.unstated_answer() == ("The memory does not show it: this video mentions 'marcus', but "
                                                 "nothing said or shown about it gives a gate.")
    assert not stated.absent and not unnumbered.absent  # a gate given; desks never numbered in this video


def test_a_delayed_time_in_time_order(minilm: Any, tmp_path: Path, monkeypatch: Any) -> None:
    """Trial 11's "what was the departure time of ferry KD7 before it was delayed?" was answered with a scrap of
    the delay's announcement: the clock times of the ferry's lines, named by its code, in time order."""
    speech = [(0, 1.0, 4.0, "Ferry KD7 to Holtby Point is scheduled to depart at 11.40."),
              (1, 12.0, 15.0, "Ferry KD7 will now depart at 12.05, instead of 11.40, because of strong winds."),
              (2, 22.0, 25.0, "We apologise for the delay."),
              (3, 30.0, 32.0, "Tomorrow it will rain in the mountains.")]
    signs = [("KD7 HOLTBY POINT 11:40", 5.0, 10.0), ("KD7 HOLTBY POINT 12:05", 16.0, 28.0)]
    with open_memory(_memory(minilm, tmp_path, monkeypatch, speech, signs), read_only=True) as mem:
        brief = evidence_brief(mem, "What was the departure time of ferry KD7 before it was delayed?", video_id="vA")
    [item] = _changes(brief)
    assert item.text == ("'time' in the lines about 'kd7', in time order: time 11.40 (said at 1 s, shown at 5 s) "
                         "first, then time 12:05 (shown at 16 s); the change stated, both in one line: said at 12 s")


def test_a_sign_updated_in_place_lists_its_versions(minilm: Any, tmp_path: Path, monkeypatch: Any) -> None:
    """Trial 12's weather panel ("Weather: 9°C, dry", later "Weather: 13°C, sunny") gives no noun before its values:
    its versions, in time order, are the change. Two signs with the same numbers are no change."""
    signs = [("Weather: 9°C, dry", 5.0, 10.0), ("Weather: 13°C, sunny", 16.0, 28.0)]
    with open_memory(_memory(minilm, tmp_path, monkeypatch, SPEECH, signs), read_only=True) as mem:
        brief = evidence_brief(mem, "The weather panel gets updated. What temperature did it show first, and later?",
                               video_id="vA")
    [item] = [i for i in brief.items if i.kind == "count" and "on-screen texts about" in i.text]
    assert item.text == ("the on-screen texts about 'weather', in time order: \"Weather: 9°C, dry\" (shown at 5 s) "
                         "first, then \"Weather: 13°C, sunny\" (shown at 16 s)")
    same = [("Weather: 9°C, dry", 5.0, 10.0), ("Weather: 9°C, windy", 16.0, 28.0)]
    with open_memory(_memory(minilm, tmp_path / "same", monkeypatch, SPEECH, same), read_only=True) as mem:
        brief = evidence_brief(mem, "The weather panel gets updated. What did it show first?", video_id="vA")
    assert not [i for i in brief.items if i.kind == "count" and "on-screen texts about" in i.text]


@pytest.mark.parametrize(("question", "label"), [
    ("What time does Wave C set off?", "Wave C"),
    ("Where is tent K9?", "tent K9"),
    ("What happens at gate 12?", "gate 12"),
    ("What time does Wave B set off?", ""),  # shown
    ("When do Wave B runners start?", ""),
    ("Where is tent K7?", ""),  # said, beside its noun
    ("Which gate is tent K9 next to?", "tent K9"),
    ("Is the bag drop in tent K9?", ""),  # yes/no: the labels the video gives answer it
    ("What is said 5 minutes in?", ""),  # a quantity, not a label
    ("What happens at gate 5 pm?", ""),
])  # fmt: skip
def test_a_label_no_line_gives_its_thing(minilm: Any, tmp_path: Path, monkeypatch: Any, question: str,
                                         label: str) -> None:
    """Trial 12's "what time does Wave C set off?" (only WAVE B is shown) was answered with Wave B's time. A label
    the question gives a noun, when lines give that noun other labels and none this one, is stated missing, and
    the agents answer so without a call."""
    speech = [(0, 1.0, 4.0, "Bag drop is in tent K7, next to gate two."),
              (1, 12.0, 15.0, "Wave A runners, please move to the start."),
              (2, 30.0, 32.0, "Tomorrow it will rain in the mountains.")]
    signs = [("WAVE B 08:45", 5.0, 10.0), ("BAGS: TENT K7", 16.0, 28.0)]
    with open_memory(_memory(minilm, tmp_path, monkeypatch, speech, signs), read_only=True) as mem:
        brief = evidence_brief(mem, question, video_id="vA", encoder=minilm)
    assert brief.absent.label == label, brief.absent
    if label == "Wave C":
        assert brief.absent.unstated_answer() == ("The memory does not show it: this video names 'WAVE B', "
                                                  "'Wave A', never 'Wave C'.")


def test_each_showing_of_a_text_brings_the_speech_of_its_own_time(minilm: Any, tmp_path: Path,
                                                                    monkeypatch: Any) -> None:
    """out17's "what was being announced when the queue board went back to 'short'?": the board showed SHORT
    twice, and the brief read the speech under the first showing only. Each showing at that place gets its own
    lines, the speech going on as it came up among them, and says which showing it is."""
    speech = [(0, 2.0, 8.0, "Welcome to the dome."),
              (1, 21.0, 31.0, "Because of a fault in the sound system, the show is presented live."),
              (2, 40.0, 46.0, "Coaches are waiting at bay twenty three.")]
    signs = [("SHORT", 5.0, 15.0), ("20 MIN WAIT", 15.0, 27.0), ("SHORT", 27.0, 50.0)]
    monkeypatch.setattr(test_queries_data, "VA_SPEECH", speech)
    rows = build_rows(minilm)
    box = rows[0].tables["ocr_spans"].to_pylist()[0]  # one place for every sign: the board
    rows[0].tables["ocr_spans"] = rows_table("ocr_spans", [
        {**{k: v for k, v in box.items() if k != "video_id"}, "span_id": k, "text": t, "start_s": a, "end_s": b}
        for k, (t, a, b) in enumerate(signs)], "vA")
    with open_memory(written(rows, tmp_path / "vA.duckdb"), read_only=True) as mem:
        brief = evidence_brief(mem, "What was being announced when the board went back to 'short'?", video_id="vA")
    order = [i for i in brief.items if i.kind == "order" and i.source == "transcript"]
    said = {(i.start_s, i.text.partition(":")[0]) for i in order}
    assert said == {
        (2.0, 'speech while "short" (shown the 1st time, 5-15 s)'),
        (21.0, 'speech on when it showed "short" (shown the 2nd time, 27-50 s)'),
        (40.0, 'speech while "short" (shown the 2nd time, 27-50 s)'),
    }, brief.items


def test_a_hit_names_the_other_kind_of_its_time_only_when_that_is_one_moment(minilm: Any, tmp_path: Path,
                                                                             monkeypatch: Any) -> None:
    """out17's queue board heading QUEUE, up for 350 of 360 s, listed as 'said then' the first three of the lines
    said in those minutes, and "what did the board say at 2:00?" was answered with them. A text up for a third of
    the video or more names no speech; a shorter one does; a speech line names the texts on then, the shortest (most
    of that moment) three, in time order."""
    speech = [(k, 5.0 * k + 1, 5.0 * k + 3, f"Announcement number {k} about the {w} exhibit.")
              for k, w in enumerate(["whale", "comet", "volcano", "robot"])]  # vA is 20 s long
    signs = [("QUEUE", 0.0, 20.0), ("WHALE TALK 11:00", 0.0, 4.0), ("TOUR", 0.0, 15.0), ("CAFE OPEN", 1.0, 5.0),
             ("LIFT", 0.0, 19.0), ("COMET SHOW", 5.0, 9.0)]
    with open_memory(_memory(minilm, tmp_path, monkeypatch, speech, signs), read_only=True) as mem:
        brief = evidence_brief(mem, "What did the queue sign say, what about the whale exhibit and the comet show?",
                               video_id="vA", encoder=minilm, digest_rows=0)  # a long video's: the hits alone
    hits = {i.text.split(": ", 1)[-1]: i.context for i in brief.items if i.kind == "hit"}
    assert hits['"QUEUE"'] is None, brief.items
    assert hits['"COMET SHOW"'] == 'said then: "Announcement number 1 about the comet exhibit."', brief.items
    whale = next(c for t, c in hits.items() if "whale exhibit" in t)
    assert whale == 'on screen then: "WHALE TALK 11:00"; "TOUR"; "CAFE OPEN"', whale  # not QUEUE nor LIFT
