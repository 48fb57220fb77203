/* The puzzle trainer (/train, issue 23): one puzzle at a time on the table the games draw
   (dice-table.js: tap the dice, Roll, Bank, the same keys and names), the answer checked by the
   server (/api/train/answer) with every option's chance to win and why, the rating, streak,
   accuracy per theme and a chart of the rating.

   The server keeps nothing of the player: the progress (the server's format), the chart's
   points, the puzzles ahead and the answers given without a connection live in local storage.
   Ten puzzles are kept ahead (/api/train/next), so the page goes on offline (the service worker
   keeps the page itself); an answer given offline waits in order and is checked, and the
   progress moved, when the connection is back. */
"use strict";
(function () {
  const t = PF.t, el = PF.el;
  /* The keys' captions the Pepper table puts on its buttons (as table.js does at the tables). */
  PF.keys = PF.keys || {
    cap: function (node, k) {
      node.dataset.kbd = k.toLowerCase();
      node.setAttribute("aria-keyshortcuts", k.toUpperCase());
      node.appendChild(el("kbd", {class: "keycap", "aria-hidden": "true", text: k.toUpperCase()}));
      return node;
    },
    line: function (parts) { return el("p", {class: "kbd-hint muted", text: t("keys_label") + " " + parts.join(" · ")}); }
  };
  const root = document.getElementById("train");
  const GAMES = (root.dataset.games || "dice").split(" ");
  const GAME_KEY = "pfeffer.train.game";            // the game chosen last
  const HELD = "pfeffer.train.held";                // answers waiting for the connection, in order
  let game = GAMES[0];
  // Each game's own: the progress as the server wrote it, the chart's points [[tries, rating]],
  // the puzzles kept ahead, the theme chosen.
  // Under a preset's house rules ("rules": its key, "" for the shipped puzzles) the progress
  // and all else is kept apart: the slot "dice@short".
  let rules = "";
  function slotOf(g, r) { return g + (r ? "@" + r : ""); }
  function key(what) { return "pfeffer.train." + slotOf(game, rules) + (what ? "." + what : ""); }
  function rulesKey() { return "pfeffer.train." + game + ".rules"; }
  const KEEP_AHEAD = 10, REFILL = 6, CHART_POINTS = 200;
  const $ = function (id) { return document.getElementById(id); };
  const board = $("board"), actions = $("actions"), feedback = $("feedback"), next = $("next");
  const theme = $("theme"), gamePick = $("game"), rulesPick = $("rules");

  function read(key, fallback) {
    try { const v = localStorage.getItem(key); return v === null ? fallback : JSON.parse(v); }
    catch (e) { return fallback; }
  }
  function write(key, value) {
    try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* full: kept in memory */ }
  }

  const wanted = new URLSearchParams(location.search).get("game") || read(GAME_KEY, GAMES[0]);
  if (GAMES.indexOf(wanted) >= 0) game = wanted;
  rules = read(rulesKey(), "");
  if (!rulesPick || !rulesPick.querySelector('option[data-game="' + game + '"][data-rules="' + String(rules).replace(/"/g, "") + '"]')) rules = "";
  let progress = read(key(), null);
  let ahead = read(key("ahead"), []);
  let held = read(HELD, []).filter(function (h) { return h && h.game && h.puzzle; });
  let current = null;    // the puzzle on the table
  let answered = false;
  let daily = null;      // the day's puzzle, shown first when the page is opened with ?daily

  /* ------------------------------------------------------------------ the server */

  function post(path, body) {
    return fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify(body), credentials: "same-origin"}).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (data) {
        if (!r.ok) { const e = new Error(data.detail || String(r.status)); e.status = r.status; throw e; }
        return data;
      });
    });
  }

  function refill() {
    if (ahead.length >= REFILL) return Promise.resolve();
    const body = {game: game, progress: progress, count: KEEP_AHEAD - ahead.length,
      exclude: ahead.map(function (p) { return p.id; }), theme: theme.value || null, rules: rules};
    return post("/api/train/next", body).then(function (data) {
      const have = new Set(ahead.map(function (p) { return p.id; }));
      if (data.game !== game || (data.rules || "") !== rules) return;  // another choice meanwhile
      if (data.preparing) { preparing(); return; }
      data.puzzles.forEach(function (p) { if (!have.has(p.id)) ahead.push(p); });
      write(key("ahead"), ahead);
    });
  }

  /* Pepper's house rules: the server makes their puzzles once (a minute or so); meanwhile the
     page says so and asks again every few seconds. */
  let waitTimer = null;
  function preparing() {
    if (ahead.length) return;
    root.dataset.state = "preparing";
    board.textContent = ""; actions.textContent = ""; feedback.hidden = true; next.hidden = true;
    board.className = ""; $("scores").textContent = "";
    $("question").textContent = t("tr_preparing");
    $("puzzleinfo").textContent = "";
    if (waitTimer) return;
    waitTimer = setTimeout(function () {
      waitTimer = null;
      refill().then(function () { if (ahead.length && root.dataset.state === "preparing") showFirst(); },
        function () { if (root.dataset.state === "preparing") preparing(); });
    }, 2000);
  }

  /* ------------------------------------------------------------------ drawing */

  function status(text) {
    const box = $("offline");
    box.hidden = !text;
    box.textContent = text || "";
  }

  function heldNote() {
    status(held.length ? t("tr_held") + " " + t("tr_held_count", {n: held.length}) : "");
  }

  function draw(p) {
    current = p; answered = false;
    root.dataset.puzzle = p ? p.id : "";
    root.dataset.kind = p ? p.kind : "";
    root.dataset.state = p ? "asking" : "none";
    board.textContent = ""; actions.textContent = ""; feedback.hidden = true; feedback.textContent = "";
    $("error").hidden = true;
    $("daily").hidden = !(daily && p.id === daily.id);
    next.hidden = true;
    const scores = $("scores");
    scores.textContent = "";
    if (!p) {
      $("question").textContent = navigator.onLine === false ? t("tr_offline_none") : t("tr_none");
      $("puzzleinfo").textContent = "";
      return;
    }
    $("question").textContent = p.question;
    $("puzzleinfo").textContent = p.theme_labels.join(" · ") + " · " + t("tr_puzzle_rating", {r: p.rating});
    const table = PF.tables[p.game];  // the game's own drawing: dice-table.js, pepper-table.js
    board.className = "train-board game-" + p.game;
    table.reset();
    table.render(p.frame, send, board, actions, scores);
    actions.appendChild(el("p", {class: "kbd-hint muted", text: t("tr_keys")}));
  }

  /* The table sends what the player chose: an action, or [set-aside, then] from Roll/Bank
     after tapping dice: the set-aside is the answer. */
  function send(what) {
    if (!current || answered) return;
    const action = Array.isArray(what) ? what[0] : what;
    answered = true;
    actions.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    board.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    const p = current;
    ahead = ahead.filter(function (q) { return q.id !== p.id; });
    write(key("ahead"), ahead);
    if (held.length || navigator.onLine === false) { hold(p, action); return; }
    post("/api/train/answer", {game: game, puzzle: p.id, answer: action, progress: progress, rules: rules})
      .then(function (data) { took(data); showFeedback(p, action, data); root.dataset.state = "answered"; refill().then(null, function () {}); },
        function (e) {
          if (e.status) { // refused: say why, let the player answer again
            answered = false;
            const box = $("error"); box.hidden = false; box.textContent = e.message;
            draw(p); box.hidden = false; box.textContent = e.message;
            return;
          }
          hold(p, action);
        });
  }

  function hold(p, action) {
    held.push({game: game, rules: rules, puzzle: p.id, answer: action});
    write(HELD, held);
    heldNote();
    root.dataset.state = "held";
    showNext();
  }

  /* An answer the server checked: keep the progress it sends and the chart's point. */
  function took(data, of) {
    const g = of || slotOf(game, rules), p = data.progress;
    write("pfeffer.train." + g, p);
    const chartKey = "pfeffer.train." + g + ".chart", chart = read(chartKey, []);
    chart.push([p.tries, Math.round(data.rating.after)]);
    write(chartKey, chart.slice(-CHART_POINTS));
    if (g === slotOf(game, rules)) { progress = p; drawStats(); }
  }

  /* Rounded half up to one decimal as the server's figures are, then written in the page's
     language ("12,5 %" in German). */
  function pct(x) { return PF.pct(Math.round(x * 1000) / 1000, 1); }
  function one(x) { return PF.num(Math.round(x * 10) / 10, 1); }
  /* An option's value as the page says it: a chance to win (dice), points of the hand on
     average or tricks (Pepper). */
  function valueText(data, x) {
    if (data.unit === "tricks") return t("tr_value_tricks", {v: String(Math.round(x))});
    if (data.unit === "points") return t("tr_value_points", {v: (x > 0 ? "+" : x < 0 ? "−" : "") + one(Math.abs(x))});
    return pct(x);
  }

  function showFeedback(p, action, data) {
    feedback.textContent = "";
    feedback.hidden = false;
    const bestLabel = data.options[0].label;
    feedback.appendChild(el("p", {class: "verdict " + (data.correct ? "right" : "wrong"),
      text: (data.correct ? "✓ " + t("tr_right") : "✗ " + t("tr_wrong", {best: bestLabel}))}));
    if (!data.correct) {
      const cost = data.unit === "tricks" ? t("tr_cost_tricks", {cost: String(Math.round(data.cost))})
        : data.unit === "points" ? t("tr_cost_points", {cost: one(data.cost)}) : t("tr_cost", {cost: one(data.cost * 100)});
      feedback.appendChild(el("p", {text: cost}));
    }
    feedback.appendChild(el("p", {class: "label", text: data.unit ? t("tr_values") : t("tr_options")}));
    const wins = data.options.map(function (o) { return o.win; });
    const hi = Math.max.apply(null, wins), lo = data.unit === "points" ? Math.min.apply(null, wins) : 0;
    function width(w) { return hi > lo ? Math.max(4, Math.round(100 * (w - lo) / (hi - lo))) : 100; }
    const good = data.answers || [data.best];
    feedback.appendChild(el("ul", {class: "optionlist"}, data.options.map(function (o) {
      const tags = [];
      const best = good.indexOf(o.action) >= 0;
      if (best) tags.push(t("tr_best"));
      if (o.action === data.chosen) tags.push(t("tr_yours"));
      const bar = el("span", {class: "bar"});
      bar.appendChild(el("span", {class: "fill", "data-w": String(width(o.win))}));
      return el("li", {class: (best ? "best" : "") + (o.action === data.chosen ? " chosen" : "")}, [
        el("span", {class: "opt", text: o.label}), bar, el("span", {class: "win", text: valueText(data, o.win)}),
        tags.length ? el("span", {class: "tags", text: tags.join(" · ")}) : null]);
    })));
    feedback.querySelectorAll(".fill").forEach(function (f) { f.style.width = f.dataset.w + "%"; });
    data.lines.forEach(function (l) { feedback.appendChild(el("p", {class: "why", text: l})); });
    if (data.hands) {  // a Pepper puzzle answered: every hand shown
      const names = p.frame.seats.map(function (s) { return s.name; });
      feedback.appendChild(el("p", {class: "label", text: t("tr_hands")}));
      feedback.appendChild(el("ul", {class: "hands"}, data.hands.map(function (h, s) {
        return el("li", null, [el("span", {class: "who", text: names[s] + ": "}),
          el("span", {class: "minitrick openhand", role: "group", "aria-label": names[s]}, h.map(function (c) { return PF.card(c, {label: PF.cardLabel(c)}); }))]);
      })));
    }
    const d = Math.round(data.rating.after - data.rating.before);
    feedback.appendChild(el("p", {class: "ratingline", text: t("tr_rating_change",
      {before: Math.round(data.rating.before), after: Math.round(data.rating.after), delta: (d >= 0 ? "+" : "−") + Math.abs(d)}) +
      " · " + t("tr_streak") + ": " + data.streak}));
    showNext();
  }

  function showNext() {
    next.textContent = t("tr_next");
    next.hidden = false;
    next.focus();
  }

  /* ------------------------------------------------------------------ progress */

  function drawStats() {
    const p = progress || {rating: [1500, 350, 0.06], tries: 0, right: 0, streak: 0, best_streak: 0, themes: {}};
    const stats = $("stats");
    stats.textContent = "";
    [[t("tr_rating"), Math.round(p.rating[0]) + " ± " + Math.round(p.rating[1])],
     [t("tr_streak"), String(p.streak)], [t("tr_best_streak"), String(p.best_streak)],
     [t("tr_tries"), p.right + " / " + p.tries]].forEach(function (kv) {
      stats.appendChild(el("dt", {text: kv[0]}));
      stats.appendChild(el("dd", {text: kv[1], "data-stat": kv[0]}));
    });
    const acc = $("themeacc");
    acc.textContent = "";
    const names = {};
    Array.prototype.forEach.call(theme.options, function (o) { if (o.value) names[o.value] = o.textContent; });
    const keys = Object.keys(p.themes || {}).sort(function (a, b) { return p.themes[b][0] - p.themes[a][0]; });
    if (keys.length) {
      acc.appendChild(el("thead", null, [el("tr", null, [el("th", {scope: "col", text: t("tr_theme")}), el("th", {scope: "col", text: t("tr_accuracy")})])]));
      acc.appendChild(el("tbody", null, keys.map(function (k) {
        const v = p.themes[k];
        return el("tr", null, [el("th", {scope: "row", text: names[k] || k}),
          el("td", {text: v[1] + " / " + v[0] + " (" + Math.round(100 * v[1] / v[0]) + "%)"})]);
      })));
    }
    drawChart();
  }

  function drawChart() {
    const svg = $("chart"), pts = read(key("chart"), []), NS = "http://www.w3.org/2000/svg";
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const title = document.createElementNS(NS, "title");
    title.textContent = t("tr_chart");
    svg.appendChild(title);
    svg.setAttribute("aria-label", t("tr_chart"));
    if (pts.length < 1) { $("charttext").textContent = t("tr_chart_empty"); return; }
    const rs = pts.map(function (q) { return q[1]; });
    const lo = Math.min.apply(null, rs) - 20, hi = Math.max.apply(null, rs) + 20;
    const line = document.createElementNS(NS, "polyline");
    line.setAttribute("points", pts.map(function (q, i) {
      const x = pts.length === 1 ? 150 : 300 * i / (pts.length - 1);
      return x.toFixed(1) + "," + (100 - 100 * (q[1] - lo) / (hi - lo)).toFixed(1);
    }).join(" "));
    line.setAttribute("class", "ratingline-svg");
    svg.appendChild(line);
    const last = line.getAttribute("points").split(" ").pop().split(",");
    const dot = document.createElementNS(NS, "circle");  // the newest rating (alone: the only mark)
    dot.setAttribute("cx", last[0]); dot.setAttribute("cy", last[1]); dot.setAttribute("r", "3");
    svg.appendChild(dot);
    $("charttext").textContent = t("tr_chart") + ": " + rs[0] + " → " + rs[rs.length - 1];
  }

  /* ------------------------------------------------------------------ the flow */

  function showFirst() {
    if (!ahead.length && root.dataset.state === "preparing") return;  // asked again soon
    draw(ahead.length ? ahead[0] : null);
  }

  function goNext() {
    if (daily && current && current.id === daily.id) daily = null;
    showFirst();
    refill().then(function () { if (!current && ahead.length) showFirst(); }, function () {});
    const focus = board.querySelector("button:not([disabled])") || actions.querySelector("button:not([disabled])");
    if (focus) focus.focus();
  }

  /* The answers given offline, in order, each with the progress the one before returned. */
  let sending = false;
  function sendHeld() {
    if (sending || !held.length) return Promise.resolve();
    sending = true;
    let right = 0, n = 0;
    function one() {
      if (!held.length) return Promise.resolve();
      const h = held[0];
      const slot = slotOf(h.game, h.rules || "");
      const before = slot === slotOf(game, rules) ? progress : read("pfeffer.train." + slot, null);
      return post("/api/train/answer", {game: h.game, puzzle: h.puzzle, answer: h.answer, progress: before, rules: h.rules || ""})
        .then(function (data) { took(data, slot); n++; if (data.correct) right++; held.shift(); write(HELD, held); return one(); },
          function (e) { if (e.status) { held.shift(); write(HELD, held); return one(); } throw e; });
    }
    return one().then(function () {
      sending = false;
      status(n ? t("tr_sent", {right: right, n: n}) : "");
      root.dataset.sent = String(n);
      return refill();
    }, function () { sending = false; heldNote(); });
  }

  next.addEventListener("click", goNext);
  theme.addEventListener("change", function () {
    write(key("theme"), theme.value);
    ahead = []; write(key("ahead"), ahead); daily = null;
    root.dataset.state = "loading";
    board.textContent = ""; actions.textContent = "";
    $("question").textContent = t("tr_loading");
    refill().then(showFirst, function () { showFirst(); });
  });
  window.addEventListener("online", function () { sendHeld(); });
  document.addEventListener("keydown", function (ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.repeat) return;
    const tag = ev.target && ev.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    const k = ev.key.toLowerCase();
    if (k === "n" && !next.hidden) { ev.preventDefault(); goNext(); return; }
    if (/^[0-9a-z]$/.test(k) && !answered) {  // a button's key, as table.js presses them at the tables
      const b = document.querySelector('#board button[data-kbd="' + k + '"], #actions button[data-kbd="' + k + '"]');
      if (b && !b.disabled) { ev.preventDefault(); b.click(); }
    }
  });

  /* The page as an app without a connection: the service worker keeps /train and its files. */
  if (window.isSecureContext && navigator.serviceWorker) {
    navigator.serviceWorker.register("/sw.js", {scope: "/train"}).catch(function () {});
  }

  /* The rules picker offers the chosen game's rules only (dice: the presets with a solved
     table; Pepper: the house rules whose puzzles the server makes). */
  function rulesOf() {
    if (!rulesPick) return;
    Array.prototype.forEach.call(rulesPick.options, function (o) {
      const other = o.dataset.game !== game;
      o.hidden = other; o.disabled = other;
    });
    const o = rulesPick.querySelector('option[data-game="' + game + '"][data-rules="' + String(rules).replace(/"/g, "") + '"]');
    if (o) o.selected = true;
    rulesPick.parentNode.hidden = rulesPick.querySelectorAll('option[data-game="' + game + '"]').length < 2;
  }
  function reload() {
    progress = read(key(), null); ahead = read(key("ahead"), []); daily = null;
    root.dataset.state = "loading";
    root.dataset.rules = rules;
    rulesOf(); themesOf(); drawStats();
    board.textContent = ""; actions.textContent = "";
    $("question").textContent = t("tr_loading");
    refill().then(showFirst, function () { showFirst(); });
  }
  if (rulesPick) {
    rulesPick.addEventListener("change", function () {
      rules = rulesPick.value;
      write(rulesKey(), rules);
      reload();
    });
  }

  /* The theme picker offers the chosen game's themes only. */
  function themesOf() {
    Array.prototype.forEach.call(theme.options, function (o) {
      const other = !!o.dataset.game && o.dataset.game !== game;
      o.hidden = other; o.disabled = other;
    });
    const saved = read(key("theme"), "");
    const ok = saved && theme.querySelector('option[data-game="' + game + '"][value="' + saved.replace(/"/g, "") + '"]');
    theme.value = ok ? saved : "";
  }
  if (gamePick) {
    gamePick.value = game;
    gamePick.addEventListener("change", function () {
      game = gamePick.value;
      write(GAME_KEY, game);
      root.dataset.game = game;
      rules = read(rulesKey(), "");
      if (!rulesPick || !rulesPick.querySelector('option[data-game="' + game + '"][data-rules="' + String(rules).replace(/"/g, "") + '"]')) rules = "";
      reload();
    });
  }
  if (new URLSearchParams(location.search).has("daily") && rules) {  // the day's puzzle is the shipped rules'
    rules = ""; progress = read(key(), null); ahead = read(key("ahead"), []);
  }
  root.dataset.game = game;
  root.dataset.rules = rules;
  rulesOf();
  themesOf();
  drawStats();
  heldNote();
  $("question").textContent = t("tr_loading");
  const wantDaily = new URLSearchParams(location.search).has("daily");
  const start = wantDaily
    ? fetch("/api/train/daily?game=" + game, {credentials: "same-origin"}).then(function (r) { return r.ok ? r.json() : null; })
      .then(function (d) { if (d) { daily = d; ahead = [d].concat(ahead.filter(function (p) { return p.id !== d.id; })); } }, function () {})
    : Promise.resolve();
  start.then(function () { return sendHeld(); })
    .then(function () { return refill(); })
    .then(function () { showFirst(); }, function () { showFirst(); heldNote(); });
})();
