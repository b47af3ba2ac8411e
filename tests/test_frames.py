"""Decoding the sampling plan: the same frames and times decord gives, and a truncated file said in words."""

import subprocess
from pathlib import Path

import numpy as np
import pytest

from ingest import IngestSettings, ingest_video
from ingest.errors import BadVideoError
from ingest.media.frames import decode, sampling_plan
from ingest.media.probe import probe
from memory import open_memory


@pytest.mark.parametrize("clip", ["speech_sign", "vtest", "weird_codec"])
def test_planned_frames_and_times_match_decord(media: dict[str, Path], clip: str) -> None:
    import decord

    info = probe(media[clip])
    plan = {i: roles for i, roles in sampling_plan(info, {"tracking": 5.0, "ocr": 1.0}).items() if i < 60}
    frames = [f for batch in decode(info, plan, 8, "cpu") for f in batch.frames]
    assert [f.index for f in frames] == sorted(plan)
    assert all(f.roles == plan[f.index] for f in frames)
    reader = decord.VideoReader(str(media[clip]), ctx=decord.cpu(0))
    stamps = np.round(np.asarray(reader.get_frame_timestamp(sorted(plan)))[:, 0].astype(np.float64), 3)
    assert [f.t_s for f in frames] == pytest.approx(stamps.tolist(), abs=0.0011)
    expected = reader.get_batch(sorted(plan)).asnumpy()
    for frame, image in zip(frames, expected, strict=True):
        assert frame.image.shape == image.shape and frame.image.dtype == np.uint8
        # the same FFmpeg decoder and RGB conversion: at most a rounding step on a few pixels
        diff = np.abs(frame.image.astype(np.int16) - image.astype(np.int16))
        assert diff.max() <= 2 and diff.mean() < 0.01, (frame.index, diff.max(), diff.mean())


def test_a_variable_frame_rate_file_keeps_its_own_times(media: dict[str, Path]) -> None:
    info = probe(media["vfr"])
    plan = sampling_plan(info, {"tracking": 5.0})
    frames = [f for batch in decode(info, plan, 16, "cpu") for f in batch.frames]

    def true_time(index: int) -> float:  # 10 fps for 2 s, 5 fps for 2 s, then 2 fps (truth.json: vfr)
        if index < 20:
            return index * 0.1
        return 2.0 + (index - 20) * 0.2 if index < 30 else 4.0 + (index - 30) * 0.5

    assert len(frames) >= 20 and frames[-1].index >= 30
    assert [f.t_s for f in frames] == pytest.approx([true_time(f.index) for f in frames], abs=1e-6)


@pytest.fixture(scope="module")
def truncated_front_index(media: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """speech_sign with its index moved to the front (+faststart), then cut at 40%: it probes fine."""
    folder = tmp_path_factory.mktemp("truncated")
    whole = folder / "faststart.mp4"
    subprocess.run(
        ["ffmpeg", "-v", "error", "-y", "-i", str(media["speech_sign"]), "-c", "copy", "-movflags", "+faststart",
         str(whole)],
        check=True,
    )  # fmt: skip
    cut = folder / "cut.mp4"
    data = whole.read_bytes()
    cut.write_bytes(data[: int(len(data) * 0.4)])
    return cut


def test_a_truncated_file_with_its_index_at_the_front_fails_in_words(truncated_front_index: Path) -> None:
    info = probe(truncated_front_index)  # the header is whole: 12 s, 300 frames
    assert info.num_frames == 300
    plan = sampling_plan(info, {"tracking": 5.0})
    with pytest.raises(BadVideoError) as err:
        for _ in decode(info, plan, 16, "cpu"):
            pass
    message = str(err.value)
    assert "truncated or corrupt" in message and "header says 12.0s" in message
    assert "Check failed" not in message and ".cc:" not in message


def test_a_truncated_file_is_recorded_as_failed(truncated_front_index: Path, tmp_path: Path) -> None:
    with open_memory(tmp_path / "m.duckdb") as mem:
        result = ingest_video(truncated_front_index, mem, IngestSettings().only("ocr"))
        assert result.status == "failed" and result.error is not None
        assert "truncated or corrupt" in result.error and truncated_front_index.name in result.error
        assert mem.table_counts()["ocr"] == 0
