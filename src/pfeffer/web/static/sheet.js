/* Score-sheet page: shows the sheet the server computed with the engine and sends new entries. */
"use strict";
(function () {
  const t = PF.t, el = PF.el;
  const root = document.getElementById("sheet");
  const id = root.dataset.sheet, game = root.dataset.game;
  const box = document.getElementById("sheettable"), form = document.getElementById("entry");
  const errorBox = document.getElementById("error");
  function clear(n) { while (n.firstChild) n.removeChild(n.firstChild); return n; }

  async function call(method, path, body) {
    const q = root.dataset.lang ? "?lang=" + encodeURIComponent(root.dataset.lang) : "";
    const r = await fetch("/api/sheets/" + id + path + q, {method: method, headers: {"Content-Type": "application/json"}, body: body ? JSON.stringify(body) : undefined});
    const d = await r.json();
    if (!r.ok) { errorBox.textContent = d.detail || t("error"); errorBox.hidden = false; return; }
    errorBox.hidden = true; draw(d);
  }

  function winnersLine(names) {
    return el("p", {class: "banner result", text: "★ " + (names.length > 1 ? t("winners") : t("winner")) + ": " + names.join(", ")});
  }

  function drawDice(d) {
    const v = d.view, nm = d.players;
    box.appendChild(PF.diceSheet(v.sheet_rows, nm, v.scores, v.is_over ? -1 : v.current_player, t("round")));
    if (v.final_round && !v.is_over) box.appendChild(el("p", {class: "final", text: "⚑ " + t("final_round")}));
    if (v.is_over) { box.appendChild(winnersLine(v.winner_names)); return; }
    if (v.pfeffer === "auto") form.appendChild(el("p", {class: "pfeffer", text: "" + t("auto_pfeffer")}));
    form.appendChild(el("p", null, [el("strong", {text: t("turn_of", {name: nm[v.current_player]})})]));
    const pts = el("input", {type: "number", step: String(v.points_step), min: "0", name: "points", "aria-label": t("points")});
    form.appendChild(el("label", null, [t("points"), pts]));
    let pf = null;
    if (v.bust_penalty) form.appendChild(el("p", {class: "muted bustcost", text: t("bust_costs", {points: v.bust_penalty})}));
    if (d.can_pfeffer) {
      pf = el("input", {type: "checkbox", name: "pfeffer"});
      form.appendChild(el("label", null, [t("call_pfeffer", {stake: v.pfeffer_stake}), pf]));
      form.appendChild(el("p", {class: "muted pfeffer offer", text: t("pfeffer_terms", {need: v.pfeffer_need, penalty: v.pfeffer_bust_penalty})}));
    }
    form.appendChild(el("button", {class: "button primary", type: "submit", id: "add", text: t("add")}));
    form.appendChild(el("button", {class: "button", type: "button", id: "bust", text: t("bust"), on: {click: function () {
      call("POST", "/entries", {bust: true, pfeffer: pf ? pf.checked : false});
    }}}));
    form.onsubmit = function (ev) { ev.preventDefault(); call("POST", "/entries", {points: Number(pts.value), pfeffer: pf ? pf.checked : false}); };
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
        el("td", {text: r.tricks.join(" : ")})].concat(r.points.map(function (p, i) { return el("td", {class: p < 0 ? "penalty" : ""}, [String(p), el("small", {text: " " + r.scores[i]})]); })));
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
      const inp = el("input", {type: "number", min: "0", max: String(d.tricks_per_hand), name: "tricks" + i, value: "0"});
      form.appendChild(el("label", null, [t("tricks") + " " + s, inp]));
      return inp;
    });
    form.appendChild(el("button", {class: "button primary", type: "submit", id: "add", text: t("add")}));
    if (d.can_enter_passed) {
      const passed = el("button", {class: "button", type: "button", id: "passed", text: t("all_passed")});
      passed.addEventListener("click", function () { call("POST", "/entries", {passed: true}); });
      form.appendChild(passed);
    }
    form.onsubmit = function (ev) {
      ev.preventDefault();
      call("POST", "/entries", {bidder: Number(bidder.value), bid: bid.value, trump: trump.value, tricks: tricks.map(function (x) { return Number(x.value); })});
    };
  }

  // A stale message goes as soon as the entry changes or the browser's own check objects.
  form.addEventListener("input", function () { errorBox.hidden = true; });
  form.addEventListener("invalid", function () { errorBox.hidden = true; }, true);

  function draw(d) {
    clear(box); clear(form);
    if (game === "dice") drawDice(d); else drawPepper(d);
  }
  document.getElementById("undo").addEventListener("click", function () { call("POST", "/undo"); });
  document.getElementById("print").addEventListener("click", function () { window.print(); });
  fetch("/api/sheets/" + id).then(function (r) { return r.json(); }).then(draw);
})();
