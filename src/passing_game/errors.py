"""The exceptions the rules core raises; all are ``ValueError`` subclasses."""


class PassingGameError(ValueError):
    """Base class of every error the rules core raises for bad input."""


class ParseError(PassingGameError):
    """Text that is not a tile, a move or a rules value."""


class IllegalMove(PassingGameError):
    """A move the rules do not allow now; the state is left unchanged."""


class RecordError(PassingGameError):
    """A game record that is corrupt, of an unknown version or not replayable."""
