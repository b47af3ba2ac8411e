"""Video tools (MMCTAgent, CAVIAR): read the transcript, search text and frames, find when something
happens, show a segment, answer from retrieved passages; plus `think` and `finish`.

Each tool is a small `Tool` with `name`, `description`, typed `inputs` and `forward`.
Everything that came from a video is quoted with `format.quote_data`; see there why.
"""

from typing import Any, ClassVar

import queries
from agents.llm import Message
from agents.prompts import render
from agents.steps import Evidence, Observation
from agents.tools.base import Tool, ToolContext, ToolInput, takes
from agents.tools.format import DATA_RULE, evidence_from_rows, fmt_s, parse_span, quote_data
from agents.tools.search import SOURCE_LABELS, frame_search, hit_row, keyword_search, merge_hits, text_search
from queries.search import TextHit

__all__ = [
    "FindWhen",
    "Finish",
    "GetSegment",
    "GetTranscript",
    "QueryFrames",
    "QueryTranscript",
    "RetrievalQA",
    "Think",
    "VideoSummary",
]

_MAX_CHARS = 3000  # of quoted text per observation; the planner cuts longer ones anyway


def _label(source: str) -> str:
    return SOURCE_LABELS.get(source, {"actions": "action", "tracks": "object"}.get(source, source))


def _hit_lines(hits: list[TextHit], ctx: ToolContext, *, scores: bool = True) -> str:
    lines = []
    for h in hits:
        where = "" if ctx.video_id else f"{h.video_id} "
        score = f" (score {h.score:.2f})" if scores else ""
        lines.append(f"[{where}{fmt_s(h.start_s)}-{fmt_s(h.end_s)}] {_label(h.source)}: {h.text}{score}")
    return _cap("\n".join(lines))


def _cap(text: str, limit: int = _MAX_CHARS) -> str:
    return text if len(text) <= limit else text[:limit] + "\n... (cut; ask for a narrower time range)"


def _hits_evidence(tool: str, hits: list[TextHit], ctx: ToolContext, note: str = "") -> Evidence:
    rows = [hit_row(h) for h in hits]
    columns = list(rows[0]) if rows else []
    return evidence_from_rows(tool, columns, [tuple(r.values()) for r in rows], video_id=ctx.video_id, note=note)


def _roles(ctx: ToolContext) -> dict[str, str]:
    """The video's ingest roles ('asr' -> 'ran' / 'skipped: why'), to explain an empty result."""
    return {} if ctx.video_id is None else queries.role_states(ctx.memory, ctx.video_id)


def _why_empty(ctx: ToolContext, role: str, what: str) -> str:
    state = _roles(ctx).get(role)
    return f"The memory holds no {what}" + (f" (ingest role {role}: {state})." if state else ".")


class GetTranscript(Tool):
    name = "get_transcript"
    description = "The speech transcript with times, whole or for a time range."
    inputs = takes(time_range=ToolInput("string", "a range like '10-30'", required=False))

    def forward(self, ctx: ToolContext, time_range: str = "") -> Observation:
        span = parse_span(time_range)
        rows = queries.transcript_between(ctx.memory, ctx.video_id, *(span or (None, None)))
        during = f" between {fmt_s(span[0])} and {fmt_s(span[1])}" if span else ""
        if not rows:
            return Observation(_why_empty(ctx, "asr", f"speech{during}"))
        lines = "\n".join(
            f"[{'' if ctx.video_id else r['video_id'] + ' '}{fmt_s(r['start_s'])}-{fmt_s(r['end_s'])}] {r['text']}"
            for r in rows
        )
        evidence = evidence_from_rows(
            self.name, ["video_id", "start_s", "end_s", "text"], [tuple(r.values()) for r in rows],
            video_id=ctx.video_id, note=f"{len(rows)} transcript segments{during}",
        )  # fmt: skip
        return Observation(quote_data(_cap(lines), f"transcript{during}"), evidence=(evidence,))


class QueryTranscript(Tool):
    name = "query_transcript"
    description = "The transcript segments closest in meaning to a phrase (semantic search, top 5)."
    inputs = takes(query=ToolInput("string", "what to look for, e.g. 'talk about trains'"))
    k: ClassVar[int] = 5

    def forward(self, ctx: ToolContext, query: str) -> Observation:
        hits, unavailable = text_search(ctx, query, sources=["transcript"], k=self.k)
        note = "semantic search"
        if unavailable:
            hits = keyword_search(ctx, query, sources=["transcript"], k=self.k)
            note = f"keyword matches (semantic search unavailable: {unavailable})"
        if not hits:
            return Observation(f"No transcript segment matches {query!r} ({note}).")
        return Observation(
            quote_data(_hit_lines(hits, ctx), f"transcript, {note}"),
            evidence=(_hits_evidence(self.name, hits, ctx, note),),
        )


class QueryFrames(Tool):
    name = "query_frames"
    description = "The frames that look most like a description (CLIP text-to-frame search, top 5), with their times."
    inputs = takes(description=ToolInput("string", "a visual description, e.g. 'a red car'"))
    k: ClassVar[int] = 5

    @classmethod
    def unavailable(cls, ctx: ToolContext) -> str | None:
        return None if "clip" in ctx.encoders else "no CLIP encoder is configured"

    def forward(self, ctx: ToolContext, description: str) -> Observation:
        query = description
        hits, unavailable = frame_search(ctx, query, k=self.k)
        if unavailable:
            return Observation(
                f"query_frames is unavailable: {unavailable}. Use find_when, query_transcript or the SQL tools instead."
            )
        lines = "\n".join(
            f"{'' if ctx.video_id else h.video_id + ' '}{fmt_s(h.t_s)} (frame {h.frame_index}, score {h.score:.3f})"
            for h in hits
        )
        evidence = evidence_from_rows(
            self.name, ["video_id", "frame_index", "t_s", "score"],
            [(h.video_id, h.frame_index, h.t_s, round(h.score, 4)) for h in hits],
            video_id=ctx.video_id, note=f"frames matching {query!r}",
        )  # fmt: skip
        return Observation(
            f"Frames that best match {query!r}, best first (CLIP scores compare only within one search):\n{lines}",
            evidence=(evidence,),
        )


class FindWhen(Tool):
    name = "find_when"
    description = (
        "When something is said, shown on screen, captioned, done or seen: searches speech, on-screen text, "
        "captions, actions and tracked objects."
    )
    inputs = takes(description=ToolInput("string", "a description, e.g. 'the word EXIT'"))
    k: ClassVar[int] = 8

    def forward(self, ctx: ToolContext, description: str) -> Observation:
        query = description
        semantic, unavailable = text_search(ctx, query, k=self.k)
        keyword = keyword_search(ctx, query, k=self.k, with_objects=True)
        hits = merge_hits(semantic, keyword, k=self.k)
        how = "semantic and keyword search" if not unavailable else f"keyword search ({unavailable})"
        if not hits:
            return Observation(f"Nothing in the memory matches {query!r} ({how}).")
        return Observation(
            quote_data(_hit_lines(hits, ctx), f"moments matching the description, best first; {how}"),
            evidence=(_hits_evidence(self.name, hits, ctx, how),),
        )


class GetSegment(Tool):
    name = "get_segment"
    description = (
        "Everything the memory holds between two times: speech, on-screen text, captions, objects visible, actions."
    )
    inputs = takes(time_range=ToolInput("string", "a time range in seconds, e.g. '4-9'"))

    def forward(self, ctx: ToolContext, time_range: str) -> Observation:
        span = parse_span(time_range)
        if span is None:
            return Observation("", error="get_segment needs a time range in seconds, e.g. '4-9'")
        a, b = span
        found = queries.segment_contents(ctx.memory, ctx.video_id, a, b)
        texts, objects, actions = found.texts, found.objects, found.actions
        lines = [f"[{fmt_s(r['start_s'])}-{fmt_s(r['end_s'])}] {_label(r['source'])}: {r['text']}" for r in texts]
        lines += [
            f"objects: {r['n']} {r['category']} seen between {fmt_s(r['first_s'])} and {fmt_s(r['last_s'])}"
            + (f" ({r['looks'][:300]})" if r["looks"] else "")
            for r in objects
        ]
        lines += [
            f"[{fmt_s(r['start_s'])}-{fmt_s(r['end_s'])}] action: {r['category'] or 'scene'} "
            f"{'#' + str(r['track_id']) + ' ' if r['track_id'] is not None else ''}{r['label']}"
            for r in actions
        ]
        header = f"segment {fmt_s(a)}-{fmt_s(b)}"
        if not lines:
            return Observation(f"The memory holds nothing between {fmt_s(a)} and {fmt_s(b)}.")
        rows: list[dict[str, Any]] = [
            *texts,
            *({"source": "tracks", **r} for r in objects),
            *({"source": "actions", **r} for r in actions),
        ]
        columns = sorted({c for r in rows for c in r})
        evidence = evidence_from_rows(
            self.name, columns, [tuple(r.get(c) for c in columns) for r in rows], video_id=ctx.video_id,
            note=header,
        )  # fmt: skip
        return Observation(quote_data(_cap("\n".join(lines)), header), evidence=(evidence,))


class RetrievalQA(Tool):
    name = "retrieval_qa"
    description = (
        "Answers a question from the speech, on-screen text and captions most related to it (retrieval + reading)."
    )
    inputs = takes(question=ToolInput("string", "the question"))
    k: ClassVar[int] = 8
    max_tokens: ClassVar[int] = 160

    def forward(self, ctx: ToolContext, question: str) -> Observation:
        semantic, unavailable = text_search(ctx, question, k=self.k)
        hits = merge_hits(semantic, keyword_search(ctx, question, k=self.k), k=self.k)
        if not hits:
            return Observation("No speech, on-screen text or caption in the memory relates to the question.")
        hits = sorted(hits, key=lambda h: (h.video_id, h.start_s))  # in time order for reading
        passages = quote_data(_hit_lines(hits, ctx, scores=False), "passages from the video")
        messages = [
            Message("system", render("tools:retrieval_qa_system", data_rule=DATA_RULE)),
            Message("user", f"{passages}\nQuestion: {question}"),
        ]
        reply = ctx.llm.complete(messages, max_tokens=self.max_tokens, temperature=0.0)
        how = "semantic and keyword retrieval" if not unavailable else "keyword retrieval"
        evidence = _hits_evidence(self.name, hits, ctx, f"{len(hits)} passages, {how}")
        answer = quote_data(reply.text.strip(), "answer written from the passages")  # may quote them: data too
        return Observation(f"{answer}\n{passages}", evidence=(evidence,))


class VideoSummary(Tool):
    name = "video_summary"
    description = (
        "What the video is about: its summary and chapters with times (from the summaries role), else a "
        "summary written now from its speech and on-screen text. Without a video: each video's summary, by file."
    )
    inputs = takes()
    #: Characters of timeline one reading call gets, and how many such calls one summary may cost: an
    #: hour of dense speech is read in `max_parts` evenly spread parts, not whole.
    part_chars: ClassVar[int] = 5000
    max_parts: ClassVar[int] = 4
    max_tokens: ClassVar[int] = 300

    def forward(self, ctx: ToolContext) -> Observation:
        if ctx.video_id is None:
            return self._archive(ctx)
        stored = queries.video_summary(ctx.memory, ctx.video_id)
        if stored is not None:
            lines = [f"{stored.file}: {stored.title}", stored.text]
            lines += [f"[{fmt_s(c.start_s)}-{fmt_s(c.end_s)}] {c.title}: {c.text}" for c in stored.chapters]
            evidence = evidence_from_rows(
                self.name, ["start_s", "end_s", "title", "text"],
                [(c.start_s, c.end_s, c.title, c.text) for c in stored.chapters], video_id=ctx.video_id,
                note=f"summary and {len(stored.chapters)} chapters by {stored.model}",
            )  # fmt: skip
            return Observation(quote_data(_cap("\n".join(lines)), "summary written by the summaries role"),
                               evidence=(evidence,))
        return self._written_now(ctx, ctx.video_id)

    def _archive(self, ctx: ToolContext) -> Observation:
        summaries = queries.archive_summaries(ctx.memory)
        files = queries.video_files(ctx.memory)
        if not files:
            return Observation("The memory holds no videos.")
        lines = [f"{f.path.rsplit('/', 1)[-1]}: " + (summaries[f.video_id].title if f.video_id in summaries
                 else "(no summary: the summaries role has not run on it)") for f in files]
        return Observation(quote_data(_cap("\n".join(lines)), "each video's one-line summary"))

    def _written_now(self, ctx: ToolContext, video_id: str) -> Observation:
        (video,) = queries.video_files(ctx.memory, video_id)
        contents = queries.segment_contents(ctx.memory, video_id, 0.0, max(video.duration_s, 1.0), max_texts=2000)
        texts = [r for r in contents.texts if r["source"] != "summaries"]
        lines = [f"[{fmt_s(r['start_s'])}] {_label(r['source'])}: {' '.join(r['text'].split())}" for r in texts]
        if not lines:
            return Observation(_why_empty(ctx, "asr", "speech or on-screen text to summarize"))
        parts = _parts(lines, self.part_chars, self.max_parts)
        notes = []
        for n, part in enumerate(parts, 1):
            messages = [
                Message("system", render("tools:summary_system", data_rule=DATA_RULE)),
                Message("user", quote_data("\n".join(part), f"part {n} of {len(parts)} of the video's timeline")),
            ]
            notes.append(ctx.llm.complete(messages, max_tokens=self.max_tokens, temperature=0.0).text.strip())
        if len(notes) > 1:
            messages = [
                Message("system", render("tools:summary_combine_system", data_rule=DATA_RULE)),
                Message("user", quote_data("\n\n".join(notes), "summaries of the video's parts, in order")),
            ]
            notes = [ctx.llm.complete(messages, max_tokens=self.max_tokens, temperature=0.0).text.strip()]
        shown = sum(len(p) for p in parts)
        evidence = evidence_from_rows(
            self.name, ["source", "start_s", "end_s", "text"],
            [(r["source"], r["start_s"], r["end_s"], r["text"]) for r in texts], video_id=video_id,
            note=f"summary written now from {shown} of {len(lines)} timeline lines ({len(parts)} parts)",
        )  # fmt: skip
        head = f"{video.path.rsplit('/', 1)[-1]} (no stored summary; written now from {shown} of {len(lines)} lines)"
        return Observation(quote_data(notes[0], head), evidence=(evidence,))


def _parts(lines: list[str], part_chars: int, max_parts: int) -> list[list[str]]:
    """Consecutive runs of `lines` of at most `part_chars` characters; when there are more than
    `max_parts`, that many evenly spread over the video (the rest is not read).

    >>> [len(p) for p in _parts(["x" * 40] * 10, 100, 3)]
    [2, 2, 2]
    """
    runs: list[list[str]] = [[]]
    size = 0
    for line in lines:
        if runs[-1] and size + len(line) + 1 > part_chars:
            runs.append([])
            size = 0
        runs[-1].append(line[:part_chars])
        size += len(line) + 1
    if len(runs) <= max_parts:
        return runs
    step = len(runs) / max_parts
    return [runs[int(i * step)] for i in range(max_parts)]


class Think(Tool):
    name = "think"
    description = "Write down reasoning or a plan without looking anything up."
    inputs = takes(thoughts=ToolInput("string", "your thoughts", required=False))

    def forward(self, ctx: ToolContext, thoughts: str = "") -> Observation:
        return Observation("Noted. Continue with a tool, or finish when the observations answer the question.")


class Finish(Tool):
    name = "finish"
    description = "Give the final answer."
    inputs = takes(answer=ToolInput("string", "the answer, with times in seconds where they matter"))

    def forward(self, ctx: ToolContext, answer: str) -> Observation:
        return Observation(answer, final=True)
