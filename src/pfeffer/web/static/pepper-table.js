/* The Pepper table: draws a Pepper frame (the engine's view for this seat) and offers its legal
   actions. Loaded before play.js, which calls PF.tables.pepper.render. */
"use strict";
(function () {
  const t = PF.t, el = PF.el;
  PF.tables = PF.tables || {};
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }
  function names(frame) { return frame.seats.map(function (s) { return s.name; }); }
  let lastTrickSeen = null;

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

  PF.tables.pepper = {render: renderPepper, announce: function () { return null; }, reset: function () {}};
})();
