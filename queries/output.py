"""Query results as text for people and files for programs: table, CSV, JSON or Parquet.

`vidmem sql --format` uses `format_result`; the JSON shape (an array of row objects, keys in
column order, NULL as null, times as ISO 8601) is stable for scripts.
"""

import base64
import csv
import io
import json
import math
from collections.abc import Iterable, Iterator
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any, Literal

import pyarrow as pa
import pyarrow.parquet as pq

from queries.errors import ParameterError
from queries.pylist import rows_to_pylist, to_pylist

Format = Literal["table", "csv", "json", "parquet"]
FORMATS: tuple[str, ...] = ("table", "csv", "json", "parquet")

_CELL_CHARS = 60  # longest cell the table format shows before cutting it
_LIST_SHOWN = 3  # values of a list (an embedding) the table format shows


def format_result(rows: pa.Table, fmt: str = "table", *, max_rows: int | None = 100) -> str | bytes:
    """`rows` in format `fmt`: text for table/csv/json, bytes for parquet.

    `max_rows` limits the table format only (it says how many rows were left out); the other
    formats carry every row.

    >>> print(format_result(pa.table({"t_s": [1.5, 2.0], "text": ["hi", None]})))
    t_s  text
    ---  ----
    1.5  hi
    2.0  NULL
    (2 rows)
    """
    if fmt == "table":
        return _table(rows, max_rows)
    if fmt == "csv":
        return _csv(rows)
    if fmt == "json":
        return json.dumps([_jsonable_row(r) for r in rows_to_pylist(rows)], ensure_ascii=False, allow_nan=False) + "\n"
    if fmt == "parquet":
        buf = io.BytesIO()
        pq.write_table(rows, buf)
        return buf.getvalue()
    raise ParameterError(f"format must be one of {', '.join(FORMATS)}, got {fmt!r}")


def _table(rows: pa.Table, max_rows: int | None) -> str:
    if max_rows is not None and max_rows < 0:
        raise ParameterError(f"max_rows must be >= 0 or None, got {max_rows}")
    shown = rows if max_rows is None else rows.slice(0, max_rows)
    names = rows.column_names
    numeric = [pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_decimal(t) for t in rows.schema.types]
    cells = [[_cell(v) for v in to_pylist(col)] for col in shown.columns]
    widths = [max([len(n), *(len(c) for c in col)]) for n, col in zip(names, cells, strict=True)]
    lines = [
        "  ".join(n.ljust(w) for n, w in zip(names, widths, strict=True)).rstrip(),
        "  ".join("-" * w for w in widths),
    ]
    for i in range(shown.num_rows):
        parts = [
            col[i].rjust(w) if num else col[i].ljust(w)
            for col, w, num in zip(cells, widths, numeric, strict=True)
        ]
        lines.append("  ".join(parts).rstrip())
    total = rows.num_rows
    noun = "row" if total == 1 else "rows"
    lines.append(f"({total} {noun})" if shown.num_rows == total else f"({total} {noun}, first {shown.num_rows} shown)")
    return "\n".join(lines)


def _cell(value: Any) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, float):
        return "NaN" if math.isnan(value) else repr(round(value, 4))
    if isinstance(value, list):
        head = ", ".join(_cell(v) for v in value[:_LIST_SHOWN])
        return f"[{head}]" if len(value) <= _LIST_SHOWN else f"[{head}, ... {len(value)} values]"
    text = value.isoformat(sep=" ") if isinstance(value, datetime) else str(value)
    text = text.replace("\n", " ")
    return text if len(text) <= _CELL_CHARS else text[: _CELL_CHARS - 3] + "..."


def format_stream(batches: Iterable[pa.RecordBatch], fmt: str) -> Iterator[bytes]:
    """A result that arrives in batches as the bytes of one CSV or JSON file, batch by batch: what
    `format_result` gives for the whole table, never held whole. (Parquet: `write_parquet`.)

    >>> t = pa.table({"n": [1, 2, 3]})
    >>> b"".join(format_stream(t.to_batches(max_chunksize=2), "json")).decode() == format_result(t, "json")
    True
    """
    if fmt not in ("csv", "json"):
        raise ParameterError(f"a streamed format is csv or json, got {fmt!r}")
    first = True
    for batch in batches:
        rows = pa.Table.from_batches([batch])
        if fmt == "csv":
            yield _csv(rows, header=first).encode()
        else:
            items = [json.dumps(_jsonable_row(r), ensure_ascii=False, allow_nan=False) for r in rows_to_pylist(rows)]
            if items:
                yield (("[" if first else ", ") + ", ".join(items)).encode()
                first = False
            continue
        first = False
    if fmt == "json":
        yield b"[]\n" if first else b"]\n"


def write_parquet(batches: Iterable[pa.RecordBatch], schema: pa.Schema, path: str | Path) -> int:
    """Write the batches to a Parquet file at `path`, one row group per batch; the rows written."""
    n = 0
    with pq.ParquetWriter(str(path), schema) as writer:
        for batch in batches:
            writer.write_batch(batch)
            n += batch.num_rows
    return n


def _csv(rows: pa.Table, *, header: bool = True) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    if header:
        writer.writerow(rows.column_names)
    columns = [to_pylist(c) for c in rows.columns]  # by position: DuckDB allows two columns of one name
    for row in zip(*columns, strict=True):
        writer.writerow(["" if v is None else _csv_value(v) for v in row])
    return buf.getvalue()


def _csv_value(value: Any) -> Any:
    if isinstance(value, list | dict):
        return json.dumps(_jsonable(value), ensure_ascii=False)
    return _jsonable(value)


def _jsonable_row(row: dict[str, Any]) -> dict[str, Any]:
    return {k: _jsonable(v) for k, v in row.items()}


def _jsonable(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, timedelta):
        return value.total_seconds()
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, bytes):
        return base64.b64encode(value).decode()
    if isinstance(value, list | tuple):  # a tuple: a (key, value) pair of a MAP
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return value
