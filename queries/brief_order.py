"""Order and time relations of the evidence brief: what is said or shown right after, before, while,
at the moment of or in place of something the question names.

"What is said right after the bus is announced?", "what did the sign say while they talked about the
lunch?", "what heading replaces CAKE SALE at the top?": the thing named (the anchor) is found by search,
and the rows next to it in time are found by SQL, so that a small model reads the answer instead of
comparing times (it answered with the sign of the next minute). Each relation's SQL is recorded on its
items, like every other part of the brief (`queries.brief_items`).
"""

import re
from collections.abc import Sequence
from itertools import zip_longest
from pathlib import Path
from typing import Any

from memory import Memory
from queries.brief_items import (
    GOES_ON_S,
    TURN_PAUSE_S,
    BriefItem,
    clip_text,
    ends_sentence,
    goes_on,
    hit_item,
    numbers_of,
    recorded_sql,
)
from queries.errors import QueryError
from queries.question_words import (
    ASKS_BEFORE_CHANGE,
    FRAME_WORDS,
    GRAMMAR_WORDS,
    NAMES_CHANGE,
    QUOTED,
    content_words,
    stems,
    subject_words,
    without_file_name,
)
from queries.run import run_sql
from queries.screen_places import asked_line, asked_place, line_fits, place_fits, video_span_places
from queries.search import SOURCE_LABELS, Encoder, TextHit, fuse_ranks, keyword_search, search_texts
from queries.signs import folded
from queries.text_kinds import named_sources, wanted_sources
from queries.time_phrases import number_words_to_digits, time_windows
from queries.videos import video_paths

__all__ = ["AT_START_S", "OTHER_NEAR_S", "named_order", "order_items", "which_first_rival"]

#: "right after the red train", "just before meeting Anna", "before 'SOLD OUT' appeared": an order
#: relation to something said or shown, found by search (times and events are time_phrases' job).
#: 'ahead of' and 'prior to' say before, 'following' and 'once' after (_ORDER_WORD).
_ANCHOR = re.compile(
    r"\b(?:right |just |immediately |directly )?(after|following|before|ahead of|prior to|"
    r"once(?=\s+(?:(?:the|a|an)\b|['\"]|(?-i:[A-Z0-9]{2}))))\s+"
    r"(?:the\s+|a\s+|an\s+)?(.+?)"
    r"(?:\s+(?:is|was|gets|got|has been)?\s*(?:mentioned|said|spoken|announced|shown|displayed|appears?|appeared|"
    r"is over|goes away|went away|is gone|disappears?|disappeared|ends|ended))?"
    r"\s*(?:[?.!,;]|$)",
    re.I,
)
#: "before nine", "after ten tonight", "just after two minutes in": a time of day or of the video, whose number
#: may be said in words, is no line to find the next one of. test23's "why take kids to the carousel before
#: nine?" marked the sign shown before the line saying 9. Of every set's questions 4 anchors are newly such times
#: ('nine', 'ten', 'nine tonight', 'two minutes in'), "the one about the zip line" stays an anchor, and of
#: the 107 anchored video questions of dev and test9-23 only that one's order items change.
_TIME_ANCHOR = re.compile(
    r"\s*\d{1,2}(?::\d\d)?\s*(?:o'?\s?clock|[ap]\.?m\.?|(?:minutes?|seconds?)(?:\s+in)?|tonight|today)?\s*", re.I
)
#: "how long after the doors open does the show start?" asks the time between two things, which the line
#: that says both gives ("... and the show begins half an hour later"): no line after the first is asked.
_HOW_LONG_BEFORE = re.compile(r"\bhow\s+(?:long|soon|much\s+(?:later|earlier|time)|many\s+(?:minutes|hours))\s*$", re.I)
#: A text written in capitals ('after SOLD OUT'): a sign's words, whatever they are.
_CAPS = re.compile(r"\b[A-Z0-9]{2,}(?:\s+[A-Z0-9]{2,})*\b")
#: 'once X goes away' says after X (not 'once' alone: "is it said once?").
_ORDER_WORD = {"following": "after", "ahead of": "before", "prior to": "before", "once": "after"}
#: "What did the sign say while they talked about the bus?", "what is said when 'EXIT' is shown?",
#: "While 'EXIT' is showing, what is said?": a relation in time to something said or shown, found by
#: search ("When ..." opening a question asks for a time: no relation).
_DURING = re.compile(
    r"(?:^\s*(while|during)|(?<=[\w)'\"])[\s,]+(while|during|when))\s+(?:the\s+|a\s+|an\s+)?(.+?)\s*(?:[?.!,;]|$)",
    re.I,
)
#: "When the CHURCH TO RIVER caption first comes up, what is the voice saying?", "when they mention gloria
#: what text is up on the screen": a question that opens with 'when' and then asks what, which or who relates
#: the two in time; "When does 'EXIT' first appear?" asks a time, and so does "when does the announcer remind people
#: about what's in the flapjacks" (out17 dev: its 'what' opened no second clause).
_WHEN_THEN_ASKS = re.compile(
    r"^\s*when\s+(?!(?:does|do|did|is|are|was|were|will|would|can|could|should|has|have|had)\b)"
    r"(?P<clause>.+?)(?:\s*[,;:-]\s*|\s+)(?=(?:what|whats|what's|which|who|whose|who's)\b)", re.I)
#: "What is said at the moment 'EXIT' first appears?", "as soon as the bus is announced, what does the
#: sign read?": what is on at the instant a text appears or a line starts, not all that overlaps it.
_AT_START = re.compile(
    r"\b(?:at\s+the\s+(?:very\s+)?(?:moment|instant|time)|the\s+moment|as\s+soon\s+as|just\s+as|when)\s+"
    r"(?:the\s+|a\s+|an\s+)?(.+?)\s+(?:is\s+|was\s+|gets\s+|got\s+)?(?:first\s+)?"
    r"(?:appears?|appeared|shows?\s+up|showed\s+up|comes?\s+up|came\s+up|pops?\s+up|popped\s+up|shown|displayed|"
    r"said|mentioned|announced|begins?|began|starts?|started)\b",
    re.I,
)
#: "What was being announced at the moment the top banner switched to the red Quillan Bay cancellation?" (out16),
#: "what was said when the board changed to 'GATE 6'": the instant the text after the verb came up (`at`), at the
#: place the words before it name.
_SWITCHED_TO = re.compile(
    r"\b(?:at\s+the\s+(?:very\s+)?(?:moment|instant|time)|the\s+moment|as\s+soon\s+as|just\s+as|when)\s+"
    r"(?P<place>(?:the\s+|a\s+|an\s+)?[\w' -]{0,60}?)\s+(?:switch(?:es|ed)?|chang(?:es|ed)|turn(?:s|ed)|flip(?:s|ped)"
    r"|updat(?:es|ed))\s+(?:over\s+)?(?:to|into)\s+(?P<x>[^?.!,;]+)",
    re.I,
)
#: What asks for the state before a change: "what had it said before?", "what was it previously?".
_ASKS_EARLIER = re.compile(r"\b(?:before|previously|earlier|beforehand)\b", re.I)
#: "What does the sign 'PLATFORM 7' change to?": the text shown next.
_CHANGES_TO = re.compile(
    r"['\"]([^'\"]+)['\"]\s+(?:change|changes|changed|turn|turns|switch|switches)\s+(?:to|into)\b", re.I
)
#: "What heading replaces CAKE SALE at the top?", "what replaced '17:40 VANNICK'", "which sign takes the place of
#: 'NO ENTRY'?", "the banner changes away from the red customs message. what does it change to?" (out16): the text
#: that comes up next where X was (same place on the frame, same line).
_REPLACES = re.compile(
    r"\b(?:replaces?|replaced(?!\s+by\b)|replacing|takes?\s+(?:the\s+)?place\s+of|takes?\s+over\s+from|comes?\s+(?:up\s+)?instead\s+of|"
    r"(?:chang|switch|mov)(?:e|es|ed|ing)?\s+away\s+from)"
    r"\s+(?:the\s+)?"
    r"(?:(?:sign|text|heading|headline|caption|banner|title|overlay)\s+)?(['\"]?)(.+?)\1"
    r"(?=\s+(?:at|on|in|near|when|while|after|before|of)\b|\s*[?.!,;:]|\s*$)",
    re.I,
)
#: "What text takes over the top after ICE CREAM VAN?": the text after X is the one in its place, not
#: a line that comes up under X while it is still on (`_in_its_place`).
_TAKES_OVER = re.compile(r"\b(?:takes?|took|taking)\s+over\b", re.I)


#: "Which comes first: the donkey rides notice or the hay ride notice?", "which was announced earlier, the
#: bus or the train?": two things the question names, of which the first (or last) in time is asked for.
_WHICH_FIRST = re.compile(
    r"(?:^|[,;:]\s*)(?:which|what)\b[^,:;?]*?\b(first|earlier|sooner|last|later)\b(?:[^,:;?]{0,40}?[,:])?\s*"
    r"(?:the\s+)?([^,:;?]+?),?\s+or\s+(?:the\s+)?([^,:;?]+?)\s*[?.!]*\s*$",
    re.I,
)
#: "Was Mr Okafor paged before or after Captain Hale's message?", "did the cafe close earlier or later than the
#: gate change?": the order of the first thing named to the second. Trial 8's was read as the line before
#: "or after Captain Hale's message" (_ANCHOR), and the brief marked the speech before the welcome.
_BEFORE_OR_AFTER = re.compile(
    r"(?:^|[,;:]\s*)(?:(?:was|were|is|are|did|does|do|has|have|had|will)\s+)?(?:the\s+|a\s+|an\s+)?(?P<x>[^,;:?]+?)\s+"
    r"(?:(?:come|comes|came|happen|happens|happened|said|shown|announced|mentioned|appear|appears|appeared)\s+)?"
    r"(?:before\s+or\s+after|after\s+or\s+before|earlier\s+or\s+later|later\s+or\s+earlier)(?:\s+than)?\s+"
    r"(?:the\s+|a\s+|an\s+)?(?P<y>[^,;:?]+?)\s*[?.!]*\s*$",
    re.I,
)
_NTH_WORD = {"first": "first", "earlier": "first", "sooner": "first", "last": "last", "later": "last"}
#: Speech and on-screen text of the other kind than the anchor's that overlap its span (end, start) for
#: at least half of the shorter of the two (its duration last): a line that ends a fraction of a second
#: after a sign appears was not said while it was shown (OCR spans start at a sampled frame).
_DURING_SQL = (
    "SELECT * FROM text_items WHERE video_id = ? AND source IN ('transcript', 'ocr_spans') AND source <> ? "
    "AND least(end_s, ?) - greatest(start_s, ?) >= 0.5 * least(end_s - start_s, ?) ORDER BY start_s"
)
#: The row of the other kind that overlaps the anchor's span (end, start) longest, when none does for half
#: the time (`_DURING_SQL`).
_PARTLY_SQL = (
    "SELECT * FROM text_items WHERE video_id = ? AND source IN ('transcript', 'ocr_spans') AND source <> ? "
    "AND least(end_s, ?) - greatest(start_s, ?) > 0 ORDER BY least(end_s, ?) - greatest(start_s, ?) DESC, "
    "start_s LIMIT 1"
)
_KINDS = frozenset({"transcript", "ocr_spans"})
#: "Right after X is announced, what does the sign say?": the other kind's rows on screen (or said) in
#: this many seconds after X ends (before X starts, for "right before").
OTHER_NEAR_S = 2.0
#: "At the moment 'EXIT' appears": the other kind's rows on within this many seconds of X's start (OCR
#: spans start at a sampled frame, so a sign's start is known to about a second).
AT_START_S = 1.0
_OTHER_NEAR_SQL = (
    "SELECT * FROM text_items WHERE video_id = ? AND source IN ('transcript', 'ocr_spans') AND source <> ? "
    "AND start_s < ? AND end_s > ? ORDER BY start_s"
)
_LATER_SQL = "SELECT * FROM text_items WHERE video_id = ? AND source = ? AND start_s > ? ORDER BY start_s LIMIT 12"
_EARLIER_SQL = (
    "SELECT * FROM text_items WHERE video_id = ? AND source = ? AND start_s < ? ORDER BY start_s DESC LIMIT 12"
)
_NEIGHBOUR_SQL = {
    "after": "SELECT * FROM text_items WHERE video_id = ? AND source = ? AND start_s > ? ORDER BY start_s LIMIT 1",
    "before": (
        "SELECT * FROM text_items WHERE video_id = ? AND source = ? AND start_s < ? ORDER BY start_s DESC LIMIT 1"
    ),
}


def order_items(
    memory: Memory, vid: str, question: str, encoder: Encoder | None, duration_s: float | None = None
) -> list[BriefItem]:
    """For "what is said right after X" / "what was shown before 'Y'": X found by search, and the
    speech segment or text span next to it (score 1.0) after X itself (0.95). For "what did the sign
    say while X was said": X, and the text of the other kind shown or said during it, which the code
    compares by time so that the model need not (it answered with the sign of the next minute). The
    video's file name is no part of the relation ("...before the pie vote in plaza notices" is no notice)."""
    path = video_paths(memory, [vid]).get(vid)
    question = without_file_name(question, Path(path).name) if path else question
    relations: list[tuple[str, str, list[str]]] = []  # (relation, what to find, where to find it)
    wanted = sorted(wanted_sources(question) - {"captions"}) or ["transcript", "ocr_spans"]
    changed = _CHANGES_TO.search(question)
    if changed:
        relations.append(("replaced", changed.group(1), wanted))
    for m in _REPLACES.finditer(question):
        if content_words(m.group(2)):
            relations.append(("replaced", m.group(2), wanted))
    for m in _ANCHOR.finditer(question):
        if _BEFORE_OR_AFTER.search(question):
            break  # the order of two things named, not the line next to one (`_before_or_after`)
        phrase = _quoted_or(m.group(2))
        if _HOW_LONG_BEFORE.search(question, 0, m.start()):
            continue
        # a phrase of frame words only names no line: "how often did the buses run before the change?" (trial 9)
        # asks the first state, not the line before one that says 'change'; nor does a change said of the
        # thing asked about ("which gate was it departing from, before it was changed to gate 9?", trial 10)
        if ASKS_BEFORE_CHANGE.match(m.group(0)):
            continue
        if content_words(phrase) and not _names_a_time(phrase, duration_s) \
                and (subject_words(phrase) or QUOTED.search(m.group(2)) or _CAPS.search(m.group(2))):
            relation, kinds = _ORDER_WORD.get(m.group(1).lower(), m.group(1).lower()), wanted
            # "Right after X is announced, what does the sign say?": X is speech, the answer is text
            # shown then (the other kind the rest of the question names), not X's next line.
            # "What comes next after the announcement about X?" names no kind besides X's: X's next line.
            # of the rest, the kinds it names as such: the plain 'say' of "what did the caption at the bottom say
            # before the transport delay caption?" is the caption's (out18: answered with that caption itself)
            named = named_sources(m.group(0))
            asked = named_sources(question[: m.start()] + " " + question[m.end() :], plain_say=False)
            if len(named) == 1 and (_KINDS - named) <= asked:
                relation, kinds = f"{relation}:other", sorted(named)
            elif relation == "after" and _TAKES_OVER.search(question):
                relation = "replaced"
            elif relation == "before" and _TAKES_OVER.search(question):
                # "which text was at the top just before CAROUSEL took over?": the one it took the place of,
                # not the second line that came up later under that one (test23)
                relation = "displaced"
            relations.append((relation, phrase, kinds))
    opening = _WHEN_THEN_ASKS.match(question)
    starts = [  # "When does 'EXIT' first appear?" asks for a time: no relation (as for _DURING)
        m for m in _AT_START.finditer(question)
        if content_words(m.group(1))
        and not (m.group(0).lower().startswith("when") and not question[: m.start()].strip()
                 and not (opening and m.end(1) <= opening.end("clause")))
    ]
    for m in starts:
        relations.append(("at", _quoted_or(m.group(1)), _anchor_kinds(question, m.start(), m.end())))
    at_place: dict[str, str] = {}  # of an anchor a place names ("the top banner switched to X"), that place
    switched = [m for m in _SWITCHED_TO.finditer(question)
                if content_words(m.group("x")) and not any(s.start() <= m.start("x") < s.end() for s in starts)]
    for m in switched:
        # "when the board switched to LEMON DRIZZLE, what had it said before?" (out17 dev): the text it took the
        # place of; else what was on (said) at the instant it came up
        rest = question[: m.start()] + " " + question[m.end():]
        relations.append(("displaced" if _ASKS_EARLIER.search(rest) else "at", _quoted_or(m.group("x")),
                          ["ocr_spans"]))
        if (where := asked_place(m.group("place"))) is not None:
            at_place[_quoted_or(m.group("x"))] = where
    starts += switched  # a clause of its own no more
    for m in _DURING.finditer(question):
        clause = m.group(3)  # the anchor is of the kind its clause names ("talked about", "on screen")
        if any(s.start() <= m.start(2 if m.group(2) else 1) < s.end() for s in starts):
            continue  # "when X first appears" asks for its first instant, found above
        if content_words(clause) and not _only_a_stretch(clause, duration_s):
            kinds = sorted(named_sources(clause) or _KINDS)
            relations.append(("while", _quoted_or(clause), kinds))
    if opening and not any(s.start() < opening.end("clause") for s in starts) \
            and content_words(clause := opening.group("clause")):
        relations.append(("while", _quoted_or(clause), _anchor_kinds(question, opening.start(), opening.end())))
    out: list[BriefItem] = []
    for relation, phrase, sources in relations[:2]:
        # the words that say which video are no part of the thing: out20's "which announcement came just before the
        # baby gecko news in the reptile house video?" found "Welcome to the Reptile House" (reptilehouse_tuesday.mp4)
        phrase = _without_video(phrase)
        anchor = _anchor_hit(memory, vid, phrase, sources, encoder, at_place.get(phrase))
        kind = None  # the neighbour's kind: the anchor's own
        if (anchor is None or not _shares_words(anchor.text, phrase)) and set(sources) != _KINDS \
                and ":" not in relation and relation in _NEIGHBOUR_SQL:
            # "what does the voice say right before the book fair line?" with the line heard as "bookfare":
            # the sign BOOK FAIR says when it was, and the line asked is the speech just before then. So too when
            # the line found shares no word with the phrase (close in meaning only): out20's "which announcement came
            # just before the baby gecko news?" (heard as "Melon remaving echo ...") found "Welcome to the Reptile
            # House", and the sign NEW: 3 BABY GECKOS was on as the news was read
            other = _anchor_hit(memory, vid, phrase, sorted(_KINDS), encoder)
            if other is not None and (anchor is None or _shares_words(other.text, phrase)):
                anchor, kind = other, sources[0]
        if anchor is None or _says_relation(anchor.text, relation, phrase):
            continue
        showings = _showings(memory, anchor) if relation in ("while", "at") else [anchor]
        related = [_related_items(memory, vid, question, relation, phrase, shown, kind,
                                  _showing_note(n, shown) if len(showings) > 1 else "")
                   for n, shown in enumerate(showings, 1)]
        # round robin: each showing's first lines before any's later ones, so that the budget cuts none whole
        out += [i for group in zip_longest(*related) for i in group if i is not None]
    if not relations:
        out += _which_first(memory, vid, question, encoder) or _before_or_after(memory, vid, question, encoder)
    return out


def _related_items(memory: Memory, vid: str, question: str, relation: str, phrase: str, anchor: TextHit,
                   kind: str | None, showing: str = "") -> list[BriefItem]:
    """`anchor`'s line and the lines `relation` finds next to it (of kind `kind`, else of the anchor's own);
    `showing` says which showing of an on-screen text it is (`_showings`)."""
    out = [hit_item("order", anchor, 0.95)]
    sql, args = _related_sql(relation, anchor, kind)
    turn = relation in _NEIGHBOUR_SQL and kind is None and anchor.source == "transcript" \
        and bool(_NAMES_ANNOUNCEMENT.search(question))
    if relation in _NEIGHBOUR_SQL and kind is None and anchor.source == "transcript":
        # past the rest of its sentence, or of its announcement when the question asks for one
        args[-1] = _sentence_edge(memory, anchor, relation, turn=turn)
    word = {"replaced": "in place of", "displaced": "replaced by"}.get(relation, relation.partition(":")[0])
    rows = run_sql(memory, sql, args).to_pylist()
    if relation in ("replaced", "displaced"):
        rows = _in_its_place(memory, anchor, rows, before=relation == "displaced")
    elif relation in _NEIGHBOUR_SQL and kind is None and anchor.source == "ocr_spans" \
            and (placed := _at_asked_place(memory, anchor, relation, question.replace(phrase, " "))):
        sql, args, rows = placed
    if relation == "while" and not rows:
        # nothing of the other kind overlaps X for half its time: the one that overlaps it most, said
        # partly while X was on ("said while the MAZE line was on screen": the leash line ended
        # 0.6 s into MAZE's 18 s, and nothing else was said then)
        sql, args = _PARTLY_SQL, [anchor.video_id, anchor.source, *[anchor.end_s, anchor.start_s] * 2]
        rows, word = run_sql(memory, sql, args).to_pylist(), "partly while"
    worded = [(r, word, sql, args) for r in rows]
    if relation == "while" and showing:
        # of a text shown more than once, the speech going on as each showing came up, which a "while" join leaves
        # out for overlapping it less than half its time: out17's "what was being announced when the queue board
        # went back to 'short'?" asks for the announcement 8 s old when SHORT came back, 5 s of it under SHORT
        at_sql, at_args = _related_sql("at", anchor)
        joined = {r["item_id"] for r in rows}
        worded = [(r, "on when it showed", at_sql, at_args) for r in run_sql(memory, at_sql, at_args).to_pylist()
                  if r["item_id"] not in joined][:1] + worded
    for r, word, sql, args in worded:
        # a speech row reads on into the row that goes on with its sentence: trial 12's "what was announced
        # right after the news about the first finisher?" showed "Please note a change. The awards ceremony"
        if turn and r["source"] == "transcript":
            # the whole announcement next to it: trial 13's "what was the announcement just before the one
            # saying car park B was almost full?" showed the minibus announcement's last row alone, "The
            # journey takes about 8 minutes.", and was answered with it
            said = _whole_turn(memory, vid, r, relation)
        elif r["source"] == "transcript":
            said = goes_on(memory, vid, str(r["text"]), r["end_s"])
        else:
            said = r["text"]
        out.append(BriefItem(
            "order", vid, r["start_s"], r["end_s"],
            _related_label(SOURCE_LABELS[r["source"]], word, phrase, said, showing), 1.0,
            recorded_sql(sql, *args), (r,), r["source"], int(r["item_id"]), anchor=anchor.text,
        ))
    return out


def _names_a_time(phrase: str, duration_s: float | None = None) -> bool:
    """Whether the phrase after 'before'/'after' is a time, not a line: one that starts with a time of the video
    ('20 seconds', '1:05'), that is a whole hour or time of the video with its number in digits or words
    ('nine', 'ten tonight', 'two minutes in', `_TIME_ANCHOR`), or a stretch of the video (`_only_a_stretch`)."""
    return bool(re.match(r"\s*[\d:.]+\s*(?:s|sec|seconds?|minutes?)?\b", phrase)
                or _TIME_ANCHOR.fullmatch(number_words_to_digits(phrase))
                or _only_a_stretch(phrase, duration_s))


def _only_a_stretch(phrase: str, duration_s: float | None) -> bool:
    """Whether `phrase` is nothing but a stretch of the video that the time rules read ('the final few
    seconds', 'the opening minute'). Trial 6's "what's the banner at the top during the final few seconds?"
    was answered with the sign shown while a line saying 'final' was said (and test27's "what's written
    on screen during the final few seconds" marked a line); "while 4 DOLLARS 3 THROWS is on screen" is
    a text."""
    digits = number_words_to_digits(phrase)
    windows = time_windows(digits, duration_s)
    for w in windows:
        digits = digits.replace(w.phrase.lower(), " ")
    return bool(windows) and not content_words(digits)


def _which_first(memory: Memory, vid: str, question: str, encoder: Encoder | None) -> list[BriefItem]:
    """For "which comes first: the donkey rides notice or the hay ride notice?": both found by search,
    and the one said or shown first (or last, as asked) as the line the code compared by time, the
    other beside it. Nothing when either is not found or both are one line."""
    m = _WHICH_FIRST.search(question)
    if m is None:
        return []
    which, found = _NTH_WORD[m.group(1).lower()], []
    for phrase in (m.group(2), m.group(3)):
        phrase = _quoted_or(phrase)
        hit = _anchor_hit(memory, vid, phrase, sorted(named_sources(phrase) or _KINDS), encoder) \
            if content_words(phrase) else None
        if hit is None:
            return []
        found.append((phrase, hit))
    if (found[0][1].source, found[0][1].item_id) == (found[1][1].source, found[1][1].item_id):
        return []
    found.sort(key=lambda f: f[1].start_s, reverse=which == "last")
    (phrase, hit), (other_phrase, other) = found
    return [
        hit_item("order", hit, 1.0, f'{which} of "{clip_text(phrase, 30)}" and "{clip_text(other_phrase, 30)}"',
                 compared=which),
        hit_item("order", other, 0.95, f'not {which}: "{clip_text(other_phrase, 30)}"', compared=f"not {which}"),
    ]


def _before_or_after(memory: Memory, vid: str, question: str, encoder: Encoder | None) -> list[BriefItem]:
    """For "was X said before or after Y?": both found by search, X's line labelled with the order the code
    read from their start times, Y's beside it. Nothing when either is not found, Y is a time of the video
    (the time rules read it), or both are one line."""
    m = _BEFORE_OR_AFTER.search(question)
    if m is None or _names_a_time(m.group("y")):
        return []
    x, y = _quoted_or(m.group("x")), _quoted_or(m.group("y"))
    hits = []
    for phrase in (x, y):
        hit = _anchor_hit(memory, vid, phrase, sorted(named_sources(phrase) or _KINDS), encoder) \
            if content_words(phrase) else None
        if hit is None:
            return []
        hits.append(hit)
    hx, hy = hits
    if (hx.source, hx.item_id) == (hy.source, hy.item_id) or hx.start_s == hy.start_s:
        return []
    order = "before" if hx.start_s < hy.start_s else "after"
    return [
        hit_item("order", hx, 1.0, f'"{clip_text(x, 30)}", {order} "{clip_text(y, 30)}"', compared=order),
        hit_item("order", hy, 0.95, f'"{clip_text(y, 30)}"'),
    ]


def named_order(top: BriefItem) -> str | None:
    """'before' or 'after': what `_before_or_after` found of the first thing a question names, when `top` is
    its line; else None."""
    return top.compared if top.kind == "order" and top.compared in ("before", "after") else None


def which_first_rival(items: Sequence[BriefItem], top: BriefItem) -> BriefItem | None:
    """Of the two lines `_which_first` compared, the one not asked for, when `top` is the other; else None."""
    if top.kind != "order" or top.compared not in ("first", "last"):
        return None
    return next((i for i in items if i is not top and i.kind == "order" and i.compared == f"not {top.compared}"),
                None)


def _in_its_place(
    memory: Memory, anchor: TextHit, rows: list[dict[str, Any]], before: bool = False
) -> list[dict[str, Any]]:
    """Of the texts after `anchor` (in time order), the first at its place and line on the frame (what
    replaces CAKE SALE at the top is not the line that comes up under it); the first of all when none
    is, or when the anchor is speech. A text alone at its place is its first line (`line_fits`): SOUTH
    CAR PARK alone at the top took the place of ORCHARD, the first of two top lines, not the second
    line LEASHES ON that came up under ORCHARD. With `before`, of the texts before it (latest first), the
    one it took the place of, gone from its place and line by the time it came up."""
    if anchor.source != "ocr_spans" or not rows:
        return rows[:1]
    places = video_span_places(memory, anchor.video_id)
    where = places.get(anchor.item_id)
    if where is None:
        return rows[:1]
    same = [r for r in rows if r["source"] == "ocr_spans" and _same_place(places.get(int(r["item_id"])), where)
            and (r["end_s"] <= anchor.start_s + AT_START_S if before else r["start_s"] >= anchor.end_s - AT_START_S)]
    return same[:1] or rows[:1]


def _at_asked_place(
    memory: Memory, anchor: TextHit, relation: str, rest: str
) -> tuple[str, list[Any], list[dict[str, Any]]] | None:
    """For "which top text comes right before CUPCAKES 5 DOLLARS A BOX?": of the texts before (or after) the
    anchor, the nearest at the place and line the rest of the question names (its first line when it names
    none), with its query; None when the rest names no place or no text is there. test27's was answered
    with TEA HUT, a bottom caption that came up after the top text asked."""
    want = asked_place(rest)
    if want is None:
        return None
    sql = _EARLIER_SQL if relation == "before" else _LATER_SQL
    args: list[Any] = [anchor.video_id, anchor.source, anchor.start_s]
    places = video_span_places(memory, anchor.video_id)
    own = places.get(anchor.item_id)
    # no line asked, and the anchor at the asked place: the text on its own line (what the side board showed
    # before it changed to BAY 1 BAKERS is the line BAKERS took the place of, GROCERS, not the heading BAY 1, out19)
    line = asked_line(rest) or (own[1] if own is not None and place_fits(want, own[0]) and own[1] else 1)
    rows = [r for r in run_sql(memory, sql, args).to_pylist()
            if _same_place(places.get(int(r["item_id"])), (want, line))]
    if own is not None and place_fits(want, own[0]):
        # the asked place holds the anchor: its own place's next text, not one inside the asked place ("what did
        # the top banner change to after 'SAILING 19:00'?" was answered with the top right's sign, out16)
        rows = [r for r in rows if places[int(r["item_id"])][0] == own[0]] or rows
    return (sql, args, rows[:1]) if rows else None


def _same_place(place: tuple[str, int | None] | None, where: tuple[str, int | None]) -> bool:
    return place is not None and place_fits(where[0], place[0]) and line_fits(where[1] or 1, place[1])


def _related_sql(relation: str, anchor: TextHit, kind: str | None = None) -> tuple[str, list[Any]]:
    """The query for what `relation` ('while', 'at', 'after', 'before', 'after:other', 'before:other',
    'replaced') finds next to `anchor`, and its arguments; a neighbour of kind `kind`, else of the
    anchor's own."""
    vid, src = anchor.video_id, anchor.source
    if relation == "while":  # what overlaps it in time, of the other kind
        return _DURING_SQL, [vid, src, anchor.end_s, anchor.start_s, anchor.end_s - anchor.start_s]
    if relation == "at":  # of the other kind, on at the instant it starts (a sampled frame's second)
        return _OTHER_NEAR_SQL, [vid, src, anchor.start_s + AT_START_S, anchor.start_s - AT_START_S]
    if relation == "after:other":  # of the other kind, on in the seconds after it ends
        return _OTHER_NEAR_SQL, [vid, src, anchor.end_s + OTHER_NEAR_S, anchor.end_s]
    if relation == "before:other":  # of the other kind, on in the seconds before it starts
        return _OTHER_NEAR_SQL, [vid, src, anchor.start_s, anchor.start_s - OTHER_NEAR_S]
    if relation == "replaced":  # the texts after it, for `_in_its_place`
        return _LATER_SQL, [vid, src, anchor.start_s]
    if relation == "displaced":  # the texts before it, for `_in_its_place`
        return _EARLIER_SQL, [vid, src, anchor.start_s]
    return _NEIGHBOUR_SQL[relation], [vid, kind or src, anchor.start_s]  # its neighbour of its own kind


#: The speech row next to one, after it or before it, for `_sentence_edge`.
_SAID_NEXT_SQL = {
    "after": "SELECT start_s, end_s, text FROM transcript WHERE video_id = ? AND start_s > ? ORDER BY start_s LIMIT 1",
    "before": (
        "SELECT start_s, end_s, text FROM transcript WHERE video_id = ? AND start_s < ? ORDER BY start_s DESC LIMIT 1"
    ),
}


#: A question that counts speech in announcements ("what was announced right after ...", "the next announcement").
_NAMES_ANNOUNCEMENT = re.compile(r"\bannounc(?:e|ed|es|ing|ements?)\b", re.I)


def _sentence_edge(memory: Memory, anchor: TextHit, relation: str, *, turn: bool = False) -> float:
    """The start time of the last ('after') or first ('before') speech row of the sentence `anchor` (a speech row)
    is part of: the row after one that stops mid-sentence ('... has been cancelled, because of') is the same
    announcement (`ends_sentence`, `GOES_ON_S`). Trial 9's "what was the next announcement right after the one
    about the cancelled Hollins Bay train?" was answered with that announcement's second row. With `turn`, of its
    turn: rows with pauses under `TURN_PAUSE_S` between them (trial 10's "what was announced right after the
    security reminder about liquids?" was answered with the reminder's last sentence, 0.5 s after the one
    before; the announcements were 8-11 s apart)."""
    # a sentence of more than 9 rows is none Whisper writes
    first = (anchor.start_s, anchor.end_s, anchor.text)
    return float(_said_on(memory, anchor.video_id, first, relation, turn=turn, most=9)[-1][0])


def _whole_turn(memory: Memory, vid: str, row: dict[str, Any], relation: str, most: int = 4) -> str:
    """The text of the speech turn `row` is in, read from `row` away from the anchor ('before': back to the turn's
    first row; 'after': on to its last), at most `most` rows."""
    first = (float(row["start_s"]), float(row["end_s"]), str(row["text"]))
    rows = _said_on(memory, vid, first, relation, turn=True, most=most)
    return " ".join(" ".join(t.split()) for _, _, t in sorted(rows))


def _said_on(
    memory: Memory, vid: str, first: tuple[float, float, str], relation: str, *, turn: bool, most: int
) -> list[tuple[float, float, str]]:
    """The speech rows from `first` on ('after') or back ('before') while they go on with its sentence (a row
    that stops mid-sentence, the next within `GOES_ON_S`) or, with `turn`, with its turn (pauses under
    `TURN_PAUSE_S`): at most `most` rows, `first` first."""
    rows = [first]
    while len(rows) < most:
        found = run_sql(memory, _SAID_NEXT_SQL[relation], [vid, rows[-1][0]]).to_pylist()
        if not found:
            break
        row = (found[0]["start_s"], found[0]["end_s"], str(found[0]["text"]))
        earlier, later = (rows[-1], row) if relation == "after" else (row, rows[-1])
        pause = later[0] - earlier[1]
        if (pause >= TURN_PAUSE_S) if turn else (ends_sentence(earlier[2]) or pause > GOES_ON_S):
            break
        rows.append(row)
    return rows


def _related_label(kind: str, word: str, phrase: str, said: str, showing: str = "") -> str:
    """The line of what is said or shown next to X. 'speech after "X": "Y"' was read backwards by the small
    model in trials 12 and 13 ("X was announced right after Y"): the next line is named as the subject that
    says Y. `showing` names which showing of X it is, when X was on screen more than once."""
    lead = {"after": f"the next {kind} after", "before": f"the {kind} just before"}.get(word, f"{kind} {word}")
    says = " says:" if word in ("after", "before") else ":"
    which = f" ({showing})" if showing else ""
    return f'{lead} "{clip_text(phrase, 30)}"{which}{says} "{clip_text(said)}"'


#: The spans of one video that show the same text, for `_showings`.
_SAME_TEXT_SQL = (
    "SELECT span_id, start_s, end_s, text FROM ocr_spans WHERE video_id = ? AND lower(trim(text)) = lower(trim(?)) "
    "ORDER BY start_s"
)


def _showings(memory: Memory, anchor: TextHit) -> list[TextHit]:
    """Every showing of on-screen text `anchor` at its own place, in time order (`anchor` alone for speech): a sign
    that goes back to an earlier text shows it again in a span of its own. out17's "what was being announced when
    the queue board went back to 'short'?" found the first SHORT and read the speech of the first minute; what was
    said during each showing lets the question's own words pick one."""
    if anchor.source != "ocr_spans":
        return [anchor]
    rows = run_sql(memory, _SAME_TEXT_SQL, [anchor.video_id, anchor.text]).to_pylist()
    places = video_span_places(memory, anchor.video_id)
    own = places.get(anchor.item_id)
    same = [r for r in rows if int(r["span_id"]) == anchor.item_id
            or (own is not None and places.get(int(r["span_id"])) == own)]
    if len(same) < 2:
        return [anchor]
    return [TextHit(anchor.video_id, "ocr_spans", int(r["span_id"]), float(r["start_s"]), float(r["end_s"]),
                    str(r["text"]), anchor.score) for r in same]


def _showing_note(n: int, shown: TextHit) -> str:
    """'shown the 2nd time, 185-269 s': which showing of a text a related line is of."""
    nth = {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")
    return f"shown the {nth} time, {shown.start_s:g}-{shown.end_s:g} s"


def _says_relation(text: str, relation: str, phrase: str) -> bool:
    """Whether the anchor's line itself says the relation and its phrase ("... will sing in the chapel
    after lunch"): the question quotes what the line says ("why head to the chapel after lunch?"), it
    asks for no line after another (test22's was marked the line after the choir's).

    >>> _says_relation("The choir will sing in the chapel after lunch.", "after", "lunch")
    True
    >>> _says_relation("Lunch is served in the hall.", "after", "lunch")
    False
    >>> _says_relation("They sing after lunch.", "while", "lunch")  # no order word: "while X" relates by time
    False
    """
    word = relation.partition(":")[0]
    if word not in ("after", "before"):
        return False
    return bool(re.search(rf"\b{word}\s+(?:the\s+|a\s+|an\s+)?{re.escape(phrase.lower())}\b", text.lower()))


def _anchor_kinds(question: str, start: int, end: int) -> list[str]:
    """Where to look for the thing a time clause (`question[start:end]`) names: the kind of text the
    clause names ("when the CHURCH TO RIVER caption first comes up": on-screen text), else the kind the
    rest of the question does not ask for ("when 'old clothes only' pops up ..., what is the announcer
    talking about?": the sign, not the spoken line that says old clothes too), else both. Only words that
    name speech as such make the clause speech: "what is the voice saying when the words ENDS AT 6 first pop
    up?" (test24) looked for 'the words' in the speech, and found no line to join; of every set's 6,475
    questions, that one's anchor alone changes kind."""
    named = named_sources(question[start:end], plain_say=False)
    if named:
        return sorted(named & _KINDS or _KINDS)
    asked = named_sources(question[:start] + " " + question[end:]) & _KINDS
    return sorted(_KINDS - asked) if len(asked) == 1 else sorted(_KINDS)


def _quoted_or(phrase: str) -> str:
    """The quoted text in `phrase` ("'SOLD OUT' appeared" -> SOLD OUT), else the phrase."""
    quoted = re.search(r"['\"]([^'\"]+)['\"]", phrase)
    return quoted.group(1) if quoted else phrase


def _anchor_hit(memory: Memory, vid: str, phrase: str, sources: list[str], encoder: Encoder | None,
                place: str | None = None) -> TextHit | None:
    """The text that `phrase` names: the best of keyword and semantic search, fused; of on-screen texts tied
    with it, one at `place` on the frame when one is (out16's top banner and left board both read QUILLAN BAY
    CANCELLED)."""
    groups: list[tuple[str, list[TextHit]]] = []
    words = content_words(phrase)
    if re.search(r"[a-z]", phrase):
        # not the words that say how it was told: "when they announced that Eleanor Fairweather had collected
        # her suitcase" (trial 9) found "We are sorry to announce ..." by 'announce' alone, speech recognition
        # having heard the rest as "Elia Norfeaweda has calculated her blue suit case". A sign's words stay
        words = [w for w in words if w not in FRAME_WORDS] or words
    k = 6 if NAMES_CHANGE.search(phrase) else 3
    if words:
        groups.append(("keyword", keyword_search(memory, " ".join(stems(words)), k=k, video_id=vid, sources=sources,
                                                 match="any")))
    if encoder is not None:
        try:
            found = search_texts(memory, encoder, phrase, k=k, video_id=vid, sources=sources)
            groups.append(("semantic", [h for h in found if h.score >= 0.3]))
        except QueryError:
            pass  # no embeddings: the words alone
    ranked = fuse_ranks(groups)
    fused = [f[0] for f in ranked]
    if k > 3 and (changed := _changed_line(fused, words)) is not None:
        return changed
    if not ranked:
        return None
    # a tie (keyword's first is meaning's second and the other way round): the one holding more of the phrase's
    # own words, ordinals included. "the news about the first finisher" is "Our first finisher today is ...",
    # not "the exit of the finish area", which ranks first by words alone for being short (trial 12)
    tied = [h for h, score, _ in ranked if score == ranked[0][1]]
    asked = set(stems(_own_words(phrase)))

    def holding(h: TextHit) -> int:
        return len(asked & set(stems(_own_words(h.text))))

    best = max(tied, key=holding)
    if best.source != "ocr_spans":
        return best
    places = video_span_places(memory, vid)
    best = _came_up_whole(best, fused, places, asked)
    if place is None:
        return best
    return next((h for h, _, _ in ranked if h.source == "ocr_spans"
                 and _same_place(places.get(h.item_id), (place, None)) and holding(h) >= holding(best)), best)


def _came_up_whole(best: TextHit, hits: Sequence[TextHit], places: dict[int, tuple[str, int | None]],
                   asked: set[str]) -> TextHit:
    """Of the on-screen text hits at `best`'s place that hold words of the phrase (`asked`, stems), the one that came
    up when the most of them were on together, the first such moment (`best` when it is one of those): a board's
    text is its lines on at once. out19's side board kept its heading BAY 1 (read 'BAY 1' and 'BAY1' by turns) while
    the line under it changed, and "before it changed to BAY 1 BAKERS" was found at BAY 1's first read, not where
    BAKERS came up under it."""
    where = places.get(best.item_id)
    if where is None:
        return best

    def held(h: TextHit) -> set[str]:  # a word read glued to the next ('BAY1') is still read
        glued, digits = folded(h.text), set(re.findall(r"\d+", h.text))
        return {w for w in asked if w in stems(_own_words(h.text)) or (len(w) >= 3 and w in glued) or w in digits}

    found = [h for h in hits if h.source == "ocr_spans" and held(h)
             and (p := places.get(h.item_id)) is not None and p[0] == where[0]]

    def held_at(h: TextHit) -> int:  # the phrase's words on screen as `h` comes up
        t = h.start_s + AT_START_S / 2
        return len(set().union(*(held(o) for o in found if o.start_s <= t <= o.end_s)))

    most = max((held_at(h) for h in found), default=0)
    if best in found and held_at(best) == most:
        return best
    return min((h for h in found if held_at(h) == most), key=lambda h: h.start_s, default=best)


def _shares_words(text: str, phrase: str) -> bool:
    """Whether `text` holds a content word of `phrase` (any form: stems)."""
    return bool(set(stems(content_words(text.lower()))) & set(stems(content_words(phrase.lower()))))


def _without_video(phrase: str) -> str:
    """`phrase` without the video it is said of, at its end.

    >>> _without_video("baby gecko news in the reptile house video"), _without_video("the news of this clip")
    ('baby gecko news', 'the news')
    >>> _without_video("the video screen announcement")
    'the video screen announcement'
    """
    return _VIDEO_TAIL.sub("", phrase) or phrase


#: "... in the reptile house video", "... of this clip": the video a phrase is said of, at its end.
_VIDEO_TAIL = re.compile(r"\s+(?:in|from|of|on)\s+(?:the\s+|this\s+|that\s+)?(?:[\w'-]+\s+){0,4}?"
                         r"(?:video|clip|footage|recording|film)\b.*$", re.I)


def _own_words(text: str) -> list[str]:
    return [w for w in re.findall(r"[\w']+", text.lower()) if w not in GRAMMAR_WORDS]


def _changed_line(hits: Sequence[TextHit], words: Sequence[str]) -> TextHit | None:
    """Of the hits holding the most of a change phrase's `words` (two at least), the first in time that gives
    a number the first of them does not: where the plan changed. Trial 9's "which was announced first: that
    the lifts were out of service, or that the Port Ellis train had changed platform?" found 14:05 PORT ELLIS -
    PLATFORM 4 (20 s), the plan before the change (PLATFORM 7 at 126 s). None when no hit differs so."""
    asked = set(stems(list(words)))
    held = {(h.source, h.item_id): len(set(stems(content_words(h.text))) & asked) for h in hits}
    most = max(held.values(), default=0)
    about = sorted((h for h in hits if held[h.source, h.item_id] == most), key=lambda h: h.start_s)
    if most < 2 or len(about) < 2:
        return None
    first = numbers_of(about[0].text)
    return next((h for h in about[1:] if numbers_of(h.text) - first), None)
