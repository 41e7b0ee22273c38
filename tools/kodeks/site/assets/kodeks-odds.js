/* kodeks odds: the exact chances of a dice test, from a game's `odds:` declaration (game.yaml).
 *
 * The same arithmetic as kodeks.odds.evaluate (Python, exact fractions), here in doubles so a page can run it
 * offline: enumeration and convolution, never sampling. tests/test_odds_js.py holds the two to 1e-9 on
 * thousands of random inputs per game. The declaration is read as written in game.yaml (plain JSON), so a
 * default or an expression means the same here as in Python.
 *
 * API (window.KodeksOdds in a page, module.exports under node):
 *   parse(text)                      -> expression tree (throws ExprError with .offset)
 *   calculator(decl, id)             -> the calculator's declaration, or null
 *   defaults(decl, id)               -> {input id: default value}
 *   evaluate(decl, id, values)       -> the outcome (see evaluate below); throws OddsError on bad inputs
 */
(function (root, factory) {
  'use strict';
  var api = factory();
  if (typeof module === 'object' && module.exports) {
    module.exports = api;
  } else {
    root.KodeksOdds = api;
  }
}(typeof self !== 'undefined' ? self : this, function () {
  'use strict';

  var MAX_DICE = 20;
  var MAX_LENGTH = 300;
  var MAX_DEPTH = 30;
  var FUNCTIONS = ['min', 'max', 'ceil'];
  var FAIL = 0, PASS = 1, CRIT = 2;

  function ExprError(message, offset) {
    this.name = 'ExprError';
    this.message = message;
    this.offset = offset || 0;
  }
  ExprError.prototype = Object.create(Error.prototype);

  function OddsError(message) {
    this.name = 'OddsError';
    this.message = message;
  }
  OddsError.prototype = Object.create(Error.prototype);

  // ---- expressions: the grammar of kodeks/odds/expr.py ----

  function tokens(text) {
    var out = [], pos = 0, re = /\s*(?:(\d+)|([a-z_][a-z0-9_]*)|(\/\/|[-+*\/(),]))/iy;
    while (pos < text.length) {
      if (text.slice(pos).trim() === '') break;
      re.lastIndex = pos;
      var m = re.exec(text);
      if (!m) {
        var at = pos + (text.slice(pos).length - text.slice(pos).replace(/^\s+/, '').length);
        throw new ExprError("'" + text[at] + "' is not part of an expression", at);
      }
      var start = m.index + m[0].length - (m[1] || m[2] || m[3]).length;
      if (m[1] !== undefined) out.push(['int', m[1], start]);
      else if (m[2] !== undefined) out.push(['name', m[2], start]);
      else out.push(['op', m[3], start]);
      pos = re.lastIndex;
    }
    if (!out.length) throw new ExprError('the expression is empty', 0);
    return out;
  }

  function parse(text) {
    if (typeof text === 'number') text = String(text);
    if (typeof text !== 'string') throw new ExprError('an expression is text or a whole number', 0);
    if (text.length > MAX_LENGTH) throw new ExprError('too long', MAX_LENGTH);
    var toks = tokens(text), i = 0;
    function peek() { return i < toks.length ? toks[i] : ['end', '', text.length]; }
    function isOp(v) { var t = peek(); return t[0] === 'op' && t[1] === v; }
    function take(v) {
      if (!isOp(v)) throw new ExprError("expected '" + v + "'", peek()[2]);
      i += 1;
    }
    function sum(depth) {
      var node = product(depth, false);
      while (isOp('+') || isOp('-')) {
        var op = peek()[1];
        i += 1;
        node = [op, node, product(depth, false)];
      }
      return node;
    }
    function product(depth, numerator) {
      var node = unary(depth);
      while (isOp('*') || isOp('//') || isOp('/')) {
        var op = peek()[1];
        if (op === '/') {
          if (numerator) break;
          throw new ExprError("'/' is allowed only as ceil(a / b)", peek()[2]);
        }
        i += 1;
        node = [op, node, unary(depth)];
      }
      return node;
    }
    function unary(depth) {
      if (depth > MAX_DEPTH) throw new ExprError('nested too deep', peek()[2]);
      if (isOp('-') || isOp('+')) {
        var neg = peek()[1] === '-';
        i += 1;
        var inner = unary(depth + 1);
        return neg ? ['neg', inner] : inner;
      }
      return atom(depth);
    }
    function atom(depth) {
      var t = peek();
      if (t[0] === 'int') {
        i += 1;
        if (t[1].length > 9) throw new ExprError('number too large', t[2]);
        return ['int', parseInt(t[1], 10)];
      }
      if (t[0] === 'name') {
        i += 1;
        if (isOp('(')) return call(t[1], t[2], depth);
        if (FUNCTIONS.indexOf(t[1]) >= 0) throw new ExprError("'" + t[1] + "' is a function", t[2]);
        return ['name', t[1]];
      }
      if (t[0] === 'op' && t[1] === '(') {
        i += 1;
        var node = sum(depth + 1);
        take(')');
        return node;
      }
      throw new ExprError('expected a number, a name or (', t[2]);
    }
    function call(name, offset, depth) {
      if (FUNCTIONS.indexOf(name) < 0) throw new ExprError("unknown function '" + name + "'", offset);
      take('(');
      if (name === 'ceil') {
        var top = product(depth + 1, true);
        if (!isOp('/')) throw new ExprError('ceil takes a division: ceil(a / b)', peek()[2]);
        i += 1;
        var bottom = unary(depth + 1);
        take(')');
        return ['ceil', top, bottom];
      }
      var args = [sum(depth + 1)];
      while (isOp(',')) {
        i += 1;
        args.push(sum(depth + 1));
      }
      take(')');
      if (args.length < 2) throw new ExprError(name + ' takes two or more values', offset);
      return [name].concat(args);
    }
    var tree = sum(0);
    if (i < toks.length) throw new ExprError("unexpected '" + toks[i][1] + "'", toks[i][2]);
    return tree;
  }

  function floorDiv(a, b) { return Math.floor(a / b); }

  function run(node, env) {
    var op = node[0];
    if (op === 'int') return node[1];
    if (op === 'name') {
      if (!(node[1] in env)) throw new OddsError("unknown name '" + node[1] + "'");
      return env[node[1]];
    }
    if (op === 'neg') return -run(node[1], env);
    if (op === 'min' || op === 'max') {
      var vals = node.slice(1).map(function (n) { return run(n, env); });
      return op === 'min' ? Math.min.apply(null, vals) : Math.max.apply(null, vals);
    }
    var a = run(node[1], env), b = run(node[2], env);
    if (op === '+') return a + b;
    if (op === '-') return a - b;
    if (op === '*') return a * b;
    if (b === 0) throw new OddsError('division by zero for these inputs');
    if (op === '//') return floorDiv(a, b);
    return -floorDiv(-a, b);  // ceil
  }

  var cache = {};
  function value(text, env, fallback) {
    if (text === undefined || text === null) {
      if (fallback === undefined) return null;
      text = fallback;
    }
    var key = typeof text + ':' + text;
    if (!(key in cache)) cache[key] = parse(text);
    return run(cache[key], env);
  }

  function count(text, env, fallback, what) {
    var n = value(text, env, fallback);
    if (n < 0 || n > MAX_DICE) throw new OddsError(what + ' = ' + n + ': a step rolls 0 to ' + MAX_DICE + ' dice');
    return n;
  }

  // ---- one die against a target: kodeks/odds/dice.py ----

  function rulesOf(step, roll) {
    function pick(k, d) { return step[k] !== undefined ? step[k] : (roll[k] !== undefined ? roll[k] : d); }
    var crit = pick('critical', []);
    var natural = pick('natural', {});
    var nat = {};
    Object.keys(natural).forEach(function (k) { nat[parseInt(k, 10)] = natural[k] === 'pass'; });
    return {
      pass: pick('pass', '<='), clamp: pick('clamp', null), natural: nat,
      equal: crit.indexOf('equal') >= 0, faces: crit.filter(function (c) { return typeof c === 'number'; }),
      extra: !!pick('extra_criticals_above_die', false)
    };
  }

  function saveRules(save, roll) {
    var r = rulesOf({pass: save.pass, clamp: save.clamp, natural: save.natural, critical: [],
                     extra_criticals_above_die: false},
                    {pass: roll.pass, clamp: roll.clamp, natural: roll.natural});
    return r;
  }

  function passes(r, op, t) {
    if (op === '<=') return r <= t;
    if (op === '<') return r < t;
    if (op === '>=') return r >= t;
    return r > t;
  }

  function effective(t, rules) {
    return rules.clamp ? Math.max(rules.clamp[0], Math.min(rules.clamp[1], t)) : t;
  }

  function faceTable(die, target, rules, automatic) {
    var out = [], r;
    if (automatic) {
      for (r = 1; r <= die; r++) out.push(FAIL);
      return out;
    }
    var t = effective(target, rules);
    var extra = rules.extra && t > die;
    var compared = extra ? Math.min(t, die) : t;
    for (r = 1; r <= die; r++) {
      if (rules.natural[r] === false) { out.push(FAIL); continue; }
      var ok = r in rules.natural ? rules.natural[r] : passes(r, rules.pass, compared);
      if (rules.faces.indexOf(r) >= 0 || (extra && r >= 2 * die - t) || (rules.equal && ok && r === compared)) {
        out.push(CRIT);
      } else {
        out.push(ok ? PASS : FAIL);
      }
    }
    return out;
  }

  function margin(r, op, t) {
    if (op === '<=') return r - t;
    if (op === '<') return r - t + 1;
    if (op === '>=') return t - r;
    return t - r + 1;
  }

  // ---- distributions ----

  function multinomial(n, pn, pc) {
    // {"a,c": P} of (normal, critical) successes over n dice
    var dist = {'0,0': 1}, miss = 1 - pn - pc;
    for (var k = 0; k < n; k++) {
      var next = {};
      Object.keys(dist).forEach(function (key) {
        var p = dist[key], ac = key.split(','), a = +ac[0], c = +ac[1];
        if (miss) add(next, a + ',' + c, p * miss);
        if (pn) add(next, (a + 1) + ',' + c, p * pn);
        if (pc) add(next, a + ',' + (c + 1), p * pc);
      });
      dist = next;
    }
    return dist;
  }

  function add(obj, key, p) { obj[key] = (obj[key] || 0) + p; }

  function countOf(table, status) {
    var n = 0;
    for (var i = 0; i < table.length; i++) if (table[i] === status) n++;
    return n;
  }

  function listOf(obj) {
    var top = 0;
    Object.keys(obj).forEach(function (k) { if (obj[k] && +k > top) top = +k; });
    var out = [];
    for (var k = 0; k <= top; k++) out.push(obj[k] || 0);
    return out;
  }

  function convolve(a, b) {
    var out = [];
    for (var k = 0; k < a.length + b.length - 1; k++) out.push(0);
    for (var i = 0; i < a.length; i++) {
      if (!a[i]) continue;
      for (var j = 0; j < b.length; j++) if (b[j]) out[i + j] += a[i] * b[j];
    }
    return out;
  }

  function power(dist, n) {
    var out = [1];
    for (var k = 0; k < n; k++) out = convolve(out, dist);
    return out;
  }

  function burstWithJam(table, n, die, jamAt, jam) {
    var groups = {};
    table.forEach(function (status, idx) {
      var r = idx + 1, jammed = r >= jamAt;
      if (jammed && jam.misses) status = FAIL;
      add(groups, status + ',' + (jammed ? 1 : 0), 1);
    });
    var dist = {'1,0,0': 1};
    for (var k = 0; k < n; k++) {
      var next = {};
      Object.keys(dist).forEach(function (key) {
        var p = dist[key], s = key.split(','), alive = s[0] === '1', a = +s[1], c = +s[2];
        if (!alive) { add(next, key, p); return; }
        Object.keys(groups).forEach(function (g) {
          var gs = g.split(','), status = +gs[0], jammed = gs[1] === '1';
          var q = p * groups[g] / die;
          var still = !(jammed && jam.stops_burst);
          add(next, (still ? 1 : 0) + ',' + (a + (status === PASS ? 1 : 0)) + ',' + (c + (status === CRIT ? 1 : 0)), q);
        });
      });
      dist = next;
    }
    var out = {};
    Object.keys(dist).forEach(function (key) {
      var s = key.split(',');
      add(out, s[1] + ',' + s[2], dist[key]);
    });
    return out;
  }

  function ranks(table, die, compare, critFirst) {
    return table.map(function (status, idx) {
      var r = idx + 1;
      if (status === FAIL) return [0, false];
      var rank = compare === 'higher_roll_wins' ? r : die + 1 - r;
      if (status === CRIT && critFirst) rank += die;
      return [rank, status === CRIT];
    });
  }

  function best(rk, n, die, top) {
    var per = [], k;
    for (k = 0; k <= top; k++) per.push(0);
    rk.forEach(function (x) { per[x[0]] += 1 / die; });
    var out = [], below = 0, prev = 0;
    for (k = 0; k <= top; k++) {
      below += per[k];
      var cdf = Math.pow(below, n);
      out.push(cdf - prev);
      prev = cdf;
    }
    return out;
  }

  function faceToFace(aRanks, na, bRanks, nb, die, tie) {
    var top = 2 * die, aBest = best(aRanks, na, die, top), bBest = best(bRanks, nb, die, top);
    var attacker = {}, defender = {};
    bBest.forEach(function (pb, b) {
      if (!pb) return;
      var pn = 0, pc = 0;
      aRanks.forEach(function (x) {
        if (x[0] && (x[0] > b || (x[0] === b && tie === 'a'))) {
          if (x[1]) pc += 1 / die; else pn += 1 / die;
        }
      });
      var m = multinomial(na, pn, pc);
      Object.keys(m).forEach(function (key) { add(attacker, (b > 0 ? 1 : 0) + ',' + key, pb * m[key]); });
    });
    aBest.forEach(function (pa, a) {
      if (!pa) return;
      var pBeat = 0;
      bRanks.forEach(function (x) {
        if (x[0] && (x[0] > a || (x[0] === a && tie === 'b'))) pBeat += 1 / die;
      });
      var m = multinomial(nb, pBeat, 0);
      Object.keys(m).forEach(function (key) { add(defender, key.split(',')[0], pa * m[key]); });
    });
    return [attacker, defender];
  }

  function perHit(decl, calc, env, critical) {
    var ph = calc.per_hit, e = Object.assign({}, env), failed = 0, ch = ph.critical_hit;
    if (critical && ch) {
      Object.keys(ch.add || {}).forEach(function (k) { e[k] = env[k] + value(ch.add[k], env); });
      failed = value(ch.failed_saves, env, '0');
    }
    var w = value(ph.wounds_on_fail, e, '1');
    if (w < 0) throw new OddsError('wounds_on_fail = ' + w + ': wounds cannot be negative');
    var save = ph.save;
    var single = {};
    if (!save) {
      single[w] = 1;
      return [listOf(single), {}];
    }
    var target = value(save.target, e);
    var k = count(save.rolls, e, '1', 'save rolls');
    failed = Math.min(Math.max(failed, 0), k);
    var rolled = k - failed, die = decl.die;
    var rules = saveRules(save, decl.roll || {});
    var table = faceTable(die, target, rules, false);
    var bands = save.bands || [];
    var p, out, i;
    if (!bands.length) {
      var pFail = countOf(table, FAIL) / die;
      if (save.worst_of) {
        p = failed ? 1 : 1 - Math.pow(1 - pFail, rolled);
        var d = {};
        if (w) { d[w] = p; d[0] = 1 - p; } else { d[0] = 1; }
        return [listOf(d), {}];
      }
      var dist = {}, m = multinomial(rolled, pFail, 0);
      Object.keys(m).forEach(function (key) { add(dist, (+key.split(',')[0] + failed) * w, m[key]); });
      return [listOf(dist), {}];
    }
    var t = effective(target, rules), perBand = bands.map(function () { return 0; });
    for (var r = 1; r <= die; r++) {
      var mg = margin(r, rules.pass, t);
      for (i = 0; i < bands.length; i++) {
        if (bands[i].up_to === undefined || bands[i].up_to === null || mg <= bands[i].up_to) break;
      }
      perBand[i] += 1 / die;
    }
    var last = bands.length - 1, statuses = [];
    bands.forEach(function (b) { if (b.status && statuses.indexOf(b.status.pl) < 0) statuses.push(b.status.pl); });
    function statusOf(j) { return bands[j].status ? bands[j].status.pl : null; }
    var clear = {};
    if (save.worst_of) {
      var worst = bands.map(function () { return 0; });
      if (failed) {
        worst[last] = 1;
      } else {
        var cum = 0, prev = 0;
        for (i = 0; i < bands.length; i++) {
          cum += perBand[i];
          var cdf = Math.pow(cum, rolled);
          worst[i] = cdf - prev;
          prev = cdf;
        }
      }
      var wd = {};
      worst.forEach(function (q, j) { add(wd, bands[j].wounds || 0, q); });
      statuses.forEach(function (s) {
        clear[s] = 0;
        worst.forEach(function (q, j) { if (statusOf(j) !== s) clear[s] += q; });
      });
      return [listOf(wd), clear];
    }
    var one = {};
    bands.forEach(function (b) { add(one, b.wounds || 0, 0); });
    perBand.forEach(function (q, j) { add(one, bands[j].wounds || 0, q); });
    var oneList = listOf(one);
    out = [1];
    for (i = 0; i < rolled; i++) out = convolve(out, oneList);
    var lastOnly = {};
    lastOnly[bands[last].wounds || 0] = 1;
    for (i = 0; i < failed; i++) out = convolve(out, listOf(lastOnly));
    statuses.forEach(function (s) {
      var q = 0;
      perBand.forEach(function (pb, j) { if (statusOf(j) !== s) q += pb; });
      q = Math.pow(q, rolled);
      clear[s] = failed && statusOf(last) === s ? 0 : q;
    });
    return [out, clear];
  }

  /* Whether the attacker's roll can score a critical at all (the declaration, whatever the inputs). */
  function hasCriticals(decl, calc) {
    var r = rulesOf(calc.attack, decl.roll || {});
    return !!(r.equal || r.faces.length || r.extra);
  }

  function mean(dist) {
    return dist.reduce(function (acc, p, k) { return acc + k * p; }, 0);
  }

  function calculator(decl, id) {
    var calcs = decl.calculators || [];
    for (var i = 0; i < calcs.length; i++) if (calcs[i].id === id) return calcs[i];
    return null;
  }

  function inputRange(inp) {
    if (inp.kind === 'flag') return [0, 1];
    return [inp.min === undefined ? null : inp.min, inp.max === undefined ? null : inp.max];
  }

  function defaults(decl, id) {
    var calc = calculator(decl, id), out = {};
    (calc ? calc.inputs : []).forEach(function (inp) { out[inp.id] = inp.default === undefined ? 0 : inp.default; });
    return out;
  }

  function resolve(calc, values) {
    var env = {}, known = {};
    calc.inputs.forEach(function (inp) { known[inp.id] = true; });
    Object.keys(values || {}).forEach(function (k) {
      if (!known[k]) throw new OddsError("unknown input '" + k + "' for " + calc.id);
    });
    calc.inputs.forEach(function (inp) {
      var v = values && values[inp.id] !== undefined ? values[inp.id] : (inp.default === undefined ? 0 : inp.default);
      if (typeof v !== 'number' || Math.floor(v) !== v) throw new OddsError(inp.id + ' must be a whole number');
      var range = inputRange(inp);
      if ((range[0] !== null && v < range[0]) || (range[1] !== null && v > range[1])) {
        throw new OddsError(inp.id + ' = ' + v + ' is out of its range');
      }
      env[inp.id] = v;
    });
    return env;
  }

  function step(decl, st, env, name) {
    var target = value(st.target, env);
    var n = count(st.dice, env, '1', name + ' dice');
    var auto = st.automatic_failure !== undefined && value(st.automatic_failure, env) > 0;
    var table = faceTable(decl.die, target, rulesOf(st, decl.roll || {}), auto);
    return {
      info: {target: target, dice: n, p_pass: countOf(table, PASS) / decl.die,
             p_critical: countOf(table, CRIT) / decl.die, automatic_failure: auto},
      table: table,
      jamAt: st.jam ? value(st.jam.at, env) : null
    };
  }

  /* The outcome, as kodeks.odds.report.as_json gives it (floats): hits[k] = P(the attacker scores k hits),
   * critical_hits, defender_scores / nobody / defender_hits (face-to-face), jam, per_hit {normal, critical},
   * wounds[k], p_wound, expected_wounds, statuses [{name: {pl, en}, p}]. */
  function evaluate(decl, id, values) {
    var calc = calculator(decl, id);
    if (!calc) throw new OddsError("unknown calculator '" + id + "'");
    var env = resolve(calc, values), die = decl.die;
    var a = step(decl, calc.attack, env, 'attack');
    var jam = calc.attack.jam;
    var out = {calculator: id, inputs: Object.assign({}, env), attack: a.info, defence: null,
               defender_scores: null, nobody: null, defender_hits: null, jam: null, per_hit: null,
               per_hit_defender_passed: null, wounds: null, p_wound: null, expected_wounds: null, statuses: [],
               criticals: false, p_critical_hit: null, expected_critical_hits: null, expected_wounds_normal: null,
               expected_wounds_critical: null, p_wound_critical: null};
    if (jam) {
      var pj = 0;
      if (!a.info.automatic_failure) for (var r = 1; r <= die; r++) if (r >= a.jamAt) pj += 1 / die;
      out.jam = 1 - Math.pow(1 - pj, a.info.dice);
    }
    var hits = {};  // "ctx,normal,critical" -> P
    if (calc.defence) {
      var d = calc.defence, b = step(decl, d, env, 'defence'), tie = null;
      out.defence = b.info;
      if (d.ties === 'higher_target_wins' && a.info.target !== b.info.target) {
        tie = a.info.target > b.info.target ? 'a' : 'b';
      }
      var critFirst = d.critical_beats_pass === undefined ? true : d.critical_beats_pass;
      var compare = d.compare || 'higher_roll_wins';
      var res = faceToFace(ranks(a.table, die, compare, critFirst), a.info.dice,
                           ranks(b.table, die, compare, critFirst), b.info.dice, die, tie);
      hits = res[0];
      out.defender_hits = listOf(res[1]);
      out.defender_scores = 1 - (res[1][0] || 0);
    } else {
      var m;
      if (jam && (jam.stops_burst || jam.misses) && !a.info.automatic_failure) {
        m = burstWithJam(a.table, a.info.dice, die, a.jamAt, jam);
      } else {
        m = multinomial(a.info.dice, a.info.p_pass, a.info.p_critical);
      }
      Object.keys(m).forEach(function (key) { add(hits, '0,' + key, m[key]); });
    }
    var total = {}, crits = {};
    Object.keys(hits).forEach(function (key) {
      var s = key.split(',');
      add(total, +s[1] + +s[2], hits[key]);
      add(crits, +s[2], hits[key]);
    });
    out.hits = listOf(total);
    out.critical_hits = listOf(crits);
    if (hasCriticals(decl, calc)) {
      out.criticals = true;
      out.p_critical_hit = 1 - out.critical_hits[0];
      out.expected_critical_hits = mean(out.critical_hits);
    }
    if (calc.defence) out.nobody = 1 - (1 - out.hits[0]) - out.defender_scores;
    if (!calc.per_hit) return out;
    var per = {}, ctxs = {0: true};
    Object.keys(hits).forEach(function (key) { if (hits[key]) ctxs[key.split(',')[0]] = true; });
    Object.keys(ctxs).forEach(function (ctx) {
      var e = Object.assign({}, env);
      if (calc.defence) e.defender_passed = +ctx;
      per[ctx] = [perHit(decl, calc, e, false), perHit(decl, calc, e, true)];
    });
    out.per_hit = {normal: per[0][0][0], critical: per[0][1][0]};
    if (per[1] && JSON.stringify(per[1]) !== JSON.stringify(per[0])) {
      out.per_hit_defender_passed = {normal: per[1][0][0], critical: per[1][1][0]};
    }
    var wounds = {}, clear = {}, names = {}, statuses = [];
    if (calc.per_hit.save && calc.per_hit.save.bands) {
      calc.per_hit.save.bands.forEach(function (bd) {
        if (bd.status && !(bd.status.pl in names)) { names[bd.status.pl] = bd.status; statuses.push(bd.status.pl); }
      });
    }
    statuses.sort();
    var eNormal = 0, eCrit = 0, noCritWound = 0;
    Object.keys(hits).forEach(function (key) {
      var p = hits[key];
      if (!p) return;
      var s = key.split(','), pc = per[s[0]], n = +s[1], c = +s[2];
      eNormal += p * n * mean(pc[0][0]);
      eCrit += p * c * mean(pc[1][0]);
      noCritWound += p * Math.pow(pc[1][0][0] || 0, c);
      var dist = convolve(power(pc[0][0], n), power(pc[1][0], c));
      dist.forEach(function (q, k) { if (q) add(wounds, k, p * q); });
      statuses.forEach(function (st) {
        var qn = st in pc[0][1] ? pc[0][1][st] : 1, qc = st in pc[1][1] ? pc[1][1][st] : 1;
        add(clear, st, p * Math.pow(qn, n) * Math.pow(qc, c));
      });
    });
    out.wounds = listOf(wounds);
    out.p_wound = 1 - out.wounds[0];
    out.expected_wounds = out.wounds.reduce(function (acc, p, k) { return acc + k * p; }, 0);
    out.statuses = statuses.map(function (st) { return {name: names[st], p: 1 - clear[st]}; });
    if (out.criticals) {
      out.expected_wounds_normal = eNormal;
      out.expected_wounds_critical = eCrit;
      out.p_wound_critical = 1 - noCritWound;
    }
    return out;
  }

  return {parse: parse, evaluate: evaluate, calculator: calculator, defaults: defaults,
          ExprError: ExprError, OddsError: OddsError, MAX_DICE: MAX_DICE};
}));
