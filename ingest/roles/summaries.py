"""Chapters and a summary of each video, written by a chat model from the rows the other roles made
-> `summaries`.

The facts come from this video's tables (speech, on-screen text, clip captions, tracks and actions
as counts), never from the pictures, so a summary cannot say more than the memory holds.

Hierarchical, so that an hour costs a bounded number of requests with bounded prompts:
1. the timeline is cut into chapters here, not by the model: at the start of a spoken line or a new
   on-screen text nearest every `chapter_s` seconds (a short video: one chapter per ~30 s), so that
   a chapter's span covers every fact it is written from, by construction;
2. chapters are written in groups whose facts fit `prompt_chars` (one request for a short video):
   the model gives each a title and a few sentences; a sentence that another chapter's facts support
   better than its own is dropped (`grounded`), so a chapter names only what happens in its span;
3. one more request writes the video's title and an overview of a sentence or two from the chapters;
   the summary is that overview followed by the chapters' texts in order (`composed`), cut to
   `summary_chars` (each chapter's first sentence when all of them do not fit). Asked to write the
   whole summary, the 1.5B model kept one event per chapter (9-10 of the ten-minute test video's 15
   announcements); a summary made of its own chapter texts keeps what the chapters name. A video of
   one chapter gets its title and summary in the chapters' request.
Requests: about (characters of facts / prompt_chars) + 1. Replies are read leniently (JSON in
prose or code fences, times and keys as small models write them); a reply that names no usable
chapter is asked once more, then the role fails and the stored rows are kept.

Off until a chat model is named (`summaries.model`, e.g. the agents' model); the endpoint is
`summaries.base_url`, else $OPENAI_BASE_URL (the agents' endpoint), else OpenAI's API.
"""

from __future__ import annotations

import itertools
import json
import logging
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import pyarrow as pa

from ingest.errors import IngestError
from ingest.models.vision_client import VisionClient, VisionError
from ingest.models.vision_client import endpoint as chat_endpoint
from ingest.roles.extractor import Availability, Extractor, VideoContext
from memory import rows_table

log = logging.getLogger(__name__)

#: Characters of one fact line at most (a long transcript segment is cut, not dropped).
LINE_CHARS = 240
#: A short video gets a chapter per this many seconds at least (one per `chapter_s` otherwise).
MIN_CHAPTER_S = 30.0


class SummaryError(IngestError):
    """The chat model gave no usable chapters or summary."""


@dataclass(frozen=True)
class Fact:
    """One line of what the memory holds: said, shown (on-screen text), seen (a clip caption)."""

    start_s: float
    end_s: float
    kind: str  # 'said' | 'shown' | 'seen'
    text: str

    def line(self) -> str:
        when = _clock(self.start_s) if self.end_s - self.start_s < 1 else f"{_clock(self.start_s)}-{_clock(self.end_s)}"
        return f"[{when}] {self.kind}: {self.text}"


@dataclass(frozen=True)
class Chapter:
    start_s: float
    end_s: float
    facts: tuple[Fact, ...]
    seen: str  # what was detected in the stretch, as counts ('' when nothing)

    def block(self, number: int) -> str:
        head = f"Chapter {number} [{_clock(self.start_s)}-{_clock(self.end_s)}]"
        lines = [f.line() for f in self.facts] or ["(nothing said, shown as text or captioned)"]
        if self.seen:
            lines.append(f"detected: {self.seen}")
        return "\n".join([head, *lines])


def _clock(t: float) -> str:
    """Seconds as m:ss (h:mm:ss past an hour).

    >>> _clock(83.6), _clock(3725.0)
    ('1:24', '1:02:05')
    """
    s = round(t)
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"


def _readable(text: str) -> bool:
    """On-screen text worth a summary's attention: three letters or digits at least (a lone glyph
    or a stray mark is recognizer noise; the memory keeps it, the summary does not read it)."""
    return sum(ch.isalnum() for ch in text) >= 3


def facts_of(tables: dict[str, pa.Table]) -> list[Fact]:
    """Every said, shown and seen line of the video, in time order."""
    out: list[Fact] = []

    def rows(name: str) -> list[dict[str, Any]]:
        tbl = tables.get(name)
        return tbl.to_pylist() if tbl is not None else []

    for r in rows("transcript"):
        if r["text"].strip():
            out.append(Fact(r["start_s"], r["end_s"], "said", _cut(r["text"])))
    for r in rows("ocr_spans"):
        if _readable(r["text"]):
            out.append(Fact(r["start_s"], r["end_s"], "shown", _cut(r["text"])))
    for r in rows("captions"):
        if r["level"] == "clip" and r["text"].strip():
            out.append(Fact(r["start_s"], r["end_s"], "seen", _cut(r["text"])))
    out.sort(key=lambda f: (f.start_s, f.kind))
    return out


def _cut(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= LINE_CHARS else text[: LINE_CHARS - 3] + "..."


def _seen(tables: dict[str, pa.Table], start_s: float, end_s: float) -> str:
    """Tracked objects and actions overlapping [start_s, end_s), as counts: '3 person, 1 car; walking x2'."""
    counts: dict[str, int] = {}
    tracks = tables.get("tracks")
    if tracks is not None:
        for r in tracks.select(["category", "first_s", "last_s"]).to_pylist():
            if r["first_s"] < end_s and r["last_s"] >= start_s:
                counts[r["category"]] = counts.get(r["category"], 0) + 1
    acts: dict[str, int] = {}
    actions = tables.get("actions")
    if actions is not None:
        for r in actions.select(["label", "start_s", "end_s"]).to_pylist():
            if r["start_s"] < end_s and r["end_s"] >= start_s:
                acts[r["label"]] = acts.get(r["label"], 0) + 1
    parts = []
    if counts:
        parts.append(", ".join(f"{n} {c}" for c, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))))
    if acts:
        parts.append("actions: " + ", ".join(f"{a} x{n}" for a, n in sorted(acts.items(), key=lambda kv: -kv[1])))
    return "; ".join(parts)


def chapter_cuts(starts: Sequence[float], duration_s: float, chapter_s: float) -> list[float]:
    """Where chapters begin: 0, then the fact start nearest each multiple of the target length
    (at least `MIN_CHAPTER_S` apart), so that no fact straddles a cut's left side.

    >>> chapter_cuts([0.0, 12.0, 31.0, 58.0, 95.0, 130.0], 150.0, 60.0)
    [0.0, 58.0, 130.0]
    >>> chapter_cuts([2.0, 5.0], 20.0, 90.0)
    [0.0]
    """
    if duration_s <= 0:
        return [0.0]
    n = max(1, round(duration_s / chapter_s))
    target = max(duration_s / n, min(chapter_s, MIN_CHAPTER_S))
    cuts = [0.0]
    candidates = sorted({s for s in starts if 0 < s < duration_s})
    goal = target
    while goal < duration_s - min(target / 2, MIN_CHAPTER_S / 2):
        usable = [s for s in candidates if s - cuts[-1] >= MIN_CHAPTER_S / 2 and duration_s - s >= MIN_CHAPTER_S / 2]
        if not usable:
            break
        best = min(usable, key=lambda s: abs(s - goal))
        if best <= cuts[-1]:
            break
        cuts.append(best)
        goal = best + target
    return cuts


def chapters_of(tables: dict[str, pa.Table], duration_s: float, chapter_s: float) -> list[Chapter]:
    facts = facts_of(tables)
    end = max([duration_s, *(f.end_s for f in facts)]) if facts else duration_s
    target = min(chapter_s, max(MIN_CHAPTER_S, end / 3)) if end < 3 * chapter_s else chapter_s
    cuts = chapter_cuts([f.start_s for f in facts if f.kind != "seen"] or [f.start_s for f in facts], end, target)
    bounds = [*cuts, end]
    out = []
    for a, b in itertools.pairwise(bounds):
        last = b == end
        mine = tuple(f for f in facts if a <= f.start_s < b or (last and f.start_s == b))
        out.append(Chapter(a, b, mine, _seen(tables, a, b)))
    return out


# -- prompts and replies --------------------------------------------------------------------------

_RULES = (
    "Use only the facts listed: do not add names, numbers, places or events that are not in them. "
    "'said' is speech, 'shown' is text on screen, 'seen' a description of the picture, 'detected' "
    "objects counted by a detector. A chapter with nothing said or shown says what is detected or seen."
)

CHAPTERS_PROMPT = (
    "You write chapter titles and short summaries for a video, from facts read out of it.\n"
    + _RULES
    + "\nFor every chapter below, write a title of at most 8 words and 1 to 3 sentences naming each thing "
    "said or shown in it.{video_part}\n"
    'Reply with JSON only, in this shape: {{{shape}"chapters": [{{"chapter": 1, "title": "...", "text": "..."}}]}}\n\n'
    "{blocks}"
)

VIDEO_PART = (
    " Then write a title of the whole video in one line (at most 15 words) and a summary of 2 to 5 "
    "sentences that names every announcement, sign and event of the chapters."
)

SUMMARY_PROMPT = (
    "You summarize a video from its chapters, which were written from facts read out of it.\n"
    "Use only what the chapters say: add no names, numbers, places or events.\n"
    "Write a title of the whole video in one line (at most 15 words) naming its main topics, and a summary "
    "of one or two sentences saying what kind of video it is and what it is mostly about.\n"
    'Reply with JSON only, in this shape: {{"title": "...", "summary": "..."}}\n\n{chapters}'
)


def _json_objects(text: str) -> list[Any]:
    """Every JSON value that parses in `text`, outermost first (replies wrap JSON in prose and fences)."""
    found: list[Any] = []
    decoder = json.JSONDecoder()
    i = 0
    while i < len(text):
        if text[i] in "{[":
            try:
                value, end = decoder.raw_decode(text, i)
            except json.JSONDecodeError:
                i += 1
                continue
            found.append(value)
            i = end
        else:
            i += 1
    return found


def _field(obj: dict[str, Any], *names: str) -> str:
    """The first of `names` (any case) that holds text; a list of texts (one sentence per chapter)
    is joined."""
    for name in names:
        for key, value in obj.items():
            if key.strip().lower() != name:
                continue
            if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
                value = " ".join(v.strip() for v in value)
            if isinstance(value, str | int | float) and str(value).strip():
                return " ".join(str(value).split())
    return ""


@dataclass(frozen=True)
class Reply:
    title: str  # the video's, when asked for
    summary: str
    chapters: dict[int, tuple[str, str]]  # chapter number -> (title, text)


def read_reply(text: str, numbers: Sequence[int]) -> Reply:
    """The chapters (by their number, or in order when unnumbered), title and summary in a reply.

    >>> r = read_reply('Sure! ```json {"title": "T", "summary": "S.", "chapters": [{"chapter": "2", '
    ...                '"Title": "B", "text": "b."}, {"title": "A", "summary": "a."}]} ```', [1, 2])
    >>> r.title, r.summary, sorted(r.chapters.items())
    ('T', 'S.', [(1, ('A', 'a.')), (2, ('B', 'b.'))])
    """
    title = summary = ""
    chapters: dict[int, tuple[str, str]] = {}
    for value in _json_objects(text):
        items: list[Any] = []
        if isinstance(value, dict) and _field(value, "chapter", "number"):
            items = [value]  # one chapter on its own
        elif isinstance(value, dict):
            title = title or _field(value, "title", "video_title")
            summary = summary or _field(value, "summary", "video_summary", "description")
            for key in ("chapters", "sections", "chapter_list"):
                if isinstance(value.get(key), list):
                    items = value[key]
        elif isinstance(value, list):
            items = value
        unnumbered: list[tuple[str, str]] = []
        for item in items:
            if not isinstance(item, dict):
                continue
            c_title = _field(item, "title", "name", "heading")
            c_text = _field(item, "text", "summary", "description", "content")
            if not c_title and not c_text:
                continue
            pair = (c_title or _first_words(c_text), c_text or c_title)
            raw = _field(item, "chapter", "number", "id", "index")
            digits = re.match(r"\D*(\d+)", raw)
            n = int(digits.group(1)) if digits else None
            if n is not None and n in numbers and n not in chapters:
                chapters[n] = pair
            else:
                unnumbered.append(pair)
        free = [n for n in numbers if n not in chapters]
        for n, pair in zip(free, unnumbered, strict=False):
            chapters[n] = pair
    return Reply(title, summary, chapters)


def _first_words(text: str, n: int = 8) -> str:
    words = text.split()
    return " ".join(words[:n]).rstrip(".,;:") + ("..." if len(words) > n else "")


def groups_of(blocks: Sequence[str], prompt_chars: int) -> list[list[int]]:
    """Consecutive block indices whose text fits `prompt_chars` together (a block alone may not).

    >>> groups_of(["a" * 40, "b" * 40, "c" * 90], 100)
    [[0, 1], [2]]
    """
    groups: list[list[int]] = []
    size = 0
    for i, block in enumerate(blocks):
        if groups and size + len(block) <= prompt_chars:
            groups[-1].append(i)
            size += len(block)
        else:
            groups.append([i])
            size = len(block)
    return groups


def _fit(block: str, prompt_chars: int) -> str:
    """A chapter's block cut to the budget (a very dense chapter: its first lines)."""
    if len(block) <= prompt_chars:
        return block
    return block[: prompt_chars - 20].rsplit("\n", 1)[0] + "\n(... more lines)"


def _sentences(text: str) -> list[str]:
    return [x.strip() for x in re.split(r"(?<=[.!?])\s+", text) if x.strip()]


def composed(overview: str, chapter_texts: Sequence[str], limit: int) -> str:
    """The video's summary: the model's overview, then the chapters' texts in order, within `limit`
    characters; when they do not all fit, each chapter's first sentence, then as many as fit.

    >>> composed("A station day.", ["The red train leaves. It is late.", "Maria waits."], 200)
    'A station day. The red train leaves. It is late. Maria waits.'
    >>> composed("A station day.", ["The red train leaves. It is late.", "Maria waits."], 50)
    'A station day. The red train leaves. Maria waits.'
    """
    texts = [t.strip() for t in chapter_texts if t.strip()]
    whole = " ".join([overview.strip(), *texts]).strip()
    if len(whole) <= limit:
        return whole
    out = overview.strip()
    for text in texts:
        first = _sentences(text)[0]
        if len(out) + 1 + len(first) > limit:
            break
        out = f"{out} {first}".strip()
    return out or whole[:limit]


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if len(w) >= 4 or w.isdigit()}


def grounded(written: dict[int, tuple[str, str]], chapters: Sequence[Chapter]) -> dict[int, tuple[str, str]]:
    """Each chapter's text without the sentences that another chapter's facts support better (a small
    model writing several chapters at once lets one chapter's events slip into its neighbour's text,
    so a chapter would name an event outside its span). A chapter keeps at least its best sentence.

    >>> c = [Chapter(0, 60, (Fact(5, 8, "said", "The red train leaves."),), ""),
    ...      Chapter(60, 120, (Fact(70, 72, "said", "The dance class starts at five."),), "")]
    >>> grounded({1: ("Trains", "The red train leaves. The dance class starts at five.")}, c)
    {1: ('Trains', 'The red train leaves.')}
    """
    support = {n: _words(" ".join(f.text for f in c.facts) + " " + c.seen) for n, c in enumerate(chapters, 1)}
    out = {}
    for n, (title, text) in written.items():
        sentences = _sentences(text)
        kept = []
        for sentence in sentences:
            words = _words(sentence)
            own = len(words & support.get(n, set()))
            other = max((len(words & ws) for m, ws in support.items() if m != n), default=0)
            if own >= other:
                kept.append(sentence)
        if not kept and sentences:
            kept = [max(sentences, key=lambda x: len(_words(x) & support.get(n, set())))]
        out[n] = (title, " ".join(kept))
    return out


# -- the role -------------------------------------------------------------------------------------


class Summarizer(Extractor):
    role: ClassVar[str] = "summaries"
    tables: ClassVar[tuple[str, ...]] = ("summaries",)
    after: ClassVar[tuple[str, ...]] = ("tracking", "asr", "ocr", "actions", "captions")

    _client: VisionClient | None = None

    def availability(self) -> Availability:
        cfg = self.settings.summaries
        if not cfg.model:
            return Availability(
                False,
                "no chat model configured: set summaries.model (VIDMEM_SUMMARIES_MODEL, e.g. the agents' "
                "$VIDMEM_LLM_MODEL) and summaries.base_url or OPENAI_BASE_URL to an OpenAI-compatible endpoint",
            )
        url = chat_endpoint(cfg.base_url)
        if url is None and not os.environ.get("OPENAI_API_KEY"):
            return Availability(
                False, f"summaries.model is {cfg.model!r} but no endpoint: set summaries.base_url or "
                "OPENAI_BASE_URL (or OPENAI_API_KEY for OpenAI's API)"
            )
        detail = f"chat model {cfg.model!r} at {url or 'OpenAI API'} (first contacted after the other roles)"
        return Availability(True, detail, "endpoint")

    def client(self) -> VisionClient:
        if self._client is None:
            cfg = self.settings.summaries
            self._client = VisionClient(str(cfg.model), cfg.base_url, cfg.timeout_s, cfg.max_retries)
        return self._client

    def begin(self, ctx: VideoContext) -> None:
        self.usage = {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0}

    def _ask(self, prompt: str) -> str:
        cfg = self.settings.summaries
        done = self.client().complete(prompt, [], cfg.max_tokens)
        self.usage["calls"] += 1
        self.usage["prompt_tokens"] += done.prompt_tokens
        self.usage["completion_tokens"] += done.completion_tokens
        return done.text

    def _ask_for(self, prompt: str, numbers: Sequence[int], want_video: bool) -> Reply:
        """A reply with every chapter of `numbers` (and the video's summary, if asked), asking once
        more when the first names none of them; chapters still missing get no row."""
        reply = read_reply(self._ask(prompt), numbers)
        if not reply.chapters or (want_video and not reply.summary):
            again = read_reply(self._ask(prompt + "\n\nReply with the JSON object only, nothing else."), numbers)
            if len(again.chapters) + bool(again.summary) > len(reply.chapters) + bool(reply.summary):
                reply = again
        return reply

    def end(self, ctx: VideoContext) -> None:
        cfg = self.settings.summaries
        duration = float(ctx.info.duration_s or 0.0)
        chapters = chapters_of(ctx.tables, duration, cfg.chapter_s)
        if not any(c.facts or c.seen for c in chapters):
            log.info("%s: nothing said, shown or detected: no summary", ctx.info.path)
            ctx.tables["summaries"] = rows_table("summaries", [], ctx.info.video_id)
            return
        blocks = [_fit(c.block(i + 1), cfg.prompt_chars) for i, c in enumerate(chapters)]
        groups = groups_of(blocks, cfg.prompt_chars)
        written: dict[int, tuple[str, str]] = {}
        title = summary = ""
        try:
            for group in groups:
                numbers = [i + 1 for i in group]
                whole = len(chapters) == 1  # one chapter: its summary is the video's, in the same request
                prompt = CHAPTERS_PROMPT.format(
                    video_part=VIDEO_PART if whole else "",
                    shape='"title": "...", "summary": "...", ' if whole else "",
                    blocks="\n\n".join(blocks[i] for i in group),
                )
                reply = self._ask_for(prompt, numbers, want_video=whole)
                written.update(reply.chapters)
                if whole:
                    title, summary = reply.title, reply.summary
            if not written:
                raise SummaryError(f"{cfg.model!r} wrote no usable chapter in {self.usage['calls']} requests")
            if not summary:
                listing = "\n".join(
                    f"Chapter {n} [{_clock(chapters[n - 1].start_s)}-{_clock(chapters[n - 1].end_s)}] {t}: {x}"
                    for n, (t, x) in sorted(written.items())
                )
                prompt = SUMMARY_PROMPT.format(chapters=_fit(listing, cfg.prompt_chars))
                answer = self._ask(prompt)
                reply = read_reply(answer, [])
                if not reply.summary:
                    log.warning("%s: no summary in the reply, asking once more: %.300s", ctx.info.path, answer)
                    answer = self._ask(prompt + "\n\nReply with the JSON object only.")
                    reply = read_reply(answer, [])
                if not reply.summary:
                    log.warning("%s: no summary in the second reply either: %.300s", ctx.info.path, answer)
                title, summary = reply.title, reply.summary
        except VisionError as exc:
            raise SummaryError(f"summaries request failed: {exc}") from exc
        if not summary:
            raise SummaryError(f"{cfg.model!r} wrote no summary of the video in {self.usage['calls']} requests")
        written = grounded(written, chapters)
        if len(chapters) > 1:
            summary = composed(summary, [text for _, (_, text) in sorted(written.items())], cfg.summary_chars)
        rows = [{"summary_id": 0, "level": "video", "start_s": 0.0, "end_s": chapters[-1].end_s,
                 "title": title or _first_words(summary, 12), "text": summary, "model": cfg.model}]
        for n, (c_title, c_text) in sorted(written.items()):
            c = chapters[n - 1]
            rows.append({"summary_id": n, "level": "chapter", "start_s": c.start_s, "end_s": c.end_s,
                         "title": c_title, "text": c_text, "model": cfg.model})
        missing = len(chapters) - len(written)
        log.info("%s: %d chapters%s and a summary in %d requests (%d prompt, %d completion tokens)",
                 ctx.info.path, len(written), f" ({missing} left unwritten)" if missing else "",
                 self.usage["calls"], self.usage["prompt_tokens"], self.usage["completion_tokens"])
        ctx.tables["summaries"] = rows_table("summaries", rows, ctx.info.video_id)
        ctx.artifacts["summaries_usage"] = dict(self.usage)
