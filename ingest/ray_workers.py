"""Extraction over a Ray cluster: one actor per CPU, each holding one Pipeline."""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ingest.errors import SettingsError
from ingest.pipeline import Extraction, Pipeline
from ingest.settings import IngestSettings
from ingest.workers import (
    WORKER_DIED,
    Extractions,
    ExtractorClasses,
    StoredByVideo,
    available_cpus,
    extract_guarded,
)

log = logging.getLogger(__name__)


class _RayWorker:
    """A Ray actor holding one Pipeline: models load once per actor."""

    def __init__(self, settings: IngestSettings, extractors: ExtractorClasses, stored: StoredByVideo) -> None:
        self._pipeline = Pipeline(settings, extractors)
        self._stored = stored

    def extract(self, path: Path) -> Extraction:
        return extract_guarded(self._pipeline, path, self._stored)


def ray_actors(
    pipeline: Pipeline,
    extractors: ExtractorClasses,
    paths: Sequence[Path],
    stored: StoredByVideo,
    address: str,
    workers: int | None,
) -> tuple[int, Extractions]:
    """Extract over Ray actors (Ray places them; this loop only hands out paths and collects rows).
    Paths must be readable at the same location on every node (shared storage)."""
    try:
        import ray
    except ImportError as exc:
        raise SettingsError("--ray needs Ray: pip install 'vidmem[scale]' (or pip install 'ray>=2.30')") from exc
    if ray.is_initialized():
        started = False
    elif address == "local":
        ray.init(num_cpus=workers or available_cpus(), include_dashboard=False, log_to_driver=True)
        started = True
    else:
        ray.init(address=address, include_dashboard=False)
        started = True
    count = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
    count = max(1, min(count, len(paths)))

    def run() -> Extractions:
        from ray.exceptions import RayActorError, RayTaskError

        # max_restarts: an actor killed by a bad video comes back (models reload) for the next one.
        actor_cls: Any = ray.remote(num_cpus=1, max_restarts=-1, max_task_retries=0)(_RayWorker)
        # Arguments inline, not via ray.put: a restarted actor must still find them.
        actors: list[Any] = [actor_cls.remote(pipeline.settings, extractors, stored) for _ in range(count)]
        idle = deque(actors)
        queue: deque[Path] = deque(paths)
        pending: dict[Any, tuple[Any, Path]] = {}
        try:
            while queue or pending:
                while queue and idle:
                    actor, path = idle.popleft(), queue.popleft()
                    pending[actor.extract.remote(path)] = (actor, path)
                ready, _ = ray.wait(list(pending), num_returns=1)
                out: list[Extraction] = []
                for ref in ready:
                    actor, path = pending.pop(ref)
                    idle.append(actor)
                    try:
                        out.append(ray.get(ref))
                    except (RayActorError, RayTaskError) as exc:
                        log.error("%s: Ray worker failed: %s", path, exc)
                        out.append(pipeline.failure(path, WORKER_DIED))
                yield out
        finally:
            for actor in actors:
                ray.kill(actor)
            if started:
                ray.shutdown()

    return count, run()

