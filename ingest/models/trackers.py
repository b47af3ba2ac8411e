"""boxmot trackers, configured for the tracking role's sampling rate and confidence."""

import importlib
import logging
from pathlib import Path
from typing import Any

from ingest.models.detections import LOW_CONFIDENCE

#: Trackers that never use appearance embeddings.
MOTION_TRACKERS = ("bytetrack", "ocsort", "sfsort")
#: Trackers that use ReID embeddings when `reid_weights` is given and run on motion alone otherwise.
OPTIONAL_REID_TRACKERS = ("botsort", "boosttrack", "deepocsort", "hybridsort", "occluboost")
#: Trackers that cannot run without ReID embeddings.
REID_TRACKERS = ("strongsort",)
TRACKERS = MOTION_TRACKERS + OPTIONAL_REID_TRACKERS + REID_TRACKERS

LOST_TRACK_S = 2.0  # a track missing this long is ended; a gap shorter than this is interpolated


def make_tracker(cfg: Any, device: str) -> Any:
    """A fresh boxmot tracker for one video, with its stock configuration and our sampling rate."""
    from boxmot.trackers.config import load_tracker_config
    from boxmot.trackers.registry import get_tracker_definition

    definition = get_tracker_definition(cfg.tracker)
    defaults = load_tracker_config(cfg.tracker, None)
    overrides: dict[str, Any] = {}
    if "frame_rate" in defaults:  # buffers are counted in samples, so tell the tracker our rate
        overrides["frame_rate"] = max(1, round(cfg.fps))
    if "track_buffer" in defaults:  # frames at 30 fps, scaled by frame_rate / 30
        overrides["track_buffer"] = round(30 * LOST_TRACK_S)
    if "max_age" in defaults:  # samples
        overrides["max_age"] = max(1, round(cfg.fps * LOST_TRACK_S))
    for key in ("track_thresh", "det_thresh", "track_high_thresh", "new_track_thresh", "high_th", "new_track_th"):
        if key in defaults:  # boxmot's MOT17-tuned 0.5-0.6 would drop most boxes of a generic detector
            overrides[key] = cfg.confidence
    for key in ("min_conf", "track_low_thresh", "low_th"):
        if key in defaults:
            overrides[key] = min(cfg.confidence, LOW_CONFIDENCE)
    if "variable_dt" in defaults:
        # predict over the time since the last update (`update(..., timestamp_s=)`), in units of our
        # sampling interval: samples that motion skip leaves out are not shown to the tracker, and a
        # step of one interval predicts as a fixed-step tracker would
        overrides["variable_dt"] = True
        overrides["kf_reference_dt_s"] = 1.0 / cfg.fps
    use_reid = bool(cfg.reid_weights) and cfg.tracker not in MOTION_TRACKERS
    if "use_embeddings" in defaults:
        overrides["use_embeddings"] = use_reid
    args = load_tracker_config(cfg.tracker, None, overrides)
    module_path, class_name = definition.class_path.rsplit(".", 1)
    cls = getattr(importlib.import_module(module_path), class_name)
    _boxmot_logs_through_ours()  # after the imports: importing some of boxmot configures its logging again
    if use_reid:
        weights = Path(cfg.reid_weights).expanduser()
        return cls(**args, reid_weights=weights if weights.is_file() else cfg.reid_weights, device=device)
    return cls(**args)


def _boxmot_logs_through_ours() -> None:
    """boxmot gives its logger its own Rich handler at INFO, which printed each tracker's whole
    configuration ('ByteTrack: det_thresh=0.3, ... variable_dt=True') among vidmem's progress lines.
    Its records go through vidmem's logging instead: warnings show, INFO only with -v."""
    boxmot = logging.getLogger("boxmot")
    boxmot.handlers.clear()
    boxmot.setLevel(logging.NOTSET)
    boxmot.propagate = True
