"""vidmem search: find a phrase or a description across the archive, one line per hit."""

import argparse
import json
import math
from pathlib import Path

import queries
from memory import open_memory
from vidmem.cli import EXIT_FAILED, EXIT_OK, add_memory_arg
from vidmem.compose import encoders, resolve_video
from vidmem.config import settings_from


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "search",
        help="find what was said, shown or seen across the archive",
        description="Hybrid search over the archive: speech, on-screen text and captions by keyword and by "
        "meaning (fused by rank), then frames that look like the query (CLIP). One line per hit: file, time, "
        "kind, text, score. Kinds whose models or embeddings are missing here are left out with a note.",
        epilog='Examples:\n  vidmem search "platform change"\n  vidmem search "red car" --kind frame -k 5\n'
        '  vidmem search exit --video lobby.mp4 --kind text --format json',
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("query", help="words, a phrase or a description")
    add_memory_arg(p)
    p.add_argument("--video", metavar="VIDEO", help="only this video (id, path or file name)")
    p.add_argument("--kind", action="append", choices=queries.KINDS, metavar="KIND",
                   help=f"only hits of this kind ({', '.join(queries.KINDS)}); repeatable; default all")
    p.add_argument("-k", type=int, default=10, help="hits per kind of search (default 10)")
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    kinds = args.kind or list(queries.KINDS)
    found = encoders(settings_from(None), roles=_roles(kinds))
    with open_memory(args.memory, read_only=True) as memory:
        result = queries.search_archive(
            memory, args.query, text_encoder=found.get("text"), clip_encoder=found.get("clip"), k=args.k,
            video_id=resolve_video(memory, args.video), kinds=kinds,
        )  # fmt: skip
    if args.format == "json":
        print(json.dumps({"hits": [vars(h) for h in result.hits], "notes": list(result.notes)}, indent=1))
    else:
        for h in result.hits:
            text = " ".join(h.text.split())
            text = f'"{text[:100]}{"..." if len(text) > 100 else ""}"' if text else "-"
            noise = f"  (likely OCR noise: {h.noise})" if h.noise else ""
            print(f"{Path(h.path).name}  {_span(h.start_s, h.end_s)}  {h.kind:<7}  {text}  {h.score:.3f}{noise}")
        if not result.hits:
            print(f"nothing matches {args.query!r}")
        for note in result.notes:
            print(f"note: {note}")
    return EXIT_OK if result.hits or not result.notes else EXIT_FAILED


def _roles(kinds: list[str]) -> tuple[str, ...]:
    """The encoders the asked kinds need: texts are searched by meaning too, frames only by CLIP."""
    return tuple(r for r, needed in (("text", set(kinds) - {"frame"}), ("clip", {"frame"} & set(kinds))) if needed)


def _span(start_s: float, end_s: float) -> str:
    def clock(t: float) -> str:
        return f"{int(t // 60)}:{t % 60:04.1f}" if math.isfinite(t) else "?"

    return clock(start_s) if end_s - start_s < 0.05 else f"{clock(start_s)}-{clock(end_s)}"
