"""The schema explained in words, generated from the schema's own comments.

One text serves people (`vidmem sql --schema`) and prompts (agents show a sub-agent only the tables
it needs, via `tables=`).
"""

from collections.abc import Iterable
from typing import Any

from memory.ddl import duckdb_type
from memory.schema import metadata


def schema_dict(tables: Iterable[str] | None = None) -> list[dict[str, Any]]:
    """Tables and columns with type, unit and meaning, as plain data (for JSON output)."""
    names = list(tables) if tables is not None else [t for t in metadata.tables if t != "schema_info"]
    out = []
    for name in names:
        t = metadata.tables[name]
        out.append(
            {
                "table": name,
                "meaning": t.comment or "",
                "columns": [
                    {
                        "name": c.name,
                        "type": duckdb_type(c),
                        "unit": c.info.get("unit"),
                        "nullable": bool(c.nullable),
                        "meaning": c.comment or "",
                    }
                    for c in t.columns
                ],
            }
        )
    return out


def describe_schema(tables: Iterable[str] | None = None) -> str:
    """A compact text description: one line per table, one per column.

    >>> print(describe_schema(["actions"]).splitlines()[0])
    actions: Space-dominant: actions of tracked instances over time intervals.
    """
    lines = []
    for t in schema_dict(tables):
        lines.append(f"{t['table']}: {t['meaning']}")
        for c in t["columns"]:
            unit = f" [{c['unit']}]" if c["unit"] else ""
            lines.append(f"  {c['name']} {c['type']}{unit}: {c['meaning']}")
    return "\n".join(lines)
