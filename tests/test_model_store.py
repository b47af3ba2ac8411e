"""Which weights each role resolves to, in order (settings path, vidmem's cache, the library's
cache, the packaged substitute, download), with placeholder files in a temporary vidmem cache;
`vidmem models` and `vidmem models pull` on top. The loading of real weights is tested by each
role's own tests (test_tracking, test_clip, the ASR tests) with the packaged models.

Placeholders are enough here: resolution looks at paths, never inside the files.
"""

import json
import time
from pathlib import Path

import pytest

from ingest.errors import RoleUnavailable
from ingest.models.detector_weights import resolve_detector
from ingest.models.encoders import resolve_clip
from ingest.models.model_store import PullError, chosen, pull
from ingest.models.whisper_weights import resolve_whisper
from ingest.roles.tracking import Tracker
from ingest.settings import AsrSettings, ClipSettings, IngestSettings, TrackingSettings
from vidmem.cli import main

SEG = "yolo11n-seg.pt"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty vidmem cache; the working folder moves too, since ultralytics also looks there."""
    monkeypatch.setenv("VIDMEM_CACHE", str(tmp_path / "vidmem"))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return tmp_path / "vidmem" / "weights"


def _place(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"placeholder")
    return path


def _hub_file(hub: Path, repo: str, name: str) -> Path:
    """A file laid out as huggingface_hub caches it (refs/main -> snapshots/<revision>/name)."""
    folder = hub / f"models--{repo.replace('/', '--')}"
    _place(folder / "refs" / "main").write_text("0" * 40)
    return _place(folder / "snapshots" / ("0" * 40) / name)


# ------------------------------------------------------------------ tracking


def test_detector_without_the_real_model_gets_the_substitute_and_says_so(cache: Path) -> None:
    weights = resolve_detector(SEG)
    assert weights.source == "package" and weights.substitute
    detail = Tracker(IngestSettings()).availability().detail
    assert "SUBSTITUTE for yolo11n-seg.pt" in detail and "vidmem models pull tracking" in detail


def test_detector_in_vidmem_cache_beats_the_substitute(cache: Path) -> None:
    placed = _place(cache / "ultralytics" / SEG)
    weights = resolve_detector(SEG)
    assert (weights.source, weights.location, weights.substitute) == ("cache", str(placed), False)


def test_detector_path_in_settings_beats_the_cache(cache: Path, tmp_path: Path) -> None:
    _place(cache / "ultralytics" / SEG)
    mine = _place(tmp_path / "mine" / "det.pt")
    assert resolve_detector(str(mine)).location == str(mine)


def test_a_missing_detector_path_is_an_error_never_another_model(cache: Path, tmp_path: Path) -> None:
    _place(cache / "ultralytics" / SEG)  # a real model is right there, and still not used
    missing = str(tmp_path / "gone" / "det.pt")
    with pytest.raises(RoleUnavailable, match=r"tracking.model '.*gone/det.pt' is not a file"):
        resolve_detector(missing)
    avail = Tracker(IngestSettings(tracking=TrackingSettings(model=missing))).availability()
    assert not avail.ok and "gone/det.pt" in avail.detail


# ------------------------------------------------------------------ CLIP


def test_clip_in_vidmem_cache_is_found(cache: Path) -> None:
    assert resolve_clip(ClipSettings()).source == "download"  # nothing cached here (no internet either)
    placed = _hub_file(cache / "huggingface", "timm/vit_base_patch32_clip_224.openai", "open_clip_model.safetensors")
    weights = resolve_clip(ClipSettings())
    assert (weights.source, weights.location, weights.label) == ("cache", str(placed), "ViT-B-32/openai")


def test_a_missing_clip_checkpoint_is_an_error_never_the_tag(cache: Path, tmp_path: Path) -> None:
    _hub_file(cache / "huggingface", "timm/vit_base_patch32_clip_224.openai", "open_clip_model.safetensors")
    with pytest.raises(RoleUnavailable, match=r"clip.pretrained .*gone.pt' is not a file"):
        resolve_clip(ClipSettings(pretrained=str(tmp_path / "gone.pt")))


# ------------------------------------------------------------------ whisper


def test_whisper_in_vidmem_cache_comes_before_the_package(cache: Path) -> None:
    assert resolve_whisper("base").source == "package"
    placed = _hub_file(cache / "huggingface", "Systran/faster-whisper-base", "model.bin")
    weights = resolve_whisper("base")
    assert (weights.source, weights.location) == ("cache", str(placed.parent))


def test_without_faster_whisper_asr_is_unavailable_not_a_download(monkeypatch: pytest.MonkeyPatch) -> None:
    """On the GPU machine, without faster-whisper, the asr role said its weights would download on first use."""
    import importlib.util

    from ingest.roles.asr import SpeechRecognizer

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "faster_whisper" else real(name, *a))
    avail = SpeechRecognizer(IngestSettings()).availability()
    assert not avail.ok and "faster-whisper is not installed" in avail.detail


def test_a_missing_whisper_folder_is_an_error(cache: Path, tmp_path: Path) -> None:
    with pytest.raises(RoleUnavailable, match=r"asr.model .*whisper-gone' is not a folder"):
        resolve_whisper(str(tmp_path / "whisper-gone"))


# ------------------------------------------------------------------ pull


def test_pull_keeps_what_is_already_here_without_the_network(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_network(url: str, timeout_s: float) -> bool:
        raise AssertionError(f"contacted {url}")

    monkeypatch.setattr("ingest.models.model_store.reachable", no_network)
    placed = _place(cache / "ultralytics" / SEG)
    got = pull("tracking", IngestSettings())
    assert (got.status, got.location) == ("real", str(placed))


@pytest.mark.parametrize("role", ["tracking", "clip", "asr"])
def test_pull_without_a_network_fails_fast_with_one_line(
    cache: Path, monkeypatch: pytest.MonkeyPatch, role: str
) -> None:
    # TEST-NET-1 (RFC 5737) is never routed: a connect there waits or fails at once, never answers
    monkeypatch.setattr("ingest.models.model_store._GITHUB", "https://192.0.2.1")
    monkeypatch.setattr("ingest.models.model_store._HF_HUB", "https://192.0.2.1")
    settings = IngestSettings(asr=AsrSettings(model="tiny"))  # 'base' is packaged: real, nothing to pull
    chosen(role, settings)  # imports the libraries first: the bound below is on the pull alone
    start = time.monotonic()
    with pytest.raises(PullError, match=f"^{role}: cannot fetch .*does not answer within 0.5 s") as err:
        pull(role, settings, timeout_s=0.5)
    assert time.monotonic() - start < 3
    assert "\n" not in str(err.value)


def test_pull_refuses_a_path_and_an_unknown_name(cache: Path, tmp_path: Path) -> None:
    with pytest.raises(PullError, match="is not a file"):
        pull("tracking", IngestSettings(tracking=TrackingSettings(model=str(tmp_path / "x.pt"))))
    with pytest.raises(PullError, match="not an ultralytics model name"):
        pull("tracking", IngestSettings(tracking=TrackingSettings(model="my-own-detector.pt")))
    with pytest.raises(PullError, match="no weights to pull"):
        pull("ocr", IngestSettings())


def test_a_detector_left_to_download_fails_fast_offline(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ingest.models import detectors
    from ingest.models.detector_weights import DetectorWeights

    # no packaged substitute on this machine, and no route to the download (TEST-NET-1 never answers)
    monkeypatch.setattr(detectors, "resolve_detector", lambda model: DetectorWeights(model, "download"))
    monkeypatch.setattr(detectors, "ULTRALYTICS_ASSETS", "https://192.0.2.1")
    start = time.monotonic()
    with pytest.raises(RoleUnavailable, match=r"not on disk .* cannot be reached .*vidmem models pull tracking"):
        detectors.load_detector(TrackingSettings(), "cpu")
    assert time.monotonic() - start < 6  # the 3 s connect bound, not ultralytics' retries


# ------------------------------------------------------------------ the command line


def test_models_lists_the_chosen_weights_and_whether_they_are_real(
    cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["models", "--format", "json", "--only", "tracking,asr"]) == 0
    rows = {r["role"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["tracking"]["weights"] == "substitute" and rows["tracking"]["location"].endswith("best.pt")
    assert rows["asr"]["weights"] == "real"
    placed = _place(cache / "ultralytics" / SEG)
    assert main(["models", "--only", "tracking"]) == 0
    line = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("tracking"))
    assert "real" in line and str(placed) in line


def test_models_pull_of_an_unknown_role_is_a_usage_error(cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["models", "pull", "ocr"]) == 2
    assert "no weights to pull for ocr" in capsys.readouterr().err


def test_models_pull_offline_says_so_in_one_line_per_role(
    cache: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("ingest.models.model_store._GITHUB", "https://192.0.2.1")
    monkeypatch.setattr("ingest.models.model_store._HF_HUB", "https://192.0.2.1")
    assert main(["models", "pull", "tracking", "clip"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert [line.split(":")[0] for line in err] == ["tracking", "clip"]
    assert all("does not answer within 3 s" in line for line in err)
