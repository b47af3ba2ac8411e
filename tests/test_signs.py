"""On-screen text spans read as signs (`queries.signs`): the lines of one panel are one text in the brief."""

from pathlib import Path
from typing import Any

from memory import open_memory, rows_table
from queries import evidence_brief
from queries.signs import signs
from tests.test_queries_data import build_rows, written


def _span(i: int, text: str, a: float, b: float, y: float, x: tuple[float, float] = (940.0, 1240.0)) -> dict[str, Any]:
    return {"span_id": i, "text": text, "start_s": a, "end_s": b, "x1": x[0], "x2": x[1], "y1": y, "y2": y + 38.0}


def test_a_panel_read_line_by_line_and_in_pieces_is_one_sign() -> None:
    """Trial 11's corner panel: its second row read whole, then as two pieces, while its first row stays."""
    rows = [_span(3, "FS41 MARROW ISLAND", 27, 55, 29, (35, 561)), _span(4, "10:15 BERTH B12", 27, 29, 76, (35, 461)),
            _span(5, "BERTH B12", 30, 31, 76, (201, 461)), _span(6, "10:15", 30, 31, 76, (37, 220)),
            _span(7, "10:15 BERTH B12", 32, 44, 76, (36, 461)), _span(8, "10:15", 45, 55, 76, (36, 219)),
            _span(9, "BERTH B12", 45, 55, 76, (202, 460))]
    [sign] = signs(rows)
    assert (sign.text, sign.start_s, sign.end_s) == ("FS41 MARROW ISLAND / 10:15 BERTH B12", 27.0, 55.0)
    assert sorted(sign.span_ids) == [3, 4, 5, 6, 7, 8, 9]


def test_a_line_that_comes_up_later_under_a_banner_is_a_text_of_its_own() -> None:
    """Trial 10's yellow line came and went under a banner on all along: two texts, as the viewer counts them;
    and text at another place of the frame, shown at the same time, is another sign."""
    rows = [_span(0, "HARROWFIELD AIRPORT", 0, 221, 20, (100, 900)),
            _span(1, "CAFE OPENS 10:30", 94, 115, 62, (100, 700)), _span(2, "FREE WI-FI", 0, 221, 620, (100, 900))]
    assert [s.text for s in signs(rows)] == ["HARROWFIELD AIRPORT", "FREE WI-FI", "CAFE OPENS 10:30"]


def test_the_brief_counts_a_two_line_label_once(minilm: Any, tmp_path: Path) -> None:
    """Trial 11's right-hand labels (TICKET DESKS / 3 TO 6, ...) counted two texts each: "how many different
    labels" was answered that the memory does not show it beside 37 texts for 23."""
    rows = build_rows(minilm)
    spans = rows[0].tables["ocr_spans"].to_pylist()
    labels = [("TICKET DESKS", 2.0, 6.0, 942.0, 1239.0, 315.0), ("3 TO 6", 2.0, 6.0, 941.0, 1083.0, 358.0),
              ("LIFT A3", 8.0, 12.0, 895.0, 1053.0, 314.0), ("OUT OF SERVICE", 8.0, 12.0, 896.0, 1239.0, 358.0)]
    edited = [{**spans[0], "span_id": k, "text": t, "start_s": a, "end_s": b, "x1": x1, "x2": x2, "y1": y,
               "y2": y + 38.0} for k, (t, a, b, x1, x2, y) in enumerate(labels)]
    rows[0].tables["ocr_spans"] = rows_table(
        "ocr_spans", [{k: v for k, v in r.items() if k != "video_id"} for r in edited], "vA")
    with open_memory(written(rows, tmp_path / "vA.duckdb"), read_only=True) as mem:
        brief = evidence_brief(mem, "How many different labels are shown on screen?", video_id="vA")
    assert brief.facts is not None
    assert [t for t, _, _ in brief.facts.texts] == ["TICKET DESKS / 3 TO 6", "LIFT A3 / OUT OF SERVICE"]
    counted = next(i for i in brief.items if i.kind == "count")
    assert counted.text.startswith("2 different on-screen texts"), counted.text


def test_lines_set_apart_or_gone_before_their_heading_are_texts_of_their_own() -> None:
    """out17: a camera label in the top-left corner and a centred banner just under it, both up from 0 s, read as one
    sign (the banner's texts were one short); a menu board's changing line GINGER & PEAR (5-69 s) came up with its
    heading CAKE OF THE DAY (5-177 s), and 'CAKE OF THE DAY / GINGER & PEAR' was on at 100 s. A left-aligned board's
    heading and the line under it that stays as long are still one sign."""
    rows = [_span(0, "QSH LUMEN ATRIUM CAM 2", 0, 599, 4, (6, 349)),
            _span(1, "FAMILY DISCOVERY WEEKEND", 0, 51, 45, (116, 523)),
            _span(2, "CAKE OF THE DAY", 5, 177, 100, (382, 627)), _span(3, "GINGER & PEAR", 5, 69, 145, (382, 597)),
            _span(4, "LEMON DRIZZLE", 70, 131, 145, (381, 599)),
            _span(5, "DOME", 10, 300, 200, (11, 98)), _span(6, "NEXT SHOW 10:15", 10, 300, 245, (12, 263))]
    assert sorted(s.text for s in signs(rows)) == ["CAKE OF THE DAY", "DOME / NEXT SHOW 10:15",
                                                  "FAMILY DISCOVERY WEEKEND",
                                                  "GINGER & PEAR", "LEMON DRIZZLE", "QSH LUMEN ATRIUM CAM 2"]


_TWO_BOARDS = [("BUS 47", 10.0, 16.0, 112.0), ("EVERY 12 MIN", 10.0, 16.0, 141.0),
               ("PARKING", 17.0, 20.0, 112.0), ("LEVEL 2 FULL", 17.0, 20.0, 141.0)]


def _board_memory(minilm: Any, tmp_path: Path, board: list[tuple[str, float, float, float]] = _TWO_BOARDS) -> Path:
    """vA with a board of two lines on the right (out19's side board): by default BUS 47 / EVERY 12 MIN from 10 s,
    while the rain is forecast (12-14 s), then PARKING / LEVEL 2 FULL."""
    rows = build_rows(minilm)
    spans = rows[0].tables["ocr_spans"].to_pylist()
    edited = [{**spans[0], "span_id": k, "text": t, "start_s": a, "end_s": b, "x1": 500.0, "x2": 620.0, "y1": y,
               "y2": y + 26.0} for k, (t, a, b, y) in enumerate(board)]
    rows[0].tables["ocr_spans"] = rows_table(
        "ocr_spans", [{k: v for k, v in r.items() if k != "video_id"} for r in edited], "vA")
    return written(rows, tmp_path / "vA.duckdb")


def test_a_board_of_two_lines_is_one_text_in_the_brief(minilm: Any, tmp_path: Path) -> None:
    """out19: the side board, shown as its two lines, was answered "BUS 47" for what it showed while something was
    said and "PARKING" for what it changed to. Its lines are one text, wherever the brief shows the board; a question
    for one of its lines still gets that line."""
    with open_memory(_board_memory(minilm, tmp_path), read_only=True) as mem:
        def marked(question: str) -> str:
            top = evidence_brief(mem, question, video_id="vA").best_match
            assert top is not None, question
            return top.text

        assert marked("What did the board on the right show while the rain in the mountains was forecast?").endswith(
            '"BUS 47 / EVERY 12 MIN"')
        assert marked("What did the board on the right change to after BUS 47 EVERY 12 MIN?").endswith(
            '"PARKING / LEVEL 2 FULL"')
        asked_line = evidence_brief(mem, "What does the second line of the board on the right say at 0:18?",
                                    video_id="vA")
        assert any(i.text.endswith('"LEVEL 2 FULL"') for i in asked_line.items if i.source == "ocr_spans")
        brief = evidence_brief(mem, "What did the board on the right change to after BUS 47 EVERY 12 MIN?",
                               video_id="vA")
        shown = [i.text for i in brief.items if i.source == "ocr_spans"]
        assert not any(t.endswith('"EVERY 12 MIN"') or t.endswith('"LEVEL 2 FULL"') for t in shown), shown


def test_a_changed_line_under_a_heading_is_found_on_its_own_line(minilm: Any, tmp_path: Path) -> None:
    """out19's loading yard board: its heading BAY 1 stayed (read 'BAY 1' and 'BAY1' by turns) while the line under it
    changed, and "what did the board on the side show right before it changed to BAY 1 BAKERS?" was answered with the
    heading's last read, BAY 1. What BAKERS took the place of is the text before it on its own line."""
    board = [("BAY 1", 10.0, 14.0, 112.0), ("BAY1", 14.5, 20.0, 112.0), ("GROCERS", 10.0, 13.0, 141.0),
             ("FLORISTS", 13.5, 16.0, 141.0), ("BAKERS", 16.5, 20.0, 141.0)]
    assert [s.text for s in signs([{"span_id": k, "text": t, "start_s": a, "end_s": b, "x1": 500.0, "x2": 620.0,
                                    "y1": y, "y2": y + 26.0} for k, (t, a, b, y) in enumerate(board)])] == \
        ["BAY1", "GROCERS", "FLORISTS", "BAKERS"]  # the heading one text, the lines under it each one
    with open_memory(_board_memory(minilm, tmp_path, board), read_only=True) as mem:
        top = evidence_brief(mem, "what did the board on the right show right before it changed to BAY 1 BAKERS",
                             video_id="vA").best_match
    assert top is not None and top.text.endswith('"FLORISTS"'), top


def test_a_line_read_by_turns_is_one_hit_with_its_whole_time(minilm: Any, tmp_path: Path) -> None:
    """out19's side board heading BAY 1, read 'BAY 1' and 'BAY1' by turns (eight spans), filled the six search hits of
    "why is bay three closed?", and the sentence giving the reason was left out of the brief."""
    board = [(t, 3.5 * n, 3.5 * n + 3.0, 112.0) for n, t in enumerate(["BAY 1", "BAY1"] * 3)]
    with open_memory(_board_memory(minilm, tmp_path, board), read_only=True) as mem:
        brief = evidence_brief(mem, "Why will bay 1 be closed tomorrow in the mountains?", video_id="vA",
                               encoder=minilm, digest_rows=0)
    hits = [i for i in brief.items if i.kind == "hit"]
    assert [(i.start_s, i.end_s) for i in hits if i.source == "ocr_spans"] == [(0.0, 20.5)], hits
    assert any("Tomorrow it will rain" in i.text for i in hits), hits


def test_a_quote_a_sign_reads_over_its_lines_is_read(minilm: Any, tmp_path: Path) -> None:
    """out17's "what did the sign on the right say before it changed to 'EXIT VIA ORCHARD LANE'?" got "nothing reads
    it" beside the sign EXIT VIA / ORCHARD LANE, two lines; a quote no line nor sign reads is still missing."""
    from queries.absent import absent_from_video

    with open_memory(_board_memory(minilm, tmp_path), read_only=True) as mem:
        assert absent_from_video(mem, "vA", "What came up after 'BUS 47 EVERY 12 MIN'?").quoted == ()
        assert absent_from_video(mem, "vA", "What came up after 'BUS 48 EVERY 12 MIN'?").quoted == (
            "BUS 48 EVERY 12 MIN",)


def test_a_heading_that_stays_reads_with_the_line_under_it_then(minilm: Any, tmp_path: Path) -> None:
    """out19's fish hall board kept ICE DELIVERY while BAY 5, then BAY 2, came under it: its sign read 'ICE DELIVERY /
    BAY 2' from the start, and "what was on the side board while the auction room was announced?" (BAY 5 then) was
    answered ICE DELIVERY. The board while something is said is its lines on then; the heading alone is no sign of
    the line that came up late under it."""
    board = [("ICE DELIVERY", 0.0, 20.0, 112.0), ("BAY 2", 0.0, 7.5, 141.0), ("BAY 5", 8.0, 15.0, 141.0),
             ("BAY 2", 15.5, 20.0, 141.0)]
    spans = [{"span_id": k, "text": t, "start_s": a, "end_s": b, "x1": 500.0, "x2": 620.0, "y1": y, "y2": y + 26.0}
             for k, (t, a, b, y) in enumerate(board)]
    assert "ICE DELIVERY / BAY 2" in [s.text for s in signs(spans)]  # BAY 2 read before and after BAY 5
    with open_memory(_board_memory(minilm, tmp_path, board), read_only=True) as mem:
        brief = evidence_brief(mem, "What was on the board on the right while the rain in the mountains was forecast?",
                               video_id="vA")
        top = brief.best_match
        assert top is not None and top.text.endswith('"ICE DELIVERY / BAY 5"') and (top.start_s, top.end_s) == (
            8.0, 15.0), top
        other = evidence_brief(mem, "What did the board on the right say first?", video_id="vA", digest_rows=0)
        assert not any("BAY 2" in i.text for i in other.items if i.item_id == 0), other.items


def test_a_sign_found_by_two_of_its_lines_is_read_once(minilm: Any, tmp_path: Path) -> None:
    """out20's three-line board FEEDING PLATFORM / OPEN 2:00 - 4:00 / TICKETS 3.00 was found by its second and third
    lines, and shown whole twice."""
    board = [("FEEDING PLATFORM", 10.0, 16.0, 112.0), ("OPEN 2:00 - 4:00", 10.0, 16.0, 141.0),
             ("TICKETS 3.00", 10.0, 16.0, 170.0)]
    with open_memory(_board_memory(minilm, tmp_path, board), read_only=True) as mem:
        brief = evidence_brief(mem, "Is it open from 2:00 to 4:00, and are tickets 3.00?", video_id="vA",
                               encoder=minilm, digest_rows=0)
    hits = [i.text for i in brief.items if i.kind == "hit" and i.source == "ocr_spans"]
    assert hits == ['on-screen text: "FEEDING PLATFORM / OPEN 2:00 - 4:00 / TICKETS 3.00"'], hits
