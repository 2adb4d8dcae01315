"""Puzzles in the browser (issue 25, item 2): the shipped puzzles solved on ``/puzzles``.

``glicko`` (Glicko-2, pure), ``model`` (which puzzle next, the puzzle of the
day, the streak, judging a move: pure, with an injected clock and random
source), ``shown`` (a ``Puzzle`` as the page's JSON, whatever it came from,
and the judged moves in words), ``words`` (the page's texts), ``service``
(the store's transactions: a first attempt rated under the rows' locks) and
``api`` (the endpoints, ``ROUTES``). The puzzles themselves are the core's
``passing_game.puzzles``; their rows are ``store/puzzles.py``'s.
"""
