/* The history's "Your games": the finished games of the seat links this browser opened (play.js
   keeps them in localStorage), private ones too, from POST /api/history/mine. Drawn as text
   (textContent), never as HTML. */
(function () {
  "use strict";
  const box = document.getElementById("mine");
  if (!box) return;
  let tokens = [];
  try { tokens = JSON.parse(localStorage.getItem("pfeffer.seats") || "[]"); } catch (e) { return; }
  if (!Array.isArray(tokens) || !tokens.length) return;
  fetch("/api/history/mine", {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({tokens: tokens.slice(-200)})})
    .then(function (r) { return r.ok ? r.json() : []; })
    .then(function (games) {
      if (!games.length) return;
      const body = box.querySelector("tbody");
      games.forEach(function (g) {
        const tr = document.createElement("tr");
        function cell(text) { const td = document.createElement("td"); td.textContent = text; tr.appendChild(td); return td; }
        cell((g.finished || "").slice(0, 16).replace("T", " "));
        cell(g.game === "dice" ? box.dataset.dice : "Pepper");
        cell(g.seats.map(function (s) { return s.name; }).join(", "));
        cell("\u2605 " + g.winner_names.join(", "));
        const links = cell(""), key = "?token=" + encodeURIComponent(g.token);
        const replay = document.createElement("a");
        replay.href = "/replay/" + encodeURIComponent(g.id) + key;
        replay.textContent = box.dataset.replay;
        const record = document.createElement("a");
        record.href = "/api/tables/" + encodeURIComponent(g.id) + "/record" + key;
        record.textContent = "JSON";
        links.append(replay, " \u00b7 ", record);
        body.appendChild(tr);
      });
      box.hidden = false;
    })
    .catch(function () { /* offline: the public list stands */ });
})();
