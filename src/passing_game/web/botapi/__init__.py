"""Bot accounts on the site: their tokens, their socket, their games (issue 28, item 4; P62)."""
