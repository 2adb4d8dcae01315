"""Practice from any position of a replay (issue 25, item 3): ``model`` (the deal, the
match: pure), ``service`` (the practice table made in the store), ``api``
(``POST /api/practice``), ``words`` (the page's texts)."""
