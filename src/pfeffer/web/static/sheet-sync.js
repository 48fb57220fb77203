/* Score sheets without a connection (PF.sheetSync). Registers the service worker (static/sw.js,
   served as /sw.js with the scope /sheet) where the browser allows one: a secure context, that
   is localhost or HTTPS. There, every entry first goes into a queue kept in localStorage (one per
   sheet) with an id made here, and the queue is sent in order, one entry at a time: an entry
   leaves the queue only when the server has answered for it, and the server takes an id it has
   seen before as done, so nothing is lost and nothing counts twice. This file draws nothing and
   works out no rule: what the sheet shows comes from the server's answers (kept here, for a
   page opened without a connection). */
"use strict";
PF.sheetSync = (function () {
  const offline = !!(window.isSecureContext && navigator.serviceWorker);
  const KEY = "pfeffer.sheet.";
  const LIST = "pfeffer.sheets";
  const REFUSED = [400, 422], GONE = 404;  // answers to an entry that no retry will change

  function read(key, fallback) {
    try { const v = localStorage.getItem(key); return v === null ? fallback : JSON.parse(v); }
    catch (e) { return fallback; }
  }
  function write(key, value) {
    try { localStorage.setItem(key, JSON.stringify(value)); return true; } catch (e) { return false; }
  }
  /* 32 hex digits from the browser's random source (crypto.randomUUID needs a secure context). */
  function newId() {
    const b = new Uint8Array(16);
    crypto.getRandomValues(b);
    return Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join("");
  }

  // ------------------------------------------------------------ what this device keeps

  function held(sheet) { return read(KEY + sheet + ".held", []); }
  function hold(sheet, body) {
    const entry = {entry_id: newId(), body: body};
    const q = held(sheet);
    q.push(entry);
    return write(KEY + sheet + ".held", q) ? entry : null;
  }
  function drop(sheet, entryId) {
    write(KEY + sheet + ".held", held(sheet).filter(function (e) { return e.entry_id !== entryId; }));
  }
  function lastAnswer(sheet) { return read(KEY + sheet + ".answer", null); }
  function keepAnswer(sheet, answer) { write(KEY + sheet + ".answer", answer); }
  /* The sheets opened on this device (newest first), for the list on /sheets. */
  function remember(sheet, info) {
    const list = read(LIST, []).filter(function (s) { return s.id !== sheet; });
    list.unshift(Object.assign({id: sheet, seen: Date.now()}, info));
    write(LIST, list.slice(0, 30));
  }
  function known() {
    return read(LIST, []).map(function (s) { return Object.assign({held: held(s.id).length}, s); });
  }

  // ------------------------------------------------------------ the service worker

  /* Registers the worker; resolves true once it controls this page and the page itself is in its
     cache (a page opened before the worker existed asks it to keep a copy), false where there is
     no worker. */
  function register() {
    if (!offline) return Promise.resolve(false);
    const wasControlled = !!navigator.serviceWorker.controller;
    return navigator.serviceWorker.register("/sw.js", {scope: "/sheet"})
      .then(function () { return navigator.serviceWorker.ready; })
      .then(function (reg) {
        if (wasControlled || !reg.active) return true;
        return new Promise(function (resolve) {
          const ch = new MessageChannel();
          ch.port1.onmessage = function () { resolve(true); };
          reg.active.postMessage({type: "keep", urls: [location.pathname + location.search]}, [ch.port2]);
        });
      })
      .catch(function () { return false; });
  }

  // ------------------------------------------------------------ sending the queue in order

  /* The sender of one sheet's queue. ``on``: answer(d) for each answer of the server,
     state(name, heldEntries) with name "idle", "sending", "waiting" (no connection: tried again
     later) or "paused" (an entry was refused and more wait), refused(entry, message) and
     gone(message) (the sheet is not on the server). */
  function sender(sheet, lang, on) {
    const url = "/api/sheets/" + sheet + "/entries" + (lang ? "?lang=" + encodeURIComponent(lang) : "");
    let running = false, again = false, paused = false, timer = null, delay = 2000;

    function state(name) { on.state(name, held(sheet)); }
    function later() {
      state("waiting");
      clearTimeout(timer);
      timer = setTimeout(flush, delay);
      delay = Math.min(delay * 2, 30000);
    }
    async function sendAll() {
      for (;;) {
        const q = held(sheet);
        if (!q.length) { paused = false; state("idle"); return; }  // nothing left to hold back
        if (paused) { state("paused"); return; }
        const head = q[0];
        state("sending");
        let r, d = null;
        try {
          r = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json"},
            body: JSON.stringify(Object.assign({}, head.body, {entry_id: head.entry_id}))});
          d = await r.json().catch(function () { return null; });
        } catch (e) { later(); return; }  // no connection: the entry stays first in the queue
        if (r.ok && d) {
          drop(sheet, head.entry_id);
          keepAnswer(sheet, d);
          delay = 2000;
          on.answer(d);
          continue;
        }
        if (REFUSED.indexOf(r.status) >= 0) {  // the engine refused it: it never will take it
          drop(sheet, head.entry_id);
          paused = held(sheet).length > 0;  // the ones after it were meant to follow it: ask first
          on.refused(head, d && d.detail);
          continue;
        }
        if (r.status === GONE) { state("idle"); on.gone(d && d.detail); return; }
        later();  // the server is there but failed (5xx): try again later
      }
    }
    function run() {
      // One sender at a time, also across the tabs that show this sheet.
      return navigator.locks ? navigator.locks.request("pfeffer-sheet-" + sheet, sendAll) : sendAll();
    }
    async function flush() {
      clearTimeout(timer);
      if (running) { again = true; return; }
      running = true;
      try { do { again = false; await run(); } while (again); }
      finally { running = false; }
    }
    window.addEventListener("online", function () { delay = 2000; flush(); });
    document.addEventListener("visibilitychange", function () { if (!document.hidden) flush(); });
    window.addEventListener("storage", function (ev) {  // another tab changed this sheet's queue
      if (ev.key === KEY + sheet + ".held") state(running ? "sending" : (paused ? "paused" : "idle"));
    });
    return {
      flush: flush,
      resume: function () { paused = false; return flush(); },
      paused: function () { return paused; },
    };
  }

  return {offline: offline, newId: newId, held: held, hold: hold, drop: drop, lastAnswer: lastAnswer,
    keepAnswer: keepAnswer, remember: remember, known: known, register: register, sender: sender};
})();
