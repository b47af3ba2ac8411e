"""Result formats for `vidmem sql`, and reaching a memory from SQLAlchemy / pandas for real."""

import io
import json
import shutil
from datetime import datetime
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import sqlalchemy

import queries
from memory import open_memory

ROWS = pa.table(
    {
        "video_id": ["vA", "vB"],
        "t_s": [1.5, None],
        "n": [3, 12],
        "text": ['she said "hi", then left', "a\nb"],
        "embedding": [[0.1, 0.2, 0.3, 0.4], [1.0]],
        "at": [datetime(2024, 5, 1, 12, 0, 0), None],
    }
)


def test_table_format_aligns_and_shortens() -> None:
    text = queries.format_result(ROWS, "table")
    assert isinstance(text, str)
    lines = text.splitlines()
    assert lines[0].split() == ["video_id", "t_s", "n", "text", "embedding", "at"]
    assert "NULL" in lines[3] and "[0.1, 0.2, 0.3, ... 4 values]" in lines[2] and "[1.0]" in lines[3]
    assert "a b" in lines[3]  # newlines inside a cell would break the table
    assert lines[-1] == "(2 rows)"
    starts = [i for i, c in enumerate(lines[1]) if c == "-" and (i == 0 or lines[1][i - 1] == " ")]
    assert [lines[0].index(name) for name in ROWS.column_names] == starts  # header and rule line up


def test_table_format_says_how_many_rows_were_left_out() -> None:
    text = queries.format_result(pa.table({"i": list(range(250))}), "table", max_rows=100)
    assert isinstance(text, str) and text.endswith("(250 rows, first 100 shown)")
    assert len(text.splitlines()) == 2 + 100 + 1
    assert queries.format_result(pa.table({"i": [1]}), "table").endswith("(1 row)")


def test_csv_format() -> None:
    text = queries.format_result(ROWS, "csv")
    assert isinstance(text, str)
    back = pd.read_csv(io.StringIO(text))
    assert list(back.columns) == ROWS.column_names
    assert back["text"].tolist() == ['she said "hi", then left', "a\nb"]
    assert json.loads(back["embedding"][0]) == pytest.approx([0.1, 0.2, 0.3, 0.4])
    assert pd.isna(back["t_s"][1])


def test_json_format_is_stable_for_scripts() -> None:
    text = queries.format_result(ROWS, "json")
    assert isinstance(text, str)
    data = json.loads(text)
    assert list(data[0]) == ROWS.column_names  # keys in column order
    assert data[0]["at"] == "2024-05-01T12:00:00" and data[1]["at"] is None and data[1]["t_s"] is None
    assert json.loads(queries.format_result(pa.table({"x": [float("nan")]}), "json")) == [{"x": None}]


def test_parquet_format_round_trips() -> None:
    data = queries.format_result(ROWS, "parquet", max_rows=1)  # max_rows is for the table format only
    assert isinstance(data, bytes)
    assert pq.read_table(io.BytesIO(data)).equals(ROWS)


#: How DuckDB hands Arrow 'infinity' and dates past year 9999 (raw storage values, as DuckDB writes them).
FAR = pa.table(
    {
        "t": pa.array([2**63 - 1, -(2**63 - 1), 9_223_372_022_400_000_000, 0], pa.timestamp("us")),
        "d": pa.array([2**31 - 1, -(2**31 - 1), 200_000_000, None], pa.date32()),
        "l": pa.array([[2**63 - 1], [], None, [0]], pa.list_(pa.timestamp("s"))),
        "m": pa.array([[("a", 2**31 - 1)], [], None, [("b", 0)]], pa.map_(pa.string(), pa.date32())),
    }
)


def test_dates_python_cannot_hold_are_text_in_every_format() -> None:
    from queries.pylist import rows_to_pylist

    rows = rows_to_pylist(FAR)
    assert [r["t"] for r in rows] == ["infinity", "-infinity", "294247-01-10T00:00:00", datetime(1970, 1, 1)]
    assert [r["d"] for r in rows] == ["infinity", "-infinity", "549551-05-28", None]
    assert rows[0]["l"] == ["infinity"] and rows[3]["l"] == [datetime(1970, 1, 1)]
    assert rows[0]["m"] == [("a", "infinity")] and rows[2]["m"] is None
    table = queries.format_result(FAR, "table")
    assert isinstance(table, str) and "infinity" in table and "294247-01-10" in table
    assert json.loads(queries.format_result(FAR, "json"))[0]["t"] == "infinity"
    assert queries.format_result(FAR, "csv").splitlines()[1:5:3] == [
        'infinity,infinity,"[""infinity""]","[[""a"", ""infinity""]]"',
        '1970-01-01T00:00:00,,"[""1970-01-01T00:00:00""]","[[""b"", ""1970-01-01""]]"',
    ]
    parquet = queries.format_result(FAR, "parquet")  # Arrow's own values, written as they are
    assert isinstance(parquet, bytes)
    assert pq.read_table(io.BytesIO(parquet)).select(["t", "d"]) == FAR.select(["t", "d"])


@pytest.mark.parametrize(("fmt", "kwargs"), [("xml", {}), ("table", {"max_rows": -1})])
def test_bad_format_arguments(fmt: str, kwargs: dict[str, Any]) -> None:
    with pytest.raises(queries.ParameterError):
        queries.format_result(ROWS, fmt, **kwargs)


def test_sql_result_through_every_format(known_memory: Path, tmp_path: Path) -> None:
    path = tmp_path / "m.duckdb"
    shutil.copy(known_memory, path)
    with open_memory(path, read_only=True) as memory:
        result = queries.run_sql(memory, "SELECT * FROM when_visible('vA', 'person')")
        for fmt in queries.FORMATS:
            assert queries.format_result(result, fmt)


# ------------------------------------------------------------------------------ SQLAlchemy / pandas


def test_sqlalchemy_url_works_with_pandas_and_sqlalchemy(known_memory: Path, tmp_path: Path) -> None:
    path = tmp_path / "m.duckdb"
    shutil.copy(known_memory, path)
    with open_memory(path) as memory:
        queries.install(memory)  # persisted: BI tools see the library too
    url = queries.sqlalchemy_url(path)
    assert url.startswith(f"duckdb:///{path}?access_mode=read_only&enable_external_access=false")
    engine = sqlalchemy.create_engine(url)
    try:
        df = pd.read_sql("SELECT start_s, end_s FROM when_visible('vA', 'person') ORDER BY start_s", engine)
        assert df.values.tolist() == [[0.0, 4.0], [7.0, 9.0]]
        with engine.connect() as con:
            n = con.execute(
                sqlalchemy.text("SELECT count(*) FROM transcript WHERE video_id = :vid"), {"vid": "vB"}
            ).scalar()
            assert n == 5
            assert "tracks" in sqlalchemy.inspect(con).get_table_names()
            with pytest.raises(sqlalchemy.exc.DBAPIError, match="read-only"):
                con.execute(sqlalchemy.text("DELETE FROM videos"))
    finally:
        engine.dispose()


def test_sqlalchemy_engine_for_a_ducklake(tmp_path: Path, minilm: Any) -> None:
    from tests.test_queries_data import write_known

    uri = f"ducklake:sqlite:{tmp_path / 'lake.sqlite'}"
    with open_memory(uri) as memory:
        write_known(memory, minilm)
    with pytest.raises(queries.QueryError, match="sqlalchemy_engine"):
        queries.sqlalchemy_url(uri)
    engine = queries.sqlalchemy_engine(uri)
    try:
        df = pd.read_sql("SELECT category, count(*) AS n FROM tracks GROUP BY category ORDER BY category", engine)
    finally:
        engine.dispose()
    assert df.values.tolist() == [["car", 1], ["dog", 1], ["person", 2]]


def test_library_script_for_the_duckdb_cli(known_memory: Path) -> None:
    """What ACCESS.md tells a DuckDB CLI user of a memory without the library to `.read`."""
    import duckdb

    con = duckdb.connect(str(known_memory), read_only=True)
    try:
        for statement in queries.library_script(temp=True).split(";\n\n"):
            con.execute(statement)
        got = con.execute("SELECT cx, cy FROM track_position('vA', 3, 2.5)").fetchall()
    finally:
        con.close()
    assert got == [(475.0, 230.0)]
