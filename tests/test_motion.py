"""Motion skip: the detector skips samples that did not change, or changed only inside known objects."""

import numpy as np
import pytest

from ingest.media.motion import MotionGate, MotionRule

PERSON = np.array([[100.0, 100.0, 140.0, 200.0]])


def _frame(person_x: float | None = None, extra: tuple[int, int] | None = None) -> np.ndarray:
    """A grey 320x240 scene, with a dark 'person' at person_x and a bright blob at extra=(x, y)."""
    image = np.full((240, 320, 3), 120, np.uint8)
    if person_x is not None:
        image[100:200, int(person_x) : int(person_x) + 40] = 20
    if extra is not None:
        x, y = extra
        image[y : y + 30, x : x + 30] = 250
    return image


def test_an_unchanged_frame_skips_detection_up_to_the_still_limit() -> None:
    gate = MotionGate(MotionRule(max_still_skips=2))
    first = _frame(100)
    assert gate.should_detect(first)  # nothing seen yet
    gate.detected(first, PERSON)
    assert [gate.should_detect(first) for _ in range(3)] == [False, False, True]


def test_motion_inside_a_known_box_skips_once_then_detects() -> None:
    gate = MotionGate(MotionRule(max_skips=1))
    gate.detected(_frame(100), PERSON)
    assert not gate.should_detect(_frame(106))  # the person moved a little, inside its grown box
    assert gate.should_detect(_frame(112))  # re-anchored on a real box every other sample


@pytest.mark.parametrize(
    "changed",
    [
        _frame(100, extra=(250, 20)),  # something new far from every known object
        _frame(200),  # the person jumped out of its box (a cut, or a missed sample)
        np.full((240, 320, 3), 30, np.uint8),  # the whole picture changed
    ],
)
def test_a_change_outside_known_objects_always_detects(changed: np.ndarray) -> None:
    gate = MotionGate()
    gate.detected(_frame(100), PERSON)
    assert gate.should_detect(changed)


def test_frames_of_another_size_detect() -> None:
    gate = MotionGate()
    gate.detected(_frame(100), PERSON)
    assert gate.should_detect(np.full((120, 160, 3), 120, np.uint8))


def test_a_detection_the_tracker_does_not_follow_yet_makes_the_next_sample_detect() -> None:
    """A new object must be seen again on the next sample, or the tracker never confirms it."""
    gate = MotionGate(MotionRule(max_still_skips=4))
    still = _frame(100)
    gate.detected(still, PERSON, settled=False)
    assert gate.should_detect(still)  # even with nothing changed
    gate.detected(still, PERSON, settled=True)
    assert not gate.should_detect(still)
