"""The held-out sets' facts sheets (bench/qset/heldout{N}_facts.md) are what bench/qset/facts.py writes from
the spec: heldout21 to heldout27 byte for byte. Older sheets word the footage differently (see facts.py), but
every spoken sentence, end time, on-screen text and people count in them is still what it writes. Runs
espeak-ng for the spoken end times, as the other qset tests do."""

from pathlib import Path

import pytest

from bench.qset import facts, spec

# The sheets facts.py reproduces byte for byte: heldout21 on, a new set's too (one entry in HANDWRITTEN_SETS).
EXACT = [n for n in spec.HANDWRITTEN_SETS if n >= 21]
# heldout8..20 differ only in these lines: the footage words (table row, Scene line) and, in 8-10, the
# number word the notes give as an example.
OLDER = [n for n in spec.HANDWRITTEN_SETS if n < 21]
FOOTAGE_LINE = ("- Scene: ", "| ", "- The voice says numbers in words")


@pytest.mark.parametrize("n", EXACT)
def test_sheet_is_what_facts_writes(n: int) -> None:
    path = facts.default_path(f"heldout{n}")
    assert facts.set_sheet(f"heldout{n}") == path.read_text(), f"run: python -m bench.qset.facts heldout{n}"


@pytest.mark.parametrize("n", OLDER)
def test_older_sheet_differs_only_in_footage_words(n: int) -> None:
    wrote = facts.set_sheet(f"heldout{n}").splitlines()
    sheet = facts.default_path(f"heldout{n}").read_text().splitlines()
    assert len(wrote) == len(sheet)
    differ = [(a, b) for a, b in zip(wrote, sheet, strict=True) if a != b]
    assert differ, f"heldout{n}'s sheet is now reproduced exactly: add it to EXACT"
    assert all(a.startswith(FOOTAGE_LINE) and b.startswith(FOOTAGE_LINE) for a, b in differ), differ


def test_ordinals() -> None:
    words = {1: "first", 8: "eighth", 12: "twelfth", 20: "twentieth", 21: "twenty-first", 27: "twenty-seventh"}
    assert {n: facts.ordinal_words(n) for n in words} == words


def test_command_checks_and_writes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert facts.main(["heldout27", "--check", "--out", str(facts.default_path("heldout27"))]) == 0
    out = tmp_path / "sheet.md"
    assert facts.main(["heldout27", "--out", str(out)]) == 0
    assert out.read_text() == facts.default_path("heldout27").read_text()
    out.write_text(out.read_text().replace("twenty-seventh", "twenty-eighth"))
    assert facts.main(["heldout27", "--check", "--out", str(out)]) == 1
    capsys.readouterr()
    assert facts.main(["heldout27", "--out", "-"]) == 0
    assert capsys.readouterr().out == out.read_text().replace("twenty-eighth", "twenty-seventh")
    with pytest.raises(SystemExit):
        facts.main(["heldout99"])
