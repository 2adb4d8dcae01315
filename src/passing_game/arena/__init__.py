"""The arena: bots against each other on duplicate deals, measured.

``schedule`` says who sits where (standard library only), ``runner`` plays
the games on worker processes (standard library only), ``stats`` holds the
intervals, ratings and sequential test, ``summary`` turns the outcomes into
them, and ``report`` prints and writes them; those three need the ``arena``
extra (numpy, scipy, matplotlib). ``agents`` (standard library) says who
plays the agents' ladder, ``ladder`` and ``ladder_report`` run and report it
(``passing-game arena --ladder``, P63). The rules core never imports this
package.

>>> from passing_game.arena.runner import ArenaConfig, bot_specs, run
>>> config = ArenaConfig(tuple(bot_specs(["random", "greedy"])), games=4, seed=1)
>>> result = run(config)
>>> len(result.outcomes), config.blocks
(4, 2)
"""
