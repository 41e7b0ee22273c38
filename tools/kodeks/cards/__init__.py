"""Unit cards: what a card holds (content), how it looks (HTML + CSS shared by the site and the PDF), how
cards fit sizes and sheets (layout), and the PDF (WeasyPrint)."""
