// The host page: copy a seat link (Clipboard API, else the link is selected to copy by hand)
// and hand it to the phone's share sheet (Web Share API; the button stays hidden without it).
// Both need a secure context (localhost or HTTPS); on plain HTTP the link is there to copy.
"use strict";
(function () {
  const T = JSON.parse(document.getElementById("i18n").textContent);

  function say(button, text) {
    const out = button.parentElement.querySelector(".copied");
    if (out) out.textContent = text;
  }

  function selectLink(input) {
    input.focus();
    input.select();
    input.setSelectionRange(0, input.value.length);
  }

  document.querySelectorAll("[data-copy]").forEach(function (button) {
    const input = document.getElementById(button.dataset.copy);
    button.addEventListener("click", function () {
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(input.value).then(
          function () { say(button, T.copied); },
          function () { selectLink(input); say(button, T.copy_by_hand); }
        );
      } else {
        selectLink(input);
        say(button, T.copy_by_hand);
      }
    });
  });

  document.querySelectorAll("textarea.link, input.link").forEach(function (input) {
    input.addEventListener("focus", function () { input.select(); });
  });

  if (navigator.share) {
    document.querySelectorAll("[data-share]").forEach(function (button) {
      const input = document.getElementById(button.dataset.share);
      button.hidden = false;
      button.addEventListener("click", function () {
        navigator.share({ title: T.share_title, text: T.share_title, url: input.value })
          .catch(function () { /* the user closed the share sheet */ });
      });
    });
  }
})();
