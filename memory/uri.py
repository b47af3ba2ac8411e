"""Memory URIs: where a memory lives and what kind it is.

- `path/to/file.duckdb`, `duckdb:path/to/file.duckdb` or `duckdb:///abs/path.duckdb`: one DuckDB file
  (the embedded default; one writing process at a time).
- `ducklake:sqlite:path/to/catalog.sqlite` (data next to it in `<catalog>.files/` unless
  `?data=DIR`): DuckLake with a SQLite catalog, readable by other processes while one writes.
- `ducklake:postgres:dbname=... host=...?data=DIR`: DuckLake with a PostgreSQL catalog, across machines.
"""

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs

from memory.errors import MemoryURIError, StoreError

DEFAULT_URI = "vidmem.duckdb"


@dataclass(frozen=True)
class MemoryURI:
    kind: str  # 'duckdb' | 'ducklake'
    location: str  # DuckDB file path, or DuckLake catalog spec ('sqlite:...' / 'postgres:...')
    data_path: str | None = None  # DuckLake data folder

    def __str__(self) -> str:
        if self.kind == "duckdb":
            return self.location
        suffix = f"?data={self.data_path}" if self.data_path else ""
        return f"ducklake:{self.location}{suffix}"


def parse_uri(uri: str | Path) -> MemoryURI:
    text = str(uri).strip()
    if not text:
        raise MemoryURIError("empty memory URI; give a .duckdb path or a ducklake: URI")
    if text.startswith("ducklake:"):
        spec, _, query = text[len("ducklake:") :].partition("?")
        data = parse_qs(query).get("data", [None])[0]
        if spec.startswith("sqlite:"):
            catalog = Path(spec[len("sqlite:") :]).expanduser().resolve()
            data = data or f"{catalog}.files"
            return MemoryURI("ducklake", f"sqlite:{catalog}", str(Path(data).expanduser().resolve()))
        if spec.startswith("postgres:"):
            if not data:
                raise MemoryURIError(f"{text}: a PostgreSQL-catalog DuckLake needs ?data=DIR for its Parquet files")
            return MemoryURI("ducklake", spec, data)
        raise MemoryURIError(f"{text}: expected ducklake:sqlite:PATH or ducklake:postgres:CONNINFO?data=DIR")
    if text.startswith("duckdb://"):
        text = text[len("duckdb://") :]
    elif text.startswith("duckdb:"):
        text = text[len("duckdb:") :]
    if "://" in text:
        raise MemoryURIError(f"{uri}: unknown memory URI scheme; use a .duckdb path or ducklake:sqlite:PATH")
    return MemoryURI("duckdb", str(Path(text).expanduser().resolve()))


def attach_sql(uri: MemoryURI, alias: str, *, read_only: bool = False) -> str:
    """The one `ATTACH` statement for `uri` under catalog `alias`, its strings quoted.

    Every place that opens a memory in DuckDB (the store, the SQLAlchemy engine, the agents'
    guarded connection) attaches through this, so that quoting and options never drift apart.
    """
    if not alias.isidentifier():
        raise StoreError(f"catalog alias must be a plain identifier, got {alias!r}")
    target = f"ducklake:{uri.location}" if uri.kind == "ducklake" else uri.location
    options = []
    if uri.kind == "ducklake" and uri.data_path:
        options.append(f"DATA_PATH {_literal(uri.data_path)}")
    if read_only:
        options.append("READ_ONLY")
    opts = f" ({', '.join(options)})" if options else ""
    return f"ATTACH {_literal(target)} AS {alias}{opts}"


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"
