"""Names speech recognition wrote as other words (queries/heard.py), found by sound, in the brief's search, its
notes, its counts and its absence check. The transcript lines are faster-whisper's, as it wrote them of a
station video whose espeak announcements say "Falkenjoch Gondola" three times and "Birkenhang chairlift" twice
(out15, kept outside the project). No LLM."""

from typing import Any

import pytest

from agents.brief_text import brief_text
from memory import open_memory
from queries import evidence_brief
from queries.heard import asked_names, heard_spans, sound_key
from tests.test_queries_data import speech_and_signs

#: (start_s, end_s, text) as faster-whisper heard them
SPEECH = [
    (4.6, 8.4, "Good morning, and welcome to Hot World Malistation."),
    (8.4, 13.5, "The Falcon Dock and Dole are open at 8.30, and tickets are sold at counter 3."),
    (29.6, 36.1, "Attention please, the Birken Heng chair lift is paused for 20 minutes due to strong gusts."),
    (122.9, 128.2, "A blue blood with a reindeer pattern was found in Gondola cabin 14."),
    (167.5, 174.5, "Here is an update on the Birkenhahn chairlift, it has reopened."),
    (217.4, 221.3, "guest with the panorama pass may ride the falcon jock andola up to the summit"),
    (237.4, 241.5, "gondola platform because the new rubber flooring is still being fitted"),
    (311.5, 317.0, "Would the parents of a boy named Lucas please come to the information desk."),
    (333.7, 337.1, "Last call for the Falcon Joker and Ola is at 4.15."),
]
SIGNS = [(0.0, 24.0, "SUMMIT WIND 18 km/h"), (349.0, 357.0, "Last gondola down: 16:45")]


@pytest.fixture(scope="module")
def station(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path = tmp_path_factory.mktemp("heard") / "station.duckdb"
    with open_memory(speech_and_signs(path, "vS", "valley_station.mp4", 358.0, SPEECH, SIGNS), read_only=True) as mem:
        yield mem


@pytest.mark.parametrize(("name", "text", "heard"), [
    ("Falkenjoch Gondola", SPEECH[1][2], ["Falcon Dock and Dole"]),
    ("Falkenjoch Gondola", SPEECH[5][2], ["falcon jock andola"]),
    ("Falkenjoch Gondola", SPEECH[8][2], ["Falcon Joker and Ola"]),
    ("Birkenhang", SPEECH[2][2], ["Birken Heng"]),
    ("Birkenhang", SPEECH[4][2], ["Birkenhahn"]),
    ("Theo Marchetti", "Congratulations to Theo Machetti on his win.", ["Theo Machetti"]),  # not 'to Theo ...'
    # other words: no name is heard in them
    ("Falkenjoch Gondola", SPEECH[3][2], []),
    ("Birkenhang", SPEECH[6][2], []),
    ("Adlerhorst", "the hot chocolate stand on the terrace closes at noon", []),
])
def test_runs_of_words_that_sound_like_a_name(name: str, text: str, heard: list[str]) -> None:
    assert heard_spans(name, text) == heard


def test_short_names_and_names_spelled_right_are_not_looked_for() -> None:
    assert len(sound_key("Lucas")) < 5 and heard_spans("Lucas", "a boy named Lukas") == []
    assert asked_names("Where should the parents of Lucas go?", {"lucas"}) == []
    assert asked_names("When does the Gondola open?", {"gondola"}) == []
    assert asked_names("When does the Falkenjoch Gondola open?", {"gondola"}) == ["Falkenjoch Gondola"]


def test_the_brief_finds_marks_and_notes_the_heard_name(station: Any) -> None:
    brief = evidence_brief(station, "What time does the Falkenjoch Gondola open?", video_id="vS")
    assert [s for _, s in brief.heard["Falkenjoch Gondola"]] == [
        "Falcon Dock and Dole", "falcon jock andola", "Falcon Joker and Ola"]
    best = brief.items[0]
    assert best.source == "transcript" and best.start_s == 8.4  # not the sign 'Last gondola down'
    text = brief_text(brief, 900)
    assert "may have written 'Falkenjoch Gondola' as words that sound like it" in text
    assert '"Falcon Dock and Dole" (8.4 s)' in text


def test_a_count_of_the_announcements_that_name_it_counts_the_heard_name(station: Any) -> None:
    brief = evidence_brief(station, "How many separate announcements mention the Falkenjoch Gondola by name?",
                           video_id="vS")
    count = next(i for i in brief.items if i.kind == "count")
    assert count.rows[0]["counted"] == 3  # not the 2 lines that say 'gondola' alone
    assert {r["start_s"] for r in count.rows[1:]} >= {8.4, 217.4, 333.7} or "3 of the" in count.text


def test_a_heard_name_is_not_called_missing(station: Any) -> None:
    heard = evidence_brief(station, "What is said about Birkenhang?", video_id="vS")
    assert heard.heard and not heard.absent
    missing = evidence_brief(station, "What is said about Zugspitzbahn?", video_id="vS")
    assert missing.absent.words == ("zugspitzbahn",) and not missing.heard
