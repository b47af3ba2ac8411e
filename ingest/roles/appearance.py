"""What each track looks like -> `tracks.appearance` (+ `appearance_embedding`, `appearance_model`).

Always, with no model: the dominant named colours of the track's crops (the best crop and a few
spread over its life, from the tracking role). For a person, the upper body (shoulders to hips)
and lower body (hips to ankles) are named apart, e.g. "upper: red, dark blue; lower: blue", so
that "the man in the red jacket" can be found with SQL. Pixels are those of the instance mask
when the detector segments, else the central part of the box, where the body is; colours that
fill the box's left and right edges (the scene behind: grass, road) are left out when enough else
remains. Colours come from k-means in CIELAB, each cluster centre named by hue, chroma and
lightness (`colour_name`).

With CLIP weights on disk (`clip.pretrained` a checkpoint path, or a tag already in the hub
cache), the best crop is also embedded, and the attribute prompts whose zero-shot probability is
highest are appended: "...; clip: a person wearing a backpack". Random or downloaded weights are
never used here.
"""

import logging
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np
import pyarrow as pa

from ingest.errors import RoleUnavailable
from ingest.models.crops import TrackCrop
from ingest.roles.extractor import Availability, Extractor, VideoContext

log = logging.getLogger(__name__)

COLOUR_MODEL = "dominant-colours/lab-kmeans"

#: Parts of a person's box as (top, bottom) fractions of its height: shoulders to hips, hips to ankles.
_UPPER = (0.18, 0.50)
_LOWER = (0.52, 0.88)
_CENTRE = (0.3, 0.7)  # fraction of the box width used when there is no mask
_SIDE = 0.12  # the outer fraction of the width on each side samples the background (no mask)
_BACKGROUND_SHARE = 0.3  # a colour filling this much of the sides is background...
_MIN_FOREGROUND = 0.12  # ...and is left out when the other colours still hold this much
_CLUSTERS = 4
_SECOND_SHARE = 0.25  # a second colour is named when its cluster holds at least this share
_MIN_PIXELS = 20
_PIXELS_PER_CROP = 600  # each crop counts the same, however large

#: Zero-shot prompts when `appearance.attributes` is empty.
DEFAULT_ATTRIBUTES = (
    "a person wearing a jacket",
    "a person wearing a coat",
    "a person wearing a t-shirt",
    "a person wearing a dress",
    "a person wearing shorts",
    "a person wearing jeans",
    "a person wearing a hat",
    "a person wearing a helmet",
    "a person carrying a backpack",
    "a person carrying a bag",
    "a person holding a phone",
    "a child",
    "an adult man",
    "an adult woman",
)
_TOP_ATTRIBUTES = 2


def colour_name(lab: Sequence[float]) -> str:
    """A plain colour name for one CIELAB colour (L in 0-100, a and b signed).

    >>> colour_name([53.2, 80.1, 67.2]), colour_name([32.3, 79.2, -107.9]), colour_name([50.0, 0.0, 0.0])
    ('red', 'blue', 'grey')
    """
    lightness, a, b = (float(v) for v in lab)
    chroma = float(np.hypot(a, b))
    hue = float(np.degrees(np.arctan2(b, a))) % 360
    if chroma < 12 or (lightness < 25 and chroma < 20):
        if lightness < 22:
            return "black"
        if lightness > 85:
            return "white"
        return "light grey" if lightness > 65 else "grey" if lightness > 38 else "dark grey"
    # hue angle of CIELAB (a, b): magenta ~350, red ~35, orange ~60, yellow ~100, green ~135,
    # cyan ~210, blue ~290, purple ~320
    if hue < 20 or hue >= 345:
        name = "pink" if lightness > 45 else "red"
    elif hue < 50:
        name = "red" if chroma > 30 else "brown"
    elif hue < 75:
        name = "orange" if lightness > 55 and chroma > 40 else "beige" if lightness > 60 and chroma < 35 else "brown"
    elif hue < 105 or (hue < 118 and lightness > 85):  # very light yellow-greens look yellow
        name = "yellow" if lightness > 60 and chroma > 40 else "beige" if lightness > 60 else "olive"
        if name == "beige" and hue >= 90:
            name = "yellow"
    elif hue < 170:
        name = "green"
    elif hue < 230:
        name = "teal" if lightness < 55 else "cyan"
    elif hue < 312:
        name = "blue"
    else:
        name = "purple"
    if name in ("red", "green", "blue", "teal", "purple") and lightness < 30:
        return "dark " + name
    if name in ("green", "blue", "purple") and lightness > 60:
        return "light " + name
    return name


def dominant_colours(pixels_rgb: np.ndarray, seed: int = 0) -> list[tuple[str, float]]:
    """Named colours of an N x 3 uint8 RGB pixel array, largest share first, as (name, share).

    Clusters of one hue are counted together.

    >>> dominant_colours(np.array([[200, 20, 30]] * 60 + [[20, 20, 20]] * 40, np.uint8))
    [('red', 0.6), ('black', 0.4)]
    """
    import cv2

    pixels = np.asarray(pixels_rgb, dtype=np.uint8).reshape(-1, 3)
    if len(pixels) < _MIN_PIXELS:
        return []
    lab = cv2.cvtColor(pixels.reshape(-1, 1, 3), cv2.COLOR_RGB2LAB).reshape(-1, 3).astype(np.float32)
    # OpenCV's 8-bit LAB: L scaled to 0-255, a and b offset by 128
    lab = lab * np.array([100 / 255, 1, 1], np.float32) - np.array([0, 128, 128], np.float32)
    k = min(_CLUSTERS, len(np.unique(pixels, axis=0)))
    cv2.setRNGSeed(seed)  # k-means++ seeding is random: same pixels, same answer
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    _, labels, centres = cv2.kmeans(lab, k, np.empty(0), criteria, 3, cv2.KMEANS_PP_CENTERS)
    # shades of one hue ("red", "dark red") are one colour, named after its largest shade
    groups: dict[str, dict[str, float]] = {}
    counts = np.bincount(labels.ravel(), minlength=k) / len(lab)
    for centre, share in zip(centres, counts, strict=True):
        name = colour_name(centre)
        shades = groups.setdefault(name.removeprefix("dark ").removeprefix("light "), {})
        shades[name] = shades.get(name, 0.0) + float(share)
    merged = [(max(shades, key=lambda n: shades[n]), sum(shades.values())) for shades in groups.values()]
    return sorted(merged, key=lambda item: -item[1])


def describe_colours(colours: Sequence[tuple[str, float]]) -> str:
    """'red' or 'red, dark blue': the largest colour, and the next when it is large enough."""
    if not colours:
        return "unknown"
    names = [colours[0][0]] + [n for n, share in colours[1:2] if share >= _SECOND_SHARE]
    return ", ".join(names)


def region_pixels(crop: TrackCrop, rows: tuple[float, float]) -> np.ndarray:
    """Pixels of one horizontal band of a crop (fractions of its height): masked, or its centre."""
    height, width = crop.image.shape[:2]
    top, bottom = round(rows[0] * height), max(round(rows[1] * height), round(rows[0] * height) + 1)
    band = crop.image[top:bottom]
    if crop.mask is not None and crop.mask[top:bottom].sum() >= _MIN_PIXELS:
        pixels = band[crop.mask[top:bottom]]
    else:
        left, right = round(_CENTRE[0] * width), max(round(_CENTRE[1] * width), round(_CENTRE[0] * width) + 1)
        pixels = band[:, left:right].reshape(-1, 3)
    if len(pixels) > _PIXELS_PER_CROP:  # evenly thinned, so that no crop outweighs the others
        pixels = pixels[np.linspace(0, len(pixels) - 1, _PIXELS_PER_CROP).astype(int)]
    return pixels


def background_colours(crops: Sequence[TrackCrop]) -> set[str]:
    """Colours that fill the left and right edges of unmasked crops: the scene behind the instance."""
    sides = []
    for crop in crops:
        if crop.mask is not None:
            continue
        width = crop.image.shape[1]
        edge = max(1, round(_SIDE * width))
        strip = np.concatenate([crop.image[:, :edge], crop.image[:, width - edge :]], axis=1).reshape(-1, 3)
        sides.append(strip[np.linspace(0, len(strip) - 1, min(len(strip), _PIXELS_PER_CROP)).astype(int)])
    if not sides:
        return set()
    return {name for name, share in dominant_colours(np.concatenate(sides)) if share >= _BACKGROUND_SHARE}


def without_background(colours: list[tuple[str, float]], background: set[str]) -> list[tuple[str, float]]:
    """The colours that are not background, as shares of what is left; all of them when that is too little.

    >>> without_background([("grey", 0.6), ("red", 0.3), ("black", 0.1)], {"grey"})
    [('red', 0.75), ('black', 0.25)]
    """
    kept = [(name, share) for name, share in colours if name not in background]
    total = sum(share for _, share in kept)
    if total < _MIN_FOREGROUND:
        return colours
    return [(name, round(share / total, 3)) for name, share in kept]


def colour_description(crops: Sequence[TrackCrop], category: str) -> str:
    """'upper: red; lower: dark blue' for a person, 'colour: white' for anything else."""
    if not crops:
        return ""
    background = background_colours(crops)

    def named(rows: tuple[float, float]) -> str:
        pixels = np.concatenate([region_pixels(c, rows) for c in crops])
        return describe_colours(without_background(dominant_colours(pixels), background))

    if category == "person":
        return f"upper: {named(_UPPER)}; lower: {named(_LOWER)}"
    return f"colour: {named((0.1, 0.9))}"


def _clip_usable(settings: Any) -> tuple[bool, str]:
    """Whether CLIP weights are on disk (never random, never a download during ingest)."""
    try:
        from ingest.models.encoders import resolve_clip
    except ImportError:
        return False, "the CLIP encoder is not available"
    try:
        weights = resolve_clip(settings.clip)
    except (RoleUnavailable, ImportError) as exc:
        return False, str(exc)
    if weights.source == "download":
        return False, f"{weights.label} weights are not on disk (set clip.pretrained to a checkpoint file)"
    return True, f"{weights.label} at {weights.location}"


class AppearanceDescriber(Extractor):
    role: ClassVar[str] = "appearance"
    # Writes the appearance columns of `tracks`, a table the tracking role owns: declaring it here
    # would make a failure of this role drop every track.
    tables: ClassVar[tuple[str, ...]] = ()
    after: ClassVar[tuple[str, ...]] = ("tracking",)

    def availability(self) -> Availability:
        usable, why = _clip_usable(self.settings)
        if usable:
            return Availability(
                True, f"dominant colours of each track's crops, plus CLIP attributes: {why}", "settings"
            )
        return Availability(
            True, f"dominant colours of each track's crops (no weights needed); CLIP attributes off: {why}", ""
        )

    def end(self, ctx: VideoContext) -> None:
        tracks = ctx.tables.get("tracks")
        crops: dict[int, list[TrackCrop]] = ctx.artifacts.get("track_crops", {})
        if tracks is None or tracks.num_rows == 0:
            return
        ids = tracks.column("track_id").to_pylist()
        categories = tracks.column("category").to_pylist()
        texts = [colour_description(crops.get(i, []), c) or None for i, c in zip(ids, categories, strict=True)]
        models = [COLOUR_MODEL if t else None for t in texts]
        embeddings: list[list[float] | None] = [None] * len(ids)
        if _clip_usable(self.settings)[0]:
            texts, models, embeddings = self._clip(ids, crops, texts, models)
        columns = {"appearance": texts, "appearance_model": models, "appearance_embedding": embeddings}
        for name, values in columns.items():
            idx = tracks.schema.get_field_index(name)
            tracks = tracks.set_column(idx, tracks.schema.field(idx), pa.array(values, tracks.schema.field(idx).type))
        ctx.tables["tracks"] = tracks

    def _clip(
        self, ids: list[int], crops: dict[int, list[TrackCrop]], texts: list[str | None], models: list[str | None]
    ) -> tuple[list[str | None], list[str | None], list[list[float] | None]]:
        from ingest.models.encoders import load_clip

        clip = load_clip(self.settings.clip, self.settings.device)
        prompts = list(self.settings.appearance.attributes or DEFAULT_ATTRIBUTES)
        text_vecs = clip.encode_texts(prompts)
        have = [i for i, tid in enumerate(ids) if crops.get(tid)]
        image_vecs = clip.encode_images([crops[ids[i]][0].image for i in have])
        embeddings: list[list[float] | None] = [None] * len(ids)
        for row, vec in zip(have, image_vecs, strict=True):
            logits = 100.0 * text_vecs @ vec  # CLIP's logit scale
            probs = np.exp(logits - logits.max())
            probs /= probs.sum()
            top = [prompts[j] for j in np.argsort(-probs)[:_TOP_ATTRIBUTES]]
            texts[row] = f"{texts[row]}; clip: {', '.join(top)}" if texts[row] else f"clip: {', '.join(top)}"
            models[row] = f"{COLOUR_MODEL} + {clip.label}"
            embeddings[row] = vec.astype(float).tolist()
        return texts, models, embeddings
