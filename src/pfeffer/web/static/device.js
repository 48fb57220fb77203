/* One device for the whole table (pfeffer.web.services.device): every human seat of the table plays in
   this browser. Each seat has its own WebSocket with its own token, so each gets only its own
   frames (view(seat)); a spectator socket gives the table before anybody holds the device.
   The page draws the frames of the seat whose turn it is. When the turn goes to another person
   at a game that hides something from the others (Pepper's hands: data-hides, from the game's
   adapter), the table is removed from the page and a full-screen "Pass the device to Anna"
   screen shows until Anna taps "I am Anna": no hand is in the DOM meanwhile. The dice hide
   nothing: the table goes straight on with the next player (issue 22 §2). The log and the chat
   are the table's, as on a seat's page: the chat is read from the spectator's socket (one copy
   of each message) and written with the socket of the seat that holds the device. */
"use strict";
(function () {
  const root = document.getElementById("device");
  if (!root) return;
  const t = PF.t;
  const seats = JSON.parse(document.getElementById("device-seats").textContent);
  const table = root.dataset.table, lang = root.dataset.lang;
  const hides = root.dataset.hides === "yes";  // a pass screen between two players' turns
  const conns = {};          // key ("s0", "s2", "watch") -> {ws, frame, delay}
  let holder = null;         // the seat whose player holds the device
  let pending = null;        // the seat the device is to be passed to
  let busy = false;
  const board = document.getElementById("board"), actions = document.getElementById("actions");
  const scores = document.getElementById("scores"), banner = document.getElementById("banner");
  const errorBox = document.getElementById("error"), offline = document.getElementById("offline");
  const pass = document.getElementById("pass"), iam = document.getElementById("iam");

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }
  function seatOf(s) { return seats.find(function (x) { return x.seat === s; }) || null; }
  function frameOf(key) { return conns[key] ? conns[key].frame : null; }

  /* The newest frame any socket got: whose turn it is. */
  function newest() {
    let best = null;
    Object.keys(conns).forEach(function (k) {
      const f = frameOf(k);
      if (f && (!best || f.version > best.version)) best = f;
    });
    return best;
  }

  function lock(on) {
    root.querySelectorAll("#board button:not(.hint-close), #actions button:not(.hint-close)").forEach(function (b) { b.disabled = on; });
    root.classList.toggle("busy", on);
  }

  function send(action) {
    const c = holder === null ? null : conns["s" + holder];
    if (busy || !c || !c.ws || c.ws.readyState !== 1) return;
    errorBox.hidden = true;
    busy = true; lock(true);
    // One action, or a list the server takes as one step (play.js does the same).
    const msg = Array.isArray(action) ? {type: "action", actions: action} : {type: "action", action: action};
    msg.version = c.frame ? c.frame.version : null;
    c.ws.send(JSON.stringify(msg));
  }

  function hideTable() {
    clear(board); clear(actions); clear(scores); clear(banner); banner.hidden = true; errorBox.hidden = true;
  }

  function showPass(s) {
    const name = seatOf(s).name;
    hideTable();  // the hand leaves the page before anybody else may look at it
    PF.tables[root.dataset.game].reset();
    document.getElementById("passname").textContent = t("pass_to", {name: name});
    const note = document.getElementById("passnote");
    note.textContent = root.dataset.game === "pepper" ? t("pass_hidden", {name: name}) : "";
    note.hidden = root.dataset.game !== "pepper";
    iam.textContent = t("i_am", {name: name});
    document.getElementById("status").textContent = t("pass_to", {name: name});
    pass.hidden = false;
    iam.focus();
  }

  /* Draw what the device should show now: the pass screen, or the holder's (or, before anybody
     holds it, the spectator's) frame once it is as new as the newest frame. */
  function update() {
    const top = newest();
    if (!top) return;
    const cur = top.view.current_player;
    const human = !top.view.is_over && cur !== null && cur !== undefined && seatOf(cur) !== null;
    if (human && cur !== holder) {
      if (!hides) { holder = cur; speaker(); }  // nothing hidden: the next player just plays
      else {
        if (pending !== cur) { pending = cur; showPass(cur); }
        return;
      }
    }
    if (pending !== null) return;  // waiting for "I am …"
    const f = holder === null ? frameOf("watch") : frameOf("s" + holder);
    if (!f || f.version < top.version) return;
    PF.renderFrame(f, send, {});
    if (holder !== null && !f.view.is_over) {
      const status = document.getElementById("status");
      status.textContent = t("device_seat", {name: seatOf(holder).name}) + " · " + status.textContent;
    }
    root.dataset.version = String(f.version);
    root.dataset.holder = holder === null ? "" : String(holder);
  }

  /* The chat writes as the seat that holds the device (before anybody does: the first seat). */
  const chat = document.getElementById("chat");
  function writer() { return holder === null ? (seats.length ? seats[0].seat : null) : holder; }
  function speaker() { if (chat) chat.dataset.seat = writer() === null ? "" : String(writer()); }
  PF.sendMessage = function (obj) {
    const c = writer() === null ? null : conns["s" + writer()];
    if (!c || !c.ws || c.ws.readyState !== 1) return false;
    c.ws.send(JSON.stringify(obj)); return true;
  };
  speaker();

  iam.addEventListener("click", function () {
    if (pending === null) return;
    holder = pending; pending = null; speaker();
    pass.hidden = true;
    PF.tables[root.dataset.game].reset();
    update();
    const first = board.querySelector("button[data-action]") || actions.querySelector("button[data-action]");
    if (first) first.focus({preventScroll: true});
  });

  function connect(key, token) {
    const c = conns[key] || (conns[key] = {ws: null, frame: null, delay: 500});
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const q = "?lang=" + encodeURIComponent(lang) + (token ? "&token=" + encodeURIComponent(token) : "");
    c.ws = new WebSocket(proto + "//" + location.host + "/ws/" + table + q);
    c.ws.onopen = function () { c.delay = 500; };
    c.ws.onmessage = function (ev) {
      const msg = JSON.parse(ev.data);
      if (msg.type === "state") {
        c.frame = msg;
        if (key === "s" + holder || (holder === null && key === "watch")) { busy = false; root.classList.remove("busy"); }
        offline.hidden = true;
        update();
      } else if (PF.onChat && (/^chat/.test(msg.type) || (msg.type === "error" && /^chat_/.test(msg.code)))) {
        // The table chat (chat.js): messages once, from the spectator's socket; refusals from
        // the socket that wrote.
        if (msg.type === "error" ? key === "s" + writer() : key === "watch") PF.onChat(msg);
      } else if (msg.type === "error" && key === "s" + holder) {
        busy = false; lock(false);
        errorBox.textContent = msg.message; errorBox.hidden = false;
      }
    };
    c.ws.onclose = function (ev) {
      if (ev.code === 4403 || ev.code === 4404) return;
      offline.hidden = false; busy = false; lock(true);
      setTimeout(function () { connect(key, token); }, c.delay);
      c.delay = Math.min(c.delay * 2, 4000);
    };
  }

  connect("watch", null);
  seats.forEach(function (s) { connect("s" + s.seat, s.token); });
})();
