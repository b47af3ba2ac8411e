"""`vidmem mcp` driven by the official MCP SDK's client over stdio, as another agent would use it."""

import json
import os
import queue
import shutil
import sys
import threading
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

ROOT = Path(__file__).resolve().parents[1]


def _server(memory: Path, *extra: str) -> StdioServerParameters:
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    return StdioServerParameters(
        command=sys.executable, args=["-m", "vidmem", "mcp", "--memory", str(memory), *extra], env=env, cwd=ROOT
    )


def _payload(result: Any) -> Any:
    """A tool result's value: structured content when the SDK gives it, else the JSON text."""
    assert not result.is_error, result.content
    if result.structured_content is not None:
        data = result.structured_content
        return data.get("result", data) if isinstance(data, dict) and set(data) == {"result"} else data
    return json.loads(result.content[0].text)


def _error_text(result: Any) -> str:
    assert result.is_error, result
    return " ".join(getattr(c, "text", "") for c in result.content)


def _session(memory: Path, script: Any, *extra: str) -> Any:
    """Start the server, initialize a client session, run `script(session)`, return what it returns."""

    async def main() -> Any:
        with open(os.devnull, "w") as errlog:
            async with (
                stdio_client(_server(memory, *extra), errlog=errlog) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                return await script(session)

    return anyio.run(main)


@pytest.fixture(scope="module")
def memory_copy(asr_memory: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A private copy of the ASR memory (the server opens it read-only; the copy proves nothing changes)."""
    path = tmp_path_factory.mktemp("mcp") / "m.duckdb"
    shutil.copy(asr_memory, path)
    return path


def test_tools_listed_and_answered_over_stdio(memory_copy: Path) -> None:
    before = memory_copy.read_bytes()

    async def script(s: ClientSession) -> dict[str, Any]:
        tools = await s.list_tools()
        videos = _payload(await s.call_tool("list_videos", {}))
        sign = next(v for v in videos if v["path"].endswith("speech_sign.mp4"))
        return {
            "tools": {t.name for t in tools.tools},
            "videos": videos,
            "sql": _payload(await s.call_tool("sql", {"query": "SELECT count(*) AS n FROM transcript"})),
            "search": _payload(await s.call_tool("search", {"query": "train station", "k": 3})),
            "timeline": _payload(
                await s.call_tool("timeline", {"video_id": sign["video_id"], "from_s": 1.0, "to_s": 6.0})
            ),
            "schema": (await s.read_resource("vidmem://schema")).contents[0].text,
        }

    got = _session(memory_copy, script, "--no-semantic")
    assert {"list_videos", "sql", "search", "timeline", "ask", "video_summary"} <= got["tools"]
    assert {Path(v["path"]).name for v in got["videos"]} == {"speech_sign.mp4", "speech_count.mp4"}
    assert all(v["file"] == Path(v["path"]).name for v in got["videos"])  # every output naming a video names its file
    assert got["timeline"] and all(e["file"] == "speech_sign.mp4" for e in got["timeline"])
    assert all(v["status"] == "ok" and v["duration_s"] > 0 for v in got["videos"])
    assert got["sql"]["columns"] == ["n"] and got["sql"]["rows"][0][0] >= 2
    top = got["search"][0]
    assert top["kind"] == "speech" and "train" in top["text"].lower()
    assert top["file"] in ("speech_sign.mp4", "speech_count.mp4") and top["path"].endswith(top["file"])
    assert 1.0 <= top["start_s"] <= 2.5, top  # whisper puts the sentence at 1.62-4.90 s
    assert any(e["kind"] == "speech" and "train" in (e.get("text") or "").lower() for e in got["timeline"])
    assert "transcript" in got["schema"] and "start_s" in got["schema"]
    assert memory_copy.read_bytes() == before


def test_a_video_summary_names_its_file_and_chapters(serve_memory: Path, tmp_path: Path) -> None:
    """serve_memory: speech_sign summarized (scripted chat model over its real speech and signs); the
    summary is read by file name, path or id, its chapters are search hits naming the file, and a video
    without a summary says so."""
    copy = tmp_path / "serve.duckdb"
    shutil.copy(serve_memory, copy)

    async def script(s: ClientSession) -> dict[str, Any]:
        by_file = _payload(await s.call_tool("video_summary", {"video": "speech_sign.mp4"}))
        title = by_file["chapters"][0]["title"]
        return {
            "by_file": by_file,
            "by_id": _payload(await s.call_tool("video_summary", {"video": by_file["video_id"]})),
            "none": _payload(await s.call_tool("video_summary", {"video": "vxss0000000000000"})),
            "unknown": _error_text(await s.call_tool("video_summary", {"video": "nosuch.mp4"})),
            "search": _payload(await s.call_tool("search", {"query": title, "k": 10})),
        }

    got = _session(copy, script, "--no-semantic")
    summary = got["by_file"]
    assert summary == got["by_id"]
    assert summary["file"] == "speech_sign.mp4" and summary["title"] == "A scripted video"
    assert summary["summary"] == "It says what its chapters say."
    chapters = summary["chapters"]
    assert chapters and chapters[0]["start_s"] == 0.0 and all(c["end_s"] > c["start_s"] for c in chapters)
    assert set(chapters[0]) == {"start_s", "end_s", "title", "text"}
    assert got["none"]["file"] == "speech_count.mp4" and got["none"]["summary"] is None and got["none"]["note"]
    assert "nosuch.mp4" in got["unknown"]
    hits = [h for h in got["search"] if h["kind"] == "chapter"]
    assert hits and hits[0]["file"] == "speech_sign.mp4", got["search"]


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("DELETE FROM transcript", "SELECT"),
        ("COPY (SELECT 1) TO 'x.csv'", "SELECT"),
        ("SELECT * FROM read_csv('/etc/passwd')", "read_csv"),
        ("ATTACH 'other.duckdb' AS o", "SELECT"),
    ],
)
def test_writes_and_escapes_are_refused_with_the_reason(memory_copy: Path, query: str, words: str) -> None:
    before = memory_copy.read_bytes()

    async def script(s: ClientSession) -> str:
        return _error_text(await s.call_tool("sql", {"query": query}))

    message = _session(memory_copy, script, "--no-semantic")
    assert words.lower() in message.lower(), message
    assert memory_copy.read_bytes() == before


def test_bad_arguments_are_tool_errors_not_crashes(memory_copy: Path) -> None:
    async def script(s: ClientSession) -> list[str]:
        return [
            _error_text(await s.call_tool("timeline", {"video_id": "vnosuchvideo"})),
            _error_text(await s.call_tool("search", {"query": "train", "k": 0})),
            _error_text(await s.call_tool("ask", {"question": "what?", "planner": "nosuch"})),
            # the server is still there after three errors
            str(len(_payload(await s.call_tool("list_videos", {"limit": 1})))),
        ]

    unknown, bad_k, bad_planner, still = _session(memory_copy, script, "--no-semantic")
    assert "vnosuchvideo" in unknown
    assert "k" in bad_k and "greater than or equal to 1" in bad_k  # the input schema's bound, checked by the SDK
    assert "planner must be one of" in bad_planner
    assert still == "1"


def test_tools_say_they_only_read_and_bound_their_arguments(memory_copy: Path) -> None:
    from queries.browse import VIDEO_STATUSES
    from vidmem.mcp_server import MAX_K, MAX_LIST, MAX_SQL_ROWS

    async def script(s: ClientSession) -> list[Any]:
        return (await s.list_tools()).tools

    tools = {t.name: t for t in _session(memory_copy, script, "--no-semantic")}
    assert set(tools) == {"list_videos", "sql", "search", "timeline", "ask", "video_summary"}
    for name, tool in tools.items():
        hints = tool.annotations
        assert hints is not None and tool.title and hints.title == tool.title, name
        assert hints.read_only_hint is True and hints.destructive_hint is False, name
        llm = name == "ask"  # calls an LLM endpoint: outside the memory, and its answers vary
        assert hints.open_world_hint is llm and hints.idempotent_hint is not llm, name

    def prop(tool: str, arg: str) -> dict[str, Any]:
        schema: dict[str, Any] = tools[tool].input_schema["properties"][arg]
        return schema

    def bounds(tool: str, arg: str) -> tuple[int, int]:
        return prop(tool, arg)["minimum"], prop(tool, arg)["maximum"]

    assert bounds("list_videos", "limit") == (1, MAX_LIST)
    assert bounds("sql", "max_rows") == (1, MAX_SQL_ROWS)
    assert bounds("search", "k") == (1, MAX_K)
    assert prop("list_videos", "offset")["minimum"] == 0
    assert prop("list_videos", "status")["anyOf"][0]["enum"] == list(VIDEO_STATUSES)


def test_dates_python_cannot_hold_come_back_as_text(memory_copy: Path) -> None:
    before = memory_copy.read_bytes()

    async def script(s: ClientSession) -> list[Any]:
        return [
            _payload(await s.call_tool("sql", {"query": query}))["rows"]
            for query in (
                "SELECT 'infinity'::TIMESTAMP AS t, '-infinity'::DATE AS d",
                "SELECT '294247-01-10'::TIMESTAMP AS t",
                "SELECT ['infinity'::TIMESTAMP] AS l",
            )
        ]

    assert _session(memory_copy, script, "--no-semantic") == [
        [["infinity", "-infinity"]],
        [["294247-01-10T00:00:00"]],
        [[["infinity"]]],
    ]
    assert memory_copy.read_bytes() == before


def test_a_line_that_is_no_json_rpc_message_gets_an_error_and_serving_goes_on(memory_copy: Path) -> None:
    import subprocess

    server = _server(memory_copy, "--no-semantic")
    proc = subprocess.Popen(
        [server.command, *server.args], env=server.env, cwd=ROOT, text=True,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    stdin, stdout = proc.stdin, proc.stdout
    assert stdin is not None and stdout is not None
    # Lines read on a thread, so that a reply that never comes fails the test instead of hanging it.
    replies: queue.Queue[str] = queue.Queue()

    def read() -> None:
        for line in stdout:
            replies.put(line)

    threading.Thread(target=read, daemon=True).start()

    def ask(line: str) -> dict[str, Any]:
        stdin.write(line + "\n")
        stdin.flush()
        reply: dict[str, Any] = json.loads(replies.get(timeout=60))
        return reply

    try:
        hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}
        assert "result" in ask(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello}))
        stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
        broken = ask('{"jsonrpc": "2.0", "id": 2, "method": "tools/list"')
        assert broken["id"] is None and broken["error"]["code"] == -32700, broken
        assert "Parse error" in broken["error"]["message"]
        not_a_message = ask('{"jsonrpc": "2.0", "id": 3}')
        assert not_a_message["id"] is None and not_a_message["error"]["code"] == -32600, not_a_message
        listed = ask(json.dumps({"jsonrpc": "2.0", "id": 4, "method": "tools/list"}))
        assert listed["id"] == 4 and {t["name"] for t in listed["result"]["tools"]} >= {"sql", "search"}
    finally:
        stdin.close()
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise
    assert proc.returncode == 0


def test_missing_memory_fails_at_start_in_one_line(tmp_path: Path) -> None:
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "vidmem", "mcp", "--memory", str(tmp_path / "none" / "m.duckdb")],
        capture_output=True, text=True, cwd=ROOT, stdin=subprocess.DEVNULL, timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
