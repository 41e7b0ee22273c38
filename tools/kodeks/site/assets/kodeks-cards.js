/* kodeks cards in the site: every card takes the smallest size its content fits (never clipped; past A6 it
   becomes a front and a back), a print page lays cards out on paper sheets, and a roster (unit:count, in the
   address so it can be shared) prints only the chosen units, a count as that many copies. Offline, no server. */
(function () {
  "use strict";
  var SIZES = { poker: [63, 88], tarot: [70, 120], a6: [105, 148] };
  var ORDER = ["poker", "tarot", "a6"];
  var PAPERS = { a4: [210, 297], letter: [215.9, 279.4] };

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

  /* Cards edge to edge, as many as the paper holds (four A6 on A4); the same arithmetic as cards/layout.py. */
  function grid(paper, size) {
    var p = PAPERS[paper], c = SIZES[size];
    return [Math.max(1, Math.floor(p[0] / c[0])), Math.max(1, Math.floor(p[1] / c[1]))];
  }

  function plural(n, one, few, many) {  // Polish: 1 karta, 2-4 (not 12-14) karty, else kart
    var d = n % 10, h = n % 100;
    return n === 1 ? one : d >= 2 && d <= 4 && (h < 12 || h > 14) ? few : many;
  }

  /* What the sheets hold, said in words: a count prints that many cards, which the sheets alone do not tell
     (each copy is a plain card, no badge). `counted` is [[title, n], ...] for the units asked more than once. */
  function summary(en, cards, sheets, paper, counted) {
    var list = counted.map(function (c) { return c[0] + " ×" + c[1]; }).join(", ");
    if (en) {
      return "To print: " + cards + (cards === 1 ? " card" : " cards") + " on " + sheets + " " + paper +
        (sheets === 1 ? " sheet" : " sheets") + (list ? " — " + list + ", each on a card of its own." : ".");
    }
    return "Do druku: " + cards + " " + plural(cards, "karta", "karty", "kart") + " na " + sheets + " " +
      (sheets === 1 ? "arkuszu" : "arkuszach") + " " + paper +
      (list ? " — " + list + ", każdy na własnej karcie." : ".");
  }

  function parseRoster(text) {
    var out = [];
    (text || "").split(",").forEach(function (part) {
      var m = part.match(/^\s*([a-z0-9-]+)(?::(\d+))?\s*$/);
      if (m) out.push([m[1], Math.max(1, Math.min(99, parseInt(m[2] || "1", 10)))]);
    });
    return out;
  }

  function titleOf(card) {
    var title = card.querySelector(".kc__title").cloneNode(true);
    title.querySelectorAll("span").forEach(function (e) { e.remove(); });  // the ruling mark, "(back)"
    return title.textContent.trim();
  }

  /* On a screen narrower than what `box` shows (a sheet of paper, an A6 card: `mm()` wide), it shrinks to the
     column through a zoom (kodeks-cards.css, screen only), so a player sees whole cards, laid out as they print.
     Returns the function that sets the zoom again (after the content changed). */
  function zoomToFit(box, mm) {
    function update() {
      var zoom = Math.min(1, box.clientWidth / (mm() * 96 / 25.4)).toFixed(3);
      if (box.style.getPropertyValue("--kodeks-zoom") !== zoom) box.style.setProperty("--kodeks-zoom", zoom);
    }
    if (window.ResizeObserver) new ResizeObserver(update).observe(box); else window.addEventListener("resize", update);
    update();
    return update;
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
    document.querySelectorAll(".kodeks-card-preview").forEach(function (preview) {
      zoomToFit(preview, function () {
        return Math.max.apply(null, [].map.call(preview.querySelectorAll(".kc"), function (c) {
          return SIZES[c.getAttribute("data-size")][0];
        }).concat([0]));
      });
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
    var en = (document.documentElement.lang || "pl").indexOf("en") === 0;
    var said = document.createElement("p");
    said.className = "kodeks-sheets-summary";
    said.setAttribute("role", "status");
    out.parentNode.insertBefore(said, out);

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
      var placed = [], used = {}, copies = 0, counted = [], sheets = 0;
      chosen.forEach(function (r) {
        var card = cards[r[0]].cloneNode(true);
        // The pool keeps the anchors' ids (the PDF measures with them); copies on the sheets would repeat them.
        card.querySelectorAll("[id]").forEach(function (e) { e.removeAttribute("id"); });
        (card.getAttribute("data-rules") || "").split(" ").forEach(function (k) { if (k) used[k] = true; });
        // Measure at the target size in a hidden staging area, then place.
        var stage = document.createElement("div");
        stage.className = "kodeks-stage";
        stage.appendChild(card);
        document.body.appendChild(stage);
        var parts = fit(card, size);
        document.body.removeChild(stage);
        // A count of n is n cards to cut out, each whole (a front with its backs), not one card marked ×n.
        for (var n = 0; n < r[1]; n++) parts.forEach(function (c) { placed.push(n ? c.cloneNode(true) : c); });
        copies += r[1];
        if (r[1] > 1) counted.push([titleOf(card), r[1]]);
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
          sheets++;
        }
      });
      said.textContent = summary(en, copies, sheets, paperSel.options[paperSel.selectedIndex].text, counted);
      fitWidth();
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
    var fitWidth = zoomToFit(out, function () { return PAPERS[paperSel.value][0]; });
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
