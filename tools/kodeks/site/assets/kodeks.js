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
  if (!/^https?:$/.test(location.protocol) || !/^(127\.0\.0\.1|localhost|\[::1\])$/.test(location.hostname)) return;
  var root = document.querySelector("link[rel=stylesheet][href*='assets/kodeks.css']");
  var url = "/__kodeks/version";
  var seen = null, failures = 0;
  function poll() {
    fetch(url, { cache: "no-store" }).then(function (r) { return r.ok ? r.json() : Promise.reject(); })
      .then(function (d) {
        failures = 0;
        if (seen === null) seen = d.version; else if (d.version !== seen) { location.reload(); return; }
        setTimeout(poll, 1000);
      })
      .catch(function () { if (++failures < 3) setTimeout(poll, 2000); });
  }
  void root;
  poll();
})();
