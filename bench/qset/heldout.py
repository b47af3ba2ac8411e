"""The held-out question set: open questions asked as a user would, written from each video's facts
(its spoken lines, signs and people counts in spec.py), kept apart from the generated set
(questions.py), which answering code is tuned on.

    python -m bench.qset heldout              # build its videos (cached) and rewrite heldout.jsonl
    python -m bench.qset heldout --check      # is heldout.jsonl what this module writes?
    vidmem eval bench/qset/heldout.jsonl --video-root ~/.cache/vidmem/qset --split dev --sample 40

Why it exists (issue 23): on the generated set, 70% multiple choice whose options guide both the
brief and the model, react scores 88%; on open questions written apart from the code it scored 38%.
Every kind of miss seen there has its own `type` here:

    what, why, how, order     facts of one spoken line, asked in plain words
    when                      when a line is said or a text first appears (a time answer)
    screen_text               what the on-screen text says at a time, the frame's place not named
    screen_place              the same, the place named ('the caption at the bottom', 'the top banner')
    cross_modal               joins in time: the sign while something is said, what is said while a
                              text is shown or when it first appears
    aggregate_texts           how many different texts are shown over the whole video
    aggregate_speech          how many separate announcements (or of one kind) are made
    people_at                 how many people are visible at a time
    late_text                 a second line (under the top sign) or a bottom caption late in the video
    denial                    a yes/no question whose answer the speech affirms ('did anyone leave ...')
    unanswerable              never said nor shown, including nouns sharing a stem with a said word
                              ('librarian' where 'library' is said)
    archive                   'which video mentions ...': names no video; the answer is the file name

Each fact is asked at least three ways (two or three phrasings of the question, or the same sign
asked with the frame named and not, and with times as '40 seconds in', 'at 0:40', 'a third of the
way through', 'near the end', 'while ...', 'right after ...'). About a tenth of the questions are
multiple choice (one phrasing of each line's main fact); the rest are open.

Scoring. `vidmem eval` scores open answers by a judge model or by matching: the reference or one of
`accept` must occur in the answer (after normalize_answer). So references are written to be found:
numbers come as digits and words with their noun ('7 announcements', 'seven announcements'),
times as every whole second of a tolerance window in the forms '42 s', '42s', '0:42' and '42.5'
(the window, in seconds, is also recorded as `time_window_s` for a scorer that reads it). Yes/no
answers are matched on the word that carries them ('yes', 'closed', 'delayed'), never on 'no',
which every 'not mentioned' contains.

Archive questions (`scope: "archive"`) name no video; the archive is all of HELDOUT_VIDEOS. Their
`video` field is the file that answers them, because the record format needs one: `vidmem eval`
asks every question scoped to its video, so until the runner asks archive questions over the whole
memory they are easier than a user's (noted in the issue).

The split (`split` per question, by video, fixed before any answering code changed): the videos
were dealt by hand so that each half holds long videos and most footage sources: dev has
museum_weekend and market_street (long), platform_news, car_call, bunny_fair, dinner_reservation;
test has station_evening and restaurant_night (long), city_day_10min (the ten-minute video),
garden_window, bikes_detour, square_lost_found, square_noon_notice. Tune on dev; report test.

The second held-out set (`generate2`, heldout2.jsonl, split 'test2', videos spec.HELDOUT2_VIDEOS) was
built after the test split had been run once: six more videos, two kinds of line no answering code
was written for, long silences between announcements. Same writer, its own archive; asked once.
The third (`generate3`, heldout3.jsonl, split 'test3', videos spec.HELDOUT3_VIDEOS) was built after
test2 had been run once, the same way: six more videos, two more new kinds of line ('weather', a
'change' of platform said beside departures), other stretches of the same footage.
The fourth (`generate4`, heldout4.jsonl, split 'test4', videos spec.HELDOUT4_VIDEOS) was built after
test3, the same way: six more videos, two more new kinds of line ('cancel', a
cancelled service and where refunds are given; 'menu', the soup of the day), new slot values and signs.
The fifth (`generate5`, heldout5.jsonl, split 'test5', videos spec.HELDOUT5_VIDEOS) was built after
test4, the same way: six more videos, two more new kinds of line ('closing', a shop that closes early
today and at what hour; 'raffle', a raffle's winning ticket and its prize), new slot values and signs.
The sixth (`generate6`, heldout6.jsonl, split 'test6', videos spec.HELDOUT6_VIDEOS) was built after
test5, the same way: six more videos, two more new kinds of line ('pet', a missing pet, its name and
where it went missing; 'parking', a street whose parked cars are towed after an hour), new slot values
and signs. Every earlier set shares this writer's phrasings, so the sixth also asks a third of each
type's questions in phrasings no earlier set uses, written as a user would ask ('Can you tell me what
the banner at the bottom said around the two-minute mark?', 'Roughly how many people are on screen at
0:40?', 'Which of my videos talks about the missing cat?'), with new time expressions and new names for
the frame's places (NEW_SCREEN_TEXT, NEW_PLACE_NAMES, _new_line_phrasings, and the `new=` of each
question): its records carry "phrasing": "new" or "old", so a run can be scored both ways.
The seventh (`generate7`, heldout7.jsonl, split 'test7', videos spec.HELDOUT7_VIDEOS) was built after
test6, the same way: six more videos, two more new kinds of line ('found', an item handed in at a desk;
'shuttle', a free shuttle bus, where it goes and how often), new slot values and signs. It asks half of
each type's open questions in phrasings neither an earlier set nor the sixth's new ones use (`new7=` of
each question, NEW7_*, _new7_line_phrasings), written as users type: casual ('whats the headline at the
top say around 0:10', 'how often's the shuttle to the golf course'), as requests ('I need the time the
'TENNIS CLUB SHUT' sign first appears.'), the video's context first ('Partway through there's an
announcement about a coach to Stockholm - how late is it?'), with new time expressions ('just past the
one-minute mark', 'in the opening seconds', 'toward the finish', 'half a minute in', '41 secs in') and new
names for the frame's places ('the lower banner', 'the headline at the top', 'the small text under the
title'); its records carry "phrasing" too.

A record is vidmem's question JSONL plus: "format" ("open" | "mc"), "split", "scope" ("video" |
"archive"), "facts" (the spec facts the answer comes from: "line:i", "sign:i", "count:i", "lines",
"signs", "absent:word", "stem:word/said", "archive"), "time_expr" and "time_window_s" where the
question or the answer is a time, and in the sixth and seventh sets "phrasing" ("new" | "old").
"""

from __future__ import annotations

import math
import random
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.qset import questions
from bench.qset.spec import (
    HELDOUT2_VIDEOS,
    HELDOUT3_VIDEOS,
    HELDOUT4_VIDEOS,
    HELDOUT5_VIDEOS,
    HELDOUT6_VIDEOS,
    HELDOUT7_VIDEOS,
    HELDOUT_VIDEOS,
    POOLS,
    Line,
    Sign,
    Video,
    digit_words,
    number_words,
)

HELDOUT_PATH = Path(__file__).with_name("heldout.jsonl")
HELDOUT2_PATH = Path(__file__).with_name("heldout2.jsonl")
HELDOUT3_PATH = Path(__file__).with_name("heldout3.jsonl")
HELDOUT4_PATH = Path(__file__).with_name("heldout4.jsonl")
HELDOUT5_PATH = Path(__file__).with_name("heldout5.jsonl")
HELDOUT6_PATH = Path(__file__).with_name("heldout6.jsonl")
HELDOUT7_PATH = Path(__file__).with_name("heldout7.jsonl")
TYPES = (
    "what", "why", "how", "order", "when", "screen_text", "screen_place", "cross_modal", "aggregate_texts",
    "aggregate_speech", "people_at", "late_text", "denial", "unanswerable", "archive",
)  # fmt: skip
SPLITS: dict[str, str] = {
    "museum_weekend": "dev",
    "market_street": "dev",
    "platform_news": "dev",
    "car_call": "dev",
    "bunny_fair": "dev",
    "dinner_reservation": "dev",
    "station_evening": "test",
    "restaurant_night": "test",
    "city_day_10min": "test",
    "garden_window": "test",
    "bikes_detour": "test",
    "square_lost_found": "test",
    "square_noon_notice": "test",
}
# The second held-out set (spec.HELDOUT2_VIDEOS, heldout2.jsonl): all of it is test, asked once.
SPLITS2: dict[str, str] = {v.name: "test2" for v in HELDOUT2_VIDEOS}
# The third held-out set (spec.HELDOUT3_VIDEOS, heldout3.jsonl): all of it is test, asked once.
SPLITS3: dict[str, str] = {v.name: "test3" for v in HELDOUT3_VIDEOS}
# The fourth held-out set (spec.HELDOUT4_VIDEOS, heldout4.jsonl): all of it is test, asked once.
SPLITS4: dict[str, str] = {v.name: "test4" for v in HELDOUT4_VIDEOS}
# The fifth held-out set (spec.HELDOUT5_VIDEOS, heldout5.jsonl): all of it is test, asked once.
SPLITS5: dict[str, str] = {v.name: "test5" for v in HELDOUT5_VIDEOS}
# The sixth held-out set (spec.HELDOUT6_VIDEOS, heldout6.jsonl): all of it is test, asked once.
SPLITS6: dict[str, str] = {v.name: "test6" for v in HELDOUT6_VIDEOS}
# The seventh held-out set (spec.HELDOUT7_VIDEOS, heldout7.jsonl): all of it is test, asked once.
SPLITS7: dict[str, str] = {v.name: "test7" for v in HELDOUT7_VIDEOS}
# Nouns never said nor shown that share a stem with a word that is (a lexical search for the one
# finds the other): (absent noun, the said word).
STEMS: dict[str, tuple[tuple[str, str], ...]] = {
    "station_evening": (("baker", "bakery"), ("trainer", "train")),
    "museum_weekend": (("librarian", "library"), ("lecturer", "lecture")),
    "market_street": (("cook", "cooking"), ("ferryman", "ferry")),
    "restaurant_night": (("doorman", "door"), ("striker", "strike")),
    "city_day_10min": (("swimmer", "swimming"), ("dancer", "dance"), ("postman", "post")),
    "platform_news": (("waiter", "waiting"), ("tramp", "tram")),
    "car_call": (("roofer", "roof"), ("Dubliner", "Dublin")),
    "bunny_fair": (("lecturer", "lecture"), ("ferryman", "ferry")),
    "dinner_reservation": (("locksmith", "locker"), ("Parisian", "Paris")),
    "garden_window": (("gardener", "garden"), ("librarian", "library")),
    "bikes_detour": (("churchgoer", "church"), ("stairwell", "stairs")),
    "square_lost_found": (("clockmaker", "clock"), ("cinematographer", "cinema")),
    "square_noon_notice": (("dancer", "dance"), ("busker", "bus")),
    "harbor_evening": (("swimmer", "swimming"), ("boarder", "boards")),
    "gallery_afternoon": (("poet", "poetry"), ("projectionist", "projector")),
    "cafe_evening": (("winemaker", "wine"), ("hatter", "hat")),
    "bikes_rush": (("coachman", "coach"), ("Roman", "Rome")),
    "car_news": (("trainer", "train"), ("officer", "office")),
    "meadow_show": (("puppeteer", "puppet"), ("baker", "bakery")),
    "ferry_terminal": (("ferryman", "ferry"), ("boilermaker", "boiler")),
    "library_night": (("snowman", "snow"), ("reader", "reading")),
    "bistro_talk": (("kitchenette", "kitchen"), ("dessert chef", "dessert")),
    "street_corner": (("magician", "magic"), ("beachcomber", "beach")),
    "taxi_ride": (("zookeeper", "zoo"), ("trainer", "train")),
    "rabbit_hill": (("Londoner", "London"), ("clockmaker", "clock")),
    "airport_hall": (("gallerist", "gallery"), ("trainee", "train")),
    "cinema_lobby": (("frostbite", "frost"), ("miller", "mill")),
    "orchard_morning": (("kitesurfer", "kites"), ("florist", "Florence")),
    "cycle_route": (("stationmaster", "station"), ("toolmaker", "tool")),
    "phone_update": (("coachbuilder", "coach"), ("boxer", "box")),
    "burrow_news": (("musician", "music"), ("waterfall", "water")),
    "shopping_plaza": (("pharmacist", "pharmacy"), ("universe", "university")),
    "greenhouse_tour": (("yogi", "yoga"), ("bowler", "bowling")),
    "supper_club": (("banker", "bank"), ("showman", "show")),
    "traffic_lights": (("hallmark", "hall"), ("riverbank", "river")),
    "backseat_call": (("taxidermist", "taxi"), ("radiologist", "radio")),
    "hillside_fair": (("picnicker", "picnic"), ("toolmaker", "tool")),
    "campus_notices": (("aquarist", "aquarium"), ("scientist", "science")),
    "movie_night": (("potter", "pottery"), ("planet", "planetarium")),
    "lamp_post_square": (("chaplain", "chapel"), ("clubhouse", "club")),
    "window_rain": (("rosemary", "rose"), ("pumpkin", "pump")),
    "rear_seat_chat": (("carpenter", "car"), ("washer", "wash")),
    "warren_notice": (("cardigan", "Cardiff"), ("eggplant", "egg")),
    "town_square_bulletin": (("shuttlecock", "shuttle"), ("observer", "observatory")),
    "lounge_screening": (("climber", "climbing"), ("mariner", "marina")),
    "courtyard_noon": (("cricketer", "cricket"), ("concertina", "concert")),
    "passenger_call": (("footballer", "football"), ("toymaker", "toy")),
    "grassy_knoll": (("farmer", "farm"), ("warrior", "war")),
    "kerbside_bulletin": (("stationer", "station"), ("repairman", "repair")),
}
NOT_SAID = (
    "not mentioned", "never mentioned", "not mention", "never mention", "doesn t mention", "does not mention",
    "no mention", "not said", "never said", "not stated", "never stated", "no information", "not in the video",
    "does not show", "doesn t show", "not in the memory", "nothing about",
)  # fmt: skip
# A text never shown: vidmem's own "The memory does not show it: nothing in this video mentions 'X'"
# says so as plainly as "it never appears" (it was scored wrong on dev and test3).
NOT_SHOWN = (
    "never appears", "never appear", "does not appear", "doesn t appear", "not appear", "never shown",
    "not shown", "never on screen", "not on screen", "no such text", "no such sign", "never displayed",
    "does not show", "doesn t show", "not in the video", "not in the memory",
)  # fmt: skip
# What a right 'why' or 'how' answer must contain, by the spec's cause or method.
CAUSE_WORDS = {
    "the roof is leaking": ("roof", "leak"),
    "the heating is broken": ("heating",),
    "the staff are on strike": ("strike",),
    "a water pipe burst last night": ("pipe", "burst"),
    "the power is off": ("power",),
    "the floor is being painted": ("paint",),
    "a storm damaged the windows": ("storm", "window"),
    "the projector is broken": ("projector",),
    "the lift is broken": ("lift", "elevator"),
    "the pipes are frozen": ("pipe", "frozen", "freez"),
    "the ceiling collapsed": ("ceiling",),
    "the alarm system is faulty": ("alarm",),
    "the toilets are flooded": ("toilet", "flood"),
    "the wiring is being replaced": ("wiring",),
    "a tree fell on the roof": ("tree",),
    "a gas pipe is leaking": ("gas",),
    "the dome is being cleaned": ("dome",),
    "the boiler has broken down": ("boiler",),
    "the water has been switched off": ("water",),
    "the lights have failed": ("light",),
    "the doors are jammed": ("door", "jam"),
    "the mats are being replaced": ("mat",),
    "the stage is being repaired": ("stage",),
    "the paths are flooded": ("path", "flood"),
    "the lock is broken": ("lock",),
}
METHOD_WORDS = {
    "take the ferry across the river": ("ferry",),
    "follow the blue line on the floor": ("blue line",),
    "turn left at the old bridge": ("turn left", "left at the old bridge"),
    "ride a bicycle along the canal": ("bicycle", "bike", "cycle"),
    "climb the stairs behind the church": ("stairs",),
    "take the lift to the top floor": ("lift", "elevator"),
    "follow the yellow signs": ("yellow sign",),
    "walk past the fountain": ("fountain",),
    "follow the red arrows": ("red arrow",),
    "go through the tunnel under the road": ("tunnel",),
    "go up the escalator": ("escalator",),
    "walk along the river path": ("river",),
    "cross the bridge by the lake": ("bridge", "lake"),
    "follow the stone wall": ("stone wall",),
    "take the second exit at the roundabout": ("second exit", "roundabout"),
    "keep right at the fork": ("keep right", "fork", "stay right", "bear right"),
    "take the footbridge over the railway": ("footbridge", "foot bridge"),
    "go past the library": ("library",),
    "follow the green arrows": ("green arrow",),
}
PLACE_NAMES = {
    "top": ("the sign at the top of the frame", "the banner across the top", "the text at the top of the screen"),
    "top2": ("the second line under the top sign", "the lower of the two top lines", "the line below the top sign"),
    "bottom": ("the caption at the bottom", "the text along the bottom of the frame", "the lower caption"),
}
UNNAMED = ("the sign", "the on-screen text", "the overlay")
NEW_PEOPLE = (
    "Roughly how many people are on screen {}?",
    "How many people can I see in the shot {}?",
    "Is it crowded {}? How many people are there?",
)
# The sixth set's new phrasings of the sign questions (the time expressions are new too: _Writer.new_sign_times).
NEW_SCREEN_TEXT = (
    "Can you read me what was on screen {phrase}?",
    "What text could I see {phrase}?",
    "{Phrase}, what words were up on the screen?",
)
NEW_SCREEN_PLACE = ("Can you tell me what {frame} said {phrase}?", "What did {frame} show {phrase}?")
NEW_PLACE_NAMES = {
    "top": ("the banner up top", "the heading at the top of the picture"),
    "top2": ("the smaller line just under the top banner", "the second row of text at the top"),
    "bottom": ("the banner at the bottom", "the strip of text along the bottom"),
}
NEW_LATE_TEXT = {
    "top2": (
        "Toward the end a second line shows up under the top sign. What does it say?",
        "Near the end, what's written on the extra line below the top banner?",
    ),
    "bottom": (
        "Near the end of the clip there's a caption along the bottom. What's written there?",
        "What does the banner at the bottom say in the closing part of the video?",
    ),
}
# The seventh set's new phrasings (none an earlier set, the sixth included, uses): written as users type,
# a casual register (lowercase, no question mark, contractions), requests ('I need ...'), the video's
# context first; new time expressions (_Writer.new7_sign_times) and new names for the frame's places.
NEW7_PEOPLE = (
    "how many people are in shot {}",
    "I need a head count of the people visible {}.",
    "{Phrase} - how many people can you see in the picture?",
)
NEW7_SCREEN_TEXT = (
    "whats on screen {phrase}",
    "I need the words shown on the screen {phrase}.",
    "{Phrase} there's some writing on the screen - what does it say?",
)
NEW7_SCREEN_PLACE = ("whats {frame} say {phrase}", "I need whatever {frame} reads {phrase}.")
NEW7_PLACE_NAMES = {
    "top": ("the headline at the top", "the title text at the top of the screen"),
    "top2": ("the small text under the title", "the subtitle line under the heading"),
    "bottom": ("the lower banner", "the caption running along the bottom edge"),
}
NEW7_LATE_TEXT = {
    "top2": (
        "theres a small line of text under the title in the last part of the video - what does it say",
        "I need the words on the second line under the heading, late in the video.",
    ),
    "bottom": (
        "what does the lower banner say in the last third of the video",
        "Later on in the clip a caption shows along the bottom of the frame. What's written in it?",
    ),
}
SpeechTime = Callable[[str], float]
# A question in a new phrasing, alone or with the fields that phrasing changes ({"time_expr": ...}).
Phrasing = str | tuple[str, dict[str, Any]]


def mmss(t: float) -> str:
    """Seconds as m:ss: 425 -> '7:05'."""
    m, s = divmod(round(t), 60)
    return f"{m}:{s:02d}"


def time_accept(lo: float, hi: float) -> list[str]:
    """Every whole second of [lo, hi] as '42 s', '42s', '0:42' and '42.0'..'42.9' (and 'N minutes S'
    past a minute): what a right time answer contains, for the matching scorer."""
    out = []
    for s in range(max(0, math.ceil(lo)), math.floor(hi) + 1):
        m, r = divmod(s, 60)
        out += [f"{s} s", f"{s}s", f"{m}:{r:02d}"] + [f"{s}.{d}" for d in range(10)]
        if m:
            out += [f"{m} minute{'s' * (m != 1)} {r}", f"{m} minute{'s' * (m != 1)} and {r}"]
    return out


def count_accept(n: int, nouns: Sequence[str]) -> list[str]:
    """n as digits and words, with each noun and the words that frame a bare count."""
    out = []
    for form in dict.fromkeys((str(n), number_words(n))):
        out += [f"{form} {noun}" for noun in nouns]
        out += [f"total of {form}", f"{form} in total", f"{form} in all", f"are {form} ", f"were {form} "]
    return out


def said_forms(text: str) -> str:
    """Digits as the speaker says them: numbers up to 99 in words, longer ones digit by digit."""
    return re.sub(r"\d+", lambda m: number_words(int(m[0])) if len(m[0]) <= 2 else digit_words(m[0]), text)


@dataclass
class _Writer:
    video: Video
    spoken_s: SpeechTime
    archive: Sequence[Video]
    splits: Mapping[str, str] = field(default_factory=lambda: SPLITS)
    records: list[dict[str, Any]] = field(default_factory=list)
    # With `fresh` (the sixth set), each open record keeps the new phrasings it may be asked in instead
    # ({record id: [(question, fields it changes)]}); _rephrase picks a third of each type's records.
    fresh: bool = False
    alternatives: dict[str, list[tuple[str, dict[str, Any]]]] = field(default_factory=dict)
    # With `seventh` too, the phrasings kept are the seventh set's (`new7`), not the sixth's (`new`).
    seventh: bool = False

    def rng(self, salt: str) -> random.Random:
        return random.Random(f"heldout/{self.video.name}/{salt}")

    def pick(self, salt: str, options: Sequence[str]) -> str:
        return self.rng(salt).choice(list(options))

    def add(
        self,
        qtype: str,
        question: str,
        answer: str,
        facts: Sequence[str],
        accept: Sequence[str] = (),
        *,
        choices: Sequence[str] | None = None,
        new: Sequence[Phrasing] = (),
        new7: Sequence[Phrasing] = (),
        **extra: Any,
    ) -> None:
        """`new`: the question in phrasings no earlier set uses (with the fields, such as its time
        expression, that such a phrasing changes); only a `fresh` writer keeps them. `new7`: the
        seventh set's, new also beside the sixth's; a `seventh` writer keeps those instead."""
        n = sum(r["type"] == qtype for r in self.records) + 1
        rec: dict[str, Any] = {
            "id": f"{self.video.name}-{qtype}-{n:02d}",
            "video": self.video.file,
            "type": qtype,
            "question": question,
        }
        if choices is not None:
            opts = list(dict.fromkeys(choices))
            if len(opts) != len(choices) or answer not in opts:
                raise ValueError(f"{rec['id']}: bad choices {choices} for {answer!r}")
            self.rng(f"mc/{question}").shuffle(opts)
            rec.update(format="mc", choices=opts, answer=opts.index(answer))
        else:
            acc = [a for a in dict.fromkeys(accept) if a != answer]
            rec.update(format="open", answer=answer, accept=acc)
        rec.update(split=self.splits[self.video.name], scope=extra.pop("scope", "video"), facts=list(facts))
        rec.update(extra)
        self.records.append(rec)
        kept = new7 if self.seventh else new
        if self.fresh and kept and choices is None:
            self.alternatives[rec["id"]] = [(a, {}) if isinstance(a, str) else a for a in kept]

    # ------------------------------------------------------------ time

    def end(self, line: Line) -> float:
        return line.start_s + self.spoken_s(line.text)

    def alone(self, sign: Sign, lo: float, hi: float, *, same_place: bool) -> bool:
        """`sign` covers [lo, hi] and no other sign (at its place, or anywhere) is on screen then."""
        if not (sign.start_s <= lo and hi <= sign.end_s):
            return False
        return not any(
            o is not sign and (o.place == sign.place or not same_place) and o.start_s < hi and lo < o.end_s
            for o in self.video.signs
        )

    def sign_times(self, sign: Sign, *, same_place: bool) -> list[tuple[str, tuple[float, float]]]:
        """Time expressions whose window shows `sign` and nothing that would make the question ambiguous."""
        d, length = self.video.duration_s, sign.end_s - sign.start_s
        a = round(sign.start_s + 0.35 * length)
        b = round(sign.start_s + 0.7 * length)
        options = [(f"{a} seconds in", (a - 1.0, a + 1.0)), (f"at {mmss(b)}", (b - 1.0, b + 1.0))]
        for frac, words in ((0.25, "a quarter of the way through"), (1 / 3, "a third of the way through"),
                            (0.5, "halfway through"), (2 / 3, "two thirds of the way through"),
                            (0.75, "three quarters of the way through")):  # fmt: skip
            options.append((words, (frac * d - 0.03 * d, frac * d + 0.03 * d)))
        options += [("near the end", (0.93 * d, d)), ("in the first few seconds", (0.0, min(3.0, 0.05 * d)))]
        options += [
            (f"right after {ln.topic} is announced", (self.end(ln), self.end(ln) + 2.0)) for ln in self.video.lines
        ]
        return [
            (p, w)
            for p, w in options
            if self.alone(sign, max(0.0, w[0] - 0.5), min(d, w[1] + 0.5), same_place=same_place)
        ]

    def new_sign_times(self, sign: Sign, *, same_place: bool) -> list[tuple[str, tuple[float, float]]]:
        """Time expressions no earlier set uses ('about 40 seconds into the video', 'at the 1:05 mark',
        'around the two-minute mark', 'midway through'), filtered like sign_times."""
        d, length = self.video.duration_s, sign.end_s - sign.start_s
        a = round(sign.start_s + 0.45 * length)
        b = round(sign.start_s + 0.6 * length)
        options = [
            (f"about {a} seconds into the video", (a - 1.5, a + 1.5)),
            (f"at the {mmss(b)} mark", (b - 1.0, b + 1.0)),
            ("midway through", (0.47 * d, 0.53 * d)),
            ("right at the start", (0.0, min(3.0, 0.05 * d))),
            ("in the last few seconds", (d - 3.0, d)),
        ]
        options += [
            (f"around the {number_words(m)}-minute mark", (60.0 * m - 3.0, 60.0 * m + 3.0))
            for m in (1, 2)
            if 60 * m + 5 < d
        ]
        return [
            (p, w)
            for p, w in options
            if self.alone(sign, max(0.0, w[0] - 0.5), min(d, w[1] + 0.5), same_place=same_place)
        ]

    def new7_sign_times(self, sign: Sign, *, same_place: bool) -> list[tuple[str, tuple[float, float]]]:
        """The seventh set's time expressions ('just past the one-minute mark', 'in the opening seconds',
        'toward the finish', 'half a minute in', 'around 1:10', '37 secs in'), filtered like sign_times."""
        d, length = self.video.duration_s, sign.end_s - sign.start_s
        a = round(sign.start_s + 0.4 * length)
        b = round(sign.start_s + 0.55 * length)
        options = [
            (f"around {mmss(a)}", (a - 2.0, a + 2.0)),
            (f"{b} secs in", (b - 1.5, b + 1.5)),
            ("in the opening seconds", (0.0, 3.0)),
            ("toward the finish", (d - 4.0, d)),
            ("half a minute in", (28.0, 32.0)),
        ]
        for m in (1, 2):
            if 60 * m + 8 < d:
                options.append((f"just past the {number_words(m)}-minute mark", (60.0 * m, 60.0 * m + 5.0)))
                options.append((f"a little before the {number_words(m)}-minute mark", (60.0 * m - 6.0, 60.0 * m)))
        return [
            (p, w)
            for p, w in options
            if self.alone(sign, max(0.0, w[0] - 0.5), min(d, w[1] + 0.5), same_place=same_place)
        ]

    def signs_during(self, lo: float, hi: float) -> list[Sign]:
        return [s for s in self.video.signs if s.start_s < hi and lo < s.end_s]

    def line_index(self, line: Line) -> int:
        return self.video.lines.index(line)


# ------------------------------------------------------------------ spoken lines


def _hour_forms(s: dict[str, str]) -> list[str]:
    """Ways an answer writes the line's clock hour besides 'N o'clock'."""
    h = s["hour"]
    return [f"{s['hour_words']} o'clock", f"{h}:00", f"{h} pm", f"{h} am", f"{h} o clock"]


def _other_hours(h: int) -> list[str]:
    """Five wrong clock hours for a multiple-choice question."""
    return [f"{(h + d - 1) % 12 + 1} o'clock" for d in (1, 3, 5, 7, 9)]


def _line_facts(w: _Writer, i: int, line: Line) -> None:
    """The line's main fact in three phrasings (two open, one multiple choice) and a second fact."""
    s, src = line.words(), [f"line:{i}"]
    kind = line.kind
    n_kind = sum(o.kind == kind for o in w.video.lines)
    nm, ns = _new_line_phrasings(kind, s, n_kind)  # the main and the second fact in new phrasings
    nm7, ns7 = _new7_line_phrasings(kind, s, n_kind, _where(line, w.video.duration_s))  # the seventh set's

    def main(
        qtype: str, opens: Sequence[str], mcq: str, answer: str, accept: Sequence[str], wrong: Sequence[str]
    ) -> None:
        for q in opens:
            w.add(qtype, q, answer, src, accept, new=nm, new7=nm7)
        w.add(qtype, mcq, answer, src, choices=[answer, *[x for x in dict.fromkeys(wrong) if x != answer][:4]])

    if kind == "depart":
        p, v = int(s["platform"]), s["vehicle"]
        main(
            "what",
            [f"Which platform is the {s['color']} {v} leaving from?", f"I want to catch the {v}. Where do I board it?"],
            f"The {s['color']} {v} departs from which platform?",
            f"platform {p}",
            [f"platform {s['platform_words']}", f"platform number {p}", f"platform no {p}"],
            [f"platform {x}" for x in (p + 1, p + 3, abs(p - 2) or 12, p + 6, p + 10)],
        )
        w.add("what", f"What colour is the {v} that leaves from platform {p}?", s["color"], src, new=ns, new7=ns7)
    elif kind == "delay":
        m, v, c = int(s["minutes"]), s["vehicle"], s["city"]
        main(
            "what",
            [f"How late is the {v} to {c}?", f"By how many minutes is the {v} to {c} held up?"],
            f"What delay is announced for the {v} to {c}?",
            f"{m} minutes",
            [f"{s['minutes_words']} minutes", f"{m} min"],
            [f"{x} minutes" for x in (m + 10, m + 20, abs(m - 5) or 50, m + 5, m + 30)],
        )
        w.add("what", f"Where is the delayed {v} headed?", c, src, new=ns, new7=ns7)
    elif kind == "lost":
        item, spot = s["item"], s["spot"]
        main(
            "what",
            [f"What got left behind in the {spot}?", f"Somebody forgot something in the {spot}. What was it?"],
            f"Which item was found in the {spot}?",
            item,
            [],
            POOLS["item"],
        )
        w.add("what", f"In which room was the {s['color']} {item} left?", spot, src, new=ns, new7=ns7)
    elif kind == "closed":
        place, cause = s["place"], s["cause"]
        main(
            "what",
            [f"Which place can't open today because {cause}?", f"What is shut because {cause}?"],
            f"Because {cause}, which of these is closed today?",
            place,
            [],
            POOLS["place"],
        )
        for q in (f"Why is the {place} shut?", f"What's the reason the {place} isn't open today?"):
            w.add("why", q, cause, src, CAUSE_WORDS[cause], new=ns, new7=ns7)
    elif kind == "route":
        dest, method = s["dest"], s["method"]
        main(
            "how",
            [f"How do I get to the {dest}?", f"What's the way to the {dest}, according to the announcement?"],
            f"Which directions are given for the {dest}?",
            method,
            METHOD_WORDS[method],
            POOLS["method"],
        )
        w.add("what", f"Where do you end up if you {method}?", dest, src, new=ns, new7=ns7)
    elif kind == "code":
        code, thing = s["code"], s["thing"]
        main(
            "what",
            [f"What's the code for the {thing}?", f"What do I type in to open the {thing}?"],
            f"The {thing} code is which of these?",
            code,
            [" ".join(code), digit_words(code), "-".join(code)],
            [code[::-1], code[1:] + code[0], code[2:] + code[:2], code[0] + code[2] + code[1] + code[3], "1234"],
        )
        w.add("what", f"What does the code {code} open?", thing, src, new=ns, new7=ns7)
    elif kind == "meet":
        name, mark, h = s["name"], s["landmark"], int(s["hour"])
        main(
            "what",
            [f"Who am I supposed to meet at the {mark}?", f"Whom is someone meeting at {h} o'clock?"],
            f"The meeting at the {mark} is with whom?",
            name,
            [],
            POOLS["name"],
        )
        w.add(
            "what",
            f"What time is the meeting with {name}?",
            f"{h} o'clock",
            src,
            _hour_forms(s),
            new=ns,
            new7=ns7,
        )
    elif kind == "price":
        p, city = int(s["price"]), s["city"]
        main(
            "what",
            [f"How much is a ticket to {city}?", f"What does it cost to get a ticket to {city}?"],
            f"Which price is announced for tickets to {city}?",
            f"{p} dollars",
            [f"{s['price_words']} dollars", f"{p} usd"],
            [f"{x} dollars" for x in (p + 10, p + 5, abs(p - 7) or 99, p + 20, p * 2)],
        )
        w.add("what", f"A ticket to which city costs {p} dollars?" if n_kind == 1 else
              f"Which city is the {p}-dollar ticket for?", city, src, new=ns, new7=ns7)  # fmt: skip
    elif kind == "event":
        ev, h, room = s["event"], int(s["hour"]), s["room"]
        main(
            "what",
            [f"What time does the {ev} start?", f"At what hour does the {ev} begin?"],
            f"The {ev} begins at which time?",
            f"{h} o'clock",
            _hour_forms(s),
            _other_hours(h),
        )
        w.add("what", f"Where is the {ev} held?", room, src, new=ns, new7=ns7)
    elif kind == "board":
        g, city = int(s["gate"]), s["city"]
        main(
            "what",
            [f"Which gate does the flight to {city} board from?", f"I'm flying to {city}. Which gate do I go to?"],
            f"The flight to {city} boards at which gate?",
            f"gate {g}",
            [f"gate {s['gate_words']}", f"gate number {g}", f"gate no {g}"],
            [f"gate {x}" for x in (g + 1, g + 4, abs(g - 2) or 11, g + 7, g + 12)],
        )
        w.add("what", f"Where is the flight that boards at gate {g} going?", city, src, new=ns, new7=ns7)
    elif kind == "sale":
        goods, h = s["goods"], int(s["hour"])
        main(
            "what",
            [f"Until what time are the {goods} half price?", f"How long does the half-price offer on {goods} last?"],
            f"The {goods} are half price until when?",
            f"{h} o'clock",
            _hour_forms(s),
            _other_hours(h),
        )
        w.add("what", "What is being sold at half price?" if n_kind == 1 else
              f"What is half price until {h} o'clock?", goods, src, new=ns, new7=ns7)  # fmt: skip
    elif kind == "weather":
        weather, h = s["weather"], int(s["hour"])
        main(
            "what",
            [f"From what time is heavy {weather} expected?", f"When should we expect the heavy {weather} to start?"],
            f"Heavy {weather} is expected after when?",
            f"{h} o'clock",
            _hour_forms(s),
            _other_hours(h),
        )
        w.add("what", "What weather is expected later?" if n_kind == 1 else
              f"What weather is expected after {h} o'clock?", weather, src, new=ns, new7=ns7)  # fmt: skip
    elif kind == "change":
        p, v, c = int(s["platform"]), s["vehicle"], s["city"]
        main(
            "what",
            [f"Which platform does the {v} to {c} leave from now?",
             f"The {v} to {c} has been moved. Where do I catch it?"],
            f"After the platform change, the {v} to {c} leaves from which platform?",
            f"platform {p}",
            [f"platform {s['platform_words']}", f"platform number {p}", f"platform no {p}"],
            [f"platform {x}" for x in (p + 2, p + 5, abs(p - 1) or 13, p + 8, p + 11)],
        )  # fmt: skip
        w.add("what", f"Where is the {v} that now leaves from platform {p} going?", c, src, new=ns, new7=ns7)
    elif kind == "cancel":
        v, c, desk = s["vehicle"], s["city"], s["desk"]
        main(
            "what",
            [f"Where can I get a refund for the cancelled {v} to {c}?",
             f"The {v} to {c} isn't running. Where do I get my money back?"],
            f"Refunds for the {v} to {c} are given where?",
            desk,
            [],
            POOLS["desk"],
        )  # fmt: skip
        w.add("what", f"Where was the cancelled {v} going?" if n_kind == 1 else
              f"Where was the cancelled {v} with refunds at the {desk} going?", c, src, new=ns, new7=ns7)  # fmt: skip
    elif kind == "menu":
        soup, h = s["soup"], int(s["hour"])
        main(
            "what",
            ["What is the soup of the day?", "Which soup is being served today?"] if n_kind == 1 else
            [f"Which soup is served until {h} o'clock?", f"What soup can I get until {h} o'clock?"],
            "Which of these is the soup of the day?" if n_kind == 1 else
            f"Which of these soups is served until {h} o'clock?",
            soup,
            [],
            POOLS["soup"],
        )  # fmt: skip
        w.add("what", f"Until what time is the {soup} soup served?", f"{h} o'clock", src, _hour_forms(s), new=ns,
              new7=ns7)  # fmt: skip
    elif kind == "closing":
        shop, h = s["shop"], int(s["hour"])
        main(
            "what",
            [f"What time does the {shop} close today?", f"Until when is the {shop} open today?"],
            f"The {shop} closes at which time today?",
            f"{h} o'clock",
            _hour_forms(s),
            _other_hours(h),
        )
        w.add("what", "Which place closes early today?" if n_kind == 1 else
              f"Which place closes at {h} o'clock today?", shop, src, new=ns, new7=ns7)  # fmt: skip
    elif kind == "raffle":
        t, prize = int(s["ticket"]), s["prize"]
        main(
            "what",
            ["What is the winning raffle number?", "Which ticket number won the raffle?"] if n_kind == 1 else
            [f"Which ticket number wins the {prize}?", f"What number wins the {prize} in the raffle?"],
            "Which of these is the winning raffle ticket?" if n_kind == 1 else
            f"Which of these ticket numbers wins the {prize}?",
            f"number {t}",
            [f"number {s['ticket_words']}", f"ticket {t}", f"ticket number {t}", f"ticket {s['ticket_words']}",
             f"no {t}"],
            [f"number {x}" for x in (t + 1, t + 11, abs(t - 9) or 90, t + 20, t + 3)],
        )  # fmt: skip
        w.add("what", "What is the raffle prize?" if n_kind == 1 else
              f"What prize goes to ticket number {t}?", prize, src, new=ns, new7=ns7)  # fmt: skip
    elif kind == "pet":
        animal, name = s["animal"], s["pet"]
        main(
            "what",
            [f"What is the missing {animal} called?",
             f"What's the name of the {s['color']} {animal} that went missing?"],
            f"The missing {animal} is called what?",
            name,
            [],
            POOLS["pet"],
        )  # fmt: skip
        w.add("what", f"Near which place did the {animal} go missing?", s["area"], src, new=ns, new7=ns7)
    elif kind == "parking":
        street, h = s["street"], int(s["hour"])
        main(
            "what",
            [f"After what time will cars on {street} be towed?", f"Until when can I leave my car on {street}?"],
            f"Cars on {street} are towed after which time?",
            f"{h} o'clock",
            _hour_forms(s),
            _other_hours(h),
        )
        w.add("what", "Which street will cars be towed from?" if n_kind == 1 else
              f"Which street are cars towed from after {h} o'clock?", street, src, new=ns, new7=ns7)  # fmt: skip
    elif kind == "found":
        item, desk = s["item"], s["desk"]
        main(
            "what",
            [f"What has been handed in at the {desk}?", f"Which item is waiting to be collected at the {desk}?"],
            f"Which item was handed in at the {desk}?",
            item,
            [],
            POOLS["item"],
        )
        w.add("what", f"Where can the owner collect the {s['color']} {item}?", desk, src, new7=ns7)
    elif kind == "shuttle":
        m, dest = int(s["minutes"]), s["dest"]
        main(
            "what",
            [f"How often does the shuttle bus to the {dest} run?",
             f"How many minutes apart are the shuttles to the {dest}?"],
            f"The shuttle bus to the {dest} runs how often?",
            f"{m} minutes",
            [f"{s['minutes_words']} minutes", f"{m} min", f"every {m}", f"every {s['minutes_words']}"],
            [f"{x} minutes" for x in (m + 5, m + 10, m + 15, m + 20, m * 3)],
        )  # fmt: skip
        w.add("what", "Where does the free shuttle bus go?" if n_kind == 1 else
              f"Where does the shuttle bus that runs every {m} minutes go?", dest, src, new7=ns7)  # fmt: skip
    else:
        raise ValueError(f"unknown line kind {kind!r}")


def _where(line: Line, duration_s: float) -> str:
    """Where in its video a line is said, as a user who watched it would put it ('At the start')."""
    if line.start_s < 0.15 * duration_s:
        return "At the start"
    if line.start_s > 0.75 * duration_s:
        return "Near the end"
    return "Partway through"


def _new7_line_phrasings(kind: str, s: Mapping[str, str], n_kind: int, where: str) -> tuple[list[str], list[str]]:
    """The seventh set's new phrasings of a line's main fact and of its second fact (for 'closed', its
    cause: the 'why' questions), as users type them: casual, as a request, with the video's context
    first (`where`: 'At the start', 'Partway through', 'Near the end'); [] for kinds it does not say."""
    one = n_kind == 1
    if kind == "found":
        item, desk, c = s["item"], s["desk"], s["color"]
        return (
            [f"what got handed in at the {desk}", f"I need to know which item is waiting at the {desk}.",
             f"{where} there's an announcement about something handed in at the {desk} - what is it?"],
            [f"where do i pick up the {c} {item}", f"I think the {item} might be mine. Where do I go to collect it?",
             f"Tell me which desk has the {item}."],
        )  # fmt: skip
    if kind == "shuttle":
        dest, m = s["dest"], s["minutes"]
        return (
            [f"how often's the shuttle to the {dest}",
             f"If I just miss the shuttle bus to the {dest}, how long until the next one?",
             f"{where} they mention a free shuttle bus to the {dest} - how frequently does it run?"],
            ["where does the free shuttle take you", "They mention a free shuttle bus. Where is it going?"] if one else
            [f"where does the shuttle every {m} minutes go", f"I need the destination of the {m}-minute shuttle."],
        )  # fmt: skip
    if kind == "closed":
        place, cause = s["place"], s["cause"]
        return (
            [f"whats shut today because {cause}", f"Apparently {cause}. What's closed as a result?",
             f"I'd like to know which place is closed because {cause}."],
            [f"why's the {place} closed", f"The {place} is shut today - what happened?",
             f"I need the reason the {place} can't open today."],
        )  # fmt: skip
    if kind == "route":
        dest, method = s["dest"], s["method"]
        return (
            [f"which way to the {dest}", f"Give me the directions they announced for the {dest}.",
             f"{where} they explain how to reach the {dest} - what do they say to do?"],
            [f"they said to {method}. wheres that take you", f"I need the destination of the directions '{method}'."],
        )  # fmt: skip
    if kind == "code":
        thing, code = s["thing"], s["code"]
        return (
            [f"i forgot the {thing} code, what was it", f"Can you give me the number they read out for the {thing}?",
             f"{where} a code gets read out for the {thing} - what is it?"],
            [f"whats {code} the code for", f"They read out the code {code}. What does it unlock?"],
        )  # fmt: skip
    if kind == "meet":
        name, mark, h = s["name"], s["landmark"], s["hour"]
        return (
            [f"who's waiting at the {mark}", f"I'm supposed to meet someone at the {mark} at {h} - who is it?",
             f"{where} there's a meeting arranged at the {mark}. Who with?"],
            [f"what time do i meet {name}", f"I need the time of the meeting with {name}."],
        )  # fmt: skip
    if kind == "event":
        ev = s["event"]
        return (
            [f"what time's the {ev}", f"I need the start time of the {ev}.",
             f"{where} they announce a {ev} - when does it begin?"],
            [f"where's the {ev} happening", f"I need the room for the {ev}."],
        )  # fmt: skip
    if kind == "price":
        city, p = s["city"], s["price"]
        return (
            [f"how much for a ticket to {city}", f"Tell me the price they gave for tickets to {city}.",
             f"{where} there's a ticket price announced for {city} - how much is it?"],
            [f"which place is the {p} dollar ticket for", f"There's a ticket costing {p} dollars - where to?"],
        )  # fmt: skip
    if kind == "depart":
        v, c, p = s["vehicle"], s["color"], s["platform"]
        return (
            [f"what platform for the {c} {v}", f"I need the platform number of the {c} {v}.",
             f"{where} they announce the {c} {v} - which platform does it go from?"],
            [f"whats the colour of the {v} on platform {p}",
             f"There's a {v} at platform {p} - what colour did they say it was?"],
        )  # fmt: skip
    if kind == "closing":
        shop, h = s["shop"], s["hour"]
        return (
            [f"when does the {shop} shut today",
             f"I need to get to the {shop} before it closes. What time does it close today?",
             f"{where} they say the {shop} is closing early - at what time?"],
            ["which shop's closing early", "Something is closing early today - what is it?"] if one else
            [f"which shop closes at {h} today", f"I need the shop that shuts at {h} o'clock."],
        )  # fmt: skip
    if kind == "raffle":
        t, prize = s["ticket"], s["prize"]
        return (
            ["whats the winning raffle ticket", "I bought a raffle ticket. Which number won?",
             f"{where} they draw a raffle - which number wins?"] if one else
            [f"whats the winning number for the {prize}", f"I need the ticket number that wins the {prize}."],
            ["what do you win in the raffle", "There's a raffle in this video - what's the prize?"] if one else
            [f"what does ticket {t} win", f"I need the prize for ticket number {t}."],
        )  # fmt: skip
    if kind == "delay":
        v, c, m = s["vehicle"], s["city"], s["minutes"]
        return (
            [f"how delayed is the {v} to {c}", f"I need to know how late the {v} to {c} is running.",
             f"{where} there's an announcement about a {v} to {c} - how late is it?"],
            [f"the {v} thats held up - where's it bound",
             f"I need the destination of the {v} that's {m} minutes late."],
        )  # fmt: skip
    return [], []


def _new_line_phrasings(kind: str, s: Mapping[str, str], n_kind: int) -> tuple[list[str], list[str]]:
    """The sixth set's new phrasings of a line's main fact and of its second fact (for 'closed', its
    cause: the 'why' questions), as a user would ask them; [] for kinds it does not say."""
    one = n_kind == 1
    if kind == "depart":
        v, c, p = s["vehicle"], s["color"], s["platform"]
        return (
            [f"I'm catching the {c} {v}. What platform should I head to?",
             f"Where does the {c} {v} go from? Which platform?"],
            [f"The {v} on platform {p}: what colour is it?", f"Which colour {v} is the one at platform {p}?"],
        )  # fmt: skip
    if kind == "delay":
        v, c = s["vehicle"], s["city"]
        return (
            [f"How long a wait is there for the {v} to {c}?", f"How much later than planned is the {v} to {c}?"],
            [f"The {v} that's running late: where is it going?", f"Which city is the late {v} headed for?"],
        )
    if kind == "lost":
        item, spot, c = s["item"], s["spot"], s["color"]
        return (
            [f"Has anything been left in the {spot}? What is it?", f"They found something in the {spot}. What was it?"],
            [f"Which room did someone leave the {item} in?", f"If the {c} {item} is mine, where did I leave it?"],
        )
    if kind == "closed":
        place, cause = s["place"], s["cause"]
        return (
            [f"Something is shut today because {cause}. What is it?",
             f"They said {cause}. Which place is closed because of that?"],
            [f"How come the {place} is closed today?", f"Did they say why the {place} is shut today?",
             f"What's wrong at the {place} that it can't open?"],
        )  # fmt: skip
    if kind == "route":
        dest, method = s["dest"], s["method"]
        return (
            [f"I'm trying to find the {dest}. Which way should I go?",
             f"What directions did they give for getting to the {dest}?"],
            [f"If I {method}, where will I get to?", f"Which place are the directions '{method}' for?"],
        )  # fmt: skip
    if kind == "code":
        thing, code = s["thing"], s["code"]
        return (
            [f"I need to get into the {thing}. What's the code?", f"Which number unlocks the {thing}?"],
            [f"What is the code {code} for?", f"Where would I use the code {code}?"],
        )
    if kind == "meet":
        name, mark, h = s["name"], s["landmark"], s["hour"]
        return (
            [f"Who should I look for at the {mark}?", f"At {h} o'clock, who am I meeting?"],
            [f"When am I supposed to meet {name}?", f"What time should I be there to meet {name}?"],
        )
    if kind == "price":
        city, p = s["city"], s["price"]
        return (
            [f"What's the fare to {city}?", f"How many dollars for a ticket to {city}?"],
            [f"Which city can I get to for {p} dollars?", f"Where does a {p}-dollar ticket take me?"],
        )
    if kind == "event":
        ev = s["event"]
        return (
            [f"When should I show up for the {ev}?", f"What time is the {ev} on?"],
            [f"Which room is the {ev} in?", f"Where do I go for the {ev}?"],
        )
    if kind == "sale":
        goods, h = s["goods"], s["hour"]
        return (
            [f"How long can I get the {goods} at half price?", f"When does the {goods} discount end?"],
            ["What's on offer at half price?", "What can I get for half the usual price?"] if one else
            [f"Which thing is going cheap until {h} o'clock?", f"What can I get at half price until {h} o'clock?"],
        )  # fmt: skip
    if kind == "weather":
        weather, h = s["weather"], s["hour"]
        return (
            [f"When is the {weather} supposed to start?", f"What time will the heavy {weather} arrive?"],
            ["What's the forecast for later?", "What kind of bad weather are they warning about?"] if one else
            [f"What's the forecast for after {h} o'clock?", f"What bad weather is due after {h} o'clock?"],
        )  # fmt: skip
    if kind == "menu":
        soup, h = s["soup"], s["hour"]
        return (
            ["What soup have they got today?", "What's today's soup?"] if one else
            [f"What soup can I still order until {h} o'clock?", f"Which soup is on until {h} o'clock?"],
            [f"How late can I still order the {soup} soup?", f"When do they stop serving the {soup} soup?"],
        )  # fmt: skip
    if kind == "pet":
        animal, c = s["animal"], s["color"]
        return (
            [f"Someone's {animal} has gone missing. What's its name?",
             f"If I find the {c} {animal}, what name should I call it by?"],
            [f"Where was the {animal} when it got lost?", f"Where should I look for the lost {animal}?"],
        )  # fmt: skip
    if kind == "parking":
        street, h = s["street"], s["hour"]
        return (
            [f"How late can I keep my car parked on {street}?", f"When does the towing start on {street}?"],
            ["Where am I not allowed to leave my car late tonight?",
             f"Which road should I move my car off before {h} o'clock?"] if one else
            [f"Which road should I move my car off before {h} o'clock?",
             f"Where do cars get towed from after {h} o'clock?"],
        )  # fmt: skip
    return [], []


def _line_key_accept(line: Line) -> list[str]:
    """What an answer naming this line contains: its key word, or its topic."""
    return [line.key, line.topic.removeprefix("the ")]


def _speech_questions(w: _Writer) -> None:
    v = w.video
    for i, line in enumerate(v.lines):
        _line_facts(w, i, line)
        lo, hi = line.start_s - 2.0, w.end(line) + 1.0
        q = w.pick(
            f"when/{i}",
            [
                f"At what point in the video do we hear about {line.topic}?",
                f"How far into the recording is {line.topic} announced?",
                f"When does the announcer bring up {line.topic}?",
            ],
        )
        ans = mmss(line.start_s) if v.duration_s >= 100 else f"{round(line.start_s)} seconds"
        new = [f"Roughly when do they talk about {line.topic}?", f"Whereabouts in the video is {line.topic} mentioned?",
               f"Can you find me the moment {line.topic} comes up?"]  # fmt: skip
        new7 = [f"when do they mention {line.topic}", f"I need the time in the video where {line.topic} comes up.",
                f"There's a bit about {line.topic} - how far in is that?"]  # fmt: skip
        w.add("when", q, ans, [f"line:{i}"], time_accept(lo, hi), time_window_s=[max(0.0, lo), hi], new=new, new7=new7)
        if line.kind in ("lost", "closed", "delay", "weather", "cancel", "closing", "raffle", "pet", "parking",
                         "found", "shuttle"):  # fmt: skip
            _denial(w, i, line)
    pairs = list(zip(v.lines, v.lines[1:], strict=False))
    for n, (a, b) in enumerate((pairs[0], pairs[-1])):
        ia, ib = w.line_index(a), w.line_index(b)
        q = [f"What is announced right after {a.topic}?", f"What comes next after the announcement about {a.topic}?"][n]
        new = [f"Once they finished talking about {a.topic}, what was the next announcement?",
               f"What came up straight after {a.topic}?"]  # fmt: skip
        new7 = [f"what do they announce after {a.topic}",
                f"I heard the bit about {a.topic}. What was the announcement that followed it?"]  # fmt: skip
        w.add("order", q, b.key, [f"line:{ib}"], _line_key_accept(b), relation="after", new=new, new7=new7)
        q = [
            f"What did the speaker talk about just before {b.topic}?",
            f"Which announcement came right before {b.topic}?",
        ][n]
        new = [f"Before they got to {b.topic}, what had they been talking about?",
               f"What was mentioned just ahead of {b.topic}?"]  # fmt: skip
        new7 = [f"what was said before {b.topic}",
                f"Right before {b.topic} there's another announcement - what's it about?"]  # fmt: skip
        w.add("order", q, a.key, [f"line:{ia}"], _line_key_accept(a), relation="before", new=new, new7=new7)


def _denial(w: _Writer, i: int, line: Line) -> None:
    """Yes/no questions the line answers, worded so that a model trusting doubt says the opposite."""
    s, src = line.words(), [f"line:{i}"]
    if line.kind == "lost":
        new = [f"Did somebody forget a {s['item']} in the {s['spot']}?",
               f"Has anyone reported a {s['item']} left behind?"]  # fmt: skip
        for q in (f"Did anyone leave a {s['item']} in the {s['spot']}?",
                  f"Was a {s['item']} left behind somewhere, or is nothing said about that?"):  # fmt: skip
            w.add("denial", q, "yes", src, [], expects="yes", new=new)
    elif line.kind == "closed":
        new = [f"Will the {s['place']} be open if I go there today?",
               f"I was planning to go to the {s['place']} today. Is it open?"]  # fmt: skip
        new7 = [f"can i go to the {s['place']} today", f"I'm heading to the {s['place']} later - will it be open?"]
        for q in (f"Is the {s['place']} open today?", f"Can I visit the {s['place']} today?"):
            w.add("denial", q, "closed", src, ["not open", "shut"], expects="no", new=new, new7=new7)
    elif line.kind == "delay":
        new = [f"Will the {s['vehicle']} to {s['city']} get in on schedule?",
               f"Is the {s['vehicle']} to {s['city']} on time today?"]  # fmt: skip
        new7 = [f"is the {s['vehicle']} to {s['city']} on schedule",
                f"I'm taking the {s['vehicle']} to {s['city']} - will it leave on time?"]  # fmt: skip
        w.add(
            "denial", f"Is the {s['vehicle']} to {s['city']} running on time?", "delayed", src,
            ["late", "not on time", "behind schedule"], expects="no", new=new, new7=new7,
        )  # fmt: skip
    elif line.kind == "weather":
        q = f"Is any {s['weather']} expected later, or does the announcement say nothing about the weather?"
        new = [f"Should I expect any {s['weather']} later today?",
               f"Are they saying there'll be {s['weather']} later on?"]  # fmt: skip
        w.add("denial", q, "yes", src, [], expects="yes", new=new)
    elif line.kind == "cancel":
        w.add(
            "denial", f"Is the {s['vehicle']} to {s['city']} still running today?", "cancelled", src,
            ["canceled", "not running", "called off"], expects="no",
        )  # fmt: skip
    elif line.kind == "closing":
        new7 = [f"is the {s['shop']} open late tonight",
                f"I want to pop into the {s['shop']} this evening. Will it be open?"]  # fmt: skip
        w.add(
            "denial", f"Is the {s['shop']} open all evening today?", "closes early", src,
            ["closing early", "closes at", "closing at", "shuts early", "shuts at"], expects="no", new7=new7,
        )  # fmt: skip
    elif line.kind == "raffle":
        q = f"Was a winner drawn for the {s['prize']}, or does the announcement say nothing about a raffle?"
        new7 = [f"did they draw the raffle for the {s['prize']}", f"Has anyone won the {s['prize']} yet?"]
        w.add("denial", q, "yes", src, [], expects="yes", new7=new7)
    elif line.kind == "pet":
        q = f"Has a {s['animal']} gone missing, or does the announcement say nothing about a pet?"
        new = [f"Did somebody lose their {s['animal']}?", f"Is anyone looking for a missing {s['animal']}?"]
        w.add("denial", q, "yes", src, [], expects="yes", new=new)
    elif line.kind == "parking":
        new = [f"Is it OK to park on {s['street']} overnight?",
               f"If I leave my car on {s['street']} late tonight, will that be fine?"]  # fmt: skip
        w.add(
            "denial", f"Can I leave my car on {s['street']} all night?", "towed", src,
            ["towing", "tow away", "not allowed"], expects="no", new=new,
        )  # fmt: skip
    elif line.kind == "found":
        q = f"Has anyone handed in a {s['item']}, or does the announcement say nothing about it?"
        new7 = [f"did anyone hand in a {s['item']}", f"I lost my {s['item']} - has one been handed in?"]
        w.add("denial", q, "yes", src, [], expects="yes", new7=new7)
    elif line.kind == "shuttle":
        new7 = [f"do i have to pay to ride the {s['dest']} shuttle",
                f"Is there a charge for the shuttle bus to the {s['dest']}?"]  # fmt: skip
        w.add(
            "denial", f"Do I have to pay for the shuttle bus to the {s['dest']}?", "free", src,
            ["no charge", "free of charge", "costs nothing", "doesn t cost", "does not cost"], expects="no", new7=new7,
        )  # fmt: skip


# ------------------------------------------------------------------ on-screen text


def _sign_questions(w: _Writer) -> None:
    v = w.video
    for i, sign in enumerate(v.signs):
        src = [f"sign:{i}"]
        unnamed = w.sign_times(sign, same_place=False)
        named = w.sign_times(sign, same_place=True)
        if unnamed:
            phrase, window = unnamed[w.rng(f"st/{i}").randrange(len(unnamed))]
            frame = w.pick(f"stf/{i}", UNNAMED)
            q = w.pick(f"stq/{i}", [f"What does {frame} say {phrase}?", f"What is written in {frame} {phrase}?",
                                    f"{phrase[0].upper()}{phrase[1:]}, what does {frame} read?"])  # fmt: skip
            new_times = w.new_sign_times(sign, same_place=False) or [(phrase, window)]
            new: list[Phrasing] = []
            for k, tmpl in enumerate(NEW_SCREEN_TEXT):
                ph, win = new_times[w.rng(f"nst/{i}/{k}").randrange(len(new_times))]
                new.append((tmpl.format(phrase=ph, Phrase=ph[0].upper() + ph[1:]),
                            {"time_expr": ph, "window_s": list(win)}))  # fmt: skip
            times7 = w.new7_sign_times(sign, same_place=False) or [(phrase, window)]
            new7: list[Phrasing] = []
            for k, tmpl in enumerate(NEW7_SCREEN_TEXT):
                ph, win = times7[w.rng(f"nst7/{i}/{k}").randrange(len(times7))]
                new7.append((tmpl.format(phrase=ph, Phrase=ph[0].upper() + ph[1:]),
                             {"time_expr": ph, "window_s": list(win)}))  # fmt: skip
            w.add("screen_text", q, sign.text, src, time_expr=phrase, window_s=list(window), new=new, new7=new7)
        numeric = [(p, win) for p, win in named if p[0].isdigit() or p.startswith("at ")]
        relative = [x for x in named if x not in numeric]
        rng = w.rng(f"sp/{i}")
        chosen = ([rng.choice(numeric)] if numeric else []) + ([rng.choice(relative)] if relative else [])
        if len(chosen) < 2 and len(named) >= 2:
            chosen = rng.sample(named, 2)
        new_named = w.new_sign_times(sign, same_place=True)
        named7 = w.new7_sign_times(sign, same_place=True)
        for k, (phrase, window) in enumerate(chosen):
            frame = PLACE_NAMES[sign.place][(i + k) % 3]
            q = [f"What does {frame} say {phrase}?", f"{phrase[0].upper()}{phrase[1:]}, what is written in {frame}?"][k]
            new = []
            for n, tmpl in enumerate((NEW_SCREEN_PLACE[k], NEW_SCREEN_PLACE[1 - k])):
                ph, win = new_named[(i + k) % len(new_named)] if new_named else (phrase, window)
                place = NEW_PLACE_NAMES[sign.place][(i + k + n) % 2]
                new.append((tmpl.format(frame=place, phrase=ph), {"time_expr": ph, "window_s": list(win)}))
            new7 = []
            for n, tmpl in enumerate((NEW7_SCREEN_PLACE[k], NEW7_SCREEN_PLACE[1 - k])):
                ph, win = named7[(i + k + n) % len(named7)] if named7 else (phrase, window)
                place = NEW7_PLACE_NAMES[sign.place][(i + k + n) % 2]
                new7.append((tmpl.format(frame=place, phrase=ph), {"time_expr": ph, "window_s": list(win)}))
            w.add("screen_place", q, sign.text, src, time_expr=phrase, window_s=list(window), new=new, new7=new7)
        late = max(sign.start_s, 2 * v.duration_s / 3)
        if sign.place != "top" and late + 2 <= sign.end_s:
            frame = {"top2": "a second line of text appears under the top sign",
                     "bottom": "a caption appears at the bottom of the frame"}[sign.place]  # fmt: skip
            for q in (f"Late in the video {frame}. What does it say?",
                      f"In the last part of the video, what does {PLACE_NAMES[sign.place][2]} read?"):  # fmt: skip
                w.add("late_text", q, sign.text, src, time_window_s=[late, sign.end_s], new=NEW_LATE_TEXT[sign.place],
                      new7=NEW7_LATE_TEXT[sign.place])  # fmt: skip
        if sign.start_s >= 2 and (i < 2 or sign.place != "top"):
            lo, hi = sign.start_s - 2.0, sign.start_s + 2.0
            q = w.pick(f"sw/{i}", [f"When does the text '{sign.text}' first appear?",
                                   f"At what time does '{sign.text}' come up on screen?",
                                   f"How far into the video is '{sign.text}' first shown?"])  # fmt: skip
            ans = mmss(sign.start_s) if v.duration_s >= 100 else f"{round(sign.start_s)} seconds"
            new = [f"When did '{sign.text}' first pop up on screen?",
                   f"At what timestamp does the text '{sign.text}' show up?"]  # fmt: skip
            new7 = [f"when does '{sign.text}' first show up", f"I need the time the '{sign.text}' sign first appears.",
                    f"How many seconds in does '{sign.text}' first come on screen?"]  # fmt: skip
            w.add("when", q, ans, src, time_accept(lo, hi), time_window_s=[lo, hi], new=new, new7=new7)
    for i, a in enumerate(v.signs):
        nxt = [j for j, b in enumerate(v.signs) if b.place == a.place and b.start_s == a.end_s]
        if nxt and i % 2 == 0:
            b = v.signs[nxt[0]]
            new = [f"After '{a.text}', what did the on-screen text switch to?",
                   f"What replaced '{a.text}' on the screen?"]  # fmt: skip
            q = f"What did the text '{a.text}' change to?"
            new7 = [f"what does '{a.text}' turn into", f"I saw '{a.text}' on screen. What text took its place?"]
            w.add("order", q, b.text, [f"sign:{nxt[0]}"], relation="after", new=new, new7=new7)
    texts = {s.text for s in v.signs}
    nouns = ("different", "distinct", "texts", "signs", "unique", "messages", "captions")
    for q in ("How many different texts are shown on screen over the whole video?",
              "Counting every sign and caption, how many distinct pieces of text appear in this video?",
              "How many different messages does the video display on screen?"):  # fmt: skip
        new = ["How many different signs or captions show up in this clip altogether?",
               "How many different things are written on screen during the video?"]  # fmt: skip
        new7 = ["how many different signs show up",
                "I need a count of the distinct texts shown on screen in this video.",
                "The writing on screen keeps changing - how many different texts are there in all?"]  # fmt: skip
        accept = count_accept(len(texts), nouns)
        w.add("aggregate_texts", q, f"{len(texts)} different texts", ["signs"], accept, new=new, new7=new7)
    top = {s.text for s in v.signs if s.place == "top"}
    if len(top) != len(texts):
        q = "How many different texts does the sign at the top of the frame show, from start to end?"
        new = ["How many different messages appear in the top banner over the course of the video?",
               "The top banner changes during the video. How many different texts does it show in all?"]  # fmt: skip
        new7 = ["how many different things does the headline at the top say over the video",
                "The title text at the top changes a few times. How many distinct messages does it show?"]  # fmt: skip
        accept = count_accept(len(top), nouns)
        w.add("aggregate_texts", q, f"{len(top)} different texts", ["signs:top"], accept, new=new, new7=new7)


# ------------------------------------------------------------------ joins in time


def _cross_modal(w: _Writer) -> None:
    v = w.video
    for i, line in enumerate(v.lines):
        shown = w.signs_during(line.start_s, w.end(line))
        covering = [s for s in shown if s.start_s <= line.start_s and w.end(line) <= s.end_s]
        if len(shown) == 1 and covering:
            frame = "sign"
        elif len([s for s in shown if s.place == "top"]) == 1 and [s for s in covering if s.place == "top"]:
            frame = "sign at the top"
        else:
            continue
        sign = next(s for s in covering if len(shown) == 1 or s.place == "top")
        q = w.pick(f"cm/{i}", [f"What did the {frame} say while the speaker talked about {line.topic}?",
                               f"What was written on screen ({frame}) while {line.topic} was being announced?",
                               f"While we hear about {line.topic}, what does the {frame} read?"])  # fmt: skip
        new = [f"What was the {frame} showing while they were talking about {line.topic}?",
               f"When the announcement about {line.topic} came on, what was written on the {frame}?"]  # fmt: skip
        new7 = [f"while they're talking about {line.topic} whats the {frame} say",
                f"During the announcement about {line.topic}, I need what's written on the {frame}."]  # fmt: skip
        w.add("cross_modal", q, sign.text, [f"sign:{v.signs.index(sign)}", f"line:{i}"], new=new, new7=new7)
    for j, sign in enumerate(v.signs):
        inside = [k for k, ln in enumerate(v.lines) if sign.start_s <= ln.start_s and w.end(ln) <= sign.end_s]
        if len(inside) == 1:
            ln = v.lines[inside[0]]
            q = w.pick(f"cms/{j}", [f"What does the speaker announce while '{sign.text}' is on screen?",
                                    f"While the text '{sign.text}' is showing, what is being announced?"])  # fmt: skip
            new = [f"The screen said '{sign.text}' at one point. What was the voice talking about then?",
                   f"What's being said over the '{sign.text}' sign?"]  # fmt: skip
            new7 = [f"whats being announced while '{sign.text}' is up",
                    f"The '{sign.text}' text stays up for a while. What do they announce during it?"]  # fmt: skip
            w.add("cross_modal", q, ln.key, [f"sign:{j}", f"line:{inside[0]}"], _line_key_accept(ln), new=new,
                  new7=new7)  # fmt: skip
        first = [k for k, ln in enumerate(v.lines) if ln.start_s - 1.0 <= sign.start_s <= w.end(ln)]
        if len(first) == 1 and sign.start_s > 0:
            ln = v.lines[first[0]]
            q = f"What is being announced at the moment '{sign.text}' first appears?"
            new = [f"Right when '{sign.text}' comes up, what is the speaker saying?",
                   f"As the '{sign.text}' text appears, what's the announcement about?"]  # fmt: skip
            new7 = [f"what's the announcement when '{sign.text}' comes on screen",
                    f"At the moment the '{sign.text}' text shows up, I need to know what's being said."]  # fmt: skip
            w.add("cross_modal", q, ln.key, [f"sign:{j}", f"line:{first[0]}"], _line_key_accept(ln), new=new,
                  new7=new7)  # fmt: skip


# ------------------------------------------------------------------ whole-video counts and people


def _aggregate_speech(w: _Writer) -> None:
    v = w.video
    n = len(v.lines)
    nouns = ("announcements", "things", "separate", "different", "distinct", "messages", "topics", "items")
    for q in ("How many separate announcements does the speaker make in this video?",
              "Over the whole video, how many different things does the voice announce?",
              "Count the spoken announcements: how many are there?"):  # fmt: skip
        new = ["How many announcements are there in total?",
               "How many times does the announcer come on with something new to say?"]  # fmt: skip
        new7 = ["how many announcements in this video", "I need the number of separate announcements made.",
                "Across the whole clip the voice announces a few things - how many separate ones?"]  # fmt: skip
        w.add("aggregate_speech", q, f"{n} announcements", ["lines"], count_accept(n, nouns), new=new, new7=new7)
    per_kind = Counter(ln.kind for ln in v.lines)
    # the nouns an answer counts with: "1 lost item" answers "How many lost items ...?" as "1 item" does
    asks = {"depart": (("departures",), "How many departures are announced?"),
            "lost": (("items", "lost items"), "How many lost items are reported?"),
            "closed": (("places",), "How many places are said to be closed?"),
            "event": (("events",), "How many events does the speaker announce?")}  # fmt: skip
    new_asks = {"depart": ("How many departures do they call out?", "How many departing services are mentioned?"),
                "lost": ("How many things have been reported left behind?", "How many lost items do they mention?"),
                "closed": ("How many places did they say were shut today?",
                           "According to the announcements, how many different places are closed?"),
                "event": ("How many events do they tell us about?",
                          "How many different events are coming up, according to the voice?")}  # fmt: skip
    new7_asks = {"depart": ("how many departures get announced", "I need the number of departures called out."),
                 "lost": ("how many lost things do they report", "I need a count of the items reported left behind."),
                 "closed": ("how many places are shut today", "Tell me how many places they say are closed."),
                 "event": ("how many events are announced", "I need a count of the events they mention.")}  # fmt: skip
    for kind, (counted, q) in asks.items():
        if per_kind[kind] and (v.duration_s >= 150 or per_kind[kind] > 1):
            k = per_kind[kind]
            w.add(
                "aggregate_speech",
                q,
                f"{k} {counted[0]}",
                [f"lines:{kind}"],
                count_accept(k, (*counted, "different", "in total")),
                new=new_asks[kind],
                new7=new7_asks[kind],
            )


def _people(w: _Writer) -> None:
    v = w.video
    if not v.counts:
        return
    wanted = 6 if v.duration_s >= 600 else 3
    step = max(1, len(v.counts) // wanted)
    for n, c in enumerate(v.counts[::step][:wanted]):
        t = round(c.t_s)
        phrase = [f"{t} seconds in", f"at {mmss(t)}", "at the very start" if t == 0 else f"around the {t}-second mark"][
            n % 3
        ]
        q = [f"How many people are in the frame {phrase}?", f"About how many people can be seen {phrase}?",
             f"How many persons are visible {phrase}?"][(n + 1) % 3]  # fmt: skip
        mid = (c.low + c.high) // 2
        if c.high == 0:
            answer, accept = "no people", ["nobody", "no one", "no person", "0 people", "zero people", "no humans"]
        else:
            answer = f"{mid} people"
            accept = [f"{k} {noun}" for k in range(c.low, c.high + 1) for noun in ("people", "persons", "pedestrians")]
            accept += [f"{number_words(k)} {noun}" for k in range(c.low, c.high + 1) for noun in ("people", "persons")]
            if c.high == 1:
                accept += ["one person", "1 person", "a single person", "just one", "only one"]
        new_phrase = [f"at {mmss(t)}", f"about {t} seconds into the video", "right at the start" if t == 0 else
                      f"at the {mmss(t)} mark"][n % 3]  # fmt: skip
        new = [(tmpl.format(new_phrase), {"time_expr": new_phrase}) for tmpl in NEW_PEOPLE]
        ph7 = ["in the opening seconds" if t == 0 else f"{t} secs in", f"around {mmss(t)}",
               "half a minute in" if t == 30 else f"at roughly the {t} second point"][n % 3]  # fmt: skip
        new7 = [(tmpl.format(ph7, Phrase=ph7[0].upper() + ph7[1:]), {"time_expr": ph7}) for tmpl in NEW7_PEOPLE]
        w.add("people_at", q, answer, [f"count:{v.counts.index(c)}"], accept,
              time_expr=phrase, count_range=[c.low, c.high], new=new, new7=new7)  # fmt: skip


# ------------------------------------------------------------------ what the video cannot answer


def _unanswerable(w: _Writer) -> None:
    v = w.video
    said, shown = v.absent_words
    new = [f"Did they say anything about the {said}?",
           f"I think someone mentioned a {said}. What did they say about it?"]  # fmt: skip
    new7 = [f"anything said about the {said}", f"I need whatever they announced about the {said}."]
    w.add(
        "unanswerable", f"What does the announcer say about the {said}?", "not mentioned", [f"absent:{said}"], NOT_SAID,
        new=new, new7=new7,
    )  # fmt: skip
    new = [f"At what point does the {shown} come up?", f"Is the {shown} talked about anywhere? When?"]
    new7 = [f"when do they bring up the {shown}", f"There's a part about the {shown}, right? When is it?"]
    w.add("unanswerable", f"When is the {shown} mentioned?", "not mentioned", [f"absent:{shown}"], NOT_SAID, new=new,
          new7=new7)  # fmt: skip
    for n, (noun, word) in enumerate(STEMS[v.name]):
        qs = [f"What does the speaker say about the {noun}?", f"What is announced about the {noun}?",
              f"At what time does the announcement mention the {noun}?"]  # fmt: skip
        new = [f"Is there any news about the {noun}?", f"What did they tell us about the {noun}?",
               f"When does the {noun} get mentioned?"]  # fmt: skip
        new7 = [f"any news on the {noun}", f"I need what was announced about the {noun}.",
                f"what time do they talk about the {noun}"]  # fmt: skip
        for q in (qs[n % 3], qs[(n + 1) % 3]):
            w.add("unanswerable", q, "not mentioned", [f"stem:{noun}/{word}"], NOT_SAID, new=new, new7=new7)
    q = f"When does the word '{said.upper()}' appear on screen?"
    new = [f"Where does '{said.upper()}' show up in the on-screen text?",
           f"At what time can I see the word '{said.upper()}' written on screen?"]  # fmt: skip
    new7 = [f"when does '{said.upper()}' show up written on screen",
            f"I need the time the word '{said.upper()}' is on screen."]  # fmt: skip
    w.add("unanswerable", q, "never appears", [f"absent:{said}"], NOT_SHOWN, new=new, new7=new7)


#: A detail a line of each kind never gives, asked of the thing it names: a price, a time of day or a
#: day (the answer types `queries.question_words.asked_value` names). The video names the thing, so
#: only the missing value makes the question unanswerable: the hand-written sets' commonest miss.
_UNGIVEN: dict[str, str] = {
    "event": "How much does it cost to go to the {event}?",
    "closed": "What time does the {place} open again?",
    "route": "What is the fare to the {dest}?",
    "lost": "What time was the {item} left in the {spot}?",
    "price": "Which day can I travel to {city}?",
    "code": "Which day does the code for the {thing} change?",
    "meet": "What day is the meeting with {name}?",
    "depart": "What time does the {color} {vehicle} leave?",
    "delay": "What time does the {vehicle} to {city} leave now?",
}


def _ungiven(w: _Writer) -> None:
    """One question per line for a detail the line never gives about what it names (`_UNGIVEN`)."""
    for i, line in enumerate(w.video.lines):
        if line.kind in _UNGIVEN:
            q = _UNGIVEN[line.kind].format(**line.words())
            w.add("unanswerable", q, "not mentioned", [f"line:{i}", "ungiven"], NOT_SAID)


def _archive(w: _Writer) -> None:
    """'Which video ...' questions over the whole archive, for facts only this video holds."""
    v = w.video
    others = [o for o in w.archive if o is not v]
    other_text = " ".join(ln.text.lower() for o in others for ln in o.lines)
    unique = [i for i, ln in enumerate(v.lines)
              if ln.topic not in {o_ln.topic for o in others for o_ln in o.lines}
              and ln.key.lower() not in other_text]  # fmt: skip
    accept = [v.name, v.name.replace("_", " ")]
    qs = ["Which video mentions {}?", "In which of the recordings does someone announce {}?",
          "Which file has the announcement about {}?"]  # fmt: skip
    for n, i in enumerate(unique[:2]):
        topic = v.lines[i].topic
        new = [f"Which of my videos talks about {topic}?",
               f"I remember a clip where someone announced {topic}. Which one was it?"]  # fmt: skip
        new7 = [f"which clip talks about {topic}", f"I need the video where they announce {topic}.",
                f"There's a recording that mentions {topic} - which file is it?"]  # fmt: skip
        for q in (qs[n % 3], qs[(n + 1) % 3]):
            w.add("archive", q.format(topic), v.file, [f"line:{i}", "archive"], accept, scope="archive", new=new,
                  new7=new7)  # fmt: skip
    other_signs = {s.text for o in others for s in o.signs}
    for j, sign in enumerate(v.signs):
        if sign.text not in other_signs:
            q = f"Which video shows the text '{sign.text}' on screen?"
            new = [f"In which recording can I spot a sign reading '{sign.text}'?",
                   f"Which clip has '{sign.text}' written on screen?"]  # fmt: skip
            new7 = [f"which video has a '{sign.text}' sign", f"I need the clip that shows '{sign.text}' on screen."]
            w.add("archive", q, v.file, [f"sign:{j}", "archive"], accept, scope="archive", new=new, new7=new7)
            break


# ------------------------------------------------------------------ the set


def generate(
    spoken_s: SpeechTime,
    videos: Sequence[Video] = HELDOUT_VIDEOS,
    splits: Mapping[str, str] = SPLITS,
    *,
    fresh: bool = False,
    seventh: bool = False,
    ungiven: bool = True,
) -> list[dict[str, Any]]:
    """Every held-out question of `videos` (their archive is those videos), in a fixed order. With
    `fresh`, a third of each type's questions are asked in new phrasings instead (_rephrase), and
    every record says which ("phrasing": "new" | "old"). `ungiven`: with the questions for a detail a
    line never gives (`_ungiven`), which the first set gained after sets 2-7 were asked."""
    out = []
    alternatives: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    for video in videos:
        w = _Writer(video, spoken_s, videos, splits, fresh=fresh or seventh, seventh=seventh)
        _speech_questions(w)
        _sign_questions(w)
        _cross_modal(w)
        _aggregate_speech(w)
        _people(w)
        _unanswerable(w)
        if ungiven:
            _ungiven(w)
        _archive(w)
        out += w.records
        alternatives.update(w.alternatives)
    if seventh:
        _rephrase(out, alternatives, half=True)
    elif fresh:
        _rephrase(out, alternatives)
    return questions.unique_ids(out)


def _rephrase(
    records: list[dict[str, Any]], alternatives: Mapping[str, list[tuple[str, dict[str, Any]]]], *, half: bool = False
) -> None:
    """Ask round(n / 3) of each type's n questions in one of their new phrasings (drawn at random among
    those that have one; the phrasings taken in turn, none asked twice of a video), tag every record.
    With `half` (the seventh set): round(n / 2) of each type's n open questions, drawn with another seed."""
    by_type: dict[str, list[dict[str, Any]]] = {}
    for r in records:
        by_type.setdefault(r["type"], []).append(r)
    asked = Counter((r["video"], r["question"]) for r in records)
    for qtype, recs in by_type.items():
        can = [r["id"] for r in recs if r["id"] in alternatives]
        if half:
            rng = random.Random(f"heldout7/phrasing/{qtype}")
            wanted = round(sum(r["format"] == "open" for r in recs) / 2)
        else:
            rng = random.Random(f"heldout/phrasing/{qtype}")
            wanted = round(len(recs) / 3)
        chosen = set(rng.sample(can, min(len(can), wanted)))
        turn = 0
        for r in recs:
            r["phrasing"] = "old"
            if r["id"] not in chosen:
                continue
            alts = alternatives[r["id"]]
            order = [alts[(turn + k) % len(alts)] for k in range(len(alts))]
            q, changes = next(((q, c) for q, c in order if not asked[(r["video"], q)]), order[0])
            asked[(r["video"], r["question"])] -= 1
            asked[(r["video"], q)] += 1
            r.update(question=q, **changes)
            r["phrasing"] = "new"
            turn += 1


HEAD = (
    "# vidmem held-out question set (bench/qset/heldout.py): python -m bench.qset heldout rebuilds the videos "
    "and this file.\n"
    "# vidmem eval bench/qset/heldout.jsonl --video-root ~/.cache/vidmem/qset --split dev\n"
)


HEAD2 = (
    "# vidmem second held-out question set (bench/qset/heldout.py generate2, videos spec.HELDOUT2_VIDEOS): "
    "python -m bench.qset heldout2 rebuilds the videos and this file.\n"
    "# vidmem eval bench/qset/heldout2.jsonl --video-root ~/.cache/vidmem/qset --split test2   (asked once)\n"
)


def dumps(records: Sequence[dict[str, Any]], head: str = HEAD) -> str:
    return questions.dumps(records, head)


def generate2(spoken_s: SpeechTime) -> list[dict[str, Any]]:
    """The second held-out set: its own videos, archive and split ('test2')."""
    return generate(spoken_s, HELDOUT2_VIDEOS, SPLITS2, ungiven=False)


HEAD3 = (
    "# vidmem third held-out question set (bench/qset/heldout.py generate3, videos spec.HELDOUT3_VIDEOS): "
    "python -m bench.qset heldout3 rebuilds the videos and this file.\n"
    "# vidmem eval bench/qset/heldout3.jsonl --video-root ~/.cache/vidmem/qset --split test3   (asked once)\n"
)


def generate3(spoken_s: SpeechTime) -> list[dict[str, Any]]:
    """The third held-out set: its own videos, archive and split ('test3')."""
    return generate(spoken_s, HELDOUT3_VIDEOS, SPLITS3, ungiven=False)


HEAD4 = (
    "# vidmem fourth held-out question set (bench/qset/heldout.py generate4, videos spec.HELDOUT4_VIDEOS): "
    "python -m bench.qset heldout4 rebuilds the videos and this file.\n"
    "# vidmem eval bench/qset/heldout4.jsonl --video-root ~/.cache/vidmem/qset --split test4   (asked once)\n"
)


def generate4(spoken_s: SpeechTime) -> list[dict[str, Any]]:
    """The fourth held-out set: its own videos, archive and split ('test4')."""
    return generate(spoken_s, HELDOUT4_VIDEOS, SPLITS4, ungiven=False)


HEAD5 = (
    "# vidmem fifth held-out question set (bench/qset/heldout.py generate5, videos spec.HELDOUT5_VIDEOS): "
    "python -m bench.qset heldout5 rebuilds the videos and this file.\n"
    "# vidmem eval bench/qset/heldout5.jsonl --video-root ~/.cache/vidmem/qset --split test5   (asked once)\n"
)


def generate5(spoken_s: SpeechTime) -> list[dict[str, Any]]:
    """The fifth held-out set: its own videos, archive and split ('test5')."""
    return generate(spoken_s, HELDOUT5_VIDEOS, SPLITS5, ungiven=False)


HEAD6 = (
    "# vidmem sixth held-out question set (bench/qset/heldout.py generate6, videos spec.HELDOUT6_VIDEOS): "
    "python -m bench.qset heldout6 rebuilds the videos and this file.\n"
    "# vidmem eval bench/qset/heldout6.jsonl --video-root ~/.cache/vidmem/qset --split test6   (asked once; "
    'each record\'s "phrasing" says whether it is asked in a new phrasing)\n'
)


def generate6(spoken_s: SpeechTime) -> list[dict[str, Any]]:
    """The sixth held-out set: its own videos, archive and split ('test6'), a third of each type asked
    in phrasings no earlier set uses."""
    return generate(spoken_s, HELDOUT6_VIDEOS, SPLITS6, fresh=True, ungiven=False)


def load(path: Path = HELDOUT_PATH) -> list[dict[str, Any]]:
    return questions.load(path)


HEAD7 = (
    "# vidmem seventh held-out question set (bench/qset/heldout.py generate7, videos spec.HELDOUT7_VIDEOS): "
    "python -m bench.qset heldout7 rebuilds the videos and this file.\n"
    "# vidmem eval bench/qset/heldout7.jsonl --video-root ~/.cache/vidmem/qset --split test7   (asked once; "
    'each record\'s "phrasing" says whether it is asked in a new phrasing)\n'
)


def generate7(spoken_s: SpeechTime) -> list[dict[str, Any]]:
    """The seventh held-out set: its own videos, archive and split ('test7'), half of each type's open
    questions asked in phrasings no earlier set (the sixth's included) uses."""
    return generate(spoken_s, HELDOUT7_VIDEOS, SPLITS7, seventh=True, ungiven=False)
