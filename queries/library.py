"""The analyst library: named SQL views and table macros, kept as `.sql` files in this package.

Each file under `queries/sql/` is one `CREATE OR REPLACE VIEW|MACRO` statement preceded by a
header that documents it::

    -- name: when_visible
    -- kind: macro
    -- returns: video_id, category, interval_id, start_s, end_s, ...
    -- summary: When any instance of category `cat` is visible in video `vid` ...

`install()` puts the library into a memory: persisted in the memory itself when it is writable
(so the plain DuckDB CLI, pandas and BI tools see it), and otherwise beside it, on this process's
connection only. A view `vidmem_library` lists every object with its signature and summary;
`describe_library()` is the same text for people and prompts.
"""

import contextlib
import hashlib
import logging
import re
import threading
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Literal

import duckdb

from memory import Memory
from queries.errors import QueryError

log = logging.getLogger(__name__)

#: Creation order (an object may use the ones before it) and the order of the description.
ORDER: tuple[str, ...] = (
    "timeline",
    "text_items",
    "video_overview",
    "category_counts",
    "video_timeline",
    "when_visible",
    "when_track_visible",
    "instance_counts",
    "cooccurrence",
    "track_cooccurrence",
    "tracks_with",
    "category_pairs",
    "track_position",
    "tracks_at",
    "seen_between",
    "seen_at",
    "track_path",
    "detection_shapes",
    "speech_near",
    "text_near",
    "find_text",
    "similar_texts",
    "similar_frames",
    "frames_like",
)

#: The view listing the library itself; its `version` column tells an installer whether a memory
#: already holds this version.
CATALOG_VIEW = "vidmem_library"
#: Queries to show people first (the SQL page's starting query, the shell's help): written here,
#: beside the tables they read, so that no SQL over the memory is written above this package.
EXAMPLE_QUERIES = {
    "timeline": "SELECT kind, round(start_s, 1) AS start_s, text FROM timeline ORDER BY start_s LIMIT 20",
    "transcript": "SELECT start_s, text FROM transcript ORDER BY start_s",
    "tracks": "SELECT * FROM tracks",
}
#: Where the library goes when the memory cannot be written: an in-memory database attached to the
#: memory's DuckDB instance.
ATTACHED_CATALOG = "vidmem_library"

_HEADER = re.compile(r"^--\s*(\w+):\s?(.*)$")
_CONTINUATION = re.compile(r"^--\s{2,}(\S.*)$")
_CREATE = re.compile(r"^CREATE OR REPLACE (VIEW|MACRO) (\w+)\b", re.MULTILINE)
_SIGNATURE = re.compile(r"^CREATE OR REPLACE MACRO (\w+\(.*?\)) AS TABLE", re.MULTILINE)

Mode = Literal["persisted", "attached", "connection"]


@dataclass(frozen=True)
class LibraryObject:
    """One view or table macro of the library, as its `.sql` file describes it."""

    name: str
    kind: Literal["view", "macro"]
    signature: str  # 'when_visible(vid, cat, gap_s := 1.0)'; a view's is its name
    returns: str  # the result's columns, comma separated
    summary: str
    sql: str  # the CREATE OR REPLACE statement as written in the file

    def create_sql(self, *, temp: bool = False, catalog: str | None = None) -> str:
        """The statement that creates this object as a TEMP object or inside `catalog`."""
        qualified = f"{_ident(catalog)}.main.{self.name}" if catalog else self.name
        keyword = ("TEMP " if temp else "") + self.kind.upper()
        return _CREATE.sub(f"CREATE OR REPLACE {keyword} {qualified}", self.sql, count=1)

    def describe(self) -> str:
        if self.kind == "view":
            return f"{self.name}({self.returns}): {self.summary}"
        return f"{self.signature} -> {self.returns}: {self.summary}"


@dataclass(frozen=True)
class Installation:
    """Where a memory's library lives, and what a new cursor must do to see it."""

    mode: Mode  # 'persisted' in the memory; 'attached' beside a read-only one; 'connection' (TEMP)
    version: str
    search_path: str | None = None  # SET on each new cursor ('attached' mode only)


def _parse(name: str, text: str) -> LibraryObject:
    fields: dict[str, str] = {}
    key: str | None = None
    body: list[str] = []
    for line in text.splitlines():
        if body or not line.startswith("--"):
            body.append(line)
            continue
        cont = _CONTINUATION.match(line)
        head = _HEADER.match(line)
        if cont and key:
            fields[key] += " " + cont.group(1).strip()
        elif head:
            key = head.group(1)
            fields[key] = head.group(2).strip()
    sql = "\n".join(body).strip().rstrip(";")
    created = _CREATE.search(sql)
    # These are our own files: a mismatch is a packaging bug, caught by the test suite.
    if fields.get("name") != name or created is None or created.group(2) != name:
        raise QueryError(f"library file {name}.sql must define {name} and say so in its '-- name:' header")
    kind = created.group(1).lower()
    if fields.get("kind") != kind or not fields.get("summary") or not fields.get("returns"):
        raise QueryError(f"library file {name}.sql needs '-- kind: {kind}', '-- returns:' and '-- summary:' lines")
    signature = name
    if kind == "macro":
        match = _SIGNATURE.search(sql)
        if match is None:
            raise QueryError(f"library file {name}.sql: expected 'CREATE OR REPLACE MACRO {name}(...) AS TABLE'")
        signature = match.group(1)
    if kind == "view":
        return LibraryObject(name, "view", signature, fields["returns"], fields["summary"], sql)
    return LibraryObject(name, "macro", signature, fields["returns"], fields["summary"], sql)


@cache
def library_objects() -> tuple[LibraryObject, ...]:
    """Every object of the library, in creation order."""
    folder = resources.files("queries") / "sql"
    objects = tuple(_parse(name, (folder / f"{name}.sql").read_text(encoding="utf-8")) for name in ORDER)
    on_disk = {p.name.removesuffix(".sql") for p in folder.iterdir() if p.name.endswith(".sql")}
    if on_disk != set(ORDER):
        raise QueryError(f"queries/sql and library.ORDER disagree: {sorted(on_disk ^ set(ORDER))}")
    return objects


@cache
def library_version() -> str:
    """A digest of the library's SQL: a memory whose `vidmem_library` has it needs no reinstall."""
    digest = hashlib.sha256()
    for obj in library_objects():
        digest.update(obj.sql.encode())
    return digest.hexdigest()[:16]


def describe_library(names: Sequence[str] | None = None) -> str:
    """The library in compact text, for people (`vidmem sql`) and prompts (agents' sub-agents).

    `names` keeps only those objects (a sub-agent is shown only what it needs); an unknown name is
    an error, so that a typo does not silently hide an object from a prompt.

    >>> print(describe_library(["track_position"]))  # doctest: +ELLIPSIS
    Table macros: SELECT * FROM name(args); optional args (:=) go by name, e.g. gap_s := 2.
      track_position(vid, tid, at_s) -> video_id, track_id, ...
    """
    known = (*library_objects(), _catalog_view())
    if names is None:
        objects = list(library_objects())
    else:
        wanted = set(names)
        unknown = sorted(wanted - {o.name for o in known})
        if unknown:
            raise QueryError(f"no library objects {unknown}; known: {', '.join(o.name for o in known)}")
        objects = [o for o in known if o.name in wanted]
    views = [o for o in objects if o.kind == "view"]
    macros = [o for o in objects if o.kind == "macro"]
    lines = []
    if views:
        lines.append("Views: SELECT ... FROM name.")
        lines += [f"  {o.describe()}" for o in views]
    if macros:
        lines.append("Table macros: SELECT * FROM name(args); optional args (:=) go by name, e.g. gap_s := 2.")
        lines += [f"  {o.describe()}" for o in macros]
    if names is None:
        lines.append("Times are seconds from the video's start; vid is a videos.video_id; tid a tracks.track_id.")
    return "\n".join(lines)


def library_script(*, temp: bool = False) -> str:
    """The whole library as one SQL script, for a DuckDB CLI session on a memory that does not hold
    it (a DuckLake, a read-only file): `.read` it after opening or attaching the memory."""
    objects = (*library_objects(), _catalog_view())
    return ";\n\n".join(o.create_sql(temp=temp) for o in objects) + ";\n"


def _catalog_view_sql() -> str:
    rows = ",\n".join(
        "(" + ", ".join(_literal(v) for v in (o.name, o.kind, o.signature, o.returns, o.summary)) + ")"
        for o in library_objects()
    )
    return (
        f"CREATE OR REPLACE VIEW {CATALOG_VIEW} AS\n"
        f"SELECT name, kind, signature, returns, summary, {_literal(library_version())} AS version\n"
        f"FROM (VALUES\n{rows}\n) AS t(name, kind, signature, returns, summary)"
    )


def _catalog_view() -> LibraryObject:
    return LibraryObject(
        CATALOG_VIEW, "view", CATALOG_VIEW, "name, kind, signature, returns, summary, version",
        "The library's table of contents: every view and macro with its signature.", _catalog_view_sql(),
    )


def _create_all(cur: duckdb.DuckDBPyConnection, *, temp: bool = False, catalog: str | None = None) -> None:
    for obj in (*library_objects(), _catalog_view()):
        try:
            cur.execute(obj.create_sql(temp=temp, catalog=catalog))
        except duckdb.Error as exc:
            raise QueryError(f"cannot create library {obj.kind} {obj.name}: {exc}", sql=obj.sql) from exc


# ------------------------------------------------------------------------------ installing

_lock = threading.Lock()
_installed: "weakref.WeakKeyDictionary[Memory, Installation]" = weakref.WeakKeyDictionary()


def install(target: Memory | duckdb.DuckDBPyConnection) -> Installation:
    """Put the library into `target`; idempotent and cheap when it is already there.

    - A writable DuckDB-file memory: persisted (CREATE OR REPLACE VIEW/MACRO in the file), unless it
      already holds this version. The DuckDB CLI and other processes then see it too.
    - A read-only memory holding this version: nothing to do.
    - A read-only memory without it (or with another version), or a DuckLake memory: created in an
      in-memory database attached beside it, visible to cursors from `queries.cursor(memory)` (which set the search
      path), not to `memory.query()`.
    - A bare DuckDB connection (e.g. the sandbox's, `queries.sandbox`): created in its current database when
      that is writable, else as TEMP objects of that connection.
    """
    if isinstance(target, duckdb.DuckDBPyConnection):
        return _install_on_connection(target)
    with _lock:
        done = _installed.get(target)
        if done is not None:
            return done
        cur = target.cursor()
        try:
            found = _persisted_version(cur)
            if found == library_version():
                done = Installation("persisted", found)
            elif target.uri.kind == "ducklake":
                # DuckLake 1.5.5 stores macros but not NULL or list parameter defaults: committing one
                # fails, and some leave a catalog that no longer opens. Never persist there.
                done = _install_attached(target, cur, found)
            elif not target.read_only:
                done = _install_persisted(target, cur, found)
            else:
                done = _install_attached(target, cur, found)
        finally:
            cur.close()
        _installed[target] = done
        return done


def _install_persisted(memory: Memory, cur: duckdb.DuckDBPyConnection, found: str | None) -> Installation:
    retired = _retired_objects(cur) if found is not None else []
    cur.execute("BEGIN TRANSACTION")
    try:
        for name, kind in retired:  # objects an older library had and this one does not
            cur.execute(f"DROP {'VIEW' if kind == 'view' else 'MACRO TABLE'} IF EXISTS {_ident(name)}")
        _create_all(cur)
        cur.execute("COMMIT")
    except (QueryError, duckdb.Error) as exc:
        with contextlib.suppress(duckdb.Error):
            cur.execute("ROLLBACK")
        log.warning("could not store the query library in %s (%s); keeping it on this connection", memory.uri, exc)
        return _install_attached(memory, cur, found)
    log.info(
        "query library %s %s in %s",
        library_version(), "installed" if found is None else f"upgraded from {found}", memory.uri,
    )
    return Installation("persisted", library_version())


def _install_attached(memory: Memory, cur: duckdb.DuckDBPyConnection, found: str | None) -> Installation:
    home = cur.execute("SELECT current_database()").fetchone()
    assert home is not None  # current_database() always answers
    memory.con.execute(f"ATTACH IF NOT EXISTS ':memory:' AS {_ident(ATTACHED_CATALOG)} (READ_WRITE)")
    # the memory's other schemas stay reachable by their names: without them 'vidmem_search.state'
    # named no schema, and a reader of a memory with an older library lost its full-text index
    # (keyword search fell back to substrings, and briefs changed with the library's version)
    others = [r[0] for r in cur.execute(
        "SELECT schema_name FROM information_schema.schemata WHERE catalog_name = ? AND schema_name <> 'main' "
        "ORDER BY schema_name", [home[0]]).fetchall()]
    search_path = ",".join([f"{_ident(ATTACHED_CATALOG)}.main", *(f"{_ident(home[0])}.{_ident(s)}" for s in
                                                                  ["main", *others])])
    cur.execute(f"SET search_path = {_literal(search_path)}")
    _create_all(cur, catalog=ATTACHED_CATALOG)
    if memory.uri.kind == "ducklake":
        why = "is a DuckLake (which cannot store the library's macros)"
    elif found is None:
        why = "is read-only and holds no query library"
    else:
        why = f"is read-only and holds query library {found}, not {library_version()}"
    log.info(
        "memory %s %s: the library lives on this process's connection only (use queries.cursor(memory) or "
        "queries.run_sql)", memory.uri, why,
    )
    return Installation("attached", library_version(), search_path)


def _install_on_connection(con: duckdb.DuckDBPyConnection) -> Installation:
    row = con.execute(
        "SELECT NOT readonly FROM duckdb_databases() WHERE database_name = current_database()"
    ).fetchone()
    writable = bool(row and row[0])
    if writable and _persisted_version(con) == library_version():
        return Installation("persisted", library_version())
    _create_all(con, temp=not writable)
    return Installation("persisted" if writable else "connection", library_version())


def _retired_objects(cur: duckdb.DuckDBPyConnection) -> list[tuple[str, str]]:
    current = {o.name for o in library_objects()} | {CATALOG_VIEW}
    try:
        rows = cur.execute(f"SELECT name, kind FROM {CATALOG_VIEW}").fetchall()
    except duckdb.Error:
        return []
    return [(str(n), str(k)) for n, k in rows if n not in current]


def _persisted_version(cur: duckdb.DuckDBPyConnection) -> str | None:
    try:
        row = cur.execute(f"SELECT any_value(version) FROM {CATALOG_VIEW}").fetchone()
    except duckdb.Error:  # no library yet, or one whose view no longer binds
        return None
    return str(row[0]) if row and row[0] is not None else None


def cursor(memory: Memory) -> duckdb.DuckDBPyConnection:
    """A new cursor on `memory` that sees the library (installing it first when needed)."""
    done = install(memory)
    cur = memory.cursor()
    if done.search_path:
        cur.execute(f"SET search_path = {_literal(done.search_path)}")
    return cur


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"
