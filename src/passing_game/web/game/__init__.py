"""The table authority, pure: a table's rules as functions of its state, one
event and the time (docs/DECISIONS.md P41).

Nothing here does I/O or knows the time of day: no asyncio, threads, clock,
SQL or web framework (``tests/test_web_game.py`` says so). The runner
(``web/table/runner.py``) feeds it events and carries out the effects it returns.
"""
