"""vidmem serve's JSON API and pages, through FastAPI's TestClient over a real ingested memory."""

import io
import itertools
import json
import tempfile
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from memory import Memory
from tests.conftest import XSS_TEXT
from vidmem.serve import MemorySource, create_app


@pytest.fixture(scope="module")
def client(serve_memory: Path) -> TestClient:
    with TestClient(create_app(str(serve_memory), hold_s=0)) as c:
        yield c


def _video(client: TestClient, name: str) -> dict:
    return next(v for v in client.get("/api/videos").json() if v["path"].endswith(name))


def test_videos_lists_every_video_with_status(client: TestClient) -> None:
    r = client.get("/api/videos")
    assert r.status_code == 200
    videos = {Path(v["path"]).name: v for v in r.json()}
    assert r.headers["x-total-count"] == "3"
    assert videos["speech_sign.mp4"]["status"] == "ok" and videos["speech_sign.mp4"]["duration_s"] > 5
    assert json.loads(videos["speech_sign.mp4"]["roles"])["asr"] == "ran"
    failed = next(v for v in videos.values() if v["status"] == "failed")
    assert failed["error"] == "no video stream"
    # filter and paging happen in SQL
    assert [v["status"] for v in client.get("/api/videos", params={"status": "failed"}).json()] == ["failed"]
    page = client.get("/api/videos", params={"limit": 1, "offset": 1})
    assert len(page.json()) == 1 and page.headers["x-total-count"] == "3"
    assert client.get("/api/videos", params={"q": "speech_sign"}).json()[0]["path"].endswith("speech_sign.mp4")
    assert client.get("/api/videos", params={"status": "weird"}).status_code == 422


def test_media_serves_byte_ranges(client: TestClient, media: dict[str, Path]) -> None:
    vid = _video(client, "speech_sign.mp4")["video_id"]
    data = media["speech_sign"].read_bytes()
    whole = client.get(f"/media/{vid}")
    assert whole.status_code == 200 and whole.content == data
    assert whole.headers["accept-ranges"] == "bytes" and whole.headers["content-type"] == "video/mp4"
    part = client.get(f"/media/{vid}", headers={"Range": "bytes=100-1099"})
    assert part.status_code == 206
    assert part.content == data[100:1100]
    assert part.headers["content-range"] == f"bytes 100-1099/{len(data)}"
    tail = client.get(f"/media/{vid}", headers={"Range": "bytes=-500"})
    assert tail.status_code == 206 and tail.content == data[-500:]
    beyond = client.get(f"/media/{vid}", headers={"Range": f"bytes={len(data) + 10}-"})
    assert beyond.status_code == 416


@pytest.mark.parametrize(
    "path",
    [
        "/media/..%2F..%2F..%2Fetc%2Fpasswd",
        "/media/%2Fetc%2Fpasswd",
        "/media/v0000000000000000",
        "/media/../../etc/passwd",
    ],
)
def test_media_serves_only_registered_files(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 404
    assert b"root:" not in r.content


def test_media_of_a_vanished_file_is_404_in_words(client: TestClient, media: dict[str, Path]) -> None:
    vid = _video(client, media["bad_missing"].name)["video_id"]
    r = client.get(f"/media/{vid}")
    assert r.status_code == 404 and "no longer at" in r.json()["detail"]


def test_video_page_escapes_video_text(client: TestClient) -> None:
    page = client.get("/videos/vxss0000000000000")
    assert page.status_code == 200
    assert "<video" in page.text and 'src="/media/vxss0000000000000"' in page.text
    assert XSS_TEXT not in page.text  # neither in the transcript list nor in the timeline's JSON
    assert "&lt;script&gt;window.pwned = 1&lt;/script&gt;" in page.text
    assert "<script>window.pwned" not in page.text


def test_video_page_has_transcript_lanes_and_tracks(client: TestClient) -> None:
    vid = _video(client, "speech_sign.mp4")["video_id"]
    page = client.get(f"/videos/{vid}", params={"t": 3.5})
    assert page.status_code == 200
    data = json.loads(page.text.split('<script id="video-data" type="application/json">')[1].split("</script>")[0])
    assert data["start_t"] == 3.5
    assert "speech" in data["events"]["kind"] and "text" in data["events"]["kind"]
    assert "person" in data["tracks"]["category"]
    assert 'class="line"' in page.text
    boxes = client.get(f"/api/videos/{vid}/detections", params={"from_s": 0, "to_s": 30}).json()
    assert len(boxes["t_s"]) > 10 and set(boxes) >= {"track_id", "x1", "y1", "x2", "y2", "category"}
    assert client.get(f"/api/videos/{vid}/detections", params={"from_s": 0, "to_s": 5000}).status_code == 400
    timeline = client.get(f"/api/videos/{vid}/timeline", params={"from_s": 0, "to_s": 3}).json()
    assert timeline and all(e["end_s"] >= 0 and e["start_s"] <= 3 for e in timeline)


def test_a_video_summary_and_its_chapters_are_served(client: TestClient) -> None:
    """speech_sign's summaries role ran (scripted chat model over its real speech and signs): the API,
    the video page's data and the archive page show them; the XSS video has none and shows none."""
    sign = _video(client, "speech_sign.mp4")
    vid = sign["video_id"]
    summary = client.get(f"/api/videos/{vid}/summary").json()
    assert summary["file"] == "speech_sign.mp4" and summary["video_id"] == vid
    assert summary["title"] == "A scripted video" and summary["text"] == "It says what its chapters say."
    chapters = summary["chapters"]
    assert chapters and chapters[0]["start_s"] == 0.0
    assert chapters[-1]["end_s"] == pytest.approx(sign["duration_s"], abs=0.5)
    assert all(a["end_s"] == b["start_s"] for a, b in itertools.pairwise(chapters))
    assert all(c["title"] for c in chapters)
    assert client.get("/api/videos/vxss0000000000000/summary").json() is None
    assert client.get("/api/videos/vnope/summary").status_code == 404

    page = client.get(f"/videos/{vid}")
    data = json.loads(page.text.split('<script id="video-data" type="application/json">')[1].split("</script>")[0])
    assert data["summary"] == summary
    assert 'id="summary"' in page.text and "It says what its chapters say." in page.text
    assert 'id="summary"' not in client.get("/videos/vxss0000000000000").text

    archive = client.get("/videos").text
    assert archive.count('class="summary-line"') == 1 and ">A scripted video</div>" in archive


def test_chapters_are_search_hits_with_their_file(client: TestClient) -> None:
    title = client.get(f"/api/videos/{_video(client, 'speech_sign.mp4')['video_id']}/summary").json()["chapters"][0]
    hits = client.get("/api/search", params={"q": title["title"], "k": 20}).json()
    chapter = [h for h in hits if h["kind"] == "chapter"]
    assert chapter and chapter[0]["file"] == "speech_sign.mp4", hits
    page = client.get("/search", params={"q": title["title"]}).text
    assert '<span class="badge">chapter</span>' in page and ">speech_sign.mp4</div>" in page


def test_unknown_video_is_404_in_words(client: TestClient) -> None:
    page = client.get("/videos/vnope")
    assert page.status_code == 404 and "no video &#39;vnope&#39;" in page.text
    api = client.get("/api/videos/vnope/timeline")
    assert api.status_code == 404 and "no video 'vnope'" in api.json()["detail"]


def test_search_finds_spoken_and_written_words(client: TestClient, truth: dict) -> None:
    vid = _video(client, "speech_sign.mp4")["video_id"]
    r = client.get("/api/search", params={"q": "train", "k": 5})
    assert r.status_code == 200
    hits = r.json()
    assert hits and {"video_id", "start_s", "end_s", "kind", "text", "score"} <= set(hits[0])
    assert hits[0]["video_id"] == vid and "train" in hits[0]["text"].lower()
    sign = client.get("/api/search", params={"q": "platform", "video_id": vid}).json()
    assert any(h["kind"] == "text" for h in sign), sign
    assert client.get("/api/search", params={"q": "zebra crossing unicorn"}).json() == []
    assert client.get("/api/search", params={"q": ""}).status_code == 422
    page = client.get("/search", params={"q": "train"})
    assert page.status_code == 200 and f'/videos/{vid}?t=' in page.text


def test_sql_runs_read_only_queries(client: TestClient) -> None:
    sql = "SELECT status, count(*) AS n FROM videos GROUP BY status ORDER BY status"
    r = client.post("/api/sql", json={"sql": sql})
    assert r.status_code == 200
    assert r.json()["columns"] == ["status", "n"] and r.json()["rows"] == [["failed", 1], ["ok", 2]]
    lib = client.post("/api/sql", json={"sql": "SELECT count(*) FROM timeline"})
    assert lib.status_code == 200 and lib.json()["rows"][0][0] > 0


@pytest.mark.parametrize(
    ("sql", "words"),
    [
        ("DELETE FROM videos", "read-only"),
        ("DROP TABLE transcript", "read-only"),
        ("SELECT * FROM read_csv('/etc/passwd')", "read_csv"),
        ("SELECT 1; DELETE FROM videos", "one"),
        ("SELECT * FROM no_such_table", "no_such_table"),
        ("SELEC 1", "syntax"),
    ],
)
def test_sql_refuses_writes_and_escapes_in_words(client: TestClient, sql: str, words: str) -> None:
    r = client.post("/api/sql", json={"sql": sql})
    assert 400 <= r.status_code < 500
    assert words.lower() in r.json()["detail"].lower()
    assert client.get("/api/videos").headers["x-total-count"] == "3"  # nothing was deleted


def test_sql_downloads_csv_and_parquet(client: TestClient) -> None:
    sql = "SELECT video_id, status FROM videos ORDER BY video_id"
    csv = client.get("/api/sql/download", params={"sql": sql, "format": "csv"})
    assert csv.status_code == 200 and csv.text.splitlines()[0] == "video_id,status" and len(csv.text.splitlines()) == 4
    parquet = client.get("/api/sql/download", params={"sql": sql, "format": "parquet"})
    assert pq.read_table(io.BytesIO(parquet.content)).num_rows == 3
    assert client.get("/api/sql/download", params={"sql": "DELETE FROM videos"}).status_code == 400


def test_sql_shows_dates_python_cannot_hold_as_text(client: TestClient) -> None:
    sql = (
        "SELECT * FROM (VALUES ('infinity'::TIMESTAMP, '294247-01-10'::DATE), ('2024-05-01'::TIMESTAMP, NULL)) "
        "AS v(t, d)"
    )
    r = client.post("/api/sql", json={"sql": sql})
    assert r.status_code == 200, r.text
    assert r.json()["rows"] == [["infinity", "294247-01-10"], ["2024-05-01T00:00:00", None]]
    csv = client.get("/api/sql/download", params={"sql": sql, "format": "csv"})
    assert csv.status_code == 200 and csv.text.splitlines() == ["t,d", "infinity,294247-01-10", "2024-05-01T00:00:00,"]
    reply = client.get("/api/sql/download", params={"sql": sql, "format": "parquet"})
    parquet = pq.read_table(io.BytesIO(reply.content))
    # Parquet keeps the column's own type (tools read timestamps); the value Python cannot hold stays in the file
    assert parquet.num_rows == 2 and str(parquet.schema.field("t").type).startswith("timestamp")
    assert str(parquet.column("t")[1].as_py()) == "2024-05-01 00:00:00"
    assert client.get("/api/videos").headers["x-total-count"] == "3"


def test_pages_render(client: TestClient) -> None:
    for path, marker in (("/videos", "speech_sign.mp4"), ("/sql", "Schema"), ("/ask", "planner"), ("/docs", "swagger")):
        r = client.get(path)
        assert r.status_code == 200 and marker in r.text, path
    assert "no video stream" in client.get("/videos", params={"status": "failed"}).text
    assert "/api/videos" in client.get("/openapi.json").json()["paths"]


def test_memory_is_released_between_requests(serve_memory: Path) -> None:
    source = MemorySource(str(serve_memory), hold_s=0)
    with source.lease() as memory:
        assert memory.read_only
    assert not source.is_open
    import duckdb

    duckdb.connect(str(serve_memory)).close()  # a writer (an ingest) can open the file now


def test_a_token_guards_every_route(serve_memory: Path) -> None:
    with TestClient(create_app(str(serve_memory), token="s3cret", hold_s=0)) as c:
        assert c.get("/api/videos").status_code == 401
        assert c.get("/api/videos", headers={"Authorization": "Bearer wrong"}).status_code == 401
        assert c.get("/api/videos", headers={"Authorization": "Bearer s3cret"}).status_code == 200
        assert c.get("/api/videos", headers={"Authorization": "bearer  s3cret"}).status_code == 200  # any case
        assert c.get("/api/videos", headers={"Authorization": "Basic s3cret"}).status_code == 401
        assert c.get("/videos", params={"token": "s3cret"}).status_code == 200
        assert c.get("/api/videos").status_code == 200  # the cookie the first visit set


def test_the_start_up_line_never_prints_the_token(
    serve_memory: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import uvicorn

    from vidmem.cli import main

    monkeypatch.setattr(uvicorn.Server, "run", lambda *a, **k: None)  # the line is printed before serving starts
    assert main(["serve", "--memory", str(serve_memory), "--token", "s3cret-value"]) == 0
    line = capsys.readouterr().err
    assert "?token=<your token>" in line and "s3cret-value" not in line  # start-up lines land in logs


def test_a_download_holds_every_row(serve_memory: Path) -> None:
    """Issue 25, probe 1: a result over ~1 MB came back as HTTP 200 with 71,428 of 168,100 rows; then
    a download stopped at a million rows / 1 GB with a 413. Now every row, written batch by batch."""
    sql = "SELECT range AS i, md5(range::VARCHAR) || md5((-range)::VARCHAR) AS pad FROM range(1200000)"  # ~80 MB
    with TestClient(create_app(str(serve_memory), hold_s=0)) as c:
        r = c.get("/api/sql/download", params={"sql": sql, "format": "csv"})
        assert r.status_code == 200, r.text[:300]
        lines = r.text.splitlines()
        assert len(lines) == 1_200_001 and lines[-1].startswith("1199999,")  # the header and every row
        r = c.get("/api/sql/download", params={"sql": "SELECT * FROM range(250000)", "format": "json"})
        assert len(r.json()) == 250_000
        r = c.get("/api/sql/download", params={"sql": "SELECT * FROM range(10) WHERE range > 99", "format": "json"})
        assert r.json() == []
        r = c.get("/api/sql/download", params={"sql": "SELECT 1/0 AS x, 'a'::INTEGER", "format": "csv"})
        assert r.status_code == 400 and "Could not convert" in r.json()["detail"]  # an error in words, no file
    assert not list(Path(tempfile.gettempdir()).glob("vidmem-download-*"))  # every temporary file removed


def test_a_foreign_host_header_is_refused_on_loopback(serve_memory: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """DNS rebinding (issue 25, probe 4): a page on rebind.attacker.example that re-binds its name to
    127.0.0.1 sent `Host: rebind.attacker.example` and read SQL rows and videos."""
    import uvicorn

    from vidmem.cli import main

    served: list[Any] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, *a, **k: served.append(self.config.app))
    assert main(["serve", "--memory", str(serve_memory)]) == 0  # the default: 127.0.0.1, no token
    with TestClient(served[0], base_url="http://127.0.0.1:8000") as c:
        assert c.get("/api/videos").status_code == 200
        for host in ("localhost:8000", "[::1]:8000"):
            assert c.get("/api/videos", headers={"Host": host}).status_code == 200
        for path in ("/api/videos", "/videos", "/api/sql/download?sql=SELECT+1"):
            refused = c.get(path, headers={"Host": "rebind.attacker.example"})
            assert refused.status_code == 400 and "speech_sign" not in refused.text, path


def test_serve_refuses_a_public_host_without_token(serve_memory: Path) -> None:
    from vidmem.cli import main

    assert main(["serve", "--memory", str(serve_memory), "--host", "0.0.0.0"]) == 2


def test_a_locked_memory_is_503_in_words(serve_memory: Path, tmp_path: Path) -> None:
    import shutil
    import subprocess
    import sys

    copy = tmp_path / "busy.duckdb"
    shutil.copy(serve_memory, copy)
    script = f"import duckdb, sys; c = duckdb.connect({str(copy)!r}); print('ready', flush=True); sys.stdin.readline()"
    # an ingest holding the file for writing
    holder = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
        with TestClient(create_app(str(copy), hold_s=0)) as c:
            r = c.get("/api/videos")
            assert r.status_code == 503 and "being written by another process" in r.json()["detail"]
            page = c.get("/videos")
            assert page.status_code == 503 and "DuckLake" in page.text
    finally:
        holder.communicate("\n", timeout=30)
    with TestClient(create_app(str(copy), hold_s=0)) as c:
        assert c.get("/api/videos").status_code == 200  # the writer is gone: pages work again


def test_ask_streams_events(serve_memory: Path) -> None:
    from agents import ToolContext
    from tests.planner_fakes import NOW, READER, ScriptedChat

    def context(memory: Memory, video_id: str | None) -> ToolContext:
        chat = ScriptedChat([], routes={READER: ["Look up: the times"], NOW: ["At 1.6 s."]})
        return ToolContext(memory, chat, video_id)

    with TestClient(create_app(str(serve_memory), hold_s=0, context_factory=context)) as c:
        vid = _video(c, "speech_sign.mp4")["video_id"]
        r = c.get("/api/ask", params={"q": "When is the train mentioned?", "video_id": vid})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
    events = [block.split("\n", 1) for block in r.text.strip().split("\n\n") if block.startswith("event:")]
    names = [e[0].removeprefix("event: ") for e in events]
    assert names == ["start", "llm", "llm", "answer"]  # the brief read; asked to look up, the answer call
    answer = json.loads(events[-1][1].removeprefix("data: "))
    assert answer["answer"] == "At 1.6 s." and answer["usage"]["calls"] == 2
    assert answer["evidence"][0]["times_s"] and answer["evidence"][0]["tool"] == "evidence_brief"


def test_ask_without_a_model_fails_in_words(serve_memory: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VIDMEM_LLM_MODEL", raising=False)
    with TestClient(create_app(str(serve_memory), hold_s=0)) as c:
        r = c.get("/api/ask", params={"q": "What happens?"})
        assert "event: failed" in r.text and "VIDMEM_LLM_MODEL is not set" in r.text
        bad = c.get("/api/ask", params={"q": "x", "planner": "<script>nope</script>"})
        assert bad.status_code == 400 and bad.headers["content-type"].startswith("text/plain")
        assert "nope" not in bad.text and "react" in bad.text  # the value is not reflected; the known ones are


def test_serves_a_ducklake_memory(tmp_path: Path, media: dict[str, Path]) -> None:
    from memory import VideoRecord, VideoRows, open_memory, rows_table

    uri = f"ducklake:sqlite:{tmp_path / 'lake.sqlite'}"
    vid = "vlake000000000000"
    with open_memory(uri) as mem:
        segment = {"segment_id": 0, "start_s": 1.5, "end_s": 4.0, "text": "The lake train departs."}
        record = VideoRecord(vid, str(media["speech_sign"]), "ok", duration_s=12.0, width=768, height=576)
        mem.write_video(VideoRows(record, {"transcript": rows_table("transcript", [segment], vid)}))
    with TestClient(create_app(uri, hold_s=0)) as c:
        assert [v["video_id"] for v in c.get("/api/videos").json()] == [vid]
        page = c.get(f"/videos/{vid}")
        assert page.status_code == 200 and "The lake train departs." in page.text
        hits = c.get("/api/search", params={"q": "lake train"}).json()
        assert hits and hits[0]["start_s"] == 1.5 and hits[0]["kind"] == "speech"
        assert c.post("/api/sql", json={"sql": "SELECT count(*) FROM transcript"}).json()["rows"] == [[1]]
        assert c.get(f"/media/{vid}", headers={"Range": "bytes=0-9"}).status_code == 206


def test_serve_refuses_a_missing_memory_in_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from vidmem.cli import main

    assert main(["serve", "--memory", str(tmp_path / "none.duckdb")]) == 1
    assert "no memory at" in capsys.readouterr().err
