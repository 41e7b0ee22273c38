/* kodeks: sortable tables (click a header; numbers sort as numbers, gaps last). No dependencies. */
(function () {
  "use strict";
  function key(cell) {
    var text = (cell.textContent || "").trim().replace("−", "-");
    if (text === "—" || text === "") return { gap: true, n: 0, s: "" };
    var n = parseFloat(text.replace(/^\+/, "").replace(",", "."));
    return { gap: false, n: isNaN(n) ? null : n, s: text.toLocaleLowerCase("pl") };
  }
  function compare(a, b) {
    if (a.gap !== b.gap) return a.gap ? 1 : -1;
    if (a.n !== null && b.n !== null) return a.n - b.n;
    return a.s.localeCompare(b.s, "pl");
  }
  function enable(table) {
    var heads = table.querySelectorAll("thead th");
    heads.forEach(function (th, col) {
      th.setAttribute("role", "button");
      th.tabIndex = 0;
      function sort() {
        var body = table.tBodies[0];
        if (!body) return;
        var asc = th.getAttribute("aria-sort") !== "ascending";
        heads.forEach(function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", asc ? "ascending" : "descending");
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (r1, r2) {
          var c = compare(key(r1.cells[col] || r1), key(r2.cells[col] || r2));
          return asc ? c : -c;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      }
      th.addEventListener("click", sort);
      th.addEventListener("keydown", function (e) { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sort(); } });
    });
  }
  function init() { document.querySelectorAll(".kodeks-sortable table").forEach(enable); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init); else init();
})();

/* kodeks serve: reload the page after a rebuild (only when served by `kodeks serve` on this machine). */
(function () {
  "use strict";
  // Only the preview of `kodeks serve` asks for new versions: a published site has nobody to answer.
  if (!document.querySelector("meta[name=kodeks-live]")) return;
  var root = document.querySelector("link[rel=stylesheet][href*='assets/kodeks.css']");
  var url = "/__kodeks/version";
  var seen = null, failures = 0, banner = null;
  // After a broken save the server keeps the last good site and says why in `error` and `problems`
  // (path:line:col: ...): the author sees it here, not only in the terminal. Text only: the lines quote content.
  function showError(d) {
    if (!d.error) { if (banner) { banner.remove(); banner = null; } return; }
    if (!banner) {
      banner = document.createElement("div");
      banner.className = "kodeks-live-error";
      banner.setAttribute("role", "alert");
      banner.style.cssText = "position:fixed;left:0;right:0;bottom:0;z-index:1000;max-height:45vh;overflow:auto;" +
        "margin:0;padding:.6em 1em;background:#b71c1c;color:#fff;font:13px/1.45 monospace;white-space:pre-wrap;" +
        "box-shadow:0 -2px 8px rgba(0,0,0,.4)";
      document.body.appendChild(banner);
    }
    banner.textContent = "";
    var title = document.createElement("strong");
    title.textContent = "kodeks serve: " + d.error + " (this page shows the last good build)";
    banner.appendChild(title);
    (d.problems || []).forEach(function (line) {
      var p = document.createElement("div");
      p.textContent = line;
      banner.appendChild(p);
    });
  }
  function poll() {
    fetch(url, { cache: "no-store" }).then(function (r) { return r.ok ? r.json() : Promise.reject(); })
      .then(function (d) {
        failures = 0;
        if (seen === null) seen = d.version; else if (d.version !== seen) { location.reload(); return; }
        showError(d);
        setTimeout(poll, 1000);
      })
      .catch(function () { if (++failures < 3) setTimeout(poll, 2000); });
  }
  void root;
  poll();
})();

/* kodeks previews: hovering a link to an entry (desktop) shows its summary; on a touch screen the first tap
   opens the same preview with a link to the entry. The data rides on the link itself, so this works offline
   and from file://. Also the copy-link button of entry pages. */
(function () {
  "use strict";
  var en = (document.documentElement.lang || "pl").indexOf("en") === 0;
  var T = en ? { open: "Open", level: "Level", copied: "Copied" } : { open: "Otwórz", level: "Poziom", copied: "Skopiowano" };
  var pop = null, current = null, hideTimer = null, showTimer = null;
  var coarse = window.matchMedia && window.matchMedia("(hover: none), (pointer: coarse)").matches;

  function popover() {
    if (pop) return pop;
    pop = document.createElement("div");
    pop.className = "kodeks-preview md-typeset";
    pop.setAttribute("role", "tooltip");
    pop.hidden = true;
    pop.addEventListener("mouseenter", function () { clearTimeout(hideTimer); });
    pop.addEventListener("mouseleave", scheduleHide);
    document.body.appendChild(pop);
    return pop;
  }
  function text(el, tag, cls, value) {
    var n = document.createElement(tag);
    if (cls) n.className = cls;
    n.textContent = value;
    el.appendChild(n);
    return n;
  }
  function show(a) {
    var p = popover();
    clearTimeout(hideTimer);
    current = a;
    p.innerHTML = "";
    text(p, "div", "kodeks-preview__kind", a.getAttribute("data-kodeks-kind") || "");
    text(p, "div", "kodeks-preview__title", a.getAttribute("data-kodeks-name") || a.textContent);
    var level = a.getAttribute("data-kodeks-level");
    if (level) {
      var lt = a.getAttribute("data-kodeks-level-text");
      text(p, "p", "kodeks-preview__level", T.level + " " + level + (lt ? ": " + lt : ""));
    }
    var summary = a.getAttribute("data-kodeks-summary");
    if (summary) text(p, "p", "kodeks-preview__summary", summary);
    var ruling = a.getAttribute("data-kodeks-ruling");
    if (ruling) text(p, "p", "kodeks-preview__ruling", "⚖ " + ruling);
    var open = document.createElement("a");
    open.className = "kodeks-preview__open";
    open.href = a.href;
    open.textContent = T.open + " →";
    p.appendChild(open);
    p.hidden = false;
    var r = a.getBoundingClientRect();
    var width = Math.min(340, window.innerWidth - 16);
    p.style.width = width + "px";
    var left = Math.max(8, Math.min(r.left + window.scrollX, window.scrollX + window.innerWidth - width - 8));
    p.style.left = left + "px";
    p.style.top = (r.bottom + window.scrollY + 6) + "px";
  }
  function hide() { if (pop) pop.hidden = true; current = null; }
  function scheduleHide() { clearTimeout(showTimer); clearTimeout(hideTimer); hideTimer = setTimeout(hide, 200); }

  function init() {
    var links = document.querySelectorAll(".md-content a[data-kodeks-kind]");
    links.forEach(function (a) {
      if (a.title) { a.setAttribute("data-kodeks-summary", a.title); a.removeAttribute("title"); }
      a.addEventListener("mouseenter", function () {
        if (coarse) return;
        clearTimeout(hideTimer); clearTimeout(showTimer);
        showTimer = setTimeout(function () { show(a); }, 150);
      });
      a.addEventListener("mouseleave", function () { if (!coarse) scheduleHide(); });
      a.addEventListener("focus", function () { if (!coarse) show(a); });
      a.addEventListener("blur", function () { if (!coarse) scheduleHide(); });
      a.addEventListener("click", function (e) {
        if (!coarse || current === a) return;  // the second tap on the same link follows it
        // Where the line already shows the summary (index lists and tables), a preview would only repeat it.
        if (a.closest(".kodeks-direct")) return;
        e.preventDefault();
        show(a);
      });
    });
    document.addEventListener("click", function (e) {
      if (pop && !pop.hidden && !pop.contains(e.target) && !(e.target.closest && e.target.closest("a[data-kodeks-kind]"))) hide();
    });
    document.addEventListener("keydown", function (e) { if (e.key === "Escape") hide(); });
    document.querySelectorAll("[data-kodeks-copy]").forEach(function (b) {
      b.addEventListener("click", function () {
        var url = location.href.split("#")[0];
        var done = function () { var old = b.textContent; b.textContent = T.copied; setTimeout(function () { b.textContent = old; }, 1500); };
        if (navigator.clipboard && window.isSecureContext) { navigator.clipboard.writeText(url).then(done, fallback); } else fallback();
        function fallback() {
          var ta = document.createElement("textarea");
          ta.value = url; ta.setAttribute("readonly", ""); ta.style.position = "fixed"; ta.style.opacity = "0";
          document.body.appendChild(ta); ta.select();
          try { document.execCommand("copy"); done(); } catch (err) { /* nothing else to try */ }
          document.body.removeChild(ta);
        }
      });
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init); else init();
})();

/* Print buttons (quick-reference and card pages). */
document.addEventListener("click", function (e) {
  var b = e.target.closest && e.target.closest("[data-print]");
  if (b) { e.preventDefault(); window.print(); }
});

/* kodeks offline: register the service worker when the site is served (not from file://), and the
   "save this game for offline" button on game pages. */
(function () {
  "use strict";
  if (!("serviceWorker" in navigator) || !/^https?:$/.test(location.protocol)) {
    document.querySelectorAll("[data-kodeks-offline]").forEach(function (b) { b.hidden = true; });
    return;
  }
  var cfg = document.getElementById("__config");
  var base = ".";
  try { base = JSON.parse(cfg.textContent).base || "."; } catch (e) { /* keep "." */ }
  navigator.serviceWorker.register(base + "/sw.js").catch(function () { /* offline use just stays off */ });
  document.querySelectorAll("[data-kodeks-offline]").forEach(function (button) {
    button.addEventListener("click", function () {
      navigator.serviceWorker.ready.then(function (reg) {
        var channel = new MessageChannel(), label = button.getAttribute("data-done") || "✓";
        channel.port1.onmessage = function (e) {
          var d = e.data || {};
          if (d.error) { button.textContent = "✗"; return; }
          button.textContent = d.finished ? label : d.done + " / " + d.total;
        };
        var game = new URL(base + "/" + button.getAttribute("data-kodeks-offline"), location.href).href;
        reg.active.postMessage({ type: "save-game", game: game }, [channel.port2]);
      });
    });
  });
})();

/* kodeks wide tables and abbreviations: a table that scrolls sideways in its box can be reached and scrolled
   by keyboard too, and on a touch screen a tap on a column's abbreviation names it in full (a title alone
   shows only on hover). */
(function () {
  "use strict";
  var en = (document.documentElement.lang || "pl").indexOf("en") === 0;
  var coarse = window.matchMedia && window.matchMedia("(hover: none), (pointer: coarse)").matches;
  function focusable() {
    document.querySelectorAll(".md-typeset__table, .md-typeset__scrollwrap, .kodeks-card-preview, .kodeks-sheets").forEach(function (box) {
      if (box.scrollWidth > box.clientWidth + 1) {
        if (!box.hasAttribute("tabindex")) {
          box.setAttribute("tabindex", "0");
          box.setAttribute("role", "region");
          box.setAttribute("aria-label", en ? "Table, scrolls sideways" : "Tabela, przewijana w bok");
        }
      } else if (box.getAttribute("role") === "region") {
        box.removeAttribute("tabindex"); box.removeAttribute("role"); box.removeAttribute("aria-label");
      }
    });
  }
  var tip = null;
  function name(abbr) {
    if (!tip) {
      tip = document.createElement("div");
      tip.className = "kodeks-abbr-tip";
      tip.setAttribute("role", "status");
      document.body.appendChild(tip);
    }
    tip.textContent = abbr.textContent.trim() + ": " + abbr.getAttribute("data-title");
    var r = abbr.getBoundingClientRect();
    tip.hidden = false;
    var left = Math.max(8, Math.min(r.left + window.scrollX, window.scrollX + window.innerWidth - tip.offsetWidth - 8));
    tip.style.left = left + "px";
    tip.style.top = (r.bottom + window.scrollY + 4) + "px";
  }
  function init() {
    document.querySelectorAll(".md-typeset th abbr[title]").forEach(function (abbr) {
      abbr.setAttribute("data-title", abbr.title);
      abbr.setAttribute("tabindex", "0");
      if (coarse) abbr.addEventListener("click", function (e) { e.stopPropagation(); name(abbr); });
      abbr.addEventListener("keydown", function (e) { if (e.key === "Enter") name(abbr); });
    });
    document.addEventListener("click", function () { if (tip) tip.hidden = true; });
    focusable();
    setTimeout(focusable, 300);  // after the theme has wrapped the tables
    window.addEventListener("resize", focusable);
  }
  if (document.readyState === "complete") init(); else window.addEventListener("load", init);
})();
