"""A request asked as a question: "Tell me what the sign says", "I need the platform of the lime tram.",
"Can you tell me when the ferry is mentioned?" become the questions they stand for, so everything that
reads a question's grammar (what it asks for, its time words, its subject words) reads them alike.

Only the frame of a request is rewritten (English request grammar, not the words of any set's
questions); a sentence that is no request is left as it is.
"""

from __future__ import annotations

import re

__all__ = ["as_question", "sentences"]

#: The frame of a request for an answer: "tell me", "can you tell me", "I'd like to know", "I wonder",
#: "do you know", "any idea" - what follows is the question ("... what the sign says") or the thing
#: asked for ("... the platform of the lime tram").
_ASK_FRAME = re.compile(
    r"""^(?:(?:please|so|ok|okay|hey|hi|hello|and|now)\W+)*
    (?:(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:tell|show|give)\s+me
      |(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:let\s+me\s+know|find\s+out|check)
      |(?:please\s+)?(?:tell|show|give)\s+me
      |(?:please\s+)?let\s+me\s+know
      |i(?:'d|\s+would)\s+(?:like|love)\s+to\s+(?:know|find\s+out|hear|see)
      |i\s+(?:want|need|wish)\s+to\s+(?:know|find\s+out|see|check)
      |i(?:'m|\s+am)\s+(?:wondering|curious)(?:\s+about)?
      |i\s+wonder
      |(?:do|does)\s+(?:you|anyone|anybody)\s+know
      |any\s+idea
    )\b[\s,:]*(?P<rest>.*)$""",
    re.I | re.X,
)
#: A wish for a thing: "I need the room ...", "I'm looking for the time ...": only a thing named with an
#: article ("I want to catch the train" is no request for an answer).
_WANT_FRAME = re.compile(
    r"^(?:(?:please|so|ok|okay|hey|hi|hello|and|now)\W+)*"
    r"(?:i\s+need|i\s+want|i(?:'d|\s+would)\s+like|i(?:'m|\s+am)\s+(?:looking\s+for|after))\s+"
    r"(?P<rest>(?:the|a|an)\s.+)$",
    re.I,
)
#: "Count the announcements": a count asked for with the verb.
_COUNT_VERB = re.compile(r"^(?:please\s+)?count\s+(?:up\s+)?(?:all\s+)?(?:the\s+)?(?P<rest>.+)$", re.I)
#: What an embedded question opens with: a wh- word, an auxiliary verb, 'if' or 'whether'.
_QUESTION_START = re.compile(
    r"^(?:what|what's|when|where|which|who|whom|whose|why|how|is|are|was|were|am|does|do|did|has|have|had|can|"
    r"could|will|would|should|if|whether)\b",
    re.I,
)
#: A number of things asked for: "a count of", "a head count of", "the number of" (not "the number of the
#: platform": that is one thing's number).
_COUNT_OF = re.compile(
    r"^(?:a|the)\s+(?:total\s+)?(?:(?:head\s+)?count\s+of|tally\s+of|number\s+of(?!\s+the\b))\s+(?:the\s+)?", re.I
)
#: A wh- word anywhere: the rest of a request is a question already ("a ticket to which city costs 12
#: dollars", "halfway through, what is written ...").
_WH = re.compile(r"\b(?:what|when|where|which|who|whom|whose|why|how)\b", re.I)
#: A moment asked for: "the time the sign first appears", "the moment when ...", "the point at which ...";
#: not "the start time of the lecture" (a time the video states).
_MOMENT_OF = re.compile(
    r"^(?:the|a)\s+(?:exact\s+|rough\s+)?(?:time|moment|timestamp|point)(?:\s+in\s+the\s+(?:video|clip))?"
    r"(?:\s+(?:when|that|at\s+which))?\s+(?!of\b|for\b)",
    re.I,
)
_SENTENCES = re.compile(r"(?<=[.!?])\s+")


def as_question(text: str) -> str:
    """`text` with each request sentence restated as the question it asks; other sentences unchanged.

    >>> as_question("Tell me what the sign at the top says.")
    'What the sign at the top says?'
    >>> as_question("I need the room for the choir practice."), as_question("I want to catch the train.")
    ('What is the room for the choir practice?', 'I want to catch the train.')
    >>> as_question("I need a count of the distinct texts shown on screen.")
    'How many distinct texts shown on screen?'
    >>> as_question("Can you tell me the time the 'EXIT' sign first appears?")
    "When the 'EXIT' sign first appears?"
    >>> as_question("I'd like to know whether a jacket was left."), as_question("Tell me about the shuttle.")
    ('Whether a jacket was left?', 'What is said about the shuttle?')
    >>> as_question("Tell me somebody forgot something. What was it.")
    'Tell me somebody forgot something. What was it?'
    >>> as_question("Where is the bus headed?"), as_question("Tell me a ticket to which city costs 12 dollars.")
    ('Where is the bus headed?', 'A ticket to which city costs 12 dollars?')
    """
    return " ".join(_sentence(s) for s in sentences(text))


def sentences(text: str) -> list[str]:
    """The sentences of `text`, each ending at its '.', '!' or '?'.

    >>> sentences("There's a caption at the bottom. What does the top one read? ")
    ["There's a caption at the bottom.", 'What does the top one read?']
    """
    return [s for s in _SENTENCES.split(text.strip()) if s]


def _sentence(sentence: str) -> str:
    m = _ASK_FRAME.match(sentence) or _WANT_FRAME.match(sentence)
    if m is None:
        if _QUESTION_START.match(sentence) and not re.match(r"(?:if|whether)\b", sentence, re.I):
            return _question(sentence)  # "What does it say." asks as "What does it say?" does
        count = _COUNT_VERB.match(sentence)
        if count is None or re.search(r"\bhow\s+many\b", sentence, re.I):
            return sentence
        return _question(f"how many {count.group('rest')}")
    rest = m.group("rest").strip()
    if not rest.rstrip(".!?"):
        return sentence
    if _QUESTION_START.match(rest) or _WH.search(rest):
        return _question(rest)
    if re.match(r"about\b", rest, re.I):
        return _question(f"what is said {rest}")
    if count_of := _COUNT_OF.match(rest):
        return _question(f"how many {rest[count_of.end():]}")
    if moment := _MOMENT_OF.match(rest):
        return _question(f"when {rest[moment.end():]}")
    if re.match(r"(?:the|a|an|this|that|its|their|his|her)\s", rest, re.I):
        return _question(f"what is {rest}")
    return sentence  # "Tell me somebody forgot something ...": a statement, not a thing asked for


def _question(text: str) -> str:
    text = text.strip().rstrip(".!?:;, ").strip()
    return text[:1].upper() + text[1:] + "?"
