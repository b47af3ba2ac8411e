"""`vidmem check` on real memories (the two speech clips ingested with ASR): sound, rows removed
behind vidmem's back, and a file cut in half (issue 25: a damaged memory is found, never written)."""

import shutil
from pathlib import Path

import duckdb
import pytest

from vidmem.cli import main


def _check(capsys: pytest.CaptureFixture[str], path: Path, *extra: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["check", "-m", str(path), *extra])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_sound_memory_reads_whole(asr_memory: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.duckdb"
    shutil.copy(asr_memory, path)
    before = path.read_bytes()
    code, out, _ = _check(capsys, path)
    assert code == 0 and out.splitlines()[-1] == "sound", out
    assert "transcript_words" in out and "rows read" in out
    assert path.read_bytes() == before  # a check changes nothing


def test_rows_removed_behind_vidmems_back_are_named(
    asr_memory: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "m.duckdb"
    shutil.copy(asr_memory, path)
    with duckdb.connect(str(path)) as con:
        video_id, path_of = con.execute("SELECT video_id, path FROM videos ORDER BY path LIMIT 1").fetchone()
        stored = con.execute("SELECT count(*) FROM transcript_words WHERE video_id = ?", [video_id]).fetchone()[0]
        con.execute("DELETE FROM transcript_words WHERE video_id = ? AND segment_id = 0 AND word_index = 0", [video_id])
    code, out, _ = _check(capsys, path)
    assert code == 1, out
    assert f"problem: {path_of}: transcript_words holds {stored - 1} rows, its role recorded storing {stored}" in out


def test_a_memory_cut_in_half_is_refused_in_one_line(
    asr_memory: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cut.duckdb"
    data = asr_memory.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    code, _, err = _check(capsys, path)
    assert code == 1 and "damaged" in err and len(err.strip().splitlines()) == 1, err
    assert path.read_bytes() == data[: len(data) // 2]


def _cut_that_duckdb_opens(memory: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A copy of `memory` cut short where DuckDB still opens it (its catalog intact; where that is
    depends on the file's layout): the refusal then offers to salvage."""
    damaged = tmp_path / "cut.duckdb"
    whole = memory.read_bytes()
    for keep in (0.9, 0.8, 0.7, 0.6, 0.5):
        damaged.write_bytes(whole[: int(len(whole) * keep)])
        capsys.readouterr()
        assert main(["info", "-m", str(damaged)]) == 1
        if "--salvage" in capsys.readouterr().err:
            return damaged
    pytest.fail("no cut of the memory left a catalog DuckDB could open")


@pytest.mark.parametrize("target", ["salvaged.duckdb", "salvaged-parquet"])
def test_what_is_readable_of_a_damaged_memory_can_be_salvaged(
    serve_memory: Path, tmp_path: Path, target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The refusal's advice works: `vidmem export --salvage` copies every table still readable whole,
    names the lost ones, exits 1, and leaves the damaged file as it was."""
    from memory import read_parquet_export

    damaged = _cut_that_duckdb_opens(serve_memory, tmp_path, capsys)
    data = damaged.read_bytes()
    code = main(["export", str(tmp_path / target), "--salvage", "-m", str(damaged)])
    out, err = capsys.readouterr()
    lost = [line for line in err.splitlines() if line.startswith("lost: ")]
    assert code == 1 and lost and all("could not be read" in line for line in lost), err
    assert out.startswith("exported ") and damaged.read_bytes() == data
    if target.endswith(".duckdb"):
        with duckdb.connect(str(tmp_path / target), read_only=True) as con:
            saved = {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in ("role_runs", "detections")}
    else:
        tables = read_parquet_export(tmp_path / target)
        saved = {t: tables[t].num_rows for t in ("role_runs", "detections") if t in tables}
    assert sum(saved.values()) > 0, saved  # something came back


def test_ingesting_a_video_into_a_damaged_memory_stops_at_once(
    serve_memory: Path, media: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A real video into a memory cut in half: the writer took the damage for another process's lock
    ('block_id' in DuckDB's message holds 'lock') and waited ten minutes. Now one line, exit 1."""
    import time

    damaged = _cut_that_duckdb_opens(serve_memory, tmp_path, capsys)  # its check's error names block_id
    data = damaged.read_bytes()
    start = time.monotonic()
    code = main(["ingest", str(media["speech_count"]), "--only", "asr", "-m", str(damaged)])
    err = capsys.readouterr().err
    assert code == 1 and "is damaged" in err and "keeps open" not in err, err[-800:]
    assert time.monotonic() - start < 120 and damaged.read_bytes() == data
