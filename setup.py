"""The package's four C extensions; everything else is in pyproject.toml.

They are here, not in pyproject.toml's ``[tool.setuptools] ext-modules``,
because setuptools still calls that table experimental and warns on every
install. All four are optional: without a C compiler the package installs
and falls back to pure Python (docs/PERFORMANCE.md).
"""

from setuptools import Extension, setup

FLAGS = ["-O3", "-Wall", "-Wextra"]
#: Both kernels include the rules in C, _rules.h (tests/test_c_warnings.py keeps them warning-free).
RULES_H = ["src/passing_game/_rules.h"]

setup(
    ext_modules=[
        # The bots' search kernel (bots.kernel).
        Extension(
            "passing_game._kernel",
            sources=["src/passing_game/_kernel.c"],
            depends=RULES_H,
            optional=True,
            extra_compile_args=FLAGS,
        ),
        # The state of a Round in C behind the same API (round.FastRound); without
        # it Round is the pure-Python PyRound.
        Extension(
            "passing_game._fastround",
            sources=["src/passing_game/_fastround.c"],
            depends=RULES_H,
            optional=True,
            extra_compile_args=FLAGS,
        ),
        # The exact two-player round on a small set: CFR+ and best response
        # (solve, issue 28).
        Extension(
            "passing_game._solve",
            sources=["src/passing_game/_solve.c"],
            depends=RULES_H,
            optional=True,
            extra_compile_args=FLAGS,
        ),
        # N rounds stepped by one call for reinforcement learning (rl.vector_env).
        # No fused multiply-add: the heuristic opponent's scores must round as Python's do.
        Extension(
            "passing_game._vecenv",
            sources=["src/passing_game/_vecenv.c"],
            depends=RULES_H,
            optional=True,
            extra_compile_args=[*FLAGS, "-ffp-contract=off"],
        ),
    ]
)
