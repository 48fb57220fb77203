/* The Pepper table: draws a Pepper frame (the engine's view for this seat) as a card table and
   offers its legal actions. Loaded before play.js, which calls PF.tables.pepper.render.

   Seats sit around the felt, the viewer at the bottom (a spectator sees seat 1 there), play going
   clockwise: the next seat on the left, partners opposite. Everything the table says about the
   game comes from the frame: the bids' terms (view.bid_terms), the contract, the hand in the
   order it is held (view.hand_order), the bowers (view.bowers), the legal cards (frame.legal).
   The script only draws them and keeps what it drew last, so that a card played slides in and a
   finished trick slides to the player who took it. */
"use strict";
(function () {
  const t = PF.t, el = PF.el;
  PF.tables = PF.tables || {};
  /* Where each seat sits, counted clockwise from the viewer. */
  const LAYOUT = {2: ["bottom", "top"], 3: ["bottom", "left", "right"], 4: ["bottom", "left", "top", "right"]};
  const COLLECT_MS = 1500;  // a finished trick stays in the middle, then slides to its winner
  const motion = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

  let seen = null;       // the last finished trick drawn ("hand:tricks"); null: draw without motion
  let collect = null;    // the trick sliding to its winner: {trick, at}
  let onFelt = {};       // the cards of the current trick drawn already
  let lastTrickSeen = null;
  let bubbles = {};      // what each seat's bubble said last (a new call pops up)
  let current = null;    // the frame drawn last and how to send (for the keys)
  let focusInTable = false, focusKey = null;

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }
  const signed = PF.signed;
  function now() { return window.performance ? performance.now() : Date.now(); }

  /* The seat of each position: the viewer (or seat 1 for a spectator) at the bottom. */
  function positions(frame) {
    const count = frame.view.players.length, base = frame.seat === null ? 0 : frame.seat;
    return frame.view.players.map(function (_, s) { return LAYOUT[count][(s - base + count) % count]; });
  }

  /* A card's accessible name with its part in this hand: "jack of hearts, right bower: …". */
  function cardLabel(v, code) {
    const role = v.bowers && v.bowers[code];
    return role ? t("bower_" + role, {card: PF.cardLabel(code)}) : PF.cardLabel(code);
  }

  function trumpChip(tr) {
    if (tr === null || tr === undefined) return null;
    return el("span", {class: "trumpchip " + (tr === "NT" ? "nt" : PF.suitColor(tr))},
      tr === "NT" ? [t("no_trump")] : [el("span", {class: "sym", text: PF.SUIT[tr], "aria-hidden": "true"}), " " + PF.suitName(tr)]);
  }

  /* The call shown in a seat's bubble: during the auction its last call, afterwards the contract
     at the bidder's seat. */
  function bubbleOf(v, s) {
    if (v.phase === "auction") {
      let call = null;
      v.auction.forEach(function (p) { if (p[0] === s) call = p[1]; });
      if (call === null) return null;
      if (call === "pass") return el("span", {class: "bubble pass", text: t("pass")});
      return el("span", {class: "bubble" + (s === v.bidder ? " high" : ""), text: PF.bidName(call)});
    }
    if ((v.phase === "declare" || v.phase === "play") && s === v.bidder) {
      return el("span", {class: "bubble high contract"}, [PF.bidName(v.high_bid)].concat(
        v.trump ? [" ", el("span", {class: "sym " + (v.trump === "NT" ? "" : PF.suitColor(v.trump)), text: v.trump === "NT" ? t("no_trump") : PF.SUIT[v.trump]})] : []));
    }
    if (v.phase === "declare" || v.phase === "play") {  // the others' last calls, faded
      let call = null;
      v.auction.forEach(function (p) { if (p[0] === s) call = p[1]; });
      if (call !== null) return el("span", {class: "bubble old" + (call === "pass" ? " pass" : ""), text: PF.bidName(call)});
    }
    return null;
  }

  function seatPlate(frame, s, pos) {
    const v = frame.view, info = frame.seats[s];
    let cls = "pseat at-" + pos;
    if (s === v.current_player && !v.is_over) cls += " current";
    if (s === frame.seat) cls += " me";
    if (v.teams) cls += " team" + v.seat_sides[s];
    const who = [];
    if (info.kind === "bot") who.push(el("span", {class: "kind", text: t("bot")}));
    else if (info.online !== undefined) who.push(el("span", {class: "dot " + (info.online ? "on" : "off"), title: info.online ? t("online") : t("offline"), "aria-label": info.online ? t("online") : t("offline")}));
    if (s === frame.seat) who.push(el("span", {class: "tag", text: t("you")}));
    else if (s === v.partner) who.push(el("span", {class: "tag", text: t("partner")}));
    const plate = el("div", {class: "plate"}, [
      s === v.dealer ? el("span", {class: "dealer-chip", title: t("dealer"), "aria-label": t("dealer"), text: t("dealer_chip")}) : null,
      el("span", {class: "pname", text: info.name}),
      el("span", {class: "who"}, who)]);
    const n = v.hand_sizes[s];
    let backs = null;
    if (v.all_hands && v.all_hands[s].length) {  // a finished game's replay shows every hand open
      backs = el("span", {class: "minitrick openhand", role: "group", "aria-label": info.name}, v.all_hands[s].map(function (c) {
        return PF.card(c, {label: cardLabel(v, c)});
      }));
    } else if (s !== frame.seat && n > 0 && !v.all_hands) {
      backs = el("span", {class: "backs", role: "img", "aria-label": t("cards_in_hand", {n: n})},
        Array.from({length: n}, function () { return el("span", {class: "back"}); }));
    }
    const bubble = bubbleOf(v, s), said = bubble ? bubble.textContent : null;
    if (bubble && bubbles[s] !== undefined && bubbles[s] !== said) bubble.classList.add("new");
    bubbles[s] = said;
    return el("div", {class: cls, "data-seat": String(s)}, [plate, backs, bubble]);
  }

  /* The middle of the felt: the current trick, each card in front of its player, and the
     finished trick sliding to the one who took it. */
  function middle(frame, pos, live) {
    const v = frame.view, nm = frame.seats.map(function (s) { return s.name; });
    const area = el("div", {class: "ptrick", role: "group", "aria-label": t("current_trick")});
    const at = now();
    let wait = 0;
    if (collect && at - collect.at < COLLECT_MS) {
      const gone = at - collect.at, w = collect.trick.winner;
      wait = COLLECT_MS - gone;
      const layer = el("div", {class: "pcollect to-" + pos[w], "aria-hidden": "true"}, collect.trick.cards.map(function (p) {
        return PF.card(p[1], {cls: "at-" + pos[p[0]] + (p[0] === w ? " won" : "")});
      }));
      layer.style.setProperty("--gone", "-" + Math.round(gone) + "ms");
      area.appendChild(layer);
      setTimeout(function () { if (layer.parentNode) layer.parentNode.removeChild(layer); }, wait);
    } else { collect = null; }
    if (!v.current_trick.length) onFelt = {};
    v.current_trick.forEach(function (p) {
      const fresh = live && !onFelt[p[1]];
      if (fresh && PF.sound) PF.sound.play("card");
      const c = PF.card(p[1], {cls: "at-" + pos[p[0]] + (fresh || wait ? " enter from-" + pos[p[0]] : ""),
        label: t("card_by", {name: nm[p[0]], card: cardLabel(v, p[1])})});
      if (wait) c.style.setProperty("--wait", Math.round(wait) + "ms");
      onFelt[p[1]] = true;
      area.appendChild(c);
    });
    return area;
  }

  function corner(cls, children) { return el("div", {class: "pcorner " + cls}, children); }

  /* Trump and contract (top left), tricks per side (top right), last trick (bottom left), the
     game's score (bottom right). */
  function corners(frame) {
    const v = frame.view, nm = frame.seats.map(function (s) { return s.name; });
    const out = [];
    const contract = [];
    if (v.trump) contract.push(el("div", {class: "label", text: t("trump")}), trumpChip(v.trump));
    if (v.high_bid !== null && v.bidder !== null && (v.phase === "declare" || v.phase === "play")) {
      contract.push(el("div", {class: "label", text: t("contract")}),
        el("div", {class: "val", text: PF.bidName(v.high_bid) + " · " + v.side_names[v.seat_sides[v.bidder]]}));
      if (v.tricks_needed !== null) contract.push(el("div", {class: "need", text: t("tricks_needed", {need: v.tricks_needed, total: v.tricks_in_hand})}));
    }
    out.push(corner("info", contract));
    const showTricks = v.phase === "play" || ((v.phase === "deal" || v.is_over) && v.tricks.length);
    out.push(corner("tricks", showTricks ? [el("div", {class: "label", text: t("tricks")})].concat(v.side_names.map(function (n, i) {
      return el("div", {class: "side" + (v.teams ? " team" + i : "")}, [el("span", {class: "sname", text: n}), el("strong", {class: "count", text: String(v.tricks_won[i])})]);
    })) : []));
    let last = v.last_trick;
    if (last) lastTrickSeen = last; else if (v.phase === "deal" || v.is_over) last = lastTrickSeen;
    out.push(corner("last", last ? [el("div", {class: "label", text: t("last_trick")}),
      el("div", {class: "minitrick"}, last.cards.map(function (p) {
        return PF.card(p[1], {cls: p[0] === last.winner ? "won" : "", label: t("card_by", {name: nm[p[0]], card: cardLabel(v, p[1])})});
      })), el("div", {class: "taker", text: nm[last.winner]})] : []));
    out.push(corner("score", [el("div", {class: "label", text: t("score")})].concat(v.side_names.map(function (n, i) {
      return el("div", {class: "side" + (v.teams ? " team" + i : "")}, [el("span", {class: "sname", text: n}), el("strong", {class: "count", text: String(v.scores[i])})]);
    }))));
    return out;
  }

  /* The viewer's hand, fanned, in the order it is held: a legal card is a button, the others
     are dimmed while it is the viewer's turn to play. */
  function handBox(frame, send) {
    const v = frame.view, legal = frame.legal;
    const order = v.hand_order && v.hand_order.length === v.hand.length ? v.hand_order : v.hand;
    const playing = v.phase === "play" && v.is_my_turn;
    const box = el("div", {class: "hand phand" + (playing ? " playing" : ""), role: "group", "aria-label": t("your_hand")});
    let k = 0;
    order.forEach(function (c, i) {
      let node;
      if (legal.indexOf(c) >= 0) {
        k += 1;
        node = PF.card(c, {button: true, cls: "playable", label: cardLabel(v, c)});
        node.dataset.action = c;
        node.dataset.key = c;
        if (k <= 9) node.setAttribute("aria-keyshortcuts", String(k));
        node.addEventListener("click", function () { send(c); });
      } else {
        node = PF.card(c, {cls: playing ? "dim" : "", label: playing ? t("not_playable", {card: cardLabel(v, c)}) : cardLabel(v, c)});
        if (playing) node.setAttribute("aria-disabled", "true");
      }
      node.style.setProperty("--i", String(i));
      node.style.setProperty("--n", String(order.length));
      box.appendChild(node);
    });
    return box;
  }

  /* A bid button with what the bid means, from view.bid_terms. */
  function bidButton(v, a, send) {
    const terms = v.bid_terms && v.bid_terms[a];
    const lines = [el("span", {class: "bidlabel", text: PF.bidName(a)})];
    if (a === "pass") lines.push(el("span", {class: "meaning", text: t("pass_meaning")}));
    else if (terms) {
      const key = (terms.all_tricks ? "bid_all" : "bid_need") + (v.teams ? "_team" : "");
      lines.push(el("span", {class: "meaning", text: t(key, {need: terms.need, total: terms.tricks})}));
      lines.push(el("span", {class: "stakes", text: terms.made_min === terms.made_max
        ? t("bid_stakes_fixed", {made: signed(terms.made_max), set: signed(terms.set_points)})
        : t("bid_stakes", {low: signed(terms.made_min), high: signed(terms.made_max), set: signed(terms.set_points)})}));
    }
    const b = el("button", {class: "bidbtn" + (a === "pass" ? " pass" : "") + (a === "big" ? " hot" : ""), type: "button",
      "data-action": a, "data-key": a, on: {click: function () { send(a); }}}, lines);
    return PF.keys.cap(b, BID_KEYS[a] || a);
  }
  /* The keys of the deal, the bids and the trump suits (issue 22 §2; pressed by table.js): D
     deals, a number bid is its number, S Small, B Big Pepper, P passes; the trump buttons are
     numbered 1 to 5 in their order (the suits' initials differ between the languages, and H asks
     for a hint). */
  const BID_KEYS = {pass: "P", small: "S", big: "B"};
  function bidKeys(legal) {
    const numbers = legal.filter(function (a) { return /^[0-9]$/.test(a); }).map(Number);
    const parts = [];
    if (numbers.length) {
      const low = Math.min.apply(null, numbers), high = Math.max.apply(null, numbers);
      parts.push(t("key_bid", {keys: low === high ? String(low) : low + "–" + high}));
    }
    if (legal.indexOf("small") >= 0) parts.push(t("key_small"));
    if (legal.indexOf("big") >= 0) parts.push(t("key_big"));
    if (legal.indexOf("pass") >= 0) parts.push(t("key_pass"));
    return PF.keys.line(parts);
  }

  function renderActions(frame, send, actions) {
    const v = frame.view, legal = frame.legal;
    if (!legal.length || v.phase === "play") return;
    if (v.phase === "auction") {
      const box = el("div", {class: "bidbox", role: "group", "aria-label": t("auction")});
      if (v.must_bid) box.appendChild(el("p", {class: "mustbid", text: t("must_bid")}));
      legal.forEach(function (a) { box.appendChild(bidButton(v, a, send)); });
      actions.appendChild(box);
      actions.appendChild(bidKeys(legal));
    } else if (v.phase === "declare") {
      const box = el("div", {class: "trumpbox", role: "group", "aria-label": t("choose_trump")}, [
        el("p", {class: "prompt", text: t("choose_trump_for", {bid: PF.bidName(v.high_bid)})})]);
      legal.forEach(function (a, i) {
        const nt = a === "NT";
        box.appendChild(PF.keys.cap(el("button", {class: "trumpbtn " + (nt ? "nt" : PF.suitColor(a)), type: "button", "data-action": a, "data-key": a,
          on: {click: function () { send(a); }}}, nt ? [el("span", {class: "sym", text: "∅", "aria-hidden": "true"}), el("span", {text: t("no_trump")})]
          : [el("span", {class: "sym", text: PF.SUIT[a], "aria-hidden": "true"}), el("span", {text: PF.suitName(a)})]), String(i + 1)));
      });
      actions.appendChild(box);
      actions.appendChild(PF.keys.line([t("key_trump", {keys: legal.length > 1 ? "1–" + legal.length : "1"})]));
    } else {
      legal.forEach(function (a) {
        if (a !== "deal") return;
        actions.appendChild(PF.keys.cap(el("button", {class: "button primary big", type: "button", "data-action": a, "data-key": a, text: t("deal"), on: {click: function () { send(a); }}}), "D"));
        actions.appendChild(PF.keys.line([t("key_deal")]));
      });
    }
  }

  function scorePad(frame) {
    const v = frame.view, nm = frame.seats.map(function (s) { return s.name; });
    const head = el("tr", null, [el("th", {text: "#"}), el("th", {text: t("bidder")}), el("th", {text: t("bid")}), el("th", {text: t("trump")})]
      .concat(v.side_names.map(function (n) { return el("th", {text: n}); })));
    const rows = (v.hands || []).map(function (h) {
      return el("tr", null, [el("td", {class: "muted", text: String(h.hand_number)}),
        el("td", {text: h.bidder === null ? "–" : nm[h.bidder]}), el("td", {text: PF.bidName(h.bid)}),
        el("td", {text: PF.trumpName(h.trump)})].concat(h.points.map(function (p, i) {
          return el("td", {class: p < 0 ? "penalty" : ""}, [PF.signed(p), el("small", {text: " " + h.scores[i]})]);
        })));
    });
    const sum = el("tr", {class: "sum"}, [el("th", {text: t("total"), colspan: "4"})].concat(v.scores.map(function (s) { return el("th", {text: String(s)}); })));
    return el("table", {class: "sheet"}, [el("thead", null, [head]), el("tbody", null, rows), el("tfoot", null, [sum])]);
  }

  function lastHandLine(frame) {
    const v = frame.view, h = v.last_hand, nm = frame.seats.map(function (s) { return s.name; });
    if (!h || !(v.phase === "deal" || v.is_over)) return null;
    if (h.bidder === null) return el("p", {class: "banner inline handresult", text: t("hand") + " " + h.hand_number + ": " + t("all_passed")});
    return el("p", {class: "banner inline handresult " + (h.made ? "made" : "set")}, [
      el("strong", {text: t("hand") + " " + h.hand_number + ": "}),
      nm[h.bidder] + " " + PF.bidName(h.bid) + " " + PF.trumpName(h.trump) + " — " + (h.made ? t("made") : t("set")) + " · ",
      v.side_names.map(function (n, i) { return n + " " + signed(h.points[i]); }).join(" · ")]);
  }

  function renderPepper(frame, send, board, actions, scores) {
    const v = frame.view, pos = positions(frame);
    const key = v.hand_number + ":" + v.tricks.length;
    const live = seen !== null;
    const still = motion && motion.matches;  // no sliding: the trick goes at once to the corner
    if (live && !still && key !== seen && v.tricks.length && v.last_trick && v.hand_number === Number(seen.split(":")[0])) {
      collect = {trick: v.last_trick, at: now()};
      if (PF.sound) PF.sound.play("trick");  // the trick collected (table.js)
    }
    seen = key;
    current = {frame: frame, send: send};
    const felt = el("section", {class: "ptable players-" + v.players.length, "aria-label": t("card_table"), tabindex: "-1"});
    v.players.forEach(function (_, s) { felt.appendChild(seatPlate(frame, s, pos[s])); });
    felt.appendChild(el("div", {class: "pcenter"}, [middle(frame, pos, live)]));
    corners(frame).forEach(function (c) { felt.appendChild(c); });
    board.appendChild(felt);
    const result = lastHandLine(frame);
    if (result) board.appendChild(result);
    if ((!v.all_hands || v.puzzle_hand) && v.hand.length) {  // puzzle_hand: a trainer's open-card puzzle
      board.appendChild(handBox(frame, send));
      if (v.phase === "play" && v.is_my_turn && frame.legal.length > 1) {
        board.appendChild(el("p", {class: "keyhint muted", text: t("keys_hint", {n: Math.min(frame.legal.length, 9)})}));
      }
    }
    renderActions(frame, send, actions);
    scores.appendChild(scorePad(frame));
    restoreFocus(board, actions);
  }

  /* Keyboard play: the focus stays at the table from frame to frame (the buttons are drawn
     anew), on the same card or bid if it is still offered, else on the first choice. */
  function restoreFocus(board, actions) {
    if (!focusInTable) return;
    const active = document.activeElement;
    if (active && active !== document.body && document.contains(active)) return;
    let target = focusKey ? board.querySelector('[data-key="' + focusKey + '"]') || actions.querySelector('[data-key="' + focusKey + '"]') : null;
    if (!target) target = board.querySelector("button[data-action]") || actions.querySelector("button[data-action]") || board.querySelector(".ptable");
    if (target) target.focus({preventScroll: true});
  }
  document.addEventListener("focusin", function (ev) {
    const root = document.getElementById("board") && document.getElementById("board").parentNode;
    focusInTable = !!(root && root.contains(ev.target) && ev.target.closest && ev.target.closest("#board, #actions"));
    focusKey = focusInTable && ev.target.dataset ? ev.target.dataset.key || null : null;
  });
  /* Digits play the n-th playable card, in the order of the hand. */
  document.addEventListener("keydown", function (ev) {
    if (ev.key === "Tab" || /^[1-9]$/.test(ev.key)) document.documentElement.classList.add("kbd");
    if (!current || ev.altKey || ev.ctrlKey || ev.metaKey || !/^[1-9]$/.test(ev.key)) return;
    const tag = ev.target && ev.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    const v = current.frame.view;
    if (v.phase !== "play" || !v.is_my_turn) return;
    const cards = document.querySelectorAll("#board .phand button[data-action]");
    const b = cards[Number(ev.key) - 1];
    if (!b || b.disabled) return;
    ev.preventDefault();
    focusInTable = true; focusKey = b.dataset.key;
    b.click();
  });

  function reset() { seen = null; collect = null; onFelt = {}; current = null; bubbles = {}; }

  PF.tables.pepper = {render: renderPepper, announce: function () { return null; }, reset: reset, ownSeats: true};
})();
