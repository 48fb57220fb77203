/* The dice table: draws a dice frame (the engine's view for this seat) and offers its legal
   actions. Loaded before play.js, which calls PF.tables.dice.render/announce. */
"use strict";
(function () {
  const t = PF.t, el = PF.el;
  PF.tables = PF.tables || {};
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }
  function names(frame) { return frame.seats.map(function (s) { return s.name; }); }
  let prevHistory = null;

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

  PF.tables.dice = {render: renderDice, announce: announceDice, reset: function () { prevHistory = null; }};
})();
