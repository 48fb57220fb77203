/* The new-table form: show only the seat rows (and notes) for the chosen number of players. */
"use strict";
(function () {
  const sel = document.getElementById("players");
  if (!sel) return;
  function show() {
    document.querySelectorAll("ol.seats li").forEach(function (li) {
      li.hidden = Number(li.dataset.seat) >= Number(sel.value);
    });
    /* Notes the page marks for one number of players (the teams of four). */
    document.querySelectorAll("[data-for-players]").forEach(function (p) {
      p.hidden = p.dataset.forPlayers !== sel.value;
    });
  }
  sel.addEventListener("change", show); show();
})();
