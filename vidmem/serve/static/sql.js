// The SQL page: run the editor's query through /api/sql, show rows or the guard's message.
(function () {
  "use strict";
  const editor = document.getElementById("sql");
  const table = document.getElementById("result");
  const error = document.getElementById("sql-error");
  const status = document.getElementById("status");
  function links() {
    const q = encodeURIComponent(editor.value);
    document.getElementById("csv").href = `/api/sql/download?format=csv&sql=${q}`;
    document.getElementById("parquet").href = `/api/sql/download?format=parquet&sql=${q}`;
  }
  function cell(tag, text) {
    const el = document.createElement(tag);
    el.textContent = text === null ? "NULL" : (typeof text === "object" ? JSON.stringify(text) : String(text));
    return el;
  }
  async function run() {
    status.textContent = "running…";
    error.hidden = true;
    table.replaceChildren();
    const r = await fetch("/api/sql", {
      method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({sql: editor.value}),
    });
    const body = await r.json();
    if (!r.ok) {
      const detail = typeof body.detail === "string" ? body.detail : JSON.stringify(body.detail);
      error.textContent = detail;
      error.hidden = false;
      status.textContent = `error ${r.status}`;
      return;
    }
    const head = document.createElement("tr");
    body.columns.forEach((c) => head.appendChild(cell("th", c)));
    table.appendChild(head);
    for (const row of body.rows) {
      const tr = document.createElement("tr");
      row.forEach((v) => tr.appendChild(cell("td", v)));
      table.appendChild(tr);
    }
    status.textContent = `${body.rows.length}${body.truncated ? "+" : ""} rows in ${body.seconds.toFixed(3)} s`;
  }
  editor.addEventListener("input", links);
  editor.addEventListener("keydown", (e) => { if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); run(); } });
  document.getElementById("run").addEventListener("click", run);
  links();
})();
