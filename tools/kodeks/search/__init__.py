"""Search: one analysis of Polish and English text (folding, stemming, glossary forms) feeding both the
whoosh index used by `kodeks search` and the browser-side index of the site."""
