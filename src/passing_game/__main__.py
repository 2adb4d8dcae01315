"""``python -m passing_game`` runs the command line."""

from passing_game.cli import main

if __name__ == "__main__":
    main()
