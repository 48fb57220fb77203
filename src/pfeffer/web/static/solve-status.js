/* Where the strategy for a dice table's rules stands (issue 21 §1): on the new-table form for
   the rules filled in, at a table for its rules while they are solved in the background. The
   sentence comes from the server in the page's language (GET /api/strategy/dice/status):
   "Strategy for these rules: 40%, about 1 minute." A table asks again every two seconds while
   the solve runs; when it is done the note says so for a moment and an open "no hint for these
   rules yet" is asked again (PF.hints.refresh) and the strategy page draws its charts (the
   event pf:strategy-ready). */
"use strict";
(function () {
  const box = document.getElementById("solvestatus");
  if (!box) return;
  const lang = document.documentElement.lang || "en";
  const table = box.dataset.table || null;
  const RUNNING = {solving: true, waiting: true};
  let shown = null;    // the state shown last
  let timer = null;

  function show(data) {
    const note = box.querySelector(".solve-note"), extra = box.querySelector(".solve-heuristic");
    note.textContent = data.message || "";
    extra.textContent = data.heuristic || "";
    extra.hidden = !data.heuristic;
    box.dataset.state = data.state;
    if (data.fraction !== undefined) box.dataset.fraction = String(data.fraction);
  }

  async function ask(query) {
    try {
      const r = await fetch("/api/strategy/dice/status?" + query, {headers: {"Accept": "application/json"}});
      if (!r.ok) return null;
      return await r.json();
    } catch (e) { return null; }
  }

  /* A table: shown while the solve runs or is refused, hidden when the table was there all
     along; once it turns ready, said for a while and the hint asked again. */
  async function tick() {
    timer = null;
    const data = await ask("table=" + encodeURIComponent(table) + "&lang=" + encodeURIComponent(lang));
    if (data) {
      const was = shown;
      shown = data.state;
      if (data.state === "ready") {
        if (was !== null && was !== "ready") {
          show(data); box.hidden = false;
          if (typeof PF !== "undefined" && PF.hints && PF.hints.refresh) PF.hints.refresh();
          document.dispatchEvent(new CustomEvent("pf:strategy-ready"));  // the strategy page
          setTimeout(function () { box.hidden = true; }, 8000);
        }
        return;
      }
      if (data.state === "idle" && !data.wants) { box.hidden = true; return; }
      show(data); box.hidden = false;
      if (!RUNNING[data.state]) return;  // too_long, idle: nothing to wait for
    }
    timer = setTimeout(tick, 2000);
  }

  /* The form: the rules as filled in now, asked again a moment after each change. */
  function formQuery(form) {
    const q = new URLSearchParams();
    new FormData(form).forEach(function (v, k) {
      if (k === "csrf_token" || /^seat\d+_/.test(k)) return;
      q.append(k, String(v));
    });
    q.set("lang", lang);
    return q.toString();
  }
  /* Whether the form asks for the strategy: hints, or an optimal computer player. */
  function wanted(form) {
    const hints = form.querySelector("input[name=hints]");
    if (hints && hints.checked) return true;
    return Array.prototype.some.call(form.querySelectorAll("select[name$=_kind]"),
      function (s) { return s.value === "optimal"; });
  }
  async function check(form) {
    const data = await ask(formQuery(form));
    // "ready" is said only where it matters, so the form stays short on a phone.
    if (!data) { box.hidden = true; return; }
    show(data);
    box.hidden = data.state === "ready" && !wanted(form);
  }

  if (table) { tick(); return; }
  const form = box.closest("form");
  if (!form) return;
  function later() { if (timer) clearTimeout(timer); timer = setTimeout(function () { check(form); }, 300); }
  form.addEventListener("change", later);
  form.addEventListener("input", later);
  check(form);
})();
