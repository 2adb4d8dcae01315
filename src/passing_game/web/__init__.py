"""The web app: ``passing-game serve``.

``store`` keeps tables and games (SQLite or PostgreSQL), ``protocol`` checks
what clients send and builds what they are sent, ``app`` is the Starlette
application and ``static/`` the page. Needs the ``web`` extra
(``pip install 'passing-game[web]'``).
"""
