"""Interface words of the site, per language."""
from __future__ import annotations

WORDS = {
    "pl": {
        "kinds": {"rule": "Zasady", "skill": "Umiejętności", "trait": "Cechy", "action": "Akcje",
                  "weapon": "Uzbrojenie", "equipment": "Wyposażenie", "unit": "Jednostki", "faction": "Frakcje",
                  "terrain": "Teren", "state": "Stany", "marker": "Znaczniki", "scenario": "Scenariusze",
                  "term": "Słowniczek"},
        "kind_one": {"rule": "zasada", "skill": "umiejętność", "trait": "cecha", "action": "akcja",
                     "weapon": "broń", "equipment": "wyposażenie", "unit": "jednostka", "faction": "frakcja",
                     "terrain": "teren", "state": "stan", "marker": "znacznik", "scenario": "scenariusz",
                     "term": "termin"},
        "home": "Strona główna", "games": "Gry", "source": "Źródło", "notes": "Uwagi", "gaps": "Luki w źródle",
        "used_by": "Używane przez", "see_also": "Zobacz też", "not_translated": "brak tłumaczenia",
        "not_translated_long": "Ten tekst nie ma jeszcze tłumaczenia.",
        "gap": "luka", "gap_legend": "— : źródło nie podaje tej wartości",
        "name": "Nazwa", "summary": "Opis", "level": "Poziom", "levels": "Poziomy", "cost": "Koszt",
        "stats": "Parametry", "weapons": "Uzbrojenie", "skills": "Umiejętności i cechy", "equipment": "Wyposażenie",
        "options": "Opcje", "traits": "Zasady dodatkowe", "profile": "Profil", "mode": "Tryb",
        "faction": "Frakcja", "type": "Typ", "values": "Wartości", "category": "Kategoria",
        "edition": "Wydanie", "publisher": "Wydawca", "authors": "Autorzy", "books": "Podręczniki", "dice": "Kości",
        "stat_line": "Profil jednostki", "weapon_profile": "Profil broni", "entries": "Wpisy",
        "contents": "Spis treści", "part_line": "Profil części", "abbr": "Skrót", "meaning": "Znaczenie",
        "forms": "Formy", "synonyms": "Synonimy", "abbreviations": "Skróty", "refers_to": "Dotyczy",
        "book": "podręcznik", "section": "rozdział", "page": "strona", "lines": "wiersze tekstu źródłowego",
        "note_types": {"contradiction": "Sprzeczność w źródle", "errata": "Errata", "source-defect": "Błąd źródła",
                       "cost-check": "Sprawdzenie kosztu", "gap": "Luka", "ruling": "Interpretacja",
                       "translation": "Tłumaczenie", "design": "Uwaga"},
        "carried_by": "noszą", "linked_from": "odwołania", "other": "Inne",
        "notice": ("kodeks to nieoficjalne, fanowskie opracowanie zasad, napisane własnymi słowami. "
                   "Nie zastępuje podręczników; nazwy gier i znaki towarowe należą do ich właścicieli."),
        "language_name": "Polski", "copy_link": "Kopiuj odnośnik", "copied": "Skopiowano", "open": "Otwórz", "all_entries": "Wszystkie wpisy", "count": "Liczba",
    },
    "en": {
        "kinds": {"rule": "Rules", "skill": "Skills", "trait": "Traits", "action": "Actions",
                  "weapon": "Weapons", "equipment": "Equipment", "unit": "Units", "faction": "Factions",
                  "terrain": "Terrain", "state": "States", "marker": "Markers", "scenario": "Scenarios",
                  "term": "Glossary"},
        "kind_one": {"rule": "rule", "skill": "skill", "trait": "trait", "action": "action", "weapon": "weapon",
                     "equipment": "equipment", "unit": "unit", "faction": "faction", "terrain": "terrain",
                     "state": "state", "marker": "marker", "scenario": "scenario", "term": "term"},
        "home": "Home", "games": "Games", "source": "Source", "notes": "Notes", "gaps": "Gaps in the source",
        "used_by": "Used by", "see_also": "See also", "not_translated": "not yet translated",
        "not_translated_long": "This text has not been translated yet; the Polish original is shown.",
        "gap": "gap", "gap_legend": "— : the source does not give this value",
        "name": "Name", "summary": "Summary", "level": "Level", "levels": "Levels", "cost": "Cost",
        "stats": "Stats", "weapons": "Weapons", "skills": "Skills and traits", "equipment": "Equipment",
        "options": "Options", "traits": "Special rules", "profile": "Profile", "mode": "Mode",
        "faction": "Faction", "type": "Type", "values": "Values", "category": "Category",
        "edition": "Edition", "publisher": "Publisher", "authors": "Authors", "books": "Books", "dice": "Dice",
        "stat_line": "Unit profile", "weapon_profile": "Weapon profile", "entries": "Entries",
        "contents": "Contents", "part_line": "Part profile", "abbr": "Abbr.", "meaning": "Meaning",
        "forms": "Forms", "synonyms": "Synonyms", "abbreviations": "Abbreviations", "refers_to": "Refers to",
        "book": "book", "section": "section", "page": "page", "lines": "source-text lines",
        "note_types": {"contradiction": "Contradiction in the source", "errata": "Errata",
                       "source-defect": "Source defect", "cost-check": "Cost check", "gap": "Gap",
                       "ruling": "Ruling", "translation": "Translation", "design": "Note"},
        "carried_by": "carried by", "linked_from": "linked from", "other": "Other",
        "notice": ("kodeks is an unofficial fan reference to these rules, written in its own words. It does not "
                   "replace the rulebooks; game names and trademarks belong to their owners."),
        "language_name": "English", "copy_link": "Copy link", "copied": "Copied", "open": "Open", "all_entries": "All entries", "count": "Count",
    },
}


def t(lang: str, key: str):
    return WORDS[lang][key]
