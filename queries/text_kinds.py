"""Which kinds of text a question names: on-screen text ("the sign", "written"), speech ("announced",
"the voice"), both, or neither. Plain patterns, no memory access; the evidence brief
(`queries.brief`, `queries.brief_order`) and the agents' layout of it read the kinds from here.
"""

import re

from queries.screen_places import TEXT_NOUNS
from queries.search import SOURCE_LABELS

__all__ = ["READ_ALOUD", "SPEECH_QUESTION", "SPOKEN", "TEXT_QUESTION", "named_sources", "wanted_sources"]

#: Words that name on-screen text.
TEXT_QUESTION = re.compile(
    rf"\b({TEXT_NOUNS}|written|read|reads|board|screen|display|displayed|subtitles?|posters?|ticker|lettering)\b",
    re.I,
)
#: Words that name speech as such. "What does the sign say?" asks about text, so the plain 'say' and
#: 'words' only widen the sources shown (SPEECH_QUESTION), never decide that a
#: question is about speech (SPOKEN).
SPEECH_WORDS = (r"said|speak|speaks|speaking|spoken|speakers?|mentions?|mentioned|mentioning|talk|talks|talked|"
                r"talking|voice|narrators?|announcers?|announces?|announced|announcing|announcements?|speech|tells?|"
                r"telling|told")
SPOKEN = re.compile(rf"\b({SPEECH_WORDS})\b", re.I)
SPEECH_QUESTION = re.compile(rf"\b({SPEECH_WORDS}|say|says|words?)\b", re.I)
#: 'read' said of a voice: "while the packing list was being read", "when the warning was read out".
#: A sign reads (active); a line is read out (passive, or 'out'/'aloud'): speech, not on-screen text.
READ_ALOUD = re.compile(r"\b(?:read\s+(?:out|aloud)|(?:is|was|were|are|being|been|gets?|got)\s+read)\b", re.I)


def named_sources(text: str, *, plain_say: bool = True) -> set[str]:
    """The kinds of text `text` names: on-screen text ('the sign'), speech ('announced'), or none.
    `plain_say`: the plain 'say' and 'words' name speech too (they widen the sources shown); without
    it, only the words that name speech as such do ('the voice', 'announced'; `SPOKEN`)."""
    named = set()
    if READ_ALOUD.search(text):
        named.add("transcript")
        text = READ_ALOUD.sub(" ", text)
    if TEXT_QUESTION.search(text):
        named.add("ocr_spans")
    if (SPEECH_QUESTION if plain_say else SPOKEN).search(text):
        named.add("transcript")
    return named


def wanted_sources(question: str) -> set[str]:
    """The sources a question is about: those it names, else all."""
    return named_sources(question) or set(SOURCE_LABELS)
