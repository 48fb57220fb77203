/* The strategy page of Würfel-Pfeffer: draws the server's data (GET /api/strategy/dice, from
   pfeffer.dice.strategy_data.page_data) as inline SVG. The win-probability map: your total up, the
   opponent's across, the colour your chance to win at the start of your turn. The bank
   thresholds: one grid per number of dice left, each cell the turn total from which banking is
   at least as good as throwing those dice. Nothing is computed here but positions and colours. */
"use strict";
(function () {
  const t = PF.t, el = PF.el;
  const root = document.getElementById("strategy");
  if (!root) return;
  const SVG = "http://www.w3.org/2000/svg";
  function pct(x) { return PF.pct(x, 1); }
  function num(x) { return PF.num(x, 0); }  // totals: whole points

  function svg(tag, attrs, kids) {
    const e = document.createElementNS(SVG, tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    (kids || []).forEach(function (c) { if (c) e.appendChild(c); });
    return e;
  }
  function label(x, y, text, attrs) {
    const e = svg("text", Object.assign({x: x, y: y}, attrs || {}));
    e.textContent = text;
    return e;
  }
  function tip(text) { const e = svg("title"); e.textContent = text; return e; }

  /* Red (0) through a pale yellow (one half) to green (1). */
  function winColour(p) {
    const a = [178, 34, 34], m = [255, 248, 220], b = [30, 120, 70];
    const f = p < 0.5 ? p / 0.5 : (p - 0.5) / 0.5, from = p < 0.5 ? a : m, to = p < 0.5 ? m : b;
    const c = from.map(function (v, i) { return Math.round(v + (to[i] - v) * f); });
    return "rgb(" + c.join(",") + ")";
  }
  /* Light (bank early) to dark (roll on long). */
  function bankColour(v, most) {
    if (v === null) return "#5b2a86";
    const f = Math.min(1, v / most);
    const c = [[255, 247, 225], [214, 120, 40]].reduce(function (lo, hi) {
      return lo.map(function (x, i) { return Math.round(x + (hi[i] - x) * f); });
    });
    return "rgb(" + c.join(",") + ")";
  }

  function ticks(totals, every) {
    const out = [];
    totals.forEach(function (v, i) { if (v % every === 0) out.push(i); });
    return out;
  }

  function winMap(d) {
    const totals = d.map.totals, n = totals.length, cell = 10, left = 56, top = 10, size = n * cell;
    const every = d.target >= 5000 ? 2000 : d.target >= 2000 ? 500 : 250;
    const box = svg("svg", {viewBox: "0 0 " + (left + size + 70) + " " + (top + size + 46), class: "chart winmap",
      role: "img", "aria-label": t("st_map_title")});
    const grid = svg("g", {transform: "translate(" + left + "," + top + ")"});
    totals.forEach(function (own, i) {
      totals.forEach(function (other, j) {
        const p = d.map.win[i][j];
        grid.appendChild(svg("rect", {x: j * cell, y: (n - 1 - i) * cell, width: cell, height: cell, fill: winColour(p),
          "data-own": String(own), "data-other": String(other)},
          [tip(t("st_cell", {own: num(own), other: num(other), p: pct(p)}))]));
      });
    });
    box.appendChild(grid);
    ticks(totals, every).forEach(function (i) {
      box.appendChild(label(left - 4, top + (n - 1 - i) * cell + cell / 2 + 3, num(totals[i]), {"text-anchor": "end", class: "tick"}));
      box.appendChild(label(left + i * cell + cell / 2, top + size + 12, num(totals[i]), {"text-anchor": "middle", class: "tick"}));
    });
    box.appendChild(label(left + size / 2, top + size + 32, t("st_other"), {"text-anchor": "middle", class: "axis"}));
    box.appendChild(label(12, top + size / 2, t("st_own"), {"text-anchor": "middle", class: "axis",
      transform: "rotate(-90 12 " + (top + size / 2) + ")"}));
    // The colour scale: 0 % at the bottom, 100 % at the top.
    const lx = left + size + 16, steps = 20;
    for (let k = 0; k < steps; k++) {
      box.appendChild(svg("rect", {x: lx, y: top + size - (k + 1) * size / steps, width: 14, height: size / steps + 0.5, fill: winColour((k + 0.5) / steps)}));
    }
    [0, 0.5, 1].forEach(function (p) {
      box.appendChild(label(lx + 18, top + size - p * size + 3, pct(p), {class: "tick"}));
    });
    return box;
  }

  function bankGrid(d, n) {
    const totals = d.bank.totals, k = totals.length, cell = 34, left = 52, top = 6, size = k * cell;
    const cells = d.bank.thresholds[String(n)];
    let most = 0;
    cells.forEach(function (row) { row.forEach(function (v) { if (v !== null) most = Math.max(most, v); }); });
    const box = svg("svg", {viewBox: "0 0 " + (left + size + 4) + " " + (top + size + 40), class: "chart bankgrid",
      role: "img", "aria-label": n === 6 ? t("st_dice_hot") : t("st_dice", {n: n})});
    totals.forEach(function (own, i) {
      totals.forEach(function (other, j) {
        const v = cells[i][j], x = left + j * cell, y = top + (k - 1 - i) * cell;
        const g = svg("g", {class: "bcell", "data-own": String(own), "data-other": String(other), "data-bank": v === null ? "" : String(v)}, [
          tip(v === null ? t("st_bank_never", {own: num(own), other: num(other)})
            : t("st_bank_at", {own: num(own), other: num(other), total: num(v)})),
          svg("rect", {x: x, y: y, width: cell - 1, height: cell - 1, fill: bankColour(v, most)})]);
        g.appendChild(label(x + cell / 2, y + cell / 2 + 4, v === null ? "∞" : v >= 10000 ? (v / 1000).toFixed(1) + "k" : String(v),
          {"text-anchor": "middle", class: v === null || v > most * 0.6 ? "val dark" : "val"}));
        box.appendChild(g);
      });
    });
    const every = d.target >= 5000 ? 2000 : d.target >= 2000 ? 1000 : 250;
    ticks(totals, every).forEach(function (i) {
      box.appendChild(label(left - 4, top + (k - 1 - i) * cell + cell / 2 + 4, num(totals[i]), {"text-anchor": "end", class: "tick"}));
      box.appendChild(label(left + i * cell + cell / 2, top + size + 14, num(totals[i]), {"text-anchor": "middle", class: "tick"}));
    });
    box.appendChild(label(left + size / 2, top + size + 32, t("st_other"), {"text-anchor": "middle", class: "axis"}));
    box.appendChild(label(10, top + size / 2, t("st_own"), {"text-anchor": "middle", class: "axis",
      transform: "rotate(-90 10 " + (top + size / 2) + ")"}));
    return box;
  }

  function draw(d) {
    root.appendChild(el("p", {class: "headline", text: t("st_first", {p: pct(d.first_player),
      points: num(Math.round(d.fair_compensation / d.step) * d.step)})}));
    root.appendChild(el("section", {class: "chartbox", "aria-labelledby": "st-map"}, [
      el("h2", {id: "st-map", text: t("st_map_title")}),
      el("p", {class: "muted", text: t("st_map_note")}), winMap(d)]));
    const grids = el("div", {class: "grids"});
    d.bank.dice.forEach(function (n) {
      grids.appendChild(el("figure", {class: "gridbox", "data-dice": String(n)}, [
        el("figcaption", {text: n === 6 ? t("st_dice_hot") : t("st_dice", {n: n})}), bankGrid(d, n)]));
    });
    root.appendChild(el("section", {class: "chartbox", "aria-labelledby": "st-bank"}, [
      el("h2", {id: "st-bank", text: t("st_bank_title")}),
      el("p", {class: "muted", text: t("st_bank_note", {min: num(d.min_bank)})}), grids]));
  }

  async function load() {
    const status = document.getElementById("strategy-status");
    const q = root.dataset.table ? "?table=" + encodeURIComponent(root.dataset.table) : "";
    let d;
    try {
      const r = await fetch("/api/strategy/dice" + q);
      if (!r.ok) throw new Error(String(r.status));
      d = await r.json();
    } catch (e) { status.textContent = t("st_failed"); return; }
    status.hidden = true;
    if (!d.available) root.appendChild(el("p", {class: "rnone", text: d.message}));
    else draw(d);
    root.dataset.ready = "1";
  }
  load();
  /* The table's rules were solved while the page was open (solve-status.js): the charts now. */
  document.addEventListener("pf:strategy-ready", function () {
    const none = root.querySelector(".rnone");
    if (!none) return;
    none.remove();
    document.getElementById("strategy-status").hidden = false;
    delete root.dataset.ready;
    load();
  });
})();
