"""The live preview (`kodeks serve`): after a save only the touched files are read, only the touched entries
checked, and only the pages that show them rebuilt; the result equals a full build."""
import shutil
import time

import pytest
from ruamel.yaml import YAML

from conftest import CONTENT, ROOT
from kodeks import checks
from kodeks.content.loader import FileCache, load
from kodeks.problems import Problems
from kodeks.site import pages
from kodeks.site.live import LiveSite, affected

GAME = "ciernie-i-gwiazdy"


def _load(content, cache, memo):
    problems = Problems(root=content.parent)
    loaded = load(content, problems, cache)
    checks.run(loaded, problems, memo)
    assert not problems.errors, [p.format() for p in problems.errors]
    return loaded.kb


def _edit(path, base, change):
    """Change one entry of a content file the way an author would (round trip, comments kept)."""
    y = YAML()
    y.width = 4096
    data = y.load(path.read_text(encoding="utf-8"))
    item = data[base[0]] if base else data
    change(item)
    with path.open("w", encoding="utf-8") as fh:
        y.dump(data, fh)
    time.sleep(0.01)


@pytest.fixture
def game_copy(tmp_path):
    """One shipped game, writable: its pages render in seconds."""
    dest = tmp_path / "content"
    shutil.copytree(CONTENT / GAME, dest / GAME)
    return dest


def _pick(kb, kind, used_as):
    return next(e for e in kb.of(GAME, kind) if any(ref.how == used_as for ref in kb.backrefs.get(e.key, ())))


def _bump(values):
    key = next(k for k, v in values.items() if isinstance(v, int))
    values[key] = 1 if values[key] != 1 else 2


EDITS = {
    # A weapon's profile is printed on the pages and cards of the units that carry it.
    "weapon profile": ("weapon", "weapons", lambda item: _bump(item["profiles"][0]["values"])),
    # A skill's summary is the preview of every link to it and the reminder line on unit cards.
    "skill summary": ("skill", "skills", lambda item: item["summary"].__setitem__("pl", "Nowe streszczenie.")),
    # A weapon trait's reminder reaches the cards of the units that carry the weapon (two steps away).
    "trait summary": ("trait", "traits", lambda item: item["summary"].__setitem__("pl", "Nowa cecha.")),
    # A unit's stats are on its card, in the print pages of its faction and its game.
    "unit stat": ("unit", "link", lambda item: _bump(item["stats"])),
    # A new link in a rule adds the rule to the target's "used by".
    "rule link": ("rule", "link", lambda item: item["text"].__setitem__(
        "pl", item["text"]["pl"] + "\n\nZobacz też [Regenerację](id:skill/regeneration).")),
}


@pytest.mark.parametrize("edit", EDITS)
def test_only_affected_pages_differ_from_a_full_render(game_copy, edit):
    kind, used_as, change = EDITS[edit]
    cache, memo = FileCache(), checks.Memo()
    old = _load(game_copy, cache, memo)
    before = {lang: pages.all_pages(old, lang) for lang in ("pl", "en")}
    entry = _pick(old, kind, used_as)
    _edit(entry.file, entry.base, change)
    new = _load(game_copy, cache, memo)
    changed = [k for k, e in new.entries.items() if old.entries.get(k) is not e]
    assert changed == [entry.key], "only the edited entry is a new object"
    touched = affected(old, new, changed, before)
    for lang in ("pl", "en"):
        after = pages.all_pages(new, lang)
        differ = {p for p in after if after[p] != before[lang].get(p)}
        assert differ <= touched, sorted(differ - touched)
        assert lang == "en" or entry_path_in(differ, entry), "the edits are to the Polish text"
    # Back-references replayed from the memo equal those of a fresh check.
    fresh = _load(game_copy, None, None)
    assert {k: sorted((r.source.key, r.how) for r in v) for k, v in new.backrefs.items() if v} == \
           {k: sorted((r.source.key, r.how) for r in v) for k, v in fresh.backrefs.items() if v}


def _set_summary(item, text):
    if isinstance(item.get("summary"), str):
        item["summary"] = text
    else:
        item["summary"]["pl"] = text


def test_a_summary_edit_of_any_kind_touches_only_the_pages_it_names(game_copy):
    """For each kind, the entry shown most widely (a glossary term's target, then the most back-references)
    gets a new summary, the preview of every link to it. A glossary form's link is recorded by no
    back-reference: only the Markdown as last rendered shows where it landed."""
    from kodeks.site import urls
    cache, memo = FileCache(), checks.Memo()
    old = _load(game_copy, cache, memo)
    before = {lang: pages.all_pages(old, lang) for lang in ("pl", "en")}
    targets = {e.target.key for e in old.of(GAME, "term") if e.target is not None}
    found_by_markdown_only = []
    for kind in old.kinds_of(GAME):
        candidates = [e for e in old.of(GAME, kind) if e.summary]
        if kind == "term" or not candidates:
            continue  # a term's forms link any page: its edit is a full build
        entry = max(candidates, key=lambda e: (e.key in targets, len(old.backrefs.get(e.key, ()))))
        _edit(entry.file, entry.base, lambda item: _set_summary(item, f"Nowe streszczenie: {kind}."))
        new = _load(game_copy, cache, memo)
        changed = [k for k, e in new.entries.items() if old.entries.get(k) is not e]
        assert changed == [entry.key]
        touched = affected(old, new, changed, before)
        after = {lang: pages.all_pages(new, lang) for lang in ("pl", "en")}
        differ = {p for lang in after for p in after[lang] if after[lang][p] != before[lang].get(p)}
        assert urls.entry_path(entry) in differ and differ <= touched, (kind, sorted(differ - touched))
        assert urls.game_index(GAME) not in touched and "index.md" not in touched, "counts only change with entries"
        found_by_markdown_only += sorted(differ - affected(old, new, changed))
        old, before = new, after
    assert found_by_markdown_only, "some glossary form links to a term's target outside its back-references"


def entry_path_in(paths, entry):
    from kodeks.site import urls
    return urls.entry_path(entry) in paths


def test_unchanged_files_are_not_read_again(game_copy, monkeypatch):
    cache, memo = FileCache(), checks.Memo()
    _load(game_copy, cache, memo)
    from kodeks.content import loader
    read = []
    real = loader.read_yaml
    monkeypatch.setattr(loader, "read_yaml", lambda path, problems, parsed=None: read.append(path) or real(path, problems, parsed))
    _load(game_copy, cache, memo)
    assert [p.name for p in read] == ["game.yaml"], "game.yaml is small and read each time"
    read.clear()
    target = next((game_copy / GAME / "skill").glob("*.yaml"))
    target.write_text(target.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    _load(game_copy, cache, memo)
    assert [p for p in read if p.name != "game.yaml"] == [target]


def test_a_broken_link_is_found_when_its_target_disappears(game_copy):
    cache, memo = FileCache(), checks.Memo()
    kb = _load(game_copy, cache, memo)
    entry = _pick(kb, "skill", "link")
    user = next(r.source for r in kb.backrefs[entry.key] if r.how == "link")
    _edit(entry.file, entry.base, lambda item: item.__setitem__("id", item["id"] + "-renamed"))
    problems = Problems(root=game_copy.parent)
    loaded = load(game_copy, problems, cache)
    checks.run(loaded, problems, memo)
    assert any(p.path.endswith(user.file.name) and entry.id in p.message for p in problems.errors)


def test_live_site_rebuilds_one_page_and_its_neighbours(mini, tmp_path):
    live = LiveSite(mini, mini.parent, tmp_path / "build")
    first = live.full()
    assert first.ok and first.full and (live.site / "ciernie-i-gwiazdy/skill/dodge.html").is_file()
    # The built pages are the published site's: only the server adds the tag that makes them ask for new
    # versions (test_hardening_cli serves them).
    assert 'name="kodeks-live"' not in (live.site / "index.html").read_text(encoding="utf-8")
    page = live.site / "ciernie-i-gwiazdy/skill/dodge.html"
    en_page = live.site / "en/ciernie-i-gwiazdy/skill/dodge.html"
    drone = live.site / "ciernie-i-gwiazdy/unit/heavy-drone.html"
    assert "Lunatyczny unik" not in drone.read_text(encoding="utf-8")
    _edit(mini / "ciernie-i-gwiazdy/skill/dodge.yaml", (), lambda item: (
        item["summary"].__setitem__("pl", "Lunatyczny unik."), item["text"].__setitem__("en", "Sleepwalker dodge.")))
    seen = []
    result = live.update(ready=lambda: seen.append(en_page.read_text(encoding="utf-8")))
    assert seen and "Sleepwalker dodge." in seen[0], "the entry's page is written before `ready` is called"
    assert result.ok and not result.full and result.changed == [next(iter(
        k for k in live.kb.entries if k.id == "dodge" and k.kind == "skill"))]
    assert 0 < result.pages < len(live.md["pl"])
    assert "Sleepwalker dodge." in en_page.read_text(encoding="utf-8")
    assert "Lunatyczny unik" in drone.read_text(encoding="utf-8"), "the unit's card reminds the new summary"
    assert "Lunatyczny unik" in (live.site / "assets/kodeks-summaries.js").read_text(encoding="utf-8")
    assert '"lunatyczn' in (live.site / "assets/kodeks-index.js").read_text(encoding="utf-8"), "the new word is indexed"
    assert page.is_file()
    # An error keeps the last good site; the fix brings the update.
    (mini / "ciernie-i-gwiazdy/skill/dodge.yaml").write_text("id: [\n", encoding="utf-8")
    bad = live.update()
    assert not bad.ok and page.is_file()
    (mini / "ciernie-i-gwiazdy/skill/dodge.yaml").write_text(
        (ROOT / "tests/fixtures/mini/ciernie-i-gwiazdy/skill/dodge.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    again = live.update()
    assert again.ok and "Lunatyczny unik" not in drone.read_text(encoding="utf-8")
    # A new entry changes the navigation: everything is built again.
    (mini / "ciernie-i-gwiazdy/skill/jump.yaml").write_text(
        "id: jump\nname: {pl: Skok, en: Jump}\nsummary: {pl: Skacze., en: Jumps.}\n"
        "source: {book: tgb, section: UMIEJĘTNOŚCI}\n", encoding="utf-8")
    added = live.update()
    assert added.ok and added.full and (live.site / "en/ciernie-i-gwiazdy/skill/jump.html").is_file()
