"""MCTS planner (DoraemonGPT): several solutions grown as branches of one search tree.

Each of N iterations
1. selects an expandable node (the root, or any open step node) with probability softmax(reward);
2. expands it: the first step's prompt lists the actions of the node's existing children and asks
   for another tool or another input; a first step that repeats a sibling's action anyway is a
   failure leaf (it would only re-run the sibling's chain), penalized like any failure;
3. executes the chain from that new step to an answer or a failure;
4. back-propagates the leaf's reward R (+alpha for an answer, -alpha for a failure) to every
   ancestor v: R_v += R * exp(beta * (1 - d)), where d is the number of edges from v down to the
   leaf (d = 1 for the leaf's parent, which gets R undamped; the root gets R * exp(beta * (1 - depth))).
   The leaf itself records R and is never selected again.
Before the first iteration, as in react, one plain call reads the evidence brief (`Chain.read`); an
answer read there is reviewed once by the critic (`critic.review`, against the brief's rows): a YES
ends the search with it, approved, as a tool chain's second opinion would cost ~10x the reading
for an answer the rows already support. Otherwise (NO, or no verdict) it is the first solution
(rewarded like a chain's), and the tool chains that follow are its second opinions. A reading that
asks for a lookup is no solution and costs no reward.
When the first `agree_stop` chains all answer the same, the search stops there: more branches
would cost tokens to confirm it. The final answer merges the candidates by their evidence
(`consensus.merge`: answers that say the same are grouped, weighed by how well the rows they rest
on support them; an LLM summary only on a tie), or is a vote over the choices for a
multiple-choice question.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial

from agents.chain import Chain, ChainSettings, PlanResult
from agents.choices import normalize_answer
from agents.errors import AgentError
from agents.planners.base import BasePlanner, answered
from agents.planners.consensus import agree, merge, vote
from agents.planners.critic import CriticSettings, review
from agents.prompts import render
from agents.tools.base import Tool, ToolContext
from agents.trace import Node, SearchTree


@dataclass(frozen=True)
class MctsSettings:
    n_solutions: int = 4  # N: chains executed (iterations of select -> expand -> execute -> back-propagate)
    alpha: float = 1.0  # reward of an answer (+alpha) or a failure (-alpha)
    beta: float = 0.5  # decay of the reward with distance from the leaf
    selection_temperature: float = 1.0  # softmax temperature over node rewards (1: DoraemonGPT)
    expand_temperature: float = 0.7  # sampling temperature of an expansion's first step
    max_depth: int = 8  # steps from the root; deeper nodes are not expanded
    summary_tokens: int = 200
    seed: int = 0  # node selection is random; a fixed seed makes runs repeatable
    agree_stop: int = 2  # stop once this many first chains answered the same (0: always run N)
    review_reading: bool = True  # a critic review of the answer read from the brief; YES ends the search
    review: CriticSettings = field(default_factory=CriticSettings)  # the review's budget (its chain is unused)
    chain: ChainSettings = field(default_factory=lambda: ChainSettings(max_steps=5))

    def __post_init__(self) -> None:
        if self.n_solutions < 1 or self.max_depth < 1 or self.agree_stop < 0 or self.agree_stop == 1:
            raise AgentError(
                f"mcts needs n_solutions >= 1, max_depth >= 1 and agree_stop 0 or >= 2, got {self.n_solutions}, "
                f"{self.max_depth}, {self.agree_stop}"
            )
        if self.alpha <= 0 or self.beta < 0 or self.selection_temperature <= 0:
            raise AgentError(
                f"mcts needs alpha > 0, beta >= 0, selection_temperature > 0; got {self.alpha}, {self.beta}, "
                f"{self.selection_temperature}"
            )


# -- the arithmetic, as pure functions -----------------------------------------------------------
def selection_probabilities(rewards: Sequence[float], temperature: float = 1.0) -> list[float]:
    """softmax(rewards / temperature), computed stably.

    >>> [round(p, 4) for p in selection_probabilities([0.0, 1.0])]
    [0.2689, 0.7311]
    """
    if not rewards:
        return []
    top = max(rewards)
    weights = [math.exp((r - top) / temperature) for r in rewards]
    total = sum(weights)
    return [w / total for w in weights]


def decayed_reward(reward: float, distance: int, beta: float) -> float:
    """R * exp(beta * (1 - d)) for an ancestor `distance` edges above the leaf.

    >>> decayed_reward(1.0, 1, 0.5), round(decayed_reward(1.0, 2, 0.5), 4)
    (1.0, 0.6065)
    """
    if distance < 1:
        raise AgentError(f"an ancestor is at least 1 edge above its leaf, got distance {distance}")
    return reward * math.exp(beta * (1 - distance))


def backpropagate(
    rewards: Mapping[int, float], parents: Mapping[int, int | None], leaf: int, reward: float, beta: float
) -> dict[int, float]:
    """New rewards after the leaf's `reward` is added to each ancestor, decayed by distance.

    The leaf's own entry becomes `reward` (it is terminal and never selected).

    >>> backpropagate({0: 0.0, 1: 0.0, 2: 0.0}, {0: None, 1: 0, 2: 1}, 2, -1.0, 0.5)[0]
    -0.6065306597126334
    """
    out = dict(rewards)
    out[leaf] = reward
    node, distance = parents[leaf], 1
    while node is not None:
        out[node] = out.get(node, 0.0) + decayed_reward(reward, distance, beta)
        node, distance = parents[node], distance + 1
    return out


def expandable(tree: SearchTree, max_depth: int) -> list[Node]:
    """Nodes a new branch may grow from: the root and open step nodes above `max_depth`."""
    return [n for n in tree if n.kind in ("root", "step") and not n.terminal and n.depth < max_depth]


def expansion_note(tree: SearchTree, node_id: int) -> str | None:
    """The 'take a different action' prompt for expanding `node_id`, None when it has no children."""
    actions = []
    for child in tree.children(node_id):
        if child.kind != "step" or child.step is None or child.reads_brief:
            continue  # the brief reading is not a tool call another branch could vary
        line = f"- {child.step.action}: {child.step.action_input}" if child.step.action else "- (no valid action)"
        if line not in actions:
            actions.append(line)
    if not actions:
        return None
    return render("planner:expand", actions="\n".join(actions))


def repeats_sibling(tree: SearchTree, parent: int, action: str, action_input: str) -> str | None:
    """Why calling `action` with `action_input` under `parent` adds nothing new (an earlier child
    made the same call, inputs compared after `normalize_answer`), else None."""
    key = (action, normalize_answer(action_input))
    for sibling in tree.children(parent):
        step = sibling.step
        if sibling.kind == "step" and step is not None and (step.action, normalize_answer(step.action_input)) == key:
            return f"repeats the first action of sibling node {sibling.id}: {action}"
    return None


class MctsPlanner(BasePlanner[MctsSettings]):
    name = "mcts"
    settings_type = MctsSettings

    def search(
        self, tree: SearchTree, tools: Sequence[Tool], ctx: ToolContext, choices: Sequence[str] | None
    ) -> PlanResult:
        s = self.settings
        chain = Chain(tools, ctx, s.chain)
        rng = random.Random(s.seed)
        leaves: list[Node] = []
        if chain.reads_first:  # the first solution is read from the brief, when it can be
            read = chain.read(tree)
            if read.status == "answer":
                if s.review_reading and review(tree, read, ctx, s.review, 1)[1].ok:
                    tree.root.note = "stopped early: the critic approved the answer read from the brief"
                    return replace(answered(tree, read, choices), verified=True)
                leaves.append(read)
                self._reward(tree, read)
        while len(leaves) < s.n_solutions:
            candidates = expandable(tree, s.max_depth)
            if not candidates:
                break
            probs = selection_probabilities([n.reward for n in candidates], s.selection_temperature)
            node = rng.choices(candidates, weights=probs, k=1)[0]
            note = expansion_note(tree, node.id)
            leaf = chain.run(
                tree,
                node.id,
                first_note=note,
                first_temperature=s.expand_temperature if note else None,
                max_steps=min(s.chain.max_steps, s.max_depth - node.depth),
                reject_first=partial(repeats_sibling, tree, node.id) if note else None,
            )
            leaves.append(leaf)
            self._reward(tree, leaf)
            if s.agree_stop and len(leaves) == s.agree_stop and agree(leaves, choices):
                tree.root.note = f"stopped early: the first {len(leaves)} chains agree"
                break
        return self.final_answer(tree, ctx, choices)

    def _reward(self, tree: SearchTree, leaf: Node) -> None:
        """Back-propagate `leaf`'s reward (+alpha for an answer, -alpha for a failure) up the tree."""
        s = self.settings
        reward = s.alpha if leaf.status == "answer" else -s.alpha
        new = backpropagate({n.id: n.reward for n in tree}, {n.id: n.parent for n in tree}, leaf.id, reward, s.beta)
        for nid, value in new.items():
            tree[nid].reward = value

    def final_answer(self, tree: SearchTree, ctx: ToolContext, choices: Sequence[str] | None) -> PlanResult:
        leaves = tree.answers()
        if not leaves:
            return PlanResult(None, tree)
        if choices:
            return vote(tree, leaves, choices)
        return merge(tree, leaves, ctx, self.settings.summary_tokens)
