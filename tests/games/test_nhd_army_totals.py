"""Neuroshima Hex: Duel — every army is exactly 35 tiles, and the per-type counts add up."""
from collections import Counter
from pathlib import Path

import pytest

from kodeks.project import load_and_check

ROOT = Path(__file__).resolve().parents[2]
GAME = "neuroshima-hex-duel"


@pytest.fixture(scope="module")
def kb():
    checked = load_and_check(ROOT / "content", ROOT)
    assert checked.ok
    return checked.kb


def test_each_army_has_35_tiles(kb):
    factions = kb.of(GAME, "faction")
    assert len(factions) == 6
    for faction in factions:
        tiles = [u for u in kb.of(GAME, "unit") if u.faction and u.faction.key == faction.key]
        total = sum(u.values["count"] for u in tiles)
        assert total == 35, f"{faction.id}: {total} tiles"
        assert faction.values.get("tiles") == 35
        by_type = Counter()
        for u in tiles:
            by_type[u.category] += u.values["count"]
        for category in ("instant", "soldier", "module", "foundation"):
            if f"{category}_tiles" in faction.values:
                assert by_type[category] == faction.values[f"{category}_tiles"], (faction.id, category)
        assert by_type["hq"] == 1, faction.id


def test_values_given_only_by_icons_are_gaps_not_zero(kb):
    from kodeks.model.values import Gap
    soldiers = [u for u in kb.of(GAME, "unit") if u.category == "soldier"]
    assert soldiers
    assert all(not isinstance(u.stats.get("initiative"), int) or u.stats["initiative"] in (0, 1, 2, 3) for u in soldiers)
    assert sum(isinstance(v, Gap) for u in soldiers for v in u.stats.values()) > len(soldiers)
