/* The review of the hand just played at a live Pepper table whose host allowed hints (the play
   and watch pages have the box only then). When a frame shows a hand that is over, the page asks
   the server once over the WebSocket ({"type": "hand_review", "hand": N}); the answer comes to
   this connection alone: what the viewer's side (a spectator: every side) could have taken with
   best play, what it took, the cards that cost a trick, all worded by the server. This script
   only draws the answer's title and lines under the hand's result, until the next hand's cards
   are played. play.js hands frames (PF.handReview.frame) and answers (PF.handReview.answer). */
"use strict";
(function () {
  const t = PF.t, el = PF.el;
  const box = document.getElementById("handreview");
  if (!box) return;
  let answers = {};    // hand number -> the server's answer (or refusal)
  let pending = null;  // the hand asked about, until its answer comes
  let shown = null;    // the hand whose review the frame drawn last shows
  let closed = {};     // hands whose review the viewer closed

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }

  /* The hand the frame shows as just finished: its result is on the table (the dealer has not
     dealt yet, or the game is over) or the next hand is still in its auction. */
  function finishedHand(f) {
    const v = f.view, h = v.last_hand;
    if (f.game !== "pepper" || !h || h.bidder === null) return null;
    if (v.phase === "play" && !v.is_over) return null;
    return h.hand_number;
  }

  /* Under the hand's result, else under the felt: where the board shows the hand's end. */
  function place() {
    const board = document.getElementById("board");
    if (!board) return;
    const anchor = board.querySelector(".handresult") || board.querySelector(".ptable");
    if (anchor && anchor.nextSibling !== box) anchor.parentNode.insertBefore(box, anchor.nextSibling);
  }

  function draw(hand) {
    const a = answers[hand];
    clear(box);
    const head = el("div", {class: "hint-head"}, [
      el("h2", {id: "handreviewtitle", text: a && a.type === "hand_review" ? a.title : t("hint_thinking")}),
      el("button", {type: "button", class: "hint-close", "aria-label": t("handreview_close"), title: t("handreview_close"), text: "×",
        on: {click: function () { closed[hand] = true; box.hidden = true; }}})]);
    box.appendChild(head);
    if (!a) box.classList.add("waiting");
    else if (a.type === "error") { box.classList.remove("waiting"); box.appendChild(el("p", {class: "error handreview-error", text: a.message})); }
    else {
      box.classList.remove("waiting");
      // What "best play" means (the server's words): the side may have taken more than that.
      if (a.note) box.appendChild(el("p", {class: "muted handreview-note", text: a.note}));
      a.sides.forEach(function (s) {
        box.appendChild(el("ul", {class: "handreview-lines", "data-side": String(s.side)}, s.lines.map(function (line) {
          return el("li", {text: line});
        })));
      });
      box.dataset.hand = String(hand);
    }
  }

  PF.handReview = {
    /* A new frame: ask about a hand that just ended, show its review while the frame shows it. */
    frame: function (f) {
      const hand = finishedHand(f);
      if (hand === null || closed[hand]) { shown = null; box.hidden = true; return; }
      if (!answers[hand] && pending !== hand && PF.sendMessage && PF.sendMessage({type: "hand_review", hand: hand})) pending = hand;
      if (shown !== hand) { shown = hand; draw(hand); }
      place();
      box.hidden = false;
    },
    waiting: function () { return pending !== null; },
    /* The connection is lost: an answer still owed will not come; the next frame asks again. */
    lost: function () { pending = null; shown = null; },
    /* The server's answer (or its refusal). */
    answer: function (msg) {
      const hand = msg.type === "hand_review" ? msg.hand : pending;
      pending = null;
      if (hand === null || hand === undefined) return;
      answers[hand] = msg;
      if (shown === hand) draw(hand);
    }
  };
})();
