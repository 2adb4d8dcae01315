"""Accounts: names, passwords, sessions, the limits on guessing, and their
HTTP endpoints (issues 13 and 22; P29, P40)."""
