/* Live play (WebSocket) and replays. Every frame comes from the server, built from the engine's
   view for this seat; this script only draws it and sends the actions the frame offers. */
"use strict";
(function () {
  const t = PF.t, el = PF.el;

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }
  function names(frame) { return frame.seats.map(function (s) { return s.name; }); }

  /* ------------------------------------------------------------------ frame */

  function render(frame, send, opts) {
    const focus = PF.tableUI ? PF.tableUI.saveFocus() : null;  // kept across the redraw
    const board = clear(document.getElementById("board"));
    const actions = document.getElementById("actions") ? clear(document.getElementById("actions")) : el("div");
    const scores = clear(document.getElementById("scores"));
    const v = frame.view, nm = names(frame);
    const over = v.is_over;
    const status = document.getElementById("status") || document.getElementById("lastaction");
    if (!opts || !opts.replay) {
      if (over) status.textContent = t("game_over");
      else if (frame.seat === null) status.textContent = t("spectator") + " " + t("turn_of", {name: nm[v.current_player]});
      else if (v.is_my_turn) status.textContent = t("your_turn");
      else status.textContent = t("waiting", {name: nm[v.current_player]});
      status.className = "status" + (v.is_my_turn ? " mine" : "");
    }
    const banner = document.getElementById("banner");
    const game = PF.tables[frame.game];
    let msg = game.announce(frame);
    if (over) {
      const winners = v.winner_names;
      clear(banner);
      banner.appendChild(el("div", {class: "result"}, [el("h2", {text: "★ " + (winners.length > 1 ? t("winners") : t("winner")) + ": " + winners.join(", ")}),
        el("p", {text: t("score") + ": " + v.scores.join(" : ")})]));
      const links = el("p");
      if (!opts || !opts.replay) {
        if (frame.seat !== null && opts && opts.rematch) links.appendChild(el("button", {class: "button primary", id: "rematch", type: "button", text: t("rematch"), on: {click: opts.rematch}}));
        const to = frame.links;  // the server's links once the game is finished (with a private game's key)
        if (to) {
          links.appendChild(el("a", {class: "button", id: "to-review", href: to.review, text: t("review")}));
          links.appendChild(el("a", {class: "button", id: "to-replay", href: to.replay, text: t("replay")}));
          links.appendChild(el("a", {class: "button", href: to.record, text: t("download")}));
        }
      }
      banner.appendChild(links);
      banner.hidden = false;
    } else if (msg) {
      clear(banner); banner.appendChild(el("p", {text: msg})); banner.hidden = false;
    } else { banner.hidden = true; }
    const players = el("div", {class: "players"}, frame.seats.map(function (s, i) {
      return el("span", {class: "player" + (i === v.current_player && !over ? " current" : "") + (i === frame.seat ? " me" : "")},
        [s.name, s.kind === "bot" ? " (" + t("bot") + ")" : (s.online === undefined ? "" : (s.online ? " ●" : " ○")),
         i === frame.seat ? " (" + t("you") + ")" : ""]);
    }));
    if (!game.ownSeats) board.appendChild(game.players ? game.players(frame) : players);  // a table may draw its own seats (or seat them itself)
    game.render(frame, send, board, actions, scores);
    if (PF.tableUI) PF.tableUI.update(frame, opts, focus);  // log, statistics, sounds (table.js)
    if (PF.hints) PF.hints.frame(frame);  // the hint button and an answer still current
    if (PF.handReview && (!opts || !opts.replay)) PF.handReview.frame(frame);  // the hand just played, reviewed
  }
  PF.renderFrame = render;  // the one-device page (device.js) draws its seats' frames with it

  /* ------------------------------------------------------------------ live */

  const app = document.getElementById("app");
  if (app) {
    const table = app.dataset.table, token = app.dataset.token, lang = app.dataset.lang;
    if (token) {  // the history lists this seat's finished games, private ones too (history.js)
      try {
        const kept = JSON.parse(localStorage.getItem("pfeffer.seats") || "[]").filter(function (x) { return x !== token; });
        kept.push(token);
        localStorage.setItem("pfeffer.seats", JSON.stringify(kept.slice(-200)));
      } catch (e) { /* no storage (a private window): the history shows the public games only */ }
    }
    let ws = null, delay = 500, frame = null, busy = false, gone = false;
    const errorBox = document.getElementById("error"), offline = document.getElementById("offline");
    /* While an action is on its way (until the next frame or error) and while the server is
       unreachable, the buttons are disabled: a double click sends one action. A panel's close
       button (hint, hand review) sends nothing and is never locked: a state frame redraws the
       board's buttons but not the panels, so a locked close button would stay disabled. */
    function lock(on) {
      app.querySelectorAll("#board button:not(.hint-close), #actions button:not(.hint-close), #banner button").forEach(function (b) { b.disabled = on; });
      app.classList.toggle("busy", on);
    }
    /* One action, or a list of actions the server takes as one step (all or none). */
    function send(action) {
      if (busy || !ws || ws.readyState !== 1) return;
      errorBox.hidden = true;
      busy = true; lock(true);
      const msg = Array.isArray(action) ? {type: "action", actions: action} : {type: "action", action: action};
      msg.version = frame ? frame.version : null;
      ws.send(JSON.stringify(msg));
    }
    function showError(text) {
      errorBox.textContent = text; errorBox.hidden = false;
      if (errorBox.scrollIntoView) errorBox.scrollIntoView({block: "nearest"});
    }
    function setOnline(on) {
      offline.hidden = on;
      app.classList.toggle("offline", !on);
      if (!on) lock(true);
    }
    /* The host replaced this seat's link (the server's ``bad_token``, then the socket closes):
       the table is drawn once more without a choice, the status says so and the banner what the
       server said, why and what to do (issue 22 §2), not "your turn" with dead buttons. */
    function replaced(text) {
      gone = true; busy = false;
      if (frame) {
        const view = Object.assign({}, frame.view, {is_my_turn: false});
        render(Object.assign({}, frame, {legal: [], view: view}), function () {}, {rematch: null});
      }
      const status = document.getElementById("status");
      status.textContent = t("link_replaced"); status.className = "status revoked";
      const banner = document.getElementById("banner");
      clear(banner).appendChild(el("p", {class: "revoked", text: text})); banner.hidden = false;
      errorBox.hidden = true; offline.hidden = true;
      app.querySelectorAll("#hint").forEach(function (b) { b.disabled = true; });
      app.classList.add("revoked");
    }
    async function rematch() {
      const r = await fetch("/api/tables/" + table + "/rematch", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({token: token})});
      if (r.ok) location.href = (await r.json()).url;
    }
    /* web-forms: other scripts (chat.js) send their own messages on this socket. */
    PF.sendMessage = function (obj) {
      if (!ws || ws.readyState !== 1) return false;
      ws.send(JSON.stringify(obj)); return true;
    };
    function connect() {
      const proto = location.protocol === "https:" ? "wss:" : "ws:";
      const q = "?lang=" + encodeURIComponent(lang) + (token ? "&token=" + encodeURIComponent(token) : "");
      ws = new WebSocket(proto + "//" + location.host + "/ws/" + table + q);
      ws.onopen = function () { delay = 500; };
      ws.onmessage = function (ev) {
        const msg = JSON.parse(ev.data);
        if (gone) return;  // a replaced link's page stays as it is
        if (msg.type === "state") {
          frame = msg; busy = false; setOnline(true); app.classList.remove("busy");
          document.getElementById("elsewhere").hidden = !msg.elsewhere;
          render(msg, send, {rematch: rematch}); app.dataset.version = String(msg.version);
        } else if (msg.type === "hand_review" || (msg.type === "error" && msg.code === "hints_off" && PF.handReview && PF.handReview.waiting()) ||
                   (msg.type === "error" && /^hand_/.test(msg.code))) {
          if (PF.handReview) PF.handReview.answer(msg);  /* the review of a finished hand */
        } else if (msg.type === "hint" || (msg.type === "error" && /^hint/.test(msg.code))) {
          if (PF.hints) PF.hints.answer(msg, frame);  /* tablehints: the advisor's answer */
        } else if (PF.onChat && (/^chat/.test(msg.type) || (msg.type === "error" && /^chat_/.test(msg.code)))) {
          PF.onChat(msg);  /* web-forms: the table chat (chat.js) */
        } else if (msg.type === "error" && msg.code === "bad_token" && token) { replaced(msg.message); }
        else if (msg.type === "error") { busy = false; lock(false); showError(msg.message); }
        else if (msg.type === "rematch" && frame && frame.seat === null) { location.href = "/watch/" + msg.table; }
      };
      ws.onclose = function (ev) {
        busy = false;
        if (PF.handReview) PF.handReview.lost();  // a question on its way is asked again
        if (gone || ev.code === 4403 || ev.code === 4404) { lock(true); return; }
        document.getElementById("status").textContent = t("reconnecting");
        setOnline(false);
        setTimeout(connect, delay); delay = Math.min(delay * 2, 4000);
      };
    }
    connect();
  }

  /* ------------------------------------------------------------------ replay */

  const rp = document.getElementById("replay");
  if (rp) {
    const table = rp.dataset.table, slider = document.getElementById("step");
    const key = rp.dataset.token ? "&token=" + encodeURIComponent(rp.dataset.token) : "";  // a private game
    /* ``want``: the step asked for last; quick clicks count from it, not from the step drawn
       (two clicks on "next" go two steps on), and only the answer to the last request is drawn. */
    let step = 0, steps = 0, want = 0, asked = 0;
    async function load(n) {
      want = n;
      const mine = ++asked;
      const r = await fetch("/api/tables/" + table + "/replay?step=" + n + key);
      const d = await r.json();
      if (mine !== asked) return;
      step = want = d.step; steps = d.steps; slider.max = String(steps); slider.value = String(step);
      document.getElementById("stepinfo").textContent = t("step") + " " + step + " / " + steps;
      /* The step's action as the table's log tells it (the engine's events, one sentence each). */
      document.getElementById("lastaction").textContent = d.events
        .map(function (e) { return PF.tableUI.logText(d.game, e, d.names, d.view); })
        .filter(function (x) { return x; }).join(" · ");
      const frame = {game: d.game, seat: null, legal: [], table: table, view: d.view,
        seats: d.seats.map(function (s) { return {name: s.name, kind: s.kind}; })};
      PF.tables[d.game].reset();
      render(frame, function () {}, {replay: true});
    }
    rp.querySelectorAll("[data-go]").forEach(function (b) {
      b.addEventListener("click", function () {
        const go = b.dataset.go;
        load(go === "first" ? 0 : go === "prev" ? Math.max(0, want - 1) : go === "next" ? Math.min(want + 1, steps || want + 1) : steps);
      });
    });
    slider.addEventListener("input", function () { load(Number(slider.value)); });
    /* A link to a step (#step-12, the game review's): the replay goes there. */
    function hashStep() { const m = /^#step-(\d+)$/.exec(location.hash); return m ? Number(m[1]) : 0; }
    window.addEventListener("hashchange", function () { load(hashStep()); });
    load(hashStep());
  }
})();
