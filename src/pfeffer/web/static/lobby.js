/* The lobby: "take this seat" claims an open public seat and goes to its page. */
"use strict";
document.querySelectorAll("[data-claim]").forEach(function (b) {
  b.addEventListener("click", async function () {
    const r = await fetch("/api/tables/" + b.dataset.claim + "/claim/" + b.dataset.seat, {method: "POST"});
    if (r.ok) { location.href = (await r.json()).url; } else { b.disabled = true; }
  });
});
