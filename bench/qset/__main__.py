"""python -m bench.qset [heldout]: build a question set's videos and write (or check) its frozen JSONL.

Without a set name: the generated set (questions.py -> questions.jsonl); `heldout`: the held-out set
(heldout.py -> heldout.jsonl, its own videos in the same folder); `heldout2`: the second held-out set
(heldout.py generate2 -> heldout2.jsonl, asked once as split 'test2'); `heldout3`: the third (generate3 ->
heldout3.jsonl, split 'test3'); `heldout4`: the fourth (generate4 -> heldout4.jsonl, split 'test4');
`heldout5`: the fifth (generate5 -> heldout5.jsonl, split 'test5'); `heldout6`: the sixth (generate6 ->
heldout6.jsonl, split 'test6', a third of it in new phrasings); `heldout7`: the seventh (generate7 ->
heldout7.jsonl, split 'test7', half of each type's open questions in phrasings no earlier set uses);
`heldout8`: the eighth, videos only (HELDOUT8_VIDEOS): its questions (heldout8.jsonl, split 'test8') were
written by hand from the facts sheet heldout8_facts.md by someone who never saw the code, so there is no
generator (--check and --questions are refused, --no-videos does nothing); `heldout9`: the ninth, videos only
(HELDOUT9_VIDEOS), its questions to be written by hand from the facts sheet heldout9_facts.md likewise;
`heldout10`: the tenth, videos only (HELDOUT10_VIDEOS), its questions (heldout10.jsonl, split 'test10') written
from heldout10_facts.md likewise; `heldout11`: the eleventh, videos only (HELDOUT11_VIDEOS), its questions
(heldout11.jsonl, split 'test11') written from heldout11_facts.md likewise; `heldout12`: the twelfth, videos
only (HELDOUT12_VIDEOS), its questions (heldout12.jsonl, split 'test12') written from heldout12_facts.md likewise;
`heldout13`: the thirteenth, videos only (HELDOUT13_VIDEOS), its questions (heldout13.jsonl, split 'test13') written
from heldout13_facts.md likewise; `heldout14`: the fourteenth, videos only (HELDOUT14_VIDEOS), its questions
(heldout14.jsonl, split 'test14') written from heldout14_facts.md likewise; `heldout15`: the fifteenth, videos
only (HELDOUT15_VIDEOS), its questions (heldout15.jsonl, split 'test15') written from heldout15_facts.md likewise;
`heldout16`: the sixteenth, videos only (HELDOUT16_VIDEOS), its questions (heldout16.jsonl, split 'test16') likewise;
`heldout17`: the seventeenth, videos only (HELDOUT17_VIDEOS), its questions (heldout17.jsonl, split 'test17')
likewise; `heldout18`: the eighteenth, videos only (HELDOUT18_VIDEOS), its questions (heldout18.jsonl, split
'test18') likewise; `heldout19`: the nineteenth, videos only (HELDOUT19_VIDEOS), its questions (heldout19.jsonl,
split 'test19') likewise; `heldout20`: the twentieth, videos only (HELDOUT20_VIDEOS), its questions
(heldout20.jsonl, split 'test20') likewise; `heldout21`: the twenty-first, videos only (HELDOUT21_VIDEOS), its
questions (heldout21.jsonl, split 'test21') likewise; `heldout22`: the twenty-second, videos only
(HELDOUT22_VIDEOS), its questions (heldout22.jsonl, split 'test22') likewise; `heldout23`: the twenty-third,
videos only (HELDOUT23_VIDEOS), its questions (heldout23.jsonl, split 'test23') likewise; `heldout24`: the
twenty-fourth, videos only (HELDOUT24_VIDEOS), its questions (heldout24.jsonl, split 'test24') likewise;
`heldout25`: the twenty-fifth, videos only (HELDOUT25_VIDEOS), its questions (heldout25.jsonl, split 'test25')
likewise; `heldout26`: the twenty-sixth, videos only (HELDOUT26_VIDEOS), its questions (heldout26.jsonl, split
'test26') likewise; `heldout27`: the twenty-seventh, videos only (HELDOUT27_VIDEOS), its questions
(heldout27.jsonl, split 'test27') likewise."""

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from bench.qset import heldout, questions
from bench.qset.build import default_out_dir, ensure_videos, speech_seconds
from bench.qset.spec import (
    HELDOUT2_VIDEOS,
    HELDOUT3_VIDEOS,
    HELDOUT4_VIDEOS,
    HELDOUT5_VIDEOS,
    HELDOUT6_VIDEOS,
    HELDOUT7_VIDEOS,
    HELDOUT8_VIDEOS,
    HELDOUT9_VIDEOS,
    HELDOUT10_VIDEOS,
    HELDOUT11_VIDEOS,
    HELDOUT12_VIDEOS,
    HELDOUT13_VIDEOS,
    HELDOUT14_VIDEOS,
    HELDOUT15_VIDEOS,
    HELDOUT16_VIDEOS,
    HELDOUT17_VIDEOS,
    HELDOUT18_VIDEOS,
    HELDOUT19_VIDEOS,
    HELDOUT20_VIDEOS,
    HELDOUT21_VIDEOS,
    HELDOUT22_VIDEOS,
    HELDOUT23_VIDEOS,
    HELDOUT24_VIDEOS,
    HELDOUT25_VIDEOS,
    HELDOUT26_VIDEOS,
    HELDOUT27_VIDEOS,
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
    "heldout8": (None, None, HELDOUT8_VIDEOS),
    "heldout9": (None, None, HELDOUT9_VIDEOS),
    "heldout10": (None, None, HELDOUT10_VIDEOS),
    "heldout11": (None, None, HELDOUT11_VIDEOS),
    "heldout12": (None, None, HELDOUT12_VIDEOS),
    "heldout13": (None, None, HELDOUT13_VIDEOS),
    "heldout14": (None, None, HELDOUT14_VIDEOS),
    "heldout15": (None, None, HELDOUT15_VIDEOS),
    "heldout16": (None, None, HELDOUT16_VIDEOS),
    "heldout17": (None, None, HELDOUT17_VIDEOS),
    "heldout18": (None, None, HELDOUT18_VIDEOS),
    "heldout19": (None, None, HELDOUT19_VIDEOS),
    "heldout20": (None, None, HELDOUT20_VIDEOS),
    "heldout21": (None, None, HELDOUT21_VIDEOS),
    "heldout22": (None, None, HELDOUT22_VIDEOS),
    "heldout23": (None, None, HELDOUT23_VIDEOS),
    "heldout24": (None, None, HELDOUT24_VIDEOS),
    "heldout25": (None, None, HELDOUT25_VIDEOS),
    "heldout26": (None, None, HELDOUT26_VIDEOS),
    "heldout27": (None, None, HELDOUT27_VIDEOS),
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
