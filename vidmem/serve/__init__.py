"""`vidmem serve`: the memory in a browser and over HTTP (FastAPI, server-rendered pages, JSON API at /docs).

>>> from vidmem.serve import create_app                       # doctest: +SKIP
>>> app = create_app("archive.duckdb")                        # doctest: +SKIP
>>> import uvicorn; uvicorn.run(app, host="127.0.0.1")        # doctest: +SKIP
"""

from vidmem.serve.app import create_app
from vidmem.serve.source import MemoryBusy, MemorySource

__all__ = ["MemoryBusy", "MemorySource", "create_app"]
