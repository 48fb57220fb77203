/* Live play (WebSocket) and replays. Every frame comes from the server, built from the engine's
   view for this seat; this script only draws it and sends the actions the frame offers. */
"use strict";
(function () {
  const t = PF.t, el = PF.el;
  let prevHistory = null, lastTrickSeen = null;

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }
  function names(frame) { return frame.seats.map(function (s) { return s.name; }); }

  /* ------------------------------------------------------------------ dice */

  function announceDice(frame) {
    const v = frame.view, nm = names(frame);
    let msg = null;
    if (prevHistory !== null && v.history.length > prevHistory) {
      const turn = v.history[v.history.length - 1];
      if (turn.busted) {
        msg = turn.penalty ? t("lost_penalty", {name: nm[turn.seat], points: turn.penalty}) : t("busted", {name: nm[turn.seat]});
      } else {
        msg = t("banked", {name: nm[turn.seat], points: turn.points});
      }
    } else if (v.pfeffer === "called" && frame.last && frame.last.action === "pfeffer") {
      msg = t("called_pfeffer", {name: nm[v.current_player]});
    }
    prevHistory = v.history.length;
    return msg;
  }

  function renderDice(frame, send, board, actions, scores) {
    const v = frame.view, nm = names(frame), legal = frame.legal;
    if (v.is_over) { scores.appendChild(PF.diceSheet(v.sheet_rows, nm, v.scores, -1, "#")); return; }
    const info = el("div", {class: "turninfo"});
    info.appendChild(el("p", null, [el("strong", {text: t("turn_total") + ": "}), el("span", {class: "turntotal", text: String(v.turn_total)}),
      el("span", {class: "muted", text: "  · " + t("to_bank") + ": " + v.min_to_bank})]));
    if (v.pfeffer === "auto") info.appendChild(el("p", {class: "pfeffer auto", text: "" + t("auto_pfeffer")}));
    if (v.pfeffer === "called") info.appendChild(el("p", {class: "pfeffer called", text: "" + t("pfeffer_on", {stake: v.stake})}));
    if (v.bust_penalty) info.appendChild(el("p", {class: "muted bustcost", text: t("bust_costs", {points: v.bust_penalty})}));
    if (v.pfeffer_stake !== null) {
      info.appendChild(el("p", {class: "pfeffer offer", text: t("pfeffer_terms", {need: v.pfeffer_need, penalty: v.pfeffer_bust_penalty})}));
    }
    if (v.final_round && !v.is_over) info.appendChild(el("p", {class: "final", text: "⚑ " + t("final_round")}));
    board.appendChild(info);
    // The throws of this turn: what was set aside from each.
    const throws = el("div", {class: "throws"});
    v.turn_throws.forEach(function (th) {
      throws.appendChild(el("div", {class: "throw"}, [PF.dice(th.kept, "kept", v.single_faces), el("span", {class: "muted", text: " +" + th.points})]));
    });
    board.appendChild(throws);
    if (v.roll) {
      board.appendChild(el("div", {class: "roll"}, [el("span", {class: "label", text: t("thrown") + ": "}), PF.dice(v.roll, "big", v.single_faces)]));
    }
    // Actions: the legal ones only.
    const keeps = legal.filter(function (a) { return a.indexOf("keep ") === 0; });
    if (keeps.length) {
      const box = el("div", {class: "keeps"}, [el("p", {class: "label", text: t("keep") + ":"})]);
      v.keep_options.forEach(function (o) {
        const a = o.action;
        if (legal.indexOf(a) < 0) return;
        box.appendChild(el("button", {class: "keep", "data-action": a, type: "button", on: {click: function () { send(a); }}},
          [PF.dice(o.dice, "small", v.single_faces), el("span", {class: "pts", text: "= " + o.points})]));
      });
      actions.appendChild(box);
    }
    legal.forEach(function (a) {
      if (a === "roll") actions.appendChild(el("button", {class: "button primary", "data-action": a, type: "button", text: "" + t("roll_n", {n: v.dice_to_roll}), on: {click: function () { send(a); }}}));
      if (a === "bank") actions.appendChild(el("button", {class: "button", "data-action": a, type: "button", text: t("bank", {points: v.turn_total}), on: {click: function () { send(a); }}}));
      if (a === "pfeffer") actions.appendChild(el("button", {class: "button hot", "data-action": a, type: "button", text: "" + t("call_pfeffer", {stake: v.pfeffer_stake}), on: {click: function () { send(a); }}}));
    });
    scores.appendChild(PF.diceSheet(v.sheet_rows, nm, v.scores, v.current_player, "#"));
  }

  /* ------------------------------------------------------------------ pepper */

  function trickRow(cards, nm, winner) {
    return el("div", {class: "trick"}, cards.map(function (pair) {
      return el("figure", {class: pair[0] === winner ? "won" : ""}, [PF.card(pair[1]), el("figcaption", {text: nm[pair[0]]})]);
    }));
  }

  function renderPepper(frame, send, board, actions, scores) {
    const v = frame.view, nm = names(frame), legal = frame.legal;
    // Seats with hand sizes, dealer, bidder, partner; teams coloured by the side they play for.
    const seats = el("div", {class: "seatboxes"});
    v.players.forEach(function (_, s) {
      const tags = [];
      if (s === v.dealer) tags.push(t("dealer"));
      if (s === v.bidder) tags.push(t("bidder") + " " + PF.bidName(v.high_bid));
      if (s === v.partner) tags.push(t("partner"));
      seats.appendChild(el("div", {class: "seatbox" + (s === v.current_player ? " current" : "") + (s === frame.seat ? " me" : "") + (v.teams ? " team" + v.seat_sides[s] : "")},
        [el("strong", {text: nm[s]}), el("span", {class: "muted", text: " ▮×" + v.hand_sizes[s]}),
         el("div", {class: "tags", text: tags.join(" · ")})]));
    });
    board.appendChild(seats);
    // Contract and auction.
    const auction = el("div", {class: "auction"}, [el("strong", {text: t("auction") + ": "})].concat(v.auction.map(function (p) {
      return el("span", {class: "bid", text: nm[p[0]] + " " + PF.bidName(p[1])});
    })));
    board.appendChild(auction);
    if (v.trump !== null || v.phase === "play") {
      board.appendChild(el("p", {class: "contract"}, [el("strong", {text: t("trump") + ": "}),
        el("span", {class: "trumpsym " + (v.trump && v.trump !== "NT" ? PF.suitColor(v.trump) : ""), text: PF.trumpName(v.trump)}),
        el("span", {class: "muted", text: "  · " + t("tricks") + ": " + v.tricks_won.map(function (n, i) { return v.side_names[i] + " " + n; }).join(", ")})]));
    }
    if (v.tricks_needed !== null && !v.is_over) {
      board.appendChild(el("p", {class: "muted needed", text: t("tricks_needed", {need: v.tricks_needed, total: v.tricks_in_hand})}));
    }
    // Current trick and last trick (the last one stays visible until the next deal).
    const table = el("div", {class: "felt"});
    table.appendChild(el("div", {class: "label", text: t("current_trick")}));
    table.appendChild(trickRow(v.current_trick, nm, -1));
    let last = v.last_trick;
    if (last) lastTrickSeen = last; else if (v.phase === "deal" || v.phase === "over") last = lastTrickSeen;
    if (last) {
      table.appendChild(el("div", {class: "label", text: t("last_trick")}));
      table.appendChild(trickRow(last.cards, nm, last.winner));
    }
    board.appendChild(table);
    if (v.last_hand && (v.phase === "deal" || v.phase === "over")) {
      const h = v.last_hand;
      if (h.bidder !== null) {
        board.appendChild(el("p", {class: "banner inline", text: t("hand") + " " + h.hand_number + ": " + nm[h.bidder] + " " + PF.bidName(h.bid) + " " +
          PF.trumpName(h.trump) + " — " + (h.made ? t("made") : t("set")) + " (" + h.points.join(" / ") + ")"}));
      }
    }
    // My hand: legal cards are buttons, the others are not.
    const hand = v.all_hands ? null : v.hand;
    if (hand && hand.length) {
      const hbox = el("div", {class: "hand"}, [el("div", {class: "label", text: t("your_hand")})]);
      hand.forEach(function (c) {
        if (legal.indexOf(c) >= 0) {
          const b = PF.card(c, {button: true, cls: "playable"});
          b.dataset.action = c;
          b.addEventListener("click", function () { send(c); });
          hbox.appendChild(b);
        } else { hbox.appendChild(PF.card(c, {cls: v.phase === "play" ? "dim" : ""})); }
      });
      board.appendChild(hbox);
    }
    if (v.all_hands) {
      v.all_hands.forEach(function (h, s) {
        board.appendChild(el("div", {class: "hand small"}, [el("span", {class: "label", text: nm[s] + ": "})].concat(h.map(function (c) { return PF.card(c); }))));
      });
    }
    // Non-card actions.
    legal.forEach(function (a) {
      let label = null, cls = "button";
      if (a === "deal") { label = t("deal"); cls += " primary"; }
      else if (a === "pass") label = t("pass");
      else if (/^[0-9]$/.test(a) || a === "small" || a === "big") { label = t("bid_button", {bid: PF.bidName(a)}); if (a === "big") cls += " hot"; }
      else if (a === "NT") label = t("no_trump");
      else if (a.length === 1 && PF.SUIT[a]) { label = t("trump") + " " + PF.SUIT[a]; cls += " " + PF.suitColor(a); }
      if (label) actions.appendChild(el("button", {class: cls, "data-action": a, type: "button", text: label, on: {click: function () { send(a); }}}));
    });
    // The score pad: one row per hand, Σ row.
    const head = el("tr", null, [el("th", {text: "#"}), el("th", {text: t("bidder")}), el("th", {text: t("bid")}), el("th", {text: t("trump")})]
      .concat(v.side_names.map(function (n) { return el("th", {text: n}); })));
    const rows = (v.hands || []).map(function (h) {
      return el("tr", null, [el("td", {class: "muted", text: String(h.hand_number)}),
        el("td", {text: h.bidder === null ? "–" : nm[h.bidder]}), el("td", {text: PF.bidName(h.bid)}),
        el("td", {text: PF.trumpName(h.trump)})].concat(h.points.map(function (p, i) {
          return el("td", {class: p < 0 ? "penalty" : ""}, [String(p), el("small", {text: " " + h.scores[i]})]);
        })));
    });
    const sum = el("tr", {class: "sum"}, [el("th", {text: t("total"), colspan: "4"})].concat(v.scores.map(function (s) { return el("th", {text: String(s)}); })));
    scores.appendChild(el("table", {class: "sheet"}, [el("thead", null, [head]), el("tbody", null, rows), el("tfoot", null, [sum])]));
  }

  /* ------------------------------------------------------------------ frame */

  function render(frame, send, opts) {
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
    let msg = frame.game === "dice" ? announceDice(frame) : null;
    if (over) {
      const winners = v.winner_names;
      clear(banner);
      banner.appendChild(el("div", {class: "result"}, [el("h2", {text: "★ " + (winners.length > 1 ? t("winners") : t("winner")) + ": " + winners.join(", ")}),
        el("p", {text: t("score") + ": " + v.scores.join(" : ")})]));
      const links = el("p");
      if (!opts || !opts.replay) {
        if (frame.seat !== null && opts && opts.rematch) links.appendChild(el("button", {class: "button primary", id: "rematch", type: "button", text: t("rematch"), on: {click: opts.rematch}}));
        links.appendChild(el("a", {class: "button", href: "/api/tables/" + frame.table + "/record", text: t("download")}));
      }
      banner.appendChild(links);
      banner.hidden = false;
    } else if (msg) {
      clear(banner); banner.appendChild(el("p", {text: msg})); banner.hidden = false;
    } else if (frame.game !== "dice") { banner.hidden = true; }
    const players = el("div", {class: "players"}, frame.seats.map(function (s, i) {
      return el("span", {class: "player" + (i === v.current_player && !over ? " current" : "") + (i === frame.seat ? " me" : "")},
        [s.name, s.kind === "bot" ? " (" + t("bot") + ")" : (s.online === undefined ? "" : (s.online ? " ●" : " ○")),
         i === frame.seat ? " (" + t("you") + ")" : ""]);
    }));
    board.appendChild(players);
    if (frame.game === "dice") renderDice(frame, send, board, actions, scores);
    else renderPepper(frame, send, board, actions, scores);
  }

  /* ------------------------------------------------------------------ live */

  const app = document.getElementById("app");
  if (app) {
    const table = app.dataset.table, token = app.dataset.token, lang = app.dataset.lang;
    let ws = null, delay = 500, frame = null, busy = false;
    const errorBox = document.getElementById("error"), offline = document.getElementById("offline");
    /* While an action is on its way (until the next frame or error) and while the server is
       unreachable, the buttons are disabled: a double click sends one action. */
    function lock(on) {
      app.querySelectorAll("#board button, #actions button, #banner button").forEach(function (b) { b.disabled = on; });
      app.classList.toggle("busy", on);
    }
    function send(action) {
      if (busy || !ws || ws.readyState !== 1) return;
      errorBox.hidden = true;
      busy = true; lock(true);
      ws.send(JSON.stringify({type: "action", action: action, version: frame ? frame.version : null}));
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
    async function rematch() {
      const r = await fetch("/api/tables/" + table + "/rematch", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({token: token})});
      if (r.ok) location.href = (await r.json()).url;
    }
    function connect() {
      const proto = location.protocol === "https:" ? "wss:" : "ws:";
      const q = "?lang=" + encodeURIComponent(lang) + (token ? "&token=" + encodeURIComponent(token) : "");
      ws = new WebSocket(proto + "//" + location.host + "/ws/" + table + q);
      ws.onopen = function () { delay = 500; };
      ws.onmessage = function (ev) {
        const msg = JSON.parse(ev.data);
        if (msg.type === "state") {
          frame = msg; busy = false; setOnline(true);
          document.getElementById("elsewhere").hidden = !msg.elsewhere;
          render(msg, send, {rematch: rematch}); app.dataset.version = String(msg.version);
        } else if (msg.type === "error") { busy = false; lock(false); showError(msg.message); }
        else if (msg.type === "rematch" && frame && frame.seat === null) { location.href = "/watch/" + msg.table; }
      };
      ws.onclose = function (ev) {
        busy = false;
        if (ev.code === 4403 || ev.code === 4404) { lock(true); return; }
        document.getElementById("status").textContent = t("reconnecting");
        setOnline(false);
        setTimeout(connect, delay); delay = Math.min(delay * 2, 4000);
      };
    }
    connect();
  }

  /* ------------------------------------------------------------------ replay */

  /* An action of the record as a sentence: "Anna threw 6 6", "Petr plays K♥". */
  function describe(game, action, name, view) {
    const parts = action.split(" "), head = parts[0], rest = parts.slice(1).join(" ");
    const faces = function (x) { return x.split("").join(" "); };
    if (game === "dice") {
      if (head === "roll") return t("did_throw", {name: name, dice: faces(rest)});
      if (head === "keep") return t("did_keep", {name: name, dice: faces(rest)});
      if (head === "pfeffer") return t("called_pfeffer", {name: name});
      if (head === "bust") return t("busted", {name: name});
      if (head === "void") return t("did_void", {name: name});
      if (head === "turn") return t("banked", {name: name, points: rest});
      if (head === "bank") {
        const last = view.history[view.history.length - 1];
        return t("banked", {name: name, points: last ? last.points : view.turn_total});
      }
      return action;
    }
    if (head === "deal") return t("did_deal", {name: name});
    if (head === "pass") return t("did_pass", {name: name});
    if (/^[0-9]+$/.test(head) || head === "small" || head === "big") return t("did_bid", {name: name, bid: PF.bidName(head)});
    if (head === "NT" || (head.length === 1 && PF.SUIT[head])) return t("did_trump", {name: name, trump: PF.trumpName(head)});
    if (head.length === 2 && PF.SUIT[head[1]]) return t("did_play", {name: name, card: PF.cardName(head)});
    return action;
  }

  const rp = document.getElementById("replay");
  if (rp) {
    const table = rp.dataset.table, slider = document.getElementById("step");
    let step = 0, steps = 0;
    async function load(n) {
      const r = await fetch("/api/tables/" + table + "/replay?step=" + n);
      const d = await r.json();
      step = d.step; steps = d.steps; slider.max = String(steps); slider.value = String(step);
      document.getElementById("stepinfo").textContent = t("step") + " " + step + " / " + steps;
      document.getElementById("lastaction").textContent = d.action ? describe(d.game, d.action, d.seat === null ? "" : d.names[d.seat], d.view) : "";
      const frame = {game: d.game, seat: null, legal: [], table: table, view: d.view,
        seats: d.seats.map(function (s) { return {name: s.name, kind: s.kind}; })};
      prevHistory = null;
      render(frame, function () {}, {replay: true});
    }
    rp.querySelectorAll("[data-go]").forEach(function (b) {
      b.addEventListener("click", function () {
        const go = b.dataset.go;
        load(go === "first" ? 0 : go === "prev" ? Math.max(0, step - 1) : go === "next" ? step + 1 : steps);
      });
    });
    slider.addEventListener("input", function () { load(Number(slider.value)); });
    load(0);
  }
})();
