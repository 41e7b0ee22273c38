/* kodeks site search: the browser half of kodeks' search (see tools/kodeks/search/index.py and engine.py).
   The index (assets/kodeks-index.js) carries the Python analyzer's word -> token table, so a query is folded,
   looked up and scored here the way `kodeks search` does it, step for step. Works offline and from file://. */
(function () {
  "use strict";
  var WORD = /\d+(?:\.\d+)+|[\p{L}\p{N}]+/gu;
  var state = { index: null, loading: false, waiting: [], summaries: null, shown: null };

  function fold(w) {
    return w.replace(/ł/g, "l").replace(/Ł/g, "l").normalize("NFKD").replace(/[\u0300-\u036f]/g, "")
      .toLowerCase().replace(/\./g, "-");
  }
  function words(text) { return (String(text).match(WORD) || []).map(fold); }

  function base() {
    var cfg = document.getElementById("__config");
    try { return JSON.parse(cfg.textContent).base || "."; } catch (e) { return "."; }
  }

  function load(done) {
    if (state.index) return done(state.index);
    state.waiting.push(done);
    if (state.loading) return;
    state.loading = true;
    var s = document.createElement("script");
    s.src = base() + "/assets/kodeks-index.js";
    s.onload = function () {
      state.index = prepare(window.KODEKS_INDEX);
      state.waiting.splice(0).forEach(function (f) { f(state.index); });
      loadSummaries();
    };
    s.onerror = function () { state.loading = false; };
    document.head.appendChild(s);
  }

  /* The results' summary lines come in a second file, after the index: a search answers without them. */
  function loadSummaries() {
    var s = document.createElement("script");
    s.src = base() + "/assets/kodeks-summaries.js";
    s.onload = function () {
      state.summaries = window.KODEKS_SUMMARIES || null;
      if (state.shown) state.shown();
    };
    document.head.appendChild(s);
  }

  /* Numbers in base 32 (search.index.encode): a digit with more to follow is a letter of MORE, the last
     digit one of LAST. */
  var LAST = "0123456789abcdefghijklmnopqrstuv", MORE = "ABCDEFGHIJKLMNOPQRSTUVWXYZ-_.~!*", DIGIT = {};
  for (var k = 0; k < 32; k++) { DIGIT[LAST.charCodeAt(k)] = k; DIGIT[MORE.charCodeAt(k)] = 32 + k; }
  function undelta(text) {  // encoded gap, weight, gap, weight... -> [doc, weight, doc, weight...]
    var out = [], n = 0, doc = 0;
    for (var i = 0; i < text.length; i++) {
      var d = DIGIT[text.charCodeAt(i)];
      if (d >= 32) { n = n * 32 + d - 32; continue; }
      n = n * 32 + d;
      if (out.length % 2 === 0) { doc += n; out.push(doc); } else out.push(n);
      n = 0;
    }
    return out;
  }

  function prepare(ix) {
    if (ix.prepared) return ix;
    ix.stopSet = new Set(ix.stop);
    ix.stems = Object.create(null);
    var vocab = [];
    Object.keys(ix.words).forEach(function (stem) {
      ix.words[stem].forEach(function (end) {
        var w = end.charAt(0) === "=" ? end.slice(1) : stem + end;
        vocab.push(w);
        if (w !== stem) ix.stems[w] = stem;
      });
    });
    ix.vocab = vocab.sort();
    // Tables without a prototype: a query word such as "constructor" must find nothing, not Object's own.
    ["postings", "raw", "exact"].forEach(function (k) { ix[k] = Object.assign(Object.create(null), ix[k]); });
    Object.keys(ix.postings).forEach(function (t) { ix.postings[t] = undelta(ix.postings[t]); });
    Object.keys(ix.raw).forEach(function (t) { ix.raw[t] = undelta(ix.raw[t]); });
    derive(ix);
    ix.phraseMap = Object.create(null);
    ix.phrases.forEach(function (p) {
      (ix.phraseMap[p[0][0]] = ix.phraseMap[p[0][0]] || []).push(p);
    });
    Object.keys(ix.phraseMap).forEach(function (k) { ix.phraseMap[k].sort(function (a, b) { return b[0].length - a[0].length; }); });
    ix.rawWords = Object.keys(ix.raw);
    ix.docs = ix.docs.map(function (d) {  // [title, url, kind label, game name, kind, game]
      var g = ix.groups[d[2]];
      return [d[0], (ix.lang === "en" ? "en/" : "") + g[3] + "/" + g[2] + "/" + d[1] + ".html", g[0], g[1], g[2], g[3]];
    });
    ix.prepared = true;
    return ix;
  }

  /* What the index does not ship because it follows from what it ships (search.index.derive, in the same
     order, so both engines add the same numbers): "same beginning" postings from the typo postings of name
     words, and every title as an exact name of its entry. */
  function derive(ix) {
    var size = ix.prefix[0], factor = ix.prefix[1], prefix = Object.create(null), order = [];
    Object.keys(ix.raw).forEach(function (w) {
      if (w.length < 3 || /^\d/.test(w)) return;
      var key = "^" + w.slice(0, size), table = prefix[key], p = ix.raw[w];
      if (!table) { table = prefix[key] = new Map(); order.push(key); }
      for (var i = 0; i < p.length; i += 2) table.set(p[i], (table.get(p[i]) || 0) + p[i + 1] * factor);
    });
    order.forEach(function (key) {
      var flat = [];
      prefix[key].forEach(function (x, d) { flat.push(d, x); });
      ix.postings[key] = flat;
    });
    ix.docs.forEach(function (d, i) {
      var token = words(d[0]).join("_");
      if (!token) return;
      var list = ix.exact[token] || (ix.exact[token] = []);
      if (list.indexOf(i) < 0) list.push(i);
    });
  }

  function stemOf(ix, w) {
    if (Object.prototype.hasOwnProperty.call(ix.stems, w)) return [ix.stems[w]];
    if (binaryHas(ix.vocab, w)) return [w];
    if (w.length < 3) return [w];
    // A form the texts never use: take the tokens of the known words it begins (bounded).
    var out = [], i = lowerBound(ix.vocab, w);
    for (; i < ix.vocab.length && ix.vocab[i].lastIndexOf(w, 0) === 0 && out.length < 12; i++) {
      var t = ix.stems[ix.vocab[i]] || ix.vocab[i];
      if (out.indexOf(t) < 0) out.push(t);
    }
    if (!out.length) {  // or the known word that is its longest prefix (kamuflazami -> kamuflaz)
      for (var n = w.length - 1; n >= 4; n--) {
        var p = w.slice(0, n);
        if (binaryHas(ix.vocab, p)) { out.push(ix.stems[p] || p); break; }
      }
    }
    return out.length ? out : [w];
  }
  function lowerBound(arr, x) {
    var lo = 0, hi = arr.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (arr[mid] < x) lo = mid + 1; else hi = mid; }
    return lo;
  }
  function binaryHas(arr, x) { var i = lowerBound(arr, x); return i < arr.length && arr[i] === x; }

  function analyze(ix, query) {
    var ws = words(query), groups = [], raw = [];
    ws.forEach(function (w) {
      if (ix.stopSet.has(w)) return;
      raw.push(w);
      groups.push(stemOf(ix, w));
    });
    for (var i = 0; i < ws.length; i++) {
      var cands = ix.phraseMap[ws[i]] || [];
      for (var j = 0; j < cands.length; j++) {
        var toks = cands[j][0];
        if (toks.every(function (t, k) { return ws[i + k] === t; })) { groups.push([cands[j][1]]); break; }
      }
    }
    raw.forEach(function (w) {  // the light "same beginning" match, as search.documents.prefix_tokens
      if (w.length >= 3 && !/^\d/.test(w)) {
        var p = "^" + w.slice(0, 5);
        if (!groups.some(function (g) { return g.length === 1 && g[0] === p; })) groups.push([p]);
      }
    });
    return { groups: groups, raw: raw, exact: ws.join("_") };
  }

  function idf(ix, df) { return Math.log(ix.n / (df + 1)) + 1; }

  function editDistance(a, b, limit) {  // Levenshtein, or limit + 1 once it must exceed limit
    if (Math.abs(a.length - b.length) > limit) return limit + 1;
    var prev = [], cur, i, j;
    for (j = 0; j <= b.length; j++) prev[j] = j;
    for (i = 1; i <= a.length; i++) {
      cur = [i];
      var best = i;
      for (j = 1; j <= b.length; j++) {
        cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        if (cur[j] < best) best = cur[j];
      }
      if (best > limit) return limit + 1;
      prev = cur;
    }
    return prev[b.length];
  }

  /* The game whose pages the player is reading (its entries rank higher), from the page's address. */
  function currentGame(ix) {
    var games = {};
    ix.groups.forEach(function (g) { games[g[3]] = true; });
    var parts = location.pathname.split("/");
    for (var i = parts.length - 1; i >= 0; i--) if (games[parts[i]]) return parts[i];
    return null;
  }

  function search(ix, query, limit, prefer) {
    var q = analyze(ix, String(query).slice(0, 1000));
    q.groups = q.groups.slice(0, 40);  // as search.engine: MAX_GROUPS, MAX_TYPOS
    var scores = {}, matched = {}, total = q.groups.length;
    q.groups.forEach(function (group, g) {
      group.forEach(function (tok) {
        var p = ix.postings[tok];
        if (!p) return;
        var weight = idf(ix, p.length / 2);
        for (var i = 0; i < p.length; i += 2) {
          scores[p[i]] = (scores[p[i]] || 0) + weight * p[i + 1] / ix.scale;
          (matched[p[i]] = matched[p[i]] || {})[g] = true;
        }
      });
    });
    var exactDocs = ix.exact[q.exact] || [];
    exactDocs.forEach(function (d) {
      scores[d] = (scores[d] || 0) + ix.exactBoost * idf(ix, exactDocs.length);
      matched[d] = matched[d] || {};
      q.groups.forEach(function (_, g) { matched[d][g] = true; });
    });
    q.raw.slice(0, 12).forEach(function (w) {  // typos: the closest known name words, one letter off (two in long words)
      if (w.length < 4 || ix.raw[w]) return;
      var limit = w.length < 8 ? 1 : 2, best = limit + 1, near = [];
      ix.rawWords.forEach(function (cand) {
        if (cand[0] !== w[0]) return;
        var d = editDistance(w, cand, limit);
        if (d < best) { best = d; near = [cand]; } else if (d === best && d <= limit) near.push(cand);
      });
      var top = {};  // per document the best of the candidates, as whoosh's DisjunctionMax
      near.forEach(function (cand) {
        var p = ix.raw[cand], weight = idf(ix, p.length / 2);
        for (var i = 0; i < p.length; i += 2) top[p[i]] = Math.max(top[p[i]] || 0, weight * p[i + 1] / ix.scale);
      });
      Object.keys(top).forEach(function (d) { scores[d] = (scores[d] || 0) + top[d]; });
    });
    var ranked = Object.keys(scores).map(function (d) {
      var m = matched[d] ? Object.keys(matched[d]).length : 0;
      var cover = total ? 0.1 + 0.9 * m / total : 1;
      var boost = prefer && ix.docs[d][5] === prefer ? ix.prefer : 1;
      return [Number(d), scores[d] * cover * boost];
    });
    ranked.sort(function (a, b) { return b[1] - a[1] || a[0] - b[0]; });
    return { hits: ranked.slice(0, limit || 20), analysis: q };
  }

  // "1 wynik, 2 wyniki, 5 wyników, 22 wyniki, 112 wyników": Polish takes "wyniki" after a last digit of 2 to 4,
  // except in 12 to 14.
  function count(n, lang) {
    if (lang === "en") return n === 1 ? "1 result" : n + " results";
    if (n === 1) return "1 wynik";
    var last = n % 10, tens = n % 100;
    return n + (last >= 2 && last <= 4 && (tens < 12 || tens > 14) ? " wyniki" : " wyników");
  }

  function render(ix, box, query) {
    var list = box.querySelector(".md-search-result__list");
    var meta = box.querySelector(".md-search-result__meta");
    var t = ix.lang === "en"
      ? { none: "Nothing found", hint: "Type to search" }
      : { none: "Nic nie znaleziono", hint: "Wpisz, czego szukasz" };
    list.innerHTML = "";
    if (!words(query).length) { meta.textContent = t.hint; return; }
    var res = search(ix, query, 30, currentGame(ix));
    meta.textContent = res.hits.length === 0 ? t.none : count(res.hits.length, ix.lang);
    var root = base() + "/";
    var prefix = ix.lang === "en" ? "en/" : "";
    res.hits.forEach(function (hit) {
      var d = ix.docs[hit[0]];
      var url = d[1].lastIndexOf(prefix, 0) === 0 ? d[1].slice(prefix.length) : d[1];
      var li = document.createElement("li");
      li.className = "md-search-result__item";
      var a = document.createElement("a");
      a.className = "md-search-result__link";
      a.href = root + url;
      a.setAttribute("data-kodeks-key", d[5] + "/" + d[4]);
      var art = document.createElement("article");
      art.className = "md-search-result__article md-typeset";
      var h = document.createElement("h1");
      h.textContent = d[0];
      var badge = document.createElement("p");
      badge.className = "kodeks-search-meta";
      badge.textContent = d[2] + " · " + d[3];
      var p = document.createElement("p");
      p.textContent = state.summaries ? state.summaries[hit[0]] || "" : "";
      art.appendChild(h); art.appendChild(badge); art.appendChild(p);
      a.appendChild(art); li.appendChild(a); list.appendChild(li);
    });
  }

  function init() {
    var box = document.querySelector("[data-kodeks-search]");
    if (!box) return;
    var input = box.querySelector("input");
    var toggle = document.getElementById("__search");
    var timer = null;
    function run() { load(function (ix) { render(ix, box, input.value); }); }
    state.shown = function () { if (words(input.value).length) run(); };
    // At 960 px and wider the box sits in the header and is clicked directly: opening the panel is then
    // this script's job (Material's own search, which would do it, is not loaded).
    input.addEventListener("focus", function () {
      if (!toggle.checked) { toggle.checked = true; toggle.dispatchEvent(new Event("change")); }
      load(function () {});
    });
    input.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(run, 80); });
    input.addEventListener("keydown", function (e) {
      if (e.key === "Enter") {
        e.preventDefault();
        var first = box.querySelector(".md-search-result__link");
        if (first) window.location.href = first.href;
      } else if (e.key === "Escape") { toggle.checked = false; input.blur(); }
    });
    box.querySelector("form").addEventListener("submit", function (e) { e.preventDefault(); });
    box.querySelector("button[type=reset]").addEventListener("click", function () { input.value = ""; run(); input.focus(); });
    toggle.addEventListener("change", function () { if (toggle.checked) setTimeout(function () { input.focus(); }, 50); });
    document.addEventListener("keydown", function (e) {
      var tag = (document.activeElement && document.activeElement.tagName) || "";
      if ((e.key === "/" || e.key === "s") && !/INPUT|TEXTAREA|SELECT/.test(tag) && !e.ctrlKey && !e.metaKey) {
        e.preventDefault(); toggle.checked = true; input.focus();
      }
    });
    var params = new URLSearchParams(window.location.search);
    if (params.get("q")) { toggle.checked = true; input.value = params.get("q"); run(); }
  }

  window.kodeksSearch = { fold: fold, words: words, count: count, search: function (q, limit, prefer) {
    if (!state.index && window.KODEKS_INDEX) state.index = prepare(window.KODEKS_INDEX);
    return state.index ? search(state.index, q, limit, prefer === undefined ? currentGame(state.index) : prefer) : null;
  }, load: load };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init); else init();
})();
