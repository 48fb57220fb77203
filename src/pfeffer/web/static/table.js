/* What both game tables share: the log panel, the dice statistics panel, sounds with a mute
   switch (remembered in localStorage), the "your turn" chime and the keyboard focus kept across
   redraws. play.js calls PF.tableUI.update(frame, opts, focus) after drawing a frame.
   Every line of the log is an event the engine built (view.log: kind, seat, numbers); this
   script only picks its translated sentence (PF.t) and fills in names and numbers. */
"use strict";
(function () {
  const t = PF.t, el = PF.el;
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }
  const num = PF.num;
  const percent = new Intl.NumberFormat("en", {style: "percent", maximumFractionDigits: 1});

  /* ------------------------------------------------------------------ sound */

  const SOUND_KEY = "pfeffer.sound";
  /* Short sounds made with the Web Audio API (no sound files): a rattle of filtered noise
     bursts for a throw, a soft burst for a card, a swish for a trick taken, two rising tones for
     "your turn". */
  const sound = (function () {
    let ctx = null;
    const played = [];  // the sounds played on this page, in order (read by the browser tests)
    function muted() {
      try { return localStorage.getItem(SOUND_KEY) === "off"; } catch (e) { return false; }
    }
    function setMuted(on) {
      try { localStorage.setItem(SOUND_KEY, on ? "off" : "on"); } catch (e) { /* private mode */ }
    }
    function audio() {
      if (!ctx) {
        const AC = window.AudioContext || window.webkitAudioContext;
        if (!AC) return null;
        try { ctx = new AC(); } catch (e) { return null; }
      }
      if (ctx.state === "suspended" && ctx.resume) ctx.resume().catch(function () {});
      return ctx;
    }
    function envelope(ac, t0, peak, dur) {
      const g = ac.createGain();
      g.gain.setValueAtTime(0.0001, t0);
      g.gain.exponentialRampToValueAtTime(peak, t0 + 0.004);
      g.gain.exponentialRampToValueAtTime(0.0001, t0 + dur);
      g.connect(ac.destination);
      return g;
    }
    function burst(ac, t0, freq, dur, peak) {
      const n = Math.max(1, Math.ceil(ac.sampleRate * dur));
      const buf = ac.createBuffer(1, n, ac.sampleRate), d = buf.getChannelData(0);
      for (let i = 0; i < n; i++) d[i] = (Math.random() * 2 - 1) * (1 - i / n);
      const src = ac.createBufferSource();
      src.buffer = buf;
      const f = ac.createBiquadFilter();
      f.type = "bandpass"; f.frequency.value = freq; f.Q.value = 1.4;
      src.connect(f); f.connect(envelope(ac, t0, peak, dur));
      src.start(t0); src.stop(t0 + dur + 0.02);
    }
    function tone(ac, t0, freq, dur, peak) {
      const o = ac.createOscillator();
      o.type = "sine"; o.frequency.value = freq;
      o.connect(envelope(ac, t0, peak, dur));
      o.start(t0); o.stop(t0 + dur + 0.02);
    }
    const SOUNDS = {
      roll: function (ac, t0) {
        for (let i = 0; i < 7; i++) burst(ac, t0 + i * 0.05 + Math.random() * 0.03, 1400 + Math.random() * 2600, 0.045, 0.6);
      },
      card: function (ac, t0) { burst(ac, t0, 2600, 0.09, 0.4); burst(ac, t0 + 0.03, 900, 0.06, 0.25); },
      trick: function (ac, t0) { burst(ac, t0, 1800, 0.12, 0.3); burst(ac, t0 + 0.07, 1200, 0.14, 0.25); },
      turn: function (ac, t0) { tone(ac, t0, 659, 0.18, 0.18); tone(ac, t0 + 0.15, 880, 0.28, 0.18); }
    };
    function play(name) {
      if (muted() || !SOUNDS[name]) return false;
      played.push(name);
      const ac = audio();
      if (ac) { try { SOUNDS[name](ac, ac.currentTime + 0.02); } catch (e) { /* no audio device */ } }
      return true;
    }
    // Browsers start audio only after the user touched the page: wake it on the first gesture.
    ["pointerdown", "keydown"].forEach(function (ev) {
      document.addEventListener(ev, function () { if (!muted()) audio(); }, {once: true, capture: true});
    });
    // PF.sound("card") plays a sound (the Pepper table calls it so); PF.sound.play the same.
    const api = function (name) { return play(name); };
    api.play = play; api.muted = muted; api.setMuted = setMuted; api.played = played;
    return api;
  })();
  PF.sound = sound;

  const mute = document.getElementById("mute");
  if (mute) {
    const show = function () { mute.setAttribute("aria-pressed", sound.muted() ? "true" : "false"); };
    mute.addEventListener("click", function () { sound.setMuted(!sound.muted()); show(); });
    show();
  }

  /* ------------------------------------------------------------------ the log */

  function diceText(dice) { return dice.join("-"); }
  const signed = PF.signed;

  /* One event of view.log as a sentence (null: a line the table does not show). */
  function logText(game, e, names, view) {
    const name = e.seat === undefined || e.seat === null ? "" : names[e.seat];
    if (game === "dice") {
      switch (e.kind) {
        case "round": return t("log_round", {n: e.number});
        case "throw": return t("log_throw", {name: name, dice: diceText(e.dice)});
        case "keep": return t("log_keep", {name: name, dice: diceText(e.dice), points: e.points, total: e.total});
        case "hot_dice": return t("log_hot_dice", {name: name});
        case "pfeffer": return t("log_pfeffer", {name: name, stake: e.points});
        case "auto_pfeffer": return t("log_auto_pfeffer", {name: name, points: e.points});
        case "bank": return t("log_bank", {name: name, points: e.points, total: e.total});
        case "bonus": return t("log_bonus", {name: name, points: e.points});
        case "bust": return e.points ? t("lost_penalty", {name: name, points: e.points}) : t("busted", {name: name});
        case "win": return t("log_win", {name: name, points: e.total});
      }
      return null;
    }
    const sides = view.side_names || names;
    switch (e.kind) {
      case "deal": return t("did_deal", {name: name});
      case "bid": return t("did_bid", {name: name, bid: PF.bidName(e.value)});
      case "pass": return t("did_pass", {name: name});
      case "trump": return t("did_trump", {name: name, trump: PF.trumpName(e.value)});
      case "play": return t("did_play", {name: name, card: PF.cardName(e.value)});
      case "trick": return t("log_trick", {name: name});
      case "redeal": return t("log_redeal", {n: e.number});
      case "hand": {
        const pts = e.points.map(function (p, i) { return sides[i] + " " + signed(p); }).join(", ");
        return t("log_hand", {n: e.number, name: name, bid: PF.bidName(e.value), trump: PF.trumpName(e.trump),
          result: e.made ? t("made") : t("set"), points: pts});
      }
      case "win": return t("log_win", {name: sides[e.side], points: e.points[0]});
    }
    return null;
  }

  /* The log grows at its end: a frame usually brings a line or two, which are appended; the
     lines that fell off the front of the frame's tail go. Anything else (another table, a replay
     stepping back, a Pepper hand folded into its result at the next deal) draws it anew. */
  let logDrawn = null;  // {table, count, last}: the log drawn (count of events, the newest as JSON)
  let logFollows = true;  // the log is scrolled to its end (and stays there as lines come)
  function drawLog(frame) {
    const box = document.getElementById("log");
    const v = frame.view;
    if (!box || !v.log) return;
    const names = frame.seats.map(function (s) { return s.name; });
    const start = v.log_count - v.log.length;  // the index in the whole log of v.log[0]
    if (!logDrawn) {
      box.addEventListener("scroll", function () {  // read here, not while drawing (no forced layout)
        logFollows = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
      }, {passive: true});
    }
    let from = 0;
    const d = logDrawn;
    if (d && d.table === frame.table && v.log_count >= d.count && d.count > start &&
        JSON.stringify(v.log[d.count - 1 - start]) === d.last) {
      from = d.count - start;
      while (box.firstChild && Number(box.firstChild.dataset.i) < start) box.removeChild(box.firstChild);
    } else {
      clear(box);
    }
    for (let k = from; k < v.log.length; k++) {
      const e = v.log[k], text = logText(frame.game, e, names, v);
      if (text === null) continue;
      const mine = frame.seat !== null && frame.seat !== undefined && e.seat === frame.seat;
      box.appendChild(el("li", {class: "log-" + e.kind + (mine ? " mine" : ""), "data-i": String(start + k)}, [text]));
    }
    logDrawn = {table: frame.table, count: v.log_count, last: v.log.length ? JSON.stringify(v.log[v.log.length - 1]) : null};
    // Follow the newest line unless the reader scrolled up to read older ones; after the
    // browser has laid the page out anyway.
    if (logFollows && from < v.log.length) requestAnimationFrame(function () { box.scrollTop = box.scrollHeight; });
  }

  /* The events of this frame that the previous one did not have. */
  function freshEvents(v, seen) {
    if (seen === null || !v.log) return [];
    const fresh = v.log_count - seen;
    return fresh > 0 ? v.log.slice(Math.max(0, v.log.length - fresh)) : [];
  }

  /* ------------------------------------------------------------------ dice statistics */

  let statsDrawn = null;  // the statistics drawn, as JSON: most frames bring no new throw
  function drawStats(frame) {
    const panel = document.getElementById("statspanel"), box = document.getElementById("stats");
    if (!panel || !box) return;
    const s = frame.view.dice_stats;
    panel.hidden = !s;
    if (!s) return;
    const key = JSON.stringify(s);
    if (key === statsDrawn) return;
    statsDrawn = key;
    clear(box);
    if (!s.dice) { box.appendChild(el("p", {class: "muted", text: t("stats_none")})); return; }
    const most = Math.max.apply(null, s.counts.concat([s.expected]));
    const share = function (x) { return percent.format(x / most); };
    const rows = s.counts.map(function (c, i) {
      const bar = el("span", {class: "bar"}, [el("span", {class: "fill"})]);
      bar.firstChild.style.width = share(c);
      const mark = el("span", {class: "expect", "aria-hidden": "true"});
      mark.style.left = share(s.expected);
      bar.appendChild(mark);
      return el("tr", null, [
        el("th", {scope: "row"}, [PF.die(i + 1, "small")]),
        el("td", {class: "num", text: String(c)}),
        el("td", {class: "barcell"}, [bar])
      ]);
    });
    box.appendChild(el("table", {class: "facestats"}, [
      el("thead", null, [el("tr", null, [el("th", {text: t("stats_face")}), el("th", {text: t("thrown")}),
        el("th", {text: t("stats_expected", {n: num(s.expected, 1)})})])]),
      el("tbody", null, rows)]));
    box.appendChild(el("p", {class: "stats-sum", text: t("stats_summary", {d: s.dice, k: s.throws,
      chi: num(s.chi_square, 2), p: num(s.p_value, 2)})}));
    const verdict = !s.enough ? t("stats_few") : s.unusual ? t("stats_unusual") : t("stats_fair");
    box.appendChild(el("p", {class: "stats-verdict" + (s.unusual ? " unusual" : ""), text: verdict}));
  }

  /* ------------------------------------------------------------------ focus */

  /* The key (data-focus) of the table's control that had the focus last. A control that is
     disabled while an action is on its way, or redrawn, drops the focus to the page's body
     without focusing anything else: the key stays, and the redraw gives the focus back. */
  let lastFocus = null;
  document.addEventListener("focusin", function (ev) {
    lastFocus = ev.target && ev.target.dataset && ev.target.dataset.focus ? ev.target.dataset.focus : null;
  });
  let byKeys = false;  // the player uses the keyboard: only then is the focus carried over
  document.addEventListener("keydown", function () { byKeys = true; }, true);
  document.addEventListener("pointerdown", function (ev) {  // a tap or click: no focus to carry
    byKeys = false;
    if (!ev.target || !ev.target.closest || !ev.target.closest("[data-focus]")) lastFocus = null;
  }, true);
  /* Before a redraw: the key of the table's control to focus again afterwards, if any. */
  function saveFocus() {
    const a = document.activeElement;
    if (a && a.dataset && a.dataset.focus) return a.dataset.focus;
    return !a || a === document.body ? lastFocus : null;
  }
  function restoreFocus(key) {
    if (!key || !byKeys) return;
    let found = document.querySelector('[data-focus="' + key + '"]');
    // Gone or disabled (the dice were thrown): the first control of the table instead.
    if (!found || found.disabled) found = document.querySelector("#board .die-btn, #actions button:not([disabled])");
    if (found) found.focus({preventScroll: true});
  }

  /* ------------------------------------------------------------------ keys */

  /* The keys both tables share (issue 22 §2): a control of the table with a key (data-kbd, one
     character: "d", "p", "3"…) is pressed by it, in either case, unless a text field has the
     focus. PF.keys.cap gives a button its key, shown on it (and named to assistive technology
     by aria-keyshortcuts); PF.keys.line is the line of keys under the buttons. The dice table's
     digits and Esc (dice-table.js) and the Pepper hand's digits (pepper-table.js) are their own. */
  function keyCap(node, key) {
    node.dataset.kbd = key.toLowerCase();
    node.setAttribute("aria-keyshortcuts", key.toUpperCase());
    node.appendChild(el("kbd", {class: "keycap", "aria-hidden": "true", text: key.toUpperCase()}));
    return node;
  }
  function keyLine(parts) {
    return el("p", {class: "kbd-hint muted", text: t("keys_label") + " " + parts.join(" · ")});
  }
  document.addEventListener("keydown", function (ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.repeat || !ev.key || ev.key.length !== 1) return;
    const target = ev.target, tag = target && target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || (target && target.isContentEditable)) return;
    const k = ev.key.toLowerCase();
    if (!/^[0-9a-z]$/.test(k)) return;
    const b = document.querySelector('#board button[data-kbd="' + k + '"], #actions button[data-kbd="' + k + '"]');
    if (!b || b.disabled || !b.getClientRects().length) return;  // hidden (a pass screen): not pressed
    ev.preventDefault();
    b.click();
  });
  PF.keys = {cap: keyCap, line: keyLine};

  /* ------------------------------------------------------------------ per frame */

  /* What just happened, for screen readers (a visually hidden live region): the new lines of
     the log, so that a player who cannot see the felt hears the other players' throws too. */
  function announce(frame, fresh) {
    if (!fresh.length) return;
    let live = document.getElementById("announce");
    if (!live) {
      live = el("p", {id: "announce", class: "sr-only", "aria-live": "polite"});
      document.body.appendChild(live);
    }
    const names = frame.seats.map(function (s) { return s.name; });
    live.textContent = fresh.map(function (e) { return logText(frame.game, e, names, frame.view); })
      .filter(function (x) { return x; }).join(". ");
  }

  /* The log and the spoken lines of a frame whose dice still tumble wait until they lie still
     (issue 22 §2: the log named a throw before the player could see it); a newer frame
     meanwhile takes their place, its new lines added to the ones still unspoken. */
  let held = null;  // {frame, fresh}: the log to draw once the dice settle
  let heldNo = 0;   // the newest frame's number: an older wait draws nothing
  function writeLog(frame, fresh, wait) {
    held = {frame: frame, fresh: (held ? held.fresh : []).concat(fresh)};
    const no = ++heldNo;
    function write() {
      if (no !== heldNo || !held) return;
      const h = held;
      held = null;
      drawLog(h.frame);
      announce(h.frame, h.fresh);
    }
    if (wait) wait.then(write); else write();
  }

  let seen = null;  // {table, count, mine}: what the previous frame had
  function update(frame, opts, focus) {
    const v = frame.view, replay = !!(opts && opts.replay);
    const game = PF.tables && PF.tables[frame.game];
    const wait = !replay && game && game.settling ? game.settling() : null;
    if (replay) { held = null; heldNo++; drawLog(frame); }
    drawStats(frame);
    restoreFocus(focus);
    if (!replay) {
      const prev = seen && seen.table === frame.table ? seen : null;
      const fresh = freshEvents(v, prev ? prev.count : null);
      writeLog(frame, fresh, wait);
      // The dice table's rattle; the Pepper table sounds its cards and tricks itself.
      if (fresh.some(function (e) { return e.kind === "throw"; })) sound.play("roll");
      if (prev && v.is_my_turn && !prev.mine) sound.play("turn");
      seen = {table: frame.table, count: v.log_count, mine: !!v.is_my_turn};
    }
  }

  PF.tableUI = {update: update, saveFocus: saveFocus, logText: logText, freshEvents: freshEvents};
})();
