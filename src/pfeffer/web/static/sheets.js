/* The score sheets' start page (the installed app opens here): the sheets opened on this device,
   which open without a connection too, and a new sheet, which needs the server. */
"use strict";
(function () {
  const t = PF.t, el = PF.el, sync = PF.sheetSync;
  const list = document.getElementById("devicesheets"), note = document.getElementById("create-offline");
  const mine = sync.known();
  mine.forEach(function (s) {
    const bits = [el("a", {href: s.url, text: s.title})];
    if (s.held) bits.push(el("span", {class: "badge", text: t("held_count", {n: s.held})}));
    list.appendChild(el("li", null, bits));
  });
  document.getElementById("device").hidden = !mine.length;
  // Back here from a new sheet that could not be made (the service worker sends us here), or
  // about to send one without a connection: say that creating needs the server.
  if (new URLSearchParams(location.search).get("offline")) note.hidden = false;
  document.getElementById("newsheet").addEventListener("submit", function (ev) {
    if (navigator.onLine === false) { ev.preventDefault(); note.hidden = false; note.scrollIntoView({block: "nearest"}); }
  });
  window.addEventListener("online", function () { note.hidden = true; });
  sync.register();
})();
