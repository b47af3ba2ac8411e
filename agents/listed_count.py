"""A count question answered with a list and no number gets the list's length as its number.

Asked "How many things does the tourist desk offer?", the small model answered "The tourist desk offers maps,
bus passes, and hotel walkings." (out16 dev): the three things, not how many. A list of three or more
(`queries.said_lists.listed`) is counted by the code; an answer that states any number, denies, or holds
no such list is left as it is (two things joined by 'and' may be one: "fish and chips")."""

import re

from queries.question_words import NUMBER_WORDS, asks_count
from queries.said_lists import listed

__all__ = ["with_listed_count"]

#: What states a number, or that there is none of it.
_NUMBER = re.compile(rf"\d|\b(?:{'|'.join(sorted(NUMBER_WORDS, key=len, reverse=True))}|none|no|not|zero|"
                     r"single|couple|several|many|few)\b", re.I)


def with_listed_count(question: str, answer: str) -> str:
    """`answer` with the number of things it lists first ('3: ...') when `question` asks how many (not how much)
    and the answer lists three or more things and states no number.

    >>> with_listed_count("How many things does the desk offer?", "It offers maps, bus passes, and hotel rooms.")
    '3: It offers maps, bus passes, and hotel rooms.'
    >>> with_listed_count("how many names are read out", "Ann Lee, Bo Park and Cy Diaz are named.")
    '3: Ann Lee, Bo Park and Cy Diaz are named.'
    >>> with_listed_count("How many things are offered?", "Three: maps, passes and rooms.")
    'Three: maps, passes and rooms.'
    >>> with_listed_count("How many are offered?", "Fish and chips.")
    'Fish and chips.'
    >>> with_listed_count("How much is it?", "Tea, cake and coffee.")
    'Tea, cake and coffee.'
    """
    if not asks_count(question) or re.search(r"\bhow\s+much\b", question, re.I) or _NUMBER.search(answer):
        return answer
    things = listed(answer)
    return f"{len(things)}: {answer}" if things else answer
