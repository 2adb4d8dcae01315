"""Public profiles with statistics (issue 27, item 3; P60)."""
