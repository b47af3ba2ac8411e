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
