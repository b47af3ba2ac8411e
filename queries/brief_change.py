"""What a changed value was, and what it became: the values a thing is given over the video, in time order.

Asked "the Lindmouth flight's gate was changed: from which gate to which?", the brief marked the line that
states the change ("... from Gate 7, not Gate 3.") and the small model read it backwards; the first
announcement ("... will depart from Gate 3.") was not among the search's six hits at all (trial 10). The
code reads the order instead: of the lines about the thing (the speech turns and on-screen texts that
hold the question's rarest word the video says, and those that share a code such as BC214 with them),
each line that gives the asked noun one value ("Gate 3") dates that value. A line that gives two ("from
gate 7, not gate 3", "every 15 minutes instead of every 10") states the change itself, and its word order
says nothing of which came first, so it dates neither; it is listed last, as when the change was stated.
The item: "gate 3 (said at 3.6 s, shown at 22 s) first, then gate 7 (shown at 104 s, ...); the change
stated, both in one line: said at 109.4 s".

The same lines tell when a slot is never filled for the thing: a video that numbers its gates, none of
whose lines about Marcus Oyelaran gives one, does not say which gate his flight leaves from
(`unnumbered_slot`, an absence the brief states and the agents answer without a call), and when the label
a question gives a thing is one no line gives it ("what time does Wave C set off?" of a video that only names
Wave A and WAVE B: `unheld_label`).
"""

import re
from collections.abc import Collection, Sequence

from memory import Memory
from queries.absent import Absent, naming_words, time_clause_words
from queries.brief_counts import fold_text, said_turns
from queries.brief_items import BriefItem, VideoFacts, numbers_of, recorded_sql, seconds_text
from queries.question_words import (
    CAPITALISED,
    GRAMMAR_WORDS,
    STOPWORDS,
    WH_NOUN,
    asked_value,
    cut_short_in,
    forms_pattern,
    slot_words,
    subject_words,
    yes_no_question,
)
from queries.time_phrases import number_words_to_digits

__all__ = ["unheld_label", "unnumbered_slot", "value_changes"]

#: The SQL an item records (`recorded_sql`): the speech whose turns it reads.
_SPEECH_SQL = "SELECT start_s, end_s, text FROM transcript WHERE video_id = ? ORDER BY start_s"
#: A code that names one thing across speech and signs: a flight, a train, a room ('BC214', 'B12', 'F4').
_CODE = re.compile(r"\b[a-z]{1,3}\s?\d{2,4}\b")
#: A code as a question writes it ('KD7', 'FS41'): a name of the thing asked about.
_NAMED_CODE = re.compile(r"\b[a-z]{1,3}\d{1,4}\b")
#: A value after its noun ("gate 3", "room b12", "platform no. 4") or before it ("15 minutes").
_AFTER = r"\b{noun}s?\s+(?:no\.?\s+|number\s+)?([a-z]?\d+[a-z]?)\b"
_BEFORE = r"(?<![\d:.])\b(\d+)\s+{noun}s?\b"  # not a clock time's minutes ("10:15 BERTH C4")
#: A clock time ('11:40', '12.05'); not a price ('24.50' after a pound sign) nor a part of a longer number.
_CLOCK = re.compile(r"(?<![\d:.£$€])\b((?:[01]?\d|2[0-3])[:.][0-5]\d)\b(?![\d:]|\.\d)")
#: A question that asks a time ("the departure time", "what time").
_TIME = re.compile(r"\btimes?\b", re.I)
#: The most lines listed per value.
_SHOWN = 3


def value_changes(memory: Memory, vid: str, question: str, facts: VideoFacts) -> list[BriefItem]:
    """The item "'gate' in the lines about 'lindmouth', in time order: gate 3 first ..., then gate 7 ..."
    for a question about a change (the caller decides that), or none when the lines about its thing give
    one noun of the question fewer than two values."""
    lines = _lines(memory, vid, facts)
    about = _about(lines, question, facts.categories, naming_words(memory, vid, question))
    if not about:
        return []
    thing, thread = about
    slots = slot_words(question)
    nouns = sorted({w.lower() for w in re.findall(r"[a-z]{3,}", question.lower())} - STOPWORDS,
                   key=lambda w: (w not in slots, w))
    for noun in nouns:
        if re.fullmatch(forms_pattern(thing), noun):  # 'ferry 9.40' of the lines about 'ferry' names it
            continue
        dated, stating = _dated_values(thread, noun)
        if len(dated) >= 2:
            return [_item(vid, noun, thing, dated, stating)]
    if asked_value(question) == "time of day" or _TIME.search(question):
        # "what was the departure time of ferry KD7 before it was delayed?": the clock times of its lines
        dated, stating = _dated_values(thread, None)
        if len(dated) >= 2:
            return [_item(vid, "time", thing, dated, stating)]
    # a sign updated in place, with no noun before its values ("Weather: 9°C, dry" then "Weather: 13°C, sunny"):
    # its versions, in time order. Trial 12's "what temperature did the weather panel show first, and what
    # later?" was answered with the later one alone, the best match
    versions: dict[str, list[Line]] = {}
    for ln in thread:
        if ln[2] == "shown" and numbers_of(ln[3]):
            versions.setdefault(ln[3], []).append(ln)
    if len(versions) >= 2 and len({frozenset(numbers_of(text)) for text in versions}) >= 2:
        return [_item(vid, "", thing, {f'"{text}"': lines for text, lines in versions.items()}, [])]
    return []


Line = tuple[float, float, str, str]  # start, end, 'said' | 'shown', text

def unnumbered_slot(memory: Memory, vid: str, question: str, facts: VideoFacts) -> Absent:
    """`Absent` with the slot `question` asks to fill ("which gate ...") when the video numbers that slot
    ("gate 7" in two lines or more) but none of the lines about the question's thing (`_about`) gives it a
    number; an empty `Absent` otherwise. Trial 10's "which gate does Marcus Oyelaran's flight to Saint Aubrey
    leave from?" (his laptop bag was handed in; no gate is said of him) and trial 9's "which platform does the
    14:48 train to Aldermoor leave from?" (it is cancelled) were answered with the gate and platform of
    other lines. Over every set and trial (dev's 449 video questions, test28, heldout6-27, trials 6-10), this
    fires on those 2 and on none of the 7 answerable questions whose slot the video numbers."""
    lines: list[Line] | None = None
    skip: set[str] | None = None
    for noun in dict.fromkeys(w.lower() for w in WH_NOUN.findall(question)):
        numbered = re.compile(_AFTER.format(noun=re.escape(noun)), re.I)
        lines = _lines(memory, vid, facts) if lines is None else lines
        if sum(bool(numbered.search(number_words_to_digits(ln[3].lower()))) for ln in lines) < 2:
            continue
        # not the thing of a time clause: out15's "what wind speed was the board showing while the chairlift
        # reopening was announced?" was answered that no line about the reopening numbers the wind
        skip = naming_words(memory, vid, question) | time_clause_words(question) if skip is None else skip
        about = _about(lines, question, facts.categories, skip)
        if about is None or re.fullmatch(forms_pattern(about[0]), noun):
            continue
        thing, thread = about
        if not any(numbered.search(number_words_to_digits(ln[3].lower())) for ln in thread):
            return Absent(unstated=noun, held=(thing,))
    return Absent()


#: A label a question gives a thing: a noun not in capitals (a sign's words are quoted text: 'CUPCAKES IN MAIN
#: HALL'), then a capital, a code or a number ("Wave C", "tent K9", "gate 12"); not a quantity ("5 minutes", "3
#: pm", "12.99") nor part of a longer number or code.
_LABELLED = re.compile(
    r"\b([A-Za-z]*[a-z][A-Za-z]*)\s+([A-Z]\d{0,3}|[A-Z]{2}\d{1,3}|\d{1,3}[A-Z]?)\b(?![:.,/-]?\d|'|\s*(?:%|[ap]\.?m\b|o'clock|"
    r"(?:minute|min|second|sec|hour|hr|day|week|month|year|pound|dollar|euro|pence|cent|degree|mile|metre|meter|"
    r"km|kg|percent|people|person|times?)s?\b))"
)
#: What a line gives a thing as its label: the noun (or its plural), then a code (after 'no.', ':' or '#').
#: A letter alone is a label only as a capital ('Wave B'; 'the tent a man ...' gives none).
_LABEL_AFTER = (r"(?:{noun})\s*(?:no\.?\s*|number\s+|[:#-]\s*)?([a-z]{{1,2}}\d{{1,3}}|[a-z]|\d{{1,3}}[a-z]?)"
                r"\b(?![:.,]\d)")


def unheld_label(memory: Memory, vid: str, question: str, facts: VideoFacts) -> Absent:
    """`Absent` with the label `question` gives a thing ("Wave C") when lines of the video give that noun other
    labels (WAVE B) and none gives it this one, nor holds it anywhere beside the noun (a single letter) or at
    all (a longer code, which a sign may show apart from its noun); an empty `Absent` otherwise, and for a
    yes/no question, whose answer the labels the video gives decide ("is the bag drop in tent K9?": no, K7).
    Trial 12's "what time does Wave C set off?" was answered with Wave B's time."""
    if yes_no_question(question):
        return Absent()
    lines: list[Line] | None = None
    for m in _LABELLED.finditer(question):
        noun, label = m.group(1).lower(), m.group(2).lower()
        if noun in STOPWORDS or noun in GRAMMAR_WORDS or label == "i":
            continue
        lines = _lines(memory, vid, facts) if lines is None else lines
        after = re.compile(_LABEL_AFTER.format(noun=forms_pattern(noun)), re.I)
        given: dict[str, str] = {}
        for ln in lines:  # as written first, then with its number words in digits ("gate five")
            for g in (*after.finditer(ln[3]), *after.finditer(number_words_to_digits(ln[3]))):
                if not g.group(1).isalpha() or g.group(1).isupper():
                    given.setdefault(g.group(1).lower(), g.group().strip())
        if not given or label in given:
            continue
        token = re.compile(rf"(?<![\w°]){re.escape(label)}(?!\w)", re.I)
        beside = [ln for ln in lines if re.search(forms_pattern(noun), ln[3], re.I)] if len(label) == 1 else lines
        if any(token.search(number_words_to_digits(ln[3])) for ln in beside):
            continue
        return Absent(label=f"{m.group(1)} {m.group(2)}", labels=tuple(dict.fromkeys(given.values())))
    return Absent()


def _lines(memory: Memory, vid: str, facts: VideoFacts) -> list[Line]:
    """The video's speech turns and its distinct on-screen texts (likely OCR noise left out), in time order."""
    said = [(float(t[0]["start_s"]), float(t[-1]["end_s"]), "said", text) for t, text in said_turns(memory, vid)]
    shown = [(a, b, "shown", t) for t, a, b in facts.texts]
    return sorted(said + shown)


def _about(lines: Sequence[Line], question: str, categories: Sequence[str],
           naming: Collection[str] = ()) -> tuple[str, list[Line]] | None:
    """The question's rarest subject word that some line holds (a name first), and the lines about it: those holding it,
    and those that share a code with them (speech recognition wrote 'Tarnvom' where the sign reads
    TARNHOLM; both say BC388). Not a word that names the video (`naming`): out15's "how did the base
    temperature on the left sign change over the Kesselkopf cable car base video?" was about 'cable', said once.
    A sign's word cut short is the word (`cut_short_in`: BASE TEMP -7 C is about 'temperature')."""
    slots = slot_words(question)
    held: dict[str, list[Line]] = {}
    for w in subject_words(question, categories):
        if w.lower() in slots or w.lower() in naming or re.fullmatch(r"\d+", w):
            continue
        pattern = re.compile(forms_pattern(w.lower()), re.I)
        if found := [ln for ln in lines if pattern.search(ln[3])
                     or (ln[2] == "shown" and cut_short_in(ln[3], w))]:
            held[w.lower()] = found
    if not held:
        return None
    # a name or a code the question gives ('Tarnholm', 'KD7') before a rarer common word ('departing', 'delayed')
    names = {w.lower() for w in CAPITALISED.findall(question)} | set(_NAMED_CODE.findall(question.lower()))
    thing = min(held, key=lambda w: (w not in names, len(held[w]), w))
    thread = held[thing]
    codes = {fold_text(c) for ln in thread for c in _CODE.findall(ln[3].lower())}
    if codes:
        thread = [ln for ln in lines if ln in thread or any(c in fold_text(ln[3]) for c in codes)]
    return thing, thread


def _dated_values(thread: Sequence[Line], noun: str | None) -> tuple[dict[str, list[Line]], list[Line]]:
    """The values `noun` is given by the lines of `thread` that give it one (clock times for None), each with
    those lines, in the order each value first comes; and the lines that give it two or more (that state a
    change)."""
    patterns = [_CLOCK] if noun is None else [re.compile(p.format(noun=re.escape(noun)), re.I)
                                              for p in (_AFTER, _BEFORE)]
    dated: dict[str, tuple[str, list[Line]]] = {}
    stating: list[Line] = []
    for ln in thread:
        text = number_words_to_digits(ln[3].lower())
        # '9.40', '9:40' and '09:40' are one value, shown as first written
        values = {re.sub(r"[.:]", "", v).lstrip("0") or "0": v for p in patterns for v in p.findall(text)}
        if len(values) == 1:
            [(key, shown)] = values.items()
            dated.setdefault(key, (shown, []))[1].append(ln)
        elif values:
            stating.append(ln)
    return {shown: lines for shown, lines in dated.values()}, stating


def _item(vid: str, noun: str, thing: str, dated: dict[str, list[Line]], stating: list[Line]) -> BriefItem:
    def where(lines: list[Line]) -> str:
        return ", ".join(f"{kind} at {seconds_text(a)}" for a, _, kind, _ in lines[:_SHOWN])

    steps = [f"{noun} {value} ({where(lines)})".lstrip() for value, lines in dated.items()]
    what = f"'{noun}' in the lines about '{thing}'" if noun else f"the on-screen texts about '{thing}'"
    text = (f"{what}, in time order: {steps[0]} first, then " + ", then ".join(steps[1:])
            + (f"; the change stated, both in one line: {where(stating)}" if stating else ""))
    rows = tuple({"value": value, "first_s": lines[0][0], "source": lines[0][2]} for value, lines in dated.items())
    return BriefItem("count", vid, None, None, text, 1.0, recorded_sql(_SPEECH_SQL, vid), rows)
