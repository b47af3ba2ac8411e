"""The things a sentence lists, so that the code counts them and the model need not.

A list is three or more things set apart by commas, the last after 'and' or 'or': "maps, bus passes, and hotel
bookings", "a blue umbrella, a child's rucksack, a set of car keys and a camera". Its first thing ends the clause
that leads into it ("Lost property handed in today includes a blue umbrella"), and its last may run on into the
rest of the sentence ("... and trailers will be loaded last"); the things between are short (at most
`ITEM_WORDS` words, no 'and'). Shown "Lost property ... includes a Lulambrella, a child-brug sack, a set-on car
keys, and a camera.", the small model answered that 5 things were listed (out16); it reads the count instead.
Used for the brief's best match (`queries.brief`) and for an answer that lists things (`agents.listed_count`).
"""

import re

from queries.question_words import STOPWORDS

__all__ = ["ITEM_WORDS", "listed"]

#: The most words a thing between the first and the last of a list has: longer, a comma sets apart clauses.
ITEM_WORDS = 5
#: How many words of a first (last) thing are shown where it runs into the clause around it.
_SHOWN_WORDS = 3
#: Grammar words that may open a thing listed ("a camera", "their tickets"); any other grammar word (a pronoun,
#: preposition, auxiliary or conjunction: "it has reopened", "as belt 1 is out") or 'please' opens a clause.
_DETERMINERS = frozenset({"a", "an", "the", "some", "any", "all", "one", "two", "her", "his", "its", "my", "our",
                          "their", "your", "this", "that", "these", "those", "no"})
_CLAUSE_OPENERS = (STOPWORDS - _DETERMINERS) | {"please"}
_JOIN = re.compile(r"\s(?:and|or)\s", re.I)
_LEADING_JOIN = re.compile(r"(?:and|or)\s+", re.I)


def listed(text: str) -> list[str]:
    """The things of the first list of three or more in `text` (the first and the last
    shortened to a few words where it runs into the clause around it), or [] when it lists none.

    >>> listed("Lost property handed in today includes a blue umbrella, a child's rucksack, a set of car keys, "
    ...        "and a camera.")
    ['…a blue umbrella', "a child's rucksack", 'a set of car keys', 'a camera']
    >>> listed("Caravans, horse boxes and trailers will be loaded last, after all cars and motorcycles.")
    ['Caravans', 'horse boxes', 'trailers will be…']
    >>> listed("Attention please, Gate 4 is closed because of a fault with the walkway, and passengers use Gate 6.")
    []
    >>> listed("The trolley has four things to try, a brass sextant and a glass prism, a tooth and a cloud chamber.")
    []
    >>> listed("The desk is open until 9 and offers maps, bus passes and hotel bookings.")
    ['…and offers maps', 'bus passes', 'hotel bookings']
    >>> listed("Fish and chips."), listed("Tea, cake and coffee"), listed("Ann Lee, Bo Park or Cy Diaz")
    ([], ['Tea', 'cake', 'coffee'], ['Ann Lee', 'Bo Park', 'Cy Diaz'])
    """
    for sentence in re.split(r"[.;:!?](?:\s|$)", text):
        parts = [p.strip() for p in sentence.split(",")]
        for first in range(len(parts) - 1):
            things = _list_from(parts, first)
            if len(things) >= 3:
                # a list after its own count ("has four things for you to try, a brass sextant and a glass prism,
                # ...", out17) is counted by the words: speech recognition's commas cut it into other things
                return [] if _COUNTED.search(", ".join(parts[: first + 1])) else things
    return []


#: A number of things, said: "four things", "3 members", "two kinds of".
_COUNTED = re.compile(
    r"\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+(?:(?!and\b|or\b)[a-z-]+\s+)?"
    r"(?!and\b|or\b)[a-z-]+s\b", re.I)


def _list_from(parts: list[str], first: int) -> list[str]:
    """The things of the list whose first thing ends `parts[first]`: short parts with no 'and' after it, up to the
    part that holds the 'and' (or 'or') before its last thing; [] when no such part follows."""
    things = [_tail(parts[first])]
    for part in parts[first + 1:]:
        words = part.split()
        if not words:
            return []
        if _LEADING_JOIN.match(part):  # ", and a camera": the last thing
            return [*things, _head(_LEADING_JOIN.sub("", part, count=1))]
        join = _JOIN.search(f" {part} ")
        if join:  # "horse boxes and trailers will be loaded last": the last two things
            before, after = part[: join.start()].strip(), part[join.end() - 1:].strip()
            if not _a_thing(before) or not after or after.split()[0].lower() in _CLAUSE_OPENERS:
                return []
            return [*things, before, _head(after)]
        if not _a_thing(part):
            return []
        things.append(part)
    return []


def _a_thing(part: str) -> bool:
    """Whether `part` may be a thing of a list: a few words, not opening a clause."""
    words = part.split()
    return 0 < len(words) <= ITEM_WORDS and words[0].lower().strip("'\"") not in _CLAUSE_OPENERS


def _tail(part: str) -> str:
    words = part.split()
    return part if len(words) <= _SHOWN_WORDS else "…" + " ".join(words[-_SHOWN_WORDS:])


def _head(part: str) -> str:
    words = part.split()
    return part if len(words) <= _SHOWN_WORDS else " ".join(words[:_SHOWN_WORDS]) + "…"
