"""Unit cards: the PDF (WeasyPrint), the print page in Chromium, rosters, players' own units."""
import pathlib
import re

import pytest
from pypdf import PdfReader

from conftest import MINI, run_kodeks

G = "ciernie-i-gwiazdy"
EXTRA = pathlib.Path(__file__).parent / "fixtures" / "extra_units"


def pdf_text(path):
    reader = PdfReader(str(path))
    return reader, "\n".join(page.extract_text() for page in reader.pages)


def test_pdf_has_a4_pages_with_stats_and_weapon_profile(tmp_path):
    out = tmp_path / "cards.pdf"
    proc = run_kodeks("cards", G, "--content", MINI, "--units", "heavy-drone,speeder", "-o", out, cwd=MINI.parent)
    assert proc.returncode == 0, proc.stderr
    reader, text = pdf_text(out)
    assert len(reader.pages) >= 2  # the cards' sheet(s), then the rules they use
    w, h = float(reader.pages[0].mediabox.width), float(reader.pages[0].mediabox.height)
    assert (round(w), round(h)) == (595, 842)  # A4 in points
    flat = " ".join(text.split())
    assert "Ciężki dron bojowy" in flat and "Ścigacz" in flat
    assert re.search(r"SZ US WW SI UD ŻYW MO KP EK 4\" 5 0 3 — 3 - 6 2", flat), flat[:400]  # UD is a gap: a dash
    assert "źródło nie podaje tej wartości" in flat
    assert "Karabinek magnetyczny" in flat and re.search(r"Armata magnetyczna .*RnT 25\" 6 \+8 4", flat)
    assert "Zasady użyte na tych kartach" in flat and "Unik" in flat


def test_letter_paper_tarot_size_and_english(tmp_path):
    out = tmp_path / "cards.pdf"
    run_kodeks("cards", G, "--content", MINI, "--units", "heavy-drone", "--size", "tarot", "--paper", "letter",
               "--lang", "en", "-o", out, cwd=MINI.parent, check=True)
    reader, text = pdf_text(out)
    assert (round(float(reader.pages[0].mediabox.width)), round(float(reader.pages[0].mediabox.height))) == (612, 792)
    assert "Heavy combat drone" in text and "Rules used on these cards" in text


def test_a_roster_count_prints_that_many_cards_and_unknown_units_are_refused(tmp_path):
    out = tmp_path / "r.pdf"
    proc = run_kodeks("cards", G, "--content", MINI, "--units", "heavy-drone:2,heavy-drone:1", "-o", out,
                      cwd=MINI.parent, check=True)
    reader, text = pdf_text(out)
    assert reader.pages[0].extract_text().count("Ciężki dron bojowy") == 3  # three cards on one sheet
    assert "×3" not in text  # plain copies, not one card marked ×3
    assert "3 cards on 2 pages (3 poker)" in proc.stdout
    bad = run_kodeks("cards", G, "--content", MINI, "--units", "nope", "-o", out, cwd=MINI.parent)
    assert bad.returncode == 2 and "unknown unit" in bad.stderr


def test_a_card_too_long_for_a6_prints_whole_on_two_sides(tmp_path):
    out = tmp_path / "huge.pdf"
    proc = run_kodeks("cards", G, "--content", MINI, "--units", "huge", "-o", out, cwd=MINI.parent, check=True)
    assert "a6" in proc.stdout
    _, text = pdf_text(out)
    flat = " ".join(text.split())
    assert flat.count("Ogromny oddział z mnóstwem zasad") >= 3  # a front and the backs the lines need
    assert flat.count("Unik II") == 40  # every skill line once


def test_players_own_units_are_validated_and_printed(tmp_path):
    out = tmp_path / "own.pdf"
    proc = run_kodeks("cards", G, "--content", MINI, "--extra", EXTRA, "--units", "my-drone", "-o", out, cwd=MINI.parent)
    assert proc.returncode == 0, proc.stderr
    assert "Mój dron" in pdf_text(out)[1]
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "x.yaml").write_text("id: x\nname: {pl: X}\nstats: {sz: 5, zz: 1}\nsource: {book: tgb, section: s}\n",
                                   encoding="utf-8")
    proc = run_kodeks("cards", G, "--content", MINI, "--extra", broken, "-o", out, cwd=MINI.parent)
    assert proc.returncode == 1 and "x.yaml:3:16: error: stat 'zz' is not defined" in proc.stderr


# --- the print page in the browser -----------------------------------------------------------------

@pytest.fixture(scope="module")
def mini_site(tmp_path_factory):
    out = tmp_path_factory.mktemp("cards-site")
    run_kodeks("build", "--content", MINI, "--out", out, cwd=MINI.parent, check=True)
    return out / "site"




BOXES = """() => {
  const r = e => { const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
  return [...document.querySelectorAll('.kodeks-sheets .ks')].map(s => ({sheet: r(s),
    cards: [...s.querySelectorAll('.kc')].map(c => ({box: r(c), kids: [...c.querySelectorAll(':scope > *:not([hidden])')]
      .filter(k => getComputedStyle(k).display !== 'none').map(r)}))}));
}"""


def _overlap(a, b):
    return min(a[2], b[2]) - max(a[0], b[0]) > 0.5 and min(a[3], b[3]) - max(a[1], b[1]) > 0.5


@pytest.mark.parametrize("paper,size", [("a4", "poker"), ("a4", "tarot"), ("a4", "a6"), ("letter", "tarot")])
def test_print_media_keeps_every_card_whole_inside_its_page(mini_site, browser, paper, size):
    page = browser.new_page(viewport={"width": 1200, "height": 1000})
    page.goto((mini_site / f"{G}/cards/index.html").resolve().as_uri() + f"?paper={paper}&size={size}")
    page.emulate_media(media="print")
    page.wait_for_timeout(300)
    sheets = page.evaluate(BOXES)
    assert sheets and sum(len(s["cards"]) for s in sheets) >= 4
    mm = 96 / 25.4
    paper_h = {"a4": 297, "letter": 279.4}[paper] * mm
    for s in sheets:
        sx0, sy0, sx1, sy1 = s["sheet"]
        assert abs((sy1 - sy0) - paper_h) < 2  # one sheet is one page
        boxes = [c["box"] for c in s["cards"]]
        for c in s["cards"]:
            x0, y0, x1, y1 = c["box"]
            assert sx0 - 0.5 <= x0 and x1 <= sx1 + 0.5 and sy0 - 0.5 <= y0 and y1 <= sy1 + 0.5  # no card crosses the edge
            for k in c["kids"]:  # and nothing inside a card is cut off
                assert k[3] <= y1 + 0.5 and k[2] <= x1 + 0.5
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                assert not _overlap(boxes[i], boxes[j])
    pdf = page.pdf(prefer_css_page_size=True)
    assert pdf[:4] == b"%PDF"
    page.close()


def test_roster_in_the_address_prints_only_those_cards_as_many_as_counted(mini_site, browser):
    page = browser.new_page()
    page.goto((mini_site / f"{G}/cards/index.html").resolve().as_uri() + "?roster=heavy-drone:2,heavy-drone:1,speeder")
    page.wait_for_timeout(300)
    units = page.locator(".kodeks-sheets .kc").evaluate_all("els => els.map(e => e.dataset.unit)")
    assert sorted(units) == ["heavy-drone"] * 3 + ["speeder"]
    assert page.locator(".kodeks-sheets .kc__count").evaluate_all("els => els.filter(e => e.offsetParent).length") == 0
    said = page.locator(".kodeks-sheets-summary")
    assert said.is_visible() and "4 karty" in said.inner_text() and "Ciężki dron bojowy ×3" in said.inner_text()
    shown = page.locator(".kodeks-rules-sheet [data-rule]:not([hidden]) h3").all_inner_texts()
    assert "Unik" in shown and "Robot" in shown
    page.locator("details.kodeks-roster summary").click()
    page.locator("input[data-roster-unit=speeder]").fill("4")
    page.locator("input[data-roster-unit=speeder]").dispatch_event("change")
    assert "speeder%3A4" in page.url or "speeder:4" in page.url
    page.close()


def test_a_card_with_too_much_content_is_shown_whole_in_the_site(mini_site, browser):
    page = browser.new_page()
    page.goto((mini_site / f"{G}/unit/huge.html").resolve().as_uri())
    page.wait_for_timeout(200)
    cards = page.locator(".kodeks-card-preview .kc")
    assert cards.count() >= 3  # a front and as many backs as the reminder lines need
    for i in range(cards.count()):
        assert cards.nth(i).evaluate("c => c.scrollHeight <= c.clientHeight + 1")
    lines = page.locator(".kodeks-card-preview .kc__back li").evaluate_all(
        "els => els.filter(e => e.offsetParent !== null).length")
    assert lines == 40 + 1  # every skill line once (40 Unik II, 1 weapon rule), none lost
    page.close()
    page.close()
