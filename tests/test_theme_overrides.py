"""kodeks' copy of Material's nav-item.html: Material's file with two changes for speed, and the same pages out.

The copy looks for a section's index page only when the section is shown open, and renders an item that is
not on the way to the page once per folder (site/overrides/partials/nav-item.html, site/navmemo.py).
Material's own loop ran over the children of every section, pruned ones included: at 10,000 entries it was a
third of mkdocs' time to render a page, and it grew with the number of entries.
"""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import HANG, MINI, ROOT

OURS = ROOT / "tools" / "kodeks" / "site" / "overrides" / "partials" / "nav-item.html"

INDEX_LOOP = """    {% set _ = namespace(index = none) %}
    {% if "navigation.indexes" in features %}
      {% for item in nav_item.children %}
        {% if item.is_index and _.index is none %}
          {% set _.index = item %}
        {% endif %}
      {% endfor %}
    {% endif %}
    {% set index = _.index %}
"""
RENDER = "{% macro render(nav_item, path, level, parent) %}"
MEMO = """{% macro render(nav_item, path, level, parent) %}
  {%- if kodeks_nav_memo is defined and not nav_item.active -%}
    {{- kodeks_nav_memo(render_item, nav_item, path, level, parent, page) -}}
  {%- else -%}
    {{- render_item(nav_item, path, level, parent) -}}
  {%- endif -%}
{% endmacro %}
"""
LOOP = '                {{ render(item, path ~ "_" ~ loop.index, level + 1, nav_item) }}\n'
LOOP_MEMO = """                {% if kodeks_nav_memo is defined and not item.active %}
                  {{ kodeks_nav_memo(render_item, item, path ~ "_" ~ loop.index, level + 1, nav_item, page) }}
                {% else %}
                  {{ render(item, path ~ "_" ~ loop.index, level + 1, nav_item) }}
                {% endif %}
"""
PRUNE_END = """        {% set is_pruned = true %}
      {% endif %}
    {% endif %}
"""


def _materials() -> str:
    material = pytest.importorskip("material")
    return (Path(material.__file__).parent / "templates" / "partials" / "nav-item.html").read_text(encoding="utf-8")


def _body(template: str) -> str:
    """The template without its leading comment."""
    return re.sub(r"\A\{#-.*?-#\}\n", "", template, count=1, flags=re.S)


def test_the_copy_is_materials_file_with_the_index_loop_moved_and_render_memoised():
    stock = _body(_materials())
    assert stock.count(INDEX_LOOP) == 1 and stock.count(PRUNE_END) == 1 and stock.count(RENDER) == 1 \
        and stock.count(LOOP) == 1, (
        "Material's nav-item.html changed: copy it again into site/overrides/partials/nav-item.html, move its "
        "index loop below the navigation.prune block (only when the section is not pruned), rename `render` "
        "to `render_item`, add kodeks' `render` at the end and hand the loop's items to kodeks_nav_memo")
    moved = INDEX_LOOP.replace('{% if "navigation.indexes" in features %}',
                               '{% if "navigation.indexes" in features and not is_pruned %}')
    expected = stock.replace(INDEX_LOOP, "").replace(PRUNE_END, PRUNE_END + moved)
    expected = expected.replace(RENDER, RENDER.replace("render(", "render_item(")).replace(LOOP, LOOP_MEMO) + MEMO
    assert _body(OURS.read_text(encoding="utf-8")) == expected


def _pages(site: Path) -> dict[str, list[str]]:
    """Every HTML page of a site as its lines stripped of indentation (what a browser reads of it)."""
    out = {}
    for path in site.rglob("*.html"):
        lines = [line.strip() for line in path.read_text(encoding="utf-8").splitlines()]
        out[str(path.relative_to(site))] = [line for line in lines if line]
    return out


def test_pages_made_with_the_copy_read_as_pages_made_with_materials_file(tmp_path):
    """The mini fixture built twice: with kodeks as it is, and with a kodeks whose overrides lack the copy."""
    stock_tools = tmp_path / "tools"
    shutil.copytree(ROOT / "tools", stock_tools, ignore=shutil.ignore_patterns("__pycache__"))
    (stock_tools / "kodeks" / "site" / "overrides" / "partials" / "nav-item.html").unlink()
    for beside in ("schema", "mkdocs.yml"):  # what kodeks reads next to its package
        copy = shutil.copytree if (ROOT / beside).is_dir() else shutil.copy2
        copy(ROOT / beside, tmp_path / beside)
    sites = {}
    for name, tools in (("ours", ROOT / "tools"), ("stock", stock_tools)):
        env = dict(os.environ, PYTHONPATH=str(tools), COLUMNS="200", NO_COLOR="1")
        proc = subprocess.run([sys.executable, "-m", "kodeks", "build", "--no-pdf", "--content", str(MINI),
                               "--out", str(tmp_path / name)], cwd=MINI.parent, env=env, capture_output=True,
                              text=True, timeout=HANG)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        sites[name] = _pages(tmp_path / name / "site")
    assert sites["ours"].keys() == sites["stock"].keys()
    assert len(sites["ours"]) > 50
    differ = [page for page in sites["ours"] if sites["ours"][page] != sites["stock"][page]]
    assert not differ, differ[:5]
    # The mini game has closed sections on its pages, so the moved loop was skipped somewhere.
    assert any("md-nav__item--pruned" in "".join(lines) for lines in sites["ours"].values())
