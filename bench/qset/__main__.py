"""python -m bench.qset [heldout]: build a question set's videos and write (or check) its frozen JSONL.

Without a set name: the generated set (questions.py -> questions.jsonl); `heldout`: the held-out set
(heldout.py -> heldout.jsonl, its own videos in the same folder); `heldout2`: the second held-out set
(heldout.py generate2 -> heldout2.jsonl, asked once as split 'test2'); `heldout3`: the third (generate3 ->
heldout3.jsonl, split 'test3'); `heldout4`: the fourth (generate4 -> heldout4.jsonl, split 'test4');
`heldout5`: the fifth (generate5 -> heldout5.jsonl, split 'test5'); `heldout6`: the sixth (generate6 ->
heldout6.jsonl, split 'test6', a third of it in new phrasings); `heldout7`: the seventh (generate7 ->
heldout7.jsonl, split 'test7', half of each type's open questions in phrasings no earlier set uses);
`heldout8` to the newest (spec.HANDWRITTEN_SETS): videos only, their
questions (heldout{n}.jsonl, split 'test{n}') written by hand from the facts sheet heldout{n}_facts.md by
someone who never saw the code, so there is no generator (--check and --questions are refused, --no-videos does
nothing)."""

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from bench.qset import heldout, questions
from bench.qset.build import default_out_dir, ensure_videos, speech_seconds
from bench.qset.spec import (
    HANDWRITTEN_SETS,
    HELDOUT2_VIDEOS,
    HELDOUT3_VIDEOS,
    HELDOUT4_VIDEOS,
    HELDOUT5_VIDEOS,
    HELDOUT6_VIDEOS,
    HELDOUT7_VIDEOS,
    HELDOUT_VIDEOS,
    VIDEOS,
    Video,
)

# set name -> (its frozen JSONL, what the generator writes, its videos); a videos-only set has no JSONL.
SETS: dict[str, tuple[Path | None, Callable[[], str] | None, Sequence[Video]]] = {
    "generated": (questions.QUESTIONS_PATH, lambda: questions.dumps(questions.generate(speech_seconds)), VIDEOS),
    "heldout": (heldout.HELDOUT_PATH, lambda: heldout.dumps(heldout.generate(speech_seconds)), HELDOUT_VIDEOS),
    "heldout2": (
        heldout.HELDOUT2_PATH,
        lambda: heldout.dumps(heldout.generate2(speech_seconds), heldout.HEAD2),
        HELDOUT2_VIDEOS,
    ),
    "heldout3": (
        heldout.HELDOUT3_PATH,
        lambda: heldout.dumps(heldout.generate3(speech_seconds), heldout.HEAD3),
        HELDOUT3_VIDEOS,
    ),
    "heldout4": (
        heldout.HELDOUT4_PATH,
        lambda: heldout.dumps(heldout.generate4(speech_seconds), heldout.HEAD4),
        HELDOUT4_VIDEOS,
    ),
    "heldout5": (
        heldout.HELDOUT5_PATH,
        lambda: heldout.dumps(heldout.generate5(speech_seconds), heldout.HEAD5),
        HELDOUT5_VIDEOS,
    ),
    "heldout6": (
        heldout.HELDOUT6_PATH,
        lambda: heldout.dumps(heldout.generate6(speech_seconds), heldout.HEAD6),
        HELDOUT6_VIDEOS,
    ),
    "heldout7": (
        heldout.HELDOUT7_PATH,
        lambda: heldout.dumps(heldout.generate7(speech_seconds), heldout.HEAD7),
        HELDOUT7_VIDEOS,
    ),
    **{f"heldout{n}": (None, None, videos) for n, videos in HANDWRITTEN_SETS.items()},
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.qset", description=__doc__)
    parser.add_argument(
        "set", nargs="?", choices=sorted(SETS), default="generated", help="which set (default generated)"
    )
    parser.add_argument("--out", type=Path, default=None, help=f"video folder (default {default_out_dir()})")
    parser.add_argument("--questions", type=Path, default=None, help="the JSONL to write or check (default the set's)")
    parser.add_argument("--check", action="store_true", help="only check the JSONL is what the generator writes")
    parser.add_argument("--no-videos", action="store_true", help="write the JSONL without building the videos")
    args = parser.parse_args(argv)
    default_path, write, videos = SETS[args.set]
    if write is None or default_path is None:  # a videos-only set: build its videos, write no questions
        if args.check or args.questions:
            parser.error(f"{args.set} has no questions to write or check (it builds its videos only)")
        if not args.no_videos:
            paths = ensure_videos(args.out, verbose=True, videos=videos)
            folder = next(iter(paths.values())).parent
            print(f"{len(paths)} videos in {folder} (no questions: {args.set} is videos only)")
        return 0
    path = args.questions or default_path
    text = write()
    if args.check:
        same = path.is_file() and path.read_text() == text
        fix = "python -m bench.qset" + (f" {args.set}" if args.set != "generated" else "")
        print(f"{path}: {'up to date' if same else f'DIFFERS from the generator: {fix}'}")
        return 0 if same else 1
    path.write_text(text)
    print(f"wrote {text.count(chr(10)) - 2} questions to {path}")
    if not args.no_videos:
        paths = ensure_videos(args.out, verbose=True, videos=videos)
        print(f"{len(paths)} videos in {next(iter(paths.values())).parent}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
