/* The score sheets' and the trainer's service worker, served as /sw.js and registered twice:
   with the scope /sheet (so it controls /sheets and every /sheet/<id>) by sheet-sync.js and with
   the scope /train (the puzzle trainer) by train.js; nothing else of the site. It keeps the sheet pages,
   their scripts, styles and icons in a cache so that a sheet opens without a connection:
   network first (always the newest when the server answers), the cached copy when it does not
   or takes too long. The API is never cached here: entries wait in the page's queue
   (sheet-sync.js) and the page keeps the server's last answer itself; the trainer keeps its
   puzzles ahead and the answers given offline in local storage (train.js). */
"use strict";
const CACHE = "pfeffer-sheets-4";
const SHELL = [
  "/sheets", "/sheets.webmanifest", "/favicon.ico",
  "/static/app.css", "/static/print.css", "/static/sheet.css",
  "/static/cards.js", "/static/sheet-sync.js", "/static/sheet.js", "/static/sheets.js",
  "/static/icons/icon.svg", "/static/icons/icon-192.png", "/static/icons/icon-512.png",
  "/static/icons/maskable-512.png",
  "/train", "/static/table.css", "/static/dice-table.css", "/static/train.css",
  "/static/dice-table.js", "/static/train.js", "/static/pepper-table.css", "/static/pepper-table.js",
];
const PATIENCE = 4000;  // ms the network gets before a cached copy is shown instead

self.addEventListener("install", function (ev) {
  ev.waitUntil(caches.open(CACHE).then(function (c) { return c.addAll(SHELL); })
    .then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (ev) {
  ev.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k.indexOf("pfeffer-sheets-") === 0 && k !== CACHE; })
      .map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

/* What this worker keeps: the sheet pages, the trainer's page and what they load, never the
   API. */
function kept(url) {
  if (url.origin !== self.location.origin) return false;
  const p = url.pathname;
  return p === "/sheets" || p.indexOf("/sheet/") === 0 || p.indexOf("/static/") === 0 || p === "/train" ||
    SHELL.indexOf(p) >= 0;
}

function cached(request) {
  return caches.match(request).then(function (r) {
    return r || caches.match(request, {ignoreSearch: true});  // /sheet/x?lang=de: the page kept as /sheet/x
  });
}

function networkFirst(request) {
  return new Promise(function (resolve) {
    let done = false;
    function answer(r) { if (!done && r) { done = true; resolve(r); } }
    const slow = setTimeout(function () { cached(request).then(answer); }, PATIENCE);
    fetch(request).then(function (r) {
      clearTimeout(slow);
      if (r.ok && r.type === "basic") {
        const copy = r.clone();
        caches.open(CACHE).then(function (c) { return c.put(request, copy); });
      }
      answer(r);
    }, function () {
      clearTimeout(slow);
      cached(request).then(function (r) { answer(r || Response.error()); });
    });
  });
}

self.addEventListener("fetch", function (ev) {
  const request = ev.request, url = new URL(request.url);
  if (request.method === "POST" && request.mode === "navigate" && url.pathname === "/sheets") {
    // A new sheet needs the server: without one, back to the list, which says so.
    ev.respondWith(fetch(request).catch(function () { return Response.redirect("/sheets?offline=1", 303); }));
    return;
  }
  if (request.method !== "GET" || !kept(url)) return;  // the browser's own way
  ev.respondWith(networkFirst(request));
});

/* A page that was opened before this worker controlled it asks for a copy of itself. */
self.addEventListener("message", function (ev) {
  const data = ev.data || {};
  if (data.type !== "keep" || !Array.isArray(data.urls)) return;
  const urls = data.urls.filter(function (u) { return kept(new URL(u, self.location.origin)); });
  ev.waitUntil(caches.open(CACHE).then(function (c) {
    return Promise.all(urls.map(function (u) { return c.add(u).catch(function () { return null; }); }));
  }).then(function () { if (ev.ports[0]) ev.ports[0].postMessage({kept: urls}); }));
});
