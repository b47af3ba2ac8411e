"""An evaluation report: one record per question, summaries overall and per question type, as
JSON and as a readable table; and the comparison of two reports on the same questions."""

import json
import math
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from agents.errors import AgentError


@dataclass(frozen=True)
class Record:
    id: str
    type: str
    question: str
    expected: str
    predicted: str
    correct: bool
    method: str  # how it was scored: 'choice' | 'judge' | 'match' | '' (failed before an answer)
    failure: str | None = None  # 'no_answer' | 'unverified' | 'llm_error' | 'agent_error' | 'video_missing'
    prompt_tokens: int = 0
    completion_tokens: int = 0
    calls: int = 0
    seconds: float = 0.0
    answer: str = ""  # the agent's own words, to read a wrong choice back to its reasoning
    note: str = ""  # how the answer was reached (its tree nodes' notes: 'answered from the evidence brief; ...')


def wilson_interval(correct: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% for z=1.96): unlike p ± z·se it stays within
    0..1 and is not empty at 0 or n correct, which matters for a few dozen questions per type."""
    if n <= 0:
        return (0.0, 1.0)
    p = correct / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class Summary:
    n: int
    accuracy: float
    prompt_tokens_per_answer: float
    completion_tokens_per_answer: float
    calls_per_answer: float
    seconds_per_answer: float
    ci_low: float = 0.0  # 95% Wilson interval of the accuracy
    ci_high: float = 1.0

    @property
    def ci_text(self) -> str:
        """'62% [48-74]': accuracy and its 95% interval, in percent."""
        return f"{self.accuracy:.0%} [{self.ci_low * 100:.0f}-{self.ci_high * 100:.0f}]"


def summarize(records: Sequence[Record]) -> Summary:
    if not records:
        return Summary(0, 0.0, 0.0, 0.0, 0.0, 0.0)
    correct = sum(r.correct for r in records)
    low, high = wilson_interval(correct, len(records))
    return Summary(
        n=len(records),
        accuracy=correct / len(records),
        prompt_tokens_per_answer=statistics.fmean(r.prompt_tokens for r in records),
        completion_tokens_per_answer=statistics.fmean(r.completion_tokens for r in records),
        calls_per_answer=statistics.fmean(r.calls for r in records),
        seconds_per_answer=statistics.fmean(r.seconds for r in records),
        ci_low=low,
        ci_high=high,
    )


@dataclass(frozen=True)
class Report:
    planner: str
    questions: str  # where the questions came from
    records: tuple[Record, ...]
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def overall(self) -> Summary:
        return summarize(self.records)

    def by_type(self) -> dict[str, Summary]:
        groups: dict[str, list[Record]] = defaultdict(list)
        for r in self.records:
            groups[r.type].append(r)
        return {t: summarize(rs) for t, rs in sorted(groups.items())}

    def failures(self) -> dict[str, int]:
        return dict(Counter(r.failure for r in self.records if r.failure))

    def to_dict(self) -> dict[str, Any]:
        return {
            "planner": self.planner,
            "questions": self.questions,
            "meta": self.meta,
            "overall": asdict(self.overall),
            "by_type": {t: asdict(s) for t, s in self.by_type().items()},
            "failures": self.failures(),
            "records": [asdict(r) for r in self.records],
        }

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_dict(), indent=1, ensure_ascii=False))
        return path

    @classmethod
    def load(cls, path: str | Path) -> "Report":
        try:
            data = json.loads(Path(path).read_text())
            return cls(
                data["planner"], data["questions"], tuple(Record(**r) for r in data["records"]), data.get("meta", {})
            )
        except (OSError, KeyError, TypeError, json.JSONDecodeError) as exc:
            raise AgentError(f"{path} is not a vidmem eval report: {exc}") from exc

    def table(self) -> str:
        rows = [("all", self.overall), *self.by_type().items()]
        lines = [
            f"planner {self.planner} on {self.questions} (accuracy with its 95% Wilson interval)",
            f"{'type':<14}{'n':>4}{'accuracy [95% CI]':>19}{'prompt tok':>12}{'compl tok':>11}{'calls':>7}"
            f"{'s/answer':>10}",
        ]
        lines += [
            f"{name:<14}{s.n:>4}{s.ci_text:>19}{s.prompt_tokens_per_answer:>12.0f}"
            f"{s.completion_tokens_per_answer:>11.0f}{s.calls_per_answer:>7.1f}{s.seconds_per_answer:>10.1f}"
            for name, s in rows
        ]
        if self.failures():
            lines.append("failures: " + ", ".join(f"{k} {v}" for k, v in sorted(self.failures().items())))
        return "\n".join(lines)


def compare(a: Report, b: Report) -> str:
    """Per question type: accuracy and cost of `a` against `b`, on the questions both answered."""
    shared = {r.id for r in a.records} & {r.id for r in b.records}
    if not shared:
        raise AgentError("the two reports share no question ids")
    ra = Report(a.planner, a.questions, tuple(r for r in a.records if r.id in shared))
    rb = Report(b.planner, b.questions, tuple(r for r in b.records if r.id in shared))
    ta, tb = ra.by_type(), rb.by_type()
    lines = [
        f"{a.planner} (A) vs {b.planner} (B) on {len(shared)} shared questions (accuracy [95% Wilson interval])",
        f"{'type':<14}{'n':>4}{'acc A [CI]':>15}{'acc B [CI]':>15}{'Δacc':>8}{'tok A':>9}{'tok B':>9}{'calls A':>8}"
        f"{'calls B':>8}{'s A':>7}{'s B':>7}",
    ]

    def line(name: str, sa: Summary, sb: Summary) -> str:
        tok_a = sa.prompt_tokens_per_answer + sa.completion_tokens_per_answer
        tok_b = sb.prompt_tokens_per_answer + sb.completion_tokens_per_answer
        return (
            f"{name:<14}{sa.n:>4}{sa.ci_text:>15}{sb.ci_text:>15}{sa.accuracy - sb.accuracy:>+8.0%}"
            f"{tok_a:>9.0f}{tok_b:>9.0f}{sa.calls_per_answer:>8.1f}{sb.calls_per_answer:>8.1f}"
            f"{sa.seconds_per_answer:>7.1f}{sb.seconds_per_answer:>7.1f}"
        )

    lines.append(line("all", ra.overall, rb.overall))
    lines += [line(t, ta[t], tb[t]) for t in ta if t in tb]
    return "\n".join(lines)


def merge(reports: Iterable[Report]) -> list[dict[str, Any]]:
    """Overall summaries of several reports, for one table (e.g. every planner)."""
    return [{"planner": r.planner, **asdict(r.overall)} for r in reports]
