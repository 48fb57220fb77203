/* The table chat (web/services/chat.py): everyone at the table reads it, players write in it. The
   messages come on the table's socket (play.js hands the chat frames to PF.onChat) and are
   shown as text (textContent), never as HTML. A text reaction is shown in the page's language. */
"use strict";
(function () {
  const box = document.getElementById("chat");
  if (!box) return;
  const t = PF.t, el = PF.el;
  const log = document.getElementById("chat-log"), err = document.getElementById("chat-error");
  const empty = log.querySelector(".empty");
  /* The seat that writes here (the one-device page changes it as the device goes round). */
  function seat() { return box.dataset.seat === "" ? null : Number(box.dataset.seat); }
  const input = document.getElementById("chat-text");
  const MAX_LINES = 50;
  let pending = null;  /* the text sent and not yet back: it stays in the field until then */

  function line(m) {
    if (empty && empty.parentNode) empty.remove();
    const key = "chat_r_" + m.reaction;
    const text = m.reaction && t(key) !== key ? t(key) : m.text;
    const mySeat = seat(), mine = mySeat !== null && m.seat === mySeat;
    log.appendChild(el("li", {class: "chat-line" + (mine ? " mine" : "") + (m.reaction ? " reaction" : ""),
      "data-id": String(m.id), title: m.time},
      [el("strong", {text: (mine ? t("chat_you", {name: m.name}) : m.name) + ":"}), " ", el("span", {class: "chat-text", text: text})]));
    while (log.children.length > MAX_LINES) log.removeChild(log.firstChild);
    log.scrollTop = log.scrollHeight;
    if (mine && input && pending !== null && m.text === pending) { input.value = ""; pending = null; }
  }

  PF.onChat = function (msg) {
    if (msg.type === "chat_history") {  /* on every (re)connect: the table's last messages */
      while (log.firstChild) log.removeChild(log.firstChild);
      if (!msg.messages.length && empty) log.appendChild(empty);
      msg.messages.forEach(line);
    } else if (msg.type === "chat") {
      if (msg.message.seat === seat()) err.hidden = true;
      line(msg.message);
    } else if (msg.type === "error") {
      err.textContent = msg.message; err.hidden = false;
    }
  };

  function send(obj) {
    return Boolean(PF.sendMessage && PF.sendMessage(obj));
  }
  const form = document.getElementById("chat-form");
  if (form && input) {
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      const text = input.value.trim();
      if (text && send({type: "chat", text: text})) pending = text;
    });
  }
  box.querySelectorAll("[data-reaction]").forEach(function (b) {
    b.addEventListener("click", function () { send({type: "chat", reaction: b.dataset.reaction}); });
  });
})();
