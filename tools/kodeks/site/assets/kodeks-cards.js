/* kodeks cards in the site: every card takes the smallest size its content fits (never clipped; past A6 it
   becomes a front and a back), a print page lays cards out on paper sheets, and a roster (unit:count, in the
   address so it can be shared) prints only the chosen units, identical cards folded into one. Offline, no server. */
(function () {
  "use strict";
  var SIZES = { poker: [63, 88], tarot: [70, 120], a6: [105, 148] };
  var ORDER = ["poker", "tarot", "a6"];
  var PAPERS = { a4: [210, 297], letter: [215.9, 279.4] };
  var MARGIN = 2;

  function setSize(card, size) {
    ORDER.forEach(function (s) { card.classList.remove("kc--" + s); });
    card.classList.add("kc--" + size);
    card.setAttribute("data-size", size);
  }
  function overflows(card) { return card.scrollHeight > card.clientHeight + 1 || card.scrollWidth > card.clientWidth + 1; }

  /* Smallest size from `from` up that shows the whole card; past A6 a front and as many backs as the
     reminder lines need (each back takes the lines that fit, the last one also the text and footer).
     The card must be in the document (rendered) when this runs. */
  function fit(card, from) {
    for (var i = ORDER.indexOf(from || "poker"); i < ORDER.length; i++) {
      setSize(card, ORDER[i]);
      if (!overflows(card)) return [card];
    }
    var parent = card.parentNode, next = card.nextSibling;
    var front = card.cloneNode(true);
    front.classList.add("kc--front-only");
    setSize(front, "a6");
    var backs = [], items = [].slice.call(card.querySelectorAll(".kc__back li"));
    var remaining = items.map(function (li) { return li.getAttribute("data-item"); });
    var guard = 0;
    while (guard++ < 50) {
      var back = card.cloneNode(true);
      back.classList.add("kc--back-only");
      setSize(back, "a6");
      back.querySelectorAll(".kc__back li").forEach(function (li) {
        if (remaining.indexOf(li.getAttribute("data-item")) < 0) li.remove();
      });
      parent.insertBefore(back, next);
      var kept = [].slice.call(back.querySelectorAll(".kc__back li"));
      var isLast = true;
      while (overflows(back) && kept.length > 1) {  // move the trailing lines to a further back
        kept.pop().remove();
        isLast = false;
      }
      if (!isLast) {
        var text = back.querySelector(".kc__text"), foot = back.querySelector(".kc__foot");
        if (text) text.remove();
        if (foot) foot.remove();
        while (overflows(back) && kept.length > 1) kept.pop().remove();
      }
      back.querySelectorAll("ul.kc__list").forEach(function (ul) { if (!ul.children.length) ul.remove(); });
      parent.removeChild(back);
      backs.push(back);
      var done = kept.map(function (li) { return li.getAttribute("data-item"); });
      remaining = remaining.filter(function (x) { return done.indexOf(x) < 0; });
      if (isLast || !remaining.length) break;
    }
    return [front].concat(backs);
  }

  function grid(paper, size) {
    var p = PAPERS[paper], c = SIZES[size];
    return [Math.max(1, Math.floor((p[0] - 2 * MARGIN) / c[0])), Math.max(1, Math.floor((p[1] - 2 * MARGIN) / c[1]))];
  }

  function parseRoster(text) {
    var out = [];
    (text || "").split(",").forEach(function (part) {
      var m = part.match(/^\s*([a-z0-9-]+)(?::(\d+))?\s*$/);
      if (m) out.push([m[1], Math.max(1, Math.min(99, parseInt(m[2] || "1", 10)))]);
    });
    return out;
  }

  function initUnitPages() {
    document.querySelectorAll(".kodeks-card-preview .kc").forEach(function (card) {
      var parts = fit(card, "poker");
      if (parts.length > 1) {
        var after = card.nextSibling, parent = card.parentNode;
        parent.replaceChild(parts[0], card);
        parts.slice(1).forEach(function (p) { parent.insertBefore(p, after); });
      }
    });
  }

  function initPrintPage(root) {
    var pool = root.querySelector(".kodeks-card-pool");
    var out = root.querySelector(".kodeks-sheets");
    var rules = root.querySelector(".kodeks-rules-sheet");
    var params = new URLSearchParams(location.search);
    var sizeSel = root.querySelector("select[name=size]");
    var paperSel = root.querySelector("select[name=paper]");
    var rosterBox = root.querySelector("input[name=roster]");
    if (params.get("size") && SIZES[params.get("size")]) sizeSel.value = params.get("size");
    if (params.get("paper") && PAPERS[params.get("paper")]) paperSel.value = params.get("paper");
    if (params.get("roster")) rosterBox.value = params.get("roster");
    var cards = {};
    pool.querySelectorAll(".kc").forEach(function (c) { cards[c.getAttribute("data-unit")] = c; });
    var counters = root.querySelectorAll("input[data-roster-unit]");

    function roster() {
      var list = parseRoster(rosterBox.value).filter(function (r) { return cards[r[0]]; });
      if (!list.length) list = Object.keys(cards).map(function (id) { return [id, 1]; });
      var folded = {}, order = [];
      list.forEach(function (r) { if (!(r[0] in folded)) { folded[r[0]] = 0; order.push(r[0]); } folded[r[0]] += r[1]; });
      return order.map(function (id) { return [id, folded[id]]; });
    }

    function render() {
      var size = sizeSel.value, paper = paperSel.value;
      var chosen = roster();
      counters.forEach(function (input) {
        var hit = chosen.filter(function (r) { return r[0] === input.getAttribute("data-roster-unit"); })[0];
        input.value = rosterBox.value.trim() ? (hit ? hit[1] : 0) : 0;
      });
      var query = new URLSearchParams({ size: size, paper: paper });
      if (rosterBox.value.trim()) query.set("roster", rosterBox.value.trim());
      history.replaceState(null, "", location.pathname + "?" + query.toString());
      out.innerHTML = "";
      out.className = "kodeks-sheets kodeks-sheets--" + paper;
      var placed = [], used = {};
      chosen.forEach(function (r) {
        var card = cards[r[0]].cloneNode(true);
        var count = card.querySelector(".kc__count");
        if (r[1] > 1 && count) { count.textContent = "×" + r[1]; count.hidden = false; }
        (card.getAttribute("data-rules") || "").split(" ").forEach(function (k) { if (k) used[k] = true; });
        // Measure at the target size in a hidden staging area, then place.
        var stage = document.createElement("div");
        stage.className = "kodeks-stage";
        stage.appendChild(card);
        document.body.appendChild(stage);
        fit(card, size).forEach(function (c) { placed.push(c); });
        document.body.removeChild(stage);
      });
      ORDER.forEach(function (s) {
        var group = placed.filter(function (c) { return c.getAttribute("data-size") === s; });
        var g = grid(paper, s), per = g[0] * g[1];
        for (var i = 0; i < group.length; i += per) {
          var sheet = document.createElement("section");
          sheet.className = "ks ks--" + paper + " ks--" + s;
          sheet.style.setProperty("--cols", g[0]);
          group.slice(i, i + per).forEach(function (c) { sheet.appendChild(c); });
          out.appendChild(sheet);
        }
      });
      if (rules) {
        var any = false;
        rules.querySelectorAll("[data-rule]").forEach(function (r) {
          var show = !!used[r.getAttribute("data-rule")];
          r.hidden = !show;
          any = any || show;
        });
        rules.hidden = !any;
      }
    }

    function fromCounters() {
      var parts = [];
      counters.forEach(function (input) {
        var n = parseInt(input.value || "0", 10);
        if (n > 0) parts.push(input.getAttribute("data-roster-unit") + ":" + Math.min(99, n));
      });
      rosterBox.value = parts.join(",");
      render();
    }

    sizeSel.addEventListener("change", render);
    paperSel.addEventListener("change", render);
    rosterBox.addEventListener("change", render);
    counters.forEach(function (input) { input.addEventListener("change", fromCounters); });
    var clear = root.querySelector("[data-roster-clear]");
    if (clear) clear.addEventListener("click", function () { rosterBox.value = ""; render(); });
    var pageStyle = document.createElement("style");
    function setPaper() {
      var p = PAPERS[paperSel.value];
      pageStyle.textContent = "@page { size: " + p[0] + "mm " + p[1] + "mm; margin: 0; }";
    }
    paperSel.addEventListener("change", setPaper);
    setPaper();
    document.head.appendChild(pageStyle);
    render();
  }

  function init() {
    initUnitPages();
    var root = document.querySelector("[data-kodeks-print]");
    if (root) initPrintPage(root);
  }
  window.kodeksCards = { fit: fit, grid: grid, parseRoster: parseRoster };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init); else init();
})();
