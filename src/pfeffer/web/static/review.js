/* The game review on the replay page of a finished game: the server works it out
   (GET /api/tables/<id>/review: web/adapters/review.py) and this script only draws it. Dice: each
   player's totals and the decisions that cost a chance to win, the biggest first; Pepper: per
   hand what each side could have taken with best play (double dummy) against what it took, and
   the cards that cost a trick. Every entry links to its step of the replay (#step-N). */
"use strict";
(function () {
  const t = PF.t, el = PF.el;
  const box = document.getElementById("review");
  if (!box) return;
  const lang = document.documentElement.lang || "en";
  function pct(x) { return PF.pct(x, 1); }
  function pts(x) { return PF.num(x, 2); }
  const SHOWN = 10;  // mistakes listed at first; the rest behind a button

  function stepLink(step) {
    return el("a", {class: "steplink", href: "#step-" + step, text: t("step") + " " + step,
      on: {click: function () { const r = document.getElementById("replay"); if (r && r.scrollIntoView) r.scrollIntoView(); }}});
  }

  function option(o) {
    if (o.kind === "keep") return el("span", {class: "ropt"}, [PF.dice(o.dice, "small")]);
    if (o.kind === "bank") return el("span", {class: "ropt", text: t("bank_plain")});
    if (o.kind === "pfeffer") return el("span", {class: "ropt", text: t("pfeffer")});
    return el("span", {class: "ropt", text: t("roll")});
  }

  function situation(d) {
    const args = {own: d.own, other: d.other, total: d.turn_total, n: d.dice_to_roll};
    if (d.phase === "keep") return [t("review_keep", args), " ", PF.dice(d.roll, "small")];
    if (d.phase === "decide") return [t("review_decide", args)];
    return [t("review_start", args)];
  }

  function diceReview(r) {
    const out = [];
    if (r.note) out.push(el("p", {class: "muted rnote rapprox", text: r.note}));  // more than two players: an approximation
    out.push(el("ul", {class: "rplayers"}, r.players.map(function (p) {
      return el("li", {text: t("review_player", {name: r.names[p.seat], n: p.decisions, best: p.best, lost: t("review_points", {n: pts(100 * p.lost)})})});
    })));
    const mistakes = r.decisions.filter(function (d) { return !d.is_best; });
    if (!mistakes.length) { out.push(el("p", {class: "rgood", text: t("review_all_best")})); return out; }
    out.push(el("h3", {text: t("review_mistakes")}));
    const list = el("ol", {class: "rlist"}, mistakes.map(function (d, i) {
      return el("li", {class: "rmistake" + (i >= SHOWN ? " more" : ""), hidden: i >= SHOWN ? "" : null, "data-step": String(d.step)}, [
        el("div", {class: "rhead"}, [el("strong", {text: r.names[d.seat]}), " · " + t("log_round", {n: d.round}) + " · ", stepLink(d.step),
          el("span", {class: "rcost", text: t("review_cost", {cost: pts(100 * d.cost)})})]),
        el("div", {class: "rsit"}, situation(d)),
        el("div", {class: "rchoice"}, [el("span", {class: "label", text: t("review_played") + " "}), option(d.played),
          el("span", {class: "rwin", text: " " + pct(d.played_win)}),
          el("span", {class: "label", text: " · " + t("review_best") + " "}), option(d.best),
          el("span", {class: "rwin best", text: " " + pct(d.best_win)})])]);
    }));
    out.push(list);
    if (mistakes.length > SHOWN) {
      const more = el("button", {type: "button", class: "button", text: t("review_more", {n: mistakes.length - SHOWN}),
        on: {click: function () { list.querySelectorAll("li.more").forEach(function (li) { li.hidden = false; }); more.remove(); }}});
      out.push(more);
    }
    return out;
  }

  function pepperReview(r) {
    const out = [el("p", {class: "muted rnote", text: t("review_dd_note")})];
    if (!r.hands.length) out.push(el("p", {text: t("all_passed")}));
    r.hands.forEach(function (h) {
      const kids = [el("h3", {}, [t("review_hand", {n: h.number, name: r.names[h.bidder], bid: PF.bidName(h.bid), trump: PF.trumpName(h.trump)}),
        " · ", stepLink(h.step)])];
      kids.push(el("ul", {class: "rsides"}, h.sides.map(function (s) {
        const short = s.taken < s.best;
        return el("li", {class: short ? "short" : ""}, [t("review_side", {side: r.side_names[s.side], n: s.best, taken: s.taken})]);
      })));
      if (!h.costly.length) kids.push(el("p", {class: "rgood", text: t("review_no_cost")}));
      else kids.push(el("ol", {class: "rlist"}, h.costly.map(function (c) {
        return el("li", {class: "rmistake", "data-step": String(c.step + 1)}, [
          t("review_card", {name: r.names[c.seat], card: PF.cardObject(c.card), lost: c.lost}), " · ", stepLink(c.step + 1)]);
      })));
      out.push(el("section", {class: "rhand"}, kids));
    });
    return out;
  }

  async function load() {
    const status = document.getElementById("review-status");
    let r;
    try {
      const key = box.dataset.token ? "&token=" + encodeURIComponent(box.dataset.token) : "";  // a private game
      const resp = await fetch("/api/tables/" + box.dataset.table + "/review?lang=" + encodeURIComponent(lang) + key);
      if (!resp.ok) throw new Error(String(resp.status));
      r = await resp.json();
    } catch (e) {
      status.textContent = t("review_failed"); return;
    }
    status.remove();
    const parts = !r.available ? [el("p", {class: "rnone", text: r.message})] : r.game === "dice" ? diceReview(r) : pepperReview(r);
    parts.forEach(function (p) { box.appendChild(p); });
    box.dataset.ready = "1";
  }
  load();
})();
