"""Scoring one answer: multiple choice exactly; open answers by a judge model when one is
configured, else by matching the reference text (and says which it used)."""

import re
from dataclasses import dataclass

from agents.choices import match_choice, normalize_answer
from agents.evaluation.questions import Question
from agents.llm import ChatModel, Message

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
    candidate = normalize_answer(answer_text)
    references = [str(question.answer), *question.accept]
    hit = any(normalize_answer(ref) and normalize_answer(ref) in candidate for ref in references)
    return Score(hit, "match", answer_text)


def _judge(question: Question, answer_text: str, judge: ChatModel) -> Score:
    prompt = JUDGE_PROMPT.format(question=question.question, reference=question.answer, candidate=answer_text)
    done = judge.complete([Message("user", prompt)], max_tokens=4)
    verdict = re.search(r"\b(YES|NO)\b", done.text.upper())
    return Score(
        bool(verdict and verdict.group(1) == "YES"), "judge", answer_text, done.prompt_tokens, done.completion_tokens
    )
