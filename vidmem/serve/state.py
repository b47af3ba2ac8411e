"""What the app's routes share: the memory source, the templates, and things loaded once."""

import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fastapi.templating import Jinja2Templates

from agents import ToolContext
from memory import Memory
from vidmem.serve.limits import WorkQueue, default_limits
from vidmem.serve.source import MemorySource

#: Builds the agents' tool context for a question over `memory` (about one video, or all).
ContextFactory = Callable[[Memory, str | None], ToolContext]

_TREES_KEPT = 32
LONG_QUERIES = max(1, (os.cpu_count() or 2) // 2)


@dataclass
class ServeState:
    source: MemorySource
    templates: Jinja2Templates
    context_factory: ContextFactory | None = None
    found_encoders: dict[str, Any] | None = None
    #: The slow kinds of work, each bounded (vidmem/serve/limits.py): 'sql', 'search', 'ask'.
    work: dict[str, WorkQueue] = field(default_factory=default_limits)
    #: SQL queries that may run past 2 s at once: the rest of the cores stay with short queries, the
    #: pages and the media (a long one that finds no slot is stopped with a 503).
    long_queries: threading.Semaphore = field(default_factory=lambda: threading.BoundedSemaphore(LONG_QUERIES))
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _trees: "OrderedDict[str, bytes]" = field(default_factory=OrderedDict)

    def encoders(self) -> dict[str, Any]:
        """Query-time encoders by role ('text', 'clip'), found once per process (models load on first use)."""
        with self._lock:
            if self.found_encoders is None:
                from ingest import IngestSettings
                from vidmem.compose import encoders

                self.found_encoders = encoders(IngestSettings())
            return self.found_encoders

    def tool_context(self, memory: Memory, video_id: str | None) -> ToolContext:
        if self.context_factory is not None:
            return self.context_factory(memory, video_id)
        from vidmem.compose import tool_context
        from vidmem.config import settings_from

        return tool_context(memory, settings_from(None), video_id)

    def stop_work(self) -> None:
        """Cancel every running SQL query, search and question (the server is shutting down)."""
        for kinds in self.work.values():
            kinds.cancel_all()

    def keep_tree(self, key: str, png: bytes) -> None:
        with self._lock:
            self._trees[key] = png
            while len(self._trees) > _TREES_KEPT:
                self._trees.popitem(last=False)

    def tree(self, key: str) -> bytes | None:
        with self._lock:
            return self._trees.get(key)
