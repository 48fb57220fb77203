/* The dice table: draws a dice frame (the engine's view for this seat) and offers its legal
   actions. Loaded before play.js, which calls PF.tables.dice.players/render/announce/reset.

   The player taps the dice of the throw to set them aside; the page only looks the tapped faces
   up in the engine's list of legal set-asides (view.keep_options, each with its points and what
   follows it: option.next) and says when they match none. "Roll N" and "Bank" then send that
   set-aside and, once the server has applied it, the roll or the bank. Keys: 1-6 pick the die
   at that place, R rolls, B banks, Escape clears the choice. */
"use strict";
(function () {
  const t = PF.t, el = PF.el;
  PF.tables = PF.tables || {};
  const motion = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

  let lastThrow;         // the log index of the newest throw drawn (null: none; undefined: nothing drawn yet)
  let settling = null;   // while a new throw tumbles: a promise kept when the dice lie still
  let picked = [];       // places of the dice tapped in the throw on the table
  let pickedFor = null;  // the throw (its log index) those places belong to
  let ui = null;         // the controls of the table drawn now (for taps and keys)

  function names(frame) { return frame.seats.map(function (s) { return s.name; }); }
  function faceName(f) { return t("face_" + f); }
  function diceText(dice) { return dice.join("-"); }

  /* The index in the whole log of the newest throw (null if there is none). */
  function newestThrow(v) {
    const log = v.log || [];
    for (let i = log.length - 1; i >= 0; i--) {
      if (log[i].kind === "throw") return v.log_count - log.length + i;
    }
    return null;
  }

  /* ------------------------------------------------------------------ seats */

  function seats(frame) {
    const v = frame.view, over = v.is_over;
    return el("div", {class: "players dice-seats"}, frame.seats.map(function (s, i) {
      const cur = i === v.current_player && !over, won = over && v.winners.indexOf(i) >= 0;
      const online = s.kind === "bot" || s.online === undefined ? null : el("span", {class: "seat-online" + (s.online ? " on" : ""),
        title: s.online ? t("online") : t("offline"), text: s.online ? " ●" : " ○"});
      const score = el("span", {class: "seat-score"}, [String(v.scores[i])]);
      if (cur && v.turn_total) score.appendChild(el("span", {class: "seat-turn", text: " +" + v.turn_total}));
      const kids = [el("span", {class: "seat-name"}, [s.name, online]), score];
      const tags = [];
      if (s.kind === "bot") tags.push("(" + t("bot") + ")");
      if (i === frame.seat) tags.push(t("you"));
      if (cur && v.pfeffer === "called") tags.push("P!");
      if (cur && v.pfeffer === "auto") tags.push("A");
      if (tags.length) kids.push(el("span", {class: "seat-tags", text: tags.join(" · ")}));
      if (won) kids.push(el("span", {class: "seat-win", text: "★"}));
      return el("div", {class: "seat-card player" + (cur ? " current" : "") + (i === frame.seat ? " me" : "") + (won ? " winner" : ""),
        "aria-current": cur ? "true" : null}, kids);
    }));
  }

  /* ------------------------------------------------------------------ the felt */

  function chip(cls, text) { return el("span", {class: "chip " + cls, text: text}); }

  function notices(v) {
    const box = el("div", {class: "felt-notes"});
    if (v.is_over) return box;
    if (v.final_round) box.appendChild(chip("final", "⚑ " + t("final_round")));
    if (v.pfeffer === "called") box.appendChild(chip("hot", t("pfeffer_on", {stake: v.stake}) + " · " + t("bust_costs", {points: v.bust_penalty})));
    if (v.pfeffer === "auto") box.appendChild(chip("hot", t("auto_pfeffer") + " · " + t("bust_costs", {points: v.bust_penalty})));
    return box;
  }

  function keptRow(v) {
    const groups = v.turn_throws.filter(function (th) { return th.kept.length; });
    if (!groups.length) return null;
    return el("div", {class: "kept-row"}, [el("span", {class: "label", text: t("kept_this_turn")})].concat(groups.map(function (th) {
      return el("span", {class: "kept-group"}, [PF.dice(th.kept, "small kept", v.single_faces), el("span", {class: "pts", text: "+" + th.points})]);
    })));
  }

  function dieButton(v, face, pos) {
    const on = picked.indexOf(pos) >= 0;
    const svg = PF.die(face, "big", v.single_faces);
    svg.removeAttribute("role"); svg.removeAttribute("aria-label"); svg.setAttribute("aria-hidden", "true");
    return el("button", {type: "button", class: "die-btn" + (on ? " picked" : ""), "aria-pressed": on ? "true" : "false",
      "aria-label": faceName(face), "aria-keyshortcuts": String(pos + 1), title: String(pos + 1),
      "data-pos": String(pos), "data-face": String(face), "data-focus": "die" + pos,
      on: {click: function () { toggle(pos); }}}, [svg]);
  }

  function tray(frame, choosing) {
    const v = frame.view;
    const row = el("div", {class: "tray", role: "group", "aria-label": t("thrown")});
    if (v.roll) {
      v.roll.forEach(function (f, pos) {
        row.appendChild(choosing ? dieButton(v, f, pos) : el("span", {class: "die-slot"}, [PF.die(f, "big", v.single_faces)]));
      });
    } else if (!v.is_over) {
      for (let i = 0; i < v.dice_to_roll; i++) row.appendChild(el("span", {class: "die-slot empty", "aria-hidden": "true"}));
      row.appendChild(el("span", {class: "tray-note", text: t("to_throw", {n: v.dice_to_roll})}));
    }
    return row;
  }

  /* The turn that ended last, when the next one has not begun: who banked or busted, and the
     throw that busted. */
  function lastTurn(frame) {
    const v = frame.view, log = v.log || [];
    if (!v.history.length || !(v.phase === "start" || v.is_over) || !PF.tableUI) return null;
    let ev = null;
    for (let i = log.length - 1; i >= 0 && !ev; i--) if (log[i].kind === "bank" || log[i].kind === "bust") ev = log[i];
    if (!ev) return null;
    const turn = v.history[v.history.length - 1];
    const kids = [el("span", {text: PF.tableUI.logText("dice", ev, names(frame), v)})];
    if (turn.busted && turn.throws.length) kids.unshift(PF.dice(turn.throws[turn.throws.length - 1].faces, "small", v.single_faces));
    return el("p", {class: "lastturn " + (turn.busted ? "bust" : "bank")}, kids);
  }

  /* A new throw tumbles onto the felt; the promise is kept until every die lies still (the log
     names the throw only then: table.js asks PF.tables.dice.settling). A die that is redrawn or
     a page in the background never ends its animation: at most SETTLE ms are waited. */
  const SETTLE = 1200;  // the .6 s tumble plus 5 × 45 ms of delay, with room to spare
  function animate(row) {
    if (motion && motion.matches) return null;
    const dice = row.querySelectorAll(".die");
    if (!dice.length) return null;
    const still = [];
    dice.forEach(function (d, i) {
      d.classList.add("rolling");
      d.style.animationDelay = (i * 45) + "ms";
      still.push(new Promise(function (done) {
        function end() { d.classList.remove("rolling"); done(); }
        d.addEventListener("animationend", end, {once: true});
        d.addEventListener("animationcancel", end, {once: true});
      }));
    });
    return Promise.race([Promise.all(still), new Promise(function (done) { setTimeout(done, SETTLE); })]);
  }

  /* ------------------------------------------------------------------ choosing dice */

  function sameDice(a, b) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }

  /* The legal set-aside the tapped dice are, or null. */
  function chosen() {
    if (!ui || !ui.frame.view.roll) return null;
    const v = ui.frame.view;
    const faces = picked.map(function (p) { return v.roll[p]; }).sort(function (a, b) { return a - b; });
    return v.keep_options.find(function (o) {
      return sameDice(o.dice, faces) && ui.frame.legal.indexOf(o.action) >= 0;
    }) || null;
  }

  function toggle(pos) {
    const i = picked.indexOf(pos);
    if (i >= 0) picked.splice(i, 1); else picked.push(pos);
    refresh();
  }

  function rollLabel(n) { return t("roll_n", {n: n}); }  // "Roll 1 die", "Roll 3 dice"

  /* Redraw what depends on the tapped dice: the dice, the sentence under them, the buttons. */
  function refresh() {
    if (!ui || !ui.choosing) return;
    const v = ui.frame.view, o = chosen();
    ui.tray.querySelectorAll(".die-btn").forEach(function (b) {
      const on = picked.indexOf(Number(b.dataset.pos)) >= 0;
      b.classList.toggle("picked", on);
      b.setAttribute("aria-pressed", on ? "true" : "false");
    });
    let text, cls = "selection";
    if (!picked.length) { text = t("tap_hint"); cls += " hint"; }
    else if (o) {
      text = t("sel_points", {dice: diceText(o.dice), points: o.points, total: o.next.turn_total});
      if (o.next.hot_dice) text += " — " + t("sel_hot");
      cls += " ok";
    } else {
      const faces = picked.map(function (p) { return v.roll[p]; });
      const dead = faces.every(function (f) { return !v.keep_options.some(function (k) { return k.dice.indexOf(f) >= 0; }); });
      text = dead ? t("sel_nothing") : t("sel_not_scoring");
      cls += " bad";
    }
    ui.line.textContent = text;
    ui.line.className = cls;
    ui.roll.disabled = !o;
    ui.roll.textContent = o ? rollLabel(o.next.dice_to_roll) : t("roll");
    ui.bank.disabled = !(o && o.next.can_bank);
    ui.bank.textContent = o && o.next.can_bank ? t("bank", {points: o.next.turn_total}) : t("bank_plain");
  }

  /* "Roll N" / "Bank" while choosing: set the tapped dice aside and do ``then``, both in one
     message (the server takes them as one step: one round trip, not two). */
  function goOn(then) {
    const o = chosen();
    if (!o || !ui) return;
    if (then === "bank" && !o.next.can_bank) return;
    ui.send([o.action, then]);
  }

  /* ------------------------------------------------------------------ actions */

  function pfefferTerms(v) {
    const lines = [t("pf_stake", {stake: v.pfeffer_stake}),
      v.pfeffer_need >= v.pfeffer_stake ? t("pf_need", {need: v.pfeffer_need}) : t("pf_short", {need: v.pfeffer_need, stake: v.pfeffer_stake}),
      t("pf_bust", {penalty: v.pfeffer_bust_penalty, factor: v.rules.pfeffer_penalty_factor}),
      v.pfeffer_bonus ? t("pf_bonus", {bonus: v.pfeffer_bonus, stake: v.pfeffer_stake}) : t("pf_no_bonus")];
    return el("div", {class: "pfeffer offer", id: "pfeffer-terms"}, lines.map(function (l) { return el("p", {text: l}); }));
  }

  function button(label, attrs, onClick) {
    const a = Object.assign({class: "button", type: "button", text: label, on: {click: onClick}}, attrs);
    return el("button", a);
  }

  function drawActions(frame, send, actions, choosing) {
    const v = frame.view, legal = frame.legal;
    const row = el("div", {class: "dice-actions"});
    if (choosing) {
      ui.roll = button(t("roll"), {class: "button primary", "data-then": "roll", "data-key": "r", "data-kbd": "r", "aria-keyshortcuts": "R", "data-focus": "then-roll"}, function () { goOn("roll"); });
      ui.bank = button(t("bank_plain"), {"data-then": "bank", "data-key": "b", "data-kbd": "b", "aria-keyshortcuts": "B", "data-focus": "then-bank"}, function () { goOn("bank"); });
      row.appendChild(ui.roll); row.appendChild(ui.bank);
      actions.appendChild(row);
      // The engine's list of set-asides, one click each: the other way to choose.
      const box = el("div", {class: "keeps"}, [el("span", {class: "label", text: t("or_pick")})]);
      v.keep_options.forEach(function (o) {
        if (legal.indexOf(o.action) < 0) return;
        box.appendChild(el("button", {class: "keep", "data-action": o.action, type: "button", "data-focus": o.action,
          on: {click: function () { send(o.action); }}},
          [PF.dice(o.dice, "small", v.single_faces), el("span", {class: "pts", text: "= " + o.points})]));
      });
      actions.appendChild(box);
    } else {
      ["roll", "bank", "pfeffer"].filter(function (a) { return legal.indexOf(a) >= 0; }).forEach(function (a) {
        if (a === "roll") row.appendChild(button(rollLabel(v.dice_to_roll), {class: "button primary", "data-action": a, "data-key": "r", "data-kbd": "r", "aria-keyshortcuts": "R", "data-focus": "roll"}, function () { send(a); }));
        if (a === "bank") row.appendChild(button(t("bank", {points: v.turn_total}), {"data-action": a, "data-key": "b", "data-kbd": "b", "aria-keyshortcuts": "B", "data-focus": "bank"}, function () { send(a); }));
        if (a === "pfeffer") row.appendChild(button(t("call_pfeffer", {stake: v.pfeffer_stake}), {class: "button hot", "data-action": a, "aria-describedby": "pfeffer-terms", "data-focus": "pfeffer"}, function () { send(a); }));
      });
      actions.appendChild(row);
      if (legal.indexOf("pfeffer") >= 0 && v.pfeffer_stake !== null) actions.appendChild(pfefferTerms(v));
    }
    actions.appendChild(el("p", {class: "kbd-hint muted", text: t("kbd_hint")}));
  }

  /* ------------------------------------------------------------------ the score sheet */

  function sheetCell(turn) {
    if (!turn) return el("td", {class: "empty"});
    const mark = turn.pfeffer === "called" ? "P!" : (turn.pfeffer === "auto" ? "A" : "");
    let res, cls = "";
    if (turn.busted) { res = turn.penalty ? "−" + turn.penalty : "—"; cls = turn.penalty ? "penalty" : "bust"; }
    else res = "+" + turn.points + (turn.bonus ? " +" + turn.bonus : "");
    return el("td", {class: cls}, [
      mark ? el("span", {class: "mark", text: mark}) : null,
      el("span", {class: "res", text: res}),
      el("span", {class: "tot", text: String(turn.total_after)})]);
  }

  /* Like the paper sheet: a column per player, a row per round (what the turn scored, small,
     and the new total), the Σ row, and the marks A and P! explained under it. */
  function paperSheet(frame) {
    const v = frame.view, nm = names(frame), cur = v.is_over ? -1 : v.current_player;
    const head = el("tr", null, [el("th", {class: "rnd", scope: "col", text: "#"})].concat(nm.map(function (n, i) {
      return el("th", {scope: "col", class: (i === cur ? "current" : "") + (i === frame.seat ? " me" : ""), text: n});
    })));
    const rows = v.sheet_rows.map(function (r) {
      return el("tr", null, [el("th", {class: "rnd", scope: "row", text: String(r.number)})].concat(r.turns.map(sheetCell)));
    });
    const sum = el("tr", {class: "sum"}, [el("th", {scope: "row", text: t("total")})].concat(v.scores.map(function (s) {
      return el("td", {text: String(s)});
    })));
    const table = el("table", {class: "sheet paper"}, [el("caption", {text: t("sheet_title")}),
      el("thead", null, [head]), el("tbody", null, rows), el("tfoot", null, [sum])]);
    const legend = el("dl", {class: "sheet-legend"}, [
      el("dt", {text: "A"}), el("dd", {text: t("legend_auto")}),
      el("dt", {text: "P!"}), el("dd", {text: t("legend_pfeffer")}),
      el("dt", {text: "—"}), el("dd", {text: t("legend_bust")}),
      el("dt", {text: "−"}), el("dd", {text: t("legend_penalty")})]);
    return el("div", {class: "paper-wrap"}, [el("div", {class: "paper-scroll"}, [table]), legend]);
  }

  /* ------------------------------------------------------------------ the frame */

  function render(frame, send, board, actions, scores) {
    const v = frame.view, legal = frame.legal;
    const mine = frame.seat !== null && frame.seat !== undefined && !!v.is_my_turn && legal.length > 0;
    const choosing = mine && v.phase === "keep" && !!v.roll;
    const throwAt = newestThrow(v);
    if (throwAt !== pickedFor) { picked = []; pickedFor = throwAt; }
    const fresh = lastThrow !== undefined && throwAt !== null && (lastThrow === null || throwAt > lastThrow);
    lastThrow = throwAt;
    ui = {frame: frame, send: send, choosing: choosing};

    const felt = el("div", {class: "dice-felt" + (mine ? " mine" : "") + (v.is_over ? " over" : "")});
    felt.appendChild(notices(v));
    if (!v.is_over) {
      felt.appendChild(el("p", {class: "turnline"}, [el("span", {class: "label", text: t("turn_total") + " "}),
        el("strong", {class: "turntotal", text: String(v.turn_total)}),
        el("span", {class: "muted", text: " · " + t("to_bank") + ": " + v.min_to_bank})]));
    }
    const kept = v.is_over ? null : keptRow(v);
    if (kept) felt.appendChild(kept);
    ui.tray = tray(frame, choosing);
    if (!v.is_over) felt.appendChild(ui.tray);
    settling = fresh && v.roll ? animate(ui.tray) : null;
    ui.line = el("p", {class: "selection", "aria-live": "polite"});
    if (choosing) felt.appendChild(ui.line);
    const last = lastTurn(frame);
    if (last) felt.appendChild(last);
    board.appendChild(felt);

    if (mine) drawActions(frame, send, actions, choosing);
    refresh();
    scores.appendChild(paperSheet(frame));
  }

  /* ------------------------------------------------------------------ keys */

  document.addEventListener("keydown", function (ev) {
    if (!ui || ev.altKey || ev.ctrlKey || ev.metaKey || ev.repeat) return;
    const tag = ev.target && ev.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    const k = ev.key;
    let target = null;
    // R and B: the shared keys of both tables (data-kbd, table.js).
    if (/^[1-6]$/.test(k)) target = document.querySelector('#board .die-btn[data-pos="' + (Number(k) - 1) + '"]');
    else if (k === "Escape" && ui.choosing && picked.length) { picked = []; refresh(); ev.preventDefault(); return; }
    if (target && !target.disabled) { ev.preventDefault(); target.click(); }
  });

  PF.tables.dice = {
    players: seats,
    render: render,
    announce: function () { return null; },  // the felt and the log tell what happened
    settling: function () { return settling; },  // the log waits for the dice (table.js)
    reset: function () { lastThrow = undefined; picked = []; pickedFor = null; settling = null; }
  };
})();
