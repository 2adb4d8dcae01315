"""Chat at tables and tournaments (issue 27, item 1; docs/DECISIONS.md P58)."""
