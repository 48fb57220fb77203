/* The lobby: "take this seat" claims an open public seat and goes to its page; the name for
   "Play now" is remembered in this browser for the next game. */
"use strict";
(function () {
  const name = document.getElementById("playname");
  if (!name) return;
  try { name.value = localStorage.getItem("pfeffer.name") || ""; } catch (e) { /* a private window */ }
  name.form.addEventListener("submit", function () {
    try { localStorage.setItem("pfeffer.name", name.value.trim()); } catch (e) { /* a private window */ }
  });
})();
document.querySelectorAll("[data-claim]").forEach(function (b) {
  b.addEventListener("click", async function () {
    const r = await fetch("/api/tables/" + b.dataset.claim + "/claim/" + b.dataset.seat, {method: "POST"});
    if (r.ok) { location.href = (await r.json()).url; } else { b.disabled = true; }
  });
});
