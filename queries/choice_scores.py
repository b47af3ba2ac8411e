"""Multiple-choice support from the memory, without an LLM: each choice scored 0 to 1.

A choice is read as what it is about, and checked against the memory accordingly:

- a time ("around 2 to 5 seconds", "from 4 to 9 s", "at the start"): overlap with the times of the
  best evidence for the question (intersection over union);
- a duration, when the question asks how long: closeness to the best evidence's length;
- a count, when the question asks how many: closeness to the counts the query library gives;
- a denial ("it is never mentioned", "no, there is no speech"): the absence of evidence;
- anything else: its words found in, or its meaning close to, the video's speech, on-screen text
  and captions (keyword and semantic search of the choice itself).
"""

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from memory import Memory
from queries.errors import QueryError
from queries.question_words import GRAMMAR_WORDS
from queries.search import SOURCE_LABELS, Encoder, TextHit, keyword_search, search_texts
from queries.time_phrases import number_words_to_digits, time_windows

__all__ = ["ChoiceScore", "EvidenceSpan", "choice_kind", "score_choices"]

_NEGATION = re.compile(
    r"\b(never|not|no|nobody|none|nothing|neither|cannot|can't|isn't|doesn't|don't|wasn't|aren't|unknown|"
    r"no one|not mentioned|not shown|not visible|unanswerable)\b",
    re.I,
)
_SPEECH_WORDS = re.compile(r"\b(speak|speaks|spoken|speech|said|says|say|talk|talks|voice|mention|mentioned|words)\b",
                           re.I)
_DURATION_QUESTION = re.compile(r"\bhow long\b|\bfor how many seconds\b|\bduration\b|\bhow much time\b", re.I)
_COUNT_QUESTION = re.compile(r"\bhow many\b|\bnumber of\b|\bcount of\b", re.I)
_WHOLE = re.compile(r"\b(the )?whole (video|clip|time)\b|\bthroughout\b|\ball the time\b|\bentire (video|clip)\b", re.I)
_WORD = re.compile(r"[\w']+")
#: "Which of these is announced first?", "which of these do they talk about first?", "... is said last?": the
#: order of the lines the choices name, not a step within one line ("what do you go through first?").
_WHICH_COMES = re.compile(
    r"\bwhich\b(?=[^?]*\b(?:say|says|said|mention(?:s|ed)?|announce[sd]?|talk(?:s|ed)?|shown?|shows|"
    r"appears?|appeared|comes?|came)\b)[^?]*\b(first|earliest|last|latest|final)\b",
    re.I,
)
#: (table, id) of text rows: the ones next to what an order question is anchored on.
Neighbors = set[tuple[str | None, int | None]]


@dataclass(frozen=True)
class ChoiceScore:
    """How well the memory supports one choice of a multiple-choice question (0 to 1), and why."""

    index: int
    choice: str
    score: float
    reason: str  # short, for the prompt: 'overlaps speech 1.6-4.9 s', 'count 6 at 5 s', ...
    start_s: float | None = None  # the evidence the score rests on, when it has a time
    end_s: float | None = None
    #: the choice whose line comes first (or last) of them all, as the question asks (`_in_time_order`):
    #: an answer the code computed, not a support
    timed: bool = False


@dataclass(frozen=True)
class EvidenceSpan:
    """Where the best evidence for the question lies, how strong it is (0-1), and what it is."""

    start_s: float
    end_s: float
    weight: float
    label: str  # 'speech', 'on-screen text', 'person visible', ...


def choice_kind(question: str, choice: str) -> str:
    """What a choice is about: 'duration', 'count', 'denial', 'time' or 'text'.

    >>> [choice_kind("When is it said?", c) for c in ("around 2 to 5 seconds", "it is never mentioned", "a train")]
    ['time', 'denial', 'text']
    """
    digits = number_words_to_digits(choice)
    has_number = bool(re.search(r"\d", digits))
    if _DURATION_QUESTION.search(question) and (has_number or _WHOLE.search(choice)):
        return "duration"
    if _COUNT_QUESTION.search(question) and has_number:
        return "count"
    if _NEGATION.search(choice):
        return "denial"
    if time_windows(choice, None) or _WHOLE.search(choice):
        return "time"
    return "text"


def score_choices(
    memory: Memory,
    question: str,
    choices: Sequence[str],
    video_id: str,
    *,
    evidence: Sequence[EvidenceSpan],
    counts: Sequence[float],
    strength: float,
    duration_s: float | None,
    has_speech: bool,
    encoder: Encoder | None = None,
    neighbors: Neighbors | None = None,
    windows: Sequence[tuple[float, float]] = (),
    relevance: Mapping[tuple[str, int], float] | None = None,
) -> list[ChoiceScore]:
    """One score per choice, in the choices' order.

    evidence: the best evidence for the question, best first (times and weights); counts: the
    counts the library gave for the question's objects (at its time, or at most at once); strength:
    how well the memory matches the question at all (0-1), which a denial is the opposite of.
    neighbors: for "what is said right after X", the (table, id) of the rows next to X: a text
    choice matching another row (X itself, or something said elsewhere) is marked down. windows:
    the times the question asks about; a text choice matching a row outside them is marked down.
    relevance: how well rows match the question (0-1, by (table, id)); without neighbors or windows,
    and when a denial is among the choices, a text choice counts as much as the row it matches is
    about the question.
    """
    out = []
    kinds = [_unless_said(memory, video_id, c, choice_kind(question, c)) for c in choices]
    # against a denial, a text choice counts only as much as the row it matches is about the question
    # ("what does the speaker say about the helicopter": every choice is said, none about it); not when the
    # order of the lines is asked ("which of these is said first?" names nothing a line is about)
    calibrate = "denial" in kinds and not _WHICH_COMES.search(question)
    for i, (choice, kind) in enumerate(zip(choices, kinds, strict=True)):
        if kind == "duration":
            out.append(_duration(i, choice, evidence, duration_s))
        elif kind == "count":
            out.append(_count(i, choice, counts))
        elif kind == "denial":
            out.append(_denial(i, choice, strength, has_speech))
        elif kind == "time":
            out.append(_time(i, choice, evidence, duration_s))
        else:
            focus = _Focus(neighbors or set(), list(windows), relevance or {}, _words(question), calibrate)
            out.append(_text(memory, i, choice, video_id, encoder, focus))
    return _in_time_order(out, question, kinds) if not (neighbors or windows) else out


def _unless_said(memory: Memory, vid: str, choice: str, kind: str) -> str:
    """'text' for a choice worded with a negation that names a line of the video ("the no-photos rule in the
    art gallery", "no photos in the chapel"): a thing said, whose line has two thirds of its other words
    and at least two. Scored as a denial (the memory's mismatch with the question), each was test17's
    top choice of "which of these is said first?" over the three said choices. Other kinds as they are."""
    if kind != "denial":
        return kind
    words = _words(_NEGATION.sub(" ", choice))
    if len(words) < 2:
        return kind
    hits = keyword_search(memory, " ".join(words), k=3, video_id=vid, match="any")
    return "text" if any(_share(words, hit.text) >= 2 / 3 for hit in hits) else kind


def _share(words: Sequence[str], text: str) -> float:
    """The part of `words` that `text` holds, a longer word by its first five letters ('photo' for 'photos')."""
    found = set(_words(text))
    return sum(1 for w in words if w in found or any(f.startswith(w[:5]) for f in found if len(w) > 4)) / len(words)


def _in_time_order(scores: list[ChoiceScore], question: str, kinds: Sequence[str]) -> list[ChoiceScore]:
    """For "which of these is announced first (last)?": of the text choices that match a line well
    (0.6 or more), the one whose line comes first (last) keeps its score and the others lose half, as
    does a denial. Each choice matched its own line equally well (0.8) and the small model picked one of
    the three tied 'best supported' at random (test15: 0 of 3)."""
    asked = _WHICH_COMES.search(question)
    found = [s for s, k in zip(scores, kinds, strict=True) if k == "text" and s.score >= 0.6 and s.start_s is not None]
    if asked is None or len(found) < 2:
        return scores
    last = asked.group(1).lower() in ("last", "latest", "final")
    pick = (max if last else min)(found, key=lambda s: s.start_s or 0.0)
    order = "before" if last else "after"
    out = []
    for s, kind in zip(scores, kinds, strict=True):
        if s is pick:
            s = replace(s, timed=True)
        elif s in found:
            s = replace(s, score=round(s.score / 2, 2), reason=f"{s.reason}; comes {order} {chr(65 + pick.index)}")
        elif kind == "denial":  # "none of them", "all at once": the lines found at their times contradict it
            s = replace(s, score=round(s.score / 2, 2), reason=f"{s.reason}; the lines have times")
        out.append(s)
    return out


def _number(text: str) -> float | None:
    m = re.search(r"\d+(?:\.\d+)?", number_words_to_digits(text))
    return float(m.group(0)) if m else None


def _s(t: float) -> str:
    return f"{t:.1f}".rstrip("0").rstrip(".")


def _duration(i: int, choice: str, evidence: Sequence[EvidenceSpan], duration: float | None) -> ChoiceScore:
    value = duration if _WHOLE.search(choice) else _number(choice)
    if value is None or not evidence:
        return ChoiceScore(i, choice, 0.0, "no evidence with a length")
    best = evidence[0]
    length = best.end_s - best.start_s
    score = math.exp(-abs(value - length) / max(1.0, 0.25 * length)) * best.weight
    return ChoiceScore(i, choice, round(score, 2), f"{best.label} lasts {_s(length)} s ({_s(best.start_s)}-"
                       f"{_s(best.end_s)} s)", best.start_s, best.end_s)


def _count(i: int, choice: str, counts: Sequence[float]) -> ChoiceScore:
    value = _number(choice)
    if value is None or not counts:
        return ChoiceScore(i, choice, 0.0, "no count in the memory")
    best = max(math.exp(-abs(value - c) / max(1.0, 0.2 * c)) for c in counts)
    near = min(counts, key=lambda c: abs(value - c))
    return ChoiceScore(i, choice, round(best, 2), f"the library counts {_s(near)}")


def _denial(i: int, choice: str, strength: float, has_speech: bool) -> ChoiceScore:
    if _SPEECH_WORDS.search(choice) and not re.search(r"\b(mention|mentioned)\b", choice, re.I):
        score = 0.05 if has_speech else 0.95
        return ChoiceScore(i, choice, score, "the video has speech" if has_speech else "the video has no speech")
    score = round(max(0.0, 1.0 - strength), 2)
    reason = "the memory matches the question" if strength >= 0.5 else "little in the memory matches the question"
    return ChoiceScore(i, choice, score, reason)


def _time(i: int, choice: str, evidence: Sequence[EvidenceSpan], duration: float | None) -> ChoiceScore:
    windows: list[tuple[float, float, float | None]]
    if _WHOLE.search(choice) and duration is not None:
        windows = [(0.0, duration, None)]
    else:
        windows = [(w.start_s, w.end_s, w.at_s) for w in time_windows(choice, duration)]
    if not windows or not evidence:
        return ChoiceScore(i, choice, 0.0, "no evidence with a time")
    best, where = 0.0, evidence[0]
    for a, b, at in windows:
        for ev in evidence:
            if at is not None:  # "at about 19 seconds": near where the evidence starts, or inside it
                fit = _at_fit(at, ev)
            else:  # "from 4 to 9 seconds": intersection over union
                inter = max(0.0, min(b, ev.end_s) - max(a, ev.start_s))
                union = max(b, ev.end_s) - min(a, ev.start_s)
                fit = inter / union if union > 0 else float(a <= ev.start_s <= b)
            if fit * ev.weight > best:
                best, where = fit * ev.weight, ev
    reason = f"overlaps {where.label} {_s(where.start_s)}-{_s(where.end_s)} s" if best > 0 else (
        f"no overlap with {where.label} {_s(where.start_s)}-{_s(where.end_s)} s")
    return ChoiceScore(i, choice, round(best, 2), reason, where.start_s, where.end_s)


def _at_fit(at: float, ev: EvidenceSpan) -> float:
    """How well "at about `at` seconds" names the span: 1.0 within a second of its start, falling to
    0.7 at its end (something is said or shown when it starts: "at about 14 seconds" for a sentence
    spoken 10.8-14.5 s tied with "at about 11 seconds"), and to 0 four seconds outside it.

    >>> [round(_at_fit(t, EvidenceSpan(10.8, 14.5, 1.0, "speech")), 2) for t in (11, 14, 6, 20)]
    [1.0, 0.76, 0.0, 0.0]
    """
    if ev.start_s - 1.0 <= at <= ev.start_s + 1.0:
        return 1.0
    if ev.start_s < at <= ev.end_s:
        return 1.0 - 0.3 * (at - ev.start_s - 1.0) / max(ev.end_s - ev.start_s - 1.0, 1.0)
    return max(0.0, 1.0 - min(abs(at - ev.start_s), abs(at - ev.end_s)) / 4.0)


def _words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in GRAMMAR_WORDS]


@dataclass(frozen=True)
class _Focus:
    """Where the question points: rows next to its anchor, its time windows, its relevant rows."""

    neighbors: Neighbors
    windows: list[tuple[float, float]]
    relevance: Mapping[tuple[str, int], float]
    question_words: list[str]
    calibrate: bool  # weigh by relevance to the question (when a denial competes)

    def weigh(self, score: float, hit: TextHit) -> tuple[float, str]:
        if self.neighbors:
            if (hit.source, hit.item_id) in self.neighbors:
                return score, ""
            return score * 0.3, "not next in order; "  # said or shown, but not where the order points
        if self.windows:
            if any(hit.start_s <= b and hit.end_s >= a for a, b in self.windows):
                return score, ""
            return score * 0.3, "outside the asked time; "
        about = self.relevance.get((hit.source, hit.item_id))
        if about is None:
            found = set(_words(hit.text))
            words = self.question_words
            about = sum(1 for w in words if w in found) / len(words) if words else 0.0
        if not self.calibrate:  # relevance only breaks ties between choices said or shown alike
            return score * (0.8 + 0.2 * about), ""
        return score * (0.4 + 0.6 * about), "" if about >= 0.3 else "little to do with the question; "


def _text(memory: Memory, i: int, choice: str, vid: str, encoder: Encoder | None, focus: _Focus) -> ChoiceScore:
    words = _words(choice)
    best, where = 0.0, None
    if words:
        for hit in keyword_search(memory, " ".join(words), k=3, video_id=vid, match="any"):
            score = _share(words, hit.text)
            if score > best:
                best, where = score, hit
    if encoder is not None:
        try:
            for hit in search_texts(memory, encoder, choice, k=1, video_id=vid):
                score = min(1.0, max(0.0, (hit.score - 0.15) / 0.55))
                if score > best:
                    best, where = score, hit
        except QueryError:
            pass  # no embeddings of this model: the words alone decide
    if where is None:
        return ChoiceScore(i, choice, 0.0, "not found in speech or on-screen text")
    label = SOURCE_LABELS[where.source]
    best, why = focus.weigh(best, where)
    label = why + label
    text = " ".join(where.text.split())
    text = text if len(text) <= 40 else text[:37] + "..."
    return ChoiceScore(i, choice, round(best, 2), f'like {label} {_s(where.start_s)}-{_s(where.end_s)} s "{text}"',
                       where.start_s, where.end_s)
