"""The SQL guard: every hostile query is refused (by the checker, and by the sandbox's locked instance
on its own), every analyst query runs, on a real DuckDB memory that stays unchanged."""

import re
import threading
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from agents.errors import AgentError, GuardError, SQLRunError
from agents.guard import (
    GuardedSQL,
    SQLGuard,
    allowed_functions,
    builtin_functions,
    guarded,
    is_denied_function,
)
from memory import open_memory
from queries.errors import QueryError
from queries.readonly import ReadOnlyError
from queries.sandbox import Sandbox, release_sandbox
from tests.test_tools_memory import INJECTION, build_memory

DATA = Path(__file__).parent / "data"


def _entries(name: str) -> list[str]:
    text = (DATA / name).read_text()
    out = []
    for chunk in text.split("\n%%\n"):
        sql = "\n".join(line for line in chunk.splitlines() if not line.startswith("##")).strip()
        if sql:
            out.append(sql)
    return out


HOSTILE = _entries("hostile_sql.txt")
LEGIT = _entries("legit_sql.txt")


@pytest.fixture(scope="module")
def agent_memory(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return Path(build_memory(tmp_path_factory.mktemp("guard") / "synthetic.duckdb"))


@pytest.fixture(scope="module")
def runner(agent_memory: Path) -> Iterator[GuardedSQL]:
    mem = open_memory(agent_memory, read_only=True)
    yield guarded(mem)
    mem.close()


@pytest.fixture(scope="module")
def counts_before(agent_memory: Path) -> dict[str, int]:
    with open_memory(agent_memory, read_only=True) as mem:
        return mem.table_counts()


def test_corpus_is_big_enough() -> None:
    assert len(HOSTILE) >= 80 and len(LEGIT) >= 30


@pytest.mark.parametrize("sql", HOSTILE, ids=[f"hostile{i:02d}" for i in range(len(HOSTILE))])
def test_guard_rejects_hostile_sql(sql: str, runner: GuardedSQL) -> None:
    with pytest.raises(GuardError) as info:
        runner.guard.check(sql)
    assert len(str(info.value)) > 15  # says why, for the model to act on
    with pytest.raises(GuardError):
        runner.run(sql)


@pytest.mark.parametrize("sql", LEGIT, ids=[f"legit{i:02d}" for i in range(len(LEGIT))])
def test_guard_runs_analyst_sql(sql: str, runner: GuardedSQL) -> None:
    result = runner.run(sql)
    assert result.columns
    assert not result.truncated


def test_memory_unchanged_after_the_corpus(
    agent_memory: Path, runner: GuardedSQL, counts_before: dict[str, int]
) -> None:
    for sql in HOSTILE:
        with pytest.raises(GuardError):
            runner.run(sql)
    with open_memory(agent_memory, read_only=True) as mem:
        assert mem.table_counts() == counts_before


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        ("SELECT 1; DROP TABLE tracks", "exactly one statement"),
        ("DROP TABLE tracks", "DROP statement"),
        # named as written (issue 25): DuckDB files ANALYZE under VACUUM, calls UPDATE EXTENSIONS '???'
        # and rewrites PRAGMA into a SELECT that json_serialize_sql then refused with a parser message
        ("ANALYZE tracks", "an ANALYZE statement"),
        ("UPDATE EXTENSIONS", "an UPDATE EXTENSIONS statement"),
        ("PRAGMA version", "a PRAGMA statement"),
        ("/* note */ SHOW TABLES", "a SHOW statement"),
        ("SELECT * FROM read_csv('/etc/passwd')", "files, URLs and other databases cannot be read"),
        ("SELECT * FROM '/etc/passwd'", "would read a file"),
        ("SELECT * FROM trakcs", "unknown table 'trakcs'; the tables you can query are"),
        ("SELECT getenv('HOME')", "not allowed"),
        ("SELECT frobnicate(1)", "unknown or disallowed function frobnicate()"),
        ("SELEC 1", "syntax error"),
        ("", "empty SQL"),
        ("WITH x AS (DELETE FROM tracks RETURNING *) SELECT * FROM x", "CTE needs a SELECT"),
        ("SELECT * FROM other.main.tracks", "use the bare table name"),
    ],
)
def test_guard_messages_say_what_to_do(sql: str, message: str) -> None:
    with pytest.raises(GuardError, match=None) as info:
        SQLGuard().check(sql)
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        ("WITH x AS (DELETE FROM tracks RETURNING *) SELECT * FROM x", "DELETE is not allowed"),
        ("WITH x AS (INSERT INTO tracks SELECT * FROM tracks RETURNING *) SELECT * FROM x", "INSERT is not allowed"),
        ("SELECT * INTO stolen FROM tracks", "SELECT ... INTO is not allowed"),
        ("SELECT * FROM read_text('/etc/passwd')", "read_text() is not allowed"),
    ],
)
def test_tree_layer_alone_rejects(sql: str, message: str) -> None:
    # DuckDB's parser refuses some of these first; the sqlglot layer must refuse them on its own too.
    guard = SQLGuard()
    with pytest.raises(GuardError, match=re.escape(message)):
        guard._check_tree(guard._parse(sql))


@pytest.mark.parametrize(
    ("sql", "refusal"),
    [
        ("SELECT * FROM read_csv('/etc/passwd')", ReadOnlyError),
        ("SELECT * FROM '/etc/passwd'", QueryError),
        ("ATTACH '/tmp/vidmem-evil.duckdb' AS evil", ReadOnlyError),
        ("COPY (SELECT 1) TO '/tmp/vidmem-evil.csv'", ReadOnlyError),
        ("INSTALL httpfs", ReadOnlyError),
        ("LOAD httpfs", ReadOnlyError),
        ("DROP TABLE tracks", QueryError),
        ("DELETE FROM tracks", QueryError),
        ("CREATE TABLE stolen AS SELECT * FROM tracks", QueryError),
        ("SET enable_external_access = true", QueryError),
        ("SET lock_configuration = false", QueryError),
    ],
)
def test_the_sandbox_refuses_on_its_own(runner: GuardedSQL, sql: str, refusal: type[QueryError]) -> None:
    # Bypass the checker: the sandbox's locked instance must still refuse files, writes and settings.
    with pytest.raises(refusal) as info:
        runner.sandbox.run(sql)
    if refusal is ReadOnlyError:
        assert "not allowed: Permission Error" in str(info.value)
    elif sql.startswith(("DROP", "DELETE", "CREATE")):
        assert "read-only mode" in str(info.value)
    elif sql.startswith("SET"):
        assert "the configuration has been locked" in str(info.value)
    assert not Path("/tmp/vidmem-evil.csv").exists()
    assert runner.sandbox.run("SELECT 1 AS ok").rows == ((1,),)  # the sandbox still works


def test_analyst_connection_keeps_its_settings(agent_memory: Path, runner: GuardedSQL) -> None:
    with open_memory(agent_memory, read_only=True) as mem:
        assert mem.con.execute("SELECT current_setting('enable_external_access')").fetchone() == (True,)


def test_row_cap_truncates(runner: GuardedSQL) -> None:
    result = runner.run("SELECT * FROM range(1000000000) AS r(i)", max_rows=5)
    assert len(result.rows) == 5 and result.truncated
    assert result.dicts()[0] == {"i": 0}


def test_byte_cap_truncates_before_rows_become_python(runner: GuardedSQL) -> None:
    full = runner.run("SELECT * FROM detections")
    assert not full.truncated and full.nbytes > 0
    capped = runner.run("SELECT * FROM detections", max_bytes=full.nbytes // 3)
    assert capped.truncated and capped.truncated_by == "bytes"
    assert 0 < len(capped.rows) < len(full.rows) and capped.nbytes <= full.nbytes // 3
    assert capped.rows == full.rows[: len(capped.rows)]
    assert runner.run("SELECT * FROM detections", max_rows=2).truncated_by == "rows"


def test_one_row_over_the_byte_cap_says_what_to_do(runner: GuardedSQL) -> None:
    # string_agg is allowed: 2 MB of text from a cross join (the memory limit bounds what it builds)
    sql = "SELECT string_agg(word, ' ') AS s FROM transcript_words, range(40000) AS r(i)"
    with pytest.raises(SQLRunError, match=r"over 1,000,000 bytes.*left\(text, 200\)"):
        runner.run(sql)
    assert runner.run("SELECT 1 AS ok").rows == ((1,),)


@pytest.mark.parametrize(
    ("sql", "row"),
    [
        (
            "SELECT 'infinity'::TIMESTAMP, '-infinity'::TIMESTAMPTZ, 'infinity'::DATE",
            ("infinity", "-infinity", "infinity"),
        ),
        ("SELECT '294247-01-10'::TIMESTAMP, '0001-01-01 (BC)'::DATE", ("294247-01-10T00:00:00", "0000-01-01")),
        ("SELECT ['infinity'::TIMESTAMP, NULL], {'d': '-infinity'::DATE}", (["infinity", None], {"d": "-infinity"})),
    ],
)
def test_dates_python_cannot_hold_come_back_as_text(runner: GuardedSQL, sql: str, row: tuple[object, ...]) -> None:
    assert runner.run(sql).rows == (row,)
    assert runner.run("SELECT DATE '2024-05-01' AS d").rows[0][0].isoformat() == "2024-05-01"  # others stay dates


def test_allow_list_is_builtins_that_take_no_sql_settings_or_files() -> None:
    allowed = allowed_functions()
    assert 400 < len(allowed) < len(builtin_functions())
    assert allowed <= builtin_functions(), sorted(allowed - builtin_functions())  # no typos, no extension names
    assert not [f for f in allowed if is_denied_function(f)]
    for name in ("json_serialize_plan", "json_serialize_sql", "current_setting", "getvariable", "version",
                 "current_database", "repeat", "lpad", "printf", "range", "pg_sleep", "write_log",
                 "parse_path", "regexp_replace"):  # fmt: skip
        assert name not in allowed, name
    for name in ("upper", "count_star", "string_agg", "list_cosine_similarity", "regexp_matches", "row_number",
                 "strftime", "~~", "||", "date_part", "struct_extract"):  # fmt: skip
        assert name in allowed, name


def test_time_limit_interrupts(runner: GuardedSQL) -> None:
    with pytest.raises(SQLRunError, match=r"longer than 0\.2 s"):
        runner.run("SELECT count(*) FROM range(100000000000) AS a(i) WHERE i % 7 = 3", timeout_s=0.2)
    assert runner.run("SELECT 1 AS ok").rows == ((1,),)  # the runner still works


def test_runtime_errors_come_back_as_messages(runner: GuardedSQL) -> None:
    with pytest.raises(SQLRunError, match="nonexistent_col"):
        runner.run("SELECT nonexistent_col FROM tracks")


def test_runs_in_parallel_threads(runner: GuardedSQL) -> None:
    results: list[int] = []

    def work() -> None:
        results.append(runner.run("SELECT count(*) FROM detections").rows[0][0])

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(results)) == 1 and len(results) == 8


def test_injected_ocr_text_is_only_data(agent_memory: Path, runner: GuardedSQL, counts_before: dict[str, int]) -> None:
    # The memory holds on-screen text telling the model to drop a table. Reading it is fine;
    # what a fooled model would write next is refused; nothing changes.
    text = runner.run("SELECT text FROM ocr_spans WHERE text ILIKE '%drop table%'").rows[0][0]
    assert text == INJECTION
    for sql in ["DROP TABLE tracks", "SELECT 1; DROP TABLE tracks", f"SELECT '{text}'; DROP TABLE tracks"]:
        with pytest.raises(GuardError):
            runner.run(sql)
    with open_memory(agent_memory, read_only=True) as mem:
        assert mem.table_counts() == counts_before


def test_release_lets_the_same_process_write_again(tmp_path: Path) -> None:
    path = Path(build_memory(tmp_path / "r.duckdb"))
    with open_memory(path, read_only=True) as mem:
        assert guarded(mem).run("SELECT count(*) FROM tracks").rows == ((4,),)
        release_sandbox(mem)
    with open_memory(path) as writable:  # no "file handle conflict" with the released attachment
        assert writable.table_counts()["tracks"] == 4


def test_writable_memory_in_process_is_a_clear_error(tmp_path: Path) -> None:
    path = Path(build_memory(tmp_path / "w.duckdb"))
    with open_memory(path) as mem, pytest.raises(AgentError, match="read_only=True"):
        guarded(mem)
    with open_memory(path) as mem, pytest.raises(QueryError, match="read_only=True"):
        Sandbox(mem)


def test_library_views_and_macros_are_allowed(agent_memory: Path) -> None:
    def install(con: duckdb.DuckDBPyConnection) -> None:
        con.execute("CREATE TEMP VIEW people AS SELECT * FROM tracks WHERE category = 'person'")
        con.execute("CREATE TEMP MACRO visible_at(t) AS TABLE SELECT * FROM tracks WHERE first_s <= t AND t <= last_s")
        con.execute("CREATE TEMP MACRO span_s(a, b) AS b - a")

    with open_memory(agent_memory, read_only=True) as mem:
        runner = GuardedSQL(Sandbox(mem, install_library=install))
        assert {"people"} <= runner.library_views and {"visible_at", "span_s"} <= runner.library_functions
        assert runner.run("SELECT count(*) FROM people").rows == ((3,),)
        assert runner.run("SELECT count(*) FROM visible_at(5.5)").rows == ((4,),)
        assert runner.run("SELECT max(span_s(first_s, last_s)) FROM people").rows[0][0] == pytest.approx(11.5)
        runner.sandbox.close()


@pytest.mark.parametrize("name", ["read_csv", "READ_PARQUET", "sqlite_scan", "getenv", "current_setting", "query"])
def test_denied_function_names(name: str) -> None:
    assert is_denied_function(name)


@pytest.mark.parametrize("name", ["list_cosine_similarity", "regexp_matches", "count", "strftime", "range"])
def test_allowed_function_names(name: str) -> None:
    assert not is_denied_function(name)


def test_ducklake_memory_runs_locked(tmp_path: Path) -> None:
    uri = f"ducklake:sqlite:{tmp_path / 'lake.sqlite'}"
    build_memory(uri)
    with open_memory(uri, read_only=True) as mem:
        runner = guarded(mem)
        assert runner.run("SELECT count(*) FROM tracks WHERE category = 'person'").rows == ((3,),)
        with pytest.raises(GuardError):
            runner.run("SELECT * FROM read_csv('/etc/passwd')")
        with pytest.raises(ReadOnlyError):  # the lock holds without the checker too
            runner.sandbox.run("SELECT * FROM read_csv('/etc/passwd')")
