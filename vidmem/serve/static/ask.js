// The ask page: the question goes to /api/ask as server-sent events; steps appear as they happen.
(function () {
  "use strict";
  const form = document.getElementById("ask-form");
  const steps = document.getElementById("steps");
  const status = document.getElementById("ask-status");
  const box = document.getElementById("answer-box");
  let source = null;
  let timer = null;
  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }
  function timeLink(videoId, t) {
    if (!videoId) return el("span", t.toFixed(1) + " s", "time");
    const a = el("a", t.toFixed(1) + " s", "time");
    a.href = `/videos/${encodeURIComponent(videoId)}?t=${t}`;
    return a;
  }
  function showAnswer(a, fallbackVideo) {
    box.hidden = false;
    document.getElementById("answer").textContent = a.answer + (a.choice !== null ? ` (choice ${"ABCDEFGHIJKLMNOPQRSTUVWXYZ"[a.choice]})` : "");
    const u = a.usage;
    document.getElementById("cost").textContent =
      `${a.planner}: ${u.prompt_tokens} prompt + ${u.completion_tokens} completion tokens, ${u.calls} LLM calls, ` +
      `${a.seconds.toFixed(1)} s, ${a.tree_nodes} tree nodes`;
    const list = document.getElementById("evidence");
    list.replaceChildren();
    for (const ev of a.evidence) {
      const li = el("li");
      li.appendChild(el("span", ev.tool, "badge"));
      const vid = ev.video_id || fallbackVideo;
      for (const t of ev.times_s.slice(0, 20)) { li.append(" "); li.appendChild(timeLink(vid, t)); }
      if (ev.note) li.appendChild(el("div", ev.note, "dim"));
      if (ev.sql) li.appendChild(el("pre", ev.sql));
      for (const row of ev.rows.slice(0, 5)) li.appendChild(el("div", JSON.stringify(row), "row"));
      list.appendChild(li);
    }
    const tree = document.getElementById("tree");
    if (a.tree_url) { tree.src = a.tree_url; tree.hidden = false; } else { tree.hidden = true; }
  }
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    if (source) source.close();
    steps.replaceChildren();
    box.hidden = true;
    const video = document.getElementById("video").value;
    const params = new URLSearchParams({q: document.getElementById("question").value,
                                        planner: document.getElementById("planner").value});
    if (video) params.set("video_id", video);
    const started = performance.now();
    let calls = 0;
    status.className = "dim";
    const tick = () => {
      status.textContent = `thinking… ${((performance.now() - started) / 1000).toFixed(0)} s, ${calls} model calls`;
    };
    tick();
    clearInterval(timer);
    timer = setInterval(tick, 1000);
    source = new EventSource("/api/ask?" + params);
    source.addEventListener("llm", (m) => {
      const d = JSON.parse(m.data);
      const li = el("li");
      li.appendChild(el("div", `call ${d.n} · ${d.prompt_tokens}+${d.completion_tokens} tokens · ${d.seconds} s`, "dim"));
      li.appendChild(el("pre", d.text));
      steps.appendChild(li);
      calls = d.n;
      tick();
    });
    source.addEventListener("answer", (m) => {
      source.close();
      clearInterval(timer);
      status.textContent = "done";
      showAnswer(JSON.parse(m.data), video);
    });
    source.addEventListener("failed", (m) => {
      source.close();
      clearInterval(timer);
      status.textContent = "failed: " + JSON.parse(m.data).message;
      status.className = "error";
    });
    // EventSource reconnects by itself, which would ask the question again: stop instead.
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED) return;
      source.close();
      clearInterval(timer);
      status.textContent = "the connection to the server was lost before the answer came";
      status.className = "error";
    };
  });
})();
