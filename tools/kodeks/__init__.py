"""kodeks: a bilingual (Polish/English) rules knowledge base for tabletop wargames.

Data flows one way: YAML under content/ -> loaded, validated model (kodeks.model) ->
renderers (kodeks.site for pages, kodeks.export for kb.json, and the others).
"""

__version__ = "0.1.0"
LANGS = ("pl", "en")
