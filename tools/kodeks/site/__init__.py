"""The site renderer: the model -> Markdown pages per language -> mkdocs-material, PL at / and EN at /en/."""
