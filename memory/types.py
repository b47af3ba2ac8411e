"""Column types that SQLAlchemy Core does not spell the way DuckDB needs."""

from typing import Any

from sqlalchemy.types import UserDefinedType


class FloatList(UserDefinedType[list[float]]):
    """A DuckDB `FLOAT[]` list: an embedding vector of any length.

    Lists rather than fixed `FLOAT[d]` arrays because one column holds vectors of whichever
    model produced them (the row's `model` column says which); queries cast to `FLOAT[d]` when
    an index needs a fixed size.
    """

    cache_ok = True

    def get_col_spec(self, **kw: Any) -> str:
        return "FLOAT[]"
