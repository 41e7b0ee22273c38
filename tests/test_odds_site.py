"""The odds calculator in the site (issue 24), in Chromium as a player sees it on a 390 px phone: a unit page's
chances panel opens prefilled from the unit, the opponent and the range change, the numbers on the screen are
the Python evaluator's (kodeks.odds) for the inputs on the screen, the address reopens the same result, from
disk and offline; the calculator page has every calculator of the game, a face-to-face one included.

The site is the mini fixture's with an `odds:` block (ODDS below, shaped like the shipped Ciernie i Gwiazdy
one, plus a face-to-face calculator and a unit whose name is markup); KODEKS_TEST_SITE=path/to/site runs the
same tests on the shipped content (its Ciernie i Gwiazdy has the same input ids). Screenshots go to SHOTS."""
import json
import os
import shutil
from pathlib import Path

import pytest

from conftest import CONTENT, MINI, ROOT, run_kodeks
from kodeks.model.ids import parse_ref
from kodeks.odds import model
from kodeks.odds.evaluate import evaluate
from kodeks.odds.report import grouped

SHOTS = ROOT / "build" / "screenshots" / "odds"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 1}
GAME = "ciernie-i-gwiazdy"
# Markup the validator lets through (a bare "< ", an entity, quotes): read as HTML, it would not be itself.
HOSTILE = 'Kot &amp; pies < 3 "x" \'y\' <br>'
ODDS = """
odds:
  die: 10
  rule: rule/dice
  roll: {pass: <=}
  calculators:
    - id: shooting
      name: {pl: Strzelanie, en: Shooting}
      rule: rule/actions
      inputs:
        - {id: us, name: {pl: US strzelającego, en: Firer's SHO}, from: attacker.stats.us, default: 6, min: 0, max: 10, rule: rule/dice}
        - {id: bands, name: {pl: Przekroczone progi zasięgu, en: Range bands exceeded}, default: 0, min: 0, max: 10, rule: rule/actions}
        - {id: cover, name: {pl: Cel w osłonie, en: Target in cover}, kind: flag, rule: rule/actions}
        - {id: rof, name: {pl: Szybkostrzelność, en: Rate of fire}, from: weapon.profile.rof, default: 1, min: 1, max: 10}
        - {id: damage, name: {pl: Obrażenia broni, en: Weapon damage}, from: weapon.profile.damage, default: 1, min: 0, max: 10}
        - {id: pen, name: {pl: Penetracja, en: Penetration}, from: weapon.profile.penetration, default: 0, min: -5, max: 15, rule: trait/piercing}
        - {id: kp, name: {pl: KP celu, en: Target's AC}, from: defender.stats.kp, default: 4, min: 0, max: 15}
      weapon:
        bands:
          rule: rule/actions
          label: {pl: '{abbr} {n}: progi {n}', en: '{abbr} {n}: bands {n}'}
          pattern: '^([0-9]+)$'
          groups: [n]
          set: {bands: n // 10}
          list: [{column: range}, {column: mass}]
      attack: {target: us - bands - cover, dice: rof}
      per_hit:
        save: {target: kp - (pen - bands), rule: trait/piercing}
        wounds_on_fail: max(min(damage, 1), damage - bands // 3)
        rule: trait/piercing
    - id: duel
      name: {pl: Pojedynek, en: Duel}
      rule: rule/melee
      inputs:
        - {id: ww, name: {pl: WW atakującego, en: Attacker's MEL}, from: attacker.stats.ww, default: 3, min: 0, max: 10, rule: rule/melee}
        - {id: ww_def, name: {pl: WW przeciwnika, en: Opponent's MEL}, from: defender.stats.ww, default: 3, min: 0, max: 10, rule: rule/melee}
        - {id: attacks, name: {pl: Ataki, en: Attacks}, default: 2, min: 1, max: 5}
        - {id: def_dice, name: {pl: Kości przeciwnika, en: Opponent's dice}, default: 1, min: 0, max: 5}
        - {id: kp, name: {pl: KP przeciwnika, en: Opponent's AC}, from: defender.stats.kp, default: 4, min: 0, max: 15}
      weapon:
        reads:
          - {column: damage, pattern: '^([0-9]+)$', groups: [d], add: {ww: d}}
      attack: {target: ww + 3, dice: attacks, critical: [equal]}
      defence:
        target: ww_def + 3
        dice: def_dice
        critical: [equal]
        compare: higher_roll_wins
        critical_beats_pass: true
        ties: higher_target_wins
        rule: rule/melee
      per_hit:
        save: {target: kp - 2, rule: rule/melee}
        rule: rule/melee
    - id: test
      name: {pl: Test cechy, en: Attribute test}
      rule: rule/dice
      inputs:
        - {id: value, name: {pl: Wartość, en: Value}, default: 5, min: 0, max: 10}
      attack: {target: value}
"""
HOSTILE_UNIT = f"""id: hostile
name: {{pl: {json.dumps(HOSTILE)}, en: {json.dumps(HOSTILE)}}}
category: army-list
faction: faction/army-list
type: {{pl: Piechota, en: Infantry}}
stats: {{sz: 5, us: 4, ww: 2, si: 2, zyw: 2, mo: 9, kp: 9, ek: 3}}
source: {{book: tgb, section: LISTA ARMII, lines: 2589-2624}}
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    if os.environ.get("KODEKS_TEST_SITE"):
        return Path(os.environ["KODEKS_TEST_SITE"]).resolve()
    tmp = tmp_path_factory.mktemp("odds-site")
    content = tmp / "content"
    shutil.copytree(MINI, content)
    with open(content / GAME / "game.yaml", "a", encoding="utf-8") as fh:
        fh.write(ODDS)
    (content / GAME / "unit" / "hostile.yaml").write_text(HOSTILE_UNIT, encoding="utf-8")
    run_kodeks("build", "--content", content, "--out", tmp / "out", "--no-pdf", cwd=tmp, check=True)
    return tmp / "out" / "site"


def _lang_site(site: Path, lang: str) -> Path:
    return site / "en" if lang == "en" else site


def _data(site: Path, lang: str = "pl", game: str = GAME) -> dict:
    """The game's data script as the page loads it: `(window.KODEKS_ODDS=...)["game"]={...};`."""
    text = (_lang_site(site, lang) / "assets" / f"kodeks-odds-{game}.js").read_text(encoding="utf-8")
    return json.loads(text.split("=", 2)[2].rstrip().removesuffix(";"))


def _face_to_face(site: Path) -> tuple[str, str]:
    """(game, calculator) of the first face-to-face calculator of the site: the fixture's duel, or Infinity's."""
    for script in sorted((site / "assets").glob("kodeks-odds-*.js")):
        game = script.name.removeprefix("kodeks-odds-").removesuffix(".js")
        for calc in _data(site, "pl", game)["decl"]["calculators"]:
            if calc.get("defence"):
                return game, calc["id"]
    raise AssertionError("no face-to-face calculator in the site")


def _python(decl: dict, calc_id: str, values: dict, game: str = GAME):
    odds = model.build(decl, game, lambda r: parse_ref(r, game))
    return evaluate(odds, odds.calculator(calc_id), values)


def _expected_rows(outcome) -> dict:
    """{data-odds-row: P} the panel must show for `outcome`, from the Python evaluator."""
    o, rows = outcome, {}
    if o.defence is None and outcome.wounds is None and o.attack.dice == 1:
        rows.update(pass_=1 - o.hits[0], fail=o.hits[0])
    else:
        rows.update({f"hits-{k}": p for k, (_, p) in enumerate(grouped(o.hits))})
    if o.defence is not None:
        rows.update(defender=o.defender_scores, nobody=o.nobody)
    if o.jam is not None:
        rows["jam"] = o.jam
    if o.wounds is not None:
        rows.update({f"wounds-{k}": p for k, (_, p) in enumerate(grouped(o.wounds))})
        rows.update({"p-wound": o.p_wound, "expected": o.expected_wounds})
    if o.criticals and not (o.defence is None and outcome.wounds is None and o.attack.dice == 1):
        rows.update({"crit-hit": o.p_critical_hit, "crit-hits-expected": o.expected_critical_hits})
        if o.wounds is not None:
            rows.update({"expected-normal": o.expected_wounds_normal, "expected-critical": o.expected_wounds_critical,
                         "p-wound-critical": o.p_wound_critical})
    return {k.rstrip("_"): float(v) for k, v in rows.items()}


NUMBERS = {"expected", "crit-hits-expected", "expected-normal", "expected-critical"}  # shown as numbers, not %


def _shown(page) -> dict:
    """{row: (P carried by the row, its visible value as a number)} of the results on the screen."""
    rows = page.locator(".kodeks-odds__table tbody tr").evaluate_all(
        "rs => rs.map(r => [r.dataset.oddsRow, +r.dataset.p, r.querySelector('.kodeks-odds__value').innerText])")
    out = {}
    for name, p, text in rows:
        out[name] = (p, float(text.replace(",", ".").replace("%", "").replace("\u00a0", "").strip()))
    return out


def _values(page) -> dict:
    return page.locator("[data-odds-input]").evaluate_all(
        "els => Object.fromEntries(els.map(e => [e.dataset.oddsInput, e.type === 'checkbox' ? +e.checked : +e.value]))")


def _check_numbers(page, decl: dict, calc_id: str, game: str = GAME) -> dict:
    """The numbers on the screen are the Python evaluator's for the inputs on the screen: the rows' own values
    to 1e-9, the visible text to its rounding."""
    values = _values(page)
    want = _expected_rows(_python(decl, calc_id, values, game))
    shown = _shown(page)
    for row, p in want.items():
        assert row in shown, (row, sorted(shown))
        got, text = shown[row]
        assert abs(got - p) < 1e-9, (row, got, p, values)
        if row in NUMBERS:
            assert abs(text - p) <= 0.005 + 1e-9, (row, text, p)
        else:
            assert abs(text - p * 100) <= 0.05 + 1e-9, (row, text, p)
    return shown


def _recorder(page) -> list:
    bad = []
    page.on("console", lambda m: bad.append(f"console: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: bad.append(f"error: {e}"))
    page.on("requestfailed", lambda r: bad.append(f"failed: {r.url}"))
    return bad


def _on_phone(page, selector: str) -> None:
    """Everything of the calculator is inside the 390 px window's width, and every control is a 44 px target."""
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    boxes = page.locator(f"{selector} :is(input, select, button, a, summary, .kodeks-odds__row--flag label, td, th)")
    for i in range(boxes.count()):
        el = boxes.nth(i)
        if not el.is_visible():
            continue
        box = el.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390 + 0.5, (i, box)
        tag, kind = el.evaluate("e => [e.tagName, e.type || '']")
        if tag in ("SELECT", "BUTTON", "A", "SUMMARY") or (tag == "INPUT" and kind == "number"):
            assert box["height"] >= 44 - 0.5, (tag, box)
    for label in page.locator(f"{selector} .kodeks-odds__row--flag label").all():
        assert label.bounding_box()["height"] >= 44 - 0.5


def _shoot(page, locator, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    locator.screenshot(path=str(SHOTS / f"{name}.png"))


def _pick_units(data: dict) -> tuple[str, str]:
    """A unit that prefills the shooting calculator as the attacker, and an opponent whose AC differs from
    the default."""
    attacker = next(u[0] for u in data["units"] if u[2].get("shooting", {}).get("us") is not None)
    default = next(i.get("default") for c in data["decl"]["calculators"] if c["id"] == "shooting"
                   for i in c["inputs"] if i["id"] == "kp")
    opponent = next(u for u in data["units"] if u[3].get("shooting", {}).get("kp") not in (None, default)
                    and u[0] != attacker)
    return attacker, opponent[0]


@pytest.mark.parametrize("lang", ["pl", "en"])
def test_a_unit_pages_chances_panel_prefilled_matches_python_and_reopens_from_its_address(site, browser, lang):
    data = _data(site, lang)
    decl = data["decl"]
    unit, opponent = _pick_units(data)
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    bad = _recorder(page)
    page.goto((_lang_site(site, lang) / GAME / "unit" / f"{unit}.html").as_uri())
    panel = page.locator(".kodeks-odds-panel")
    assert not page.locator(".kodeks-odds__table").count()  # nothing loaded before the player asks
    panel.locator("summary").click()
    page.locator(".kodeks-odds__table").first.wait_for()
    assert page.locator(".kodeks-odds__tabs [aria-pressed=true]").inner_text() == next(
        c["name"] for c in data["calculators"] if c["id"] == "shooting")

    # Prefilled from the unit (and its first weapon): what the page carries, which is what kodeks.odds prefills.
    carried = json.loads(page.locator("[data-odds-prefill]").get_attribute("data-odds-prefill"))
    assert carried["att"] == unit
    filled = dict(next(u for u in data["units"] if u[0] == unit)[2]["shooting"])
    if carried["wpn"]:
        filled.update(next(w for w in data["weapons"] if w[0] == carried["wpn"])[2].get("shooting", {}))
    assert carried["values"]["shooting"] == filled
    on_screen = _values(page)
    assert {k: on_screen[k] for k in filled} == filled
    _check_numbers(page, decl, "shooting")

    # The opponent from the list fills the target's values; then the range.
    page.select_option("[data-odds-pick=defender]", opponent)
    opp_kp = next(u for u in data["units"] if u[0] == opponent)[3]["shooting"]["kp"]
    assert page.input_value("[data-odds-input=kp]") == str(opp_kp)
    page.fill("[data-odds-input=bands]", "2")
    page.locator("[data-odds-input=bands]").dispatch_event("change")
    assert _values(page)["bands"] == 2
    shown = _check_numbers(page, decl, "shooting")
    assert page.locator(".kodeks-odds__bar").first.bounding_box()["width"] > 0
    _on_phone(page, ".kodeks-odds-panel")
    _shoot(page, panel, f"unit-panel-{lang}-390")

    # The address holds the result: reopened, the panel opens by itself with the same inputs and numbers.
    address = page.url
    assert "odds-calc=shooting" in address and f"odds-vs={opponent}" in address and "bands=2" in address
    values = _values(page)
    page2 = ctx.new_page()
    bad += _recorder(page2)
    page2.goto(address)
    page2.locator(".kodeks-odds__table").first.wait_for()
    assert page2.locator(".kodeks-odds-panel").evaluate("d => d.open")
    assert _values(page2) == values
    assert page2.input_value("[data-odds-pick=defender]") == opponent
    assert _shown(page2) == shown
    ctx.close()
    assert bad == [], "\n".join(bad)


def test_the_calculator_page_has_every_calculator_face_to_face_included(site, browser):
    game, f2f = _face_to_face(site)
    data = _data(site, "en", game)
    decl = data["decl"]
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    bad = _recorder(page)
    page.goto((site / "en" / game / "odds.html").as_uri())
    page.locator(".kodeks-odds__table").first.wait_for()
    tabs = page.locator(".kodeks-odds__tabs button")
    assert tabs.all_inner_texts() == [c["name"] for c in data["calculators"]]
    page.locator(f"[data-odds-calc={f2f}]").click()
    page.locator("[data-odds-row=defender]").wait_for()
    calc = next(c for c in data["calculators"] if c["id"] == f2f)
    labels = page.locator(".kodeks-odds__fields label").all_inner_texts()
    assert [lb for lb in labels if lb in {i["label"] for i in calc["inputs"]}] == [i["label"] for i in calc["inputs"]]
    # Each modifier links to its rule entry, a page of the site.
    rules = page.locator(".kodeks-odds__fields a.kodeks-odds__rule").evaluate_all("as => as.map(a => a.href)")
    assert len(rules) == sum(1 for i in calc["inputs"] if i["rule"]) and rules
    for href in rules:
        assert Path(href.removeprefix("file://")).is_file(), href
    shown = _check_numbers(page, decl, f2f, game)
    assert {"hits-0", "hits-1", "hits-2", "hits-3", "defender", "nobody", "p-wound", "expected"} <= set(shown)
    # Where the roll has criticals, the result says how much of it they are.
    assert {"crit-hit", "crit-hits-expected", "expected-normal", "expected-critical", "p-wound-critical"} <= set(shown)
    assert abs(shown["expected-normal"][0] + shown["expected-critical"][0] - shown["expected"][0]) < 1e-9
    # Nobody, the defender and the attacker's scores make up every outcome.
    assert abs(shown["defender"][0] + shown["nobody"][0] - shown["hits-0"][0]) < 1e-9
    page.fill(f"[data-odds-input={calc['inputs'][0]['id']}]", "99")  # out of range: said, not computed
    assert page.locator(".kodeks-odds__error").is_visible()
    assert page.locator("[aria-invalid=true]").count() == 1
    page.fill(f"[data-odds-input={calc['inputs'][0]['id']}]", "4")
    _check_numbers(page, decl, f2f, game)
    _on_phone(page, ".kodeks-odds")
    _shoot(page, page.locator("article"), f"calculator-page-{game}-en-390")
    assert "odds-calc=" + f2f in page.url
    ctx.close()
    assert bad == [], "\n".join(bad)


def test_the_game_home_and_nav_lead_to_the_calculator(site, browser):
    for lang in ("pl", "en"):
        ctx = browser.new_context(**PHONE)
        page = ctx.new_page()
        page.goto((_lang_site(site, lang) / GAME / "index.html").as_uri())
        link = page.locator(".kodeks-shortcuts a[href$='odds.html']")
        assert link.inner_text() == {"pl": "Kalkulator szans", "en": "Odds calculator"}[lang]
        assert link.bounding_box()["height"] >= 44 - 0.5
        assert page.locator(".md-nav a[href$='odds.html']").count() >= 1
        ctx.close()


def test_a_weapon_page_is_prefilled_with_the_weapons_profile(site, browser):
    data = _data(site)
    weapon = next(w for w in data["weapons"] if w[2].get("shooting"))
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    page.goto((site / GAME / "weapon" / f"{weapon[0]}.html").as_uri())
    if not page.locator(".kodeks-odds-panel").count():  # weapons listed on a page of their category
        page.goto((site / GAME / "weapon" / "index.html").as_uri())
        pytest.skip("this game's weapons have no pages of their own")
    page.locator(".kodeks-odds-panel summary").click()
    page.locator(".kodeks-odds__table").first.wait_for()
    on_screen = _values(page)
    assert {k: on_screen[k] for k in weapon[2]["shooting"]} == weapon[2]["shooting"]
    assert page.input_value("[data-odds-pick=weapon]") == weapon[0]
    _check_numbers(page, data["decl"], "shooting")
    ctx.close()


def test_content_reaches_the_calculator_as_text(site, browser):
    """A unit named with markup is an option's text in the opponent list, as written."""
    data = _data(site)
    if not any(u[1] == HOSTILE for u in data["units"]):
        pytest.skip("the hostile unit is only in the fixture")
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    page.goto((site / GAME / "odds.html").as_uri())
    page.locator(".kodeks-odds__table").first.wait_for()
    page.select_option("[data-odds-pick=defender]", "hostile")
    assert page.locator("[data-odds-pick=defender] option:checked").inner_text() == HOSTILE
    assert page.input_value("[data-odds-input=kp]") == "9"
    assert page.locator(".kodeks-odds br").count() == 0
    ctx.close()


def test_works_offline_from_a_shared_address(site, browser):
    from test_offline import Host
    host = Host(site)
    try:
        data = _data(site)
        unit, opponent = _pick_units(data)
        ctx = browser.new_context(**PHONE)
        page = ctx.new_page()
        page.goto(host.url + "index.html")
        page.evaluate("() => navigator.serviceWorker.ready.then(() => null)")
        page.reload()
        assert page.evaluate("() => !!navigator.serviceWorker.controller")
        shared = (host.url + f"{GAME}/unit/{unit}.html?odds-calc=shooting&odds-vs={opponent}&bands=1#odds")
        page.goto(shared)  # the unit's page is kept as it is opened; the calculator's scripts are in the shell
        page.locator(".kodeks-odds__table").first.wait_for()
        online = _shown(page)
        for _ in range(50):
            if page.evaluate("u => caches.match(u, {ignoreSearch: true}).then(Boolean)", shared):
                break
            page.wait_for_timeout(100)
        host.down = True
        ctx.set_offline(True)
        bad = _recorder(page)
        page.goto(shared)
        page.locator(".kodeks-odds__table").first.wait_for()
        assert _shown(page) == online
        _check_numbers(page, data["decl"], "shooting")
        page.goto(host.url + f"{GAME}/odds.html")  # the calculator page is in the shell: never opened, still there
        page.locator(".kodeks-odds__table").first.wait_for()
        _shoot(page, page.locator("article"), "calculator-page-offline-pl-390")
        assert bad == [], "\n".join(bad)
        ctx.close()
    finally:
        host.server.shutdown()


def test_only_games_with_dice_get_a_calculator():
    """Neuroshima Hex: Duel declares no dice: no calculator page, nav item, home link or panel."""
    from kodeks.project import load_and_check
    from kodeks.site import odds_pages, pages, sections
    from kodeks.site.render import Page
    kb = load_and_check(CONTENT, ROOT).kb
    dice = {g for g in kb.games if odds_pages.has_odds(kb, g)}
    assert dice == {"infinity", "warzone-4-1", "warzone-eternal", "ciernie-i-gwiazdy"}
    makers = pages.makers(kb, "pl", pages.templates())
    assert {p for p in makers if p.endswith("/odds.md")} == {odds_pages.odds_path(g) for g in dice}
    nav = json.dumps(pages.nav(kb, "en"))
    assert nav.count("/odds.md") == len(dice)
    assert "odds.html" not in pages.game_page(pages.templates(), kb, "neuroshima-hex-duel", "pl")
    unit = kb.of("neuroshima-hex-duel", "unit")[0]
    assert sections.odds(Page(kb, "pl", "x.md", unit), unit) == ""
    for g in dice:
        unit = kb.of(g, "unit")[0]
        assert 'data-kodeks-odds="' + g in sections.odds(Page(kb, "pl", "x.md", unit), unit)


@pytest.mark.parametrize("width", [390, 1366])
def test_axe_finds_no_wcag_21_aa_violation_in_the_calculator(site, browser, width):
    """The calculator page on its face-to-face tab, and a unit page with its panel open (tests/test_accessibility.py
    checks pages as they load, with every panel closed)."""
    from test_accessibility import _axe
    game, f2f = _face_to_face(site)
    unit, _ = _pick_units(_data(site))
    ctx = browser.new_context(**(PHONE if width == 390 else {"viewport": {"width": width, "height": 900}}))
    page = ctx.new_page()
    found = []
    for lang_site in (site, site / "en"):
        page.goto((lang_site / game / "odds.html").as_uri() + f"?odds-calc={f2f}")
        page.locator("[data-odds-row=defender]").wait_for()
        found += [f"{game}/odds.html: {v}" for v in _axe(page)]
        page.goto((lang_site / GAME / "unit" / f"{unit}.html").as_uri())
        page.locator(".kodeks-odds-panel summary").click()
        page.locator(".kodeks-odds__table").first.wait_for()
        found += [f"unit/{unit}.html: {v}" for v in _axe(page)]
    ctx.close()
    assert found == [], "\n".join(found)


def _banded(site: Path) -> list:
    """(game, calculator, weapon row, data) of the first weapon of each game that prints two range bands or more
    for a calculator."""
    out = []
    for script in sorted((site / "assets").glob("kodeks-odds-*.js")):
        game = script.name.removeprefix("kodeks-odds-").removesuffix(".js")
        data = _data(site, "en", game)
        found = next(((game, calc_id, w, data) for w in data["weapons"] for calc_id, bands in w[3][0][2].items()
                      if len(bands) >= 2), None)
        if found:
            out.append(found)
    assert out, "no weapon prints range bands"
    return out


def test_a_weapons_range_bands_and_profiles_are_a_choice(site, browser):
    """The bands a weapon prints are a list (read in Python: the page carries them), picking one sets the inputs
    it reads, typing one of them by hand says so, and the band and the profile (ammunition) live in the address.
    Every game whose weapons print bands."""
    ctx = browser.new_context(**PHONE)
    bad: list = []
    for game, cid, weapon, data in _banded(site):
        _bands_of_one_game(ctx, bad, site, game, cid, weapon, data)
    ctx.close()
    assert bad == [], "\n".join(bad)


def _bands_of_one_game(ctx, bad, site, game, cid, weapon, data):
    decl, bands = data["decl"], weapon[3][0][2][cid]
    calc = next(c for c in data["calculators"] if c["id"] == cid)
    page = ctx.new_page()
    bad += _recorder(page)
    page.goto((site / "en" / game / "odds.html").as_uri() + f"?odds-calc={cid}&odds-wpn={weapon[0]}")
    page.locator(".kodeks-odds__table").first.wait_for()
    band = page.locator("[data-odds-band]")
    assert band.is_visible()
    assert band.locator("option").all_inner_texts() == ["— typed values —"] + [b[1] for b in bands]
    assert band.input_value() == bands[0][0]  # the first band the weapon prints
    want = {**weapon[3][0][1].get(cid, {}), **bands[0][2]}
    assert {k: _values(page)[k] for k in want} == want
    _check_numbers(page, decl, cid, game)

    band.select_option(bands[1][0])
    assert {k: _values(page)[k] for k in bands[1][2]} == bands[1][2]
    shown = _check_numbers(page, decl, cid, game)
    assert f"odds-band={bands[1][0]}" in page.url
    _on_phone(page, ".kodeks-odds")
    _shoot(page, page.locator("article"), f"weapon-bands-{game}-en-390")

    page2 = ctx.new_page()
    bad += _recorder(page2)
    page2.goto(page.url)
    page2.locator(".kodeks-odds__table").first.wait_for()
    assert page2.input_value("[data-odds-band]") == bands[1][0]
    assert _shown(page2) == shown
    page2.close()

    # Typing a value a band sets: the list says the values are typed, and the numbers follow the typed value;
    # reopened, the address gives the typed value back and the list still says so.
    key = next(iter(bands[1][2]))
    typed = bands[1][2][key] + 1
    page.fill(f"[data-odds-input={key}]", str(typed))
    assert band.input_value() == ""
    assert _values(page)[key] == typed
    _check_numbers(page, decl, cid, game)
    assert "odds-band=none" in page.url
    page2 = ctx.new_page()
    page2.goto(page.url.replace("odds-band=none", f"odds-band={bands[1][0]}"))  # a band, then a value over it
    page2.locator(".kodeks-odds__table").first.wait_for()
    assert _values(page2)[key] == typed and page2.input_value("[data-odds-band]") == ""
    page2.close()

    # A weapon with several profiles (ammunition, modes): a second list, each profile its own values.
    several = next((w for w in data["weapons"] if len(w[3]) > 1 and w[3][0][1].get(cid) != w[3][1][1].get(cid)
                    and (calc["weapons"] is None or w[0] in calc["weapons"])), None)
    if several is not None:
        page.select_option("[data-odds-pick=weapon]", several[0])
        profile = page.locator("[data-odds-profile]")
        assert profile.locator("option").all_inner_texts() == [p[0] for p in several[3]]
        profile.select_option(value="1")
        defaults = {i["id"]: i.get("default", 0) for i in next(c for c in decl["calculators"] if c["id"] == cid)["inputs"]}
        want = {k: defaults[k] for k in calc["weapon_inputs"]}
        want.update(several[3][1][1].get(cid, {}))
        offered = several[3][1][2].get(cid, [])
        if offered:
            want.update(offered[0][2])
        assert {k: _values(page)[k] for k in want} == want
        _check_numbers(page, decl, cid, game)
        assert "odds-prof=2" in page.url
        page3 = ctx.new_page()
        page3.goto(page.url)
        page3.locator(".kodeks-odds__table").first.wait_for()
        assert page3.input_value("[data-odds-profile]") == "1"
        assert _values(page3) == _values(page)
        page3.close()
        _on_phone(page, ".kodeks-odds")
    page.close()


def test_a_weapon_that_adds_to_the_attackers_value_follows_the_attacker(site, browser):
    """A printed form relative to the wielder (Infinity's PH-2): the input is the attacker's own value plus what
    the weapon adds, and it follows when the attacker changes."""
    found = None
    for script in sorted((site / "assets").glob("kodeks-odds-*.js")):
        game = script.name.removeprefix("kodeks-odds-").removesuffix(".js")
        data = _data(site, "en", game)
        for calc in data["calculators"]:
            for k in calc["add_inputs"]:
                weapon = next((w for w in data["weapons"] if w[3][0][3].get(calc["id"], {}).get(k)), None)
                units = [u for u in data["units"] if k in u[2].get(calc["id"], {})]
                values = sorted({u[2][calc["id"]][k] for u in units})
                if weapon and len(values) >= 2:
                    found = game, calc, k, weapon, units, data
                    break
            if found:
                break
        if found:
            break
    assert found, "no weapon adds to an attacker's value"
    game, calc, k, weapon, units, data = found
    cid, add = calc["id"], weapon[3][0][3][calc["id"]][k]
    first = units[0]
    other = next(u for u in units if u[2][cid][k] != first[2][cid][k])
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    bad = _recorder(page)
    page.goto((site / "en" / game / "odds.html").as_uri() + f"?odds-calc={cid}&odds-att={first[0]}&odds-wpn={weapon[0]}")
    page.locator(".kodeks-odds__table").first.wait_for()
    assert _values(page)[k] == first[2][cid][k] + add
    if calc["weapons"] is not None:  # a calculator that takes some weapon categories lists only those
        listed = page.locator("[data-odds-pick=weapon] option").evaluate_all("os => os.map(o => o.value)")
        assert listed == [""] + [w[0] for w in data["weapons"] if w[0] in calc["weapons"]]
    page.select_option("[data-odds-pick=attacker]", other[0])
    assert _values(page)[k] == other[2][cid][k] + add
    _check_numbers(page, data["decl"], cid, game)
    page.select_option("[data-odds-pick=weapon]", "")
    assert _values(page)[k] == other[2][cid][k]
    ctx.close()
    assert bad == [], "\n".join(bad)
