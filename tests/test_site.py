"""The built site: a page per entry in both languages, the language switch, links, gaps, translations."""
import json
import re
from html import unescape
from pathlib import Path

import pytest

from conftest import CONTENT, MINI, ROOT, run_kodeks
from kodeks.project import load_and_check
from kodeks.site import urls
from kodeks.site.linkcheck import check_site


def text_of(path: Path) -> str:
    html = path.read_text(encoding="utf-8")
    article = re.search(r"<article.*?</article>", html, re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", article.group(0))))


@pytest.fixture(scope="module")
def mini_site(tmp_path_factory):
    out = tmp_path_factory.mktemp("mini")
    run_kodeks("build", "--content", MINI, "--out", out, cwd=MINI.parent, check=True)
    return out / "site"


def test_every_entry_has_a_page_in_both_languages(mini_site):
    kb = load_and_check(MINI, MINI.parent).kb
    for entry in kb.entries.values():
        page = urls.html_path(urls.entry_path(entry))
        assert (mini_site / page).is_file(), page
        assert (mini_site / "en" / page).is_file(), page


def test_language_switch_lands_on_the_same_entry(mini_site):
    pl = (mini_site / "ciernie-i-gwiazdy/skill/dodge.html").read_text(encoding="utf-8")
    assert 'name="kodeks-live"' not in pl, "a published page does not poll a preview server"
    en_link = re.search(r'href="([^"]+)" hreflang="en" lang="en"', pl).group(1)
    assert (mini_site / "ciernie-i-gwiazdy/skill" / en_link).resolve() == (mini_site / "en/ciernie-i-gwiazdy/skill/dodge.html").resolve()
    en = (mini_site / "en/ciernie-i-gwiazdy/skill/dodge.html").read_text(encoding="utf-8")
    pl_link = re.search(r'href="([^"]+)" hreflang="pl" lang="pl"', en).group(1)
    assert (mini_site / "en/ciernie-i-gwiazdy/skill" / pl_link).resolve() == (mini_site / "ciernie-i-gwiazdy/skill/dodge.html").resolve()


def test_no_broken_internal_links_or_anchors(mini_site):
    report = check_site(mini_site)
    assert report.pages > 40 and report.links > 1000
    assert report.broken == []


def test_unit_page_shows_stats_gaps_weapons_and_source(mini_site):
    text = text_of(mini_site / "ciernie-i-gwiazdy/unit/heavy-drone.html")
    assert "SZ US WW SI UD ŻYW MO KP EK 4\" 5 0 3 — 3 - 6 2" in text  # UD is a gap: a dash, never 0
    assert "źródło nie podaje tej wartości" in text
    assert "2× Karabinek magnetyczny 1 10\" 1 - 1" in text
    assert "Unik I" in text and "LISTA ARMII" in text
    en = text_of(mini_site / "en/ciernie-i-gwiazdy/unit/heavy-drone.html")
    assert "SPD SHO MEL STR LOAD VIT MOR AC SHD" in en and "the source does not give this value" in en


def test_missing_english_is_shown_in_polish_and_marked(mini_site):
    en = text_of(mini_site / "en/ciernie-i-gwiazdy/rule/melee.html")
    assert "not yet translated" in en and "Model z Unikiem jest trudniej trafić" in en
    pl = text_of(mini_site / "ciernie-i-gwiazdy/rule/melee.html")
    assert "brak tłumaczenia" not in pl


def test_used_by_lists_units_and_linking_entries(mini_site):
    text = text_of(mini_site / "ciernie-i-gwiazdy/skill/dodge.html")
    assert "Używane przez" in text and "Ciężki dron bojowy" in text and "Walka wręcz" in text


def test_rules_index_is_a_tree_in_book_order(mini_site):
    text = text_of(mini_site / "ciernie-i-gwiazdy/rule/index.html")
    assert text.index("Kości") < text.index("Akcje") < text.index("Walka wręcz")


def test_heading_anchors_keep_polish_letters_readable():
    from kodeks.site.slug import slugify
    assert slugify("Żołnierz łączności") == "zolnierz-lacznosci"


def test_export_writes_documented_shape(tmp_path):
    out = tmp_path / "kb.json"
    run_kodeks("export", "--content", MINI, "-o", out, cwd=MINI.parent, check=True)
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["format"] == "kodeks-kb" and data["games"][0]["id"] == "ciernie-i-gwiazdy"
    drone = next(e for e in data["entries"] if e["id"] == "heavy-drone")
    assert drone["stats"]["ud"] == {"gap": True, "reason": None}
    assert drone["weapons"] == [{"ref": "ciernie-i-gwiazdy/weapon/badm-carbine", "count": 2}]
    assert drone["url"]["en"] == "en/ciernie-i-gwiazdy/unit/heavy-drone.html"
    dodge = next(e for e in data["entries"] if e["id"] == "dodge")
    assert dodge["links"] == ["ciernie-i-gwiazdy/rule/melee"]
    assert {u["key"] for u in dodge["used_by"]} == {"ciernie-i-gwiazdy/unit/heavy-drone", "ciernie-i-gwiazdy/rule/melee",
                                                   "ciernie-i-gwiazdy/term/dodge-term", "ciernie-i-gwiazdy/unit/huge"}


def test_failed_build_keeps_the_previous_site(tmp_path, mini):
    out = tmp_path / "out"
    run_kodeks("build", "--content", mini, "--out", out, cwd=mini.parent, check=True)
    before = (out / "site/index.html").read_text(encoding="utf-8")
    (mini / "ciernie-i-gwiazdy/skill/dodge.yaml").write_text("id: dodge\nname: {pl: [\n", encoding="utf-8")
    proc = run_kodeks("build", "--content", mini, "--out", out, cwd=mini.parent)
    assert proc.returncode == 1 and "nothing was built" in proc.stderr
    assert (out / "site/index.html").read_text(encoding="utf-8") == before


# --- the shipped content -------------------------------------------------------------------------

def test_shipped_content_validates():
    checked = load_and_check(CONTENT, ROOT)
    assert [p.format() for p in checked.problems.errors] == []
    assert set(checked.kb.games) == {"infinity", "neuroshima-hex-duel", "warzone-eternal", "ciernie-i-gwiazdy",
                                     "warzone-4-1"}


def test_real_site_has_every_entry_in_both_languages(real_build):
    kb = load_and_check(CONTENT, ROOT).kb
    missing = [urls.entry_path(e) for e in kb.entries.values()
               if not (real_build / urls.html_path(urls.entry_path(e))).is_file()
               or not (real_build / "en" / urls.html_path(urls.entry_path(e))).is_file()]
    assert missing == []
    for gid in kb.games:
        assert (real_build / gid / "index.html").is_file() and (real_build / "en" / gid / "index.html").is_file()


def test_real_site_has_no_broken_links(real_build):
    report = check_site(real_build)
    assert report.broken == [], "\n".join(report.broken[:50])


def test_old_ids_keep_working_through_redirects(mini_site):
    old = (mini_site / "ciernie-i-gwiazdy/skill/evade.html").read_text(encoding="utf-8")
    assert 'url=dodge.html' in old
    assert (mini_site / "en/ciernie-i-gwiazdy/skill/evade.html").is_file()


def test_a_redirect_that_shadows_a_live_id_is_refused(mini):
    path = mini / "ciernie-i-gwiazdy/skill/dodge.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("redirects: [evade]", "redirects: [evade, dodge-term]"),
                    encoding="utf-8")
    (mini / "ciernie-i-gwiazdy/skill/evade.yaml").write_text(
        "id: evade\nname: {pl: X}\nsummary: {pl: x}\nsource: {book: tgb, section: X}\n", encoding="utf-8")
    problems = load_and_check(mini, mini.parent).problems
    assert any("redirect 'evade' is the id of another skill" in p.message for p in problems.errors)
