"""The SQL sub-agent loop (DoraemonGPT's sub-task tools), shared by When, Why, What, How, Count, Other.

A sub-task is data (`SubTask`, loaded from agents/prompts/sql/<name>.yaml): a name, a description
for the planner, a focus line, the tables it may see and its own few-shot question -> SQL examples.
`SqlSubAgent` runs any of them:

    1. prompt: instructions, only the sub-task's tables (`describe_schema`), the query library,
       the examples (stable, first), then the sub-question (last: prompt caches reuse the rest);
    2. the model writes SQL; `parsing.extract_sql` takes it out of whatever it wrote;
    3. `guard.guarded(memory).run` checks and runs it (read-only, row cap, time limit);
    4. a rejection, a DuckDB error or unreadable output goes back to the model, at most
       `max_repairs` times;
    5. the rows are summarized into an answer to the sub-question (by the model, except for
       empty or single-value results, which need no model), with Evidence: SQL, rows, times.

    class WhenTool(SqlSubAgent):
        subtask = SubTask.load("when")
"""

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from string import Template
from typing import Any, ClassVar, Literal

from agents.errors import AgentError, GuardError, ModelOutputError, SQLRunError
from agents.guard import GuardedSQL, guarded
from agents.llm import Message
from agents.parsing import extract_sql
from agents.prompts import load_yaml, render
from agents.steps import Evidence, Observation
from agents.tools.base import Tool, ToolContext, ToolInput, takes
from agents.tools.format import DATA_RULE, evidence_from_rows, quote_data, rows_text
from memory import describe_schema, metadata
from queries.sandbox import QueryResult

__all__ = ["SqlExample", "SqlSubAgent", "SubAgentSettings", "SubTask", "library_text", "render_example_sql"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SqlExample:
    question: str
    sql: str  # may say video_id = '$video_id'; see render_example_sql


@dataclass(frozen=True)
class SubTask:
    """One kind of sub-question and what its sub-agent is shown."""

    name: str
    description: str
    focus: str
    tables: tuple[str, ...]
    examples: tuple[SqlExample, ...]
    hide_columns: frozenset[str] = frozenset()
    library: tuple[str, ...] = ()  # views and macros of the `queries` library it is shown

    def __post_init__(self) -> None:
        unknown = [t for t in self.tables if t not in metadata.tables]
        if unknown:
            raise AgentError(f"sub-task {self.name!r} names unknown tables {unknown}; known: {sorted(metadata.tables)}")
        if not self.examples:
            raise AgentError(f"sub-task {self.name!r} has no few-shot examples")

    @classmethod
    def load(cls, name: str) -> "SubTask":
        """The sub-task defined in agents/prompts/sql/<name>.yaml."""
        data = load_yaml(f"sql/{name}")
        try:
            return cls(
                name=str(data["name"]),
                description=" ".join(str(data["description"]).split()),
                focus=" ".join(str(data.get("focus", "")).split()),
                tables=tuple(data["tables"]),
                examples=tuple(SqlExample(str(e["question"]), str(e["sql"]).strip()) for e in data["examples"]),
                hide_columns=frozenset(data.get("hide_columns", ())),
                library=tuple(data.get("library", ())),
            )
        except (KeyError, TypeError) as exc:
            raise AgentError(f"agents/prompts/sql/{name}.yaml lacks or misspells a field: {exc}") from exc

    def schema_text(self) -> str:
        """The sub-task's tables, described, without the columns it does not need."""
        hidden = self.hide_columns | {"video_id"}
        lines = []
        for line in describe_schema(self.tables).splitlines():
            column = line[2:].split(" ", 1)[0] if line.startswith("  ") else None
            if column is None or column not in hidden:
                lines.append(line)
        lines.append("(Every table also has video_id VARCHAR: the video the row belongs to.)")
        return "\n".join(lines)


def render_example_sql(sql: str, video_id: str | None) -> str | None:
    """An example's SQL for one video (`$video_id` filled in) or for all (the filter removed; None
    when the example needs one video, e.g. as a library macro's argument).

    >>> render_example_sql("SELECT * FROM t WHERE video_id = '$video_id' AND a = 1", None)
    'SELECT * FROM t WHERE a = 1'
    >>> render_example_sql("SELECT * FROM tracks_at('$video_id', 5)", None) is None
    True
    """
    if video_id is not None:
        return Template(sql).safe_substitute(video_id=video_id.replace("'", "''"))
    sql = re.sub(r"(?:\w+\.)?video_id = '\$video_id' AND ", "", sql)
    sql = re.sub(r"\s*WHERE (?:\w+\.)?video_id = '\$video_id'(?=\s|$)", "", sql)
    sql = re.sub(r"(?:\w+\.)?video_id = '\$video_id'", "true", sql)
    return None if "$video_id" in sql else sql


def library_text(runner: GuardedSQL, names: Sequence[str] | None = None) -> str:
    """The analyst query library as a prompt shows it: the `queries` package's description of the
    objects in `names` (all when None) that the runner can use; empty without any."""
    usable = runner.library_views | runner.library_functions
    wanted = [n for n in (names if names is not None else sorted(usable)) if n in usable]
    if not wanted:
        return ""
    try:
        import queries

        text = queries.describe_library(wanted).strip()
    except Exception as exc:  # the library is optional here: describe what is there by name
        log.debug("no library description (%s)", exc)
        text = ", ".join(wanted)
    return f"Library (use it like the tables):\n{text}\n"


@dataclass(frozen=True)
class SubAgentSettings:
    max_repairs: int = 2  # extra attempts after a rejected, failing or unreadable query
    max_rows: int = 50  # rows a query may return (the guard's row cap)
    rows_shown: int = 20  # rows the summarizing prompt sees
    rows_in_observation: int = 8  # rows quoted back to the planner
    timeout_s: float = 10.0  # per query
    sql_max_tokens: int = 300
    summary_max_tokens: int = 150
    #: 'auto': no model call for an empty or single-value result; 'always' / 'never'.
    summarize: Literal["auto", "always", "never"] = "auto"

    def __post_init__(self) -> None:
        if self.max_repairs < 0 or self.max_rows < 1 or self.rows_shown < 1 or self.timeout_s <= 0:
            raise AgentError(f"invalid sub-agent settings: {self}")


@dataclass
class _Attempt:
    sql: str | None
    error: str | None = None
    result: QueryResult | None = None


@dataclass
class _Run:
    attempts: list[_Attempt] = field(default_factory=list)

    @property
    def result(self) -> QueryResult | None:
        return self.attempts[-1].result if self.attempts else None


class SqlSubAgent(Tool):
    """A `Tool` that answers a sub-question by writing SQL over the memory (see module docstring)."""

    subtask: ClassVar[SubTask]
    output_type = "answer, SQL and rows"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "subtask" in cls.__dict__:
            cls.name = cls.subtask.name
            cls.description = cls.subtask.description
            cls.inputs = takes(question=ToolInput("string", "the sub-question"))

    def __init__(self, settings: SubAgentSettings | None = None) -> None:
        self.settings = settings or SubAgentSettings()

    # -- prompt ------------------------------------------------------------------------------
    def messages(self, question: str, ctx: ToolContext, runner: GuardedSQL) -> list[Message]:
        rendered = [(e.question, render_example_sql(e.sql, ctx.video_id)) for e in self.subtask.examples]
        examples = "\n\n".join(f"Q: {q}\n```sql\n{sql}\n```" for q, sql in rendered if sql is not None)
        system = render(
            "sql/subagent:system",
            name=self.subtask.name.upper(),
            focus=self.subtask.focus,
            schema=self.subtask.schema_text(),
            library=library_text(runner, self.subtask.library),
            examples=examples,
        )
        scope = (
            f"Video: {ctx.video_id} (filter every table on video_id = '{ctx.video_id}')"
            if ctx.video_id
            else "All videos in the memory (group or filter by video_id when it matters)."
        )
        user = render("sql/subagent:question", scope=scope, question=question.strip())
        return [Message("system", system), Message("user", user)]

    # -- the tool ----------------------------------------------------------------------------
    def forward(self, ctx: ToolContext, question: str) -> Observation:
        runner = guarded(ctx.memory)
        run = self._write_and_run(question, ctx, runner)
        result = run.result
        if result is None:
            last = run.attempts[-1]
            tried = [Evidence(self.name, sql=a.sql, note=f"failed: {a.error}") for a in run.attempts if a.sql]
            # DuckDB's messages can quote stored values (a failed cast shows the text): data too.
            return Observation(
                "",
                evidence=tuple(tried),
                error=f"{self.name} could not write a working query in {len(run.attempts)} tries; rephrase the "
                "sub-question or use another tool. Last problem:\n" + quote_data(str(last.error), "error message"),
            )
        answer = self._summarize(question, result, ctx)
        cap = "byte cap" if result.truncated_by == "bytes" else "row cap"
        note = f"{len(result.rows)} rows{f' (more left out: {cap})' if result.truncated else ''}"
        evidence = evidence_from_rows(
            self.name, result.columns, result.rows, sql=result.sql, video_id=ctx.video_id, note=note
        )
        shown = self.settings.rows_in_observation
        # Whatever the result's shape, the answer (a summary of rows, or the one value) and the
        # rows reach the model only inside data fences.
        text = (
            quote_data(answer, "answer from the query result")
            + f"\nSQL: {' '.join(result.sql.split())}\n"
            + quote_data(rows_text(result.columns, result.rows, limit=shown), f"query result, {note}")
        )
        return Observation(text, evidence=(evidence,))

    def _write_and_run(self, question: str, ctx: ToolContext, runner: GuardedSQL) -> _Run:
        messages = self.messages(question, ctx, runner)
        run = _Run()
        for _ in range(1 + self.settings.max_repairs):
            reply = ctx.llm.complete(messages, max_tokens=self.settings.sql_max_tokens, temperature=0.0)
            attempt = _Attempt(sql=None)
            try:
                attempt.sql = extract_sql(reply.text)
                attempt.result = runner.run(
                    attempt.sql, max_rows=self.settings.max_rows, timeout_s=self.settings.timeout_s
                )
            except (ModelOutputError, GuardError, SQLRunError) as exc:
                attempt.error = str(exc)
            run.attempts.append(attempt)
            if attempt.result is not None:
                break
            log.debug("%s: attempt %d failed: %s", self.name, len(run.attempts), attempt.error)
            messages = [
                *messages,
                Message("assistant", reply.text.strip() or "(empty reply)"),
                Message("user", render("sql/subagent:repair", error=attempt.error)),
            ]
        return run

    def _summarize(self, question: str, result: QueryResult, ctx: ToolContext) -> str:
        mode = self.settings.summarize
        if mode == "never" or (mode == "auto" and not result.rows):
            return (
                "No rows matched: the memory holds nothing for this query."
                if not result.rows
                else (f"The query returned {len(result.rows)} rows.")
            )
        if mode == "auto" and len(result.rows) == 1 and len(result.columns) == 1:
            return f"{result.columns[0]} = {rows_text(result.columns, result.rows).splitlines()[1]}"  # fenced by run()
        rows = quote_data(
            rows_text(result.columns, result.rows, limit=self.settings.rows_shown),
            f"{len(result.rows)}{'+' if result.truncated else ''} rows from the memory",
        )
        messages = [
            Message("system", render("sql/subagent:summary_system", data_rule=DATA_RULE)),
            Message(
                "user",
                render("sql/subagent:summary_user", question=question, sql=" ".join(result.sql.split()), rows=rows),
            ),
        ]
        reply = ctx.llm.complete(messages, max_tokens=self.settings.summary_max_tokens, temperature=0.0)
        return reply.text.strip() or f"The query returned {len(result.rows)} rows."
