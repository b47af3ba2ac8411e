"""Write the question set from the videos' truth (spec.py): templates per question type with several
phrasings each, answers known by construction, and for every question the rows that answer it.

A record is vidmem's question JSONL (agents/evaluation/questions.py) plus:
    "format":    "mc" (choices, answer = index) | "open" (answer text, accepted variants)
    "evidence":  the rows that answer it, each one of
                 {"table": "transcript", "start_s", "end_s", "text_contains"}  a segment overlapping the
                     spoken line's interval whose text contains the word (case-insensitive)
                 {"table": "ocr_spans", "start_s", "end_s", "text_contains"}   a span overlapping the sign's
                     interval whose text contains the sign's text (case and spaces ignored)
                 {"query": "tracks_at", "t_s", "category"}                     what is visible at t_s
    "absent":    for questions the video cannot answer: what the memory must NOT hold (same shapes)
    "time_expr", "window_s": the time expression in the question and the window (s) it means
    "relation":  "before" | "after" for order questions
Every choice is shuffled by a generator seeded with the question id, so the set is reproducible.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.qset.spec import POOLS, VIDEOS, Count, Line, Sign, Video, digit_words

QUESTIONS_PATH = Path(__file__).with_name("questions.jsonl")
TYPES = ("when", "what", "why", "how", "count", "order", "choice", "unanswerable")
NEVER_SAID = (
    "not mention",
    "never mention",
    "doesn t mention",
    "no mention",
    "not said",
    "never said",
    "not in the video",
    "no information",
    "not stated",
    "never stated",
    "does not show",  # "the memory does not show it": what a planner asked to finish says
    "doesn t show",
    "not in the memory",
)
N_CHOICES = 5

SpeechTime = Callable[[str], float]  # sentence -> seconds espeak-ng takes to say it


@dataclass
class _Writer:
    """Collects one video's questions; ids are the video's prefix, the type and a running number."""

    video: Video
    spoken_s: SpeechTime
    records: list[dict[str, Any]] = field(default_factory=list)

    @property
    def prefix(self) -> str:
        return self.video.name.split("_")[0]

    def rng(self, salt: str) -> random.Random:
        return random.Random(f"{self.video.name}/{salt}")  # str seeds hash with SHA-512: stable across runs

    def add(self, qtype: str, question: str, answer: str | int, evidence: list[dict[str, Any]], **extra: Any) -> None:
        n = sum(r["type"] == qtype for r in self.records) + 1
        rec: dict[str, Any] = {
            "id": f"{self.prefix}-{qtype}-{n:02d}",
            "video": self.video.file,
            "type": qtype,
            "question": question,
        }
        choices = extra.pop("choices", None)
        if choices is not None:
            rec.update(format="mc", choices=choices, answer=answer)
        else:
            rec.update(format="open", answer=answer, accept=extra.pop("accept", []))
        rec["evidence"] = evidence
        rec.update(extra)
        self.records.append(rec)

    def mc(
        self, qtype: str, question: str, right: str, wrong: Sequence[str], evidence: list[dict[str, Any]], **extra: Any
    ) -> None:
        """A question with N_CHOICES choices: `right` and the first distinct wrong ones, shuffled."""
        others = [w for w in dict.fromkeys(wrong) if w != right][: N_CHOICES - 1]
        if len(others) < N_CHOICES - 1:
            raise ValueError(f"{self.video.name}: too few distractors for {question!r}: {others}")
        choices = [right, *others]
        self.rng(f"choices/{question}").shuffle(choices)
        self.add(qtype, question, choices.index(right), evidence, choices=choices, **extra)

    def pick(self, salt: str, options: Sequence[str]) -> str:
        return self.rng(salt).choice(list(options))

    # ------------------------------------------------------------ evidence

    def line_end(self, line: Line) -> float:
        return math.ceil((line.start_s + self.spoken_s(line.text)) * 10) / 10

    def said(self, line: Line) -> dict[str, Any]:
        return {"table": "transcript", "start_s": line.start_s, "end_s": self.line_end(line), "text_contains": line.key}

    @staticmethod
    def shown(sign: Sign) -> dict[str, Any]:
        return {"table": "ocr_spans", "start_s": sign.start_s, "end_s": sign.end_s, "text_contains": sign.text}

    # ------------------------------------------------------------ time expressions

    def speech_expr(self, line: Line) -> tuple[str, tuple[float, float]] | None:
        """A time expression whose window holds `line`'s start and no other line's."""
        v, t = self.video, line.start_s
        whole = round(t + 1)
        options = [
            (f"{whole} seconds in", (whole - 2.0, whole + 2.0)),
            (f"around the {whole}-second mark", (whole - 2.0, whole + 2.0)),
            (f"about {whole} seconds into the video", (whole - 2.0, whole + 2.0)),
        ]
        if t < 5:
            options += [("at the start", (0.0, 5.0)), ("in the first five seconds", (0.0, 5.0))]
        if t < 10 and sum(other.start_s < 10 for other in v.lines) == 1:
            options.append(("in the first ten seconds", (0.0, 10.0)))
        if t > v.duration_s - 8 and line is v.lines[-1]:
            options += [
                ("at the end", (v.duration_s - 8.0, v.duration_s)),
                ("near the end", (v.duration_s - 8.0, v.duration_s)),
            ]
        if abs(t - v.duration_s / 2) < 3:
            options.append(("halfway through", (v.duration_s / 2 - 3.0, v.duration_s / 2 + 3.0)))
        good = [(p, w) for p, w in options if [o for o in v.lines if w[0] <= o.start_s <= w[1]] == [line]]
        if not good:
            return None
        phrase, window = good[self.rng(f"expr/{line.key}").randrange(len(good))]
        return phrase, (max(0.0, window[0]), min(v.duration_s, window[1]))

    def sign_expr(self, sign: Sign) -> tuple[str, tuple[float, float]] | None:
        """A time expression whose window lies inside `sign`'s interval and shows no other sign at its place."""
        v = self.video
        mid = math.floor((sign.start_s + sign.end_s) / 2)
        options = [
            (f"{mid} seconds in", (mid - 1.0, mid + 1.0)),
            (f"at the {mid}-second mark", (mid - 1.0, mid + 1.0)),
            (f"around {mid} seconds into the video", (mid - 1.0, mid + 1.0)),
        ]
        if sign.start_s <= 1:
            options += [("at the start", (0.0, 3.0)), ("in the first few seconds", (0.0, 3.0))]
        if sign.end_s >= v.duration_s:
            options += [
                ("at the end", (v.duration_s - 3.0, v.duration_s)),
                ("in the last few seconds", (v.duration_s - 3.0, v.duration_s)),
            ]
        before = [s for s in v.signs if s.place == sign.place and s.end_s == sign.start_s]
        if before:
            options += [
                ("after the sign changes", (sign.start_s, sign.end_s)),
                (f"after '{before[0].text}' is replaced", (sign.start_s, sign.end_s)),
            ]
        good = [
            (p, w)
            for p, w in options
            if sign.start_s <= w[0] + 0.5
            and w[1] - 0.5 <= sign.end_s
            and not any(
                o is not sign and o.place == sign.place and o.start_s < w[1] and w[0] < o.end_s for o in v.signs
            )
        ]
        if not good:
            return None
        phrase, window = good[self.rng(f"expr/{sign.text}").randrange(len(good))]
        return phrase, window


# ------------------------------------------------------------------ per spoken line


def _at(t: float) -> str:
    return f"at about {round(t)} second{'s' * (round(t) != 1)}"


def _decoy_times(video: Video, taken: Sequence[float]) -> list[float]:
    """Whole seconds at least 3 s from every spoken line's start: wrong 'when' choices."""
    return [float(t) for t in range(1, int(video.duration_s)) if all(abs(t - s) >= 3 for s in taken)]


def _line_questions(w: _Writer, line: Line) -> None:
    s, ev = line.words(), [w.said(line)]
    pick = partial_pick(w, line)
    if line.kind == "depart":
        p = s["platform"]
        w.add(
            "what",
            pick(
                "what",
                [
                    f"Which platform does the {s['vehicle']} leave from?",
                    f"From which platform does the {s['color']} {s['vehicle']} depart?",
                    f"What platform number is announced for the {s['vehicle']}?",
                ],
            ),
            f"platform {p}",
            ev,
            accept=[f"platform {s['platform_words']}", f"platform number {p}"],
        )
        w.mc(
            "choice",
            pick(
                "choice",
                [
                    f"What colour is the {s['vehicle']} the speaker announces?",
                    f"Which colour of {s['vehicle']} leaves from platform {p}?",
                ],
            ),
            s["color"],
            POOLS["color"],
            ev,
        )
    elif line.kind == "closed":
        w.mc(
            "why",
            pick(
                "why",
                [
                    f"Why is the {s['place']} closed today?",
                    f"What reason does the speaker give for closing the {s['place']}?",
                    f"Why can't people visit the {s['place']} today?",
                ],
            ),
            s["cause"],
            POOLS["cause"],
            ev,
        )
        w.add(
            "what",
            pick("what", ["Which place is closed today?", "What does the speaker say is closed?"]),
            s["place"],
            ev,
        )
    elif line.kind == "route":
        w.mc(
            "how",
            pick(
                "how",
                [
                    f"How does one get to the {s['dest']}, according to the speaker?",
                    f"How should you travel to reach the {s['dest']}?",
                    f"What way to the {s['dest']} does the speaker describe?",
                ],
            ),
            s["method"],
            POOLS["method"],
            ev,
        )
        w.add(
            "what",
            pick(
                "what",
                [
                    "Where do the directions the speaker gives lead to?",
                    "Which destination does the speaker give directions to?",
                ],
            ),
            s["dest"],
            ev,
        )
    elif line.kind == "code":
        code = s["code"]
        w.add(
            "what",
            pick(
                "what",
                [
                    f"What is the code for the {s['thing']}?",
                    f"Which number opens the {s['thing']}?",
                    f"What code does the speaker give for the {s['thing']}?",
                ],
            ),
            code,
            ev,
            accept=[" ".join(code), digit_words(code)],
        )
    elif line.kind == "meet":
        hour = int(s["hour"])
        w.add(
            "what",
            pick(
                "what-who", [f"Who should you meet at the {s['landmark']}?", "Whom does the speaker arrange to meet?"]
            ),
            s["name"],
            ev,
        )
        w.add(
            "what",
            pick(
                "what-where",
                [f"Where should you meet {s['name']}?", f"At which place is the meeting with {s['name']}?"],
            ),
            s["landmark"],
            ev,
        )
        hours = [f"{h} o'clock" for h in (hour, *[(hour + d - 1) % 12 + 1 for d in (2, 4, 6, 8, 10)])]
        w.mc(
            "choice",
            pick(
                "choice", [f"At what time should you meet {s['name']}?", f"When is the meeting at the {s['landmark']}?"]
            ),
            hours[0],
            hours[1:],
            ev,
        )
    elif line.kind == "price":
        price = s["price"]
        w.add(
            "what",
            pick(
                "what",
                [f"How much does a ticket to {s['city']} cost?", f"What is the price of a ticket to {s['city']}?"],
            ),
            f"{price} dollars",
            ev,
            accept=[f"{s['price_words']} dollars", price],
        )
        w.mc(
            "choice",
            pick(
                "choice",
                ["Which city does the speaker sell tickets to?", f"A ticket to which city costs {price} dollars?"],
            ),
            s["city"],
            POOLS["city"],
            ev,
        )
    else:
        raise ValueError(f"unknown line kind {line.kind!r}")


def _purpose_question(w: _Writer, line: Line) -> None:
    """'Why would someone do what the line says?': the line's purpose, against the same kind's others."""
    s, pick = line.words(), partial_pick(w, line)
    if line.kind == "depart":
        q = pick(
            "why",
            [
                f"Why would someone go to platform {s['platform']}?",
                f"Why should travellers head for platform {s['platform']}?",
            ],
        )
        right, pool = f"to take the {s['vehicle']}", [f"to take the {x}" for x in POOLS["vehicle"]]
    elif line.kind == "code":
        q = pick("why", [f"Why would someone need the number {s['code']}?", f"What is the number {s['code']} for?"])
        right, pool = f"to open the {s['thing']}", [f"to open the {x}" for x in POOLS["thing"]]
    elif line.kind == "meet":
        q = pick(
            "why",
            [
                f"Why should you go to the {s['landmark']} at {s['hour']} o'clock?",
                f"For what reason does the speaker send you to the {s['landmark']}?",
            ],
        )
        right, pool = f"to meet {s['name']}", [f"to meet {x}" for x in POOLS["name"]]
    elif line.kind == "price":
        q = pick(
            "why",
            [
                f"Why would someone pay {s['price']} dollars?",
                f"What do {s['price']} dollars buy, according to the speaker?",
            ],
        )
        right, pool = f"a ticket to {s['city']}", [f"a ticket to {x}" for x in POOLS["city"]]
    elif line.kind == "route":
        q = pick(
            "whyroute",
            [f"Why would someone {s['method']}?", f"What is the reason to {s['method']}, according to the speaker?"],
        )
        right, pool = f"to reach the {s['dest']}", [f"to reach the {x}" for x in POOLS["dest"]]
    else:
        return
    w.mc("why", q, right, pool, [w.said(line)])


def partial_pick(w: _Writer, line: Line) -> Callable[[str, Sequence[str]], str]:
    return lambda salt, options: w.pick(f"{line.key}/{salt}", options)


def _other_topics(video: Video) -> list[str]:
    """Topics of lines this video does not hold, as distractors (from the same kinds' pools)."""
    said = {line.topic for line in video.lines}
    extra = (
        ["the {} {}".format(*pair) for pair in zip(POOLS["color"], POOLS["vehicle"] * 2, strict=False)]
        + [f"the ticket to {c}" for c in POOLS["city"]]
        + [f"the code for the {t}" for t in POOLS["thing"]]
    )
    rng = random.Random(f"{video.name}/topics")
    rng.shuffle(extra)
    return [t for t in extra if t not in said and not any(t.split()[-1] in s for s in said)]


def _speech_questions(w: _Writer) -> None:
    v = w.video
    starts = [line.start_s for line in v.lines]
    decoys = _decoy_times(v, starts)
    for n, line in enumerate(v.lines):
        _line_questions(w, line)
        _purpose_question(w, line)
        wrong = [_at(t) for t in starts if t != line.start_s] + [_at(t) for t in w.rng(f"decoy/{n}").sample(decoys, 2)]
        never = w.pick(f"never/{n}", ["it is never mentioned", "the speaker never mentions it"])
        question = w.pick(
            f"when/{n}",
            [
                f"When does the speaker mention {line.topic}?",
                f"At what point in the video is {line.topic} mentioned?",
                f"How far into the clip does someone talk about {line.topic}?",
            ],
        )
        w.mc("when", question, _at(line.start_s), [*wrong[:3], never], [w.said(line)])
    topics = [line.topic for line in v.lines]
    distract = _other_topics(v)
    for line in (v.lines[0], v.lines[len(v.lines) // 2], v.lines[-1]):
        expr = w.speech_expr(line)
        if expr is None:
            continue
        phrase, window = expr
        q = w.pick(
            f"talk/{line.key}",
            [
                f"What does the speaker talk about {phrase}?",
                f"What is the announcement {phrase} about?",
                f"Which topic does the voice bring up {phrase}?",
            ],
        )
        w.mc(
            "choice",
            q,
            line.topic,
            [t for t in topics if t != line.topic] + distract,
            [w.said(line)],
            time_expr=phrase,
            window_s=list(window),
        )
    for a, b in zip(v.lines, v.lines[1:], strict=False):
        if b is v.lines[1] or b is v.lines[-1]:
            after = w.pick(
                f"after/{a.key}",
                [
                    f"What does the speaker talk about right after {a.topic}?",
                    f"What is mentioned next, after {a.topic}?",
                ],
            )
            w.mc(
                "order",
                after,
                b.topic,
                [t for t in topics if t not in (a.topic, b.topic)] + distract,
                [w.said(a), w.said(b)],
                relation="after",
            )
        if b is v.lines[-1]:
            before = w.pick(
                f"before/{b.key}",
                [f"What does the speaker mention just before {b.topic}?", f"Which topic comes right before {b.topic}?"],
            )
            w.mc(
                "order",
                before,
                a.topic,
                [t for t in topics if t not in (a.topic, b.topic)] + distract,
                [w.said(a), w.said(b)],
                relation="before",
            )


# ------------------------------------------------------------------ signs


def _span_text(sign: Sign) -> str:
    return f"from about {round(sign.start_s)} to {round(sign.end_s)} seconds"


def _sign_questions(w: _Writer) -> None:
    v = w.video
    where = {"top": "at the top of the screen", "bottom": "at the bottom of the screen"}
    for n, sign in enumerate(v.signs):
        expr = w.sign_expr(sign)
        if expr is not None:
            phrase, window = expr
            q = w.pick(
                f"signwhat/{n}",
                [
                    f"What does the sign {where[sign.place]} say {phrase}?",
                    f"What text is written {where[sign.place]} {phrase}?",
                    f"Which words appear {where[sign.place]} {phrase}?",
                ],
            )
            w.add("what", q, sign.text, [w.shown(sign)], accept=[], time_expr=phrase, window_s=list(window))
        others = [_span_text(o) for o in v.signs if o is not sign]
        decoy = f"from about {round(v.duration_s / 2)} to {round(v.duration_s)} seconds"
        shifted = f"from about {round(sign.start_s) + 3} to {round(sign.end_s) + 5} seconds"
        never = w.pick(f"signnever/{n}", ["it never appears", "it is never shown"])
        if n < 2:
            q = w.pick(
                f"signwhen/{n}",
                [
                    f"When is '{sign.text}' shown on screen?",
                    f"During which part of the video can the text '{sign.text}' be read?",
                ],
            )
            wrong = [*others, decoy, shifted][:3]
            w.mc("when", q, _span_text(sign), [*wrong, never], [w.shown(sign)])
        if n == 0 or sign.place == "bottom":
            d = round(sign.end_s - sign.start_s)
            lengths = [f"about {x} seconds" for x in (d, d + 4, max(d - 3, 1) if d > 4 else d + 8, d + 12, d + 16)]
            q = w.pick(
                f"signhow/{n}",
                [
                    f"How long does '{sign.text}' stay on screen?",
                    f"For how many seconds is the text '{sign.text}' visible?",
                ],
            )
            w.mc("how", q, lengths[0], lengths[1:], [w.shown(sign)])
    for a in v.signs:
        for b in v.signs:
            if a.place == b.place and a.end_s == b.start_s:
                q = w.pick(
                    f"signafter/{a.text}",
                    [
                        f"What does the sign '{a.text}' change to?",
                        f"After '{a.text}' disappears, what does the sign say?",
                    ],
                )
                w.add("order", q, b.text, [w.shown(a), w.shown(b)], accept=[], relation="after")
                q = w.pick(
                    f"signbefore/{b.text}",
                    [
                        f"What did the sign say before it read '{b.text}'?",
                        f"Which text was shown before '{b.text}' appeared?",
                    ],
                )
                w.add("order", q, a.text, [w.shown(a), w.shown(b)], accept=[], relation="before")
    n_signs = len(v.signs)
    q = w.pick(
        "signcount",
        [
            "How many different signs appear on screen in this video?",
            "How many distinct texts are shown on screen over the whole video?",
        ],
    )
    w.mc("count", q, str(n_signs), [str(k) for k in (1, 2, 4, 5, 6, 7) if k != n_signs], [w.shown(s) for s in v.signs])


# ------------------------------------------------------------------ counts and what the video cannot answer


def _count_choices(c: Count) -> tuple[str, list[str]]:
    right = (c.low + c.high) // 2
    wrong = [k for k in (right + 4, right - 4, right + 8, right - 8, right + 12, right + 16) if k >= 0]
    return str(right), [str(k) for k in wrong]


def _count_questions(w: _Writer) -> None:
    for c in w.video.counts:
        t = round(c.t_s)
        phrase = (
            "at the very start"
            if t == 0
            else w.pick(f"countexpr/{t}", [f"{t} seconds in", f"at the {t}-second mark", f"{t} seconds into the video"])
        )
        q = w.pick(
            f"count/{t}",
            [
                f"How many people are visible {phrase}?",
                f"About how many people can be seen {phrase}?",
                f"Roughly how many persons are on screen {phrase}?",
            ],
        )
        right, wrong = _count_choices(c)
        window = (max(0.0, c.t_s - 0.5), c.t_s + 0.5)
        w.mc(
            "count",
            q,
            right,
            wrong,
            [{"query": "tracks_at", "t_s": c.t_s, "category": "person"}],
            time_expr=phrase,
            window_s=list(window),
            count_range=[c.low, c.high],
        )


def _absent(word: str) -> list[dict[str, Any]]:
    return [{"table": "transcript", "text_contains": word}, {"table": "ocr_spans", "text_contains": word}]


def _unanswerable_questions(w: _Writer) -> None:
    v = w.video
    said, shown = v.absent_words
    topics = [line.topic for line in v.lines] + _other_topics(v)
    never = w.pick("absent/never", [f"the speaker never mentions a {said}", f"no {said} is mentioned in the video"])
    q = w.pick(
        "absent/q", [f"What does the speaker say about the {said}?", f"Why does the speaker mention the {said}?"]
    )
    w.mc("unanswerable", q, never, topics, [], absent=_absent(said))
    signs = [_span_text(s) for s in v.signs] + [f"from about {t} to {t + 4} seconds" for t in (0, 5, 10)]
    q = w.pick(
        "absent/sign",
        [
            f"When does the word '{shown.upper()}' appear on screen?",
            f"At what time is a sign reading '{shown.upper()}' shown?",
        ],
    )
    w.mc("unanswerable", q, "it never appears on screen", signs, [], absent=_absent(shown))
    q = w.pick(
        "absent/open",
        [f"What colour is the {said} that the speaker talks about?", f"Where does the speaker say the {said} is?"],
    )
    w.add("unanswerable", q, f"the video never mentions a {said}", [], accept=list(NEVER_SAID), absent=_absent(said))


# ------------------------------------------------------------------ the set


def generate(spoken_s: SpeechTime, videos: Sequence[Video] = VIDEOS) -> list[dict[str, Any]]:
    """Every question about every video, in a fixed order."""
    out = []
    for video in videos:
        w = _Writer(video, spoken_s)
        _speech_questions(w)
        _sign_questions(w)
        _count_questions(w)
        _unanswerable_questions(w)
        out += w.records
    return unique_ids(out)


def unique_ids(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records, after checking that no two share an id."""
    ids = [r["id"] for r in records]
    if len(set(ids)) != len(ids):
        raise AssertionError("question ids are not unique")
    return records


HEAD = (
    "# vidmem generated question set (bench/qset): python -m bench.qset rebuilds the videos and this file.\n"
    "# Videos are relative to the video folder: vidmem eval bench/qset/questions.jsonl "
    "--video-root ~/.cache/vidmem/qset\n"
)


def dumps(records: Sequence[dict[str, Any]], head: str = HEAD) -> str:
    """A question file: `head` (comment lines), then one JSON record per line."""
    return head + "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)


def load(path: Path = QUESTIONS_PATH) -> list[dict[str, Any]]:
    """The frozen records (with their evidence), in file order."""
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")]
