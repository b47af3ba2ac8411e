"""`vidmem search` over a real archive (the question set's videos, ingested with ASR, OCR and text
embeddings): hits name their file and time, kinds filter, one video can be named by its file."""

import json
import re
from pathlib import Path

import pytest

from vidmem.cli import main


def _search(capsys: pytest.CaptureFixture[str], memory: Path, *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    try:
        code = main(["search", *argv, "-m", str(memory)])
    except SystemExit as exc:  # argparse's usage errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_hits_across_the_archive_name_file_time_kind_and_score(
    qset_memory: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _search(capsys, qset_memory, "platform", "--kind", "speech", "--kind", "text", "-k", "6")
    assert code == 0, out
    lines = [line for line in out.splitlines() if not line.startswith("note:")]
    assert len(lines) == 6
    for line in lines:
        assert re.match(r'^\S+\.mp4  \d+:\d\d\.\d(-\d+:\d\d\.\d)?  (speech|text) +".+"  \d\.\d{3}$', line), line
    assert len({line.split()[0] for line in lines}) > 1  # several videos: an archive-wide search
    assert "platform" in lines[0].lower()


def test_json_hits_carry_the_file_and_keep_the_asked_kind(
    qset_memory: Path, qset_videos: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _search(capsys, qset_memory, "gate", "--kind", "text", "--format", "json")
    assert code == 0
    hits = json.loads(out)["hits"]
    assert hits and {h["kind"] for h in hits} == {"text"}
    assert {Path(h["path"]).name for h in hits} <= {p.name for p in qset_videos.values()}
    assert all(h["start_s"] <= h["end_s"] and h["match"] for h in hits)


def test_one_video_by_its_file_name(qset_memory: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _search(capsys, qset_memory, "platform", "--format", "json")
    first = Path(json.loads(out)["hits"][0]["path"]).name
    code, out, _ = _search(capsys, qset_memory, "platform", "--video", first, "--format", "json")
    assert code == 0 and {Path(h["path"]).name for h in json.loads(out)["hits"]} == {first}
    stem = Path(first).stem  # the name said without its type, as people do
    code, out, _ = _search(capsys, qset_memory, "platform", "--video", stem, "--format", "json")
    assert code == 0 and {Path(h["path"]).name for h in json.loads(out)["hits"]} == {first}
    code, _, err = _search(capsys, qset_memory, "platform", "--video", stem[:-1])
    assert code == 1 and f"no ingested video matches {stem[:-1]!r}" in err


def test_mistakes_get_one_line(qset_memory: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _search(capsys, qset_memory, "platform", "--video", "no_such_clip.mp4")
    assert code == 1 and "no ingested video matches 'no_such_clip.mp4'" in err and len(err.splitlines()) == 1
    code, _, err = _search(capsys, qset_memory, "platform", "--kind", "sound")
    assert code == 2 and "invalid choice: 'sound'" in err
