"""Scoring one answer: multiple choice exactly; open answers by a judge model when one is
configured, else by matching the reference text (and says which it used)."""

import re
from collections.abc import Sequence
from dataclasses import dataclass

from agents.choices import match_choice, normalize_answer
from agents.evaluation.questions import Question
from agents.llm import ChatModel, Message
from queries.time_phrases import number_words_to_digits, parse_seconds

JUDGE_PROMPT = (
    "You grade answers to questions about a video. Reply with one word, YES if the candidate answer "
    "states the same fact as the reference answer (wording may differ), NO otherwise.\n\n"
    "Question: {question}\nReference answer: {reference}\nCandidate answer: {candidate}\nGrade:"
)


@dataclass(frozen=True)
class Score:
    correct: bool
    method: str  # 'choice' | 'judge' | 'match'
    predicted: str  # the choice letter or the answer text
    prompt_tokens: int = 0  # the judge's cost (not counted in the answer's)
    completion_tokens: int = 0


def score(question: Question, answer_text: str, choice: int | None, judge: ChatModel | None = None) -> Score:
    if question.multiple_choice:
        picked = choice if choice is not None else match_choice(answer_text, question.choices)
        letter = chr(ord("A") + picked) if picked is not None else "-"
        return Score(picked == question.answer, "choice", letter)
    if judge is not None:
        return _judge(question, answer_text, judge)
    if question.time_window is not None and states_time_in(answer_text, question.time_window):
        return Score(True, "match", answer_text)
    return Score(matches(answer_text, [str(question.answer), *question.accept]), "match", answer_text)


#: A time of the video as an answer writes it: "1:06", "66 s", "66.5 seconds", "24.6-28.7 s" (each end).
_TIME = re.compile(r"\b(\d{1,2}:\d{2}(?::\d{2})?)(?:\.\d+)?\b|\b(\d+(?:\.\d+)?)\s*(?:s|secs?|seconds?)\b", re.I)


def states_time_in(answer_text: str, window: tuple[float, float]) -> bool:
    """Whether an answer states a time of the video inside `window` (seconds): out15's "when does the briefing
    announce that the traverse is closed?" (24.7-28.7 s) was answered "24.6-28.7 s" and scored wrong, its
    accepted forms being whole seconds.

    >>> states_time_in("24.6-28.7 s", (22.7, 30.7)), states_time_in("At 1:06.", (65.0, 70.0))
    (True, True)
    >>> states_time_in("at 96 seconds", (10.0, 20.0)), states_time_in("The sign reads 25 km/h", (20.0, 30.0))
    (False, False)

    A time within `TIME_SLACK_S` of the window counts: speech recognition starts a line a little before or after
    the sound (out16's "46.93 s" for an announcement built to start at 47.0 s).

    >>> states_time_in("46.93 s", (47.0, 53.5)), states_time_in("45.5 s", (47.0, 53.5))
    (True, False)
    """
    return any(window[0] - TIME_SLACK_S <= t <= window[1] + TIME_SLACK_S for t in _stated_times(answer_text))


def _stated_times(answer_text: str) -> list[float]:
    """The times of the video an answer states, in seconds, each end of a span too ("24.6-28.7 s")."""
    text = _RANGE.sub(r"\1 \3 to \2 \3", answer_text)
    return [parse_seconds(m.group(1)) if m.group(1) else float(m.group(2)) for m in _TIME.finditer(text)]


#: How far outside a question's time window a stated time still counts (`states_time_in`), in seconds.
TIME_SLACK_S = 1.0


def matches(answer_text: str, references: Sequence[str]) -> bool:
    """Whether an open answer states a reference: a reference of 'yes' or 'no' by the answer's
    polarity; any other by its words inside the answer's, singular and plural alike ("8 person
    visible" states "8 persons"), an amount's sign as its word ("$44" states "44 dollars").

    >>> matches("8 person visible at 0 seconds", ["7 people", "8 persons"])
    True
    >>> matches("A backpack was left behind in the ticket office.", ["yes"])
    True
    >>> matches("Nothing is said about a backpack.", ["yes"])
    False
    >>> matches("The bakery is closed.", ["open"])
    False
    >>> matches("A ticket to Berlin costs $44.", ["44 dollars"])
    True
    >>> matches("6.", ["6 different texts"]), matches("Six", ["6 different texts"]), matches("7", ["6 different texts"])
    (True, True, False)
    >>> matches("3 times.", ["3 announcements"]), matches("3 times at 5 s", ["3 announcements"])
    (True, False)
    >>> matches("24-49 s", ["24 s"]), matches("From 24 to 49 seconds.", ["49 seconds"]), matches("24-49 s", ["30 s"])
    (True, True, False)
    >>> matches('"Nobody under 8 may go alone."', ["under eight"]), matches("Nobody under 18 may go.", ["under eight"])
    (True, False)
    >>> matches("3 people walking at 1:28.5", ["2"]), matches("8 person visible at 48 s", ["4"])  # no digit of a number
    (False, False)
    >>> matches("It is brought up at 90 seconds.", ["90 s"]), matches("Buses replace the trains.", ["bus"])
    (True, True)
    >>> matches("3 of the 8 separate stretches of speech state a price; ...", ["3 announcements"])
    True
    >>> matches("8 of the 8 stretches state a price", ["3 announcements"]), matches("3 of them at 5 s", ["8"])
    (False, False)
    >>> matches("the equipment is still being unpacked", ["unpack"]), matches("It is in 30 minutes", ["3"])
    (True, False)
    >>> matches("It is quillmoor_atrium_saturday.mp4.", ["atrium_saturday"]), matches("the lemons", ["lemon drizzle"])
    (True, False)
    >>> matches("The next opening is at 1.30.", ["1:30"]), matches("It costs 1.30.", ["1:45"])
    (True, False)
    """
    candidate = _words(_RANGE.sub(r"\1 \3 to \2 \3", answer_text))  # "24-49 s" states 24 s and 49 s
    if _states_accepted_time(answer_text, references):
        return True
    bare = _bare_number(candidate)
    for ref in references:
        words = _words(ref)
        if words in (["yes"], ["no"]):
            if polarity(answer_text) == words[0]:
                return True
        elif words and (_holds_run(candidate, words)  # its words, in a row, inside the answer's
                        or words[0] == bare):  # "6" answers "how many?" as "6 texts" does
            return True
    return False


def _states_accepted_time(answer_text: str, references: Sequence[str]) -> bool:
    """Whether the answer states a time within `TIME_SLACK_S` of an accepted time: out19's "at what time were the
    parents of Tobias asked to come?" accepted 1:00, 1:01, 60 and 61, and "At 61.4 seconds" was scored wrong (its
    words are not '61'). An accepted time is written 'm:ss' or with its unit ('61 s'); a bare number is one when
    the list also holds an 'm:ss' (a count of 3 is no time, and "at 3.5 s" does not state it).

    >>> _states_accepted_time("At 61.4 seconds in", ["1:00", "60", "61"]), _states_accepted_time("at 78.9 s", ["79"])
    (True, False)
    >>> _states_accepted_time("From 78.6 s on", ["79 s"]), _states_accepted_time("At 62.5 s", ["1:00", "61"])
    (True, False)
    """
    clock = any(_CLOCK.fullmatch(r.strip()) for r in references)
    accepted = []
    for ref in references:
        ref = ref.strip()
        if _CLOCK.fullmatch(ref):
            accepted.append(parse_seconds(ref))
        elif (m := _WITH_UNIT.fullmatch(ref)) or (clock and (m := _BARE.fullmatch(ref))):
            accepted.append(float(m.group(1)))
    if not accepted:
        return False
    return any(abs(t - a) < TIME_SLACK_S for t in _stated_times(answer_text) for a in accepted)


#: How accepted times are written: '1:05' (or '0:01:05'), '65 s' / '65 seconds', and bare '65'.
_CLOCK = re.compile(r"\d{1,2}:\d{2}(?::\d{2})?")
_WITH_UNIT = re.compile(r"(\d+(?:\.\d+)?)\s*(?:s|secs?|seconds?)", re.I)
_BARE = re.compile(r"(\d+(?:\.\d+)?)")


def _holds_run(candidate: list[str], words: list[str]) -> bool:
    """Whether `words` stand in a row in `candidate`, each whole or, a word of 4 letters or more, as the start of
    one: a reference 'unpack' is stated by "is being unpacked", 'clean' by "is being cleaned" (out17's accept
    lists give stems), not 'pipe' by "a burst pipe" alone nor '3' by '30'."""
    n = len(words)
    return any(all(c == w or (len(w) >= 4 and w.isalpha() and c.startswith(w))
                   for c, w in zip(candidate[i:i + n], words, strict=True))
               for i in range(len(candidate) - n + 1))


#: A span of the video given with one unit ("24-49 s", "24 to 49 seconds"): each end is a time.
_RANGE = re.compile(r"\b(\d+(?:\.\d+)?)\s*(?:-|\u2013|to)\s*(\d+(?:\.\d+)?)\s*(s|secs?|seconds?)\b", re.I)


def _bare_number(words: list[str]) -> str | None:
    """The number an answer is, when it is nothing else ('6', 'six', '3 times'), or when it opens with
    'N of the M' (the code's count of the lines that say a kind of thing: "3 of the 8 separate stretches of
    speech ... state a price"), as digits."""
    if len(words) == 2 and words[1] in ("time", "times"):  # "how many times ...?": "3 times"
        words = words[:1]
    if len(words) > 4 and words[1:3] == ["of", "the"] and words[3].isdigit():
        words = words[:1]
    if len(words) != 1:
        return None
    digits = number_words_to_digits(words[0])
    return digits if digits.isdigit() else None


def polarity(answer_text: str) -> str:
    """'yes' or 'no': a leading yes/no, else 'no' when the answer denies (not, no, nothing, never,
    nobody, ...), else 'yes' (an answer that states the thing affirms it)."""
    words = normalize_answer(answer_text).split()
    if words and words[0] in ("yes", "no"):
        return words[0]
    return "no" if _DENIAL.search(answer_text) else "yes"


_DENIAL = re.compile(r"\b(?:not|no|nothing|never|nobody|none|neither|nor|\w+n't|cannot)\b|\bno one\b", re.I)
#: Plural to singular, for comparing words: irregular forms, else a trailing s of a longer word.
_IRREGULAR = {"people": "person", "persons": "person", "men": "man", "women": "woman", "children": "child"}


#: A currency sign before an amount, read as the word after it ("$44" -> "44 dollar").
_AMOUNT = re.compile(r"([$\u20ac\u00a3])\s?(\d+(?:[.,]\d+)?)")
_CURRENCY = {"$": "dollar", "\u20ac": "euro", "\u00a3": "pound"}


def _words(text: str) -> list[str]:
    text = number_words_to_digits(text.replace("_", " "))  # "under 8" states "under eight"; file names' words
    text = _DOTTED_CLOCK.sub(r"\1:\2", text)  # speech recognition writes "one thirty" as "1.30": 1:30
    text = _AMOUNT.sub(lambda m: f" {m.group(2)} {_CURRENCY[m.group(1)]} ", text)
    out = []
    for w in normalize_answer(text).split():
        w = _IRREGULAR.get(w, _SECONDS.get(w, w))
        if len(w) > 4 and w.endswith(("ses", "xes", "zes", "ches", "shes")):  # 'buses', 'boxes'
            w = w[:-2]
        elif len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
            w = w[:-1]
        out.append(w)
    return out


#: A clock time written with a dot ("at 1.30", "until 17.45"), as speech recognition writes one said.
_DOTTED_CLOCK = re.compile(r"\b([01]?\d|2[0-3])\.([0-5]\d)\b")
#: A time's unit as answers write it: "90 seconds" states "90 s".
_SECONDS = {"second": "s", "seconds": "s", "sec": "s", "secs": "s"}


def _judge(question: Question, answer_text: str, judge: ChatModel) -> Score:
    prompt = JUDGE_PROMPT.format(question=question.question, reference=question.answer, candidate=answer_text)
    done = judge.complete([Message("user", prompt)], max_tokens=4)
    verdict = re.search(r"\b(YES|NO)\b", done.text.upper())
    return Score(
        bool(verdict and verdict.group(1) == "YES"), "judge", answer_text, done.prompt_tokens, done.completion_tokens
    )
