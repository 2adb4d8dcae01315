"""The C sources compile without a warning under -Wall -Wextra (setup.py builds them so).

A warning is a failure here, so one slipping into _rules.h, _kernel.c,
_fastround.c, _solve.c or _vecenv.c is caught before it becomes a bug; the test needs a C compiler
and the Python headers, and is skipped without them.
"""

from __future__ import annotations

import shutil
import subprocess
import sysconfig
from pathlib import Path

import pytest

SOURCES = sorted((Path(__file__).parent.parent / "src" / "passing_game").glob("_*.c"))
INCLUDE = Path(sysconfig.get_paths()["include"])
COMPILER = next(
    (
        found
        for cc in (sysconfig.get_config_var("CC") or "cc", "cc", "gcc", "clang")
        if (found := shutil.which(cc.split()[0]))
    ),
    None,
)

pytestmark = [
    pytest.mark.skipif(COMPILER is None, reason="no C compiler"),
    pytest.mark.skipif(not (INCLUDE / "Python.h").exists(), reason="no Python headers"),
]


def test_every_extension_is_found() -> None:
    assert {p.name for p in SOURCES} == {"_kernel.c", "_fastround.c", "_solve.c", "_vecenv.c"}


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_compiles_without_warnings(source: Path, tmp_path: Path) -> None:
    """A full compile (-fsyntax-only would skip the optimiser's warnings)."""
    assert COMPILER is not None
    command = [
        COMPILER,
        "-Wall",
        "-Wextra",
        "-Werror",
        "-O3",
        "-fPIC",
        "-c",
        "-o",
        str(tmp_path / "out.o"),
        f"-I{INCLUDE}",
        str(source),
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
