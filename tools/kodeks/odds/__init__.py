"""Exact dice odds from a game's `odds:` declaration (issue 24).

expr: the expressions of a declaration; model: the declaration read into objects; dice: how one die is read
against a target; evaluate: the exact outcome of a calculator for one set of inputs; report: the outcome as a
table or JSON. kodeks.checks.odds reports what is wrong in a declaration; site/assets/kodeks-odds.js runs the
same arithmetic in the browser.
"""
