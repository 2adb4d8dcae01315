"""Replay and analysis of finished games: the records replayed, the analysis
jobs, and their HTTP endpoints (issue 13; P32)."""
