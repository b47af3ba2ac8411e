"""Knowledge tools: search text documents the user provides (manuals, site notes, rules), pluggable.

Any object with `search(query, k) -> list[Passage]` is a knowledge base; `DocumentIndex` is the
built-in one: documents cut into passages and searched by embedding with the injected text encoder
(`ctx.encoders['text']`-like: `encode(texts) -> (n, d)` unit rows), or by shared words without one.

    kb = DocumentIndex.from_paths(["docs/site_rules.md"], encoder=text_encoder)
    tools = build_tools(ctx, knowledge=kb)        # adds search_documents
"""

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Protocol

import numpy as np

from agents.errors import AgentError
from agents.steps import Evidence, Observation
from agents.tools.base import Tool, ToolContext, ToolInput, takes
from agents.tools.format import quote_data
from queries.search import search_words

__all__ = ["DocumentIndex", "KnowledgeBase", "Passage", "SearchDocuments"]


@dataclass(frozen=True)
class Passage:
    source: str  # document name (file path or the key it was given under)
    text: str
    score: float = 0.0


class KnowledgeBase(Protocol):
    def search(self, query: str, k: int) -> list[Passage]: ...


def chunk(text: str, max_chars: int = 600) -> list[str]:
    """Paragraphs of `text`, joined up to `max_chars` (longer paragraphs are cut at sentence ends).

    >>> chunk("One.\\n\\nTwo.", max_chars=100)
    ['One.\\n\\nTwo.']
    """
    pieces: list[str] = []
    for para in re.split(r"\n\s*\n", text.strip()):
        para = para.strip()
        while len(para) > max_chars:
            cut = para.rfind(". ", 0, max_chars)
            cut = cut + 1 if cut > 0 else max_chars
            pieces.append(para[:cut].strip())
            para = para[cut:].strip()
        if para:
            pieces.append(para)
    out: list[str] = []
    for p in pieces:
        if out and len(out[-1]) + len(p) + 2 <= max_chars:
            out[-1] = f"{out[-1]}\n\n{p}"
        else:
            out.append(p)
    return out


class DocumentIndex:
    """Passages of text documents, searched by embedding when an encoder is given, else by words."""

    def __init__(self, passages: Sequence[tuple[str, str]], encoder: Any | None = None) -> None:
        self.passages = list(passages)
        self.encoder = encoder
        self._vectors: np.ndarray | None = None
        if encoder is not None and self.passages:
            self._vectors = np.asarray(encoder.encode([t for _, t in self.passages]), dtype=np.float32)

    @classmethod
    def from_texts(
        cls, documents: Mapping[str, str], encoder: Any | None = None, max_chars: int = 600
    ) -> "DocumentIndex":
        return cls([(name, p) for name, text in documents.items() for p in chunk(text, max_chars)], encoder)

    @classmethod
    def from_paths(
        cls, paths: Iterable[str | Path], encoder: Any | None = None, max_chars: int = 600
    ) -> "DocumentIndex":
        """Text files (.txt, .md, ...) and the text files in folders."""
        docs: dict[str, str] = {}
        for p in map(Path, paths):
            files = sorted(f for f in p.rglob("*") if f.suffix in (".txt", ".md", ".rst")) if p.is_dir() else [p]
            for f in files:
                try:
                    docs[str(f)] = f.read_text(encoding="utf-8", errors="replace")
                except OSError as exc:
                    raise AgentError(f"cannot read knowledge document {f}: {exc}") from exc
        return cls.from_texts(docs, encoder, max_chars)

    def search(self, query: str, k: int = 3) -> list[Passage]:
        if not self.passages:
            return []
        if self._vectors is not None and self.encoder is not None:
            q = np.asarray(self.encoder.encode([query]), dtype=np.float32)[0]
            scores = self._vectors @ q
        else:
            words = search_words(query)
            scores = np.array([sum(w in text.lower() for w in words) / max(len(words), 1) for _, text in self.passages])
        order = [int(i) for i in np.argsort(-scores, kind="stable")[:k] if scores[i] > 0]
        return [Passage(self.passages[i][0], self.passages[i][1], float(scores[i])) for i in order]


class SearchDocuments(Tool):
    name = "search_documents"
    description = (
        "Searches the reference documents the user provided (manuals, notes, rules) for passages about a topic."
    )
    inputs = takes(query=ToolInput("string", "what to look for"))
    k: ClassVar[int] = 3

    def __init__(self, knowledge: KnowledgeBase | None = None) -> None:
        self.knowledge = knowledge

    def unavailable(self, ctx: ToolContext) -> str | None:
        return None if self.knowledge is not None else "no reference documents were provided"

    def forward(self, ctx: ToolContext, query: str) -> Observation:
        if self.knowledge is None:
            return Observation("search_documents is unavailable: no reference documents were provided.")
        passages = self.knowledge.search(query, self.k)
        if not passages:
            return Observation(f"No passage in the reference documents is about {query!r}.")
        body = "\n\n".join(f"[{p.source}] {p.text}" for p in passages)
        evidence = Evidence(
            tool=self.name,
            rows=tuple({"source": p.source, "text": p.text, "score": round(p.score, 3)} for p in passages),
            note=f"{len(passages)} passages for {query!r}",
        )
        return Observation(quote_data(body, "reference documents"), evidence=(evidence,))
