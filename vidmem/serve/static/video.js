// The video page: lanes of the timeline, the transcript following playback, boxes over the video.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("video-data").textContent);
  const video = document.getElementById("video");
  const canvas = document.getElementById("overlay");
  const ctx = canvas.getContext("2d");
  const timeline = document.getElementById("timeline");
  const nowLabel = document.getElementById("now");
  const showBoxes = document.getElementById("show-boxes");
  const lines = Array.from(document.querySelectorAll("#transcript .line"));
  const duration = data.duration_s || 1;

  function seek(t) {
    video.currentTime = Math.max(0, t);
    draw();
  }

  // -- timeline lanes ------------------------------------------------------------------------
  const LANE_NAMES = {speech: "speech", text: "on-screen text", caption: "captions", action: "actions"};
  // Items of one lane may overlap in time (tracks, actions): pack them into a few rows so that each shows.
  const MAX_ROWS = 6;
  function pack(items) {
    const ends = [];
    for (const it of items.sort((a, b) => a.start - b.start)) {
      let r = ends.findIndex((end) => end <= it.start);  // touching items (chapters) share a row
      if (r < 0) r = ends.length < MAX_ROWS ? ends.length : ends.indexOf(Math.min(...ends));
      ends[r] = it.end;
      it.row = r;
    }
    return ends.length;
  }
  function lane(label, items, cls) {
    const rows = pack(items);
    const row = document.createElement("div");
    row.className = cls ? "lane " + cls : "lane";
    if (rows > 1) row.style.height = (8 + 6 * rows) + "px";
    const name = document.createElement("div");
    name.className = "lane-name";
    name.textContent = label;
    const track = document.createElement("div");
    track.className = "lane-items";
    for (const it of items) {
      const el = document.createElement("div");
      el.className = "item " + it.cls;
      el.style.left = (100 * it.start / duration) + "%";
      el.style.width = Math.max(0.25, 100 * (it.end - it.start) / duration) + "%";
      el.title = it.start.toFixed(1) + " s: " + it.text;  // textContent/title: never parsed as HTML
      if (it.label) el.textContent = it.label;
      el.dataset.t = it.start;
      if (rows > 1) { el.style.top = (1 + 6 * it.row) + "px"; }
      track.appendChild(el);
    }
    row.append(name, track);
    timeline.appendChild(row);
  }
  // Chapters first: what the video is about, a block per chapter with its title.
  const chapters = data.summary ? data.summary.chapters : [];
  if (chapters.length) {
    lane("chapters", chapters.map((c) => ({
      start: c.start_s, end: c.end_s, text: c.title + ": " + c.text, label: c.title, cls: "chapter",
    })), "chapters");
  }
  const ev = data.events;
  for (const kind of ["speech", "text", "caption", "action"]) {
    const items = [];
    for (let i = 0; i < ev.kind.length; i++) {
      if (ev.kind[i] === kind) items.push({start: ev.start_s[i], end: ev.end_s[i], text: ev.text[i] || "", cls: kind});
    }
    if (items.length) lane(LANE_NAMES[kind], items);
  }
  const byCategory = new Map();
  const tr = data.tracks;
  for (let i = 0; i < tr.track_id.length; i++) {
    const c = tr.category[i];
    if (!byCategory.has(c)) byCategory.set(c, []);
    byCategory.get(c).push({start: tr.first_s[i], end: tr.last_s[i], text: c + " #" + tr.track_id[i], cls: "track"});
  }
  for (const [c, items] of byCategory) lane(c + " (" + items.length + ")", items);
  const head = document.createElement("div");
  head.className = "playhead";
  timeline.appendChild(head);
  timeline.addEventListener("click", (e) => {
    const item = e.target.closest(".item");
    if (item) { seek(parseFloat(item.dataset.t)); return; }
    const lanes = timeline.querySelector(".lane-items");
    if (!lanes) return;
    const box = lanes.getBoundingClientRect();
    if (e.clientX >= box.left) seek(duration * (e.clientX - box.left) / box.width);
  });

  // -- transcript ----------------------------------------------------------------------------
  for (const li of lines) li.addEventListener("click", () => seek(parseFloat(li.dataset.t)));
  let current = null;
  function follow(t) {
    let hit = null;
    for (const li of lines) {
      if (parseFloat(li.dataset.t) <= t + 0.05 && t < parseFloat(li.dataset.end) + 0.05) hit = li;
    }
    if (hit !== current) {
      if (current) current.classList.remove("now");
      if (hit) { hit.classList.add("now"); hit.scrollIntoView({block: "nearest"}); }
      current = hit;
    }
  }

  // -- boxes over the video -------------------------------------------------------------------
  const CHUNK_S = 30;
  const chunks = new Map();  // chunk index -> {t: [...], ...} columns, or "loading"
  function chunk(i) {
    if (!chunks.has(i) && data.tracks.track_id.length) {
      chunks.set(i, "loading");
      fetch(`/api/videos/${data.video_id}/detections?from_s=${i * CHUNK_S}&to_s=${(i + 1) * CHUNK_S}`)
        .then((r) => r.ok ? r.json() : null)
        .then((cols) => { chunks.set(i, cols); draw(); })
        .catch(() => chunks.delete(i));
    }
    const c = chunks.get(i);
    return c && c !== "loading" ? c : null;
  }
  const COLOURS = ["#ff595e", "#ffca3a", "#8ac926", "#1982c4", "#6a4c93", "#f15bb5", "#00bbf9", "#fb5607"];
  function draw() {
    const t = video.currentTime;
    nowLabel.textContent = t.toFixed(1);
    head.style.left = `calc(var(--lane-label) + (100% - var(--lane-label)) * ${t / duration})`;
    follow(t);
    const w = video.clientWidth, h = video.clientHeight;
    if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
    ctx.clearRect(0, 0, w, h);
    if (!showBoxes.checked || !video.videoWidth) return;
    const cols = chunk(Math.floor(t / CHUNK_S));
    chunk(Math.floor(t / CHUNK_S) + 1);  // prefetch the next seconds
    if (!cols || !cols.t_s.length) return;
    // The sampled frame nearest to t (boxes are sampled, not on every frame).
    let best = -1, gap = Infinity;
    for (let i = 0; i < cols.t_s.length; i++) {
      const d = Math.abs(cols.t_s[i] - t);
      if (d < gap) { gap = d; best = cols.t_s[i]; }
    }
    if (gap > 1.0) return;
    // Letterboxing: the frame keeps its aspect ratio inside the element.
    const scale = Math.min(w / video.videoWidth, h / video.videoHeight);
    const ox = (w - video.videoWidth * scale) / 2, oy = (h - video.videoHeight * scale) / 2;
    ctx.lineWidth = 2;
    ctx.font = "12px sans-serif";
    for (let i = 0; i < cols.t_s.length; i++) {
      if (cols.t_s[i] !== best) continue;
      const colour = COLOURS[cols.track_id[i] % COLOURS.length];
      ctx.strokeStyle = colour;
      ctx.fillStyle = colour;
      const x = ox + cols.x1[i] * scale, y = oy + cols.y1[i] * scale;
      ctx.strokeRect(x, y, (cols.x2[i] - cols.x1[i]) * scale, (cols.y2[i] - cols.y1[i]) * scale);
      ctx.fillText(`${cols.category[i]} #${cols.track_id[i]}`, x + 2, Math.max(12, y - 3));
      const poly = cols.mask_polygon[i] ? JSON.parse(cols.mask_polygon[i]) : null;
      if (poly && poly.length > 2) {
        ctx.globalAlpha = 0.3;
        ctx.beginPath();
        poly.forEach(([px, py], j) => (j ? ctx.lineTo : ctx.moveTo).call(ctx, ox + px * scale, oy + py * scale));
        ctx.closePath();
        ctx.fill();
        ctx.globalAlpha = 1;
      }
    }
  }
  video.addEventListener("timeupdate", draw);
  video.addEventListener("seeked", draw);
  let started = false;
  function start() {
    if (started) return;
    started = true;
    if (data.start_t !== null && data.start_t !== undefined) video.currentTime = data.start_t;
    draw();
  }
  video.addEventListener("loadedmetadata", start);
  if (video.readyState >= 1) start();
  showBoxes.addEventListener("change", draw);
  window.addEventListener("resize", draw);
  (function tick() { if (!video.paused) draw(); requestAnimationFrame(tick); })();
  draw();
})();
