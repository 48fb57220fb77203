/* The hint button of a table whose host allowed hints (the play page draws it only then).
   The button (or the key H or ?) asks the server over the WebSocket ({"type": "hint"}); the
   answer comes to this connection alone, worked out from this seat's view. Everything shown
   comes from the answer: dice, every option with its chance to win, best first; Pepper, what
   the expert would do and why. The advised choice is highlighted on the table until the next
   move. play.js hands frames (PF.hints.frame) and answers (PF.hints.answer) to this script. */
"use strict";
(function () {
  const t = PF.t, el = PF.el;
  const button = document.getElementById("hint"), box = document.getElementById("hintbox");
  if (!button || !box) return;
  function pct(x) { return PF.pct(x, 1); }
  let current = null;  // the frame drawn last
  let answer = null;   // the answer shown (for current.version)
  let waiting = false; // a question is on its way
  let asked = null;    // the version it asked about

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }
  function canAsk(f) {
    return !!f && f.seat !== null && f.seat !== undefined && f.status === "running" &&
      !!f.view.is_my_turn && f.legal.length > 0;
  }
  /* Once the game is over there is nothing left to ask: the button goes (issue 22 §2). */
  function update() {
    button.disabled = waiting || !canAsk(current);
    button.hidden = !!current && !!current.view.is_over;
  }

  function ask() {
    if (waiting || !canAsk(current)) return;
    if (answer && answer.version === current.version) { box.hidden = false; return; }
    if (!PF.sendMessage || !PF.sendMessage({type: "hint", version: current.version})) return;
    waiting = true; asked = current.version; update();
    clear(box).appendChild(el("p", {class: "muted hint-wait", text: t("hint_thinking")}));
    box.hidden = false;
  }

  /* The advised choice on the table: its button (a set-aside, roll, bank, a card, a bid). */
  function mark() {
    document.querySelectorAll(".hinted").forEach(function (n) { n.classList.remove("hinted"); });
    if (!answer || !current || answer.version !== current.version || !answer.best) return;
    document.querySelectorAll("#board [data-action], #actions [data-action]").forEach(function (n) {
      if (n.dataset.action === answer.best) n.classList.add("hinted");
    });
  }

  /* A dice option in words (and dice): what the answer says it is. */
  function diceOption(o) {
    if (o.kind === "keep") {
      return [PF.dice(o.dice, "small", current ? current.view.single_faces : null),
        el("span", {text: "+" + o.points + " → " + o.total})];  // numbers and symbols only
    }
    if (o.kind === "bank") return [t("bank", {points: o.total})];
    if (o.kind === "pfeffer") return [t("call_pfeffer", {stake: o.stake})];
    return [t("roll_n", {n: o.dice})];
  }

  /* A Pepper action in words: a card, a bid, pass, a trump, the deal. */
  function pepperAction(a) {
    if (/^[9TJQKA][CDHS]$/.test(a)) return PF.cardLabel(a);
    if (a === "pass") return t("pass");
    if (a === "deal") return t("deal");
    if (a === "NT") return t("no_trump");
    if (/^[CDHS]$/.test(a)) return PF.suitName(a);
    return PF.bidName(a);
  }

  function draw() {
    clear(box);
    const head = el("div", {class: "hint-head"}, [el("h2", {id: "hinttitle", text: t("hint_heading")}),
      el("button", {type: "button", class: "hint-close", "aria-label": t("hint_close"), title: t("hint_close"), text: "×",
        on: {click: function () { box.hidden = true; }}})]);
    box.appendChild(head);
    if (answer.none) {
      box.appendChild(el("p", {class: "hint-none", text: answer.message}));
    } else if (answer.game === "dice") {
      const best = answer.options.length ? answer.options[0].win : 0;
      box.appendChild(el("p", {class: "muted hint-note", text: t("hint_dice_note")}));
      /* More than two players: the approximation, said so (issue 21 §1). */
      if (answer.reason) box.appendChild(el("p", {class: "muted hint-approx", text: answer.reason}));
      box.appendChild(el("ol", {class: "hintlist"}, answer.options.map(function (o, i) {
        const bar = el("span", {class: "hbar", "aria-hidden": "true"}, [el("span", {class: "hfill"})]);
        bar.firstChild.style.width = (100 * o.win).toFixed(1) + "%";
        return el("li", {class: i === 0 ? "best" : "", "data-option": o.action}, [
          el("span", {class: "hopt"}, diceOption(o)),
          bar,
          el("span", {class: "hwin", text: pct(o.win)}),
          el("span", {class: "hcost", text: i === 0 ? t("hint_best") : "−" + pct(best - o.win)})]);
      })));
    } else {
      box.appendChild(el("p", {class: "hint-action"}, [t("hint_expert", {action: pepperAction(answer.best)})]));
      if (answer.reason) box.appendChild(el("p", {class: "muted hint-reason", text: answer.reason}));
    }
    box.hidden = false;
  }

  PF.hints = {
    /* A new frame: an answer for an older state goes, the button follows the turn. */
    frame: function (f) {
      current = f;
      if (answer && answer.version !== f.version) { answer = null; box.hidden = true; clear(box); }
      if (waiting && f.version !== asked) waiting = false;  // its answer will be dropped
      update(); mark();
    },
    /* The server's answer (or its refusal). */
    answer: function (msg) {
      waiting = false;
      if (msg.type === "error") {
        clear(box).appendChild(el("p", {class: "error hint-error", text: msg.message}));
        box.hidden = false; update(); return;
      }
      if (!current || msg.version !== current.version) { update(); return; }  // overtaken by a move
      answer = msg; draw(); mark(); update();
    },
    /* The strategy for these rules has just been solved (solve-status.js): a "no hint for
       these rules yet" on show is asked again. */
    refresh: function () {
      if (!answer || answer.none !== "unsolved" || box.hidden) return;
      answer = null; ask();
    }
  };
  button.addEventListener("click", ask);
  document.addEventListener("keydown", function (ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.repeat) return;
    const tag = ev.target && ev.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    if (ev.key === "h" || ev.key === "H" || ev.key === "?") { ev.preventDefault(); ask(); }
  });
})();
