"""python -m bench.qset: build the question set's videos and write (or check) its frozen JSONL."""

import argparse
import sys
from pathlib import Path

from bench.qset.build import default_out_dir, ensure_videos, speech_seconds
from bench.qset.questions import QUESTIONS_PATH, dumps, generate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.qset", description=__doc__)
    parser.add_argument("--out", type=Path, default=None, help=f"video folder (default {default_out_dir()})")
    parser.add_argument("--questions", type=Path, default=QUESTIONS_PATH, help="the JSONL to write or check")
    parser.add_argument("--check", action="store_true", help="only check the JSONL is what the generator writes")
    parser.add_argument("--no-videos", action="store_true", help="write the JSONL without building the videos")
    args = parser.parse_args(argv)
    text = dumps(generate(speech_seconds))
    if args.check:
        same = args.questions.is_file() and args.questions.read_text() == text
        print(f"{args.questions}: {'up to date' if same else 'DIFFERS from the generator: python -m bench.qset'}")
        return 0 if same else 1
    args.questions.write_text(text)
    print(f"wrote {text.count(chr(10)) - 2} questions to {args.questions}")
    if not args.no_videos:
        paths = ensure_videos(args.out, verbose=True)
        print(f"{len(paths)} videos in {next(iter(paths.values())).parent}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
