"""Ratings: the pure model (``model``), a finished game rated in the store
(``service``), and what a table shows of it (``shown``); P33."""
