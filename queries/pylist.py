"""Query results as Python values, also the dates and times Python's `datetime` cannot hold.

DuckDB keeps dates far outside Python's years 1-9999 (`'infinity'::TIMESTAMP`, `'294247-01-10'`,
dates BC). Arrow carries them, but its `to_pylist` raises OverflowError on them, and every face
(`vidmem sql`, the web API, the MCP server, the agents' guard) turned that into a traceback. Here
such a value becomes text instead: 'infinity', '-infinity', or the date as ISO text with the year
it really has. Every other value is what `to_pylist` gives.

    >>> import pyarrow as pa
    >>> to_pylist(pa.array([0, 2**31 - 1, 200_000_000], pa.date32()))
    [datetime.date(1970, 1, 1), 'infinity', '549551-05-28']
"""

from datetime import datetime, timedelta
from typing import Any

import pyarrow as pa

__all__ = ["rows_to_pylist", "to_pylist"]

#: How DuckDB writes ±infinity into Arrow: the largest value of the storage integer, either sign.
_INFINITY = {2**63 - 1: "infinity", -(2**63 - 1): "-infinity", 2**31 - 1: "infinity", -(2**31 - 1): "-infinity"}
#: The Gregorian calendar repeats every 400 years, so any date is a date of 1970-2369 plus cycles.
_CYCLE_DAYS, _CYCLE_YEARS = 146_097, 400
_EPOCH = datetime(1970, 1, 1)
_TICKS_PER_S = {"s": 1, "ms": 1_000, "us": 1_000_000, "ns": 1_000_000_000}


def to_pylist(values: pa.Array | pa.ChunkedArray) -> list[Any]:
    """`values.to_pylist()`, with dates and times beyond Python's range as text (see the module)."""
    try:
        return values.to_pylist()
    except (OverflowError, ValueError):
        return [_scalar_to_py(v) for v in values]


def rows_to_pylist(table: pa.Table | pa.RecordBatch) -> list[dict[str, Any]]:
    """`table.to_pylist()` (one dict per row), converted as `to_pylist` converts."""
    columns = [to_pylist(c) for c in table.columns]
    return [dict(zip(table.column_names, row, strict=True)) for row in zip(*columns, strict=True)]


def _scalar_to_py(value: pa.Scalar) -> Any:
    try:
        return value.as_py()
    except (OverflowError, ValueError):
        kind = value.type
        if pa.types.is_struct(kind):
            return {kind.field(i).name: _scalar_to_py(value[i]) for i in range(kind.num_fields)}
        if pa.types.is_map(kind):  # as to_pylist gives a map: (key, value) pairs
            return [tuple(_scalar_to_py(entry).values()) for entry in value.values]
        if pa.types.is_list(kind) or pa.types.is_large_list(kind) or pa.types.is_fixed_size_list(kind):
            return [_scalar_to_py(v) for v in value.values]
        if pa.types.is_timestamp(kind) or pa.types.is_date(kind):
            return _temporal_text(value)
        raise  # not a date: a failure this module does not know, so a bug to see


def _temporal_text(value: pa.Scalar) -> str:
    """A timestamp or date Python cannot hold, as text: 'infinity', or ISO with its real year."""
    kind = value.type
    ticks: int = value.cast(pa.int32() if pa.types.is_date32(kind) else pa.int64()).as_py()
    if ticks in _INFINITY:
        return _INFINITY[ticks]
    if pa.types.is_date32(kind):
        return _iso(ticks * 86_400, 1, date_only=True)
    if pa.types.is_date64(kind):
        return _iso(ticks, 1_000, date_only=True)
    text = _iso(ticks, _TICKS_PER_S[kind.unit], date_only=False)
    return text + "+00:00" if kind.tz else text  # DuckDB hands Arrow TIMESTAMPTZ values in UTC


def _iso(ticks: int, per_second: int, *, date_only: bool) -> str:
    days, ticks_today = divmod(ticks, 86_400 * per_second)
    cycles, day = divmod(days, _CYCLE_DAYS)
    moment = _EPOCH + timedelta(days=day, microseconds=ticks_today * 1_000_000 // per_second)
    text = moment.date().isoformat() if date_only else moment.isoformat()
    return f"{moment.year + cycles * _CYCLE_YEARS:04d}{text[4:]}"  # moment.year has four digits
