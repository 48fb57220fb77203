/* Score-sheet page: shows the sheet the server computed with the engine and sends new entries.
   Where the browser allows a service worker (localhost, HTTPS) entries go through the queue of
   sheet-sync.js, so the sheet also takes entries without a connection: the entries not yet on
   the sheet are listed as they were entered, never added up here. Elsewhere they go straight to
   the server. */
"use strict";
(function () {
  const t = PF.t, el = PF.el, sync = PF.sheetSync;
  const root = document.getElementById("sheet");
  const id = root.dataset.sheet, game = root.dataset.game, lang = root.dataset.lang;
  const box = document.getElementById("sheettable"), form = document.getElementById("entry");
  const heldBox = document.getElementById("held"), status = document.getElementById("sync");
  const errorBox = document.getElementById("error");
  const queue = sync.offline ? sync.sender(id, lang, {answer: draw, state: showState, refused: refused, gone: gone}) : null;
  let answer = null;
  let formId = sync.newId();  // without a queue: the id of the entry in the form, until the sheet takes it
  let fresh = true;           // the next drawing starts an empty form (after an entry was made)

  function clear(n) { while (n.firstChild) n.removeChild(n.firstChild); return n; }
  function showError(text) { errorBox.textContent = text || t("error"); errorBox.hidden = false; }
  function query() { return lang ? "?lang=" + encodeURIComponent(lang) : ""; }

  async function call(method, path, body) {
    let r, d;
    try {
      r = await fetch("/api/sheets/" + id + path + query(), {method: method, headers: {"Content-Type": "application/json"}, body: body ? JSON.stringify(body) : undefined});
      d = await r.json();
    } catch (e) {
      showError(path === "/undo" ? t("undo_offline") : t("no_connection"));
      return;
    }
    if (!r.ok) { showError(d.detail); return; }
    errorBox.hidden = true;
    fresh = true;
    if (queue) sync.keepAnswer(id, d);
    draw(d);
  }

  /* Before an entry that ends the game, reaches the target or looks like a typo (the server's
     engine says which, and words the question), the players confirm it. Without a connection, or
     after entries kept on this device (the server cannot know the state after them), the entry
     goes as it is: it can be undone. */
  async function confirmed(body) {
    if (queue && sync.held(id).length) return true;
    let r, d;
    try {
      r = await fetch("/api/sheets/" + id + "/check" + query(), {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
      d = await r.json();
    } catch (e) {
      return true;
    }
    if (!r.ok) return true;  // the entry itself is refused with the reason
    return !d.needs_confirmation || window.confirm(d.question);
  }

  /* A new entry: into the queue (sent at once when there is a connection) or straight to the server. */
  async function enter(body) {
    errorBox.hidden = true;
    if (!(await confirmed(body))) return;
    fresh = true;
    // Without a queue, or where the browser keeps nothing (storage full or switched off): straight to the server.
    if (!queue || !sync.hold(id, body)) { call("POST", "/entries", Object.assign({entry_id: formId}, body)); return; }
    draw(answer);
    queue.flush();
  }

  function describe(body) {
    if (game === "dice") return (body.bust ? t("bust") : String(body.points)) + (body.pfeffer ? " · " + t("pfeffer") : "");
    if (body.passed) return t("all_passed");
    const nm = answer ? answer.players : [];
    return [nm[body.bidder] || String(body.bidder), PF.bidName(body.bid), PF.trumpName(body.trump), body.tricks.join(" : ")].join(" · ");
  }

  function refused(entry, message) {
    showError(t("refused", {entry: describe(entry.body), reason: message || t("error")}));
  }
  function gone(message) { showError(message); }

  function winnersLine(names) {
    const line = el("p", {class: "banner result", text: "★ " + (names.length > 1 ? t("winners") : t("winner")) + ": " + names.join(", ")});
    // A slip of the finger must not end a game for good: the last entry can still be undone.
    return el("div", {}, [line, el("p", {class: "undo-note", text: t("undo_after_end")})]);
  }

  function checkbox(label, name) {
    const box = el("input", {type: "checkbox", name: name});
    form.appendChild(el("label", {class: "check"}, [box, label]));
    return box;
  }

  function drawDice(d, waiting) {
    const v = d.view, nm = d.players;
    box.appendChild(PF.diceSheet(v.sheet_rows, nm, v.scores, v.is_over || waiting ? -1 : v.current_player, t("round")));
    if (v.final_round && !v.is_over) box.appendChild(el("p", {class: "final", text: "⚑ " + t("final_round")}));
    if (v.is_over) { box.appendChild(winnersLine(v.winner_names)); return; }
    // With entries held on this device the server has not said yet whose turn it is, nor what
    // is at stake: the form then says only that the entry follows the held ones.
    if (!waiting && v.pfeffer === "auto") form.appendChild(el("p", {class: "pfeffer", text: "" + t("auto_pfeffer")}));
    form.appendChild(el("p", {class: "whose"}, [el("strong", {text: waiting ? t("next_entry") : t("turn_of", {name: nm[v.current_player]})})]));
    const pts = el("input", {type: "number", step: String(v.points_step), min: "0", name: "points", inputmode: "numeric", "aria-label": t("points")});
    form.appendChild(el("label", null, [t("points"), pts]));
    let pf = null;
    if (!waiting && v.bust_penalty) form.appendChild(el("p", {class: "muted bustcost", text: t("bust_costs", {points: v.bust_penalty})}));
    if (!waiting && d.can_pfeffer) {
      pf = checkbox(t("call_pfeffer", {stake: v.pfeffer_stake}), "pfeffer");
      form.appendChild(el("p", {class: "muted pfeffer offer", text: t("pfeffer_terms", {need: v.pfeffer_need, penalty: v.pfeffer_bust_penalty})}));
    } else if (waiting && d.may_call_pfeffer) {
      pf = checkbox(t("pfeffer"), "pfeffer");
    }
    const buttons = el("div", {class: "buttons"});
    buttons.appendChild(el("button", {class: "button primary", type: "submit", id: "add", text: t("add")}));
    buttons.appendChild(el("button", {class: "button", type: "button", id: "bust", text: t("bust"), on: {click: function () {
      enter({bust: true, pfeffer: pf ? pf.checked : false});
    }}}));
    form.appendChild(buttons);
    form.onsubmit = function (ev) { ev.preventDefault(); enter({points: Number(pts.value), pfeffer: pf ? pf.checked : false}); };
  }

  function drawPepper(d) {
    const nm = d.players, sides = d.side_names;
    const head = el("tr", null, [el("th", {text: "#"}), el("th", {text: t("bidder")}), el("th", {text: t("bid")}), el("th", {text: t("trump")}), el("th", {text: t("tricks")})]
      .concat(sides.map(function (s) { return el("th", {text: s}); })));
    const body = d.rows.map(function (r) {
      if (r.bidder === null) {  // a hand everybody passed: nothing scored, the deal moved on
        return el("tr", null, [el("td", {text: String(r.number)}), el("td", {text: t("all_passed"), colspan: "4"})]
          .concat(r.scores.map(function (s) { return el("td", null, [String(0), el("small", {text: " " + s})]); })));
      }
      return el("tr", null, [el("td", {text: String(r.number)}), el("td", {text: nm[r.bidder]}), el("td", {text: PF.bidName(r.bid)}), el("td", {text: PF.trumpName(r.trump)}),
        el("td", {text: r.tricks.join(" : ")})].concat(r.points.map(function (p, i) { return el("td", {class: p < 0 ? "penalty" : ""}, [PF.signed(p), el("small", {text: " " + r.scores[i]})]); })));
    });
    const sum = el("tr", {class: "sum"}, [el("th", {text: t("total"), colspan: "5"})].concat(d.scores.map(function (s) { return el("th", {text: String(s)}); })));
    box.appendChild(el("table", {class: "sheet"}, [el("thead", null, [head]), el("tbody", null, body), el("tfoot", null, [sum])]));
    if (d.is_over) { box.appendChild(winnersLine(d.winner_names)); return; }
    const bidder = el("select", {name: "bidder"}, nm.map(function (x, i) { return el("option", {value: String(i), text: x}); }));
    const bid = el("select", {name: "bid"}, d.bids.map(function (b) { return el("option", {value: b, text: PF.bidName(b)}); }));
    const trump = el("select", {name: "trump"}, d.trumps.map(function (x) { return el("option", {value: x, text: PF.trumpName(x)}); }));
    form.appendChild(el("label", null, [t("bidder"), bidder]));
    form.appendChild(el("label", null, [t("bid"), bid]));
    form.appendChild(el("label", null, [t("trump"), trump]));
    const tricks = sides.map(function (s, i) {
      const inp = el("input", {type: "number", min: "0", max: String(d.tricks_per_hand), name: "tricks" + i, value: "0", inputmode: "numeric"});
      form.appendChild(el("label", null, [t("tricks") + " " + s, inp]));
      return inp;
    });
    const buttons = el("div", {class: "buttons"});
    buttons.appendChild(el("button", {class: "button primary", type: "submit", id: "add", text: t("add")}));
    if (d.can_enter_passed) {
      buttons.appendChild(el("button", {class: "button", type: "button", id: "passed", text: t("all_passed"), on: {click: function () { enter({passed: true}); }}}));
    }
    form.appendChild(buttons);
    form.onsubmit = function (ev) {
      ev.preventDefault();
      enter({bidder: Number(bidder.value), bid: bid.value, trump: trump.value, tricks: tricks.map(function (x) { return Number(x.value); })});
    };
  }

  /* The entries held on this device, in the order they will be sent, as they were entered. */
  function drawHeld(list, sending) {
    clear(heldBox);
    heldBox.hidden = !list.length;
    if (!list.length) return;
    heldBox.appendChild(el("h2", {text: t("held_title")}));
    heldBox.appendChild(el("ol", {class: "held-list"}, list.map(function (e, i) {
      return el("li", {class: "pending", "data-entry": e.entry_id}, [
        el("span", {class: "what", text: describe(e.body)}),
        el("button", {type: "button", class: "button remove", "aria-label": t("remove"), title: t("remove"), text: "×",
          disabled: sending && i === 0 ? "disabled" : null, on: {click: function () { sync.drop(id, e.entry_id); draw(answer); queue.flush(); }}}),
      ]);
    })));
  }

  function showState(name, list) {
    drawHeld(list, name === "sending");
    clear(status);
    status.dataset.state = name;
    if (name === "waiting") status.appendChild(el("span", {text: t("offline_wait") + " " + t("held_count", {n: list.length})}));
    else if (name === "sending") status.appendChild(el("span", {text: t("sending")}));
    else if (name === "paused") {
      status.appendChild(el("span", {text: t("held_paused")}));
      status.appendChild(el("button", {type: "button", class: "button primary", id: "sendheld", text: t("send_held"), on: {click: function () { queue.resume(); }}}));
    }
    status.hidden = !status.firstChild;
    redrawForm(list.length > 0);
  }

  /* Redraw keeping what is typed into the form (unless an entry was just made from it). */
  let lastWaiting = null;
  function redrawForm(waiting) {
    if (answer === null || (waiting === lastWaiting && !fresh)) return;
    const typed = {}, focused = document.activeElement && form.contains(document.activeElement) ? document.activeElement.name : null;
    if (!fresh) form.querySelectorAll("input, select").forEach(function (x) { typed[x.name] = x.type === "checkbox" ? x.checked : x.value; });
    clear(box); clear(form);
    if (game === "dice") drawDice(answer, waiting); else drawPepper(answer);
    form.querySelectorAll("input, select").forEach(function (x) {
      if (!(x.name in typed)) return;
      if (x.type === "checkbox") x.checked = typed[x.name]; else x.value = typed[x.name];
    });
    if (focused && form.elements[focused]) form.elements[focused].focus();
    lastWaiting = waiting;
    fresh = false;
  }

  function draw(d) {
    if (d) answer = d;
    formId = sync.newId();
    const list = queue ? sync.held(id) : [];
    lastWaiting = null;  // the sheet changed: draw it again
    redrawForm(list.length > 0);
    if (queue) showState(!list.length ? "idle" : queue.paused() ? "paused" : (status.dataset.state || "waiting"), list);
  }

  // A stale message goes as soon as the entry changes or the browser's own check objects; a
  // changed entry is a new one (without a queue it gets a new id).
  form.addEventListener("input", function () { errorBox.hidden = true; formId = sync.newId(); });
  form.addEventListener("invalid", function () { errorBox.hidden = true; }, true);

  document.getElementById("undo").addEventListener("click", function () {
    const list = queue ? sync.held(id) : [];
    if (list.length) { sync.drop(id, list[list.length - 1].entry_id); draw(answer); queue.flush(); return; }  // not sent yet: just forget it
    call("POST", "/undo");
  });
  document.getElementById("print").addEventListener("click", function () { window.print(); });

  document.getElementById(sync.offline ? "offline-yes" : "offline-no").hidden = false;
  sync.remember(id, {game: game, title: document.getElementById("title").textContent, url: location.pathname});
  if (queue) {
    const kept = sync.lastAnswer(id);
    if (kept) draw(kept);  // at once, also without a connection
    sync.register().then(function (ok) { if (ok) root.dataset.offline = "ready"; });
  }
  fetch("/api/sheets/" + id + query()).then(function (r) {
    return r.json().then(function (d) {
      if (!r.ok) { showError(d.detail); return; }
      if (queue) sync.keepAnswer(id, d);
      draw(d);
      if (queue) queue.flush();
    });
  }, function () {
    if (!answer) showError(t("no_connection"));
    if (queue) queue.flush();  // tries, and says that it waits for the connection
  });
})();
