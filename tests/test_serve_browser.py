"""vidmem serve in a real browser: Debian's chromium driven by Playwright (no browser download).

Each test saves a screenshot (VIDMEM_SCREENSHOT_DIR, else a temporary folder) and checks that it
is not blank. Skipped with a reason when the playwright wheel or a chromium executable is missing
(`make test` installs both).
"""

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
sync_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="no chromium executable: apt-get install chromium"),
]

import uvicorn  # noqa: E402
from PIL import Image, ImageStat  # noqa: E402

from agents import ToolContext  # noqa: E402
from memory import Memory  # noqa: E402
from tests.conftest import XSS_TEXT  # noqa: E402
from tests.planner_fakes import LOOKER, NOW, READER, ScriptedChat, act, finish  # noqa: E402
from vidmem.serve import create_app  # noqa: E402

ANSWER = "The speaker mentions the train at the start."


def _scripted_context(memory: Memory, video_id: str | None) -> ToolContext:
    chat = ScriptedChat(  # the reading and the answer after the code's lookup both ask more: the tool chain runs
        [act("get_transcript", "", "read what is said"), finish(ANSWER)],
        routes={READER: ["Look up: what is said"], NOW: ["Look up: the transcript"],
                LOOKER: ["Look up: the transcript"]},
    )
    return ToolContext(memory, chat, video_id)


@pytest.fixture(scope="module")
def server(serve_memory: Path) -> Iterator[str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = create_app(str(serve_memory), context_factory=_scripted_context)
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the test server did not start in 20 s")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run", "--autoplay-policy=no-user-gesture-required"]
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=args)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    yield pg
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = Path(os.environ.get("VIDMEM_SCREENSHOT_DIR") or tmp_path_factory.mktemp("screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def screenshot(page: Any, shots: Path, name: str) -> Path:
    """Save the page's screenshot and check it is not blank (its pixels vary)."""
    path = shots / f"{name}.png"
    page.screenshot(path=str(path), full_page=False)
    stddev = ImageStat.Stat(Image.open(path).convert("L")).stddev[0]
    assert stddev > 10, f"{name} screenshot looks blank (pixel stddev {stddev:.1f}): {path}"
    return path


#: The player has loaded. Asked right after a click that opens another page, this may run on the page being
#: left, which has no player: null there is "not yet" (a CI run once failed reading readyState of null).
PLAYER_READY = "(document.getElementById('video') || {}).readyState >= 1"


def current_time(page: Any) -> float:
    return float(page.evaluate("document.getElementById('video').currentTime"))


def test_archive_lists_videos_and_opens_one(server: str, page: Any, shots: Path) -> None:
    page.goto(f"{server}/videos")
    rows = page.locator("#videos tbody tr")
    assert rows.count() == 3
    assert page.locator(".badge.failed").count() == 1
    screenshot(page, shots, "archive")
    page.fill("input[name=q]", "speech_sign")
    page.click("button[type=submit]")
    assert page.locator("#videos tbody tr").count() == 1
    page.click("a.video-link")
    page.wait_for_selector("video#video")
    assert "/videos/v" in page.url


def test_clicking_a_transcript_line_seeks_the_video(server: str, page: Any, shots: Path) -> None:
    page.goto(f"{server}/videos")
    page.click("a.video-link >> text=speech_sign.mp4")
    page.wait_for_function(PLAYER_READY, timeout=15000)
    line = page.locator("#transcript .line").first
    start = float(line.get_attribute("data-t"))
    line.click()
    page.wait_for_function(
        f"Math.abs(document.getElementById('video').currentTime - {start}) < 0.5", timeout=10000
    )
    assert abs(current_time(page) - start) < 0.5
    assert page.locator("#transcript .line.now").count() == 1  # the transcript follows playback
    # lanes: speech, on-screen text and a track category; clicking an item seeks too
    names = page.locator(".lane-name").all_text_contents()
    assert "speech" in names and "on-screen text" in names and any(n.startswith("person") for n in names)
    sign = page.locator(".item.text").first
    t_sign = float(sign.get_attribute("data-t"))
    sign.dispatch_event("click")  # lane items may overlap: click this one, not the one on top
    page.wait_for_function(f"Math.abs(document.getElementById('video').currentTime - {t_sign}) < 0.5")
    # the tracks' boxes are drawn over the video at the current time
    person = page.locator(".item.track").first
    person.dispatch_event("click")
    page.wait_for_function(
        "(() => { const c = document.getElementById('overlay');"
        " const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
        " for (let i = 3; i < d.length; i += 4) if (d[i]) return true; return false; })()",
        timeout=10000,
    )
    screenshot(page, shots, "video")


def test_video_text_is_shown_as_text(server: str, page: Any, shots: Path) -> None:
    page.goto(f"{server}/videos/vxss0000000000000")
    assert page.locator("#transcript .line").first.inner_text().endswith(XSS_TEXT)
    assert page.evaluate("window.pwned") is None
    assert page.locator("#transcript b").count() == 0


def test_masks_are_filled_over_the_video(server: str, page: Any) -> None:
    page.goto(f"{server}/videos/vxss0000000000000")
    page.wait_for_function(PLAYER_READY, timeout=15000)
    page.locator("#transcript .line").first.click()  # 1.0 s: the ball's box and mask are stored there
    # The mask (150..250 px square) is filled; the box's inside outside the mask is not.
    alpha_at = """([x, y]) => {
        const v = document.getElementById('video'), c = document.getElementById('overlay');
        const s = Math.min(c.width / v.videoWidth, c.height / v.videoHeight);
        const ox = (c.width - v.videoWidth * s) / 2, oy = (c.height - v.videoHeight * s) / 2;
        return c.getContext('2d').getImageData(Math.round(ox + x * s), Math.round(oy + y * s), 1, 1).data[3];
    }"""
    page.wait_for_function(f"({alpha_at})([200, 200]) > 0", timeout=10000)
    assert page.evaluate(alpha_at, [125, 200]) == 0


def test_search_opens_a_hit_at_its_time(server: str, page: Any, shots: Path) -> None:
    page.goto(f"{server}/search")
    page.fill("#q", "platform")
    page.press("#q", "Enter")
    page.wait_for_selector("#hits .hit")
    screenshot(page, shots, "search")
    hit = page.locator("a.hit-link").first
    t = float(hit.get_attribute("data-t"))
    hit.click()
    page.wait_for_function(
        f"{PLAYER_READY} && "
        f"Math.abs(document.getElementById('video').currentTime - {t}) < 0.5",
        timeout=15000,
    )
    assert abs(current_time(page) - t) < 0.5


def test_search_hits_name_their_file_and_show_their_frame(server: str, page: Any, shots: Path) -> None:
    """Each hit names its video's file (not an internal id) and its thumbnail is the frame at the hit's
    time, decoded on the server: loaded, and neither black nor blank."""
    import io

    page.goto(f"{server}/search?q=platform")
    page.wait_for_selector("#hits .hit")
    page.wait_for_function("[...document.querySelectorAll('#hits img')].every(i => i.complete && i.naturalWidth > 0)",
                           timeout=15000)
    screenshot(page, shots, "search-thumbnails")
    files = page.locator("#hits .hit-file").all_inner_texts()
    assert files and all(Path(f).suffix in (".mp4", ".avi", ".mkv") for f in files), files
    for src in page.locator("#hits img").evaluate_all("imgs => imgs.map(i => i.getAttribute('src'))"):
        reply = page.request.get(f"{server}{src}")
        assert reply.status == 200 and reply.headers["content-type"] == "image/jpeg", src
        image = Image.open(io.BytesIO(reply.body())).convert("L")
        stat = ImageStat.Stat(image)
        assert stat.mean[0] > 12 and stat.stddev[0] > 4, f"{src} looks black or blank: {stat.mean}, {stat.stddev}"


def test_sql_shows_rows_and_the_guards_message(server: str, page: Any, shots: Path) -> None:
    page.goto(f"{server}/sql")
    assert "transcript" in page.locator(".schema pre").inner_text()
    page.fill("#sql", "SELECT status, count(*) AS n FROM videos GROUP BY status ORDER BY status")
    page.click("#run")
    page.wait_for_selector("#result tr td")
    assert page.locator("#result tr").nth(1).inner_text().split() == ["failed", "1"]
    page.fill("#sql", "DELETE FROM videos")
    page.click("#run")
    page.wait_for_selector("#sql-error:not([hidden])")
    message = page.locator("#sql-error").inner_text()
    assert "read-only" in message.lower(), message
    screenshot(page, shots, "sql")


def test_ask_streams_steps_and_answers_with_clickable_times(server: str, page: Any, shots: Path) -> None:
    page.goto(f"{server}/ask")
    page.fill("#question", "When is the train mentioned?")
    page.select_option("#video", index=1)
    page.click("#ask")
    page.wait_for_selector("#answer-box:not([hidden])", timeout=30000)
    assert page.locator("#answer").inner_text().startswith(ANSWER)
    assert page.locator("#steps li").count() == 5  # every model call (three readings, two tool steps) as it came
    assert "tokens" in page.locator("#cost").inner_text()
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the answer's evidence runs {overflow} px past the window's right edge"
    screenshot(page, shots, "ask")
    link = page.locator("#evidence a.time").first
    t = float(link.get_attribute("href").split("t=")[1])
    link.click()
    page.wait_for_function(
        f"{PLAYER_READY} && "
        f"Math.abs(document.getElementById('video').currentTime - {t}) < 0.5",
        timeout=15000,
    )


# ---------------------------------------------------------------- summaries (issue 24)


def _thumbnail_stat(page: Any, server: str, src: str) -> tuple[float, float]:
    """Mean and stddev of the grey levels of the thumbnail the page loaded from `src`."""
    import io

    reply = page.request.get(f"{server}{src}")
    assert reply.status == 200 and reply.headers["content-type"] == "image/jpeg", src
    stat = ImageStat.Stat(Image.open(io.BytesIO(reply.body())).convert("L"))
    return stat.mean[0], stat.stddev[0]


def test_archive_shows_a_summary_line_under_a_summarized_video(server: str, page: Any, shots: Path) -> None:
    page.goto(f"{server}/videos")
    row = page.locator("#videos tbody tr", has=page.locator("a.video-link", has_text="speech_sign.mp4"))
    assert row.locator(".summary-line").inner_text() == "A scripted video"
    assert page.locator(".summary-line").count() == 1  # the other videos have no summary and show none
    screenshot(page, shots, "archive-summaries")


def test_clicking_a_chapter_seeks_the_video(server: str, page: Any, shots: Path) -> None:
    """The chapters lane: a block per chapter spanning its start-end, titled; a click seeks to its
    start. speech_sign lasts 12 s, so the role gives it one chapter (chapters are >= 15 s): the test
    moves the player away first, so that the click has somewhere to seek from."""
    page.goto(f"{server}/videos")
    page.click("a.video-link >> text=speech_sign.mp4")
    page.wait_for_function(PLAYER_READY, timeout=15000)
    assert page.locator("#summary h2").inner_text() == "A scripted video"
    assert page.locator("#summary p").inner_text() == "It says what its chapters say."
    video_id = page.url.rsplit("/", 1)[-1]
    chapters = page.request.get(f"{server}/api/videos/{video_id}/summary").json()["chapters"]
    assert chapters, chapters
    assert page.locator(".lane-name").first.inner_text() == "chapters"
    blocks = page.locator(".item.chapter")
    assert blocks.all_inner_texts() == [c["title"] for c in chapters]
    lane = page.locator(".lane.chapters .lane-items").bounding_box()
    duration = page.evaluate("JSON.parse(document.getElementById('video-data').textContent).duration_s")
    for chapter, block in zip(chapters, blocks.all(), strict=True):  # each block spans its chapter
        box = block.bounding_box()
        assert box["x"] - lane["x"] == pytest.approx(lane["width"] * chapter["start_s"] / duration, abs=2.0)
        span = lane["width"] * (chapter["end_s"] - chapter["start_s"]) / duration
        assert box["width"] == pytest.approx(span, abs=2.0)
    for chapter, block in zip(chapters, blocks.all(), strict=True):
        away = chapter["start_s"] + 0.6 * (chapter["end_s"] - chapter["start_s"])
        page.evaluate(f"document.getElementById('video').currentTime = {away}")
        page.wait_for_function(f"Math.abs(document.getElementById('video').currentTime - {away}) < 0.3")
        block.click()  # a real click on the block, where a person clicks
        page.wait_for_function(
            f"Math.abs(document.getElementById('video').currentTime - {chapter['start_s']}) < 0.3", timeout=10000
        )
        assert current_time(page) == pytest.approx(chapter["start_s"], abs=0.3)
    screenshot(page, shots, "video-chapters")


def test_chapter_hits_name_their_file_and_show_their_frame(server: str, page: Any, shots: Path) -> None:
    """A chapter found by search is labelled 'chapter', names its file, and its thumbnail is a frame
    of the video: loaded, neither missing nor black."""
    vids = page.request.get(f"{server}/api/videos", params={"q": "speech_sign"}).json()
    summary = page.request.get(f"{server}/api/videos/{vids[0]['video_id']}/summary").json()
    page.goto(f"{server}/search")
    page.fill("#q", summary["chapters"][-1]["title"])
    page.press("#q", "Enter")
    page.wait_for_selector("#hits .hit")
    page.wait_for_function("[...document.querySelectorAll('#hits img')].every(i => i.complete && i.naturalWidth > 0)",
                           timeout=15000)
    hits = page.locator("#hits .hit", has=page.locator(".badge", has_text="chapter"))
    assert hits.count() >= 1
    screenshot(page, shots, "search-chapters")
    for i in range(hits.count()):
        hit = hits.nth(i)
        assert hit.locator(".badge").first.inner_text() == "chapter"
        assert hit.locator(".hit-file").inner_text() == "speech_sign.mp4"
        img = hit.locator("img")
        assert img.evaluate("i => i.complete && i.naturalWidth > 0")
        mean, stddev = _thumbnail_stat(page, server, img.get_attribute("src"))
        assert mean > 12 and stddev > 4, f"chapter thumbnail looks black or blank: mean {mean}, stddev {stddev}"
