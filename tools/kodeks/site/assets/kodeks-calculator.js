/* kodeks odds calculator: the form and the results of a game's odds calculators, on its calculator page and in
   the "chances" panel of its unit and weapon pages (site/odds_pages.py writes the placeholder and the game's
   data, assets/kodeks-odds-<game>.js; assets/kodeks-odds.js does the arithmetic). Both scripts load only on a
   page that has a placeholder, from the site's own assets, so it works from file:// and offline.
   Every label is content: the DOM is built with textContent, never from HTML. The open calculator's inputs
   live in the page address (odds-calc, odds-att, odds-wpn, odds-vs, then one parameter per input), so a
   result can be shared and reopened. */
(function () {
  "use strict";
  var WORDS = {
    pl: { tabs: "Kalkulatory", attacker: "Atakujący", weapon: "Broń", defender: "Przeciwnik", typed: "— wpisane wartości —",
          profile: "Amunicja / tryb broni", band: "Zasięg broni",
          rule: "Zasada", hits: "Trafienia atakującego", test: "Test", pass: "Sukces", critical: "w tym krytyczny",
          fail: "Porażka", defender_wins: "Obrońca wygrywa", nobody: "Nikt nie trafia", jam: "Zacięcie / błąd krytyczny",
          wounds: "Rany", p_wound: "Co najmniej 1 rana", expected: "Oczekiwane rany", outcome: "Wynik", chance: "Szansa",
          attack: "Atak", defence: "Obrona", target: "wartość", dice: "kości", per_die: "sukces na kość",
          auto: "automatyczna porażka", whole: "Wpisz liczbę całkowitą", range: "Dozwolone wartości:",
          loading: "Nie udało się wczytać kalkulatora.",
          p_crit_hit: "Co najmniej 1 trafienie krytyczne", e_crit_hits: "Oczekiwane trafienia krytyczne",
          e_w_normal: "Oczekiwane rany ze zwykłych trafień", e_w_crit: "Oczekiwane rany z trafień krytycznych",
          p_w_crit: "Co najmniej 1 rana z trafienia krytycznego" },
    en: { tabs: "Calculators", attacker: "Attacker", weapon: "Weapon", defender: "Opponent", typed: "— typed values —",
          profile: "Ammunition / weapon mode", band: "Weapon's range band",
          rule: "Rule", hits: "Attacker's hits", test: "Test", pass: "Success", critical: "of which critical",
          fail: "Failure", defender_wins: "The defender wins", nobody: "Nobody scores", jam: "Jam / critical failure",
          wounds: "Wounds", p_wound: "At least 1 wound", expected: "Expected wounds", outcome: "Outcome", chance: "Chance",
          attack: "Attack", defence: "Defence", target: "target", dice: "dice", per_die: "success per die",
          auto: "automatic failure", whole: "Enter a whole number", range: "Allowed values:",
          loading: "The calculator could not be loaded.",
          p_crit_hit: "At least 1 critical hit", e_crit_hits: "Expected critical hits",
          e_w_normal: "Expected wounds from normal hits", e_w_crit: "Expected wounds from critical hits",
          p_w_crit: "At least 1 wound from a critical hit" }
  };
  var META = { calc: "odds-calc", attacker: "odds-att", weapon: "odds-wpn", defender: "odds-vs" };
  var EXTRA = { profile: "odds-prof", band: "odds-band" };  // the weapon's profile (1, 2, ...) and range band

  function lang() { return document.documentElement.lang === "en" ? "en" : "pl"; }
  function base() {
    var cfg = document.getElementById("__config");
    try { return JSON.parse(cfg.textContent).base || "."; } catch (e) { return "."; }
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function script(src, done, fail) {
    var s = document.createElement("script");
    s.src = src;
    s.onload = done;
    s.onerror = fail;
    document.head.appendChild(s);
  }

  /* The evaluator and the game's data, each loaded once. */
  function load(game, done, fail) {
    var root = base() + "/assets/", left = 0;
    function one() { if (--left === 0) done(window.KodeksOdds, window.KODEKS_ODDS[game]); }
    if (!window.KodeksOdds) { left++; }
    if (!(window.KODEKS_ODDS && window.KODEKS_ODDS[game])) { left++; }
    if (!left) { left = 1; return one(); }
    if (!window.KodeksOdds) script(root + "kodeks-odds.js", one, fail);
    if (!(window.KODEKS_ODDS && window.KODEKS_ODDS[game])) script(root + "kodeks-odds-" + game + ".js", one, fail);
  }

  function percent(p) {
    return new Intl.NumberFormat(lang(), { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(p);
  }
  function number(x) {
    return new Intl.NumberFormat(lang(), { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(x);
  }
  function grouped(dist) {  // P(0), P(1), P(2), P(3+)
    var out = [0, 1, 2].map(function (k) { return dist[k] || 0; });
    out.push(dist.slice(3).reduce(function (a, b) { return a + b; }, 0));
    return out;
  }

  function Calculator(root, api, data) {
    this.root = root;
    this.api = api;
    this.data = data;
    this.w = WORDS[lang()];
    this.onEntry = !!root.closest("details");
    var pre = {};
    try { pre = JSON.parse(root.getAttribute("data-odds-prefill") || "{}") || {}; } catch (e) { pre = {}; }
    this.units = {};
    this.weapons = {};
    var self = this;
    data.units.forEach(function (u) { self.units[u[0]] = { name: u[1], attacker: u[2], defender: u[3] }; });
    data.weapons.forEach(function (wp) { self.weapons[wp[0]] = { name: wp[1], weapon: wp[2], profiles: wp[3] || [] }; });
    this.state = {};
    data.calculators.forEach(function (c) {
      var values = api.defaults(data.decl, c.id);
      var own = (pre.values || {})[c.id] || {};
      Object.keys(own).forEach(function (k) { values[k] = own[k]; });
      self.state[c.id] = { values: values, attacker: c.uses.indexOf("attacker") >= 0 && pre.att ? pre.att : "",
                           weapon: c.uses.indexOf("weapon") < 0 ? "" :
                             (pre.wpns && c.id in pre.wpns ? pre.wpns[c.id] : pre.wpn || ""), defender: "",
                           profile: 0, band: (pre.band || {})[c.id] || "" };
    });
    var params = new URLSearchParams(location.search);
    this.active = this.calc(params.get(META.calc)) ? params.get(META.calc) : data.calculators[0].id;
    if (params.get(META.calc)) this.fromAddress(params);
    this.draw();
  }

  Calculator.prototype.calc = function (id) {
    return this.data.calculators.filter(function (c) { return c.id === id; })[0] || null;
  };

  Calculator.prototype.range = function (id) {
    var inp = this.api.calculator(this.data.decl, this.active).inputs.filter(function (i) { return i.id === id; })[0];
    if (!inp) return null;
    if (inp.kind === "flag") return [0, 1];
    return [inp.min === undefined ? -Infinity : inp.min, inp.max === undefined ? Infinity : inp.max];
  };

  /* A shared address: the picked entries first, then each typed value (a value out of range is left out). */
  Calculator.prototype.fromAddress = function (params) {
    var st = this.state[this.active], self = this;
    ["attacker", "weapon", "defender"].forEach(function (who) {
      var id = params.get(META[who]);
      if (id !== null) self.pick(who, id);
    });
    var prof = params.get(EXTRA.profile), band = params.get(EXTRA.band);
    if (prof !== null && /^\d+$/.test(prof)) this.setProfile(parseInt(prof, 10) - 1);
    if (band !== null) this.setBand(band === "none" ? "" : band);
    Object.keys(st.values).forEach(function (k) {
      var raw = params.get(k), r = self.range(k);
      if (raw === null || !/^-?\d+$/.test(raw)) return;
      var v = parseInt(raw, 10);
      if (v >= r[0] && v <= r[1]) st.values[k] = v;
    });
    // A value typed over the band's: the band list says the values are typed.
    var picked = this.bands().filter(function (b) { return b[0] === st.band; })[0];
    if (picked && Object.keys(picked[2]).some(function (k) { return st.values[k] !== picked[2][k]; })) st.band = "";
  };

  /* Pick a unit (as attacker or opponent) or a weapon: the inputs its entry fills take its values. */
  Calculator.prototype.pick = function (who, id) {
    var st = this.state[this.active];
    var table = who === "weapon" ? this.weapons : this.units;
    if (id && !table[id]) return;
    if (who === "weapon" && id && !this.takes(id)) return;
    st[who] = id;
    if (who === "weapon") return this.setProfile(0, true);
    var filled = id ? (table[id][who] || {})[this.active] || {} : {};
    Object.keys(filled).forEach(function (k) { if (k in st.values) st.values[k] = filled[k]; });
    if (who === "attacker" && st.weapon) this.applyAdds();
  };

  /* What the weapon's profile adds to an input's own value (Infinity's PH-2: the attacker's PH, less 2); the own
     value is the attacker's, else the input's default. */
  Calculator.prototype.applyAdds = function () {
    var st = this.state[this.active], c = this.calc(this.active), wp = this.weapons[st.weapon];
    var prof = wp && wp.profiles[st.profile], adds = (prof && prof[3] && prof[3][this.active]) || {};
    var defaults = this.api.defaults(this.data.decl, this.active);
    var own = st.attacker && this.units[st.attacker] ? this.units[st.attacker].attacker[this.active] || {} : {};
    var self = this;
    (c.add_inputs || []).forEach(function (k) {
      if (!(k in st.values)) return;
      var v = (k in own ? own[k] : defaults[k]) + (adds[k] || 0), r = self.range(k);
      st.values[k] = v >= r[0] && v <= r[1] ? v : (k in own ? own[k] : defaults[k]);
    });
  };

  /* The picked weapon's profile `i` (0-based): every input a weapon sets goes back to its default, then takes
     what this profile prints; the range band stays if the profile prints it too, else the first it prints. */
  Calculator.prototype.setProfile = function (i, firstBand) {
    var st = this.state[this.active], c = this.calc(this.active), wp = this.weapons[st.weapon];
    var defaults = this.api.defaults(this.data.decl, this.active);
    (c.weapon_inputs || []).forEach(function (k) { if (k in defaults) st.values[k] = defaults[k]; });
    if (!wp) { st.profile = 0; st.band = ""; return this.applyAdds(); }
    var profiles = wp.profiles.length ? wp.profiles : [["", wp.weapon, {}]];
    st.profile = i >= 0 && i < profiles.length ? i : 0;
    var own = profiles[st.profile][1][this.active] || {};
    Object.keys(own).forEach(function (k) { if (k in st.values) st.values[k] = own[k]; });
    var bands = this.bands(), keep = !firstBand && bands.some(function (b) { return b[0] === st.band; });
    this.setBand(keep ? st.band : (bands.length ? bands[0][0] : ""));
    this.applyAdds();
  };

  /* [column, label, {input: value}] of each range band the picked weapon's profile prints. */
  Calculator.prototype.bands = function () {
    var st = this.state[this.active], wp = this.weapons[st.weapon];
    var prof = wp && wp.profiles[st.profile];
    return (prof && prof[2][this.active]) || [];
  };

  /* A band (its column) sets the inputs it reads; "" leaves them as typed. */
  Calculator.prototype.setBand = function (column) {
    var st = this.state[this.active];
    var band = this.bands().filter(function (b) { return b[0] === column; })[0];
    st.band = band ? column : "";
    if (band) Object.keys(band[2]).forEach(function (k) { if (k in st.values) st.values[k] = band[2][k]; });
  };

  /* Whether the open calculator takes this weapon (a calculator may take only some weapon categories). */
  Calculator.prototype.takes = function (id) {
    var only = this.calc(this.active).weapons;
    return !only || only.indexOf(id) >= 0;
  };

  Calculator.prototype.toAddress = function () {
    var st = this.state[this.active], params = new URLSearchParams(location.search);
    // Only the calculator's own parameters are replaced; any other the address carries stays.
    Object.keys(META).forEach(function (k) { params.delete(META[k]); });
    Object.keys(EXTRA).forEach(function (k) { params.delete(EXTRA[k]); });
    this.data.calculators.forEach(function (c) { c.inputs.forEach(function (i) { params.delete(i.id); }); });
    params.set(META.calc, this.active);
    ["attacker", "weapon", "defender"].forEach(function (who) { if (st[who]) params.set(META[who], st[who]); });
    var wp = this.weapons[st.weapon];
    if (wp && wp.profiles.length > 1) params.set(EXTRA.profile, String(st.profile + 1));
    if (wp && this.bands().length) params.set(EXTRA.band, st.band || "none");
    Object.keys(st.values).forEach(function (k) { params.set(k, String(st.values[k])); });
    var hash = this.onEntry ? "#odds" : location.hash;
    try { history.replaceState(history.state, "", "?" + params.toString() + hash); } catch (e) { /* not allowed here */ }
  };

  Calculator.prototype.ruleLink = function (rule) {
    var a = el("a", "kodeks-odds__rule", "§");
    a.href = base() + "/" + rule[1];
    a.title = this.w.rule + ": " + rule[0];
    a.setAttribute("aria-label", this.w.rule + ": " + rule[0]);
    return a;
  };

  Calculator.prototype.draw = function () {
    var self = this, w = this.w;
    this.root.textContent = "";
    var tabs = el("div", "kodeks-odds__tabs");
    tabs.setAttribute("role", "group");
    tabs.setAttribute("aria-label", w.tabs);
    this.data.calculators.forEach(function (c) {
      var b = el("button", null, c.name);
      b.type = "button";
      b.setAttribute("aria-pressed", c.id === self.active ? "true" : "false");
      b.setAttribute("data-odds-calc", c.id);
      b.addEventListener("click", function () {
        if (self.active === c.id) return;
        self.active = c.id;
        self.draw();
        self.toAddress();
      });
      tabs.appendChild(b);
    });
    if (this.data.calculators.length > 1) this.root.appendChild(tabs);
    var c = this.calc(this.active), st = this.state[this.active];
    if (c.rule) {
      var about = el("p", "kodeks-odds__about");
      var link = el("a", null, c.rule[0]);
      link.href = base() + "/" + c.rule[1];
      about.appendChild(el("span", null, w.rule + ": "));
      about.appendChild(link);
      this.root.appendChild(about);
    }
    var fields = el("div", "kodeks-odds__fields");
    c.uses.forEach(function (who) {
      fields.appendChild(self.chooser(who));
      if (who === "weapon") self.weaponRows().forEach(function (row) { fields.appendChild(row); });
    });
    c.inputs.forEach(function (inp) { fields.appendChild(self.field(inp, st)); });
    this.root.appendChild(fields);
    this.out = el("div", "kodeks-odds__result");
    this.out.setAttribute("aria-live", "polite");
    this.root.appendChild(this.out);
    this.compute();
  };

  Calculator.prototype.chooser = function (who) {
    var self = this, st = this.state[this.active], id = "odds-" + this.active + "-" + who;
    var row = el("div", "kodeks-odds__row kodeks-odds__row--pick");
    var label = el("label", null, this.w[who]);
    label.htmlFor = id;
    var select = el("select");
    select.id = id;
    select.setAttribute("data-odds-pick", who);
    select.appendChild(new Option(this.w.typed, ""));
    var table = who === "weapon" ? this.data.weapons : this.data.units;
    table.forEach(function (e) { if (who !== "weapon" || self.takes(e[0])) select.appendChild(new Option(e[1], e[0])); });
    select.value = st[who] || "";
    select.addEventListener("change", function () {
      self.pick(who, select.value);
      if (who === "weapon") return self.redraw(id);
      self.refresh();
      self.compute();
      self.toAddress();
    });
    row.appendChild(label);
    row.appendChild(select);
    return row;
  };

  /* Every input shows its value again (after a pick), with no error mark. */
  Calculator.prototype.refresh = function () {
    var st = this.state[this.active];
    this.root.querySelectorAll("[data-odds-input]").forEach(function (input) {
      var v = st.values[input.getAttribute("data-odds-input")];
      if (input.type === "checkbox") input.checked = v === 1; else input.value = String(v);
      input.removeAttribute("aria-invalid");
    });
  };

  /* The form again (the rows a weapon has changed), the focus back on the control that changed it. */
  Calculator.prototype.redraw = function (focus) {
    this.draw();
    var back = document.getElementById(focus);
    if (back) back.focus();
    this.toAddress();
  };

  /* Under the weapon: its profiles (ammunition, modes) when it has several, and the range bands it prints. */
  Calculator.prototype.weaponRows = function () {
    var self = this, w = this.w, st = this.state[this.active], wp = this.weapons[st.weapon], rows = [];
    var c = this.calc(this.active);
    if (!wp) return rows;
    function row(kind, labelText, options, value, onChange, rule) {
      var id = "odds-" + self.active + "-" + kind;
      var r = el("div", "kodeks-odds__row kodeks-odds__row--pick");
      var label = el("label", null, labelText);
      label.htmlFor = id;
      var select = el("select");
      select.id = id;
      select.setAttribute("data-odds-" + kind, "");
      options.forEach(function (o) { select.appendChild(new Option(o[1], o[0])); });
      select.value = value;
      select.addEventListener("change", function () { onChange(select.value); });
      r.appendChild(label);
      r.appendChild(select);
      if (rule) r.appendChild(self.ruleLink(rule));
      return r;
    }
    if (wp.profiles.length > 1) {
      rows.push(row("profile", w.profile, wp.profiles.map(function (p, i) { return [String(i), p[0]]; }),
                    String(st.profile), function (v) { self.setProfile(parseInt(v, 10)); self.redraw("odds-" + self.active + "-profile"); }));
    }
    var bands = this.bands();
    if (bands.length) {
      rows.push(row("band", w.band, [["", w.typed]].concat(bands.map(function (b) { return [b[0], b[1]]; })), st.band,
                    function (v) { self.setBand(v); self.refresh(); self.compute(); self.toAddress(); }, c.band_rule));
    }
    return rows;
  };

  Calculator.prototype.field = function (inp, st) {
    var self = this, id = "odds-" + this.active + "-" + inp.id, r = this.range(inp.id);
    var flag = r[0] === 0 && r[1] === 1 && this.api.calculator(this.data.decl, this.active).inputs
      .some(function (i) { return i.id === inp.id && i.kind === "flag"; });
    var row = el("div", "kodeks-odds__row" + (flag ? " kodeks-odds__row--flag" : ""));
    var label = el("label", null, inp.label);
    label.htmlFor = id;
    var input = el("input");
    input.id = id;
    input.setAttribute("data-odds-input", inp.id);
    if (flag) {
      input.type = "checkbox";
      input.checked = st.values[inp.id] === 1;
    } else {
      input.type = "number";
      input.inputMode = "numeric";
      input.step = "1";
      if (r[0] > -Infinity) input.min = String(r[0]);
      if (r[1] < Infinity) input.max = String(r[1]);
      input.value = String(st.values[inp.id]);
    }
    input.addEventListener(flag ? "change" : "input", function () {
      var v = flag ? (input.checked ? 1 : 0) : (/^\s*[-−]?\d+\s*$/.test(input.value) ? parseInt(input.value.replace("−", "-"), 10) : NaN);
      if (isNaN(v) || v < r[0] || v > r[1]) {
        input.setAttribute("aria-invalid", "true");
        self.problem(inp.label + ": " + (isNaN(v) ? self.w.whole : self.w.range + " " + r[0] + "…" + r[1]));
        return;
      }
      input.removeAttribute("aria-invalid");
      st.values[inp.id] = v;
      var c = self.calc(self.active), bandSelect = self.root.querySelector("[data-odds-band]");
      if (st.band && (c.band_inputs || []).indexOf(inp.id) >= 0) {
        st.band = "";
        if (bandSelect) bandSelect.value = "";
      }
      self.compute();
      self.toAddress();
    });
    if (flag) { row.appendChild(input); row.appendChild(label); } else { row.appendChild(label); row.appendChild(input); }
    // An input with no rule keeps the link's place, so the inputs stand in one column.
    row.appendChild(inp.rule ? this.ruleLink(inp.rule) : el("span", "kodeks-odds__rule"));
    return row;
  };

  Calculator.prototype.problem = function (text) {
    this.out.textContent = "";
    this.out.appendChild(el("p", "kodeks-odds__error", text)).setAttribute("role", "alert");
  };

  Calculator.prototype.compute = function () {
    var out;
    try {
      out = this.api.evaluate(this.data.decl, this.active, this.state[this.active].values);
    } catch (e) {
      return this.problem(e.message);
    }
    this.show(out);
  };

  /* A compact table per result: a row per outcome, its chance, and a bar of that length. */
  Calculator.prototype.show = function (o) {
    var w = this.w, box = this.out, decl = this.api.calculator(this.data.decl, this.active);
    box.textContent = "";
    var steps = [[w.attack, o.attack]].concat(o.defence ? [[w.defence, o.defence]] : []);
    var rolls = el("p", "kodeks-odds__rolls");
    steps.forEach(function (s, i) {
      var st = s[1];
      var line = s[0] + ": " + w.target + " " + st.target + ", " + st.dice + " " + w.dice + ", " + w.per_die + " " +
        percent(st.p_pass + st.p_critical) + (st.automatic_failure ? " (" + w.auto + ")" : "");
      if (i) rolls.appendChild(el("br"));
      rolls.appendChild(document.createTextNode(line));
    });
    box.appendChild(rolls);
    var rows = [];
    if (!o.defence && !decl.per_hit && o.attack.dice === 1) {
      rows.push(["pass", w.pass, 1 - o.hits[0]]);
      rows.push(["critical", w.critical, o.critical_hits[1] || 0]);
      rows.push(["fail", w.fail, o.hits[0]]);
      box.appendChild(this.table(w.test, rows));
    } else {
      grouped(o.hits).forEach(function (p, k) { rows.push(["hits-" + k, k === 3 ? "3+" : String(k), p]); });
      if (o.defence) {
        rows.push(["defender", w.defender_wins, o.defender_scores]);
        rows.push(["nobody", w.nobody, o.nobody]);
      }
      if (o.jam !== null) rows.push(["jam", w.jam, o.jam]);
      if (o.criticals) {
        rows.push(["crit-hit", w.p_crit_hit, o.p_critical_hit]);
        rows.push(["crit-hits-expected", w.e_crit_hits, o.expected_critical_hits, false, true]);
      }
      box.appendChild(this.table(w.hits, rows));
    }
    if (o.wounds) {
      rows = [["p-wound", w.p_wound, o.p_wound, true], ["expected", w.expected, o.expected_wounds, true, true]];
      grouped(o.wounds).forEach(function (p, k) { rows.push(["wounds-" + k, k === 3 ? "3+" : String(k), p]); });
      o.statuses.forEach(function (s, i) { rows.push(["status-" + i, s.name[lang()] || s.name.pl, s.p]); });
      if (o.criticals) {
        rows.push(["expected-normal", w.e_w_normal, o.expected_wounds_normal, false, true]);
        rows.push(["expected-critical", w.e_w_crit, o.expected_wounds_critical, false, true]);
        rows.push(["p-wound-critical", w.p_w_crit, o.p_wound_critical]);
      }
      box.appendChild(this.table(w.wounds, rows));
    }
  };

  Calculator.prototype.table = function (caption, rows) {
    var w = this.w, t = el("table", "kodeks-odds__table");
    t.appendChild(el("caption", null, caption));
    var head = t.createTHead().insertRow();
    [w.outcome, w.chance, ""].forEach(function (h) { var th = el("th", null, h); th.scope = "col"; head.appendChild(th); });
    head.lastChild.setAttribute("aria-hidden", "true");
    var body = t.createTBody();
    rows.forEach(function (r) {
      var tr = body.insertRow();
      tr.setAttribute("data-odds-row", r[0]);
      tr.setAttribute("data-p", String(r[2]));
      if (r[3]) tr.className = "kodeks-odds__key";
      var th = el("th", null, r[1]);
      th.scope = "row";
      tr.appendChild(th);
      tr.appendChild(el("td", "kodeks-odds__value", r[4] ? number(r[2]) : percent(r[2])));
      var cell = el("td", "kodeks-odds__barcell");
      cell.setAttribute("aria-hidden", "true");
      if (!r[4]) {
        var bar = el("span", "kodeks-odds__bar");
        bar.style.width = (Math.max(0, Math.min(1, r[2])) * 100).toFixed(1) + "%";
        cell.appendChild(bar);
      }
      tr.appendChild(cell);
    });
    return t;
  };

  function start(root) {
    var game = root.getAttribute("data-kodeks-odds");
    if (!/^[a-z0-9-]+$/.test(game || "")) return;
    load(game, function (api, data) {
      if (!api || !data) { root.textContent = WORDS[lang()].loading; return; }
      root.kodeksOdds = new Calculator(root, api, data);
    }, function () { root.textContent = WORDS[lang()].loading; });
  }

  function init() {
    document.querySelectorAll("[data-kodeks-odds]").forEach(function (root) {
      var panel = root.closest("details");
      if (panel && new URLSearchParams(location.search).has(META.calc)) panel.open = true;
      if (!panel || panel.open) return start(root);
      // On a unit or weapon page nothing is loaded until the player opens the panel.
      panel.addEventListener("toggle", function once() {
        if (!panel.open) return;
        panel.removeEventListener("toggle", once);
        start(root);
      });
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init); else init();
})();
