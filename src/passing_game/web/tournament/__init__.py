"""Tournaments for people (issue 26, item 1): arena, Swiss and duplicate.

``model`` holds the facts and the standings, ``pairing`` who meets whom;
both pure. The store's rows are ``web/store/tournaments.py``'s.
"""
