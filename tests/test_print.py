"""Cards on paper as they come out of the printer: how many a sheet holds (the arithmetic, the site's print page
printed by Chromium and the PDF of `kodeks cards` from WeasyPrint, counted page by page), a roster's count as
that many cards, the sheet preview on a phone, and the roster's inputs. Screenshots of the print page at 390
and 1366 px go to build/screenshots/ for a reviewer."""
import io
import re

import pytest
from pypdf import PdfReader

from conftest import MINI, run_kodeks
from kodeks.cards.layout import PAPERS, SIZES, grid
from test_screen import PHONE, SHOTS

G = "ciernie-i-gwiazdy"
UNIT, TITLE = "heavy-drone", "Ciężki dron bojowy"  # a unit whose card fits the poker size in both renderers
RULES = "Zasady użyte na tych kartach"
# Cards of each size an upright grid fits on each paper, counted by hand: A6 is a quarter of A4 (2 x 105 = 210,
# 2 x 148 = 296 of 297 mm); three tarot cards are exactly A4's width (3 x 70 = 210); Letter is 279.4 mm tall,
# under two A6 cards (296 mm).
FITS = {("a4", "poker"): 9, ("a4", "tarot"): 6, ("a4", "a6"): 4,
        ("letter", "poker"): 9, ("letter", "tarot"): 6, ("letter", "a6"): 2}
PRINTS = [("a4", "poker"), ("a4", "tarot"), ("a4", "a6"), ("letter", "a6")]
MM = 96 / 25.4  # CSS px per mm


def test_a_sheet_holds_as_many_cards_as_physically_fit():
    for (paper, size), n in FITS.items():
        (pw, ph), (cw, ch) = PAPERS[paper], SIZES[size]
        cols, rows = grid(paper, size)
        assert cols * rows == n, (paper, size)
        assert cols * cw <= pw and rows * ch <= ph  # they fit
        assert (cols + 1) * cw > pw and (rows + 1) * ch > ph  # another column or row would not
        assert (pw // ch) * (ph // cw) <= n  # and turned sideways no more fit


def _cards_per_page(pdf: bytes) -> tuple[list[int], list[str]]:
    reader = PdfReader(io.BytesIO(pdf))
    texts = [" ".join(page.extract_text().split()) for page in reader.pages]
    return [t.count(TITLE) for t in texts], texts


def _expected_pages(paper: str, size: str, texts: list[str], counts: list[int]) -> None:
    """A sheetful and one more card: a full sheet, a sheet of one, then the rules, and not one blank page."""
    per = FITS[paper, size]
    assert counts[:2] == [per, 1], f"{per + 1} {size} cards on {paper}: {counts}"
    assert counts[2:] and not any(counts[2:]) and texts[2].startswith(RULES), texts[2][:80]
    assert all(texts), [i + 1 for i, t in enumerate(texts) if not t]


@pytest.fixture(scope="module")
def mini_site(tmp_path_factory):
    out = tmp_path_factory.mktemp("print-site")
    run_kodeks("build", "--content", MINI, "--out", out, cwd=MINI.parent, check=True)
    return out / "site"


def _print_page(mini_site, query: str) -> str:
    return (mini_site / f"{G}/cards/index.html").resolve().as_uri() + "?" + query


@pytest.mark.parametrize("paper,size", PRINTS)
def test_the_print_page_prints_full_sheets_in_chromium(mini_site, browser, paper, size):
    n = FITS[paper, size] + 1
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    page.goto(_print_page(mini_site, f"size={size}&paper={paper}&roster={UNIT}:{n}"))
    page.wait_for_timeout(300)
    pdf = page.pdf(prefer_css_page_size=True)
    page.close()
    counts, texts = _cards_per_page(pdf)
    _expected_pages(paper, size, texts, counts)
    box = PdfReader(io.BytesIO(pdf)).pages[0].mediabox
    mm = (float(box.width) * 25.4 / 72, float(box.height) * 25.4 / 72)  # from points
    assert tuple(map(round, mm)) == tuple(map(round, PAPERS[paper]))


@pytest.mark.parametrize("paper,size", PRINTS)
def test_kodeks_cards_prints_full_sheets(tmp_path, paper, size):
    n = FITS[paper, size] + 1
    out = tmp_path / "cards.pdf"
    proc = run_kodeks("cards", G, "--content", MINI, "--units", f"{UNIT}:{n}", "--size", size, "--paper", paper,
                      "-o", out, cwd=MINI.parent, check=True)
    counts, texts = _cards_per_page(out.read_bytes())
    _expected_pages(paper, size, texts, counts)
    assert f"{n} cards on {len(texts)} pages ({n} {size})" in proc.stdout
    assert not re.search(r"×\d", texts[0])  # copies are plain cards, no ×n badge ("2× Karabinek" is a weapon)


def _card_boxes(page_box, inked=None):
    """Border boxes (x0, y0, x1, y1 in mm) of the cards WeasyPrint laid out on one page; `inked`, when given,
    gets how far right (mm) each card's content reaches and where the card cuts it off (its padding edge)."""
    out, todo = [], [(page_box, None)]
    while todo:
        box, card = todo.pop()
        if getattr(box, "element_tag", None) == "article" and "kc" in (box.element.get("class") or "").split():
            x, y = box.border_box_x() / MM, box.border_box_y() / MM
            out.append((x, y, x + box.border_width() / MM, y + box.border_height() / MM))
            card = len(out) - 1
            if inked is not None:
                inked[card] = [0.0, (box.padding_box_x() + box.padding_width()) / MM]
        elif card is not None and inked is not None:
            inked[card][0] = max(inked[card][0], (box.border_box_x() + box.border_width()) / MM)
        todo.extend((child, card) for child in getattr(box, "children", []))
    return out


@pytest.mark.parametrize("paper,size", [("a4", "tarot"), ("a4", "a6"), ("letter", "tarot")])
def test_pdf_cards_lie_whole_inside_the_paper_at_their_size(paper, size):
    from kodeks.cards.content import cards_for
    from kodeks.cards.pdf import render_pdf
    from kodeks.project import load_and_check
    kb = load_and_check(MINI, MINI.parent).kb
    card = next(c for c in cards_for(kb, G, "pl") if c.key.id == UNIT)
    card.count = n = FITS[paper, size]
    rendered, info = render_pdf(kb, [card], "pl", size, paper)
    assert info["cards"] == n and info["sizes"][size] == n
    boxes = _card_boxes(rendered.pages[0]._page_box)
    pw, ph = PAPERS[paper]
    assert len(boxes) == n
    for x0, y0, x1, y1 in boxes:
        assert (round(x1 - x0, 1), round(y1 - y0, 1)) == SIZES[size]  # true to size
        assert x0 >= -0.01 and y0 >= -0.01 and x1 <= pw + 0.01 and y1 <= ph + 0.01, (x0, y0, x1, y1)
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert min(a[2], b[2]) - max(a[0], b[0]) < 0.01 or min(a[3], b[3]) - max(a[1], b[1]) < 0.01  # no overlap


def test_no_pdf_card_is_cut_off_at_its_right_edge():
    """A table wider than a poker card (the speeder's weapons) takes a larger card, as in the browser."""
    from kodeks.cards.content import cards_for
    from kodeks.cards.pdf import render_pdf
    from kodeks.project import load_and_check
    kb = load_and_check(MINI, MINI.parent).kb
    rendered, info = render_pdf(kb, cards_for(kb, G, "pl"), "pl", "poker", "a4")
    checked = 0
    for page in rendered.pages:
        inked: dict = {}
        _card_boxes(page._page_box, inked)
        for reach, edge in inked.values():
            assert reach <= edge + 0.1, f"content reaches {reach:.1f} mm, the card ends at {edge:.1f} mm"
            checked += 1
    assert checked == info["cards"] + info["sizes"]["backs"] and info["sizes"]["poker"] >= 1


def test_the_browser_and_the_pdf_pack_sheets_alike(mini_site, browser):
    from kodeks.cards.content import cards_for
    from kodeks.cards.pdf import fit
    from kodeks.project import load_and_check
    page = browser.new_page()
    page.goto(_print_page(mini_site, "size=poker"))
    page.wait_for_timeout(300)
    for paper, size in FITS:
        assert tuple(page.evaluate(f"kodeksCards.grid('{paper}', '{size}')")) == grid(paper, size)
    shown = page.locator(".kodeks-sheets .kc:not(.kc--back-only)").evaluate_all(
        "els => Object.fromEntries(els.map(e => [e.dataset.unit, e.dataset.size]))")
    page.close()
    kb = load_and_check(MINI, MINI.parent).kb
    cards = cards_for(kb, G, "pl")
    printed = {cards[p.index].key.id: p.size for p in fit(kb, cards, "pl") if p.part != "back"}
    assert shown == printed  # each card takes the same size in both


SHEETS = """() => {
  const r = e => { const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
  const box = document.querySelector('.kodeks-sheets');
  return {box: r(box), scroll: [box.scrollWidth, box.clientWidth], page: document.scrollingElement.scrollWidth,
          sheets: [...box.querySelectorAll('.ks')].map(r), cards: [...box.querySelectorAll('.kc')].map(r)};
}"""


@pytest.mark.parametrize("width", [390, 1366])
def test_the_sheet_preview_shows_whole_cards(mini_site, browser, width):
    ctx = browser.new_context(**(PHONE if width == 390 else {"viewport": {"width": width, "height": 900}}))
    page = ctx.new_page()
    page.goto(_print_page(mini_site, f"size=a6&paper=a4&roster={UNIT}:4,speeder"))
    page.wait_for_timeout(300)
    seen = page.evaluate(SHEETS)
    x0, _, x1, _ = seen["box"]
    assert seen["page"] <= width and seen["scroll"][0] <= seen["scroll"][1] + 1  # nothing to scroll sideways
    assert len(seen["cards"]) == 5
    for left, top, right, bottom in seen["sheets"] + seen["cards"]:
        assert x0 - 0.5 <= left and right <= x1 + 0.5 and 0 <= left and right <= width
    for left, top, right, bottom in seen["cards"]:  # an A6 card keeps its shape, only smaller
        assert abs((bottom - top) / (right - left) - 148 / 105) < 0.02
    sheet_w = seen["sheets"][0][2] - seen["sheets"][0][0]
    assert sheet_w >= min(x1 - x0, 210 * MM) - 2  # as large as the column allows, up to true size
    (SHOTS / str(width)).mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / str(width) / "print-sheets.png"), full_page=True)
    page.emulate_media(media="print")  # the printed sheet is true to size whatever the screen
    printed = page.evaluate(SHEETS)
    assert abs((printed["sheets"][0][2] - printed["sheets"][0][0]) - 210 * MM) < 1
    assert page.locator(".kodeks-sheets-summary").is_hidden()  # said on screen, not printed
    ctx.close()


def test_a_unit_page_shows_its_whole_card_on_a_phone(mini_site, browser):
    ctx = browser.new_context(**PHONE)
    page = ctx.new_page()
    page.goto((mini_site / f"{G}/unit/huge.html").resolve().as_uri())  # an A6 card, wider than the phone
    page.wait_for_timeout(300)
    cards = page.locator(".kodeks-card-preview > .kc").evaluate_all("""els => els.map(c => {
      const b = c.getBoundingClientRect();
      return {size: c.dataset.size, box: [b.left, b.top, b.right, b.bottom], cut: c.scrollWidth > c.clientWidth + 1};
    })""")
    assert len(cards) >= 3 and page.evaluate("document.scrollingElement.scrollWidth") <= 390
    for c in cards:
        left, top, right, bottom = c["box"]
        assert 0 <= left and right <= 390 and not c["cut"], c  # whole, nothing cut off at its right edge
        w, h = SIZES[c["size"]]
        assert abs((bottom - top) / (right - left) - h / w) < 0.02, c  # its own shape, only smaller
    (SHOTS / "390").mkdir(parents=True, exist_ok=True)
    page.locator(".kodeks-card-preview").screenshot(path=str(SHOTS / "390" / "print-unit-card.png"))
    ctx.close()


def _rgba(css: str) -> tuple[float, float, float, float]:
    parts = [float(v) for v in re.findall(r"[\d.]+", css)]
    return (*parts[:3], parts[3] if len(parts) > 3 else 1.0)


def _over(fg: str, bg: str) -> tuple[float, float, float]:
    f, b = _rgba(fg), _rgba(bg)
    return tuple(f[i] * f[3] + b[i] * (1 - f[3]) for i in range(3))


def _contrast(a, b) -> float:
    def lum(c):
        c = [v / 255 for v in c]
        c = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in c]
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


INPUTS = """() => [...document.querySelectorAll('.kodeks-print-controls :is(input, select)')].map(e => {
  const s = getComputedStyle(e), b = e.getBoundingClientRect();
  return {name: e.name || e.dataset.rosterUnit, border: parseFloat(s.borderTopWidth), style: s.borderTopStyle,
          color: s.borderTopColor, bg: s.backgroundColor, text: s.color, h: b.height, w: b.width,
          page: getComputedStyle(document.body).backgroundColor};
})"""


RING = """() => { const e = document.activeElement, s = getComputedStyle(e);
  return {tag: e.tagName, name: e.name || e.dataset.rosterUnit, style: s.outlineStyle,
          width: parseFloat(s.outlineWidth), color: s.outlineColor,
          page: getComputedStyle(document.body).backgroundColor}; }"""


@pytest.mark.parametrize("scheme", ["default", "slate"])
@pytest.mark.parametrize("width", [390, 1366])
def test_roster_inputs_look_like_inputs(mini_site, browser, width, scheme):
    ctx = browser.new_context(**(PHONE if width == 390 else {"viewport": {"width": width, "height": 900}}))
    page = ctx.new_page()
    page.goto(_print_page(mini_site, f"roster={UNIT}:2"))
    page.wait_for_timeout(200)
    page.evaluate(f"document.body.setAttribute('data-md-color-scheme', '{scheme}')")
    page.locator("details.kodeks-roster summary").click()
    fields = page.evaluate(INPUTS)
    assert {f["name"] for f in fields} >= {"size", "paper", "roster", UNIT, "speeder"}
    for f in fields:
        edge = _over(f["color"], f["page"])
        assert f["border"] >= 1 and f["style"] == "solid", f
        assert _contrast(edge, _over(f["page"], "rgb(255,255,255)")) >= 3, f  # the field's edge is seen
        assert _contrast(_over(f["text"], f["bg"]), _over(f["bg"], f["page"])) >= 4.5, f  # its text is read
        assert f["h"] >= 44 and f["w"] >= 44, f
    assert page.locator(f"input[data-roster-unit={UNIT}]").input_value() == "2"
    page.locator("input[name=roster]").click()
    rings = [page.evaluate(RING)]
    while rings[-1]["name"] != UNIT and len(rings) < 6:  # on by keyboard to the first count
        page.keyboard.press("Tab")
        rings.append(page.evaluate(RING))
    assert [r["name"] for r in rings if r["tag"] == "INPUT"] == ["roster", UNIT]
    for ring in rings:
        if ring["tag"] == "INPUT":  # the theme's buttons and the table's scroll box have their own focus style
            assert ring["style"] == "solid" and ring["width"] >= 2, ring
            assert _contrast(_over(ring["color"], ring["page"]), _over(ring["page"], "rgb(255,255,255)")) >= 3, ring
    folder = SHOTS / str(width)
    folder.mkdir(parents=True, exist_ok=True)
    page.locator("details.kodeks-roster").screenshot(path=str(folder / f"print-roster-{scheme}.png"))
    ctx.close()
