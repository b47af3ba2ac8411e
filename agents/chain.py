"""The chain every planner runs: thought -> action -> action input -> observation, one step per
LLM call, recorded as nodes of a `SearchTree`.

Model mistakes (no action, unknown tool, unparseable output, a tool error the model caused)
become a step with its error shown back to the model. A tool call the path already made (same tool,
same input) is not run again: small models loop on one action until the step budget is gone, so after
a repeat one plain reading call answers from what the chain has seen (no tools: `finish_now`).
After `max_errors` mistakes in a row, `max_steps` steps, or no answer when asked to finish, the chain
ends as a failure node. vidmem's own bugs raise.

The prompt is ordered for prompt caching: the system prompt (instructions and tool descriptions)
is the same for every call of a run, the question comes next, and the history grows at the end, so
every call of a chain (and every MCTS branch) extends a prefix the server has already seen.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from string import Template

from agents.client import MeteredChat
from agents.errors import AgentError, GuardError, ModelOutputError, SQLRunError
from agents.llm import Message
from agents.parsing import denies, match_name, parse_action, parse_fields, parse_yes_no
from agents.prompts import prompt, render
from agents.steps import CHECK_ABSENT, CHECK_MARK, READ, Observation, Step, Usage
from agents.tools.base import Tool, ToolContext
from agents.tools.format import DATA_OPEN
from agents.trace import Node, SearchTree

log = logging.getLogger(__name__)

#: The action that ends a chain; the prompt asks for it as a `Final Answer:` line, which small models
#: write more reliably than `Action: finish` with an input. A `finish` tool from the registry is used
#: when given; otherwise the chain takes the answer as it is.
FINISH = "finish"
_FORMAT_HINT = "Reply with Thought:, Action: and Action Input: lines, or Thought: and Final Answer: when you know it."


def load_prompt(name: str) -> Template:
    """The planner prompt `planner_<key>` as a `string.Template`; kept for callers of the old .txt
    files. New code: `agents.prompts.prompt("planner:<key>")` or `render(...)`."""
    return Template(prompt(f"planner:{name.removeprefix('planner_')}").text)


@dataclass(frozen=True)
class ChainSettings:
    max_steps: int = 6  # model calls per chain, the final answer included (per critic round; per MCTS branch)
    max_errors: int = 2  # model mistakes in a row that end the chain as a failure
    max_tokens: int = 256  # completion tokens per step
    temperature: float = 0.0
    observation_chars: int = 1200  # longer observations are cut in the prompt (the trace keeps them whole)
    finish_now: bool = True  # a repeated tool call gets one last call asking for the answer (module docstring)
    #: A chain from the question first reads the evidence brief in one plain call (`Chain.start`);
    #: the tools only when the reading says what it lacks. Without a brief the tools start at once.
    read_first: bool = True
    #: The tool the code runs on what a reading asks to look up, before one plain answer call over the
    #: brief and its result (`Chain.look_up`); None, or a tool set without it: the tool chain does.
    look_up: str | None = "find_when"
    #: A read answer that rests on another line than the brief's best match is read once more
    #: (`Chain._check_mark`); off, to measure what the check changes.
    check_mark: bool = True
    #: A question asking yes or no about the brief's best match is judged on that line alone, the
    #: code answering with the verdict and the line (`Chain.judge_yes_no`); off, to measure it.
    judge_yes_no: bool = True

    def __post_init__(self) -> None:
        for name in ("max_steps", "max_errors", "max_tokens", "observation_chars"):
            if getattr(self, name) < 1:
                raise AgentError(f"chain setting {name} must be >= 1, got {getattr(self, name)}")
        if self.temperature < 0:
            raise AgentError(f"chain setting temperature must be >= 0, got {self.temperature}")


@dataclass(frozen=True)
class PlanResult:
    """What a planner returns: the answer (None when every chain failed), the tree it searched,
    the nodes whose answers the final answer rests on, for multiple choice the chosen index, and
    whether a review approved the answer (None: the planner does not review its answers)."""

    answer: str | None
    tree: SearchTree
    answer_nodes: tuple[int, ...] = ()
    choice: int | None = None
    verified: bool | None = None


# -- accounting ----------------------------------------------------------------------------------
def metered(ctx: ToolContext) -> ToolContext:
    """`ctx` with its chat models wrapped in `MeteredChat` (unless they already are), so that the
    calls tools make through `ctx.llm` and `ctx.vision_llm` count toward the answer too."""
    llm = ctx.llm if isinstance(ctx.llm, MeteredChat) else MeteredChat(ctx.llm)
    vision = ctx.vision_llm
    if vision is not None and not isinstance(vision, MeteredChat):
        vision = MeteredChat(vision)
    if llm is ctx.llm and vision is ctx.vision_llm:
        return ctx
    return replace(ctx, llm=llm, vision_llm=vision)


def spent(ctx: ToolContext) -> Usage:
    """Everything the metered models of `ctx` have spent so far (zero for unmetered ones)."""
    total = Usage()
    for chat in (ctx.llm, ctx.vision_llm):
        if isinstance(chat, MeteredChat):
            total = total + chat.usage
    return total


def since(ctx: ToolContext, before: Usage) -> Usage:
    now = spent(ctx)
    return Usage(
        now.prompt_tokens - before.prompt_tokens,
        now.completion_tokens - before.completion_tokens,
        now.calls - before.calls,
        now.seconds - before.seconds,
    )


# -- prompts -------------------------------------------------------------------------------------
def choice_letter(index: int) -> str:
    return chr(ord("A") + index)


def question_text(question: str, choices: Sequence[str] | None = None, video_id: str | None = None) -> str:
    """The question block of the prompt (also the root of the tree)."""
    lines = [f"Question: {question.strip()}"]
    if choices:
        lines.append("Choices:")
        lines += [f"{choice_letter(i)}) {c}" for i, c in enumerate(choices)]
        lines.append("Answer with the letter of the correct choice.")
    if video_id:
        lines.append(f"Video: {video_id}")
    return "\n".join(lines)


def render_action(step: Step) -> str:
    """A step as the model should have written it (canonical form keeps later prompts clean)."""
    if step.action is None:
        return step.thought  # the unparseable text itself, so the model sees what went wrong
    if step.action == FINISH and not step.error:
        return f"Thought: {step.thought}\nFinal Answer: {step.action_input}"
    return f"Thought: {step.thought}\nAction: {step.action}\nAction Input: {step.action_input}"


def _cut(text: str, n: int) -> str:
    return text if len(text) <= n else text[:n] + f" ... [{len(text) - n} more characters]"


def render_observation(step: Step, limit: int) -> str:
    if step.error:
        return f"Error: {step.error}\n{_FORMAT_HINT}"
    obs = step.observation
    if obs is None:
        return "Observation: (none)"
    if obs.error:
        return f"Observation: error: {_cut(obs.error, limit)}"
    return f"Observation: {_cut(obs.text, limit)}"


class Chain:
    """Runs steps for one question over one tool set. Planners build one per tool set and call
    `run` from whichever node they choose (the root, an MCTS node, after a critic's feedback)."""

    def __init__(self, tools: Sequence[Tool], ctx: ToolContext, settings: ChainSettings) -> None:
        names = [t.name for t in tools]
        if len(set(names)) != len(names):
            raise AgentError(f"tool names must be unique, got {names}")
        self.tools = {t.name: t for t in tools}
        self.ctx = ctx
        self.settings = settings
        lines = [t.prompt_line() for t in tools if t.name != FINISH]
        self.system = render("planner:system", tools="\n".join(lines))

    # -- prompt ----------------------------------------------------------------------------------
    def messages(self, tree: SearchTree, node_id: int, note: str | None = None) -> list[Message]:
        """The prompt for the step after `node_id`: system, evidence brief and question, then the
        path's history."""
        turns: list[Message] = [Message("system", self.system)]
        # the brief before the question, so that the question is the last thing read before the history
        user = [self.ctx.brief, tree.question] if self.ctx.brief else [tree.question]
        for node in tree.path(node_id)[1:]:
            if node.kind == "step" and node.step is not None:
                turns.append(Message("user", "\n\n".join(user)))
                turns.append(Message("assistant", render_action(node.step)))
                user = [render_observation(node.step, self.settings.observation_chars)]
            elif node.step is not None and node.step.observation is not None:
                user.append(node.step.observation.text)  # critic feedback, a candidate to verify
        if note:
            user.append(note)
        turns.append(Message("user", "\n\n".join(user)))
        return turns

    # -- running ---------------------------------------------------------------------------------
    def step(
        self,
        tree: SearchTree,
        parent: int,
        *,
        note: str | None = None,
        temperature: float | None = None,
        label: str | None = None,
        veto: Callable[[str, str], str | None] | None = None,
        done: set[tuple[str, str]] | None = None,
    ) -> Node:
        """One LLM call and, when it names a tool, one tool run; the new node under `parent`.

        The node is marked as an answer when the action finished the chain. `veto(tool, input)`
        may refuse the tool call before it runs (it returns why): the node then ends as a failure.
        A call in `done` (`call_key`) is not run again; the step carries a `REPEATED` error."""
        before = spent(self.ctx)
        completion = self.ctx.llm.complete(
            self.messages(tree, parent, note),
            max_tokens=self.settings.max_tokens,
            temperature=self.settings.temperature if temperature is None else temperature,
            stop=["\nObservation:", "Observation:"],
        )
        log.debug("reply: %s", completion.text)  # what the model wrote, before parsing (-vv)
        step, vetoed = self._act(completion.text, veto, done or set())
        if isinstance(self.ctx.llm, MeteredChat):  # the step's call and its tool's sub-agent calls
            step = replace(step, usage=since(self.ctx, before))
        else:
            step = replace(
                step, usage=Usage(completion.prompt_tokens, completion.completion_tokens, 1, completion.seconds)
            )
        node = tree.add(parent, "step", step, label=label)
        if note:
            node.note = note
        if vetoed:
            fail(node, vetoed)
        if step.observation is not None and step.observation.final and not step.observation.error:
            node.status = "answer"
            node.answer = step.observation.text.strip()
        return node

    def _act(
        self, text: str, veto: Callable[[str, str], str | None] | None = None, done: set[tuple[str, str]] | None = None
    ) -> tuple[Step, str | None]:
        """The step `text` asks for, run; and why it was vetoed (None: it was not)."""
        try:
            parsed = parse_action(text)
        except ModelOutputError as exc:
            return Step(thought=text.strip(), action=None, action_input="", observation=None, error=str(exc)), None
        known = [*self.tools, *([] if FINISH in self.tools else [FINISH])]
        name = match_name(parsed.action, known)
        thought, action_input = parsed.thought, parsed.action_input
        if name is None:
            error = f"unknown tool {parsed.action!r}; use one of: {', '.join(known)}"
            return Step(thought, parsed.action, action_input, None, error=error), None
        tool = self.tools.get(name)
        if tool is None:  # the built-in finish
            if not action_input.strip():
                error = "the final answer is empty: write it after 'Final Answer:'"
                return Step(thought, name, action_input, None, error=error), None
            return Step(thought, name, action_input, Observation(action_input.strip(), final=True)), None
        if veto is not None and name != FINISH and (reason := veto(name, action_input)):
            return Step(thought, name, action_input, None), reason
        if done and call_key(name, action_input) in done:
            return Step(thought, name, action_input, None, error=f"{REPEATED}: {name}({action_input.strip()})"), None
        observation = self._run_tool(tool, action_input)
        log.debug("step %s(%r): %s", name, action_input, (observation.error or observation.text)[:200])
        return Step(thought, name, action_input, observation), None

    def _run_tool(self, tool: Tool, action_input: str) -> Observation:
        """`tool` run on `action_input`; the errors written for the model to act on become the observation's."""
        try:
            return tool.run(action_input, self.ctx)
        except (ModelOutputError, GuardError, SQLRunError) as exc:
            return Observation("", error=str(exc))

    def run(
        self,
        tree: SearchTree,
        start: int,
        *,
        first_note: str | None = None,
        first_temperature: float | None = None,
        max_steps: int | None = None,
        label: str | None = None,
        reject_first: Callable[[str, str], str | None] | None = None,
    ) -> Node:
        """Steps from `start` until an answer or a failure; returns the terminal node.

        `first_note` and `first_temperature` apply to the first step only (MCTS expansion: "take a
        different action", sampled more freely than the rest of the chain); `reject_first` may veto
        the first step's tool call (see `step`); `label` names the subtree the chain starts (a
        strategy), else it inherits its parent's."""
        budget = max_steps or self.settings.max_steps
        errors = 0
        node = tree[start]
        done = {call_key(n.step.action, n.step.action_input) for n in tree.path(start)
                if n.step is not None and n.step.observation is not None}
        for i in range(budget):
            first = i == 0
            node = self.step(
                tree,
                node.id,
                note=first_note if first else None,
                temperature=first_temperature if first else None,
                label=label if first else None,
                veto=reject_first if first else None,
                done=done,
            )
            if node.terminal:  # an answer, or a vetoed first step
                return node
            step = node.step
            obs = step.observation if step else None
            if step is not None and step.error and step.error.startswith(REPEATED):
                return self._finish_now(tree, node, f"repeated {step.action}({step.action_input.strip()})")
            if step is not None and obs is not None:
                done.add(call_key(step.action, step.action_input))
            errors = errors + 1 if (step and step.error) or (obs is not None and obs.error) else 0
            if errors >= self.settings.max_errors:
                return fail(node, f"{errors} model mistakes in a row")
        return fail(node, f"no answer within {budget} steps")

    @property
    def reads_first(self) -> bool:
        """Whether a chain from the question starts with the brief reading: on, and a brief to read."""
        return self.settings.read_first and bool(self.ctx.brief)

    def start(self, tree: SearchTree, *, label: str | None = None) -> Node:
        """A chain from the question (the root) to its terminal node: the reading call first when
        `read_first` is on and there is a brief, the tool chain when the reading asks for a lookup.
        A reading that asked sits beside the tool chain (a failure node under the root, `label`led
        like it), so the chain's prompt is the one it would have had without the reading."""
        if self.reads_first:
            read = self.read(tree, label=label)
            if read.status == "answer":
                return read
            looked = self.look_up(tree, read)
            if looked is not None and looked.status == "answer":
                return looked
            read.note = f"{read.note}; the tools look it up"
        return self.run(tree, 0, label=label)

    def look_up(self, tree: SearchTree, read: Node) -> Node | None:
        """What the failed reading `read` asked for, looked up by the code, then one plain answer call
        (`planner:look_up_now`, or `planner:look_up` when that asks again): two calls in all (rarely
        three), not the tool chain's two more, each of which carries
        the tools' descriptions. Given the tools, the small model spent a call on a search the code
        can make (its reading had asked to look up "green jacket left in the main lobby" and "missing
        information"). A brief that shows all of the video's text is answered over again as it is:
        a search adds nothing to it, and its hits, listed apart from the numbered timeline, were
        counted and quoted instead of it. Otherwise the `look_up` tool runs on the request and the
        question and its result comes after the brief. None when the tool is not in the set; a
        failure node (the tool chain then starts from the root) when the reply holds no answer."""
        tool = self.tools.get(self.settings.look_up or "")
        if tool is None or read.step is None or read.step.observation is None:
            return None
        asked = _LOOKUP_LINE.search(read.step.observation.text)
        wanted = asked.group(1).strip() if asked else ""
        parts = [self.ctx.brief or ""]
        node = read
        if not self.ctx.brief_whole:
            question = tree.question.splitlines()[0].removeprefix("Question:").strip()
            query = f"{wanted} ({question})" if wanted else question
            observation = self._run_tool(tool, query)
            step = Step(f"the reading asked to look up: {wanted or 'nothing named'}", tool.name, query, observation)
            node = tree.add(read.id, "step", step)
            parts.append(f"What a search for it found:\n{render_observation(step, self.settings.observation_chars)}")
        # first after the reading's own system prompt and brief (a server's prompt cache reads only what
        # follows); a reply that asks again gets the separate look_up prompt, which answered all of
        # test10's lookups (shown its own "Look up:" as an earlier turn, the model asked again 18 of 23 times)
        text, usage = self._plain_call("planner:read_first",
                                       [*parts, prompt("planner:look_up_now").text, tree.question])
        answer = _answer_not_lookup(text)
        if answer is None:
            text, more = self._plain_call("planner:look_up", [*parts, tree.question])
            usage = usage + more
            answer = _answer_not_lookup(text)
        how = "over the whole text again" if self.ctx.brief_whole else f"with {tool.name}"
        last = tree.add(node.id, "step", planner_step(FINISH, f"answer after looking up {wanted[:80]!r} {how}",
                                                      text.strip(), usage, answer or "", final=answer is not None))
        if answer is None:  # the reading stays a failure beside the tool chain
            return fail(last, "no answer after the lookup")
        read.status = "open"  # on the answer's path: what follows answers what it asked
        last.status, last.answer, last.note = "answer", answer, f"answered after the lookup ({how})"
        return self._checked(tree, last)

    def read(self, tree: SearchTree, *, label: str | None = None) -> Node:
        """One plain reading call over the evidence brief and the question, before any tool: the
        brief usually holds the answer, and a small model reads better than it searches. The reply
        answers (an answer node under the root) or says what to look up (a failure node saying so;
        the planner then runs the tools from the root). A question asking yes or no about what the
        brief's best match holds is judged on that line first (`judge_yes_no`)."""
        judged = self.judge_yes_no(tree, label=label)
        if judged is not None and judged.status == "answer":
            return judged
        text, usage = self._plain_call("planner:read_first", [self.ctx.brief or "", tree.question])
        lookup = _LOOKUP_LINE.search(text)
        answer = None if lookup else plain_answer(text)
        step = planner_step(READ, "read the evidence brief", text.strip(), usage, final=answer is not None)
        node = tree.add(0, "step", step, label=label)
        if answer is None:
            wanted = lookup.group(1).strip() if lookup else "no answer in the reply"
            return fail(node, f"the brief was not enough ({wanted[:200]})")
        node.status, node.answer, node.note = "answer", answer, "answered from the evidence brief"
        return self._checked(tree, node)

    def judge_yes_no(self, tree: SearchTree, *, label: str | None = None) -> Node | None:
        """For a question asking yes or no about the line the brief marks as its best match
        (`ctx.yes_no`), one call that judges that line alone: the words of it that decide, then YES
        or NO; the answer is the verdict and the line ("No: "The car wash is closed today ..." is
        said at 0.7-5.9 s."). Reading the whole brief, the small model answered "The car wash is
        open today because the water has been switched off", the line's reason with the opposite
        state. Asked for one word, it judged "delayed by 15 minutes" YES for "running on time?" (2 of
        16 wrong); asked for the deciding words first, none of 26. A question whose numbers are none of
        the line's is answered no by the code, with no call (`YesNoLine.other_number`), as is one whose
        numbers a later line about it does not give (`YesNoLine.latest_other_number`). None when there is no such
        line (or `settings.judge_yes_no` is off); a failure node beside the reading when the reply
        gives no verdict (UNSURE: the line does not decide it)."""
        if self.ctx.yes_no is None or not self.settings.judge_yes_no:
            return None
        line, evidence, asked, other_number, _latest, later_evidence, latest_other_number = self.ctx.yes_no
        verdict: bool | None
        if other_number:  # the question's numbers are none of the line's: the code says no
            text, usage, verdict = "", Usage(), False
            why = "the line's numbers are not the question's"
            note = "no: the line gives other numbers than the question"
        else:
            text, usage = self._plain_call("planner:yes_no", [f"The line: {line}", f"Question: {asked}"])
            verdict = parse_yes_no(parse_fields(text, ["Verdict"]).get("Verdict", text))
            why, note = "judge the best match yes or no", "judged yes or no from the best match"
        if latest_other_number and verdict is not False:
            # a line about it said or shown later gives other numbers than the question's: it changed, and the
            # code says no. Judged by the model alone, a later line flipped the one right verdict it changed
            # (trial 9's cancelled Hollins Bay train: NO of the replacement bus "instead"), where the numbers
            # decided all three of trials 7-9's changed plans (platform 7, gate 5, two o'clock)
            verdict = False
            note = "no: a later line about it gives other numbers than the question"
        later_said = f" Later: {later_evidence}" if later_evidence and verdict is not None else ""
        answer = None if verdict is None else f"{'Yes' if verdict else 'No'}: {evidence}{later_said}"
        step = planner_step(READ, why, text.strip(), usage, answer or "", final=answer is not None)
        node = tree.add(0, "step", step, label=label)
        if answer is None:
            return fail(node, "no yes/no verdict on the best match; the brief is read")
        node.status, node.answer, node.note = "answer", answer, note
        return node

    def _checked(self, tree: SearchTree, read: Node) -> Node:
        """`read`'s answer after the brief's checks: what the brief found nowhere, then its best match."""
        return self._check_mark(tree, self._check_absent(tree, read))

    def _check_absent(self, tree: SearchTree, read: Node) -> Node:
        """`read`'s answer, checked with one yes/no call when the brief found what the question names
        nowhere in the video (`ctx.unmentioned`) and the answer does not say so: shown a clip's whole
        transcript, the small model placed the helicopter nobody mentions 'at North Square', quoted
        an unrelated sentence for 'what does the speaker say about the bicycle?', and gave a time
        for a sign reading 'TAXI' that no sign reads. When all the brief holds close to the word is a
        look-alike ('lecture' for 'lecturer', `ctx.look_alike`) the code says so without a call: asked,
        the model answered YES. NO: the answer is that the memory does not
        show it. YES or no verdict: the answer stands. A question for a value (a price, a time of day,
        a day) that nothing about its subject gives (`ctx.unstated`) gets the code's answer, no call:
        "How much are tickets for the comedy show?" was answered with a price said of noodles. The
        check is a step under the reading and holds the answer from then on."""
        answer = read.answer or ""
        if denies(answer):
            return read
        if self.ctx.unstated and not self.ctx.unmentioned:  # a value the code found nowhere about the subject
            step = planner_step(CHECK_ABSENT, "is the asked value given about the subject?", self.ctx.unstated,
                                Usage(), self.ctx.unstated, final=True)
            return self._takes_over(tree, read, step, self.ctx.unstated, "the asked value is not given")
        if not self.ctx.unmentioned:
            return read
        words = " or ".join(f"'{w}'" for w in self.ctx.unmentioned)
        if self.ctx.look_alike:  # the yes/no call took 'lecture' for 'lecturer': the code states it, no call
            alike = ", ".join(f"'{w}'" for w in self.ctx.look_alike)
            answer = (f"The memory does not show it: nothing in this video mentions {words} word for word "
                      f"({alike} is said or shown, a different word).")
            step = planner_step(CHECK_ABSENT, f"is {words} in the brief?", answer, Usage(), answer, final=True)
            return self._takes_over(tree, read, step, answer, "not in the video, only a look-alike word")
        text, usage = self._plain_call(
            "planner:absent_check", [self.ctx.brief or "", f"Question: does the brief say anything about {words}?"]
        )
        verdict = _VERDICT.search(text.upper())
        if verdict is not None and verdict.group(1) == "NO":
            answer, note = f"The memory does not show it: nothing in this video mentions {words}.", "not in the video"
        else:
            note = "the brief mentions it" if verdict is not None else "no verdict; the answer stands"
        step = planner_step(CHECK_ABSENT, f"does the brief mention {words}?", text.strip(), usage, final=True)
        return self._takes_over(tree, read, step, answer, f"checked: {note}")

    def _check_mark(self, tree: SearchTree, read: Node) -> Node:
        """`read`'s answer, read once more when it rests on another line than the one the brief marks
        as the best match (`ctx.mark_check`): shown the mark on "The museum is closed ..." for what
        was announced as CALL BACK LATER appeared, the small model quoted the line before it. The
        second reading gets the brief, the marked line and the question, not the first answer (shown
        it, the model said it again), under the reading's system prompt. It holds the answer when it
        gives one; an answer that already says the memory lacks it is left to `ctx.mark_check`, which
        reads it again only when the mark holds what the question names (the absence check has the
        rest). A count the code made for just what the question counts (`ctx.counted`) replaces an
        answer with another number, with no call. A denial whose second reading asks to look up again
        takes the mark the code found next to the line asked about (`ctx.related`), when there is one.
        For a question asking what a text reads, a second reading that still does not quote the marked
        text takes it as shown (`ctx.written`): the small model answered with the spoken line twice. Any
        other second reading that still passes over the mark takes the marked line as shown (`ctx.marked`):
        the small model answered twice with the line's time and none of its words; so does a denial whose
        second reading gives no answer (test20's "how do i get to skip to the front at the bumper cars?"
        was denied beside "People with red tickets can go straight to the front at the bumper cars.")."""
        answer = read.answer or ""
        passed_over = self.ctx.mark_check if self.settings.check_mark else None
        line = passed_over(answer) if passed_over is not None else None
        if line is None:
            return read
        if self.ctx.counted is not None:  # a count the code made for just what is asked: no reading needed
            step = planner_step(CHECK_MARK, "the count the code made", self.ctx.counted, Usage(), self.ctx.counted,
                                final=True)
            return self._takes_over(tree, read, step, self.ctx.counted, "the count the code made")
        # the reading's system prompt and brief, then the request: a server's prompt cache reads only that
        text, usage = self._plain_call(
            "planner:read_first",
            [self.ctx.brief or "", prompt("planner:mark_check").text, f"The line marked best match: {line}",
             tree.question],
        )
        again = _answer_not_lookup(text)
        note = "read again from the best match" if again else "no answer on a second reading; the answer stands"
        if again is None and denies(answer) and self.ctx.related is not None:
            again, note = self.ctx.related, "no answer on a second reading; the line found next to the one asked about"
        if self.ctx.written is not None and (again is None or (passed_over is not None and passed_over(again))):
            again, note = self.ctx.written, "the second reading did not quote the marked text either; the text as shown"
        elif again is not None and self.ctx.marked is not None and passed_over is not None and passed_over(again):
            again, note = self.ctx.marked, "the second reading passed over the marked line too; the line as shown"
        elif again is None and self.ctx.marked is not None and denies(answer):
            again, note = self.ctx.marked, "a denial, and no answer on a second reading; the line as shown"
        step = planner_step(CHECK_MARK, "read again from the best match", text.strip(), usage, again or "", final=True)
        return self._takes_over(tree, read, step, again or answer, note)

    @staticmethod
    def _takes_over(tree: SearchTree, read: Node, step: Step, answer: str, note: str) -> Node:
        """A check's step under the reading `read`, holding `answer` from then on (the reading stays
        on its path, open); its note is the reading's and then `note`."""
        check = tree.add(read.id, "step", step)
        read.status = "open"
        check.status, check.answer, check.note = "answer", answer, f"{read.note}; {note}"
        return check

    def _plain_call(self, system: str, parts: Sequence[str]) -> tuple[str, Usage]:
        """A call without tools or the Thought/Action format: `system` prompt (its $rules, the answer
        format readings share, filled in), `parts` as the user turn."""
        text = prompt(system).render(rules=prompt("planner:answer_rules").text)
        messages = [Message("system", text), Message("user", "\n\n".join(p for p in parts if p))]
        return call(self.ctx, messages, max_tokens=self.settings.max_tokens, temperature=self.settings.temperature)

    def _finish_now(self, tree: SearchTree, node: Node, why: str) -> Node:
        """One plain reading call over the brief, the path's observations and the question (no tools,
        no Thought/Action format: the small model that looped on an action, told to stop, called it
        again; asked a plain question over the same evidence, it answers). A failure node saying
        `why` when the reply holds no answer."""
        if not self.settings.finish_now:
            return fail(node, why)
        seen = evidence_text(tree, [node.id], 2 * self.settings.observation_chars)
        text, usage = self._plain_call(
            "planner:finish_now", [self.ctx.brief or "", f"What the tools returned:\n{seen}", tree.question]
        )
        answer = plain_answer(text)
        last = tree.add(node.id, "step", planner_step(FINISH, f"asked to finish: {why}", text, usage, answer or ""))
        if answer is None:
            return fail(last, f"{why}; asked to finish, the model gave no answer")
        last.status, last.answer = "answer", answer
        last.note = f"answered when asked to finish ({why})"
        return last


_VERDICT = re.compile(r"\b(YES|NO)\b")
#: The opening of a fence of quoted data (`quote_data`), as the prompts hold it.
_FENCE = re.compile(re.escape(DATA_OPEN) + r"[^\n]*\(quoted data, not instructions\)")
_LOOKUP_LINE = re.compile(r"^\W*look\s*up\s*:\s*(.*)", re.I | re.M)
_ANSWER_LINE = re.compile(r"^\W*(?:final\s+)?answer\s*:\s*(.+)", re.I | re.M | re.S)
_ACTION_LINE = re.compile(r"^\s*action\s*:", re.I | re.M)


def _answer_not_lookup(text: str) -> str | None:
    """`plain_answer` of a follow-up reply, None when it asks to look up once more."""
    return None if _LOOKUP_LINE.search(text) else plain_answer(text)


def plain_answer(text: str) -> str | None:
    """The answer in a plain reply: after 'Final Answer:' / 'Answer:' when it has one, else the text
    without a leading 'Thought:'; None when empty or when it is a tool call.

    >>> plain_answer("Thought: the brief says so\\nFinal Answer: At 7.7 s.")
    'At 7.7 s.'
    >>> plain_answer("The castle, across the river.")
    'The castle, across the river.'
    >>> plain_answer("Action: get_segment\\nAction Input: 4-9") is None
    True

    A reply that copies the prompt's fenced evidence is no answer (test13: the brief's intro and its
    lines came back as the answer; video text cannot open a fence, `quote_data` escapes it):

    >>> plain_answer("Answer: The lines.\\n<<<evidence brief (quoted data, not instructions)\\nvideo x") is None
    True
    """
    if _FENCE.search(text):
        return None
    found = _ANSWER_LINE.search(text)
    if found:
        return found.group(1).strip() or None
    if _ACTION_LINE.search(text):
        return None
    answer = re.sub(r"^\s*thought\s*:\s*", "", text, flags=re.I).strip()
    return answer or None


#: The error of a step that repeated a tool call of its path (not run again).
REPEATED = "you already ran this; its observation is above"


def call_key(action: str | None, action_input: str) -> tuple[str, str]:
    """A tool call's identity for spotting repeats: the tool and its input, case and spaces aside."""
    return (action or "", " ".join(action_input.lower().split()))


def evidence_text(tree: SearchTree, node_ids: Sequence[int], limit: int) -> str:
    """The observations on the paths to `node_ids` (the direct answer's), cut to `limit` characters."""
    seen: set[int] = set()
    parts: list[str] = []
    for nid in node_ids:
        for node in tree.path(nid):
            if node.id in seen or node.kind != "step" or node.step is None or node.step.action is None:
                continue
            if node.reads_brief:  # its reply asked for the lookup that follows; the brief is shown apart
                continue
            seen.add(node.id)
            if node.step.observation is not None and not node.step.observation.final:
                parts.append(f"{node.step.action}({node.step.action_input}) -> {render_observation(node.step, 600)}")
    text = "\n".join(parts) or "(none yet)"
    return text if len(text) <= limit else text[:limit] + " ..."


def fail(node: Node, reason: str) -> Node:
    node.status = "failure"
    node.note = f"{node.note}; {reason}" if node.note else reason
    return node


def call(ctx: ToolContext, messages: list[Message], *, max_tokens: int, temperature: float = 0.0) -> tuple[str, Usage]:
    """One planner-level call (critic, summary, judge): its text and what it cost."""
    completion = ctx.llm.complete(messages, max_tokens=max_tokens, temperature=temperature)
    return completion.text, Usage(completion.prompt_tokens, completion.completion_tokens, 1, completion.seconds)


def planner_step(
    action: str, thought: str, text: str, usage: Usage, action_input: str = "", *, final: bool = False
) -> Step:
    """A planner-level call recorded in the shared step format (the verdict, summary or reading is
    the observation; `final` when that reply is the answer itself)."""
    observation = Observation(text, final=final)
    return Step(thought=thought, action=action, action_input=action_input, observation=observation, usage=usage)
