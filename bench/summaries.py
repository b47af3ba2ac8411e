"""Summaries benchmark: what chapters and a video summary cost per video-minute, and whether they
hold the video's facts.

    .venv/bin/python -m bench summaries                       # the 10-minute video and three short ones
    .venv/bin/python -m bench summaries -- --videos q01_square_morning --model local

The videos are generated (bench/qset: spoken announcements and burned-in signs at known times over
real footage), so every figure can be checked against the truth: city_day_10min (610 s, 15
announcements, 16 signs) and short ones. Each is ingested once with ASR and OCR (cached in
--work), then the summaries role runs on those rows exactly as ingest runs it (`Summarizer.end`
on the video's tables), against the chat model at $OPENAI_BASE_URL (`--model`, default
$VIDMEM_LLM_MODEL). Per video: requests, prompt and completion tokens, seconds, each per
video-minute (what a paid API would bill), and three checks:

- announcements named: the share of spoken lines whose key word (the vehicle, place, city, ...)
  the video summary (title + text) names; the target is >= 80%;
- chapters cover what they name: each chapter's text that names a line's key word must span the
  line's time (chapter spans are cut at facts, so this is about the model naming facts of another
  chapter);
- nothing invented: words of the set's slot pools that this video never says or shows, and its
  `absent_words`, must not appear in any summary or chapter.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from bench.qset.spec import HELDOUT_VIDEOS, POOLS, VIDEOS, Video
from bench.report import Figure, emit, machine

DEFAULT_VIDEOS = ("city_day_10min", "q01_square_morning", "platform_news", "museum_weekend")
INPUT_ROLES = ("asr", "ocr")
INPUT_TABLES = ("transcript", "ocr_spans", "captions", "tracks", "actions")


def _videos(names: list[str]) -> list[Video]:
    known = {v.name: v for v in (*VIDEOS, *HELDOUT_VIDEOS)}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise SystemExit(f"unknown videos {unknown}; known: {sorted(known)}")
    return [known[n] for n in names]


def _key_words(video: Video) -> dict[float, str]:
    """Each spoken line's start -> the word a summary must use to name it."""
    return {line.start_s: line.key.lower() for line in video.lines}


def _foreign_words(video: Video) -> set[str]:
    """Slot-pool words this video never says or shows (multi-word values whole), plus its absent words."""
    said = " ".join([line.text for line in video.lines] + [s.text for s in video.signs]).lower()
    pool = {w.lower() for values in POOLS.values() for w in values if len(w) > 3}
    return {w for w in pool if w not in said} | {w.lower() for w in video.absent_words}


def _names(text: str, word: str) -> bool:
    """Whether `text` names `word`, also as speech recognition may have split or joined it ('suit case')."""
    text = text.lower()
    return re.search(rf"\b{re.escape(word)}", text) is not None or word.replace(" ", "") in text.replace(" ", "")


def check(video: Video, rows: list[dict[str, Any]]) -> dict[str, Any]:
    summary = next((r for r in rows if r["level"] == "video"), None)
    chapters = [r for r in rows if r["level"] == "chapter"]
    keys = _key_words(video)
    said = f"{summary['title']} {summary['text']}" if summary else ""
    named = [t for t, w in keys.items() if _names(said, w)]
    misplaced = []
    for c in chapters:
        for t, w in keys.items():
            if _names(f"{c['title']} {c['text']}", w) and not c["start_s"] - 2 <= t <= c["end_s"] + 2:
                misplaced.append(f"chapter {c['start_s']:.0f}-{c['end_s']:.0f}s names '{w}' said at {t:.0f}s")
    everything = " ".join(f"{r['title']} {r['text']}" for r in rows)
    invented = sorted(w for w in _foreign_words(video) if _names(everything, w))
    return {"named": len(named), "lines": len(keys), "misplaced": misplaced, "invented": invented,
            "chapters": len(chapters)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.summaries", description=__doc__.split("\n\n")[0])
    ap.add_argument("--videos", nargs="+", default=list(DEFAULT_VIDEOS))
    ap.add_argument("--model", default=os.environ.get("VIDMEM_LLM_MODEL"))
    ap.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "vidmem-bench-summaries")
    ap.add_argument("--show", action="store_true", help="print every summary and chapter")
    args = ap.parse_args(argv)
    if not args.model or not os.environ.get("OPENAI_BASE_URL"):
        print("needs a chat model: set OPENAI_BASE_URL and --model or VIDMEM_LLM_MODEL "
              "(the local one: eval \"$(../shared/tools/local-llm env)\")", file=sys.stderr)
        return 2

    from bench.qset.build import ensure_videos
    from ingest import IngestSettings, ingest_video
    from ingest.media.probe import probe
    from ingest.roles.extractor import VideoContext
    from ingest.roles.summaries import Summarizer
    from memory import open_memory

    videos = _videos(args.videos)
    paths = ensure_videos(videos=videos)
    args.work.mkdir(parents=True, exist_ok=True)
    base = IngestSettings()
    settings = replace(base, summaries=replace(base.summaries, model=args.model))
    print(f"machine: {machine()}\nchat model {args.model!r} at {os.environ['OPENAI_BASE_URL']}; "
          f"load before: {os.getloadavg()[0]:.1f}\n", flush=True)
    role = Summarizer(settings)
    results = []
    with open_memory(args.work / "inputs.duckdb") as mem:
        for video in videos:
            t0 = time.perf_counter()
            done = ingest_video(paths[video.name], mem, base.only(*INPUT_ROLES))
            if done.status == "failed":
                print(f"{video.name}: ingest failed: {done.error}", file=sys.stderr)
                return 1
            if done.status == "ok":
                print(f"{video.name}: ASR and OCR in {time.perf_counter() - t0:.0f}s", flush=True)
            info = probe(paths[video.name])
            tables = {name: mem.query(f"SELECT * FROM {name} WHERE video_id = ?", [info.video_id])
                      for name in INPUT_TABLES}
            ctx = VideoContext(info, tables={n: t for n, t in tables.items() if t.num_rows})
            role.begin(ctx)
            t0 = time.perf_counter()
            role.end(ctx)
            seconds = time.perf_counter() - t0
            rows = ctx.tables["summaries"].to_pylist()
            usage = ctx.artifacts["summaries_usage"]
            verdict = check(video, rows)
            results.append((video, info.duration_s, seconds, usage, verdict))
            if args.show:
                for r in rows:
                    print(f"  [{r['start_s']:6.1f}-{r['end_s']:6.1f}] {r['level']:<7} {r['title']}: {r['text']}")
            print(f"{video.name}: {usage['calls']} requests, {seconds:.0f}s; named {verdict['named']}/"
                  f"{verdict['lines']}; misplaced {len(verdict['misplaced'])}; invented {verdict['invented']}",
                  flush=True)
    print(f"\nload after: {os.getloadavg()[0]:.1f}")
    head = f"{'video':<22}{'min':>5}{'chap':>5}{'calls':>6}{'prompt tok':>11}{'compl tok':>10}{'s':>6}"
    head += f"{'calls/min':>10}{'ptok/min':>9}{'ctok/min':>9}{'s/min':>7}{'named':>8}{'misplaced':>10}{'invented':>9}"
    print(head)
    figures = []
    for video, duration, seconds, usage, verdict in results:
        minutes = duration / 60
        print(f"{video.name:<22}{minutes:>5.1f}{verdict['chapters']:>5}{usage['calls']:>6}{usage['prompt_tokens']:>11}"
              f"{usage['completion_tokens']:>10}{seconds:>6.0f}{usage['calls'] / minutes:>10.2f}"
              f"{usage['prompt_tokens'] / minutes:>9.0f}{usage['completion_tokens'] / minutes:>9.0f}"
              f"{seconds / minutes:>7.1f}{verdict['named']:>5}/{verdict['lines']:<2}{len(verdict['misplaced']):>10}"
              f"{len(verdict['invented']):>9}")
        for m in verdict["misplaced"]:
            print(f"    misplaced: {m}")
        figures += [
            Figure(f"{video.name} requests per video-minute", usage["calls"] / minutes, "requests/min"),
            Figure(f"{video.name} prompt tokens per video-minute", usage["prompt_tokens"] / minutes, "tokens/min"),
            Figure(f"{video.name} completion tokens per video-minute", usage["completion_tokens"] / minutes,
                   "tokens/min"),
            Figure(f"{video.name} seconds per video-minute", seconds / minutes, "s/min"),
            Figure(f"{video.name} announcements named", verdict["named"] / max(1, verdict["lines"]), "share"),
        ]
    emit("summaries", figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
