"""``passing-game verify RECORD``: check that a game's deals were the ones committed to.

A contract (issue 26, item 3; docs/RECORDS.md, "fairness"): exit status 0
and a last line starting with ``verified`` for a record as the server wrote
it; exit status 1 and a last line naming the first thing that does not hold
for a record changed in any way (a seed, a salt, a contribution, the
commitment, a deal, a move, a result, a score); exit status 2 for a file that
is not a record at all. A record written before commitments verifies its
deals and moves and says plainly that it carries none, so that nothing proves
its deals were not chosen: a record whose ``fairness`` was deleted cannot be
told from one (no signature), so ``--commitment`` takes the commitment the
table showed and refuses a record that does not carry it.

What the writer always writes must be there (``load_record(complete=True)``):
the scores, the winner, each round's result, and a finished game's moves'
digest where it carries a commitment.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any, NoReturn

import click

from passing_game.cli.options import TranslatedCommand
from passing_game.errors import RecordError
from passing_game.fairness import FairnessError, check, check_moves
from passing_game.i18n import N_, _, ngettext
from passing_game.records import ENDED_APART, RECORD_FORMAT, load_record

#: The exit statuses of the contract.
VERIFIED, CHANGED, NOT_A_RECORD = 0, 1, 2
#: The largest file read (a record of a long match is a few hundred KB).
MAX_BYTES = 16 * 1024 * 1024
#: ``--commitment``: the whole commitment, or its beginning as the table shows it (12
#: digits and an ellipsis); finding another commitment that begins alike takes some
#: 2**48 hashes, and then its seed is a random one, not a deal of one's choosing.
_COMMITMENT = re.compile(r"[0-9a-f]{12,64}")


def _refuse(message: str) -> NoReturn:
    click.echo(message, err=True)
    sys.exit(NOT_A_RECORD)


def _changed(message: str) -> NoReturn:
    # TRANSLATORS: keep "not verified" in English: tools read the last line (a contract).
    click.echo(_("not verified: {reason}").format(reason=message))
    sys.exit(CHANGED)


def _read(path: Path) -> dict[str, Any]:
    """The file's JSON object, or exit 2 saying why it is not a record."""
    try:
        if path.stat().st_size > MAX_BYTES:
            _refuse(_("{path} is not a game record: it is larger than 16 MB").format(path=path))
        raw = path.read_bytes()
    except OSError as exc:
        _refuse(_("cannot read {path}: {reason}").format(path=path, reason=exc.strerror or exc))
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        _refuse(_("{path} is not a game record: it is not JSON").format(path=path))
    if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
        _refuse(
            _("{path} is not a game record: it has no “format”: “{format}”").format(
                path=path, format=RECORD_FORMAT
            )
        )
    found: dict[str, Any] = data
    return found


@click.command(
    "verify",
    cls=TranslatedCommand,
    help=N_(
        "Check a game record: its commitment, its seed, every deal and every move."
        " Exit status 0 when it verifies, 1 when something does not hold, 2 when the"
        " file is not a record."
    ),
)
@click.argument("record", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--commitment",
    "expected",
    metavar="HEX",
    default=None,
    help=N_(
        "The commitment the table showed before the deal (its first 12 to 64 hexadecimal"
        " digits): a record that does not carry it is not verified."
    ),
)
def verify_command(record: Path, expected: str | None) -> None:
    """Verify RECORD and say the first thing that does not hold, if any."""
    if expected is not None:
        expected = expected.strip().rstrip("…").rstrip(".").lower()
        if not _COMMITMENT.fullmatch(expected):
            raise click.BadParameter(
                _("give the commitment's first 12 to 64 hexadecimal digits"),
                param_hint="--commitment",
            )
    data = _read(record)
    players = data.get("rules", {}).get("players") if isinstance(data.get("rules"), dict) else None
    fairness = "fairness" in data
    if expected is not None and not fairness:
        _changed(_("the record carries no commitment, and the table showed one"))
    if fairness:
        try:
            wrong = check(data, players if isinstance(players, int) else 0)
        except FairnessError as exc:
            _changed(str(exc))
        if wrong is not None:
            _changed(wrong)
        shown = data["fairness"]["commitment"]
        if expected is not None and not str(shown).startswith(expected):
            _changed(_("the record's commitment is not the one the table showed"))
        click.echo(_("commitment: {value}").format(value=shown))
    try:
        match = load_record(data, complete=True)
    except RecordError as exc:
        _changed(str(exc))
    # A finished game's record as the server writes it always carries the digest.
    finished = match.is_over or any(key in data for key in ENDED_APART)
    if fairness and (wrong := check_moves(data, finished=finished)) is not None:
        _changed(wrong)
    deals = len(match.rounds)
    click.echo(
        ngettext(
            "{n} deal replayed, with every move, result and score.",
            "{n} deals replayed, with every move, result and score.",
            deals,
        ).format(n=deals)
    )
    if not fairness:
        click.echo(
            # TRANSLATORS: keep "verified" in English: tools read the last line (a contract).
            _(
                "verified: every deal and move replays, but this record carries no commitment:"
                " nothing proves that its deals were not chosen"
            )
        )
        return
    contributed = sum(1 for c in data["fairness"]["contributions"] if c is not None)
    click.echo(
        # TRANSLATORS: keep "verified" in English: tools read the last line (a contract).
        ngettext(
            "verified: the commitment, the seed ({n} contribution), every deal and every move",
            "verified: the commitment, the seed ({n} contributions), every deal and every move",
            contributed,
        ).format(n=contributed)
    )
