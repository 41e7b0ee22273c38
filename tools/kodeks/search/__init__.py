"""Search: one analysis of Polish and English text (folding, stemming, glossary forms) into one index per
language (search.index), which `kodeks search` scores in Python (search.engine, whoosh holding the documents)
and the site scores in the browser (assets/kodeks-search.js), the same way."""
