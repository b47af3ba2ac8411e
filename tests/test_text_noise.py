"""Likely OCR noise (queries/text_noise.py): kept in the memory, left out of the brief's counts and
whole-video lines, marked and ranked last where a search finds it, ranked down in archive search."""

from typing import Any

import pytest

from agents.brief_text import brief_text
from memory import open_memory, rows_table
from queries import evidence_brief, search_archive
from queries.text_noise import noise_reason, noisy_spans, video_scripts
from tests.test_queries_data import build_rows, written

LATIN = frozenset({"Latin"})


@pytest.mark.parametrize(
    ("text", "start", "end", "frames", "why"),
    [
        ("M", 0.0, 4.0, 5, "a lone glyph"),
        ("。", 0.0, 4.0, 5, "a lone glyph"),
        ("#1", 0.0, 4.0, 5, None),  # a number alone is a gate or a platform: kept
        ("ΕΞΟΔΟΣ", 0.0, 4.0, 5, "Greek, which no other text of the video uses"),
        ("GATE 5", 3.0, 3.0, None, "seen in one frame only"),
        ("GATE 5", 3.0, 3.5, 1, "seen in one frame only"),
        ("GATE 5", 3.0, 3.5, 2, None),
        ("Café 7", 0.0, 9.0, 10, None),
    ],
)
def test_noise_reasons(text: str, start: float, end: float, frames: int | None, why: str | None) -> None:
    assert noise_reason(text, start, end, LATIN, num_frames=frames) == why


def test_a_bilingual_video_keeps_both_scripts() -> None:
    texts = ["Ausgang links", "ВЫХОД", "ВХОД СЛЕВА", "Eingang rechts"]
    assert video_scripts(texts) == {"Latin", "Cyrillic"}
    assert noise_reason("ВЫХОД", 0.0, 4.0, video_scripts(texts)) is None


@pytest.fixture(scope="module")
def noisy(minilm: Any, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The known memory's vA (speech, 'PLATFORM 9 EXIT' 4-9 s, 'CAMERA 2 NORTH GATE' 15-16 s) with
    four stray reads added: a lone glyph, a Greek word, a one-frame flash and 'PLATFORM 9' read as the first
    text went (trial 10's TAXIS AND BUSES: around TAXIS AND BUSES: EXIT B)."""
    rows = build_rows(minilm)
    va = rows[0]
    spans = va.tables["ocr_spans"].to_pylist()
    extra = [(10, 6.0, 7.0, "Ж", 2), (11, 10.0, 12.0, "ΕΞΟΔΟΣ ΠΛΑΤΦΟΡΜΑ", 3), (12, 17.0, 17.0, "EXIT NOW", 1),
             (13, 9.5, 10.5, "PLATFORM 9", 2)]
    for i, s, e, t, n in extra:
        spans.append({**spans[0], "span_id": i, "start_s": s, "end_s": e, "text": t, "num_frames": n})
    va.tables["ocr_spans"] = rows_table("ocr_spans", [{k: v for k, v in r.items() if k != "video_id"} for r in spans],
                                        "vA")
    with open_memory(written(rows, tmp_path_factory.mktemp("noise") / "noise.duckdb"), read_only=True) as mem:
        yield mem


def test_noise_is_kept_and_named(noisy: Any) -> None:
    assert noisy.query("SELECT count(*) AS n FROM ocr_spans WHERE video_id = 'vA'").to_pylist()[0]["n"] == 6
    assert noisy_spans(noisy, "vA") == {
        10: "a lone glyph", 11: "Greek, which no other text of the video uses", 12: "seen in one frame only",
        13: "part of 'PLATFORM 9 EXIT', read as it came up or went",
    }


def test_the_brief_counts_and_shows_texts_without_the_noise(noisy: Any) -> None:
    brief = evidence_brief(noisy, "How many different signs are shown?", video_id="vA")
    assert brief.facts is not None and brief.facts.noise == 4
    assert [t for t, _, _ in brief.facts.texts] == ["PLATFORM 9 EXIT", "CAMERA 2 NORTH GATE"]
    assert brief.whole_text == 3 + 2  # speech and the two real texts: the digest leaves the noise out
    text = brief_text(brief, 800)
    assert "2 different on-screen texts" in text and "besides 4 rows of likely OCR noise" in text
    assert "Ж" not in text and "EXIT NOW" not in text
    assert "note: these are all 5 lines" in text


def test_a_hit_on_noise_is_marked_and_ranked_last(noisy: Any, minilm: Any) -> None:
    brief = evidence_brief(noisy, "When does the text 'EXIT NOW' flash on screen?", video_id="vA", encoder=minilm)
    flash = next(i for i in brief.items if i.item_id == 12 and i.source == "ocr_spans")
    assert flash.noise == "seen in one frame only" and flash.match == 0.0
    assert brief.best_match is None or brief.best_match.item_id != 12
    assert "(likely OCR noise: seen in one frame only)" in brief_text(brief, 800)


def test_archive_search_ranks_noise_down(noisy: Any) -> None:
    hits = search_archive(noisy, "exit", kinds=["text"], k=5).hits
    assert [h.text for h in hits][:1] == ["PLATFORM 9 EXIT"]
    flash = next(h for h in hits if h.text == "EXIT NOW")
    assert flash.noise == "seen in one frame only"
