"""Write a held-out set's facts sheet (bench/qset/heldout{N}_facts.md) from its spec (spec.HELDOUT{N}_VIDEOS).

The sheet is all a question writer sees of a hand-written set: each video's length and footage, what is
said and when, the on-screen texts, where and when, the hand-checked people counts and the words it never
says. Everything comes from the spec, except the spoken end times, which are the lengths of the espeak-ng
WAVs the videos are built from (build.speech_seconds: it runs espeak-ng), and the words for the footage,
which are the small table SOURCES below.

    python -m bench.qset.facts heldout27                 # writes bench/qset/heldout27_facts.md
    python -m bench.qset.facts heldout27 --out -         # prints it
    python -m bench.qset.facts heldout27 --out x.md --check   # exit 1 unless x.md is what it writes

It reproduces the committed sheets of heldout21 to heldout27 byte for byte (tests/test_qset_facts.py).
Older sheets word the footage in earlier ways (heldout20 only writes the tree clip's restart in whole
seconds); their sentences, end times, texts and counts are still what it writes.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from bench.qset import spec
from bench.qset.build import speech_seconds
from bench.qset.spec import Count, Footage, Sign, Video, number_words

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Source:
    """How a sheet words one footage source. `clip` says how the source repeats; its fields are
    {length} (the source's length, rounded to whole seconds), {partway} (`partway`, or nothing when the
    video starts at the source's beginning), {times} ('twice') and {restarts} ('24.5 s and 104 s', when
    the video starts the source again). `partway` may hold {start}, how far into the source it starts."""

    short: str  # the archive table's Footage column
    picture: str  # what the footage shows, the Scene line up to its semicolon
    length_s: float  # the source's length (ffprobe), for when a looped video starts it again
    clip: str
    partway: str = ""  # {partway} when the video starts part-way into the source
    people: str = ""  # a sentence after the clip's, on who is in the picture
    once: str = "a stretch of it played once, without repeating"  # `clip` when the video never starts it again


# Footage source (Footage.source) -> its words on the sheet. The spec's `scene` is too short for a writer
# who never sees the video (it does not say how the clip repeats or whether people were counted), so the
# sheets were written from these; a new source needs an entry here. Lengths are ffprobe's of the files
# build.py reads (tests/fixtures' bigbuckbunny.mp4 and carphone.mp4, opencv-doc's tree.avi and Megamind.avi).
SOURCES: dict[str, Source] = {
    "vtest": Source(
        "campus square, people walking",
        "A fixed camera high above a campus square with a lamp post, a tripod on the grass and people walking across",
        spec.VTEST_SOURCE_S,
        "real footage of about {length} seconds that {partway}starts again from its beginning {times}"
        " (at about {restarts})",
        "starts part-way through ({start} s into it) and ",
    ),
    "bigbuckbunny": Source(
        "animated rabbit on a hillside",
        "Animation: a big grey rabbit climbs out of a burrow in a grassy hillside and stretches",
        5.312,
        "the same few seconds play over and over",
        people="There are no people in it (a cartoon rabbit only).",
    ),
    "tree.avi": Source(
        "a leafy tree seen through a window",
        "A leafy tree seen through a window, the camera moving slightly",
        29.6,
        "a {length}-second clip that {partway}starts again at about {restarts}",
        "starts part-way through and ",
        people="No people are in it, but people counts were not checked by hand.",
    ),
    "carphone": Source(
        "a man in a bow tie in the back of a car",
        "Real footage: a man in a bow tie talks in the back seat of a moving car, seen through the window",
        4.004,
        "the same {length}-second clip plays over and over",
        people="Exactly one person is in it.",
    ),
    "Megamind.avi": Source(
        "animated restaurant table, two characters",
        "An animated film scene: a man with glasses and a woman talk across a candle-lit restaurant table,"
        " with other diners behind them",
        11.261,
        "the same {length}-second clip plays over and over",
    ),
    "bikes": Source(
        "a street montage with bicycles",
        "Real street footage cut together with hard cuts: a man between cars, a taxi sign, a cyclist, railings,"
        " parked bicycles",
        10.0,
        "a short clip that plays over and over",
        people="People counts were not checked by hand.",
    ),
}

PLACES = {"top": "top of the frame", "bottom": "bottom caption"}  # 'top2' names the text above it instead

# Ordinals whose last word is not the cardinal plus 'th' (after 'twenty' etc. drop the 'y': 'twentieth').
_ORDINAL = {
    "one": "first", "two": "second", "three": "third", "five": "fifth", "eight": "eighth", "nine": "ninth",
    "twelve": "twelfth",
}  # fmt: skip


def ordinal_words(n: int) -> str:
    """1 <= n < 100 as an ordinal in words: 27 -> 'twenty-seventh', 20 -> 'twentieth'."""
    *head, last = number_words(n).split()
    if last in _ORDINAL:
        last = _ORDINAL[last]
    elif last.endswith("y"):
        last = last[:-1] + "ieth"
    else:
        last += "th"
    return "-".join([*head, last])


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{number_words(n)} times")


def _seconds(x: float) -> str:
    """A time as the sheets write it: to a tenth, without a trailing '.0' (104 s, 24.5 s)."""
    return f"{x:.1f}".removesuffix(".0")


def _and(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def restarts(footage: Footage, duration_s: float, length_s: float) -> list[float]:
    """The video times at which a looped source starts again from its beginning."""
    out, t = [], length_s - footage.start_s
    while t < duration_s:
        out.append(round(t, 1))
        t += length_s
    return out


def scene(video: Video) -> str:
    """The Scene line: the footage's words (SOURCES), with when its clip starts again."""
    src = SOURCES[video.footage.source]
    again = restarts(video.footage, video.duration_s, src.length_s)
    clip = (src.clip if again else src.once).format(
        length=round(src.length_s),
        partway=src.partway.format(start=_seconds(video.footage.start_s)) if video.footage.start_s else "",
        times=_times(len(again)),
        restarts=_and([f"{_seconds(t)} s" for t in again]) if again else "",
    )
    return f"{src.picture}; {clip}." + (f" {src.people}" if src.people else "")


def _sign(sign: Sign, signs: Sequence[Sign]) -> str:
    if sign.place == "top2":
        # A second line is named by the top text it sits under, the one on when it appears.
        above = [s for s in signs if s.place == "top" and s.start_s <= sign.start_s < s.end_s]
        if len(above) != 1:
            raise ValueError(f"second line {sign.text!r} at {sign.start_s} s is under {len(above)} top texts, not 1")
        where = f'second line, under the top text "{above[0].text}"'
    else:
        where = PLACES[sign.place]
    return f'- "{sign.text}" ({where}), {_seconds(sign.start_s)} - {_seconds(sign.end_s)} s'


def _count(c: Count) -> str:
    people = "person" if c.low == c.high == 1 else "people"
    return f"- at {_seconds(c.t_s)} s: {c.low if c.low == c.high else f'{c.low}-{c.high}'} {people}"


def _video(video: Video, said_s: Callable[[str], float]) -> list[str]:
    out = [
        f"## {video.file}",
        "",
        f"- Duration: {_seconds(video.duration_s)} seconds.",
        f"- Scene: {scene(video)}",
        "",
        "Spoken sentences (start - end, in seconds; when the voice speaks):",
        "",
    ]
    # The voice stops when its WAV ends: the WAV has almost no silence around the words (build.py).
    out += [f'- {ln.start_s:.1f} - {ln.start_s + said_s(ln.text):.1f} s: "{ln.text}"' for ln in video.lines]
    out += ["", "On-screen text (shown from - until, in seconds):", ""]
    out += [_sign(s, video.signs) for s in video.signs]
    out.append("")
    if video.counts:
        head = "People visible (counted by hand in single frames; a range where people overlap or are partly hidden):"
        out += [head, "", *map(_count, video.counts)]
    else:
        out.append("People counts: not known for this video (do not ask how many people are visible).")
    words = ", ".join(f'"{w}"' for w in video.absent_words)
    out += ["", f"Never said or shown in this video: {words}."]
    return out


def sheet(ordinal: str, videos: Sequence[Video], said_s: Callable[[str], float] = speech_seconds) -> str:
    """The facts sheet of the `ordinal` ('twenty-seventh') held-out set; `said_s(sentence)` is how long
    the voice takes to say it (default: espeak-ng's WAV, as the videos are built)."""
    # espeak-ng runs once a sentence: run them side by side (speech_seconds caches each).
    texts = [ln.text for v in videos for ln in v.lines]
    with ThreadPoolExecutor(max_workers=8) as pool:
        said = dict(zip(texts, pool.map(said_s, texts), strict=True))
    total = sum(v.duration_s for v in videos)
    many = number_words(len(videos))
    out = [
        f"# Facts sheet: the {ordinal} held-out video set",
        "",
        f"## The archive: all {many} videos together",
        "",
        f"{many.capitalize()} videos, {_seconds(total)} seconds in all ({total / 60:.1f} minutes). Each has one"
        " synthetic English voice reading short announcements over real or animated footage, and white boxes of"
        " black capital letters written over the picture. Times are seconds from the start of that video.",
        "",
        "| File | Length | Footage | Spoken sentences | On-screen texts |",
        "|---|---|---|---|---|",
    ]
    for v in videos:
        footage = SOURCES[v.footage.source].short
        out.append(f"| {v.file} | {_seconds(v.duration_s)} s | {footage} | {len(v.lines)} | {len(v.signs)} |")
    absent = number_words(sum(len(v.absent_words) for v in videos))
    out += [
        "",
        "Notes for the whole archive:",
        "- Spoken times are when the voice speaks (rounded to a tenth of a second): it starts at the first time"
        " and stops at the second.",
        "- On-screen text is shown from the first time up to (not including) the second time.",
        '- The voice says numbers in words (for example "forty"); the on-screen texts write them as digits.',
        f'- None of the {absent} "never said or shown" words below is said or shown in ANY of the {many} videos.',
    ]
    for v in videos:
        out += ["", *_video(v, said.__getitem__)]
    return "\n".join(out) + "\n"


def set_sheet(name: str, said_s: Callable[[str], float] = speech_seconds) -> str:
    """The sheet of held-out set `name` ('heldout27': spec.HELDOUT27_VIDEOS)."""
    match = re.fullmatch(r"heldout(\d*)", name)
    videos = getattr(spec, f"HELDOUT{match[1]}_VIDEOS", None) if match else None
    if match is None or videos is None:
        raise ValueError(f"no held-out set {name!r} in bench/qset/spec.py")
    return sheet(ordinal_words(int(match[1] or 1)), videos, said_s)


def default_path(name: str) -> Path:
    return HERE / f"{name}_facts.md"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.qset.facts", description=__doc__.split("\n\n")[0])
    parser.add_argument("set", help="the held-out set, e.g. heldout27")
    parser.add_argument("--out", default=None, help="where to write it ('-': stdout; default bench/qset/SET_facts.md)")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 unless the file is the same")
    args = parser.parse_args(argv)
    try:
        text = set_sheet(args.set)
    except ValueError as err:
        parser.error(str(err))
    if args.out == "-":
        if args.check:
            parser.error("--check needs a file, not '-'")
        sys.stdout.write(text)
        return 0
    path = Path(args.out) if args.out else default_path(args.set)
    if args.check:
        same = path.is_file() and path.read_text() == text
        print(f"{path}: {'up to date' if same else 'DIFFERS from what python -m bench.qset.facts writes'}")
        return 0 if same else 1
    path.write_text(text)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
