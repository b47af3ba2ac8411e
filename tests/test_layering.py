"""The architecture is a checked contract, not something people remember (issue 22).

- import-linter's contracts (pyproject.toml, `[tool.importlinter]`) hold on the tree, and a
  deliberate violation in a copy of the tree makes `lint-imports` fail, naming the import.
- No SQL over the memory's tables or the library's views is written above queries/: the agents,
  the command line and ingest call named functions of queries/ (reads) or memory/ (writes). The scan
  looks at string literals and f-strings in code, not at docstrings (examples for people).
- queries/ renders no prompt text (issue 23): nothing there takes a token budget or a fence for
  video text; laying evidence out for a model is the agents' job (agents/brief_text.py).
"""

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import memory
import queries

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("memory", "ingest", "queries", "agents", "vidmem")
#: Packages that may hold SQL over the memory: the schema's owner and the one reader.
SQL_OWNERS = ("memory", "queries")
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def _names() -> list[str]:
    return sorted({*memory.metadata.tables, *(o.name for o in queries.library_objects())}, key=len, reverse=True)


_TABLES = "|".join(_names())
_SQL = re.compile(rf"\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\s+(?:memory\.)?({_TABLES})\b", re.IGNORECASE)


def sql_over_memory(source: str) -> list[tuple[int, str]]:
    """(line, text) of each string in `source` that reads or writes a memory table or library view;
    docstrings are skipped.

    >>> sql_over_memory('x = "SELECT n FROM tracks"\\ndef f():\\n    "Rows FROM tracks, for people."\\n')
    [(1, 'SELECT n FROM tracks')]
    >>> sql_over_memory('q = f"SELECT * FROM {t} JOIN detections USING (video_id)"')
    [(1, 'SELECT * FROM  JOIN detections USING (video_id)')]
    """
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)
    }
    parts = {id(v) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for v in node.values}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            text = "".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings | parts:
            text = node.value
        else:
            continue
        if _SQL.search(text):
            found.append((node.lineno, text.strip()))
    return found


def test_the_scan_finds_sql_in_strings_and_f_strings_but_not_in_docstrings() -> None:
    source = 'x = "SELECT n FROM tracks"\ndef f():\n    "Rows FROM tracks, for people."\n'
    assert sql_over_memory(source) == [(1, "SELECT n FROM tracks")]
    source = 'q = f"SELECT * FROM {t} JOIN detections USING (video_id)"\nr = "select * from when_visible(?)"'
    assert sql_over_memory(source) == [(1, "SELECT * FROM  JOIN detections USING (video_id)"),
                                       (2, "select * from when_visible(?)")]
    assert sql_over_memory('s = "the FROM field of tracking"\nt = "pick from a list"') == []


def test_no_sql_over_the_memory_above_queries() -> None:
    hits = [
        f"{path.relative_to(ROOT)}:{line}: {text[:90]!r}"
        for package in PACKAGES
        if package not in SQL_OWNERS
        for path in sorted((ROOT / package).rglob("*.py"))
        for line, text in sql_over_memory(path.read_text(encoding="utf-8"))
    ]
    assert not hits, "SQL over the memory outside memory/ and queries/ (make it a named function there):\n" + "\n".join(
        hits
    )


#: Parameters of prompt rendering: a token budget, and the function that fences video text as data.
_PROMPT_PARAMETERS = ("max_tokens", "quote")


def prompt_rendering(source: str) -> list[tuple[int, str]]:
    """(line, name) of each function in `source` that takes a prompt's token budget or quoting function.

    >>> prompt_rendering("def render(self, max_tokens=600, quote=None):\\n    pass\\ndef run(sql): pass\\n")
    [(1, 'render')]
    """
    return [
        (node.lineno, node.name)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and any(a.arg in _PROMPT_PARAMETERS for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs))
    ]


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("class Brief:\n    def render(self, max_tokens: int = 600) -> str: ...\n", [(2, "render")]),
        ("def text(brief, *, quote=None): ...\n", [(1, "text")]),
        ("async def fitted(brief, max_tokens, /): ...\n", [(1, "fitted")]),
        ("def evidence_brief(memory, question, *, k=6): ...\nquote = 1\n", []),
    ],
)
def test_the_prompt_scan_finds_a_budget_or_a_fence(source: str, found: list[tuple[int, str]]) -> None:
    assert prompt_rendering(source) == found


def test_queries_render_no_prompt_text() -> None:
    hits = [
        f"{path.relative_to(ROOT)}:{line}: {name}"
        for path in sorted((ROOT / "queries").rglob("*.py"))
        for line, name in prompt_rendering(path.read_text(encoding="utf-8"))
    ]
    assert not hits, "prompt rendering in queries/ (a token budget or a quoting function; move it to agents/):\n" + (
        "\n".join(hits)
    )


def _lint_imports(cwd: Path) -> subprocess.CompletedProcess[str]:
    if not LINT_IMPORTS.exists():
        pytest.fail(f"{LINT_IMPORTS} is missing: install the dev extra (make install)")
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"], cwd=cwd, capture_output=True, text=True, timeout=300, check=False
    )


def test_the_import_contracts_hold() -> None:
    run = _lint_imports(ROOT)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "BROKEN" not in run.stdout and " KEPT" in run.stdout


@pytest.mark.parametrize(
    ("module", "line", "contract"),
    [
        ("queries/_violation.py", "import agents.answer", "One-way packages"),
        ("agents/_violation.py", "import ingest", "never import ingest"),
        ("vidmem/_violation.py", "import duckdb", "Only memory/, ingest/ and queries/ open DuckDB"),
        ("ingest/models/_violation.py", "from ingest.roles import asr", "models and media reading know no model role"),
        ("agents/tools/_violation.py", "import agents.planners.react", "tools and the pieces below know no planner"),
    ],
)
def test_a_deliberate_violation_fails(tmp_path: Path, module: str, line: str, contract: str) -> None:
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / module).write_text(f'"""A deliberate violation of the layering."""\n\n{line}\n')
    run = _lint_imports(tmp_path)
    assert run.returncode != 0, run.stdout[-3000:]
    broken = run.stdout[run.stdout.index("Broken contracts"):]
    assert contract in broken.replace("\n", " ") and module.replace("/", ".").removesuffix(".py") in broken
