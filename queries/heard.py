"""Names a question spells that speech recognition wrote as other words, found by how they sound.

Speech recognition writes a name it does not know as common words that sound like it: "Falkenjoch
Gondola" came out as "Falcon Dock and Dole", "falcon jock andola" and "Falcon Joker and Ola" in three
announcements of one video (out15). Matched by spelling, the question's name is nowhere in the
transcript: a count of the announcements that mention it found none, the search ranked a sign about
another gondola first, and the absence check could call the name unsaid.

A name is compared by its consonants as they sound (`sound_key`: 'ck', 'ch', 'c' and 'q' are 'k',
'ph' and 'v' are 'f', vowels and a doubled letter dropped) with every run of words of about its length
in the video's speech. A run whose key is within one edit in five of the name's, and starts with the
same consonant, is how the name was heard. Only names are tried: a run of capitalised words of the
question of which some word no speech, on-screen text or caption of the video holds (a name it spells
right needs nothing), whose key has five consonants or more (a short key matches too many runs).
"""

import re
from collections.abc import Collection, Iterable, Mapping, Sequence

from memory import Memory
from queries.run import run_sql

__all__ = ["asked_names", "heard_names", "heard_spans", "heard_words", "sound_key", "video_vocabulary",
           "with_heard_names"]

#: Spellings that sound alike, longest first ('sch' before 'ch'): what each is keyed as.
_ALIKE = (("sch", "sh"), ("tch", "ch"), ("ph", "f"), ("ck", "k"), ("ch", "k"), ("gh", "g"), ("dt", "t"),
          ("c", "k"), ("q", "k"), ("x", "ks"), ("z", "s"), ("v", "f"))
_VOWELS = re.compile(r"[aeiouy]+")
#: A name the question spells: a run of words that start with a capital ('Falkenjoch Gondola'), the first
#: word of a sentence aside when it is the only one (a question's 'What', 'In').
_CAPITALISED_RUN = re.compile(r"(?<![\w'])[A-Z][a-z]+(?:[\s-]+[A-Z][a-z]+)*")
#: The least consonants a name's key must hold to be looked for by sound.
MIN_KEY = 5


def sound_key(text: str) -> str:
    """The consonants of `text` as they sound, its words run together.

    >>> sound_key("Falkenjoch Gondola"), sound_key("falcon jock andola"), sound_key("Birken Heng")
    ('flknjkgndl', 'flknjkndl', 'brkng')
    """
    word = "".join(re.findall(r"[a-z]+", text.lower()))
    for spelled, said in _ALIKE:
        word = word.replace(spelled, said)
    first, rest = word[:1], word[1:].replace("h", "")  # a name's first 'h' is said ('Hollaender')
    key = ("" if first in "aeiouy" else first) + _VOWELS.sub("", rest)
    return re.sub(r"(.)\1+", r"\1", key)


def _edits(a: str, b: str) -> int:
    """Levenshtein distance."""
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
    return row[-1]


def heard_spans(name: str, text: str) -> list[str]:
    """The runs of words of `text` that sound like `name` (`sound_key`): of the runs that start at one word,
    the closest, when it is within one edit in five of the name's key and starts with its consonant.

    >>> heard_spans("Falkenjoch Gondola", "The Falcon Dock and Dole are open at 8.30, and tickets are sold.")
    ['Falcon Dock and Dole']
    >>> heard_spans("Birkenhang", "the Birken Heng chair lift is paused"), heard_spans("Birkenhang", "the bakery hangs")
    (['Birken Heng'], [])
    """
    key = sound_key(name)
    if len(key) < MIN_KEY:
        return []
    allowed = max(1, len(key) // 5)
    size = len(name.split())
    words = list(re.finditer(r"[A-Za-z]+(?:'[a-z]+)?", text))

    def closest(start: int) -> tuple[int, int] | None:
        return _closest(key, allowed, text, words, start, size) if start < len(words) else None

    found: list[str] = []
    start, best = 0, closest(0)
    while start < len(words):
        later = closest(start + 1)
        if best is not None and (later is None or later[0] > best[0]):
            found.append(text[words[start].start():words[best[1]].end()])
            start = best[1] + 1
            best = closest(start)
        else:  # none from here, or the run without its first word is as close ('to Theo Machetti')
            start, best = start + 1, later
    return found


def _closest(key: str, allowed: int, text: str, words: Sequence[re.Match[str]], start: int,
             size: int) -> tuple[int, int] | None:
    """(edits, last word) of the run of `words` from `start` whose key is closest to `key`, within `allowed`."""
    best: tuple[int, int] | None = None
    for end in range(start, min(len(words), start + size + 3)):
        run = sound_key(text[words[start].start():words[end].end()])
        if len(run) > len(key) + allowed:
            break
        if run[:1] == key[:1] and abs(len(run) - len(key)) <= allowed:
            edits = _edits(run, key)
            if edits <= allowed and (best is None or edits < best[0]):
                best = (edits, end)
    return best


def asked_names(question: str, vocabulary: Collection[str]) -> list[str]:
    """The names `question` spells (runs of capitalised words) of which some word is not in `vocabulary` (the
    video's words, lower case), the first word of the question aside.

    >>> asked_names("In the video, when does the Falkenjoch Gondola open?", {"gondola", "video"})
    ['Falkenjoch Gondola']
    >>> asked_names("When does the Gondola open?", {"gondola"}), asked_names("Where is Lucas?", {"lucas"})
    ([], [])
    """
    out = []
    for m in _CAPITALISED_RUN.finditer(question):
        words = m.group().split()
        if m.start() == 0 or re.search(r"[.?!:;]\s*$", question[:m.start()]):
            words = words[1:]  # 'In', 'What' start the question, and no name
        if words and any(w.lower() not in vocabulary for w in words) and len(sound_key(" ".join(words))) >= MIN_KEY:
            out.append(" ".join(words))
    return list(dict.fromkeys(out))


#: The video's speech, in time order; the words it says or shows.
_SPEECH_SQL = "SELECT start_s, text FROM text_items WHERE video_id = ? AND source = 'transcript' ORDER BY start_s"
_VOCABULARY_SQL = (
    "SELECT DISTINCT unnest(regexp_extract_all(lower(text), '[a-z]+')) AS word FROM text_items WHERE video_id = ?"
)


def video_vocabulary(memory: Memory, video_id: str) -> set[str]:
    """The words (lower case) the video says or shows."""
    return set(run_sql(memory, _VOCABULARY_SQL, [video_id]).column("word").to_pylist())


def heard_names(memory: Memory, video_id: str, question: str,
                vocabulary: Collection[str] | None = None) -> dict[str, tuple[tuple[float, str], ...]]:
    """Each name `question` spells that the video does not (`asked_names`; `vocabulary`: the words that count as
    spelled, by default `video_vocabulary`), with the (start, run of words) of its speech that sound like it
    (`heard_spans`); names heard nowhere are left out."""
    if vocabulary is None:
        vocabulary = video_vocabulary(memory, video_id)
    names = asked_names(question, vocabulary)
    if not names:
        return {}
    rows = run_sql(memory, _SPEECH_SQL, [video_id]).to_pylist()
    out = {}
    for name in names:
        spans = tuple((float(r["start_s"]), s) for r in rows for s in heard_spans(name, str(r["text"])))
        if spans:
            out[name] = spans
    return out


def with_heard_names(text: str, heard: Mapping[str, Iterable[tuple[float, str]]]) -> str:
    """`text` with each name whose heard run of words it holds written after that run ('Falcon Dock and
    Dole (Falkenjoch Gondola)'), for matching the question's words to it."""
    for name, spans in heard.items():
        for span in dict.fromkeys(s for _, s in spans):
            text = text.replace(span, f"{span} ({name})")
    return text


def heard_words(heard: Mapping[str, Sequence[tuple[float, str]]]) -> set[str]:
    """The words (lower case) of the names that were heard."""
    return {w.lower() for name in heard for w in name.split()}
