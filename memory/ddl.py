"""Turning the SQLAlchemy schema into DuckDB DDL and Arrow schemas.

The mapping is written out instead of compiled through a dialect so that the same DDL serves a
DuckDB file and a DuckLake catalog, and Arrow tables built by extractors get exactly the column
types the database has (an empty list of rows still has typed columns).
"""

from collections.abc import Mapping
from typing import Any, TypeVar

import pyarrow as pa
from sqlalchemy import BigInteger, Boolean, Column, DateTime, Double, Integer, String, Table
from sqlalchemy.types import TypeEngine

from memory.types import FloatList

T = TypeVar("T")

# Exact types, not isinstance: BigInteger is a subclass of Integer.
_DUCKDB: dict[type, str] = {
    String: "VARCHAR",
    Integer: "INTEGER",
    BigInteger: "BIGINT",
    Double: "DOUBLE",
    Boolean: "BOOLEAN",
    DateTime: "TIMESTAMP",
    FloatList: "FLOAT[]",
}
_ARROW: dict[type, pa.DataType] = {
    String: pa.string(),
    Integer: pa.int32(),
    BigInteger: pa.int64(),
    Double: pa.float64(),
    Boolean: pa.bool_(),
    DateTime: pa.timestamp("us"),
    FloatList: pa.list_(pa.float32()),
}


def _lookup(mapping: Mapping[type, T], sql_type: TypeEngine[Any], column: str) -> T:
    try:
        return mapping[type(sql_type)]
    except KeyError:
        raise TypeError(f"column {column}: no DuckDB/Arrow mapping for {type(sql_type).__name__}") from None


def duckdb_type(column: Column[Any]) -> str:
    return _lookup(_DUCKDB, column.type, column.name)


def create_table_sql(table: Table) -> str:
    cols = ",\n  ".join(f"{c.name} {duckdb_type(c)}{'' if c.nullable else ' NOT NULL'}" for c in table.columns)
    return f"CREATE TABLE IF NOT EXISTS {table.name} (\n  {cols}\n)"


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def comment_sql(table: Table) -> list[str]:
    """COMMENT ON statements, so DuckDB's own catalog (duckdb_columns()) explains the schema too."""
    stmts = []
    if table.comment:
        stmts.append(f"COMMENT ON TABLE {table.name} IS {_quote(table.comment)}")
    for c in table.columns:
        if c.comment:
            stmts.append(f"COMMENT ON COLUMN {table.name}.{c.name} IS {_quote(c.comment)}")
    return stmts


def arrow_schema(table: Table) -> pa.Schema:
    """The Arrow schema of `table`, nullability included."""
    fields = []
    for c in table.columns:
        dtype = _lookup(_ARROW, c.type, c.name)
        fields.append(pa.field(c.name, dtype, nullable=bool(c.nullable)))
    return pa.schema(fields)
