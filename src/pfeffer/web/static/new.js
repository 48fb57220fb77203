/* The new-table form: show only the seat rows the chosen number of players uses. */
"use strict";
(function () {
  const sel = document.getElementById("players");
  if (!sel) return;
  function show() {
    document.querySelectorAll("ol.seats li").forEach(function (li) {
      li.hidden = Number(li.dataset.seat) >= Number(sel.value);
    });
  }
  sel.addEventListener("change", show); show();
})();
