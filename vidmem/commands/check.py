"""vidmem check: is a memory sound? Schema version, every table read whole, rows per role."""

import argparse
import json

import queries
from memory import open_memory
from vidmem.cli import EXIT_FAILED, EXIT_OK, add_memory_arg


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "check",
        help="verify a memory: schema version, tables readable, rows per role",
        description="Verify a memory without changing it: its schema version, every table read whole (a damaged "
        "block fails the read), and each video's rows per table against what its roles recorded storing "
        "(role_runs). Exit status 0 when sound, 1 with one line per problem otherwise. A memory too damaged to "
        "open is refused in words: restore a backup, or re-ingest the videos into a new memory.",
    )
    add_memory_arg(p)
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    with open_memory(args.memory, read_only=True) as memory:
        found = queries.check_memory(memory)
        where = str(memory.uri)
    problems = found.problems
    if args.format == "json":
        print(json.dumps({"memory": where, "schema_version": found.schema_version, "ok": not problems,
                          "tables": [vars(t) for t in found.tables], "problems": problems}, indent=1))
        return EXIT_OK if not problems else EXIT_FAILED
    print(f"memory  {where}  (schema {found.schema_version})")
    for t in found.tables:
        print(f"  {t.table:<18}{'unreadable' if t.error else f'{t.rows:>10,} rows read'}")
    for line in problems:
        print(f"problem: {line}")
    print("sound" if not problems else f"{len(problems)} problem(s)")
    return EXIT_OK if not problems else EXIT_FAILED
