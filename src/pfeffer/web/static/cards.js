/* Drawing helpers shared by the play, replay and sheet pages: SVG dice, cards with suit colours,
   translated strings. Everything is built with DOM calls and textContent: names never go
   through innerHTML. */
"use strict";
const PF = (function () {
  const T = JSON.parse(document.getElementById("i18n").textContent);
  const plural = new Intl.PluralRules(document.documentElement.lang || "en");
  /* A message with plural forms comes as ``key#n`` for each count, or as ``key@one``,
     ``key@few``, ``key@other`` by the language's plural category (js_strings): take that one. */
  function t(key, args) {
    const n = args && typeof args.n === "number" ? args.n : null;
    const counted = n === null ? undefined : T[key + "#" + n] || T[key + "@" + plural.select(n)];
    let s = counted || T[key] || key;
    if (args) { for (const k in args) { s = s.split("%(" + k + ")s").join(String(args[k])); } }
    return s;
  }
  /* Numbers as the page's language writes them ("12,5" and "12,5 %" in German and Czech), with
     ``digits`` decimals. Intl formatters are slow to make: one per kind and number of digits. */
  const lang = document.documentElement.lang || "en";
  const formats = {};
  function format(key, options, x) {
    if (!formats[key]) {
      try { formats[key] = new Intl.NumberFormat(lang, options); }
      catch (e) {
        const digits = options.minimumFractionDigits;
        formats[key] = {format: options.style === "percent"
          ? function (y) { return (100 * y).toFixed(digits) + "%"; }
          : function (y) { return y.toFixed(digits); }};
      }
    }
    return formats[key].format(x);
  }
  function num(x, digits) {
    return format("n" + digits, {minimumFractionDigits: digits, maximumFractionDigits: digits}, x);
  }
  function pct(x, digits) {
    return format("p" + digits, {style: "percent", minimumFractionDigits: digits, maximumFractionDigits: digits}, x);
  }
  function el(tag, attrs, children) {
    const e = document.createElement(tag);
    if (attrs) {
      for (const k in attrs) {
        if (k === "text") e.textContent = attrs[k];
        else if (k === "class") e.className = attrs[k];
        else if (k === "on") { for (const ev in attrs.on) e.addEventListener(ev, attrs.on[ev]); }
        else if (attrs[k] !== null && attrs[k] !== undefined && attrs[k] !== false) e.setAttribute(k, attrs[k]);
      }
    }
    (children || []).forEach(function (c) {
      if (c === null || c === undefined) return;
      e.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
    });
    return e;
  }
  const SVGNS = "http://www.w3.org/2000/svg";
  const PIPS = {1: [[50, 50]], 2: [[25, 25], [75, 75]], 3: [[25, 25], [50, 50], [75, 75]],
    4: [[25, 25], [75, 25], [25, 75], [75, 75]], 5: [[25, 25], [75, 25], [50, 50], [25, 75], [75, 75]],
    6: [[25, 25], [75, 25], [25, 50], [75, 50], [25, 75], [75, 75]]};
  function die(face, cls, scoring) {
    const s = document.createElementNS(SVGNS, "svg");
    s.setAttribute("viewBox", "0 0 100 100");
    s.setAttribute("class", "die " + (cls || ""));
    s.setAttribute("role", "img");
    s.setAttribute("aria-label", T["face_" + face] || String(face));  // "five", translated
    s.dataset.face = String(face);
    const r = document.createElementNS(SVGNS, "rect");
    r.setAttribute("x", "4"); r.setAttribute("y", "4"); r.setAttribute("width", "92"); r.setAttribute("height", "92");
    r.setAttribute("rx", "16"); r.setAttribute("class", "body");
    s.appendChild(r);
    PIPS[face].forEach(function (p) {
      const c = document.createElementNS(SVGNS, "circle");
      c.setAttribute("cx", p[0]); c.setAttribute("cy", p[1]); c.setAttribute("r", "9");
      c.setAttribute("class", scoring && scoring.indexOf(face) >= 0 ? "pip scoring" : "pip");
      s.appendChild(c);
    });
    return s;
  }
  /* ``scoring``: the faces that score on their own under the table's rules (from the view). */
  function dice(faces, cls, scoring) {
    return el("span", {class: "dice-group"}, faces.map(function (f) { return die(f, cls, scoring); }));
  }
  /* The dice score sheet as the view carries it (``sheet_rows``: one row per round, a cell per
     seat, null where a seat did not play in that round) with the Σ row of ``scores``. */
  function diceSheet(rows, names, scores, current, firstHead) {
    const head = el("tr", null, [el("th", {text: firstHead})].concat(names.map(function (n, i) {
      return el("th", {class: i === current ? "current" : "", text: n});
    })));
    const body = rows.map(function (r) {
      return el("tr", null, [el("td", {class: "muted", text: String(r.number)})].concat(r.turns.map(function (turn) {
        if (!turn) return el("td");
        let txt, cls = "";
        if (turn.busted) {
          txt = turn.penalty ? "−" + turn.penalty : "—"; cls = turn.penalty ? "penalty" : "bust";
        } else { txt = String(turn.points) + (turn.bonus ? " +" + turn.bonus : ""); }
        const mark = turn.pfeffer === "called" ? " P!" : (turn.pfeffer === "auto" ? " A" : "");
        return el("td", {class: cls, title: String(turn.total_after)},
          [txt + mark, el("small", {text: " " + turn.total_after})]);
      })));
    });
    const sum = el("tr", {class: "sum"}, [el("th", {text: t("total")})].concat(scores.map(function (s) {
      return el("th", {text: String(s)});
    })));
    return el("table", {class: "sheet"}, [el("thead", null, [head]), el("tbody", null, body), el("tfoot", null, [sum])]);
  }
  const SUIT = {C: "♣", D: "♦", H: "♥", S: "♠"};
  const LETTERS = (T.rank_letters || "J Q K A").split(" ");  /* B D K A in German */
  const RANK = {"9": "9", T: "10", J: LETTERS[0], Q: LETTERS[1], K: LETTERS[2], A: LETTERS[3]};
  function suitColor(s) { return s === "D" || s === "H" ? "red" : "black"; }
  /* A card: the corner index and the suit in the middle. ``opts.button`` makes it a button;
     ``opts.label`` replaces its accessible name (the translated name: "ace of hearts"). */
  function card(code, opts) {
    const rank = RANK[code[0]], suit = code[1];
    const c = el(opts && opts.button ? "button" : "span",
      {class: "card " + suitColor(suit) + (opts && opts.cls ? " " + opts.cls : ""),
       "data-card": code, "aria-label": (opts && opts.label) || cardLabel(code), type: opts && opts.button ? "button" : null,
       role: opts && opts.button ? null : "img"},
      [el("span", {class: "rank", text: rank, "aria-hidden": "true"}), el("span", {class: "suit", text: SUIT[suit], "aria-hidden": "true"})]);
    return c;
  }
  /* "K♥" in the page's language (replays, short lists). */
  function cardName(code) { return RANK[code[0]] + SUIT[code[1]]; }
  /* The card's full name for screen readers and titles: "ace of hearts", "Herz-Ass", "srdcové eso". */
  function cardLabel(code) { return t("card_" + code); }
  /* The card as the object of a sentence ("hraje pikovou devítku"; the label where a language
     does not change it). */
  function cardObject(code) { return T["card_obj_" + code] || cardLabel(code); }
  function suitName(s) { return t("suit_" + s); }
  function trumpName(tr) {
    if (tr === null || tr === undefined) return "–";
    if (tr === "NT") return t("no_trump");
    return SUIT[tr];
  }
  function bidName(b) {
    if (b === "small") return t("small");
    if (b === "big") return t("big");
    if (b === "pass") return t("pass");
    return b === null || b === undefined ? "–" : String(b);
  }
  /* Points won or lost with their sign: "+3", "−6" (a minus sign, not a hyphen), "0". */
  function signed(p) { return p > 0 ? "+" + p : p < 0 ? "−" + (-p) : "0"; }
  return {signed: signed, t: t, num: num, pct: pct, el: el, die: die, dice: dice, diceSheet: diceSheet, card: card, SUIT: SUIT, suitColor: suitColor,
    trumpName: trumpName, bidName: bidName, cardName: cardName, cardLabel: cardLabel, cardObject: cardObject, suitName: suitName};
})();
