"""``python -m passing_game`` runs the command line."""

from passing_game.cli import main

main()
