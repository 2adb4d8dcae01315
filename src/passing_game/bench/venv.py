"""The bench's throwaway virtual environment, with the pinned peers in it.

``.bench-venv/`` (git-ignored) is made on first use with ``python -m venv``;
the peers from ``peers.REQUIREMENTS`` are installed into it with pip, and so
is this project (``pip install -e``) when it runs from a source checkout.
Nothing goes into the project's own environment. A stamp file records what
was installed, so later runs start at once; delete the folder to start over.

The drivers run there with this package's source folder first on
``PYTHONPATH``, so the code measured is always the code of this checkout.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import passing_game
from passing_game.bench.common import Sample
from passing_game.bench.peers import REQUIREMENTS

#: Where the environment goes unless told otherwise (relative to the working folder).
DEFAULT_PATH = Path(".bench-venv")
STAMP = ".bench-stamp"
#: The most a driver may take beyond its budget (imports, warm-up) before it is stopped.
DRIVER_GRACE = 120.0


class BenchEnvError(RuntimeError):
    """The bench environment could not be made, or a driver failed in it."""


def package_root() -> Path:
    """The folder holding the ``passing_game`` package (``src`` in a checkout)."""
    return Path(passing_game.__file__).resolve().parent.parent


def source_checkout() -> Path | None:
    """The project folder (with ``pyproject.toml``) when running from a checkout."""
    root = package_root().parent
    return root if (root / "pyproject.toml").is_file() else None


def _bin(path: Path, name: str) -> Path:
    return path / ("Scripts" if os.name == "nt" else "bin") / name


class BenchVenv:
    """The environment at ``path``: made and filled by ``ensure``, used by ``run``."""

    def __init__(self, path: Path = DEFAULT_PATH, base_python: str | None = None) -> None:
        self.path = Path(path)
        self.base_python: str = base_python or str(
            getattr(sys, "_base_executable", None) or sys.executable
        )

    @property
    def python(self) -> Path:
        return _bin(self.path, "python.exe" if os.name == "nt" else "python")

    def wanted(self) -> str:
        checkout = source_checkout()
        lines = sorted(REQUIREMENTS.values())
        if checkout is not None:
            lines.append(f"-e {checkout}")
        return "\n".join(lines) + "\n"

    def is_ready(self) -> bool:
        stamp = self.path / STAMP
        return self.python.is_file() and stamp.is_file() and stamp.read_text() == self.wanted()

    def ensure(self, log: Callable[[str], None] = print) -> Path:
        """Make the environment and install the peers unless already done; its python."""
        if self.is_ready():
            return self.python
        if not self.python.is_file():
            log(f"Making the bench environment in {self.path} ...")
            self._call([self.base_python, "-m", "venv", str(self.path)])
        log("Installing " + ", ".join(sorted(REQUIREMENTS.values())) + " into it ...")
        pip = [str(self.python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        self._call([*pip, *sorted(REQUIREMENTS.values())])
        checkout = source_checkout()
        if checkout is not None:
            log(f"Installing this project (-e {checkout}) into it ...")
            self._call([*pip, "-e", str(checkout)])
        (self.path / STAMP).write_text(self.wanted())
        return self.python

    @staticmethod
    def _call(command: list[str]) -> None:
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            text = (done.stderr or done.stdout).strip()
            raise BenchEnvError(f"{' '.join(command)} failed ({done.returncode}):\n{text[-2000:]}")


def run_driver(python: Path | str, engine: str, seconds: float, seed: int) -> Sample:
    """Run ``passing_game.bench.driver`` for ``engine`` with ``python``; its sample."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(package_root()), env.get("PYTHONPATH", "")) if p
    )
    env.pop("PYTHONSTARTUP", None)
    command = [
        str(python),
        "-m",
        "passing_game.bench.driver",
        engine,
        "--seconds",
        repr(seconds),
        "--seed",
        str(seed),
    ]
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, env=env, timeout=seconds + DRIVER_GRACE
        )
    except subprocess.TimeoutExpired:
        raise BenchEnvError(f"the {engine} driver did not finish in time") from None
    if done.returncode != 0:
        text = (done.stderr or done.stdout).strip()
        raise BenchEnvError(f"the {engine} driver failed ({done.returncode}): {text[-1000:]}")
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if not lines:
        raise BenchEnvError(f"the {engine} driver printed no result: {done.stdout[-500:]!r}")
    return Sample.from_json(lines[-1])
