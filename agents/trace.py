"""The search tree every planner builds, as data: saved as JSON and drawn as a picture.

A ReAct run is a tree with one chain; MCTS grows branches; the critic loop adds review nodes
into its chain; strategy sampling hangs one chain per strategy under the root; multiple-choice
verification adds one chain per choice and a judge node. Every LLM call the planners make is a
node holding a `Step`, so the tree alone accounts for the tokens and time of an answer.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from agents.errors import AgentError
from agents.steps import READ, Evidence, Observation, Step, Usage

#: root: the question. step: a thought -> action -> observation turn of a chain. critic: a review
#: of a chain's answer. summary / vote: how candidate answers became one. judge: a choice adjudicator
#: or a strategy critic. verify: the start of one multiple-choice candidate's verification chain.
NodeKind = Literal["root", "step", "critic", "summary", "vote", "judge", "verify"]
#: open: may grow children. answer: a chain ended with an answer. failure: a chain ended without one.
Status = Literal["open", "answer", "failure"]


@dataclass
class Node:
    """One node of the search tree. Mutable while a planner runs (rewards, status)."""

    id: int
    parent: int | None
    depth: int  # root 0
    kind: NodeKind
    step: Step | None = None
    status: Status = "open"
    answer: str | None = None
    reward: float = 0.0
    label: str = ""  # e.g. the strategy or the choice this subtree belongs to
    note: str = ""  # e.g. why a chain failed, the critic's verdict
    children: list[int] = field(default_factory=list)

    @property
    def terminal(self) -> bool:
        return self.status != "open"

    @property
    def reads_brief(self) -> bool:
        """This node is a planner's plain reading of the evidence brief (`Chain.read`), not a tool call."""
        return self.step is not None and self.step.action == READ

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class SearchTree:
    """Nodes by id (ids are positions, in creation order); node 0 is the root (the question)."""

    def __init__(self, question: str) -> None:
        self.question = question
        self.nodes: list[Node] = [Node(0, None, 0, "root")]

    @property
    def root(self) -> Node:
        return self.nodes[0]

    def __getitem__(self, node_id: int) -> Node:
        return self.nodes[node_id]

    def __iter__(self) -> Iterator[Node]:
        return iter(self.nodes)

    def __len__(self) -> int:
        return len(self.nodes)

    def add(self, parent: int, kind: NodeKind, step: Step | None = None, *, label: str | None = None) -> Node:
        """A new child of `parent`; it inherits the parent's label unless given one."""
        up = self.nodes[parent]
        node = Node(len(self.nodes), parent, up.depth + 1, kind, step, label=up.label if label is None else label)
        self.nodes.append(node)
        up.children.append(node.id)
        return node

    def path(self, node_id: int) -> list[Node]:
        """The nodes from the root down to `node_id`, both included."""
        out = []
        current: int | None = node_id
        while current is not None:
            out.append(self.nodes[current])
            current = self.nodes[current].parent
        return out[::-1]

    def children(self, node_id: int) -> list[Node]:
        return [self.nodes[c] for c in self.nodes[node_id].children]

    def answers(self) -> list[Node]:
        """Nodes where a chain ended with an answer, in creation order."""
        return [n for n in self.nodes if n.status == "answer" and n.kind == "step"]

    def usage(self) -> Usage:
        total = Usage()
        for n in self.nodes:
            if n.step is not None:
                total = total + n.step.usage
        return total

    def evidence(self, node_ids: Iterable[int]) -> tuple[Evidence, ...]:
        """Evidence observed on the paths from the root to `node_ids`, each item once, in order."""
        seen: set[int] = set()
        out: list[Evidence] = []
        for nid in node_ids:
            for node in self.path(nid):
                if node.id in seen:
                    continue
                seen.add(node.id)
                obs = node.step.observation if node.step else None
                for ev in obs.evidence if obs else ():
                    if ev not in out:
                        out.append(ev)
        return tuple(out)

    # -- JSON ------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {"question": self.question, "nodes": [n.to_dict() for n in self.nodes]}

    def to_json(self, indent: int | None = 1) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False, default=str)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SearchTree:
        tree = cls(data["question"])
        tree.nodes = [_node_from_dict(d) for d in data["nodes"]]
        return tree


def _node_from_dict(d: dict[str, Any]) -> Node:
    step = d.get("step")
    return Node(
        id=d["id"],
        parent=d["parent"],
        depth=d["depth"],
        kind=d["kind"],
        step=_step_from_dict(step) if step else None,
        status=d["status"],
        answer=d["answer"],
        reward=d["reward"],
        label=d["label"],
        note=d["note"],
        children=list(d["children"]),
    )


def _step_from_dict(d: dict[str, Any]) -> Step:
    obs = d.get("observation")
    observation = None
    if obs is not None:
        evidence = tuple(
            Evidence(
                tool=e["tool"],
                sql=e.get("sql"),
                rows=tuple(e.get("rows", ())),
                times_s=tuple(e.get("times_s", ())),
                video_id=e.get("video_id"),
                note=e.get("note", ""),
            )
            for e in obs.get("evidence", ())
        )
        observation = Observation(obs["text"], evidence, obs.get("error"), obs.get("final", False))
    return Step(
        thought=d["thought"],
        action=d["action"],
        action_input=d["action_input"],
        observation=observation,
        error=d.get("error"),
        usage=Usage(**d.get("usage", {})),
    )


# -- the picture ---------------------------------------------------------------------------------
_COLOURS = {
    "answer": "#b7e4c7",
    "failure": "#f4a3a3",
    "error": "#fff1a8",
    "root": "#d9d9d9",
    "critic": "#ffd59e",
    "judge": "#c6d8ff",
    "verify": "#e3d4f5",
    "looked_up": "#e8eef7",
}


def _looked_up(node: Node) -> bool:
    """A brief reading that asked for the tools: not a failure of the answer, the chain beside it goes on."""
    return node.status == "failure" and node.reads_brief


def _colour(node: Node) -> str:
    if _looked_up(node):
        return _COLOURS["looked_up"]
    if node.terminal:
        return _COLOURS[node.status]
    step = node.step
    if step is not None and (step.error or (step.observation is not None and step.observation.error)):
        return _COLOURS["error"]
    return _COLOURS.get(node.kind, "#ffffff")


def node_label(node: Node, width: int = 22) -> str:
    """A short text for a node's box: what it did and how it ended."""
    step = node.step
    if node.kind == "root":
        head = "question"
    elif step is not None and node.status == "answer" and node.kind == "step":
        head = "final answer"
    elif node.kind == "step" and step is not None and step.action:
        head = f"{step.action}({_short(step.action_input, 18)})"
    else:
        head = node.kind  # critic, summary, vote, judge, verify, or a step with no readable action
    lines = [head]
    if node.label and (node.kind == "verify" or node.depth == 1):
        lines.insert(0, f"[{node.label}]")
    if step is not None and step.error:
        lines.append(f"error: {_short(step.error, 28)}")
    elif step is not None and step.observation is not None and step.observation.error:
        lines.append(f"tool error: {_short(step.observation.error, 24)}")
    if node.status == "answer" and node.answer:
        lines.append(f"= {_short(node.answer, 30)}")
    elif _looked_up(node):
        lines.append("not enough: tools")
    elif node.status == "failure":
        lines.append("FAILED")
    if node.kind == "critic" and node.note:
        lines.append(_short(node.note, 24))
    if node.reward:
        lines.append(f"R={node.reward:+.2f}")
    return "\n".join(textwrap.fill(line, width) for line in lines)


def _short(text: str, n: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


def layout(tree: SearchTree) -> dict[int, tuple[float, float]]:
    """(x, y) per node: leaves spread left to right in depth-first order, parents centred over
    their children, y = -depth."""
    pos: dict[int, tuple[float, float]] = {}
    next_x = 0.0

    def place(nid: int) -> float:
        nonlocal next_x
        node = tree[nid]
        if not node.children:
            x = next_x
            next_x += 1.0
        else:
            xs = [place(c) for c in node.children]
            x = (xs[0] + xs[-1]) / 2
        pos[nid] = (x, -float(node.depth))
        return x

    place(0)
    return pos


def render_tree(tree: SearchTree, path: str | Path, *, dpi: int = 110) -> Path:
    """Draw the tree as a PNG at `path` (matplotlib, no display needed); returns the path."""
    try:
        import matplotlib

        matplotlib.use("Agg", force=False)
        import matplotlib.pyplot as plt
    except ImportError as exc:  # matplotlib is an optional (dev) dependency
        raise AgentError(f"drawing the search tree needs matplotlib: pip install matplotlib ({exc})") from exc
    pos = layout(tree)
    width = max(x for x, _ in pos.values()) + 1
    depth = max(-y for _, y in pos.values()) + 1
    fig, ax = plt.subplots(figsize=(max(4.0, 2.3 * width), max(2.5, 1.5 * depth)))
    try:
        for node in tree:
            if node.parent is not None:
                (x0, y0), (x1, y1) = pos[node.parent], pos[node.id]
                ax.plot([x0, x1], [y0, y1], color="#888888", linewidth=0.8, zorder=1)
        for node in tree:
            x, y = pos[node.id]
            colour = _colour(node)
            ax.text(
                x,
                y,
                node_label(node),
                ha="center",
                va="center",
                fontsize=7,
                zorder=2,
                bbox={"boxstyle": "round,pad=0.3", "facecolor": colour, "edgecolor": "#555555"},
            )
        ax.set_xlim(-0.7, width - 0.3)
        ax.set_ylim(-depth + 0.4, 0.6)
        ax.axis("off")
        ax.set_title(_short(tree.question, 90), fontsize=9)
        out = Path(path)
        fig.savefig(out, dpi=dpi, bbox_inches="tight")
    finally:
        plt.close(fig)
    return out
